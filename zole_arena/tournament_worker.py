"""The worker process of a tournament: ``python -m zole_arena.tournament_worker FD``.

A tournament starts its workers as plain subprocesses of the running Python (not through
:mod:`multiprocessing`'s spawn, which would re-run the caller's main script), each with one end
of a pipe as file descriptor ``FD``; the worker then plays the tables the tournament sends it
(see :mod:`zole_arena.tournament`).
"""

from __future__ import annotations

import sys
from multiprocessing.connection import Connection

from zole_arena.tournament import serve_tables


def main(argv: list[str]) -> int:
    """Serve tables over the connection on the file descriptor given as the one argument."""
    if len(argv) != 1 or not argv[0].isdigit():
        print("usage: python -m zole_arena.tournament_worker FD (started by a tournament)",
              file=sys.stderr)  # fmt: skip
        return 2
    serve_tables(Connection(int(argv[0])))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
