"""The 26 Zole cards: notation, categories, strength order and points (zole-rules.md §1).

A card is a small integer (0–25) wrapped in :class:`Card`, an ``int`` subclass with 26 cached
instances. The number is the card's place in the **canonical order**, strongest first::

    QC QS QH QD JC JS JH JD AD TD KD 9D 8D 7D   the 14 trumps, high to low
    AC TC KC 9C                                  clubs, high to low
    AS TS KS 9S                                  spades
    AH TH KH 9H                                  hearts

Because a lower number is always a stronger card of its category, the trick winner is "the
lowest-numbered trump, else the lowest-numbered card of the led suit", and a set of cards fits in
a 26-bit integer mask (bit ``n`` set for card ``n``). The rules engine works on such masks; the
:class:`Card` objects exist for the public API, notation and display.

This order is also the fresh deck that the reproducible shuffle starts from (see
:mod:`zole_arena.shuffle`).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from typing import Final

from zole_arena.errors import NotationError

__all__ = [
    "CARDS",
    "Card",
    "Category",
    "cards",
    "format_cards",
    "mask_of",
    "cards_of",
    "points_of",
    "names_of",
]


class Category(enum.IntEnum):
    """What a card must follow: the trump "suit" or one of the three plain suits.

    Every queen, every jack and every diamond is a trump; J♥ is not a heart (§1).
    """

    TRUMP = 0
    CLUBS = 1
    SPADES = 2
    HEARTS = 3


_NAMES: Final = tuple(
    "QC QS QH QD JC JS JH JD AD TD KD 9D 8D 7D  AC TC KC 9C  AS TS KS 9S  AH TH KH 9H".split()
)
_RANK_POINTS: Final = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
_SUIT_SYMBOLS: Final = {"C": "♣", "S": "♠", "H": "♥", "D": "♦"}
_SYMBOL_SUITS: Final = {
    "♣": "C",
    "♧": "C",
    "♠": "S",
    "♤": "S",
    "♥": "H",
    "♡": "H",
    "♦": "D",
    "♢": "D",
}

#: Number of cards in the pack.
NUM_CARDS: Final = 26
#: Card points of card ``n``.
POINTS: Final[tuple[int, ...]] = tuple(_RANK_POINTS[name[0]] for name in _NAMES)
#: Category (as an int) of card ``n``.
CATEGORY: Final[tuple[int, ...]] = tuple(
    0 if n < 14 else 1 + (n - 14) // 4 for n in range(NUM_CARDS)
)
#: Mask of all cards of each category, indexed by :class:`Category`.
CATEGORY_MASK: Final[tuple[int, ...]] = (
    (1 << 14) - 1,
    0xF << 14,
    0xF << 18,
    0xF << 22,
)
#: Mask of the whole pack.
ALL_CARDS_MASK: Final = (1 << NUM_CARDS) - 1
#: Points of all trumps / of each plain suit (45 and 25).
TOTAL_POINTS: Final = 120


class Card(int):
    """One of the 26 cards; ``str(card)`` is its canonical notation (``"QC"``, ``"TD"``).

    ``Card(n)`` returns the cached card number ``n`` of the canonical order;
    :meth:`parse` reads notation.

    >>> Card.parse("10♦")
    Card.parse('TD')
    >>> Card.parse("jh").category
    <Category.TRUMP: 0>
    """

    __slots__ = ()

    def __new__(cls, index: int) -> Card:
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < NUM_CARDS:
            raise NotationError(f"no card number {index!r}: cards are numbered 0 to 25")
        try:
            return CARDS[index]
        except NameError:  # while CARDS itself is being built
            return super().__new__(cls, index)

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card from notation: rank then suit, case-insensitive.

        Ranks are ``A T K Q J 9 8 7`` (``10`` is accepted for ``T``); suits ``C S H D`` or the
        symbols ``♣ ♠ ♥ ♦``.

        :raises NotationError: the text names no Zole card (a 7 of clubs, say).
        """
        card = _PARSE.get(text.strip().upper())
        if card is None:
            raise NotationError(
                f"not a Zole card: {text!r} (write rank then suit, e.g. QC, TD, 10D, 9♥)"
            )
        return card

    @property
    def name(self) -> str:
        """Canonical notation, e.g. ``"QC"``."""
        return _NAMES[self]

    @property
    def rank(self) -> str:
        """The rank letter: ``A T K Q J 9 8 7``."""
        return _NAMES[self][0]

    @property
    def suit(self) -> str:
        """The printed suit letter ``C S H D`` (J♥'s is ``H`` although it is a trump)."""
        return _NAMES[self][1]

    @property
    def category(self) -> Category:
        """What the card follows as: trump or its plain suit."""
        return Category(CATEGORY[self])

    @property
    def is_trump(self) -> bool:
        """Every queen, jack and diamond."""
        return self < 14

    @property
    def points(self) -> int:
        """Card points: A 11, 10 10, K 4, Q 3, J 2, others 0."""
        return POINTS[self]

    @property
    def mask(self) -> int:
        """This card's bit in a card mask."""
        return 1 << self

    def symbol(self) -> str:
        """Notation with a suit symbol and ``10`` for ten, for people: ``"10♦"``, ``"Q♣"``."""
        name = _NAMES[self]
        rank = "10" if name[0] == "T" else name[0]
        return rank + _SUIT_SYMBOLS[name[1]]

    def beats(self, other: Card, led: Category) -> bool:
        """Whether this card beats ``other`` in a trick whose led category is ``led``."""
        return _trick_key(self, led) < _trick_key(other, led)

    def __str__(self) -> str:
        return _NAMES[self]

    def __repr__(self) -> str:
        return f"Card.parse({_NAMES[self]!r})"


def _trick_key(card: int, led: int) -> int:
    """Lower wins: trumps by strength, then the led suit by strength, other cards never."""
    if card < 14:
        return card
    if CATEGORY[card] == led:
        return card
    return 100


CARDS: Final[tuple[Card, ...]] = tuple(Card(n) for n in range(NUM_CARDS))


def _parse_table() -> dict[str, Card]:
    table: dict[str, Card] = {}
    for card in CARDS:
        name = card.name
        ranks = ["10", "T"] if name[0] == "T" else [name[0]]
        suits = [name[1]] + [sym for sym, letter in _SYMBOL_SUITS.items() if letter == name[1]]
        for rank in ranks:
            for suit in suits:
                table[rank + suit] = card
                table[suit + rank] = card  # "♦10" is how some people write it
    return table


_PARSE: Final = _parse_table()


def cards(text: str) -> tuple[Card, ...]:
    """Parse cards separated by spaces or commas: ``cards("QC 10D 9♥")``.

    :raises NotationError: for the first word that is not a card.
    """
    return tuple(Card.parse(word) for word in text.replace(",", " ").split())


def mask_of(items: Iterable[int]) -> int:
    """The card mask of some cards."""
    mask = 0
    for card in items:
        mask |= 1 << card
    return mask


def _mask_table(offset: int) -> tuple[tuple[Card, ...], ...]:
    # Built by doubling (entry ``low | 1 << bit`` is entry ``low`` plus one card), not card by
    # card: a tenth of the time, and every program that imports the cards (a Python bot
    # included) starts that much sooner.
    table: list[tuple[Card, ...]] = [()]
    for bit in range(13):
        card = (CARDS[offset + bit],)
        table += [cards + card for cards in table]
    return tuple(table)


#: Cards of a 13-bit half mask, low half (cards 0–12) and high half (cards 13–25).
_LOW_CARDS: Final = _mask_table(0)
_HIGH_CARDS: Final = _mask_table(13)


def cards_of(mask: int) -> tuple[Card, ...]:
    """The cards of a mask in canonical order (strongest first), without a loop per card."""
    return _LOW_CARDS[mask & 0x1FFF] + _HIGH_CARDS[mask >> 13]


def _points_table(offset: int) -> tuple[int, ...]:
    table = [0]
    for bit in range(13):
        points = POINTS[offset + bit]
        table += [total + points for total in table]
    return tuple(table)


_LOW_POINTS: Final = _points_table(0)
_HIGH_POINTS: Final = _points_table(13)


def points_of(mask: int) -> int:
    """Total card points of the cards in a mask."""
    return _LOW_POINTS[mask & 0x1FFF] + _HIGH_POINTS[mask >> 13]


def _names_table(offset: int) -> tuple[str, ...]:
    table = [""]
    for bit in range(13):
        name = _NAMES[offset + bit]
        table += [f"{names},{name}" if names else name for names in table]
    return tuple(table)


_LOW_NAMES: Final = _names_table(0)
_HIGH_NAMES: Final = _names_table(13)


def names_of(mask: int) -> str:
    """The cards of a mask as the protocol writes a list: ``"QC,JD,9H"``, or ``"-"`` if none."""
    low = _LOW_NAMES[mask & 0x1FFF]
    high = _HIGH_NAMES[mask >> 13]
    if low and high:
        return f"{low},{high}"
    return low or high or "-"


def format_cards(items: Iterable[int]) -> str:
    """Canonical notation of some cards, space-separated."""
    return " ".join(_NAMES[card] for card in items)
