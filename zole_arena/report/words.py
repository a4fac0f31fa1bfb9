"""How the report page writes what a log holds: text made visible and cut to length, actions
in the cards' symbols and the bids' words, and where each move of a deal is in the deal viewer.

Shared by the page's tables (:mod:`~zole_arena.report.page`, :mod:`~zole_arena.report.html`),
its script's data (:mod:`~zole_arena.report.payload`) and its sections that live apart
(:mod:`~zole_arena.report.fairplay_section`); it knows nothing of a report's figures, so each
of them can use it.
"""

from __future__ import annotations

import unicodedata
from typing import Final

from zole_arena.errors import ZoleError
from zole_arena.game.actions import Bid
from zole_arena.game.cards import Card
from zole_arena.records.model import DealRecord

__all__ = [
    "BIDS",
    "MAX_BEST",
    "MAX_TEXT",
    "action_text",
    "best_text",
    "move_places",
    "place_step",
    "visible",
]

#: The bids as the protocol writes them.
BIDS: Final = frozenset(bid.value for bid in Bid)

#: The longest text from a log the page shows whole (a name, a message, a command).
MAX_TEXT: Final = 500


def visible(text: str, limit: int = MAX_TEXT) -> str:
    """Text from a log as the page may show it: every invisible or layout-changing character
    (controls, direction overrides, zero widths, line separators) written out as ``⟨U+202E⟩``,
    so that no name can pass for another; cut at ``limit`` characters."""
    if len(text) > limit:
        text = f"{text[:limit]}… ({len(text) - limit:,} more characters)"
    if text.isprintable():
        return text
    return "".join(
        f"⟨U+{ord(char):04X}⟩" if unicodedata.category(char) in _HIDDEN else char for char in text
    )


_HIDDEN: Final = frozenset({"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"})


#: A decision's best actions are named up to this many (a bury may have dozens of equal ones).
MAX_BEST: Final = 3
_BID_WORDS: Final = {"pass": "pass", "take": "take", "zole": "zole", "smallzole": "small zole"}


def action_text(action: str) -> str:
    """An action as the protocol writes it (``pass``, ``QC 9H``, ``TD``) as people read it:
    cards by their symbols (``Q♣ 9♥``), bids by their words."""
    words = []
    for token in action.split():
        try:
            words.append(Card.parse(token).symbol())
        except ZoleError:
            words.append(_BID_WORDS.get(token.lower(), token))
    return visible(" ".join(words), 40)


def best_text(actions: tuple[str, ...]) -> str:
    """The best actions of a decision, the first :data:`MAX_BEST` of them."""
    shown = " / ".join(action_text(action) for action in actions[:MAX_BEST])
    return shown + (f" / … ({len(actions)} in all)" if len(actions) > MAX_BEST else "")


def move_places(record: DealRecord) -> list[tuple[str, int]]:
    """Where each of a deal's moves is in the page's lists: ``("bid", k)`` the k-th bid,
    ``("bury", 0)``, ``("play", k)`` the k-th card played."""
    places: list[tuple[str, int]] = []
    counts = {"bid": 0, "bury": 0, "play": 0}
    for move in record.moves:
        kind = "bid" if move.action in BIDS else "play" if len(move.action) == 2 else "bury"
        places.append((kind, counts[kind]))
        counts[kind] += 1
    return places


def place_step(kind: str, k: int) -> int:
    """The deal viewer's step that shows a move: 1 for the bids and the bury (the bidding
    done), ``k + 2`` for the k-th card played (step 1 + the cards played so far)."""
    return k + 2 if kind == "play" else 1
