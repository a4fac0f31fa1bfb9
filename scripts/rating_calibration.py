#!/usr/bin/env python3
"""Do the rating intervals of a tournament hold what they claim? Play many independent seeded
tournaments, rate each, and compare the intervals with the real spread of the ratings.

For each run the script plays one real tournament through the command line
(``zole-arena tournament … --seed S --log``; seeds ``--first-seed`` on) and rates its log with
the library's :func:`~zole_arena.stats.ratings.rate`, as ``zole-arena ratings`` does; it also
counts each bot's points per deal with the interval of the standings
(:class:`~zole_arena.arena.summary.PlayerStats`). The runs differ in their cards and in the
random bots' draws, nothing else: across them each bot's figures spread as much as the luck of
one tournament moves them. Per bot and figure it prints:

* **real SD**: the standard deviation of the figure across the runs (ratings: average 0);
* **est. SD**: the mean over the runs of the standard error the interval is built on (for
  ratings, the standard deviation of the bootstrap refits), and **ratio** = est. SD / real
  SD: 1 is honest, below 1 the intervals are too narrow;
* **held**: how often the run's 95 % interval held the **pooled** figure, the one of all the
  runs together (the best estimate of the bot's true figure here).

A last line gives each bot's correlation between its results in one block and the next:
pules that carried results from block to block would show there.

``--compare`` also computes every figure the way it was computed before clusters (each
duplicate block, or deal, as a sample of its own, as if the tables did not share their
cards), for the before/after tables of ``docs/ratings.md``.

Designs (``--design``):

* ``rr5``: a round-robin of five bots (10 tables) under ``wpt``: ``cbot``, ``rulebot``,
  ``crandom``, ``random`` and ``weak`` (rulebot playing half its decisions at random);
* ``rr5-lzf``: the same under ``lzf``, whose pules carry points from one deal to the next;
* ``rr5-lzf-plain``: the same without duplicate: each table plays the deals once, in one
  sequence, so a pule links every deal to the next one at its table (6 × ``--blocks`` deals
  per table);
* ``balanced7``: a balanced design of seven bots (7 tables, every pair meeting once): the five
  and ``timid`` and ``bold`` (rulebot with ``Aggression=0`` and ``=90``). A balanced design
  draws its tables from the seed; here every run has the same tables (the bots are listed in
  the order that gives them), so that the runs differ only in their cards, as the interval
  assumes;
* ``balanced7-drawn``: the same, each run with the tables its seed draws: the spread then
  also holds the luck of who sits with whom, which no resampling of one tournament sees.

Usage::

    python scripts/rating_calibration.py --design rr5 --runs 40          # ~2 min
    python scripts/rating_calibration.py --design balanced7 --runs 200 --keep logs/b7

``--keep DIR`` keeps the logs there and reuses those already there (same design and seed).
Runs on the installed zole-arena (``python -m zole_arena``) of the interpreter running it.
"""

from __future__ import annotations

import argparse
import itertools
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from zole_arena.arena.summary import PlayerStats
from zole_arena.events.designs import balanced_tables
from zole_arena.records.model import DealRecord, Record
from zole_arena.records.reader import read_log
from zole_arena.stats.ratings import fit_elo, rate
from zole_arena.stats.student import two_sided_quantile
from zole_arena.stats.units import Unit, deal_keys, units_from_records

PY = sys.executable

FIVE = ("cbot", "rulebot", "crandom", "random", "weak=rulebot")
SEVEN = (*FIVE, "timid=rulebot", "bold=rulebot")
WEAK = ("--option", "weak:Epsilon=50")
OPTIONS_7 = (*WEAK, "--option", "timid:Aggression=0", "--option", "bold:Aggression=90")
BALANCED = ("--format", "balanced", "--meetings", "1")


@dataclass(frozen=True)
class Design:
    """The bots of a calibration's tournaments and the options they are played with."""

    bots: tuple[str, ...]
    options: tuple[str, ...]
    fixed_schedule: bool = False
    """A balanced design draws its tables from the seed: keep the same tables (the same bots
    at each) in every run, by listing the bots in the order that gives them."""


DESIGNS: dict[str, Design] = {
    "rr5": Design(FIVE, ("--rules", "wpt", *WEAK)),
    "rr5-lzf": Design(FIVE, ("--rules", "lzf", *WEAK)),
    "rr5-lzf-plain": Design(FIVE, ("--rules", "lzf", *WEAK, "--no-duplicate")),
    "balanced7": Design(SEVEN, (*BALANCED, *OPTIONS_7), fixed_schedule=True),
    "balanced7-drawn": Design(SEVEN, (*BALANCED, *OPTIONS_7)),
}


def bot_order(bots: Sequence[str], seed: int, reference_seed: int) -> list[str]:
    """The bots in the order for which the balanced schedule of ``seed`` seats the same bots
    together as the one of ``reference_seed`` does in the given order (7 bots, λ = 1: all
    such schedules are Fano planes, so an order exists)."""
    reference = {frozenset(t) for t in balanced_tables(len(bots), meetings=1, seed=reference_seed)}
    drawn = [tuple(t) for t in balanced_tables(len(bots), meetings=1, seed=seed)]
    for order in itertools.permutations(range(len(bots))):
        if {frozenset(order[i] for i in table) for table in drawn} == reference:
            return [bots[i] for i in order]
    sys.exit(f"no order of the bots gives seed {seed} the tables of seed {reference_seed}")


@dataclass
class Run:
    """One tournament's estimate of a figure of each bot (its rating, or its points per
    deal), the 95 % interval and the standard error it is built on."""

    value: dict[str, float]
    low: dict[str, float]
    high: dict[str, float]
    sd: dict[str, float]


def play(name: str, seed: int, first_seed: int, blocks: int, folder: Path) -> Path:
    """Play one tournament (or reuse its log) and return the log's path."""
    log = folder / f"{name}-b{blocks}-s{seed}.jsonl"
    if log.exists():
        return log
    design = DESIGNS[name]
    bots = bot_order(design.bots, seed, first_seed) if design.fixed_schedule else design.bots
    length = ("--deals", str(6 * blocks))
    if "--no-duplicate" not in design.options:
        length = ("--blocks", str(blocks))
    partial = log.with_suffix(".part")
    partial.unlink(missing_ok=True)
    command = [
        PY, "-m", "zole_arena", "tournament", *bots, *design.options, *length,
        "--seed", str(seed), "--no-sandbox", "--concurrency", "2", "--log", str(partial),
        "--bootstrap", "10", "--json",
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"the tournament of seed {seed} failed: {done.stderr.strip()}")
    partial.rename(log)
    shutil.rmtree(partial.with_name(partial.name + ".stderr"), ignore_errors=True)
    return log


def rate_run(units: Sequence[Unit], resamples: int, alone: bool) -> Run:
    """Rate one tournament (``alone``: each unit resampled by itself, as before clusters)."""
    if alone:
        units = [Unit(u.match_id, u.block, u.totals, u.deals, u.scores) for u in units]
    listed = rate(units, bootstrap=resamples).ratings
    return Run(
        {r.name: r.elo for r in listed},
        {r.name: r.low for r in listed if r.low is not None},
        {r.name: r.high for r in listed if r.high is not None},
        {r.name: r.sd for r in listed if r.sd is not None},
    )


def points_run(records: Sequence[Record], alone: bool) -> Run:
    """One tournament's points per deal of each bot, with the interval the standings give
    (``alone``: each deal as a sample of its own, as before clusters)."""
    stats: dict[str, PlayerStats] = {}
    for record in records:
        if isinstance(record, DealRecord):
            cards = None if alone else deal_keys(record)[1]
            for seat, name in enumerate(record.names):
                player = stats.setdefault(name, PlayerStats(name))
                player.add(seat, record.result, record.result.scores[seat], cards)
    return Run(
        {name: p.mean for name, p in stats.items()},
        {name: p.mean - p.interval for name, p in stats.items()},
        {name: p.mean + p.interval for name, p in stats.items()},
        {name: p.interval / two_sided_quantile(0.95, p.clusters - 1) for name, p in stats.items()},
    )


def report(title: str, runs: Sequence[Run], pooled: dict[str, float], digits: int) -> None:
    """Print one table: per bot, real SD, the estimated one, their ratio, held."""
    print(f"\n{title} ({len(runs)} runs)")
    print(f"{'bot':<10} {'pooled':>8} {'real SD':>8} {'est. SD':>8} {'ratio':>6} {'held':>7}")
    for name in sorted(pooled, key=lambda n: -pooled[n]):
        real = statistics.stdev(run.value[name] for run in runs)
        estimated = statistics.fmean(run.sd[name] for run in runs)
        held = sum(run.low[name] <= pooled[name] <= run.high[name] for run in runs) / len(runs)
        print(
            f"{name:<10} {pooled[name]:>8.{digits}f} {real:>8.{digits}f} "
            f"{estimated:>8.{digits}f} {estimated / real:>6.2f} {held:>7.1%}"
        )


def lag_correlation(every: Sequence[Sequence[Unit]]) -> dict[str, float]:
    """Per bot, the correlation of its result in one block with its result in the next block
    (its pairwise games' scores minus ½, summed over the block's deals at every table),
    pooled over the runs, each run's results taken from its own mean. Pules carried from
    deal to deal would make it positive; independent blocks give −1/(blocks − 1) on
    average, by taking each run's mean out."""
    products: dict[str, list[float]] = {}
    squares: dict[str, list[float]] = {}
    for units in every:
        blocks: dict[int, dict[str, float]] = {}
        for unit in units:
            result = blocks.setdefault(unit.block, {})
            for game in unit.games():
                result[game.first] = result.get(game.first, 0.0) + game.score - 0.5
                result[game.second] = result.get(game.second, 0.0) + 0.5 - game.score
        order = sorted(blocks)
        for name in {name for result in blocks.values() for name in result}:
            series = [blocks[b].get(name, 0.0) for b in order]
            mean = statistics.fmean(series)
            centred = [x - mean for x in series]
            products.setdefault(name, []).extend(a * b for a, b in itertools.pairwise(centred))
            squares.setdefault(name, []).extend(x * x for x in centred)
    return {
        name: statistics.fmean(products[name]) / statistics.fmean(squares[name])
        for name in products
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--design", choices=sorted(DESIGNS), default="rr5")
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument("--first-seed", type=int, default=1001)
    parser.add_argument(
        "--blocks", type=int, default=10, help="duplicate blocks per table (or 6× as many deals)"
    )
    parser.add_argument("--resamples", type=int, default=200, help="bootstrap resamples")
    parser.add_argument("--keep", type=Path, help="keep the logs here (and reuse them)")
    parser.add_argument("--compare", action="store_true", help="also rate the old way")
    args = parser.parse_args()

    started = time.monotonic()
    with tempfile.TemporaryDirectory() as temporary:
        folder = args.keep or Path(temporary)
        folder.mkdir(parents=True, exist_ok=True)
        seeds = range(args.first_seed, args.first_seed + args.runs)
        logs = [play(args.design, seed, seeds[0], args.blocks, folder) for seed in seeds]
        played = time.monotonic()
        logged = [read_log(log)[0] for log in logs]
    every = [units_from_records(records).units for records in logged]
    games = [game for units in every for unit in units for game in unit.games()]
    pooled = fit_elo(games)
    points: dict[str, list[int]] = {}
    for records in logged:
        for record in records:
            if isinstance(record, DealRecord):
                for name, score in zip(record.names, record.result.scores, strict=True):
                    points.setdefault(name, []).append(score)
    pooled_points = {name: statistics.fmean(scores) for name, scores in points.items()}
    deals = sum(unit.size for unit in every[0])
    print(
        f"design {args.design}: {args.runs} tournaments of {deals} deals (seeds "
        f"{seeds[0]}-{seeds[-1]}), {args.resamples} resamples; played in "
        f"{played - started:.0f} s"
    )
    ways = [("clusters of units that share cards (zole-arena)", False)]
    if args.compare:
        ways.append(("each unit alone (before clusters)", True))
    for title, alone in ways:
        runs = [rate_run(units, args.resamples, alone) for units in every]
        report(f"Elo, {title}", runs, pooled, 1)
    for title, alone in ways:
        runs = [points_run(records, alone) for records in logged]
        report(f"points per deal, {title}", runs, pooled_points, 3)
    lags = lag_correlation(every)
    blocks = len({unit.block for unit in every[0]})
    print(
        "\ncorrelation of a bot's result in one block with the next "
        f"(independent blocks: {-1 / (blocks - 1):+.3f} on average):"
    )
    print("  " + ", ".join(f"{name} {lags[name]:+.3f}" for name in sorted(lags)))
    print(f"\n{time.monotonic() - started:.0f} s in all")


if __name__ == "__main__":
    main()
