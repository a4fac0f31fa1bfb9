"""Cards for people: suit symbols, red hearts and diamonds, for a terminal (with rich).

The rules engine never imports this module; the command line and replay use it. Plain text
(``Card.symbol()``) is used wherever colour is not wanted.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable

from rich.text import Text

from zole_arena.game.cards import Card

__all__ = ["card_text", "cards_text"]

_RED_SUITS = frozenset("HD")


def _can_show_suits() -> bool:
    """Whether standard output's encoding has the suit symbols (not so with ASCII)."""
    try:
        "♣♠♥♦".encode(getattr(sys.stdout, "encoding", None) or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def card_text(card: Card) -> Text:
    """One card as ``Q♣`` / ``10♦``, or ``QC`` / ``TD`` where the output cannot show suit
    symbols; hearts and diamonds in red (J♥ too: its printed suit)."""
    style = "bold red" if card.suit in _RED_SUITS else "bold"
    return Text(card.symbol() if _can_show_suits() else str(card), style=style)


def cards_text(cards: Iterable[Card], separator: str = " ") -> Text:
    """Several cards in the given order, separated by ``separator``."""
    text = Text()
    for index, card in enumerate(cards):
        if index:
            text.append(separator)
        text.append_text(card_text(card))
    return text
