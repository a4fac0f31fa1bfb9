#!/usr/bin/env python3
"""Hostile bot: forks until it cannot, to find (or exhaust) its process limit.

At start, before the handshake, it forks children that only wait, until ``fork`` fails or
``--cap`` (200) children run — a cap so that an unlimited run cannot exhaust the machine.
``process-count`` reports SUCCEEDED when it reached the cap (no limit stopped it) and FAILED
with the count when ``fork`` failed first. Then it lets the children go and plays.
"""

from __future__ import annotations

import contextlib
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hostile


def attack(cap: int) -> None:
    release_r, release_w = os.pipe()
    pids: list[int] = []
    error = None
    while len(pids) < cap:
        try:
            pid = os.fork()
        except OSError as exc:
            error = exc
            break
        if pid == 0:
            os.close(release_w)
            os.read(release_r, 1)
            os._exit(0)
        pids.append(pid)
    os.close(release_r)
    if error is None:
        hostile.report("process-count", True, f"started {len(pids)} processes (the cap)")
    else:
        hostile.report(
            "process-count", False, f"fork failed after {len(pids)} processes: {hostile.why(error)}"
        )
    os.close(release_w)
    for pid in pids:
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)


def main() -> None:
    args = hostile.parser(__doc__ or "")
    args.add_argument("--cap", type=int, default=200)
    options, _ = args.parse_known_args()
    attack(options.cap)
    hostile.play("ProcessCounter")


if __name__ == "__main__":
    main()
