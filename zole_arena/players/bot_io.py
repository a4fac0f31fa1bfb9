"""The bot's protocol functions' first path, kept for the bots written on it: the same
functions as :mod:`zole_arena.sdk.notation` (the readers and writers) and
:mod:`zole_arena.sdk.bot` (:func:`~zole_arena.sdk.bot.run_bot` and the handshake). New code
imports those."""

from __future__ import annotations

from zole_arena.sdk import notation
from zole_arena.sdk.bot import handshake_lines, run_bot, set_option, tables_announced, tell
from zole_arena.sdk.notation import *  # noqa: F403

__all__ = [
    *notation.__all__,
    "handshake_lines",
    "run_bot",
    "set_option",
    "tables_announced",
    "tell",
]
