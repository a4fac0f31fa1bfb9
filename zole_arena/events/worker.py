"""The worker process of a tournament: ``python -P -m zole_arena.events.worker FD``.

A tournament starts its workers as plain subprocesses of the running Python (not through
:mod:`multiprocessing`'s spawn, which would re-run the caller's main script), each with its end
of a Unix socket pair as file descriptor ``FD``; the worker then plays the tables the tournament
sends it, one message a line of JSON each way (see :mod:`zole_arena.events.tournament` and
:mod:`zole_arena.events.messages`).
"""

from __future__ import annotations

import os
import sys

from zole_arena.events.plain import MessageError
from zole_arena.events.workers import serve_tables


def main(argv: list[str]) -> int:
    """Serve tables over the socket on the file descriptor given as the one argument."""
    fd = int(argv[0]) if len(argv) == 1 and argv[0].isdigit() else -1
    try:
        # Not inherited by the bots the worker starts, whatever starts them.
        os.set_inheritable(fd, False)
    except OSError:
        print("usage: python -m zole_arena.events.worker FD (started by a tournament)",
              file=sys.stderr)  # fmt: skip
        return 2
    try:
        serve_tables(fd)
    except MessageError as exc:
        print(f"zole-arena tournament worker: the tournament sent {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
