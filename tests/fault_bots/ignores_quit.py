#!/usr/bin/env python3
"""Fault bot: plays correctly, but ignores ``quit``, ignores SIGTERM, SIGINT and SIGHUP, and
sleeps on when its input is closed — only SIGKILL ends it."""

from __future__ import annotations

import os
import signal
import sys
import time


def report_pid() -> None:
    path = os.environ.get("ZOLE_BOT_FAULT_PIDS")
    if path:
        with open(path, "a") as file:
            file.write(f"bot {os.getpid()}\n")


def answer(fields: dict[str, str]) -> str:
    legal = fields["legal"].split(",")
    return " ".join(legal[:2]) if fields["phase"] == "bury" else legal[0]


def main() -> None:
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGPIPE):
        signal.signal(sig, signal.SIG_IGN)
    report_pid()
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "zole":
            print("id name IgnoresQuit\nid author zole-arena tests\nzoleok 1", flush=True)
        elif words[0] == "isready":
            print("readyok", flush=True)
        elif words[0] == "go":
            fields = dict(zip(words[1::2], words[2::2], strict=False))
            print(f"action {fields['id']} {answer(fields)}", flush=True)
        # "quit" is ignored: read on
    while True:  # input closed: sleep on
        time.sleep(60)


if __name__ == "__main__":
    main()
