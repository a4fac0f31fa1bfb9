"""What a seat could see at a decision, and deals drawn from it, for the fair-play screen.

A bot deciding a card knows its own hand, every card played so far and who played it, the
bids, the voids a seat showed by not following the led category, and — if it took the talon —
the talon and its bury. :func:`view_of` collects exactly that from the true deal's state
(:class:`SeatView`); :func:`draw_deals` draws deals consistent with it: every unseen card
(:attr:`SeatView.unknown`) goes to one of the two other hands or to the hidden pile (the talon,
or a take's bury as its defenders see it), each hand its known number of cards, no card of a
category to a seat void in it.

Drawing is **exactly uniform** over the consistent deals (a count of the ways per category,
then a draw backwards through the counts: no rejection, no bias from a greedy deal), then
**weighted by the bids** (:class:`BidModel`): a seat that took or passed says something of its
trumps, and an honest bot that reads the bids would otherwise look as if it knew more than the
uniform deals allow. The weights are a likelihood of each bid given the bidder's trump
strength, estimated from the logs' own deals; candidates are drawn uniformly and resampled by
weight (importance resampling).

Why sample at all: see ``docs/fairplay.md``. This module knows nothing of the solver.
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
import random
from collections.abc import Iterable, Sequence
from typing import Final

from zole_arena.errors import ZoleError
from zole_arena.game.actions import Bid, Bury, Contract
from zole_arena.game.cards import ALL_CARDS_MASK, CATEGORY, CATEGORY_MASK, cards_of
from zole_arena.game.state import DealState
from zole_arena.records.model import DealRecord

__all__ = [
    "BidModel",
    "SeatView",
    "draw_deals",
    "sampled_state",
    "strength",
    "view_of",
]

#: The category of trumps in :data:`~zole_arena.game.cards.CATEGORY`.
TRUMP: Final = 0
#: The mask of the queens and jacks (the high trumps).
_HIGH: Final = sum(1 << int(c) for c in cards_of(ALL_CARDS_MASK) if str(c)[0] in "QJ")
#: Highest strength a holding can have (:func:`strength`): 14 trumps, 8 of them high.
MAX_STRENGTH: Final = 22
#: Weight of the position's overall frequency of a bid in the smoothed estimate of
#: :class:`BidModel` (pseudo-observations per strength).
SMOOTHING: Final = 2.0
#: Candidates drawn for each deal kept, before resampling by the bids' weights.
POOL_FACTOR: Final = 6


def strength(mask: int) -> int:
    """A holding's trump strength: its trumps, the queens and jacks counted twice."""
    trumps = mask & CATEGORY_MASK[TRUMP]
    return trumps.bit_count() + (trumps & _HIGH).bit_count()


@dataclasses.dataclass(frozen=True, slots=True)
class SeatView:
    """What ``seat`` has seen at a decision of a deal in play (see the module's docstring)."""

    seat: int
    hand: int
    """Its cards now (mask)."""
    others: tuple[int, int]
    """The two other seats, in turn order after it."""
    counts: tuple[int, int]
    """How many cards each of :attr:`others` holds now."""
    pile: int
    """Hidden cards besides the hands: 2 (the talon; a take's bury for a defender), or 0 for
    the soloist who took the talon and buried."""
    unknown: int
    """The cards it has not seen (mask): the others' hands and the hidden pile."""
    voids: tuple[int, int]
    """For each of :attr:`others`, the categories it showed it has none of (bit per
    category)."""
    played: tuple[int, int, int]
    """The cards each seat has played so far (mask by seat)."""


def _played_by_seat(state: DealState) -> tuple[list[int], list[int]]:
    """The cards each seat has played and the categories each showed it lacks."""
    played, voids = [0, 0, 0], [0, 0, 0]
    tricks: list[tuple[int, tuple[int, ...]]] = [
        (leader, (a, b, c)) for leader, a, b, c, _ in state.trick_log()
    ]
    tricks.append((state.trick_leader, state.current_trick_cards()))
    for leader, cards in tricks:
        if not cards:
            continue
        led = CATEGORY[cards[0]]
        for offset, card in enumerate(cards):
            who = (leader + offset) % 3
            played[who] |= 1 << card
            if CATEGORY[card] != led:
                voids[who] |= 1 << led
    return played, voids


def view_of(state: DealState, seat: int) -> SeatView:
    """What ``seat`` has seen in ``state`` (a deal in play with cards to play)."""
    played, voids = _played_by_seat(state)
    hand = state.hand_mask(seat)
    knows_pile = state.contract is Contract.TAKE and state.soloist == seat
    seen = hand | played[0] | played[1] | played[2] | (state.buried if knows_pile else 0)
    others = ((seat + 1) % 3, (seat + 2) % 3)
    return SeatView(
        seat=seat,
        hand=hand,
        others=others,
        counts=(state.hand_mask(others[0]).bit_count(), state.hand_mask(others[1]).bit_count()),
        pile=0 if knows_pile else 2,
        unknown=ALL_CARDS_MASK & ~seen,
        voids=(voids[others[0]], voids[others[1]]),
        played=(played[0], played[1], played[2]),
    )


def _splits(view: SeatView) -> list[tuple[int, list[tuple[int, int, int]]]]:
    """Per category: its unknown cards (mask) and every way (to the first other, the second,
    the pile) its count may be split, void seats getting none."""
    result = []
    for category, cat_mask in enumerate(CATEGORY_MASK):
        cards = view.unknown & cat_mask
        n = cards.bit_count()
        low = [0 if view.voids[i] >> category & 1 else n for i in range(2)]
        ways = [
            (a, b, n - a - b)
            for a in range(low[0] + 1)
            for b in range(low[1] + 1)
            if 0 <= n - a - b <= view.pile
        ]
        result.append((cards, ways))
    return result


def _ways_table(
    splits: list[tuple[int, list[tuple[int, int, int]]]],
) -> list[dict[tuple[int, int, int], int]]:
    """table[k][(a, b, p)]: the weighted count of deals of the first k categories giving a, b
    and p cards to the first other, the second and the pile (multinomial ways)."""
    table: list[dict[tuple[int, int, int], int]] = [{(0, 0, 0): 1}]
    for cards, ways in splits:
        n = cards.bit_count()
        nxt: dict[tuple[int, int, int], int] = {}
        for (a, b, p), count in table[-1].items():
            for x, y, z in ways:
                key = (a + x, b + y, p + z)
                multinomial = math.comb(n, x) * math.comb(n - x, y)
                nxt[key] = nxt.get(key, 0) + count * multinomial
        table.append(nxt)
    return table


def _pick(rng: random.Random, mask: int, count: int) -> int:
    chosen = rng.sample(cards_of(mask), count) if count else []
    return sum(1 << int(c) for c in chosen)


def _uniform_deals(view: SeatView, count: int, rng: random.Random) -> list[tuple[int, int, int]]:
    """``count`` deals (first other's hand, second's, the pile) drawn uniformly from those
    consistent with ``view``; none when no deal is (a log whose moves contradict)."""
    splits = _splits(view)
    table = _ways_table(splits)
    goal = (view.counts[0], view.counts[1], view.pile)
    if table[-1].get(goal, 0) == 0:
        return []
    deals = []
    for _ in range(count):
        need = goal
        hands = [0, 0, 0]
        for k in range(len(splits) - 1, -1, -1):
            cards, ways = splits[k]
            n = cards.bit_count()
            options = []
            for x, y, z in ways:
                before = (need[0] - x, need[1] - y, need[2] - z)
                ways_before = table[k].get(before, 0)
                if ways_before:
                    options.append(((x, y, z), ways_before * math.comb(n, x) * math.comb(n - x, y)))
            total = sum(w for _, w in options)
            r = rng.randrange(total)
            for (x, y, z), w in options:  # noqa: B007 - the split drawn is the one kept
                if r < w:
                    break
                r -= w
            first = _pick(rng, cards, x)
            second = _pick(rng, cards & ~first, y)
            hands[0] |= first
            hands[1] |= second
            hands[2] |= cards & ~first & ~second
            need = (need[0] - x, need[1] - y, need[2] - z)
        deals.append((hands[0], hands[1], hands[2]))
    return deals


@dataclasses.dataclass(frozen=True, slots=True)
class BidModel:
    """How likely each bid is from a holding of each trump strength, at each bidding position.

    ``likelihood[(position, bid)][s]``: the share of holdings of strength ``s`` (the bidder's
    eight cards; a take's ten, talon included, for the take itself) whose bidder, at that
    position from the forehand, said ``bid`` — smoothed towards the position's overall share
    of the bid. Made by :meth:`estimate` from the logs' deals: the bids of the players who
    actually played, which is what an honest bot reading the bids would have learnt.
    """

    likelihood: dict[tuple[int, str], tuple[float, ...]]

    @classmethod
    def estimate(cls, records: Iterable[DealRecord]) -> BidModel:
        """The model of the bids of ``records`` (each seat's first bid; a seat after a
        contract was bid says nothing and is not counted)."""
        counts: dict[tuple[int, str], list[int]] = {}
        totals: dict[int, list[int]] = {}
        for record in records:
            for position, (word, held) in enumerate(_bids_with_holdings(record)):
                counts.setdefault((position, word), [0] * (MAX_STRENGTH + 1))[held] += 1
                totals.setdefault(position, [0] * (MAX_STRENGTH + 1))[held] += 1
        likelihood: dict[tuple[int, str], tuple[float, ...]] = {}
        for (position, word), row in counts.items():
            total = totals[position]
            share = sum(row) / max(1, sum(total))
            likelihood[(position, word)] = tuple(
                (row[s] + SMOOTHING * share) / (total[s] + SMOOTHING)
                for s in range(MAX_STRENGTH + 1)
            )
        return cls(likelihood)

    def digest(self) -> str:
        """A short text naming the model's figures (part of a cache line's parameters)."""
        text = repr(
            sorted((k, tuple(round(v, 6) for v in row)) for k, row in self.likelihood.items())
        )
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def weight(
        self,
        bids: Sequence[tuple[int, str]],
        holdings: Sequence[int],
        take_talon_unknown: int | None,
    ) -> float:
        """The likelihood of ``bids`` (position by position: the seat's index among the
        ``holdings`` given, or -1 for the seat deciding, whose own bid is not weighed) for the
        holdings drawn (masks, by index). ``take_talon_unknown``: the index of a take's
        soloist whose ten cards are drawn, for whom the talon's two cards are unknown (the
        take is weighed by the strength of the eight cards he had, averaged over which two of
        his ten were the talon)."""
        weight = 1.0
        for position, (who, word) in enumerate(bids):
            if who < 0:
                continue
            row = self.likelihood.get((position, word))
            if row is None:
                continue
            held = holdings[who]
            if who == take_talon_unknown and word == str(Bid.TAKE):
                weight *= _take_likelihood(row, held)
            else:
                weight *= row[min(strength(held), MAX_STRENGTH)]
        return weight


def _take_likelihood(row: tuple[float, ...], ten: int) -> float:
    """The mean of ``row`` over the eight cards of ``ten`` that were not the talon (the talon
    any two of them, equally likely)."""
    cards = cards_of(ten)
    total, pairs = 0.0, 0
    for i in range(len(cards)):
        for j in range(i + 1, len(cards)):
            eight = ten & ~(1 << int(cards[i])) & ~(1 << int(cards[j]))
            total += row[min(strength(eight), MAX_STRENGTH)]
            pairs += 1
    return total / pairs if pairs else 1.0


def _bids_with_holdings(record: DealRecord) -> list[tuple[str, int]]:
    """Each bid of ``record`` in order, with the bidder's strength (its eight cards)."""
    result = []
    for move in record.moves[:3]:
        if move.action not in {str(b) for b in Bid} or not 0 <= move.seat <= 2:
            break
        hand = sum(1 << int(c) for c in record.hands[move.seat])
        result.append((move.action, min(strength(hand), MAX_STRENGTH)))
        if move.action != str(Bid.PASS):
            break
    return result


def _bidders(state: DealState, view: SeatView) -> list[tuple[int, str]]:
    """The bids of ``state`` as :meth:`BidModel.weight` takes them: the index of the bidder
    in (first other, second other) or -1 for the seat deciding, and the word."""
    return [
        (-1 if seat == view.seat else view.others.index(seat), str(bid)) for seat, bid in state.bids
    ]


def draw_deals(
    state: DealState, view: SeatView, model: BidModel, count: int, rng: random.Random
) -> list[tuple[int, int, int]]:
    """``count`` deals consistent with ``view`` (first other's hand now, second's, the hidden
    pile), drawn uniformly and resampled by the bids' likelihood under ``model``."""
    pool = _uniform_deals(view, count * POOL_FACTOR, rng)
    if not pool:
        return []
    bids = _bidders(state, view)
    soloist = state.soloist
    taker = None
    if state.contract is Contract.TAKE and soloist is not None and soloist != view.seat:
        taker = view.others.index(soloist)
    weights = []
    for first, second, pile in pool:
        held = [first | view.played[view.others[0]], second | view.played[view.others[1]]]
        if taker is not None:
            held[taker] |= pile  # his ten cards: the eight kept and the two buried
        weights.append(model.weight(bids, held, taker))
    total = sum(weights)
    if total <= 0:
        return pool[:count]
    step = total / count  # systematic resampling: each deal about count * weight / total times
    start = rng.random() * step
    chosen, running, index = [], weights[0], 0
    for k in range(count):
        target = start + k * step
        while running < target and index < len(pool) - 1:
            index += 1
            running += weights[index]
        chosen.append(pool[index])
    return chosen


def sampled_state(state: DealState, view: SeatView, deal: tuple[int, int, int]) -> DealState | None:
    """The deal ``deal`` (from :func:`draw_deals`) as a state at the same point as ``state``:
    each seat's hand the cards drawn for it and those it played, the talon (a take's: its
    bury) the pile, the record's bids, bury and cards played again. None when the engine
    refuses it (a record that contradicts itself)."""
    hands = [0, 0, 0]
    hands[view.seat] = view.hand
    hands[view.others[0]], hands[view.others[1]] = deal[0], deal[1]
    taking = state.contract is Contract.TAKE
    pile = state.buried if taking and view.pile == 0 else deal[2]
    initial = [hands[s] | view.played[s] for s in range(3)]
    try:
        sample = DealState(
            state.rules, [cards_of(m) for m in initial], cards_of(pile), state.dealer, state.pules
        )
        for _, action in state.history:
            if isinstance(action, Bury):
                action = Bury.of(*cards_of(pile))
            sample.apply(action)
    except (ValueError, TypeError, ZoleError):
        return None
    return sample
