"""The 26 cards: order, categories, points, notation and masks (zole-rules.md §1)."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from zole_arena.errors import NotationError, ZoleError
from zole_arena.game.cards import (
    CARDS,
    Card,
    Category,
    cards,
    cards_of,
    format_cards,
    mask_of,
    points_of,
)

CANONICAL = "QC QS QH QD JC JS JH JD AD TD KD 9D 8D 7D AC TC KC 9C AS TS KS 9S AH TH KH 9H".split()
TRUMPS = "QC QS QH QD JC JS JH JD AD TD KD 9D 8D 7D".split()
RANK_POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
SYMBOLS = {"C": "♣", "S": "♠", "H": "♥", "D": "♦"}


def reference_points(name: str) -> int:
    """Card points from the rank letter alone (§1)."""
    return RANK_POINTS[name[0]]


def is_trump_name(name: str) -> bool:
    """Every queen, every jack and every diamond is a trump (§1)."""
    return name[0] in "QJ" or name[1] == "D"


def test_there_are_26_distinct_cards_numbered_0_to_25() -> None:
    assert len(CARDS) == 26
    assert [int(c) for c in CARDS] == list(range(26))
    assert len({str(c) for c in CARDS}) == 26
    for n in range(26):
        assert Card(n) is CARDS[n]
        assert isinstance(Card(n), int)


def test_canonical_order_is_strength_order() -> None:
    assert [str(c) for c in CARDS] == CANONICAL
    assert format_cards(CARDS) == " ".join(CANONICAL)


def test_fourteen_trumps_high_to_low() -> None:
    trumps = [c for c in CARDS if c.is_trump]
    assert [str(c) for c in trumps] == TRUMPS
    assert len(trumps) == 14
    for card in CARDS:
        assert card.is_trump == is_trump_name(str(card))
        assert (card.category is Category.TRUMP) == card.is_trump


def test_plain_suits_have_four_cards_a_10_k_9() -> None:
    for category, suit in ((Category.CLUBS, "C"), (Category.SPADES, "S"), (Category.HEARTS, "H")):
        members = [str(c) for c in CARDS if c.category is category]
        assert members == [rank + suit for rank in "ATK9"]


def test_jacks_and_queens_keep_their_printed_suit_but_are_trumps() -> None:
    jh = Card.parse("JH")
    assert jh.suit == "H"
    assert jh.rank == "J"
    assert jh.category is Category.TRUMP
    assert Card.parse("QC").category is Category.TRUMP
    assert Card.parse("9H").category is Category.HEARTS
    assert Card.parse("7D").category is Category.TRUMP


def test_points_total_120_trumps_45_each_plain_suit_25() -> None:
    assert sum(c.points for c in CARDS) == 120
    assert sum(c.points for c in CARDS if c.is_trump) == 45
    for category in (Category.CLUBS, Category.SPADES, Category.HEARTS):
        assert sum(c.points for c in CARDS if c.category is category) == 25
    for card in CARDS:
        assert card.points == reference_points(str(card))


@pytest.mark.parametrize("name", CANONICAL)
def test_notation_round_trip(name: str) -> None:
    card = Card.parse(name)
    assert str(card) == name
    assert card.name == name
    assert Card.parse(str(card)) is card
    assert Card.parse(card.symbol()) is card
    assert Card.parse(name.lower()) is card
    assert repr(card) == f"Card.parse({name!r})"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("10D", "TD"),
        ("TD", "TD"),
        ("td", "TD"),
        ("10d", "TD"),
        ("T♦", "TD"),
        ("10♦", "TD"),
        ("♦10", "TD"),
        ("t♠", "TS"),
        ("qc", "QC"),
        ("Q♣", "QC"),
        ("jh", "JH"),
        ("J♥", "JH"),
        ("9♥", "9H"),
        ("A♠", "AS"),
        ("K♣", "KC"),
        ("7♦", "7D"),
        ("8d", "8D"),
        ("  AH  ", "AH"),
    ],
)
def test_parse_accepts_10_t_lowercase_and_symbols(text: str, expected: str) -> None:
    assert str(Card.parse(text)) == expected


@pytest.mark.parametrize(
    "text",
    [
        "7C",
        "8H",
        "7S",
        "8C",
        "8S",
        "7H",
        "6D",
        "2C",
        "",
        "   ",
        "Q",
        "10",
        "XX",
        "QX",
        "1D",
        "QCC",
        "Q C",
        "queen",
        "1O♦",
    ],
)
def test_parse_rejects_non_zole_cards(text: str) -> None:
    with pytest.raises(NotationError) as info:
        Card.parse(text)
    assert isinstance(info.value, ValueError)
    assert isinstance(info.value, ZoleError)
    assert repr(text) in str(info.value)


def test_notation_error_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        Card.parse("7C")
    assert issubclass(NotationError, ValueError)


@pytest.mark.parametrize("bad", [-1, 26, 100, True, False])
def test_card_numbers_outside_0_to_25_are_rejected(bad: int) -> None:
    with pytest.raises(NotationError):
        Card(bad)


@pytest.mark.parametrize(
    ("name", "symbol"),
    [("QC", "Q♣"), ("TD", "10♦"), ("9H", "9♥"), ("AS", "A♠"), ("JH", "J♥"), ("TC", "10♣")],
)
def test_symbol_rendering(name: str, symbol: str) -> None:
    assert Card.parse(name).symbol() == symbol


def test_symbol_for_every_card() -> None:
    for card in CARDS:
        name = str(card)
        rank = "10" if name[0] == "T" else name[0]
        assert card.symbol() == rank + SYMBOLS[name[1]]


def test_cards_helper_parses_a_list() -> None:
    assert cards("QC 10D 9♥") == (Card.parse("QC"), Card.parse("TD"), Card.parse("9H"))
    assert cards("QC,10D, 9♥") == cards("QC 10D 9♥")
    assert cards("") == ()
    with pytest.raises(NotationError) as info:
        cards("QC 7C 9H")
    assert "7C" in str(info.value)


def test_mask_of_single_cards() -> None:
    for card in CARDS:
        assert card.mask == 1 << int(card)
        assert mask_of([card]) == card.mask
        assert cards_of(card.mask) == (card,)
        assert points_of(card.mask) == card.points
    assert mask_of(CARDS) == (1 << 26) - 1
    assert mask_of([]) == 0
    assert cards_of(0) == ()
    assert points_of(0) == 0
    assert cards_of(mask_of(CARDS)) == CARDS
    assert points_of(mask_of(CARDS)) == 120


def test_cards_of_mask_of_points_of_agree_on_random_sets() -> None:
    rng = random.Random(20261129)
    for _ in range(2000):
        chosen = rng.sample(CARDS, rng.randint(0, 26))
        mask = mask_of(chosen)
        assert cards_of(mask) == tuple(sorted(chosen))
        assert points_of(mask) == sum(reference_points(str(c)) for c in chosen)
        assert mask.bit_count() == len(chosen)
        assert all(isinstance(c, Card) for c in cards_of(mask))


def test_mask_of_ignores_duplicates_and_order() -> None:
    a, b = Card.parse("QC"), Card.parse("9H")
    assert mask_of([a, b]) == mask_of([b, a, b])
    assert cards_of(mask_of([b, a])) == (a, b)


def test_beats_follows_trumps_then_led_suit() -> None:
    qc, qd, jc, ad, d7 = cards("QC QD JC AD 7D")
    s9, ah, h10, s10, sk = cards("9S AH TH TS KS")
    assert qd.beats(jc, Category.TRUMP)
    assert qc.beats(qd, Category.TRUMP)
    assert jc.beats(ad, Category.TRUMP)
    assert d7.beats(ah, Category.HEARTS)
    assert s9.beats(ah, Category.SPADES)
    assert not ah.beats(s9, Category.SPADES)
    assert ah.beats(h10, Category.HEARTS)
    assert s10.beats(sk, Category.SPADES)
    # every trump beats every plain card, whatever was led
    for trump, plain in combinations(CARDS, 2):
        if trump.is_trump and not plain.is_trump:
            for led in Category:
                assert trump.beats(plain, led)
