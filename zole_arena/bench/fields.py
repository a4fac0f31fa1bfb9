"""Big-field benchmark: a balanced schedule with kept bots against a round-robin with fresh
bots, at equal deals, on a field whose strength order is known; optionally on a Ray cluster.

The field is ``rulebot`` with ``Epsilon`` (the share of random moves) 0%, 5%, 10%, …: each bot
is weaker than the one before, so a tournament's ratings can be scored against the true
order. The round-robin plays every table of three once, one duplicate block each, starting
its bots afresh for every table (``--no-keep-bots``); the balanced tournament plays a
schedule in which every pair meets about once, with as many blocks a table as make its deals
about those of the round-robin, and keeps its bots from table to table. Both run
unsandboxed (kept bots need that), with the same concurrency, seed and time per decision.

Reported: each run's wall-clock deals per second (start-up included) and the accuracy of its
ratings: Spearman's and Kendall's rank correlation of the Elo order with the true order, and
the mean width of the 95% intervals (none for the round-robin: its tables all play the same
block, one cluster of cards, which cannot tell its luck from skill). With a Ray address, the
balanced tournament is played a second time on the cluster, for its deals per second against
the local run's and its cost per table.
"""

from __future__ import annotations

import dataclasses
import itertools
import tempfile
import time
from pathlib import Path
from typing import Any

from zole_arena.arena.settings import MatchSettings
from zole_arena.catalogue.bundled import bundled_command
from zole_arena.events.schedule import Entrant
from zole_arena.events.settings import TournamentSettings
from zole_arena.events.tournament import Tournament
from zole_arena.game.rules import load_rules

__all__ = ["FieldRun", "FieldsBenchResult", "run_fields_bench"]


@dataclasses.dataclass(frozen=True)
class FieldRun:
    """One tournament of the benchmark."""

    label: str
    tables: int
    deals: int
    seconds: float
    spearman: float
    """Rank correlation of the Elo order with the true order (1: the same order)."""
    kendall: float
    interval: float | None
    """The mean width of the 95% Elo intervals; None when they cannot be estimated (the
    round-robin's tables all play the same one block: a single cluster of cards)."""

    @property
    def deals_per_second(self) -> float:
        return self.deals / self.seconds

    def to_dict(self) -> dict[str, Any]:
        return {**dataclasses.asdict(self), "deals_per_second": self.deals_per_second}


@dataclasses.dataclass(frozen=True)
class FieldsBenchResult:
    """The benchmark's figures."""

    bots: int
    concurrency: int
    runs: tuple[FieldRun, ...]
    """Round-robin (fresh bots), balanced (kept bots), and balanced on Ray if asked."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "bots": self.bots,
            "concurrency": self.concurrency,
            "runs": [run.to_dict() for run in self.runs],
        }


def _rank_correlations(estimated: list[float]) -> tuple[float, float]:
    """Spearman's rho and Kendall's tau of ``estimated`` (by true strength, strongest first)
    against the true order."""
    n = len(estimated)
    order = sorted(range(n), key=lambda i: -estimated[i])
    rank = {bot: place for place, bot in enumerate(order)}
    d2 = sum((rank[i] - i) ** 2 for i in range(n))
    spearman = 1 - 6 * d2 / (n * (n * n - 1))
    pairs = list(itertools.combinations(range(n), 2))
    concordant = sum(1 if estimated[a] > estimated[b] else -1 for a, b in pairs)
    return spearman, concordant / len(pairs)


def _play(
    label: str, settings: TournamentSettings, ray_address: str | None, names: list[str]
) -> FieldRun:
    with tempfile.TemporaryDirectory(prefix="zole-bench-") as folder:
        tournament = Tournament(settings, Path(folder) / "bench.jsonl", ray_address=ray_address)
        started = time.perf_counter()
        summary = tournament.run()
        seconds = time.perf_counter() - started
        ratings = tournament.standings.ratings(bootstrap=100)
    if summary.stopped is not None or summary.deals != settings.total_deals or ratings is None:
        raise RuntimeError(f"the benchmark tournament did not finish: {summary.stopped}")
    elo = {r.name: r for r in ratings.ratings}
    spearman, kendall = _rank_correlations([elo[name].elo for name in names])
    widths = [
        high - low for high, low in ((elo[n].high, elo[n].low) for n in names)
        if high is not None and low is not None
    ]  # fmt: skip
    return FieldRun(
        label,
        len(settings.tables),
        summary.deals,
        seconds,
        spearman,
        kendall,
        sum(widths) / len(widths) if widths else None,
    )


def run_fields_bench(
    bots: int = 20,
    *,
    concurrency: int = 2,
    seed: int = 1,
    movetime_ms: int = 2000,
    ray_address: str | None = None,
) -> FieldsBenchResult:
    """Play the benchmark's tournaments (see the module's text) and score them.

    :raises ValueError: fewer than 5 or more than 20 bots (Epsilon 0% to 95% in steps of 5).
    """
    if not 5 <= bots <= 20:
        raise ValueError(f"the field has 5 to 20 bots, not {bots}")
    names = [f"eps{5 * i:02d}" for i in range(bots)]
    command = tuple(bundled_command("rulebot"))
    entrants = tuple(
        Entrant(name, command, {"Epsilon": str(5 * i)}) for i, name in enumerate(names)
    )
    rules = load_rules("wpt")
    one_block = MatchSettings(rules, seed=seed, deals=1, duplicate=True, movetime_ms=movetime_ms)
    round_robin = TournamentSettings(
        entrants, one_block, format="round-robin", concurrency=concurrency, keep_bots=False
    )
    schedule = TournamentSettings(entrants, one_block, format="balanced", meetings=1).schedule
    assert schedule is not None
    blocks = max(1, round(len(round_robin.tables) / len(schedule)))
    balanced = TournamentSettings(
        entrants,
        dataclasses.replace(one_block, deals=blocks),
        format="balanced",
        schedule=schedule,
        concurrency=concurrency,
        keep_bots=True,
    )
    runs = [
        _play("round-robin, fresh bots", round_robin, None, names),
        _play(f"balanced ({blocks} blocks a table), kept bots", balanced, None, names),
    ]
    if ray_address is not None:
        runs.append(_play("balanced, kept bots, on Ray", balanced, ray_address, names))
    return FieldsBenchResult(bots, concurrency, tuple(runs))
