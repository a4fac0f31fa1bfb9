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

A movement's logs are also scored **on equal cards**, as bridge scores a board against the
other tables that played it (a datum per hand): each hand's score minus that of the other bot
that held it at another table, fitted by least squares to each bot's strength with its
opponents' allowed for (a bot's score there: its strength minus half of each opponent's).

Usage::

    python scripts/movement_gain.py                 # 24 seeds, 12 deals a table, ~4 min
    python scripts/movement_gain.py --seeds 40 --deals 24

Runs on the installed zole-arena (``python -m zole_arena``) of the interpreter running it, with
``--no-sandbox`` (how the tables share deals does not depend on the sandbox, and it is faster).
"""

from __future__ import annotations

import argparse
import itertools
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

FIELD = ("rulebot", "cbot", "random", "rulebot", "cbot", "random")
ENTRIES = ("rulebot", "cbot", "random", "rulebot#2", "cbot#2", "random#2")
WAYS = {
    "movement": ("--movement",),
    "duplicate": ("--duplicate",),
    "own": ("--no-duplicate",),
}


def solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """x with matrix · x = vector (Gaussian elimination with partial pivoting)."""
    n = len(vector)
    rows = [[*matrix[i], vector[i]] for i in range(n)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(n):
            if r != col and rows[col][col]:
                factor = rows[r][col] / rows[col][col]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col], strict=True)]
    return [rows[i][n] / rows[i][i] for i in range(n)]


def equal_cards_gap(holdings: list[tuple[tuple[int, ...], list[float], int]]) -> float:
    """rulebot's strength over cbot's in points a deal, from the differences between the two
    holders of each hand (see the module): least squares, the strengths summing to zero."""
    names = len(holdings[0][1])
    by_hand: dict[tuple[int, ...], list[tuple[list[float], int]]] = {}
    for hand, design, score in holdings:
        by_hand.setdefault(hand, []).append((design, score))
    normal = [[0.0] * names for _ in range(names)]
    right = [0.0] * names
    for held in by_hand.values():
        for (x1, s1), (x2, s2) in itertools.pairwise(held):
            x = [a - b for a, b in zip(x1, x2, strict=True)]
            for i in range(names):
                right[i] += x[i] * (s1 - s2)
                for j in range(names):
                    normal[i][j] += x[i] * x[j]
    for i in range(names):  # the constraint: strengths sum to zero
        for j in range(names):
            normal[i][j] += 1.0
    strength = dict(zip(ENTRIES, solve(normal, right), strict=True))
    return (strength["rulebot"] + strength["rulebot#2"] - strength["cbot"] - strength["cbot#2"]) / 2


def run(way: str, seed: int, deals: int, folder: Path) -> tuple[float, ...]:
    """(Elo gap, points-per-deal gap) of rulebot over cbot in one tournament, and for a
    movement the points gap on equal cards."""
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
    holdings: list[tuple[tuple[int, ...], list[float], int]] = []
    for line in log.read_text().splitlines():
        record = json.loads(line)
        if record["type"] == "match":
            names[record["match_id"]] = [p["name"] for p in record["players"]]
        elif record["type"] == "deal":
            seated = [names[record["match_id"]][player] for player in record["seating"]]
            for seat, name in enumerate(seated):
                score = record["result"]["scores"][seat]
                points.setdefault(name, []).append(score)
                design = [0.0] * len(ENTRIES)
                for other, who in enumerate(seated):
                    design[ENTRIES.index(who)] += 1.0 if other == seat else -0.5
                holdings.append((tuple(sorted(record["hands"][seat])), design, score))

    def both(bot: str, of: dict[str, float]) -> float:
        return (of[bot] + of[f"{bot}#2"]) / 2

    per_deal = {name: statistics.fmean(p) for name, p in points.items()}
    gaps = (
        both("rulebot", elo) - both("cbot", elo),
        both("rulebot", per_deal) - both("cbot", per_deal),
    )
    return (*gaps, equal_cards_gap(holdings)) if way == "movement" else gaps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=24)
    parser.add_argument("--deals", type=int, default=12, help="per table (a multiple of 6)")
    args = parser.parse_args()
    if args.deals % 6:
        parser.error("--deals must be a multiple of 6 (duplicate blocks)")
    started = time.monotonic()
    gaps: dict[str, list[tuple[float, ...]]] = {way: [] for way in WAYS}
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
    equal = [g[2] for g in gaps["movement"]]
    equal_gap, equal_sd = statistics.fmean(equal), statistics.stdev(equal)
    need_equal = deals * (1.96 * equal_sd / equal_gap) ** 2
    print(f"a movement scored on equal cards: {equal_gap:+.3f} points a deal, sd "
          f"{equal_sd:.3f}, {need_equal:,.0f} deals to separate")  # fmt: skip
    print(f"({time.monotonic() - started:.0f} s)")


if __name__ == "__main__":
    main()
