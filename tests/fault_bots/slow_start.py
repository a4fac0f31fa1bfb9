#!/usr/bin/env python3
"""Fault bot: sleeps SECONDS (``slow_start.py SECONDS``, default 1) after ``zole 1`` before it
answers the handshake, then plays the first legal action like a correct bot."""

from __future__ import annotations

import os
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
    report_pid()
    delay = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "zole":
            time.sleep(delay)
            print("id name SlowStart\nid author zole-arena tests\nzoleok 1", flush=True)
        elif words[0] == "isready":
            print("readyok", flush=True)
        elif words[0] == "go":
            fields = dict(zip(words[1::2], words[2::2], strict=False))
            print(f"action {fields['id']} {answer(fields)}", flush=True)
        elif words[0] == "quit":
            break


if __name__ == "__main__":
    main()
