"""The fair-play screen's statistics: per bot, per repeat of the same cards, per pair of bots.

The unit of sampling is a bot's part in one set of cards (its screened decisions there are
not independent of each other, and a duplicate event plays the same cards in several seatings
and at several tables, where the bot's choices are as alike as the cards): a mean of the
decisions' excess (:mod:`~zole_arena.analysis.fairplay`) is a ratio of per-cards sums, and its
standard error is the delta method's, clustered by the cards (:func:`cards_key`), as
``analyze``'s intervals are clustered by deal. Where no cards repeat, that is by deal.

* **Per bot**: is its mean excess above the :attr:`Thresholds.allowance` (what honest bots
  reach by reading the others' bids and play better than the drawn deals do)? One-sided
  z-test; flagged below :attr:`Thresholds.alpha`.
* **Repeats**: a bot that meets the same cards again (a duplicate match's seatings, the same
  seed twice): is its excess at the later meetings above that at its first ones?
* **Pairs**: for bots A and B, the deals B plays whose cards A played too (at another table,
  before, after or at the same time): is B's excess there above B's excess elsewhere? Two
  entries of one author at different tables of the same cards, telling each other what they
  hold, show here.

Repeats and pairs test many hypotheses at once, so their threshold is :attr:`Thresholds.
alpha` divided by the number of tests made (Bonferroni; helpers that played the same deals as
each other make one test). ``docs/fairplay.md`` gives the
calibration behind the defaults.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from typing import Final

from zole_arena.analysis.fairplay import LoggedDeal

__all__ = [
    "Estimate",
    "FairplayReport",
    "PairTest",
    "PlayerScreen",
    "RepeatTest",
    "Thresholds",
    "cards_key",
    "fairplay_report",
    "set_aside",
]

#: A bot's part in one deal: the sum of its decisions' excess, their number, and the deal's
#: cards (:func:`cards_key`), by which the parts are clustered.
Cluster = tuple[float, int, tuple[int, ...]]
#: Fewest screened decisions a bot (or a group of a repeat or pair) needs to be judged.
MIN_DECISIONS: Final = 30
#: Fewest deals it needs: the standard error clustered by deal is too small, and the verdicts
#: too many, on fewer (measured: searchbot at z 4.7 over 12 honest deals).
MIN_JUDGED_DEALS: Final = 40


@dataclasses.dataclass(frozen=True, slots=True)
class Thresholds:
    """When a bot, a repeat or a pair is flagged (defaults: ``docs/fairplay.md``)."""

    allowance: float = 0.01
    """The mean excess honest bots may reach (reading the bids and the play better than the
    drawn deals): a bot is flagged only when significantly above it. The bots that play at
    random reach the most (+0.027 in tricks 2–7: a random card is best in the true deal a
    little more often than in deals that do not weigh the others' play); at 0.005 one
    random-playing bot-log in some 30 was flagged."""
    alpha: float = 0.005
    """The one-sided p-value below which a bot is flagged (its two tests, cards and bids, each
    at half of it; repeats and pairs: divided by the number of tests)."""
    bid_allowance: float = 0.03
    """The mean excess of bids honest bots may reach: the drawn deals weigh the earlier
    bidders' passes by a model of the log's own bids, which an honest bot that reads them
    beats a little."""


@dataclasses.dataclass(frozen=True, slots=True)
class Estimate:
    """A mean excess over decisions, with its standard error clustered by the cards."""

    decisions: int
    deals: int
    """The distinct deals (sets of cards) it rests on: a deal played in several seatings or
    at several tables counts once."""
    mean: float
    se: float

    @property
    def usable(self) -> bool:
        """Whether there are enough decisions and deals to judge by."""
        return self.decisions >= MIN_DECISIONS and self.deals >= MIN_JUDGED_DEALS and self.se > 0


def _normal_sf(z: float) -> float:
    """P(Z > z) for a standard normal Z."""
    return 0.5 * math.erfc(z / math.sqrt(2))


def _estimate(parts: Sequence[Cluster]) -> Estimate:
    """The mean of decisions given as per-deal (sum, count, cards) parts, with its SE
    clustered by the cards (the parts of one set of cards summed into one cluster)."""
    merged: dict[tuple[int, ...], tuple[float, int]] = {}
    for s, n, cards in parts:
        before = merged.get(cards, (0.0, 0))
        merged[cards] = (before[0] + s, before[1] + n)
    clusters = list(merged.values())
    total = sum(n for _, n in clusters)
    deals = len(clusters)
    if total == 0:
        return Estimate(0, deals, 0.0, 0.0)
    mean = sum(s for s, _ in clusters) / total
    if deals < 2:
        return Estimate(total, deals, mean, 0.0)
    spread = sum((s - mean * n) ** 2 for s, n in clusters)
    se = math.sqrt(deals / (deals - 1) * spread) / total
    return Estimate(total, deals, mean, se)


@dataclasses.dataclass(frozen=True, slots=True)
class PlayerScreen:
    """The screen of one bot over every deal of the logs."""

    name: str
    estimate: Estimate
    best_in_truth: float
    """The share of its screened cards that were best in the true deal."""
    best_in_samples: float
    """The mean share of drawn deals in which they were best."""
    z: float
    p_value: float
    flagged: bool
    """Either test below half of alpha: its cards' (``estimate``, ``z``, ``p_value``) or its
    bids' (``bids``, ``bids_z``, ``bids_p_value``)."""
    bids: Estimate = Estimate(0, 0, 0.0, 0.0)
    """Its screened bids: is each best for its own contract in the true deal more often than
    in the drawn deals?"""
    bids_z: float = 0.0
    bids_p_value: float = 1.0
    set_aside: tuple[str, ...] = ()
    """The bots flagged before it whose deals its screen leaves out (see ``fairplay_report``:
    a cheater's tablemates show an excess it gives them)."""


@dataclasses.dataclass(frozen=True, slots=True)
class RepeatTest:
    """A bot's later meetings of the same cards against its first ones."""

    name: str
    first: Estimate
    later: Estimate
    difference: float
    z: float
    p_value: float
    flagged: bool


@dataclasses.dataclass(frozen=True, slots=True)
class PairTest:
    """Bot ``player``'s excess on the deals whose cards ``seen_by`` played too (at another
    table), against its excess elsewhere."""

    seen_by: str
    player: str
    seen: Estimate
    elsewhere: Estimate
    difference: float
    z: float
    p_value: float
    flagged: bool


@dataclasses.dataclass(frozen=True, slots=True)
class FairplayReport:
    """Everything the screen found in a set of logs."""

    deals: int
    screened_decisions: int
    thresholds: Thresholds
    players: tuple[PlayerScreen, ...]
    repeats: tuple[RepeatTest, ...]
    """Every bot that met the same cards again (tested or not), worst first."""
    pairs: tuple[PairTest, ...]
    """Every pair tested, worst first."""
    repeat_tests: int
    pair_tests: int


def cards_key(deal: LoggedDeal) -> tuple[int, ...]:
    """What makes two deals "the same cards": the three hands and the talon, whoever holds
    which (a movement or a duplicate seating turns the players, not the cards)."""
    record = deal.record
    hands = sorted(sum(1 << int(c) for c in hand) for hand in record.hands)
    return (*hands, sum(1 << int(c) for c in record.talon))


def _clusters(deals: Sequence[LoggedDeal], bids: bool | None = None) -> list[dict[str, Cluster]]:
    """Per deal: each bot's (sum of excess, decisions, the deal's cards) there; of its bids
    only, its cards only, or (None) both."""
    result = []
    for deal in deals:
        found: dict[str, list[float]] = {}
        for decision in deal.screen.decisions:
            if bids is None or decision.bid is bids:
                found.setdefault(deal.record.names[decision.seat], []).append(decision.excess)
        cards = cards_key(deal)
        result.append({name: (sum(xs), len(xs), cards) for name, xs in found.items()})
    return result


def _one_sided(diff: float, se: float) -> tuple[float, float]:
    if se <= 0:
        return 0.0, 1.0
    z = diff / se
    return z, _normal_sf(z)


def _by_name(clusters: list[dict[str, Cluster]]) -> dict[str, list[Cluster]]:
    by_name: dict[str, list[Cluster]] = {}
    for found in clusters:
        for name, cluster in found.items():
            by_name.setdefault(name, []).append(cluster)
    return by_name


def _players(deals: Sequence[LoggedDeal], thresholds: Thresholds) -> list[PlayerScreen]:
    """Each bot's screen, step-down: the bot flagged with the largest z is flagged, and the
    others are screened again on the deals where no flagged bot sat, until none more is.

    A bot that knows the hidden cards plays so that its tablemates' cards fit the true deal
    better than the drawn ones (it keeps the trump its partner needs, it smears points on its
    partner's trick), so honest bots at its table show an excess of their own: measured, cbot
    and rulebot beside the ceiling bot told every hand reached +0.03 over 120 deals, cbot
    flagged. Without the cheater's deals that excess goes, and a second cheater's stays."""
    names = sorted({deal.record.names[d.seat] for deal in deals for d in deal.screen.decisions})
    flagged: list[PlayerScreen] = []
    kept = list(deals)
    while True:
        aside = tuple(p.name for p in flagged)
        screens = _screens(kept, thresholds, [n for n in names if n not in aside], aside)
        found = [s for s in screens if s.flagged]
        if not found:
            break
        flagged.append(max(found, key=lambda s: (max(s.z, s.bids_z), s.name)))
        kept = [d for d in kept if flagged[-1].name not in d.record.names]
    players = flagged + screens
    players.sort(key=lambda p: (-max(p.z, p.bids_z), p.name))
    return players


def _screens(
    deals: Sequence[LoggedDeal],
    thresholds: Thresholds,
    names: Sequence[str],
    aside: tuple[str, ...],
) -> list[PlayerScreen]:
    """The screen of each of ``names`` over ``deals`` (those without the bots ``aside``)."""
    cards = _by_name(_clusters(deals, bids=False))
    bids = _by_name(_clusters(deals, bids=True))
    truth: dict[str, list[float]] = {}
    for deal in deals:
        for d in deal.screen.decisions:
            if not d.bid:
                truth.setdefault(deal.record.names[d.seat], []).extend(
                    (float(d.best_in_truth), d.best_in_samples / d.samples)
                )
    players = []
    half = thresholds.alpha / 2
    for name in names:
        estimate = _estimate(cards.get(name, []))
        z, p = _one_sided(estimate.mean - thresholds.allowance, estimate.se)
        bid = _estimate(bids.get(name, []))
        bid_z, bid_p = _one_sided(bid.mean - thresholds.bid_allowance, bid.se)
        pairs = truth.get(name, [])
        truths, drawn = pairs[0::2], pairs[1::2]
        flagged = (estimate.usable and p < half) or (bid.usable and bid_p < half)
        players.append(
            PlayerScreen(
                name,
                estimate,
                sum(truths) / max(1, len(truths)),
                sum(drawn) / max(1, len(drawn)),
                z,
                p,
                flagged,
                bid,
                bid_z,
                bid_p,
                aside,
            )
        )
    return players


def _compare(
    group: list[Cluster], other: list[Cluster], allowance: float
) -> tuple[Estimate, Estimate, float, float, float, bool]:
    """The two estimates, the difference tested, z, p and whether the test could be made: a
    group against the other, or, when the other is too small, against the allowance."""
    first, second = _estimate(group), _estimate(other)
    if not first.usable:
        return first, second, 0.0, 0.0, 1.0, False
    if second.usable:
        diff = first.mean - second.mean
        z, p = _one_sided(diff, math.hypot(first.se, second.se))
    else:
        diff = first.mean - allowance
        z, p = _one_sided(diff, first.se)
    return first, second, diff, z, p, True


def _repeats(
    deals: Sequence[LoggedDeal], clusters: list[dict[str, Cluster]]
) -> list[tuple[str, list[Cluster], list[Cluster]]]:
    """For each bot that met some cards again: its (first, later) meetings' clusters."""
    met: dict[tuple[str, tuple[int, ...]], int] = {}
    groups: dict[str, tuple[list[Cluster], list[Cluster]]] = {}
    for deal, found in zip(deals, clusters, strict=True):
        key = cards_key(deal)
        for name in deal.record.names:
            count = met.get((name, key), 0)
            met[(name, key)] = count + 1
            if name in found:
                first, later = groups.setdefault(name, ([], []))
                (later if count else first).append(found[name])
    return [(name, first, later) for name, (first, later) in groups.items() if later]


def _pairs(
    deals: Sequence[LoggedDeal], clusters: list[dict[str, Cluster]]
) -> dict[tuple[str, str], tuple[list[Cluster], list[Cluster]]]:
    """For each (A, B), B's clusters on deals whose cards A played too, at another table or
    another time (not at B's own table, where A's cards are not B's to know), and elsewhere.
    Order does not matter: colluders at tables playing at once may tell each other their
    hands as they are dealt."""
    where: dict[tuple[int, ...], list[int]] = {}
    for index, deal in enumerate(deals):
        where.setdefault(cards_key(deal), []).append(index)
    meetings: list[tuple[str, Cluster, frozenset[str]]] = []
    for index, (deal, found) in enumerate(zip(deals, clusters, strict=True)):
        others = {
            name
            for other in where[cards_key(deal)]
            if other != index
            for name in deals[other].record.names
        }
        for name, cluster in found.items():
            meetings.append((name, cluster, frozenset(others - {name})))
    helpers: dict[str, set[str]] = {}
    for name, _, shared in meetings:
        helpers.setdefault(name, set()).update(shared)
    result: dict[tuple[str, str], tuple[list[Cluster], list[Cluster]]] = {}
    for name, cluster, shared in meetings:
        for helper in helpers[name]:
            seen, elsewhere = result.setdefault((helper, name), ([], []))
            (seen if helper in shared else elsewhere).append(cluster)
    return result


def fairplay_report(
    deals: Sequence[LoggedDeal], thresholds: Thresholds = Thresholds()
) -> FairplayReport:
    """The screen's findings over ``deals`` (in the logs' order)."""
    # Repeats and pairs compare cards: a bid's excess spreads eight times a card's, and
    # mixed in it drowned a pair of colluders the cards alone show (measured).
    clusters = _clusters(deals, bids=False)
    players = _players(deals, thresholds)
    repeat_rows = []
    for name, first, later in _repeats(deals, clusters):
        a, b, diff, z, p, tested = _compare(later, first, thresholds.allowance)
        repeat_rows.append((name, b, a, diff, z, p, tested))
    repeat_tests = sum(1 for row in repeat_rows if row[6])
    repeats = [
        RepeatTest(
            name, first, later, diff, z, p, tested and p < thresholds.alpha / max(1, repeat_tests)
        )
        for name, first, later, diff, z, p, tested in repeat_rows
    ]
    pair_rows = []
    # Helpers that played exactly the same deals as each other (a table's three bots, when
    # the cards were played again elsewhere) make one test of the player, not several.
    distinct: set[tuple[str, tuple[Cluster, ...]]] = set()
    for (helper, name), (seen, elsewhere) in _pairs(deals, clusters).items():
        if not seen:
            continue
        a, b, diff, z, p, tested = _compare(seen, elsewhere, thresholds.allowance)
        pair_rows.append((helper, name, a, b, diff, z, p, tested))
        if tested:
            distinct.add((name, tuple(seen)))
    pair_tests = len(distinct)
    pairs = [
        PairTest(
            helper, name, a, b, diff, z, p, tested and p < thresholds.alpha / max(1, pair_tests)
        )
        for helper, name, a, b, diff, z, p, tested in pair_rows
    ]
    repeats.sort(key=lambda r: (-r.z, r.name))
    pairs.sort(key=lambda r: (-r.z, r.player, r.seen_by))
    return FairplayReport(
        deals=len(deals),
        screened_decisions=sum(len(d.screen.decisions) for d in deals),
        thresholds=thresholds,
        players=tuple(players),
        repeats=tuple(repeats),
        pairs=tuple(pairs),
        repeat_tests=repeat_tests,
        pair_tests=pair_tests,
    )


def set_aside(report: FairplayReport) -> list[str]:
    """One sentence per group of bots not flagged that were screened without the same flagged
    bots' deals, in the players' order (the text and the report print them as they are)."""
    groups: dict[tuple[str, ...], list[str]] = {}
    for p in report.players:
        if p.set_aside and not p.flagged:
            groups.setdefault(p.set_aside, []).append(p.name)
    return [
        f"{', '.join(names)}: screened without the deals of {', '.join(flagged)} (flagged): a "
        "cheater's play shows its tablemates what the drawn deals do not"
        for flagged, names in groups.items()
    ]
