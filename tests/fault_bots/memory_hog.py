#!/usr/bin/env python3
"""Fault bot: at its first ``go``, fills memory without bound until the arena's memory limit
stops it: the kernel kills it in its control group, or (without one) ``RLIMIT_DATA`` refuses
it more and it ends with a MemoryError (a ``crash`` either way).

Every block is written (``b"x" * n`` fills its pages), so it is memory really used, which the
limit counts, not address space reserved. As a safety net on a machine where no limit is set,
it stops at 8 GiB and sleeps (the arena then sees a ``timeout``, which a test would report).
"""

from __future__ import annotations

import time

import _faultbot

CHUNK = 16 * 1024 * 1024
SAFETY_CAP = 8 * 1024 * 1024 * 1024


def hog() -> str:
    blocks: list[bytes] = []
    while len(blocks) * CHUNK < SAFETY_CAP:
        blocks.append(b"x" * CHUNK)  # every page written: memory used, not only reserved
    time.sleep(600)
    return "info out of memory at last"


def main() -> None:
    _faultbot.report_pid()
    _faultbot.serve("MemoryHog", lambda fields: hog())


if __name__ == "__main__":
    main()
