#!/usr/bin/env python3
"""Do the rating intervals of a tournament hold what they claim? Play many independent seeded
tournaments, rate each, and compare the intervals with the real spread of the ratings.

For each run the script plays one real tournament through the command line
(``zole-arena tournament … --seed S --log``; seeds ``--first-seed`` on) and rates its log with
the library's :func:`~zole_arena.stats.ratings.rate`, as ``zole-arena ratings`` does. The runs
differ in their cards and in the random bots' draws, nothing else: across them each bot's
rating spreads as much as the luck of one tournament moves it. Per bot it prints:

* **real SD**: the standard deviation of the bot's rating (average 0) across the runs;
* **boot SD**: the mean over the runs of the standard deviation of its bootstrap ratings
  (the resamples behind the interval), and **ratio** = boot SD / real SD: 1 is honest, below
  1 the intervals are too narrow;
* **held**: how often the run's 95 % interval held the **pooled** rating, the one fitted to
  the games of all the runs together (the best estimate of the bot's true rating here).

``--compare`` also rates every log the way ratings were computed before clusters (each
duplicate block, or deal, resampled alone, as if the tables did not share their cards), for
the before/after table of ``docs/ratings.md``.

Designs (``--design``):

* ``rr5``: a round-robin of five bots (10 tables) under ``wpt``: ``cbot``, ``rulebot``,
  ``crandom``, ``random`` and ``weak`` (rulebot playing half its decisions at random);
* ``rr5-lzf``: the same under ``lzf``, whose pules carry points from one deal to the next;
* ``balanced7``: a balanced design of seven bots (7 tables, every pair meeting once): the five
  and ``timid`` and ``bold`` (rulebot with ``Aggression=0`` and ``=90``).

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

from zole_arena.stats.ratings import fit_elo, rate
from zole_arena.stats.units import Unit, read_logs

PY = sys.executable

FIVE = ("cbot", "rulebot", "crandom", "random", "weak=rulebot")
DESIGNS: dict[str, tuple[str, ...]] = {
    "rr5": (*FIVE, "--rules", "wpt", "--option", "weak:Epsilon=50"),
    "rr5-lzf": (*FIVE, "--rules", "lzf", "--option", "weak:Epsilon=50"),
    "balanced7": (
        *FIVE, "timid=rulebot", "bold=rulebot", "--format", "balanced", "--meetings", "1",
        "--option", "weak:Epsilon=50", "--option", "timid:Aggression=0",
        "--option", "bold:Aggression=90",
    ),
}  # fmt: skip


@dataclass
class Run:
    """One tournament's rating of each bot: the fit, the 95 % interval, the bootstrap SD."""

    elo: dict[str, float]
    low: dict[str, float]
    high: dict[str, float]
    sd: dict[str, float]


def play(design: str, seed: int, blocks: int, folder: Path) -> Path:
    """Play one tournament (or reuse its log) and return the log's path."""
    log = folder / f"{design}-b{blocks}-s{seed}.jsonl"
    if log.exists():
        return log
    partial = log.with_suffix(".part")
    partial.unlink(missing_ok=True)
    command = [
        PY, "-m", "zole_arena", "tournament", *DESIGNS[design], "--blocks", str(blocks),
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


def report(title: str, runs: Sequence[Run], pooled: dict[str, float]) -> None:
    """Print one table: per bot, real SD, boot SD, ratio, held."""
    print(f"\n{title} ({len(runs)} runs)")
    print(f"{'bot':<10} {'pooled':>8} {'real SD':>8} {'boot SD':>8} {'ratio':>6} {'held':>7}")
    for name in sorted(pooled, key=lambda n: -pooled[n]):
        real = statistics.stdev(run.elo[name] for run in runs)
        boot = statistics.fmean(run.sd[name] for run in runs)
        held = sum(run.low[name] <= pooled[name] <= run.high[name] for run in runs) / len(runs)
        print(
            f"{name:<10} {pooled[name]:>8.1f} {real:>8.1f} {boot:>8.1f} "
            f"{boot / real:>6.2f} {held:>7.1%}"
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
    parser.add_argument("--blocks", type=int, default=10, help="duplicate blocks per table")
    parser.add_argument("--resamples", type=int, default=200, help="bootstrap resamples")
    parser.add_argument("--keep", type=Path, help="keep the logs here (and reuse them)")
    parser.add_argument("--compare", action="store_true", help="also rate the old way")
    args = parser.parse_args()

    started = time.monotonic()
    with tempfile.TemporaryDirectory() as temporary:
        folder = args.keep or Path(temporary)
        folder.mkdir(parents=True, exist_ok=True)
        seeds = range(args.first_seed, args.first_seed + args.runs)
        logs = [play(args.design, seed, args.blocks, folder) for seed in seeds]
        played = time.monotonic()
        every = [read_logs([log]).units for log in logs]
    games = [game for units in every for unit in units for game in unit.games()]
    pooled = fit_elo(games)
    deals = sum(unit.size for unit in every[0])
    print(
        f"design {args.design}: {args.runs} tournaments of {deals} deals (seeds "
        f"{seeds[0]}-{seeds[-1]}), {args.resamples} resamples; played in "
        f"{played - started:.0f} s"
    )
    ways = [("clusters of units that share cards (zole-arena ratings)", False)]
    if args.compare:
        ways.append(("each unit alone (before clusters)", True))
    for title, alone in ways:
        runs = [rate_run(units, args.resamples, alone) for units in every]
        report(title, runs, pooled)
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
