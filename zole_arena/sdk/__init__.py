"""The bot author's kit: write a Zole bot in Python and play it in the arena.

Subclass :class:`~zole_arena.sdk.bot.Bot`, write ``decide(view) -> action``, and call
``MyBot().run()``: the program then speaks protocol v1 on standard input and output
(docs/library-bots.md). The kit is three modules, each on the ones before it:

* :mod:`zole_arena.sdk.values` — what a bot is told, typed (:class:`BotView`, the deal's news);
* :mod:`zole_arena.sdk.notation` — the bot's half of the protocol: the arena's lines read
  into those values, the bot's answers written (the arena's half is :mod:`zole_arena.protocol`);
* :mod:`zole_arena.sdk.bot` — :class:`Bot` and :func:`run_bot`, the loop that serves it.

Nothing here imports the arena's process stack, so a bot on the kit starts quickly. (The
paths ``zole_arena.players.bot`` and ``zole_arena.players.bot_io`` name the same objects.)
"""

from __future__ import annotations

from zole_arena.sdk import values
from zole_arena.sdk.bot import Bot, run_bot
from zole_arena.sdk.values import *  # noqa: F403

__all__ = ["Bot", "run_bot", *values.__all__]
