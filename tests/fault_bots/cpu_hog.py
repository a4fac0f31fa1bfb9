#!/usr/bin/env python3
"""Fault bot: at its first ``go``, computes for ever without answering, to hit the arena's
CPU-time limit (the kernel then kills it with SIGXCPU: a ``crash``)."""

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
            print("id name CpuHog\nid author zole-arena tests\nzoleok 1", flush=True)
        elif words[0] == "isready":
            print("readyok", flush=True)
        elif words[0] == "go":
            n = 0
            while True:
                n += 1
        elif words[0] == "quit":
            break


if __name__ == "__main__":
    main()
