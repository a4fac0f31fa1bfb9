"""Tournament benchmark: deals per second with one table at a time against several at once.

The same round-robin (the same bots, seed and deals) is played with ``concurrency`` 1 and with
``concurrency`` N, alternately, a number of rounds, each to its own temporary log; the report
gives each setting's median deals per second over the rounds and their ratio. Alternating the
two in one run keeps the comparison fair on a machine whose speed drifts (shared vCPUs).
Times are wall-clock from start to the end of the last table, worker and bot start-up
included, as a user sees them.
"""

from __future__ import annotations

import dataclasses
import statistics
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from zole_arena.arena.settings import MatchSettings, unique_names
from zole_arena.catalogue.bundled import parse_bot_arg
from zole_arena.events.schedule import Entrant
from zole_arena.events.settings import TournamentSettings
from zole_arena.events.tournament import Tournament
from zole_arena.game.rules import load_rules
from zole_arena.players.command import program_name

__all__ = ["DEFAULT_BOTS", "TournamentBenchResult", "run_tournament_bench"]

#: The field the benchmark plays unless told otherwise: the four bundled bots (two in Python,
#: two in C), so that both the arena's and the bots' costs are in the figure.
DEFAULT_BOTS = ("rulebot", "cbot", "random", "crandom")


@dataclasses.dataclass(frozen=True)
class TournamentBenchResult:
    """Figures of one tournament benchmark."""

    bots: tuple[str, ...]
    tables: int
    deals: int
    """Deals per tournament."""
    rounds: int
    concurrency: int
    serial: tuple[float, ...]
    """Deals per second of each round with concurrency 1."""
    parallel: tuple[float, ...]
    """Deals per second of each round with ``concurrency``."""

    @property
    def serial_median(self) -> float:
        """Median deals per second, one table at a time."""
        return statistics.median(self.serial)

    @property
    def parallel_median(self) -> float:
        """Median deals per second, ``concurrency`` tables at a time."""
        return statistics.median(self.parallel)

    @property
    def speedup(self) -> float:
        """How many times faster the parallel tournament is (medians)."""
        return self.parallel_median / self.serial_median

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready figures."""
        return {
            "bots": list(self.bots),
            "tables": self.tables,
            "deals": self.deals,
            "rounds": self.rounds,
            "concurrency": self.concurrency,
            "serial_deals_per_second": list(self.serial),
            "parallel_deals_per_second": list(self.parallel),
            "serial_median": self.serial_median,
            "parallel_median": self.parallel_median,
            "speedup": self.speedup,
        }


def _play(entrants: tuple[Entrant, ...], match: MatchSettings, concurrency: int) -> float:
    settings = TournamentSettings(entrants, match, concurrency=concurrency)
    with tempfile.TemporaryDirectory(prefix="zole-bench-") as folder:
        tournament = Tournament(settings, Path(folder) / "bench.jsonl")
        started = time.perf_counter()
        summary = tournament.run()
        elapsed = time.perf_counter() - started
    if summary.stopped is not None or summary.deals != settings.total_deals:
        raise RuntimeError(f"the benchmark tournament did not finish: {summary.stopped}")
    return summary.deals / elapsed


def run_tournament_bench(
    bots: Sequence[str] = DEFAULT_BOTS, blocks: int = 10, rounds: int = 3, concurrency: int = 2
) -> TournamentBenchResult:
    """Play the round-robin of ``bots`` (``blocks`` duplicate blocks a table, wpt rules)
    ``rounds`` times with concurrency 1 and ``rounds`` times with ``concurrency``, alternately.

    :raises BotStartupError: a bot is not a bundled name or a command that exists.
    """
    specs = [parse_bot_arg(bot) for bot in bots]
    names = unique_names([spec.name or program_name(spec.argv) for spec in specs])
    entrants = tuple(Entrant(name, spec.argv) for name, spec in zip(names, specs, strict=True))
    match = MatchSettings(load_rules("wpt"), seed=1, deals=blocks, duplicate=True)
    serial, parallel = [], []
    for _ in range(rounds):
        serial.append(_play(entrants, match, 1))
        parallel.append(_play(entrants, match, concurrency))
    settings = TournamentSettings(entrants, match)
    return TournamentBenchResult(
        bots=tuple(names),
        tables=len(settings.tables),
        deals=settings.total_deals,
        rounds=rounds,
        concurrency=concurrency,
        serial=tuple(serial),
        parallel=tuple(parallel),
    )
