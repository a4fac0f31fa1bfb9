#!/usr/bin/env python3
"""Hostile bot: writes ``--mib`` (50) MiB to its stderr as fast as it can while it plays.

A thread started before the handshake writes 1 MiB blocks of 1 KiB lines; the bot answers
requests meanwhile. It ignores SIGXFSZ and SIGPIPE, so that a file-size limit or a closed pipe
shows as a write error instead of killing it. ``stderr-flood`` then reports SUCCEEDED when its
stderr is a file on disk that grew by all of it, else FAILED (a write error, or stderr is a
pipe that the arena reads and caps). Its report may never reach the file: a capped stderr
keeps only the start of what a bot writes.
"""

from __future__ import annotations

import os
import signal
import stat
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hostile

LINE = b"x" * 1023 + b"\n"
BLOCK = LINE * 1024


def flood(mebibytes: int) -> None:
    total = mebibytes * 1024 * 1024  # whole lines
    start = os.fstat(2)
    regular = stat.S_ISREG(start.st_mode)
    written = 0
    error = None
    while written < total:
        try:
            written += os.write(2, BLOCK[: total - written])
        except OSError as exc:
            error = exc
            break
    if error is not None:
        hostile.report("stderr-flood", False, f"after {written:,} bytes: {hostile.why(error)}")
    elif not regular:
        hostile.report("stderr-flood", False, f"wrote {written:,} bytes into a pipe, not a file")
    else:
        grown = os.fstat(2).st_size - start.st_size
        hostile.report(
            "stderr-flood", grown >= total, f"wrote {written:,} bytes; the file grew {grown:,}"
        )


def main() -> None:
    args = hostile.parser(__doc__ or "")
    args.add_argument("--mib", type=int, default=50)
    options, _ = args.parse_known_args()
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    threading.Thread(target=flood, args=(options.mib,), daemon=True).start()
    hostile.play("StderrFlood")


if __name__ == "__main__":
    main()
