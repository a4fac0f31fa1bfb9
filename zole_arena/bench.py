"""Rules-engine benchmark: random legal full deals per second on one core.

Each deal is dealt by the reproducible shuffle, bid, buried, played to the end and scored by the
real engine through its public API (:meth:`DealState.legal_actions` and the validating
:meth:`DealState.apply`), with every action drawn at random from the legal ones. Nothing is
skipped or simplified: this is the cost the arena pays per deal before talking to any bot.

Timings on a shared machine are noisy, so the deals are played in rounds and the report gives
the best round (the least disturbed, as ``timeit`` does) and the median.
"""

from __future__ import annotations

import dataclasses
import random
import statistics
import time

from zole_arena.rules import Rules
from zole_arena.state import DealState

__all__ = ["BenchResult", "run_bench"]


@dataclasses.dataclass(frozen=True)
class BenchResult:
    """Figures of one benchmark run."""

    rules: str
    deals: int
    rounds: int
    deals_per_second: float
    """Of the best round."""
    median_deals_per_second: float
    actions_per_deal: float
    seconds: float
    """Wall time of all rounds."""

    def to_dict(self) -> dict[str, object]:
        """The figures as JSON-ready data."""
        return dataclasses.asdict(self)


def _play_round(rules: Rules, seed: int, first: int, count: int, rng: random.Random) -> int:
    """Play ``count`` random deals; return the number of actions applied."""
    # getrandbits(32) % n picks each of n ≤ 45 choices with a bias below 1e-8, and costs half
    # of int(random() * n) (whose int() call would be a noticeable share of a deal).
    bits = rng.getrandbits
    actions = 0
    for deal_no in range(first, first + count):
        state = DealState.from_seed(rules, seed, deal_no)
        legal_actions = state.legal_actions
        apply = state.apply
        legal = legal_actions()
        while legal:  # empty once the deal is over
            apply(legal[bits(32) % len(legal)])
            legal = legal_actions()
        actions += state.action_count
    return actions


def run_bench(rules: Rules, deals: int = 50_000, rounds: int = 5, seed: int = 1) -> BenchResult:
    """Play ``deals`` random deals in ``rounds`` equal rounds and time each round."""
    rounds = max(1, min(rounds, deals))
    per_round = max(1, deals // rounds)
    rng = random.Random(seed)
    rates: list[float] = []
    actions = 0
    started = time.perf_counter()
    for index in range(rounds):
        t0 = time.perf_counter()
        actions += _play_round(rules, seed, 1 + index * per_round, per_round, rng)
        rates.append(per_round / (time.perf_counter() - t0))
    total = per_round * rounds
    return BenchResult(
        rules=rules.name,
        deals=total,
        rounds=rounds,
        deals_per_second=max(rates),
        median_deals_per_second=statistics.median(rates),
        actions_per_deal=actions / total,
        seconds=time.perf_counter() - started,
    )
