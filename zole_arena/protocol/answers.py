"""The answer of an ``action`` line, both ways: read against the open request's phase, and
written in the form the arena records (``protocol/README.md`` §4).

A bid is one word (``pass``), a bury two cards separated by a space (``9S 9H``: a
comma-separated ``9S,9H`` is one word, so it is no bury), a card one card (``AD``, also ``10d``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from zole_arena.errors import NotationError
from zole_arena.game.actions import Action, Bid, Bury
from zole_arena.game.cards import CARDS, Card
from zole_arena.game.state import Phase

__all__ = ["answer_text", "parse_answer"]

_PLAYING: Final = Phase.PLAYING
_BIDDING: Final = Phase.BIDDING
_CARD_NAMES: Final = tuple(card.name for card in CARDS)
#: Cards by their canonical names: how bots almost always write them (other spellings go
#: through :meth:`Card.parse`).
_CARD_BY_NAME: Final = {card.name: card for card in CARDS}


def parse_answer(words: Sequence[str], phase: Phase) -> Action:
    """Read the answer of an ``action`` line for a request in ``phase``.

    :raises NotationError: the words are not a bid, two cards or a card as the phase needs
        (a *garbage* answer; whether it is legal is the rules engine's business).
    """
    if phase is _PLAYING:
        if len(words) != 1:
            raise NotationError(f"expected one card, got {' '.join(words)!r}")
        card = _CARD_BY_NAME.get(words[0])
        return card if card is not None else Card.parse(words[0])
    if phase is _BIDDING:
        if len(words) != 1:
            raise NotationError(f"expected a bid, got {' '.join(words)!r}")
        return Bid.parse(words[0])
    if phase is Phase.BURYING:
        if len(words) != 2:
            raise NotationError(f"expected two cards to bury, got {' '.join(words)!r}")
        return Bury.of(Card.parse(words[0]), Card.parse(words[1]))
    raise NotationError(f"no answer is expected in phase {phase}")


def answer_text(action: Action) -> str:
    """The canonical answer for ``action`` (``pass``, ``QC 9H``, ``TD``): what game records
    keep as a move, and what :func:`parse_answer` reads back."""
    if action.__class__ is Card:  # the most frequent, first
        return _CARD_NAMES[action]
    if isinstance(action, Bury):
        return f"{action.cards[0]} {action.cards[1]}"
    return str(action)
