"""zole-arena: run bot competitions in Zole, the Latvian three-player trick-taking card game.

The package is a library first and a command line second. Its sub-packages are layers, each
importing only those below it (a contract in ``pyproject.toml`` checks it):

* :mod:`zole_arena.cli` — the ``zole-arena`` command;
* :mod:`zole_arena.bench` — benchmarks;
* :mod:`zole_arena.events` — tournaments and head-to-head tests;
* :mod:`zole_arena.arena` — the referee, matches, verifying logs, the conformance check;
* :mod:`zole_arena.stats` and :mod:`zole_arena.players` — ratings and the test's mathematics;
  bot processes, sessions, the bundled bots and human play;
* :mod:`zole_arena.protocol`, :mod:`zole_arena.records` and :mod:`zole_arena.isolation` —
  protocol v1 as text; game records; the bots' sandbox and limits;
* :mod:`zole_arena.game` — the pure rules engine;
* :mod:`zole_arena.errors` — the errors a user sees.
"""

from __future__ import annotations

__version__ = "0.1.0"
