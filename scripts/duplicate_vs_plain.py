#!/usr/bin/env python3
"""How much do duplicate blocks narrow the rating interval against plain deals, for the same
number of deals? And which way of turning a duplicate block into rating data does it best?

For each seed the script plays two real matches through the command line
(``zole-arena match … --json --log``) between the same three bots: ``--deals`` plain deals,
and ``--deals`` / 6 duplicate blocks (every deal in all six seatings: the same number of
deals). It then rates each log in several ways and reports, for each pair of bots, the width
of the 95 % bootstrap interval of their Elo gap divided by the gap: a scale-free figure (the
ways differ in their Elo scale, so widths in Elo cannot be compared), smaller is better. The
square of the ratio of two such figures is how many times more deals the worse way needs for
the same precision. The last column is the figure quoted in issue 5: the strongest bot's own
interval width divided by its gap to the weakest.

The ways of rating (``docs/ratings.md`` explains them and the results):

* ``plain``: plain deals, deal by deal: every pair of a deal's players one game, won by the
  larger score (draws half); units = deals. What ``zole-arena ratings`` does with plain logs.
* ``dup deal-by-deal``: the same games from the deals of duplicate blocks, units = blocks.
  What ``zole-arena ratings`` does with duplicate logs (through the library, as it does).
* ``dup seat-by-seat``: per seat and pair, the pair's totals over the two deals each played
  in that seat (the same cards) compared: 9 games a block (the previous method).
* ``dup per-deal in seat``: per seat and pair, each of one's two deals in the seat against
  each of the other's (4 games).
* ``dup swapped pairs``: per pair and seat of the third bot, the pair's totals over the two
  deals in which only the pair swapped seats (the card game's "game pair").
* ``dup block totals``: the pair's block totals (3 games a block).
* ``dup seat margins``: seat by seat, but the game's score is the logistic of the margin
  (1 / (1 + exp(−margin / 10))): margin-aware, but not the likelihood of any model.
* ``PL plain`` / ``PL dup deals`` / ``PL dup seats``: Plackett–Luce over each deal's (or each
  seat's) order of the three players, ties as a coarsened ranking (the probability of every
  order consistent with it), fitted by Newton's method.
* ``points plain`` / ``points dup``: no rating model: the mean points per deal. The interval
  of a linear statistic: what duplicate can gain at best, for comparison.

Usage::

    python scripts/duplicate_vs_plain.py                      # 720 deals, seeds 1-6, ~2-3 min
    python scripts/duplicate_vs_plain.py --deals 360 --seeds 1-8
    python scripts/duplicate_vs_plain.py --trio deterministic # rulebot, cbot, timid rulebot

Runs on the installed zole-arena (``python -m zole_arena``) of the interpreter running it.
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from zole_arena.records.model import DealRecord, Record
from zole_arena.records.reader import read_log
from zole_arena.stats.ratings import Game, fit_bootstrap, units_from_records

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
ELO = 400.0 / math.log(10.0)


@dataclass(frozen=True)
class Deal:
    """One deal of a log: who sat where, what each seat scored, and its block."""

    block: int
    names: tuple[str, ...]
    scores: tuple[int, ...]

    def score_of(self, name: str) -> int:
        return self.scores[self.names.index(name)]

    def seat_of(self, name: str) -> int:
        return self.names.index(name)


def trio(kind: str, seed: int) -> tuple[list[str], list[str]]:
    """The bots (strongest first, as expected) and their ``--option``s; every bot that draws
    random numbers is seeded from the match seed."""
    rule = f"{PY} {ROOT / 'bots' / 'rule_bot.py'}"
    if kind == "mixed":
        bots = ["rulebot", f"weak={rule} --seed {100 + seed}",
                f"random={PY} {ROOT / 'bots' / 'random_bot.py'} --seed {200 + seed}"]  # fmt: skip
        return bots, ["--option", "weak:Epsilon=50"]
    return ["rulebot", "cbot", f"timid={rule}"], ["--option", "timid:Aggression=0"]


def play(folder: Path, kind: str, seed: int, deals: int, duplicate: bool) -> Path:
    """Play one match through the command line and return its log."""
    bots, options = trio(kind, seed)
    log = folder / f"{'duplicate' if duplicate else 'plain'}-{seed}.jsonl"
    count = ["--duplicate", "--deals", str(deals // 6)] if duplicate else ["--deals", str(deals)]
    command = [PY, "-m", "zole_arena", "match", *bots, *options, *count, "--seed", str(seed),
               "--log", str(log), "--json"]  # fmt: skip
    proc = subprocess.run(command, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        sys.exit(f"error: the match failed: {' '.join(command)}\n{proc.stderr}")
    return log


def records(log: Path) -> list[Record]:
    found, problems = read_log(log)
    if problems:
        sys.exit(f"error: {problems[0].describe()}")
    return found


def deals_of(found: list[Record]) -> list[Deal]:
    return [
        Deal(r.block, r.names, tuple(r.result.scores)) for r in found if isinstance(r, DealRecord)
    ]


def blocks(deals: list[Deal]) -> list[list[Deal]]:
    grouped: dict[int, list[Deal]] = defaultdict(list)
    for deal in deals:
        grouped[deal.block].append(deal)
    return [grouped[block] for block in sorted(grouped)]


def game(first: str, second: str, a: float, b: float) -> Game:
    return Game(first, second, 1.0 if a > b else 0.0 if a < b else 0.5)


# -- ways of turning a log into pairwise games, one list per unit -----------------------------

UnitGames = list[list[Game]]


def deal_by_deal(found: list[Record]) -> UnitGames:
    """What the library does: units (blocks or deals) and their games."""
    return [list(unit.games()) for unit in units_from_records(found).units]


def seat_totals(block: list[Deal]) -> dict[int, dict[str, list[int]]]:
    """For each seat, each player's scores in the deals it played in that seat."""
    seats: dict[int, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    for deal in block:
        for seat, name in enumerate(deal.names):
            seats[seat][name].append(deal.scores[seat])
    return seats


def seat_by_seat(deals: list[Deal], margin: float | None = None) -> UnitGames:
    units = []
    for block in blocks(deals):
        games = []
        for by_name in seat_totals(block).values():
            for first, second in itertools.combinations(sorted(by_name), 2):
                a, b = sum(by_name[first]), sum(by_name[second])
                if margin is None:
                    games.append(game(first, second, a, b))
                else:
                    games.append(Game(first, second, 1.0 / (1.0 + math.exp(-(a - b) / margin))))
        units.append(games)
    return units


def per_deal_in_seat(deals: list[Deal]) -> UnitGames:
    units = []
    for block in blocks(deals):
        games = []
        for by_name in seat_totals(block).values():
            for first, second in itertools.combinations(sorted(by_name), 2):
                for a, b in itertools.product(by_name[first], by_name[second]):
                    games.append(game(first, second, a, b))
        units.append(games)
    return units


def swapped_pairs(deals: list[Deal]) -> UnitGames:
    units = []
    for block in blocks(deals):
        names = sorted(block[0].names)
        games = []
        for first, second in itertools.combinations(names, 2):
            (third,) = set(names) - {first, second}
            for seat in range(3):
                pair = [deal for deal in block if deal.names[seat] == third]
                a = sum(deal.score_of(first) for deal in pair)
                b = sum(deal.score_of(second) for deal in pair)
                games.append(game(first, second, a, b))
        units.append(games)
    return units


def block_totals(deals: list[Deal]) -> UnitGames:
    units = []
    for block in blocks(deals):
        totals: dict[str, int] = defaultdict(int)
        for deal in block:
            for name, score in zip(deal.names, deal.scores, strict=True):
                totals[name] += score
        units.append(
            [game(a, b, totals[a], totals[b]) for a, b in itertools.combinations(sorted(totals), 2)]
        )
    return units


# -- Plackett–Luce over the order of three players, ties as coarsened rankings ----------------

Ranking = tuple[tuple[str, ...], ...]
"""Tie groups, best first: ``(("A",), ("B", "C"))`` is A first, B and C tied behind."""


def ranking(scores: dict[str, float]) -> Ranking:
    levels = sorted(set(scores.values()), reverse=True)
    return tuple(tuple(sorted(n for n in scores if scores[n] == v)) for v in levels)


def pl_deals(deals: list[Deal], duplicate: bool) -> list[list[Ranking]]:
    if not duplicate:
        return [[ranking(dict(zip(d.names, d.scores, strict=True)))] for d in deals]
    return [
        [ranking(dict(zip(d.names, d.scores, strict=True))) for d in block]
        for block in blocks(deals)
    ]


def pl_seats(deals: list[Deal]) -> list[list[Ranking]]:
    return [
        [ranking({n: sum(s) for n, s in by_name.items()}) for by_name in seat_totals(b).values()]
        for b in blocks(deals)
    ]


def pl_loglik(theta: Sequence[float], counts: dict[Ranking, float], names: list[str]) -> float:
    """Log-likelihood of the rankings (with the library's prior: one virtual draw of each
    player against a neutral opponent)."""
    strength = {name: math.exp(t) for name, t in zip(names, theta, strict=True)}
    total = 0.0
    for groups, count in counts.items():
        rank = {name: k for k, group in enumerate(groups) for name in group}
        players = list(rank)
        chance = 0.0
        for order in itertools.permutations(players):
            if any(rank[order[k]] > rank[order[k + 1]] for k in range(len(order) - 1)):
                continue
            left = sum(strength[n] for n in order)
            p = 1.0
            for name in order[:-1]:
                p *= strength[name] / left
                left -= strength[name]
            chance += p
        total += count * math.log(chance)
    for t in theta:
        total -= math.log1p(math.exp(-t)) / 2 + math.log1p(math.exp(t)) / 2
    return total


def pl_fit(counts: dict[Ranking, float], names: list[str]) -> list[float]:
    """Maximum-likelihood log-strengths by Newton's method (finite-difference derivatives,
    step halving)."""
    n, h = len(names), 1e-4
    theta = [0.0] * n

    def f(x: Sequence[float]) -> float:
        return pl_loglik(x, counts, names)

    def moved(x: Sequence[float], steps: dict[int, float]) -> list[float]:
        return [v + steps.get(i, 0.0) for i, v in enumerate(x)]

    for _ in range(100):
        here = f(theta)
        grad = [(f(moved(theta, {i: h})) - f(moved(theta, {i: -h}))) / (2 * h) for i in range(n)]
        hess = [[0.0] * n for _ in range(n)]
        for i in range(n):
            hess[i][i] = (f(moved(theta, {i: h})) - 2 * here + f(moved(theta, {i: -h}))) / h**2
        for i, j in itertools.combinations(range(n), 2):
            corners = [f(moved(theta, {i: si * h, j: sj * h})) for si in (1, -1) for sj in (1, -1)]
            hess[i][j] = hess[j][i] = (corners[0] - corners[1] - corners[2] + corners[3]) / (
                4 * h * h
            )
        step = solve(hess, [-g for g in grad])
        scale = 1.0
        while f([t + scale * s for t, s in zip(theta, step, strict=True)]) < here and scale > 1e-6:
            scale /= 2
        theta = [t + scale * s for t, s in zip(theta, step, strict=True)]
        if max(abs(scale * s) for s in step) < 1e-8:
            break
    return theta


def solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (a few unknowns)."""
    n = len(vector)
    rows = [[*row, value] for row, value in zip(matrix, vector, strict=True)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(col + 1, n):
            factor = rows[r][col] / rows[col][col]
            rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col], strict=True)]
    out = [0.0] * n
    for r in reversed(range(n)):
        out[r] = (rows[r][n] - sum(rows[r][c] * out[c] for c in range(r + 1, n))) / rows[r][r]
    return out


# -- bootstrap of any statistic over units -----------------------------------------------------


@dataclass(frozen=True)
class Fitted:
    names: tuple[str, ...]
    values: tuple[float, ...]
    samples: tuple[tuple[float, ...], ...]


def bootstrap(
    units: Sequence[Any], fit: Callable[[list[tuple[int, Any]]], list[float]], count: int, seed: int
) -> list[list[float]]:
    """``fit`` of all units, then of ``count`` resamples (unit index → times drawn)."""
    rng = random.Random(seed)
    fits = [fit([(1, unit) for unit in units])]
    for _ in range(count):
        drawn = [0] * len(units)
        for _ in units:
            drawn[rng.randrange(len(units))] += 1
        fits.append(fit([(w, unit) for w, unit in zip(drawn, units, strict=True) if w]))
    return fits


def centred(values: Sequence[float]) -> tuple[float, ...]:
    mean = statistics.fmean(values)
    return tuple(v - mean for v in values)


def bt(units: UnitGames, resamples: int, seed: int) -> Fitted:
    fitted = fit_bootstrap(units, bootstrap=resamples, seed=seed)
    return Fitted(fitted.names, fitted.elos, fitted.samples)


def pl(units: list[list[Ranking]], resamples: int, seed: int) -> Fitted:
    names = sorted({name for unit in units for groups in unit for g in groups for name in g})

    def fit(weighted: list[tuple[int, Any]]) -> list[float]:
        counts: dict[Ranking, float] = defaultdict(float)
        for weight, unit in weighted:
            for groups in unit:
                counts[groups] += weight
        return list(centred([ELO * t for t in pl_fit(counts, names)]))

    fits = bootstrap(units, fit, resamples, seed)
    return Fitted(tuple(names), tuple(fits[0]), tuple(tuple(f) for f in fits[1:]))


def points(deals: list[Deal], duplicate: bool, resamples: int, seed: int) -> Fitted:
    names = sorted(deals[0].names)
    groups = blocks(deals) if duplicate else [[deal] for deal in deals]
    units = [[sum(d.score_of(n) for d in g) for n in names] + [len(g)] for g in groups]

    def fit(weighted: list[tuple[int, Any]]) -> list[float]:
        played = sum(weight * unit[-1] for weight, unit in weighted)
        return [sum(weight * unit[i] for weight, unit in weighted) / played for i in range(3)]

    fits = bootstrap(units, fit, resamples, seed)
    return Fitted(tuple(names), tuple(fits[0]), tuple(tuple(f) for f in fits[1:]))


# -- the figures -------------------------------------------------------------------------------


def cuts(values: list[float]) -> tuple[float, float]:
    q = statistics.quantiles(values, n=40, method="inclusive")
    return q[0], q[-1]


def figures(fitted: Fitted, order: list[str]) -> dict[str, tuple[float, float]]:
    """(interval width, gap) for each pair of ``order`` (strongest first), and the issue's
    figure: the top player's own interval width against its gap to the bottom one."""
    index = {name: i for i, name in enumerate(fitted.names)}
    out = {}
    for a, b in itertools.combinations(order, 2):
        i, j = index[a], index[b]
        low, high = cuts([s[i] - s[j] for s in fitted.samples])
        out[f"{a}-{b}"] = (high - low, fitted.values[i] - fitted.values[j])
    top, bottom = index[order[0]], index[order[-1]]
    low, high = cuts([s[top] for s in fitted.samples])
    out["top own"] = (high - low, fitted.values[top] - fitted.values[bottom])
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=720, help="deals of each kind (× 6)")
    parser.add_argument("--seeds", default="1-6", help="match seeds: 1-6 or 1,4,9")
    parser.add_argument("--bootstrap", type=int, default=100, help="resamples per fit")
    parser.add_argument("--trio", choices=["mixed", "deterministic"], default="mixed",
                        help="mixed: rulebot, rulebot Epsilon=50, random (default); "
                        "deterministic: rulebot, cbot, rulebot Aggression=0")  # fmt: skip
    parser.add_argument("--keep", type=Path, help="write the logs to this folder (kept)")
    args = parser.parse_args()
    if args.deals < 6 or args.deals % 6:
        parser.error("--deals must be a positive multiple of 6")
    if "-" in args.seeds:
        first, last = args.seeds.split("-")
        seeds = list(range(int(first), int(last) + 1))
    else:
        seeds = [int(s) for s in args.seeds.split(",")]

    started = time.monotonic()
    results: dict[str, list[dict[str, tuple[float, float]]]] = defaultdict(list)
    efficiency: dict[str, list[tuple[float, float]]] = defaultdict(list)
    order: list[str] = []
    with tempfile.TemporaryDirectory() as scratch:
        folder = args.keep or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        for seed in seeds:
            plain_log = play(folder, args.trio, seed, args.deals, duplicate=False)
            duplicate_log = play(folder, args.trio, seed, args.deals, duplicate=True)
            plain_records, duplicate_records = records(plain_log), records(duplicate_log)
            plain, duplicate = deals_of(plain_records), deals_of(duplicate_records)
            b, s = args.bootstrap, seed
            fits = {
                "plain": bt(deal_by_deal(plain_records), b, s),
                "dup deal-by-deal": bt(deal_by_deal(duplicate_records), b, s),
                "dup seat-by-seat": bt(seat_by_seat(duplicate), b, s),
                "dup per-deal in seat": bt(per_deal_in_seat(duplicate), b, s),
                "dup swapped pairs": bt(swapped_pairs(duplicate), b, s),
                "dup block totals": bt(block_totals(duplicate), b, s),
                "dup seat margins": bt(seat_by_seat(duplicate, margin=10.0), b, s),
                "PL plain": pl(pl_deals(plain, False), b, s),
                "PL dup deals": pl(pl_deals(duplicate, True), b, s),
                "PL dup seats": pl(pl_seats(duplicate), b, s),
                "points plain": points(plain, False, b, s),
                "points dup": points(duplicate, True, b, s),
            }
            if not order:  # the plain fit of the first seed sets the order of the bots
                ref = fits["plain"]
                order = sorted(ref.names, key=lambda n: -ref.values[ref.names.index(n)])
            for way, fitted in fits.items():
                results[way].append(figures(fitted, order))
            for a, c in itertools.combinations(order, 2):
                diffs_plain = [d.score_of(a) - d.score_of(c) for d in plain]
                diffs_dup = [
                    sum(d.score_of(a) - d.score_of(c) for d in block) / len(block)
                    for block in blocks(duplicate)
                ]
                efficiency[f"{a}-{c}"].append(
                    (statistics.pvariance(diffs_plain), 6 * statistics.pvariance(diffs_dup))
                )
            print(f"seed {seed} done ({time.monotonic() - started:.0f} s)", file=sys.stderr)

    columns = list(results["plain"][0])
    print(f"\n{args.trio} trio, {args.deals} deals of each kind ({args.deals // 6} duplicate "
          f"blocks), seeds {seeds[0]}..{seeds[-1]} ({len(seeds)}), {args.bootstrap} resamples. "
          "95% interval width / gap, averaged as (mean width) / (mean gap) over the seeds; "
          "smaller is better.\n")  # fmt: skip
    print("| way | " + " | ".join(columns) + " |")
    print("|---|" + "---:|" * len(columns))
    for way, per_seed in results.items():
        cells = []
        for column in columns:
            width = statistics.fmean(f[column][0] for f in per_seed)
            gap = statistics.fmean(f[column][1] for f in per_seed)
            cells.append(f"{width / gap:.3f}")
        print(f"| {way} | " + " | ".join(cells) + " |")
    print("\nThe issue's figure (top bot's own width / its gap to the bottom one), seed by seed:\n")
    print("| way | " + " | ".join(f"seed {s}" for s in seeds) + " |")
    print("|---|" + "---:|" * len(seeds))
    for way in ("plain", "dup deal-by-deal", "dup seat-by-seat"):
        cells = [f"{f['top own'][0] / f['top own'][1]:.3f}" for f in results[way]]
        print(f"| {way} | " + " | ".join(cells) + " |")
    print("\nScore difference per deal: variance in plain deals, and 6 x variance of the block "
          "mean in duplicate blocks (pooled over seeds); efficiency = plain / duplicate, how "
          "many times fewer deals duplicate needs for a linear statistic.\n")  # fmt: skip
    print("| pair | plain | duplicate | efficiency |")
    print("|---|---:|---:|---:|")
    for pair, values in efficiency.items():
        plain_var = statistics.fmean(v[0] for v in values)
        dup_var = statistics.fmean(v[1] for v in values)
        print(f"| {pair} | {plain_var:.1f} | {dup_var:.1f} | {plain_var / dup_var:.2f} |")
    print(f"\n{time.monotonic() - started:.0f} s in all.")


if __name__ == "__main__":
    main()
