#!/usr/bin/env python3
"""Fault bot: answers every ``go`` with ``action <id> banana`` (a ``garbage`` answer)."""

from __future__ import annotations

import os
import sys


def report_pid() -> None:
    path = os.environ.get("ZOLE_BOT_FAULT_PIDS")
    if path:
        with open(path, "a") as file:
            file.write(f"bot {os.getpid()}\n")


def main() -> None:
    report_pid()
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "zole":
            print("id name Garbage\nid author zole-arena tests\nzoleok 1", flush=True)
        elif words[0] == "isready":
            print("readyok", flush=True)
        elif words[0] == "go":
            fields = dict(zip(words[1::2], words[2::2], strict=False))
            print(f"action {fields['id']} banana", flush=True)
        elif words[0] == "quit":
            break


if __name__ == "__main__":
    main()
