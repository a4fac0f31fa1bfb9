#!/usr/bin/env python3
"""How many deals does a tournament need to separate two bots, by how its tables share deals?

The same field — rulebot, cbot and random, each entered twice — plays a round-robin (20
tables) from many seeds in each of three ways, at the same number of deals per table:

* ``movement``: tables with no bot in common play the same deals, each deal once a table (the
  default for sandboxed bots: no bot meets the same cards twice);
* ``duplicate``: every table the tournament's deals, each in all six seatings (for trusted bots);
* ``own``: every table deals of its own (``--no-duplicate``).

For each run it takes the gap between rulebot's and cbot's entries (the mean of each bot's two
entries) in Elo (``zole-arena ratings``) and in points per deal, and over the seeds the spread
(standard deviation) of each. The deals needed to separate the two at 95 % are then
``deals × (1.96 · sd / gap)²`` (the gap taken from all runs of all three ways): smaller is
better, and the ratio of two ways' figures is how many more deals the worse one needs.

Usage::

    python scripts/movement_gain.py                 # 24 seeds, 12 deals a table, ~4 min
    python scripts/movement_gain.py --seeds 40 --deals 24

Runs on the installed zole-arena (``python -m zole_arena``) of the interpreter running it, with
``--no-sandbox`` (how the tables share deals does not depend on the sandbox, and it is faster).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

FIELD = ("rulebot", "cbot", "random", "rulebot", "cbot", "random")
WAYS = {
    "movement": ("--movement",),
    "duplicate": ("--duplicate",),
    "own": ("--no-duplicate",),
}


def run(way: str, seed: int, deals: int, folder: Path) -> tuple[float, float]:
    """(Elo gap, points-per-deal gap) of rulebot over cbot in one tournament."""
    log = folder / f"{way}-{seed}.jsonl"
    count = ("--blocks", str(deals // 6)) if way == "duplicate" else ("--deals", str(deals))
    subprocess.run(
        [sys.executable, "-m", "zole_arena", "tournament", *FIELD, *WAYS[way], *count,
         "--seed", str(seed), "--no-sandbox", "--concurrency", "2", "--log", str(log), "--json",
         "--bootstrap", "10"],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    rated = subprocess.run(
        [sys.executable, "-m", "zole_arena", "ratings", str(log), "--json", "--bootstrap", "10"],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    elo = {r["name"]: r["elo"] for r in json.loads(rated.stdout)["ratings"]}
    points: dict[str, list[int]] = {}
    names: dict[str, list[str]] = {}
    for line in log.read_text().splitlines():
        record = json.loads(line)
        if record["type"] == "match":
            names[record["match_id"]] = [p["name"] for p in record["players"]]
        elif record["type"] == "deal":
            for seat, player in enumerate(record["seating"]):
                name = names[record["match_id"]][player]
                points.setdefault(name, []).append(record["result"]["scores"][seat])

    def both(bot: str, of: dict[str, float]) -> float:
        return (of[bot] + of[f"{bot}#2"]) / 2

    per_deal = {name: statistics.fmean(p) for name, p in points.items()}
    return both("rulebot", elo) - both("cbot", elo), both("rulebot", per_deal) - both(
        "cbot", per_deal
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=24)
    parser.add_argument("--deals", type=int, default=12, help="per table (a multiple of 6)")
    args = parser.parse_args()
    if args.deals % 6:
        parser.error("--deals must be a multiple of 6 (duplicate blocks)")
    started = time.monotonic()
    gaps: dict[str, list[tuple[float, float]]] = {way: [] for way in WAYS}
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(1, args.seeds + 1):
            for way in WAYS:
                gaps[way].append(run(way, seed, args.deals, Path(tmp)))
    every = [g for way in WAYS for g in gaps[way]]
    elo_gap = statistics.fmean(g[0] for g in every)
    point_gap = statistics.fmean(g[1] for g in every)
    deals = 20 * args.deals
    print(f"field {' '.join(FIELD)}: 20 tables x {args.deals} deals = {deals} deals a run, "
          f"{args.seeds} seeds a way; rulebot - cbot: {elo_gap:+.1f} Elo, "
          f"{point_gap:+.3f} points a deal")  # fmt: skip
    print(f"{'way':<10} {'Elo sd':>7} {'deals to separate':>18} {'points sd':>10} "
          f"{'deals to separate':>18}")  # fmt: skip
    for way in WAYS:
        elo_sd = statistics.stdev(g[0] for g in gaps[way])
        point_sd = statistics.stdev(g[1] for g in gaps[way])
        need_elo = deals * (1.96 * elo_sd / elo_gap) ** 2
        need_points = deals * (1.96 * point_sd / point_gap) ** 2
        print(f"{way:<10} {elo_sd:7.1f} {need_elo:18,.0f} {point_sd:10.3f} {need_points:18,.0f}")
    print(f"({time.monotonic() - started:.0f} s)")


if __name__ == "__main__":
    main()
