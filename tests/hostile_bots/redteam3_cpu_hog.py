#!/usr/bin/env python3
"""Red team 3: starve the honest bots of CPU until they time out and are disqualified.

At start (before the handshake) it forks ``--children`` (16) children; each calls ``setsid()``
(outside a CPU control group of its own, every session is a scheduler group of its own, so
16 sessions weigh 16 times one honest bot) and spins for ever. The bot itself plays random
legal moves. Its rivals' faults are the tests' oracle; it reports nothing itself, but
``NOTE spinning N children``.
"""

from __future__ import annotations

import os

from hostile import note, parser, play


def spin() -> None:
    os.setsid()
    while True:
        pass


def main() -> None:
    args = parser("a bot whose children take every CPU")
    args.add_argument("--children", type=int, default=16)
    count = args.parse_known_args()[0].children
    started = 0
    for _ in range(count):
        try:
            pid = os.fork()
        except OSError:
            break
        if pid == 0:
            try:
                spin()
            finally:
                os._exit(0)
        started += 1
    note(f"spinning {started} children")
    play("cpu-hog")


if __name__ == "__main__":
    main()
