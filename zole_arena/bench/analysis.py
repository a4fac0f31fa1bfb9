"""What ``zole-arena analyze`` costs: deals analysed per second on one core and on all of them.

A plain match of ``deals`` deals (rulebot, random and rulebot as bot objects in this process,
``wpt``: take games, table games) is played into a temporary log; its first tenth is analysed
by one worker and the whole log by one worker per CPU, each into a fresh analysis file (no
cache). Plain deals are the worst case: a duplicate event's deals repeat their cards and are
solved once per set of cards.
"""

from __future__ import annotations

import dataclasses
import os
import tempfile
import time
from pathlib import Path

from zole_arena.analysis.run import analyse_logs, log_deals
from zole_arena.analysis.solver import solver_program
from zole_arena.bench.report import play_bench_log

__all__ = ["AnalysisBenchResult", "run_analysis_bench"]


@dataclasses.dataclass(frozen=True)
class AnalysisBenchResult:
    """The figures of one run."""

    deals: int
    workers: int
    seconds: float
    """Analysing all the deals with ``workers`` processes."""
    one_worker_deals: int
    one_worker_seconds: float
    """Analysing the first tenth with one process."""
    decisions: int
    table_games: int
    """Deals played as the table game (all passed): the dearest to solve at the first trick."""

    @property
    def ms_per_deal(self) -> float:
        """Wall time per deal with all workers."""
        return 1000 * self.seconds / self.deals

    @property
    def ms_per_deal_one(self) -> float:
        """Time per deal of one worker."""
        return 1000 * self.one_worker_seconds / self.one_worker_deals

    @property
    def ten_thousand_minutes(self) -> float:
        """10,000 such deals with all workers, in minutes (scaled from this run)."""
        return self.ms_per_deal * 10_000 / 60_000

    def to_dict(self) -> dict[str, object]:
        """JSON-ready figures."""
        return {
            **dataclasses.asdict(self),
            "ms_per_deal": self.ms_per_deal,
            "ms_per_deal_one_worker": self.ms_per_deal_one,
            "minutes_for_10000": self.ten_thousand_minutes,
        }


def run_analysis_bench(deals: int = 1000, *, seed: int = 1) -> AnalysisBenchResult:
    """Play ``deals`` deals and time their analysis (see the module's text)."""
    workers = len(os.sched_getaffinity(0))
    solver_program()  # built before the clock starts
    with tempfile.TemporaryDirectory(prefix="zole-analysis-bench-") as folder:
        log = Path(folder) / "bench.jsonl"
        play_bench_log(log, deals, seed)
        records, _ = log_deals([log])
        tenth = Path(folder) / "tenth.jsonl"
        lines = log.read_bytes().splitlines(keepends=True)
        first = max(1, deals // 10)
        tenth.write_bytes(b"".join(lines[: 1 + first]))  # the header and the first tenth
        started = time.perf_counter()
        analyse_logs([tenth], Path(folder) / "tenth.analysis.jsonl", workers=1)
        one = time.perf_counter() - started
        started = time.perf_counter()
        run = analyse_logs([log], Path(folder) / "bench.analysis.jsonl", workers=workers)
        seconds = time.perf_counter() - started
        tables = sum(1 for record, _ in records if record.result.soloist is None)
        return AnalysisBenchResult(
            deals, workers, seconds, first, one,
            sum(len(a.decisions) for a in run.deals), tables,
        )  # fmt: skip
