"""What a player can do in a deal: bid, bury two cards, play a card (zole-rules.md §2).

An action is one of three kinds, and every action value is a cached singleton, so the engine can
hand out tuples of them without building objects:

* a :class:`Bid` during bidding (``pass``, ``take``, ``zole``, ``smallzole``);
* a :class:`Bury` (two cards) for the soloist after a take;
* a :class:`~zole_arena.game.cards.Card` during play.

``str(action)`` is the action's wire form, which :func:`parse_action` reads back.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator, Sequence
from itertools import combinations
from typing import Final, TypeAlias, overload

from zole_arena.errors import NotationError
from zole_arena.game.cards import CARDS, Card, cards_of

__all__ = ["Action", "Bid", "Bury", "BuryChoices", "Contract", "parse_action"]


class Bid(enum.Enum):
    """A word said in bidding. Each player speaks once; the first non-pass ends bidding."""

    PASS = "pass"
    TAKE = "take"
    """Lielais: pick up the talon and bury two cards."""
    ZOLE = "zole"
    """Play alone without the talon; the talon's points go to the opponents (``lzf``)."""
    SMALL_ZOLE = "smallzole"
    """Mazā zole: play alone without the talon and take no trick (``lzf`` switch)."""

    def __str__(self) -> str:
        return self.value

    @classmethod
    def parse(cls, text: str) -> Bid:
        """Read a bid word (case-insensitive; ``small_zole`` and ``small-zole`` also work).

        :raises NotationError: not a bid.
        """
        word = text.strip().lower().replace("_", "").replace("-", "")
        for bid in cls:
            if bid.value == word:
                return bid
        raise NotationError(
            f"not a bid: {text!r} (the bid words are pass, take, zole and smallzole; which of "
            "them a deal allows, its rules say)"
        )


class Contract(enum.Enum):
    """What kind of deal is being played, fixed when bidding ends."""

    TAKE = "take"
    ZOLE = "zole"
    SMALL_ZOLE = "smallzole"
    TABLE = "table"
    """All passed and the deal is played as the table game (galdiņš)."""
    PULE = "pule"
    """All passed and a common pule was written; no cards are played."""

    def __str__(self) -> str:
        return self.value

    @property
    def has_soloist(self) -> bool:
        """Take, zole and small zole are played one against two."""
        return self in (Contract.TAKE, Contract.ZOLE, Contract.SMALL_ZOLE)


#: The contract each non-pass bid starts.
CONTRACT_OF_BID: Final = {
    Bid.TAKE: Contract.TAKE,
    Bid.ZOLE: Contract.ZOLE,
    Bid.SMALL_ZOLE: Contract.SMALL_ZOLE,
}


class Bury:
    """The two cards the soloist lays away after taking the talon; they count for him.

    Instances are cached: ``Bury.of(a, b)`` always returns the same object for the same two
    cards, whatever their order. ``str`` gives ``"bury QC 9H"``.
    """

    __slots__ = ("cards", "mask")

    cards: tuple[Card, Card]
    mask: int

    def __init__(self, first: Card, second: Card) -> None:
        low, high = sorted((first, second))
        self.cards = (CARDS[low], CARDS[high])
        self.mask = (1 << low) | (1 << high)

    @staticmethod
    def of(first: int, second: int) -> Bury:
        """The cached bury action for two different cards.

        :raises NotationError: the two cards are the same.
        """
        if first == second:
            raise NotationError(f"cannot bury {CARDS[first]} twice: bury two different cards")
        return _BURY_TABLE[first * 26 + second]

    @classmethod
    def parse(cls, text: str) -> Bury:
        """Read ``"QC 9H"`` or ``"bury QC 9H"``.

        :raises NotationError: not two different cards.
        """
        words = text.replace(",", " ").split()
        if words and words[0].lower() == "bury":
            words = words[1:]
        if len(words) != 2:
            raise NotationError(f"bury needs exactly two cards, got {text!r}")
        return cls.of(Card.parse(words[0]), Card.parse(words[1]))

    def __str__(self) -> str:
        return f"bury {self.cards[0]} {self.cards[1]}"

    def __repr__(self) -> str:
        return f"Bury.parse({str(self.cards[0]) + ' ' + str(self.cards[1])!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Bury) and other.mask == self.mask

    def __hash__(self) -> int:
        return hash(("bury", self.mask))


def _bury_table() -> tuple[Bury, ...]:
    table: list[Bury | None] = [None] * (26 * 26)
    for a, b in combinations(range(26), 2):
        bury = Bury(CARDS[a], CARDS[b])
        table[a * 26 + b] = table[b * 26 + a] = bury
    # the diagonal is never read (Bury.of refuses equal cards); fill it to keep the type
    placeholder = Bury(CARDS[0], CARDS[1])
    return tuple(item if item is not None else placeholder for item in table)


_BURY_TABLE: Final = _bury_table()
#: The bury action of each pair (a, b) of card numbers with a < b.
BURY_OF_PAIR: Final = {(a, b): _BURY_TABLE[a * 26 + b] for a, b in combinations(range(26), 2)}

Action: TypeAlias = Bid | Bury | Card
"""Anything a seat can do: a bid, burying two cards, or playing a card."""


def parse_action(text: str) -> Action:
    """Read an action from its wire form: a bid word, ``bury C1 C2``, or a card.

    :raises NotationError: the text is none of these.
    """
    words = text.split()
    if not words:
        raise NotationError("empty action: expected a bid, 'bury C1 C2' or a card")
    if words[0].lower() == "bury" or len(words) == 2:
        return Bury.parse(text)
    if len(words) == 1:
        try:
            return Card.parse(words[0])
        except NotationError:
            pass
        try:
            return Bid.parse(words[0])
        except NotationError:
            pass
    raise NotationError(f"not an action: {text!r} (expected a bid, 'bury C1 C2' or a card)")


class BuryChoices(Sequence[Bury]):
    """The 45 ways to bury two of the soloist's 10 cards, in canonical order, built lazily.

    Indexing, ``len``, ``in`` and iteration work as on a tuple of :class:`Bury` actions.
    """

    __slots__ = ("_held", "_mask")

    def __init__(self, hand_mask: int) -> None:
        self._mask = hand_mask
        self._held = cards_of(hand_mask)

    def __len__(self) -> int:
        n = len(self._held)
        return n * (n - 1) // 2

    @overload
    def __getitem__(self, index: int) -> Bury: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Bury]: ...

    def __getitem__(self, index: int | slice) -> Bury | Sequence[Bury]:
        if isinstance(index, slice):
            return tuple(self)[index]
        held = self._held
        pairs = _PAIRS[len(held)]
        i, j = pairs[index]
        return BURY_OF_PAIR[held[i], held[j]]

    def __iter__(self) -> Iterator[Bury]:
        return map(BURY_OF_PAIR.__getitem__, combinations(self._held, 2))

    def __contains__(self, item: object) -> bool:
        return isinstance(item, Bury) and self._mask & item.mask == item.mask

    def __eq__(self, other: object) -> bool:
        if isinstance(other, BuryChoices):
            return self._mask == other._mask
        if isinstance(other, tuple):
            return tuple(self) == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"BuryChoices({' '.join(str(c) for c in self._held)})"


#: _PAIRS[n]: the index pairs (i, j), i < j, of n items in combinations() order.
_PAIRS: Final = tuple(tuple(combinations(range(n), 2)) for n in range(11))
