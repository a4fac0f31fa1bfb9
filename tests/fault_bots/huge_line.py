#!/usr/bin/env python3
"""Fault bot: answers a ``go`` with one line of over 1 MiB (a ``flood``)."""

from __future__ import annotations

import os
import sys

HUGE = 1024 * 1024


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
            print("id name HugeLine\nid author zole-arena tests\nzoleok 1", flush=True)
        elif words[0] == "isready":
            print("readyok", flush=True)
        elif words[0] == "go":
            fields = dict(zip(words[1::2], words[2::2], strict=False))
            sys.stdout.write(f"action {fields['id']} " + "X" * HUGE + "\n")
            sys.stdout.flush()
        elif words[0] == "quit":
            break


if __name__ == "__main__":
    main()
