"""zole-arena: run bot competitions in Zole, the Latvian three-player trick-taking card game.

The package is a library first and a command line second. Its layers, each importing only the
ones before it:

* :mod:`zole_arena.cards` — the 26 cards, notation, points, masks;
* :mod:`zole_arena.shuffle` — the reproducible deal from (seed, deal number);
* :mod:`zole_arena.actions`, :mod:`zole_arena.rules`, :mod:`zole_arena.scoring`,
  :mod:`zole_arena.state`, :mod:`zole_arena.scoresheet` — the pure rules engine;
* :mod:`zole_arena.protocol` — protocol v1 as text (no I/O);
* :mod:`zole_arena.botproc`, :mod:`zole_arena.session`, :mod:`zole_arena.human` — players:
  bot processes and their dialogue, or a person at the keyboard;
* :mod:`zole_arena.referee`, :mod:`zole_arena.match`, :mod:`zole_arena.records`,
  :mod:`zole_arena.verify`, :mod:`zole_arena.ratings`, :mod:`zole_arena.ratings_plot`,
  :mod:`zole_arena.check` — deals between players, matches and their logs, re-playing logs,
  ratings and their chart over time (matplotlib, an optional extra), the conformance check;
* :mod:`zole_arena.cli` — the ``zole-arena`` command.
"""

from __future__ import annotations

__version__ = "0.1.0"
