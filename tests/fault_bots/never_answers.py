#!/usr/bin/env python3
"""Fault bot: handshakes and answers ``isready``, but never answers a ``go`` (a ``timeout``).

It keeps reading, and exits on ``quit``.
"""

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
            print("id name NeverAnswers\nid author zole-arena tests\nzoleok 1", flush=True)
        elif words[0] == "isready":
            print("readyok", flush=True)
        elif words[0] == "quit":
            break
        # a "go" is read and ignored


if __name__ == "__main__":
    main()
