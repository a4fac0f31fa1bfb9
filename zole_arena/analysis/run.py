"""Analysing logs: every deal of one or more logs, on every core, cached in an analysis file.

:func:`analyse_logs` reads the logs (as untrusted: lines the reader rejects are skipped), looks
each deal up in the analysis file by the SHA-256 of its log line, solves the others in worker
processes (each with its own solver), and appends their analyses to the file as they finish, so
an interrupted run keeps what it did and a second run solves nothing again.
"""

from __future__ import annotations

import dataclasses
import hashlib
import multiprocessing
import os
import signal
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Final

from zole_arena.analysis.deal import analyse_deal, analysis_fits
from zole_arena.analysis.model import DealAnalysis
from zole_arena.analysis.solver import Solver, SolverError, solver_program
from zole_arena.analysis.store import append_lines, deal_to_json, local_key, read_analysis
from zole_arena.catalogue.bundled import c_source
from zole_arena.records.model import DealRecord
from zole_arena.records.reader import LogReader, RecordError

__all__ = ["AnalysisRun", "analyse_logs", "log_deals", "solver_id"]


def solver_id() -> str:
    """Names the solver's version: the SHA-256 (first 16 hex digits) of its source. An analysis
    made by another solver is not reused."""
    return hashlib.sha256(c_source("searchbot").read_bytes()).hexdigest()[:16]


@dataclasses.dataclass
class AnalysisRun:
    """What :func:`analyse_logs` did."""

    deals: list[DealAnalysis]
    """The analysis of every deal of the logs, in the logs' order."""
    solved: int
    """How many of them were solved now (the others came from the analysis file)."""
    skipped_lines: int
    """Log lines that were no usable record, and analysis-file lines not reused."""
    output: Path


_worker_solver: Solver | None = None


def _start_worker(program: str) -> None:
    # Ctrl-C is the parent's to handle (it stops the pool); the pool ends its workers with
    # SIGTERM, which must just end them, whatever handlers the parent had installed.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
    global _worker_solver
    _worker_solver = Solver(Path(program))


Item = tuple[int, DealRecord, str]


def _work(group: list[Item]) -> list[DealAnalysis]:
    assert _worker_solver is not None
    return _solve_group(_worker_solver, group, f"{os.getpid()}.")


def _solve_group(solver: Solver, group: list[Item], prefix: str) -> list[DealAnalysis]:
    """The deals of one group (the same cards), with the solver's answers shared among them
    and forgotten after."""
    try:
        return [analyse_deal(record, sha, solver, f"{prefix}{n}") for n, record, sha in group]
    finally:
        solver.forget()


def _groups(todo: list[Item]) -> list[list[Item]]:
    """The deals grouped by their cards (hands by seat, talon, dealer, pules, rules): a
    duplicate event deals the same cards at every table and seating, and one worker solves
    them together, each position once."""
    groups: dict[str, list[Item]] = {}
    for item in todo:
        record = item[1]
        key = repr((record.hands, record.talon, record.dealer, record.pules_before,
                    sorted(record.rules.items())))  # fmt: skip
        groups.setdefault(key, []).append(item)
    return list(groups.values())


def log_deals(paths: Sequence[Path]) -> tuple[list[tuple[DealRecord, str]], int]:
    """Every deal record of the logs with the SHA-256 of its line (the analysis' key), and
    how many lines were no usable record."""
    deals: list[tuple[DealRecord, str]] = []
    seen: set[tuple[str, int]] = set()
    skipped = 0
    for path in paths:
        for entry in LogReader(path):
            if isinstance(entry.record, DealRecord):
                key = (entry.record.match_id, entry.record.deal)
                if key in seen:  # read twice (a log given twice, a copy): counted once,
                    skipped += 1  # as ratings and report count it
                    continue
                seen.add(key)
                deals.append((entry.record, entry.sha256))
            elif entry.record is None:
                skipped += 1
    return deals, skipped


def analyse_logs(
    paths: Sequence[Path],
    output: Path,
    workers: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> AnalysisRun:
    """Analyse every deal of ``paths`` into ``output`` (created, or read as a cache and
    appended to).

    ``workers``: processes (default and most: the CPUs this process may use). ``progress(done,
    total)`` is called as deals finish.

    :raises RecordError: a log cannot be read.
    :raises AnalysisFileError: the output cannot be read or written.
    :raises SolverError: the solver cannot be built or failed.
    """
    solver = solver_id()
    key = local_key()
    cached = read_analysis(output, solver, key) if output.exists() else None
    known = cached.deals if cached is not None else {}
    deals, skipped = log_deals(paths)
    if cached is not None:
        skipped += cached.skipped
    todo = [
        (n, record, sha)
        for n, (record, sha) in enumerate(deals)
        if sha not in known or not analysis_fits(known[sha], record)
    ]
    total = len(deals)
    done = total - len(todo)
    if progress is not None:
        progress(done, total)
    results = dict(known)
    ends_cleanly = cached.ends_cleanly if cached is not None else True
    if todo:
        program = str(solver_program())
        cpus = len(os.sched_getaffinity(0))  # more solvers than CPUs only take memory
        count = max(1, min(workers or cpus, cpus, len(_groups(todo))))
        for analysis in _solve(todo, program, count):
            append_lines(output, [deal_to_json(analysis, solver, key)], ends_cleanly)
            ends_cleanly = True
            results[analysis.deal_sha256] = analysis
            done += 1
            if progress is not None:
                progress(done, total)
    ordered = [results[sha] for _, sha in deals if sha in results]
    return AnalysisRun(ordered, len(todo), skipped, output)


def _solve(todo: list[Item], program: str, count: int) -> Iterator[DealAnalysis]:
    groups = _groups(todo)
    if count == 1:
        with Solver(Path(program)) as solver:
            for group in groups:
                yield from _solve_group(solver, group, "")
        return
    context = multiprocessing.get_context("spawn" if os.name != "posix" else "fork")
    with context.Pool(count, initializer=_start_worker, initargs=(program,)) as pool:
        for solved in pool.imap_unordered(_work, groups):
            yield from solved


# Errors a caller handles, named here so that the CLI need not know the layers below.
ANALYSIS_ERRORS: Final = (RecordError, SolverError)
