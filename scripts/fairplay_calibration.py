#!/usr/bin/env python3
"""How often does ``zole-arena fairplay`` flag honest bots, and how soon a cheating one?

* **False positives**: honest fields (every bundled bot, searchbot at two think times, the
  Python starter, rulebot with ``Epsilon``) play ``--seeds`` matches of ``--deals`` deals each;
  every match log is screened, and every bot's verdict counted: the share flagged is the false
  positive rate at the default threshold. Each bot's excess over all its logs together (its
  bias: what reading the bids and the play gives beyond the drawn deals) is printed too, since
  a bot whose bias exceeded the allowance would be flagged in long enough logs.
* **Power**: the ceiling bot (``bots/ceiling_bot.py``) told every hand in 100%, 30% and 10% of
  its deals plays searchbot and rulebot, ``--seeds`` matches of ``--deals`` deals each: the
  share of its logs flagged, and from its excess and spread over all of them, the deals a log
  needs to flag it half the time and 95% of the time (``n = ((z_α + z_power)·σ / (μ − a))²``,
  σ its per-deal standard deviation, a the allowance).

Usage::

    python scripts/fairplay_calibration.py --seeds 8 --deals 240 --out /tmp/fpcal   # ~1 h

Logs and their screens are kept in ``--out``: a second run reuses them (each match is made
only if its log is missing, each screen comes from the cache beside the log). Runs on the
installed zole-arena (``python -m zole_arena``) of the interpreter running it, unsandboxed
(the ceiling bot needs it; honest bots play the same sandboxed or not).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
STARTER = f"starter={PY} {ROOT / 'bots' / 'starters' / 'python' / 'bot.py'}"

#: Honest fields: (name, bots and options, move time in ms).
HONEST: tuple[tuple[str, tuple[str, ...], int], ...] = (
    ("search20", ("searchbot", "cbot", "rulebot"), 20),
    ("search60", ("searchbot", "rulebot", "random"), 60),
    ("epsilon", ("eps=rulebot", "cbot", "crandom", "--option", "eps:Epsilon=10"), 20),
    ("starter", (STARTER, "cbot", "rulebot"), 20),
)
TOLD = (100, 30, 10)
#: z of each one-sided test at the default alpha (0.005, halved: a bot is flagged by its cards'
#: test or its bids'), and of 95% power; the default allowances of cards and bids.
Z_ALPHA, Z_95 = 2.8070, 1.6449
ALLOWANCE, BID_ALLOWANCE = 0.01, 0.03


def zole(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [PY, "-m", "zole_arena", *args], check=True, capture_output=True, text=True
    )


def make(log: Path, bots: tuple[str, ...], movetime: int, seed: int, deals: int) -> None:
    if log.exists():
        return
    part = log.with_suffix(".part")
    part.unlink(missing_ok=True)
    zole("match", *bots, "--deals", str(deals), "--seed", str(seed), "--movetime",
         str(movetime), "--no-sandbox", "--log", str(part))  # fmt: skip
    part.rename(log)


def screen(*logs: Path) -> dict[str, dict[str, Any]]:
    data = json.loads(zole("fairplay", *map(str, logs), "--json", "--workers", "2").stdout)
    return {p["name"]: p for p in data["players"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=8)
    parser.add_argument("--deals", type=int, default=240)
    parser.add_argument("--out", type=Path, default=Path("fairplay-calibration"))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    jobs: list[tuple[str, Path, tuple[str, ...], int, int]] = []
    for seed in range(1, args.seeds + 1):
        for name, bots, movetime in HONEST:
            jobs.append((name, args.out / f"{name}-{seed}.jsonl", bots, movetime, seed))
        for told in TOLD:
            ceiling = f"ceiling={PY} {ROOT / 'bots' / 'ceiling_bot.py'} --seed {seed} --told {told}"
            bots = (ceiling, "searchbot", "rulebot")
            jobs.append((f"told{told}", args.out / f"told{told}-{seed}.jsonl", bots, 20, seed))
    with ThreadPoolExecutor(2) as pool:  # two matches at a time: one per core
        list(pool.map(lambda j: make(j[1], j[2], j[3], j[4], args.deals), jobs))
    verdicts: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for field, log, *_ in jobs:
        for bot, row in screen(log).items():
            verdicts.setdefault((field, bot), []).append(row)
    print(f"False positives: {args.seeds} logs of {args.deals} deals per field, alpha 0.005")
    print(f"{'field':10} {'bot':10} {'logs':>4} {'flagged':>7} {'mean z':>7} {'sd z':>5} "
          f"{'pooled excess':>15} {'pooled z':>8} {'bid z':>6} {'sd':>5} "
          f"{'pooled bid excess':>17}")  # fmt: skip
    honest_logs = honest_flagged = 0
    zs: list[float] = []
    bid_zs: list[float] = []
    for name, *_ in HONEST:
        logs = [log for field, log, *_ in jobs if field == name]
        pooled = screen(*logs)
        for bot in sorted(pooled):
            rows = verdicts[(name, bot)]
            flagged = sum(bool(r["flagged"]) for r in rows)
            honest_logs += len(rows)
            honest_flagged += flagged
            z = [r["z"] for r in rows]
            bz = [r["bids"]["z"] for r in rows]
            zs += z
            bid_zs += bz
            p = pooled[bot]
            b = p["bids"]
            print(f"{name:10} {bot:10} {len(rows):4} {flagged:7} {statistics.mean(z):+7.2f} "
                  f"{statistics.pstdev(z):5.2f} {p['excess']:+8.4f}±{1.96 * p['se']:.4f} "
                  f"{p['z']:+8.2f} {statistics.mean(bz):+6.2f} {statistics.pstdev(bz):5.2f} "
                  f"{b['excess']:+8.4f}±{1.96 * b['se']:.4f}")  # fmt: skip
    tail = 0.5 * math.erfc(Z_ALPHA / math.sqrt(2))
    for what, found in (("cards", zs), ("bids", bid_zs)):
        mean_z, sd_z = statistics.mean(found), statistics.pstdev(found)
        fitted = 0.5 * math.erfc((Z_ALPHA - mean_z) / (sd_z * math.sqrt(2)))
        print(
            f"{what}: z of the honest bot-logs: mean {mean_z:+.2f}, sd {sd_z:.2f}; a normal of "
            f"that mean and sd puts {100 * fitted:.2f}% above the threshold (a true null: "
            f"{100 * tail:.2f}%)"
        )
    print(f"honest bot-logs flagged (by either test): {honest_flagged} of {honest_logs}")
    print()
    print(
        f"Power: the ceiling bot told every hand in a share of its deals; {args.seeds} logs "
        f"of {args.deals} deals each"
    )
    print(f"{'told':>5} {'flagged':>9} {'excess':>15} {'deals, 95%':>11} {'bid excess':>15} "
          f"{'deals, 95%':>11}")  # fmt: skip
    for told in TOLD:
        logs = [log for field, log, *_ in jobs if field == f"told{told}"]
        rows = verdicts[(f"told{told}", "ceiling")]
        flagged = sum(bool(r["flagged"]) for r in rows)
        p = screen(*logs)["ceiling"]
        needed = []
        for e, allowance in ((p, ALLOWANCE), (p["bids"], BID_ALLOWANCE)):
            sigma = e["se"] * math.sqrt(e["deals"])  # per deal
            gain = e["excess"] - allowance
            needed.append(((Z_ALPHA + Z_95) * sigma / gain) ** 2 if gain > 0 else math.inf)
        b = p["bids"]
        print(f"{told:4}% {flagged:4} of {len(rows):<2} {p['excess']:+8.4f}±{1.96 * p['se']:.4f} "
              f"{needed[0]:11.0f} {b['excess']:+8.4f}±{1.96 * b['se']:.4f} "
              f"{needed[1]:11.0f}")  # fmt: skip


if __name__ == "__main__":
    main()
