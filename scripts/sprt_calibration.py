#!/usr/bin/env python3
"""Where known changes of strength lie on the Elo scale of ``zole-arena sprt``, and the error
rates of its test at the default bounds on blocks like real ones: the measurements behind the
defaults ``--elo0 0 --elo1 10`` (``docs/sprt.md``).

**Scale.** For each pair (rulebot against ``random``, against rulebot playing a random legal
action at 10 % of its decisions, ``Epsilon=10``, and at 5 %) and each seed, the script plays
the two matches of a test without a third bot for a fixed number of blocks, through the
command line (``zole-arena match NEW OLD OLD --duplicate`` and ``match OLD NEW NEW``, the same
seed, ``--log``): the deals ``sprt`` plays, but not stopped by the test. It reports NEW's mean
block score as ``sprt`` computes it (:func:`zole_arena.events.sprt.block_score` on the records), its
Elo with a 95 % interval from the blocks' standard error, and the gap between NEW's side and
OLD's side in ``zole-arena ratings --json`` of the two logs (the copies rated apart).

**Error rates.** The block scores of the ``Epsilon=5`` pair, shifted to the expected score of
elo0 and of elo1, are resampled with replacement as the blocks of simulated tests at the
default bounds: how often a test of a NEW exactly elo0 better accepts H1 (α's estimate), how
often one exactly elo1 better accepts H0 (β's), and how many blocks the tests take.

Usage::

    python scripts/sprt_calibration.py                      # 300 blocks, seeds 1-3, ~5 min
    python scripts/sprt_calibration.py --pairs eps5 --blocks 600 --seeds 4-6 --tests 2000

Runs on the installed zole-arena (``python -m zole_arena``) of the interpreter running it.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from zole_arena.records.model import Record
from zole_arena.records.reader import read_log
from zole_arena.stats.ratings import Unit, units_from_records
from zole_arena.stats.sprt import Sprt, SprtSettings, block_score, elo_of_score

PY = sys.executable
Z95 = 1.959963984540054


@dataclass(frozen=True)
class Pair:
    """NEW and OLD of a measured pair: display names, commands and bot options."""

    new: str
    old: str
    new_command: str
    old_command: str
    new_options: tuple[str, ...] = ()
    old_options: tuple[str, ...] = ()


PAIRS = {
    "random": Pair("rulebot", "random", "rulebot", "random"),
    "eps10": Pair("rulebot", "eps10", "rulebot", "rulebot", old_options=("Epsilon=10",)),
    "eps5": Pair("rulebot", "eps5", "rulebot", "rulebot", old_options=("Epsilon=5",)),
}


def zole(*args: str) -> str:
    """Run the command line; its stdout, or exit with its error."""
    proc = subprocess.run(
        [PY, "-m", "zole_arena", *args], capture_output=True, text=True, check=False
    )
    if proc.returncode != 0:
        sys.exit(f"zole-arena {' '.join(args[:2])} failed: {proc.stderr.strip()}")
    return proc.stdout


def play(pair: Pair, blocks: int, seed: int, folder: Path) -> tuple[list[float], float]:
    """Play the test's two matches for ``blocks`` blocks: (block scores, ratings side gap)."""
    logs = []
    new = (pair.new, pair.new_command, pair.new_options)
    old = (pair.old, pair.old_command, pair.old_options)
    tables = [(new, old), (old, new)]  # NEW against two OLDs, and OLD against two NEWs
    for index, (one, two) in enumerate(tables):
        log = folder / f"{pair.old}-{seed}-{index}.jsonl"
        args = [f"{one[0]}={one[1]}", f"{two[0]}={two[1]}", f"{two[0]}={two[1]}"]
        for who, options in ((one[0], one[2]), (two[0], two[2]), (f"{two[0]}#2", two[2])):
            for option in options:
                args += ["--option", f"{who}:{option}"]
        zole("match", *args, "--duplicate", "--deals", str(blocks), "--seed", str(seed),
             "--log", str(log), "--json")  # fmt: skip
        logs.append(log)
    records: list[Record] = [record for log in logs for record in read_log(log)[0]]
    by_block: dict[int, list[Unit]] = {}
    for unit in units_from_records(records).units:
        by_block.setdefault(unit.block, []).append(unit)
    new_side, old_side = {pair.new, f"{pair.new}#2"}, {pair.old, f"{pair.old}#2"}
    scores = [block_score(units, new_side, old_side)[0] for _, units in sorted(by_block.items())]
    rated = json.loads(zole("ratings", *map(str, logs), "--json"))
    elo = {row["name"]: float(row["elo"]) for row in rated["ratings"]}
    gap = (sum(elo[n] for n in new_side) - sum(elo[n] for n in old_side)) / 2
    return scores, gap


def simulate(
    scores: Sequence[float], target: float, settings: SprtSettings, rng: random.Random
) -> tuple[str | None, int]:
    """One test on ``scores`` shifted to mean ``target``, resampled: (decision, blocks)."""
    shift = target - statistics.fmean(scores)
    shifted = [min(max(v + shift, 0.0), 1.0) for v in scores]
    test = Sprt(settings)
    while test.decision is None and test.blocks < 2000:
        test.add(rng.choice(shifted))
    return test.decision, test.blocks


def seeds(text: str) -> list[int]:
    """``1-3`` or ``1,4,5``."""
    if "-" in text:
        low, high = text.split("-")
        return list(range(int(low), int(high) + 1))
    return [int(part) for part in text.split(",")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--blocks", type=int, default=300, help="blocks a match (default 300)")
    parser.add_argument("--seeds", type=seeds, default=[1, 2, 3], help="e.g. 1-3 (default)")
    parser.add_argument("--pairs", default="random,eps10,eps5", help="of: random, eps10, eps5")
    parser.add_argument("--tests", type=int, default=1000, help="simulated tests (0: none)")
    args = parser.parse_args()
    pairs = args.pairs.split(",")
    if not set(pairs) <= set(PAIRS) or args.blocks < 2:
        parser.error("--pairs takes random, eps10, eps5; --blocks at least 2")
    settings = SprtSettings()
    kept: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as folder:
        for name in pairs:
            for seed in args.seeds:
                started = time.monotonic()
                scores, gap = play(PAIRS[name], args.blocks, seed, Path(folder))
                kept.setdefault(name, []).extend(scores)
                mean, sd = statistics.fmean(scores), statistics.stdev(scores)
                error = sd / math.sqrt(len(scores))
                low, high = elo_of_score(mean - Z95 * error), elo_of_score(mean + Z95 * error)
                print(
                    f"{name:7} seed {seed}: {len(scores)} blocks, score {mean:.4f} (sd {sd:.3f}), "
                    f"Elo {elo_of_score(mean):+.1f} ({low:+.1f} … {high:+.1f}), ratings gap "
                    f"{gap:+.1f}; {12 * len(scores)} deals in {time.monotonic() - started:.0f} s",
                    flush=True,
                )
    if args.tests > 0:
        name = "eps5" if "eps5" in kept else pairs[-1]
        rng = random.Random(2024)
        print(f"simulated tests at elo0 {settings.elo0:g}, elo1 {settings.elo1:g} on the "
              f"{len(kept[name])} blocks of {name}:")  # fmt: skip
        for label, target in (("elo0", settings.s0), ("elo1", settings.s1)):
            results = [simulate(kept[name], target, settings, rng) for _ in range(args.tests)]
            decisions = [decision for decision, _ in results]
            blocks = sorted(count for _, count in results)
            print(
                f"  truth {label}: H1 {decisions.count('H1')}, H0 {decisions.count('H0')}, "
                f"undecided {decisions.count(None)} of {args.tests}; blocks median "
                f"{blocks[len(blocks) // 2]}, mean {statistics.fmean(blocks):.0f}, "
                f"95th percentile {blocks[int(0.95 * len(blocks))]}",
                flush=True,
            )


if __name__ == "__main__":
    main()
