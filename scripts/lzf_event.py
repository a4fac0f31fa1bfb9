#!/usr/bin/env python3
"""A Latvian-federation-style event from the bundled bots, end to end: the ``lzf`` format's
check at full size (issue 27's "must show").

Twelve bundled bots of graded strength — ``searchbot`` with 16, 6 and 2 samples, ``cbot`` and
``rulebot`` at two or three aggressions, ``rulebot`` playing 30% and 70% of its moves at
random, and two ``random`` bots — all deterministic (``searchbot`` with a fixed ``Seed``, the
others with ``--seed``: each decision's draw follows from the seed and the deal) so that a
resumed table plays as it would have, play ``--rounds`` rounds of ``--deals`` deals at three
tables of four, sandboxed (the default). The script:

1. plays the whole tournament once (``whole/t.jsonl``);
2. plays it again from the same seed, interrupts it with SIGINT (Ctrl-C) once the log
   reaches ``--cut`` of its lines, and resumes it with ``tournament --resume``
   (``resumed/t.jsonl``);
3. checks that both logs verify, that the two give the same records (but for times, and the
   paths each sandbox hid), and the same standings;
4. writes the HTML report of the resumed log;
5. prints the big-point standings beside the Elo ratings and how far the two orders agree:
   Kendall's tau, the bots whose places differ, and, of the pairs of bots whose Elo 95%
   intervals do not overlap (the ratings tell them apart), how many the big points order alike.

Usage::

    python scripts/lzf_event.py                   # 7 rounds x 24 deals, ~8 min on 2 cores
    python scripts/lzf_event.py --rounds 3 --deals 8 --folder /tmp/lzf

Runs the installed zole-arena (``python -m zole_arena``) of the interpreter running it.
"""

from __future__ import annotations

import argparse
import itertools
import json
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

BOTS_FOLDER = Path(__file__).resolve().parents[1] / "bots"
_RULE = f"{sys.executable} {BOTS_FOLDER / 'rule_bot.py'}"
_RANDOM = f"{sys.executable} {BOTS_FOLDER / 'random_bot.py'}"
BOTS = (
    "s16=searchbot", "s6=searchbot", "s2=searchbot", "cbot50=cbot", "cbot80=cbot",
    "rule50=rulebot", "rule20=rulebot", "rule80=rulebot",
    f"eps30={_RULE} --seed 1", f"eps70={_RULE} --seed 2",
    f"random1={_RANDOM} --seed 1", f"random2={_RANDOM} --seed 2",
)  # fmt: skip
OPTIONS = (
    "s16:Samples=16", "s6:Samples=6", "s2:Samples=2", *(f"s{n}:Seed=1" for n in (16, 6, 2)),
    "cbot50:Aggression=50", "cbot80:Aggression=80",
    "rule50:Aggression=50", "rule20:Aggression=20", "rule80:Aggression=80",
    "eps30:Epsilon=30", "eps70:Epsilon=70",
)  # fmt: skip


def zole(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "zole_arena", *args], cwd=cwd,
                          capture_output=True, text=True, check=False)  # fmt: skip


def must(proc: subprocess.CompletedProcess[str]) -> str:
    if proc.returncode != 0:
        sys.exit(f"failed ({proc.returncode}): {proc.args}\n{proc.stdout[-2000:]}{proc.stderr}")
    return proc.stdout


def records(log: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in log.read_text().splitlines()]


def comparable(log: Path) -> dict[str, list[dict[str, Any]]]:
    """The log's records by table, without what differs between two runs of one tournament:
    its id, times, the moves' think times, the paths a sandbox hid (where the log was)."""
    grouped: dict[str, list[dict[str, Any]]] = {}
    for record in records(log)[1:]:
        table = record["match_id"].rsplit("-", 1)[1]
        kept = {k: v for k, v in record.items() if k not in
                ("prev", "finished", "created", "moves", "settings", "match_id")}  # fmt: skip
        if "tournament" in kept:
            kept["tournament"] = {**kept["tournament"], "id": None}
        if kept.get("type") == "match":  # the folder each run was started from
            kept["players"] = [{**p, "cwd": None} for p in kept["players"]]
        grouped.setdefault(table, []).append(kept)
    return grouped


def kendall_tau(first: list[str], second: list[str]) -> float:
    place = {name: index for index, name in enumerate(second)}
    pairs = list(itertools.combinations(first, 2))
    agree = sum(1 if place[a] < place[b] else -1 for a, b in pairs)
    return agree / len(pairs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--deals", type=int, default=24)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--cut", type=float, default=0.45, help="interrupt at this share")
    parser.add_argument("--folder", type=Path, default=Path("lzf-event"))
    args = parser.parse_args()
    folder = args.folder.resolve()
    shutil.rmtree(folder, ignore_errors=True)
    whole, resumed = folder / "whole", folder / "resumed"
    whole.mkdir(parents=True)
    resumed.mkdir()
    command = [
        "tournament", *BOTS, *itertools.chain.from_iterable(("--option", o) for o in OPTIONS),
        "--format", "lzf", "--rounds", str(args.rounds), "--deals", str(args.deals),
        "--rules", "lzf", "--seed", str(args.seed), "--concurrency", "2", "--log", "t.jsonl",
        # searchbot with a fixed Samples and Seed plays the same move every time unless its
        # clock cuts a search short: a long move time keeps a loaded machine from doing so.
        "--movetime", "30000",
    ]  # fmt: skip

    began = time.monotonic()
    must(zole(*command, "--json", cwd=whole))
    seconds = time.monotonic() - began
    lines = len((whole / "t.jsonl").read_text().splitlines())
    print(f"whole: {lines} log lines in {seconds:.0f} s")

    proc = subprocess.Popen(
        [sys.executable, "-m", "zole_arena", *command],
        cwd=resumed, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    log = resumed / "t.jsonl"
    while not log.exists() or len(log.read_text().splitlines()) < args.cut * lines:
        if proc.poll() is not None:
            sys.exit("the tournament ended before it could be interrupted")
        time.sleep(0.2)  # polling the log's length, not synchronising
    proc.send_signal(signal.SIGINT)
    _, stderr = proc.communicate(timeout=120)
    cut = len(log.read_text().splitlines())
    print(f"interrupted: exit {proc.returncode}, {cut} of {lines} lines; {stderr.strip()[-120:]}")
    must(zole("tournament", "--resume", "t.jsonl", "--json", cwd=resumed))

    for name, path in (("whole", whole), ("resumed", resumed)):
        last = must(zole("verify", "t.jsonl", cwd=path)).strip().splitlines()
        print(f"verify {name}: {last[-2] if len(last) > 1 else last[-1]}")
    same = comparable(whole / "t.jsonl") == comparable(log)
    print(f"resumed log equals the whole run's (but for times and hidden paths): {same}")

    standings = [json.loads(must(zole("standings", "t.jsonl", "--json", cwd=p)))
                 for p in (whole, resumed)]  # fmt: skip
    keys = [[(e["name"], e["big_points"], e["points"]) for e in s["standings"]]
            for s in standings]  # fmt: skip
    print(f"same standings: {keys[0] == keys[1]}")
    must(zole("report", "t.jsonl", "-o", "report.html", cwd=resumed))
    print(f"report: {resumed / 'report.html'}")

    entries = standings[1]["standings"]
    by_big = [e["name"] for e in entries]
    by_elo = [e["name"] for e in sorted(entries, key=lambda e: -(e.get("elo") or 0))]
    print("\n place  bot        big  points   elo  (elo place)")
    for place, entry in enumerate(entries, start=1):
        elo = entry.get("elo")
        print(f" {place:5d}  {entry['name']:<9} {entry['big_points']:4g} {entry['points']:+7d}"
              f" {elo:+5.0f}  ({by_elo.index(entry['name']) + 1})")  # fmt: skip
    moved = [name for name in by_big if by_big.index(name) != by_elo.index(name)]
    print(f"\nKendall tau, big-point order vs Elo order: {kendall_tau(by_big, by_elo):.3f}; "
          f"bots placed differently: {', '.join(moved) or 'none'}")  # fmt: skip
    apart = alike = 0
    for first, second in itertools.combinations(entries, 2):  # first: ahead on big points
        if first["low"] > second["high"] or second["low"] > first["high"]:
            apart += 1
            alike += first["elo"] > second["elo"]
    print(f"pairs the Elo intervals tell apart: {apart}; ordered alike by big points: {alike}")


if __name__ == "__main__":
    main()
