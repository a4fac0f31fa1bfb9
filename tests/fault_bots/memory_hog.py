#!/usr/bin/env python3
"""Fault bot: at its first ``go``, fills memory without bound until the arena's memory limit
stops it: the kernel kills it in its control group, or (without one) ``RLIMIT_DATA`` refuses
it more and it ends with a MemoryError (a ``crash`` either way).

Every block is written (``b"x" * n`` fills its pages), so it is memory really used, which the
limit counts, not address space reserved. As a safety net on a machine where no limit is set,
it stops at 8 GiB and sleeps (the arena then sees a ``timeout``, which a test would report).
"""

from __future__ import annotations

import os
import sys
import time

CHUNK = 16 * 1024 * 1024
SAFETY_CAP = 8 * 1024 * 1024 * 1024


def report_pid() -> None:
    path = os.environ.get("ZOLE_BOT_FAULT_PIDS")
    if path:
        with open(path, "a") as file:
            file.write(f"bot {os.getpid()}\n")


def hog() -> None:
    blocks = []
    while len(blocks) * CHUNK < SAFETY_CAP:
        blocks.append(b"x" * CHUNK)  # every page written: memory used, not only reserved
    time.sleep(600)


def main() -> None:
    report_pid()
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "zole":
            print("id name MemoryHog\nid author zole-arena tests\nzoleok 1", flush=True)
        elif words[0] == "isready":
            print("readyok", flush=True)
        elif words[0] == "go":
            hog()
        elif words[0] == "quit":
            break


if __name__ == "__main__":
    main()
