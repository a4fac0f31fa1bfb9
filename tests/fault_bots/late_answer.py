#!/usr/bin/env python3
"""Fault bot: answers every ``go`` correctly but too late, then goes on reading.

It sleeps the request's ``time`` plus EXTRA seconds (``late_answer.py [EXTRA]``, default 0.3)
before each answer, so the answer to one request arrives while the arena waits for the next.
"""

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
    extra = float(sys.argv[1]) if len(sys.argv) > 1 else 0.3
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "zole":
            print("id name LateAnswer\nid author zole-arena tests\nzoleok 1", flush=True)
        elif words[0] == "isready":
            print("readyok", flush=True)
        elif words[0] == "go":
            fields = dict(zip(words[1::2], words[2::2], strict=False))
            time.sleep(int(fields["time"]) / 1000 + extra)
            print(f"action {fields['id']} {answer(fields)}", flush=True)
        elif words[0] == "quit":
            break


if __name__ == "__main__":
    main()
