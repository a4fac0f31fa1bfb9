#!/usr/bin/env python3
"""Fault bot: at its first ``go``, allocates memory without bound until the arena's memory limit
(on the address space) stops it with a MemoryError (a ``crash``).

The blocks are zero-filled by ``calloc`` and never written, so they cost address space but not
RAM or page faults: the limit is hit in milliseconds. As a safety net on a machine where no
limit is set, it stops at 64 GiB of address space and sleeps (the arena then sees a
``timeout``, which a test would report).
"""

from __future__ import annotations

import os
import sys
import time

CHUNK = 16 * 1024 * 1024
SAFETY_CAP = 64 * 1024 * 1024 * 1024


def report_pid() -> None:
    path = os.environ.get("ZOLE_FAULT_PIDS")
    if path:
        with open(path, "a") as file:
            file.write(f"bot {os.getpid()}\n")


def hog() -> None:
    blocks = []
    while len(blocks) * CHUNK < SAFETY_CAP:
        blocks.append(bytes(CHUNK))  # calloc: address space, no pages
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
