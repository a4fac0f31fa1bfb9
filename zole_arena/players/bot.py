"""The bot class's first path, kept for the bots written on it: the same objects as
:mod:`zole_arena.sdk` (:class:`~zole_arena.sdk.bot.Bot`, :class:`~zole_arena.sdk.values.BotView`
and the values of :mod:`zole_arena.sdk.values`). New code imports :mod:`zole_arena.sdk`."""

from __future__ import annotations

from zole_arena.sdk import values
from zole_arena.sdk.bot import Bot
from zole_arena.sdk.values import *  # noqa: F403

__all__ = ["Bot", *values.__all__]
