"""The exception hierarchy of zole-arena.

Every error that a user can cause (bad notation, an illegal action, a bad rules file) is a
:class:`ZoleError`, so the command line can turn it into a one-line message and a non-zero exit
code, while a library user can still catch the built-in base (``ValueError``) it also derives
from.
"""

from __future__ import annotations

import enum
import re
from typing import ClassVar, Final

#: Characters a terminal acts on (C0 and C1 controls, DEL), the Unicode marks that reorder
#: how a line is shown (bidirectional overrides and isolates) and those that show as nothing
#: (zero-width spaces and joiners, the soft hyphen, fillers, tags): bot text never reaches the
#: organizer's terminal with them (an escape sequence could rewrite the screen or the title,
#: an override make a line read otherwise than it is, an invisible one make two texts that
#: differ look the same).
_CONTROLS: Final = re.compile(
    "[\x00-\x08\x0a-\x1f\x7f-\x9f\xad\u034f\u061c\u115f\u1160\u180e\u200b-\u200f"
    "\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff9-\ufffb"
    "\U000e0000-\U000e0fff]"
)


def printable(text: str) -> str:
    """``text`` from a bot, safe to show: every control character becomes ``?`` (tabs stay)."""
    return _CONTROLS.sub("?", text)


def cut(text: str, limit: int) -> str:
    """``text``, cut to ``limit`` characters with its whole length said."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text):,} characters)"


class ZoleError(Exception):
    """Base class of every error zole-arena raises on purpose."""


class NotationError(ZoleError, ValueError):
    """Text that should name a card, a bid or a seat does not."""


class IllegalActionError(ZoleError, ValueError):
    """An action that the rules do not allow at this point of the deal."""


class RulesError(ZoleError, ValueError):
    """A rules file or preset name that cannot be used."""


class FaultKind(enum.StrEnum):
    """What a bot did wrong, as the protocol specification (§6) and game records name it."""

    STARTUP = "startup"
    """It could not be started, or did not finish the handshake in time."""
    CRASH = "crash"
    """It exited or closed its output while the arena waited for it."""
    TIMEOUT = "timeout"
    """It did not answer a decision request in time."""
    STALL = "stall"
    """It did not answer a ping (``isready``) in time."""
    GARBAGE = "garbage"
    """It answered with a line that is not an action."""
    ILLEGAL = "illegal"
    """It answered with an action the rules do not allow there."""
    FLOOD = "flood"
    """It sent a line that is too long, or too much output for one request."""


class BotError(ZoleError, RuntimeError):
    """A bot process failed to do what the protocol asks of it.

    ``kind`` names the fault (each subclass has its own); ``line`` is the offending line from
    the bot, when there is one.
    """

    kind: ClassVar[FaultKind] = FaultKind.CRASH
    """A bot that fails in no more particular way cannot go on, as if it had crashed."""

    def __init__(self, message: str, line: str | None = None) -> None:
        super().__init__(printable(message))
        self.line = printable(line) if line is not None else None


class BotStartupError(BotError):
    """The bot could not be started, or did not finish the handshake in time."""

    kind = FaultKind.STARTUP


class BotCrashedError(BotError):
    """The bot exited or closed its output while the arena waited for it."""

    kind = FaultKind.CRASH


class BotTimeoutError(BotError):
    """The bot did not answer a decision request in time."""

    kind = FaultKind.TIMEOUT


class BotStallError(BotError):
    """The bot did not answer a ping (``isready``) in time."""

    kind = FaultKind.STALL


class BotFloodError(BotError):
    """The bot sent a line that is too long, or too much output for one request."""

    kind = FaultKind.FLOOD


class SandboxUnavailable(BotStartupError):
    """Bubblewrap is missing, or cannot make namespaces or load the system-call filter on this
    machine."""
