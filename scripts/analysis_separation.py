#!/usr/bin/env python3
"""How many deals does the open-card loss need to tell two bots apart, against their points?

For each pair of bots the script plays one real duplicate match through the command line
(``zole-arena match A B random --duplicate --log``: the pair and ``random`` as the third
seat), analyses it (``zole-arena analyze``), and compares the pair deal by deal, in the same
deals:

* **points**: A's score minus B's, per duplicate block (both played every seat of the same
  cards, so a block is the paired unit);
* **loss**: B's open-card loss minus A's, summed over their decisions of the block.

For each it prints the mean difference per block, its standard deviation, and the deals at
which the difference would be significant at the 5% level (two-sided), ``6 · (1.96 σ / μ)²``:
the fewer, the sooner that figure separates the two bots. The blocks of every seed are pooled
(each seed is a match of its own; a block is the unit). ``docs/analysis.md`` quotes the
result.

Usage::

    python scripts/analysis_separation.py                 # 3 seeds x 100 blocks a pair, ~6 min
    python scripts/analysis_separation.py --blocks 50 --seeds 4-5

Runs the installed zole-arena (``python -m zole_arena``) of the interpreter running it.
"""

from __future__ import annotations

import argparse
import math
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from zole_arena.analysis.run import log_deals
from zole_arena.analysis.store import analysis_path, read_analysis

PAIRS = (
    ("rulebot vs cbot", ["rulebot", "cbot"], []),
    (
        "rulebot vs rulebot Epsilon 10",
        ["rulebot", "eps10=rulebot"],
        ["--option", "eps10:Epsilon=10"],
    ),
)


def _run(*args: str) -> None:
    proc = subprocess.run([sys.executable, "-m", "zole_arena", *args], capture_output=True,
                          text=True, check=False)  # fmt: skip
    if proc.returncode != 0:
        raise SystemExit(f"zole-arena {' '.join(args)} failed:\n{proc.stderr}")


def _deals_needed(diffs: list[float]) -> tuple[float, float, float]:
    """Mean and SD per block, and the deals (6 a block) for significance at 5%."""
    mean = statistics.fmean(diffs)
    sd = statistics.stdev(diffs)
    need = math.inf if mean == 0 else 6 * (1.959964 * sd / mean) ** 2
    return mean, sd, need


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--blocks", type=int, default=100, help="duplicate blocks a pair")
    parser.add_argument("--seeds", default="1-3", help="seeds of the matches, FIRST-LAST")
    parser.add_argument("--rules", default="wpt")
    options = parser.parse_args()
    first_seed, _, last_seed = options.seeds.partition("-")
    seeds = range(int(first_seed), int(last_seed or first_seed) + 1)
    print(f"{options.blocks} duplicate blocks ({6 * options.blocks} deals) a pair and seed, "
          f"seeds {options.seeds}, rules {options.rules}, third seat random")  # fmt: skip
    print(f"{'pair':32} {'figure':7} {'mean/block':>11} {'sd/block':>9} {'deals needed':>13}")
    with tempfile.TemporaryDirectory() as folder:
        for label, bots, extra in PAIRS:
            points: list[float] = []
            loss: list[float] = []
            for seed in seeds:
                log = Path(folder) / f"{label.replace(' ', '_')}-{seed}.jsonl"
                _run("match", *bots, "random", "--duplicate", "--deals", str(options.blocks),
                     "--rules", options.rules, "--seed", str(seed), "--movetime", "1000",
                     "--log", str(log), *extra)  # fmt: skip
                _run("analyze", str(log), "--worst", "0")
                block_points, block_loss = _block_differences(log, bots[0], bots[1])
                points += block_points
                loss += block_loss
            for figure, values in (("points", points), ("loss", loss)):
                mean, sd, need = _deals_needed(values)
                print(f"{label:32} {figure:7} {mean:+11.2f} {sd:9.2f} {need:13.0f}")


def _block_differences(log: Path, first: str, second_arg: str) -> tuple[list[float], list[float]]:
    """Per duplicate block: first's points minus second's; second's loss minus first's."""
    second = second_arg.split("=")[0]
    held = read_analysis(analysis_path(log))
    points: dict[int, float] = {}
    loss: dict[int, float] = {}
    for record, sha in log_deals([log])[0]:
        block = record.block
        for seat, name in enumerate(record.names):
            sign = 1 if name == first else -1 if name == second else 0
            points[block] = points.get(block, 0.0) + sign * record.result.scores[seat]
        for d in held.deals[sha].decisions:
            sign = -1 if d.player == first else 1 if d.player == second else 0
            loss[block] = loss.get(block, 0.0) + sign * d.loss
    return list(points.values()), list(loss.values())


if __name__ == "__main__":
    main()
