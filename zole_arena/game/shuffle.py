"""Reproducible dealing: the cards of deal ``n`` of a match follow from (match seed, ``n``).

The algorithm is meant to be reimplemented by bot authors in any language, so it uses only
SHA-512 and 16-bit unsigned arithmetic (specified in ``protocol/dealing.md``):

1. Start from the fresh deck in canonical order (:data:`zole_arena.game.cards.CARDS`)::

       QC QS QH QD JC JS JH JD AD TD KD 9D 8D 7D AC TC KC 9C AS TS KS 9S AH TH KH 9H

2. Random words: block ``k`` (k = 0, 1, 2, …) is the SHA-512 digest of the ASCII text
   ``zole-arena/1/<seed>/<deal>/<k>`` (seed and deal number in decimal, no leading zeros).
   Concatenate the blocks and read them as big-endian unsigned 16-bit words, in order
   (block 0 gives 32 words, which is nearly always enough).
3. Fisher–Yates: for ``i`` from 25 down to 1, let ``m = i + 1``; take the next word ``x``,
   skipping (taking the next instead) any ``x >= 65536 - (65536 % m)``; swap positions ``i``
   and ``x % m``.
4. Deal from the top (position 0) as the rules say (§2): 4 cards to each player starting with
   the forehand, 2 to the talon, 4 more to each player starting with the forehand.
"""

from __future__ import annotations

import hashlib
import struct
from typing import Final

from zole_arena.game.cards import CARDS, Card

__all__ = ["MAX_SEED", "shuffled_deck", "deal_from_deck", "deal_cards"]

#: Seeds are integers from 0 to MAX_SEED.
MAX_SEED: Final = 2**64 - 1
_UNPACK_BLOCK: Final = struct.Struct(">32H").unpack
_TWO16: Final = 1 << 16


_SHA512: Final = hashlib.sha512
#: The multipliers m = 26, 25, …, 2 of the Fisher–Yates steps, in order.
_MODULI: Final = tuple(range(26, 1, -1))
#: Rejection limits for each step: a word x is used only if x < the limit.
_LIMITS: Final = tuple(_TWO16 - (_TWO16 % m) for m in _MODULI)
_BIT: Final = tuple(1 << c for c in range(26))
_FRESH: Final = list(range(26))
#: The positions i = 25, 24, …, 1 that the Fisher–Yates steps fill.
_POSITIONS: Final = tuple(range(25, 0, -1))


def _block(prefix: bytes, k: int) -> bytes:
    return _SHA512(prefix + str(k).encode()).digest()


def _draws(prefix: bytes, words: tuple[int, ...]) -> list[int]:
    """The swap positions j of the Fisher–Yates steps, with rejection sampling (slow path)."""
    stream = list(words)
    next_block = 1
    pos = 0
    draws = []
    for m, limit in zip(_MODULI, _LIMITS, strict=False):
        while True:
            if pos == len(stream):  # more than 7 rejections of 32 words: practically never
                stream.extend(_UNPACK_BLOCK(_block(prefix, next_block)))
                next_block += 1
            x = stream[pos]
            pos += 1
            if x < limit:
                break
        draws.append(x % m)
    return draws


def shuffled_deck(seed: int, deal: int) -> list[int]:
    """The 26 card numbers of deal ``deal`` in shuffled order, top of the deck first.

    :raises ValueError: the seed or deal number is out of range.
    """
    if not 0 <= seed <= MAX_SEED:
        raise ValueError(f"seed {seed} is out of range: use 0 to {MAX_SEED}")
    if deal < 0:
        raise ValueError(f"deal number {deal} is negative")
    prefix = f"zole-arena/1/{seed}/{deal}/".encode()
    digest = _SHA512(prefix + b"0").digest()
    words = _UNPACK_BLOCK(digest)
    deck = _FRESH[:]
    # A word can be rejected only if it is >= 65516, so its high byte is 255: checking the
    # high bytes of the 25 words in C keeps the usual case free of a Python-level test.
    if 255 not in digest[0:50:2]:
        for i, x, m in zip(_POSITIONS, words, _MODULI, strict=False):
            j = x % m
            deck[i], deck[j] = deck[j], deck[i]
    else:
        for i, j in zip(range(25, 0, -1), _draws(prefix, words), strict=False):
            deck[i], deck[j] = deck[j], deck[i]
    return deck


def deal_from_deck(deck: list[int]) -> tuple[tuple[int, int, int], int]:
    """Split a deck (top first) into the masks of the hands in dealing order and the talon.

    The first hand is the forehand's, then the next player's to the left, then the dealer's.
    """
    b = _BIT
    d = deck
    return (
        (
            b[d[0]] | b[d[1]] | b[d[2]] | b[d[3]] | b[d[14]] | b[d[15]] | b[d[16]] | b[d[17]],
            b[d[4]] | b[d[5]] | b[d[6]] | b[d[7]] | b[d[18]] | b[d[19]] | b[d[20]] | b[d[21]],
            b[d[8]] | b[d[9]] | b[d[10]] | b[d[11]] | b[d[22]] | b[d[23]] | b[d[24]] | b[d[25]],
        ),
        b[d[12]] | b[d[13]],
    )


def deal_cards(seed: int, deal: int) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]:
    """The deal as cards: three hands in dealing order (forehand first) and the talon.

    Hands and talon keep the order in which the cards were dealt.
    """
    deck = [CARDS[c] for c in shuffled_deck(seed, deal)]
    hands = tuple(tuple(deck[4 * p : 4 * p + 4] + deck[14 + 4 * p : 18 + 4 * p]) for p in range(3))
    return hands, (deck[12], deck[13])
