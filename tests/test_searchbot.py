"""The bundled ``searchbot`` (C, perfect-information Monte Carlo): built on first use, passes
``check`` under both presets, never plays an illegal action, plays the same moves twice with a
fixed seed and sample count, and keeps to its time and its clock; and the research bot built
on it that sees every card."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
from clihelp import ok, together, zole

from zole_arena.catalogue.bundled import bundled_command

pytestmark = pytest.mark.long  # minutes long: run first (conftest.py)


def deals_of(log: Path) -> list[dict[str, Any]]:
    return [r for r in map(json.loads, log.read_text().splitlines()) if r["type"] == "deal"]


def test_it_is_built_on_first_use_and_listed(tmp_path: Path) -> None:
    (program,) = bundled_command("searchbot")
    assert Path(program).is_file() and "searchbot-" in Path(program).name
    listed = ok(zole("bots", cwd=tmp_path)).stdout
    assert "searchbot" in listed


def test_it_passes_check(tmp_path: Path) -> None:
    """One check covers both presets (every phase and contract, lzf with its switches on, a
    full deal of each) and a game clock."""
    proc = ok(zole("check", "searchbot", "--movetime", "300", cwd=tmp_path, timeout=300))
    assert "FAIL" not in proc.stdout and "items passed" in proc.stdout, proc.stdout
    assert "lzf small zole: soloist plays" in proc.stdout and "under a game clock" in proc.stdout


def _fixed(who: str, samples: int, seed: int) -> list[str]:
    return ["--option", f"{who}:Samples={samples}", "--option", f"{who}:Seed={seed}"]


@pytest.mark.parametrize("rules", ["wpt", "lzf"])
def test_it_never_plays_an_illegal_action(tmp_path: Path, rules: str) -> None:
    """Two searchbots and a random bot (which leads it into every kind of deal), a few
    samples a decision so that thousands of decisions take seconds: no fault of any kind,
    and every move re-plays legally (verify)."""
    log = tmp_path / "m.jsonl"
    ok(zole("match", "a=searchbot", "b=searchbot", "random", "--deals", "150", "--seed", "11",
            "--rules", rules, *_fixed("a", 4, 1), *_fixed("b", 4, 2), "--log", str(log),
            cwd=tmp_path, timeout=600))  # fmt: skip
    deals = deals_of(log)
    assert len(deals) == 150 and not [f for d in deals for f in d["faults"]]
    decisions = sum(1 for d in deals for m in d["moves"] if m["seat"] != 2)
    assert decisions >= 2000, decisions
    contracts = {d["result"]["contract"] for d in deals}
    assert {"take", "table" if rules == "wpt" else "zole"} <= contracts, contracts
    ok(zole("verify", str(log), cwd=tmp_path))


def test_a_fixed_seed_and_sample_count_give_the_same_moves(tmp_path: Path) -> None:
    """A fixed sample count is reproducible while the move time is only an emergency stop:
    a long one, so that a loaded machine never cuts a decision's samples short."""
    moves = []
    for run in (1, 2):
        log = tmp_path / f"m{run}.jsonl"
        ok(zole("match", "s=searchbot", "rulebot", "cbot", "--deals", "12", "--seed", "5",
                "--rules", "lzf", "--movetime", "30000", *_fixed("s", 40, 9), "--log", str(log),
                cwd=tmp_path, timeout=300))  # fmt: skip
        moves.append([[m["action"] for m in d["moves"]] for d in deals_of(log)])
    assert moves[0] == moves[1]
    other = tmp_path / "other.jsonl"
    ok(zole("match", "s=searchbot", "rulebot", "cbot", "--deals", "12", "--seed", "5",
            "--rules", "lzf", "--movetime", "30000", *_fixed("s", 40, 10), "--log", str(other),
            cwd=tmp_path, timeout=300))  # fmt: skip
    assert [[m["action"] for m in d["moves"]] for d in deals_of(other)] != moves[0]


def test_it_keeps_to_a_short_time_and_a_clock(tmp_path: Path) -> None:
    """By time (its default): answers within a short movetime, and under a small game clock
    spends more than a share at times but never runs out."""
    log = tmp_path / "t.jsonl"
    ok(zole("match", "searchbot", "rulebot", "rulebot", "--deals", "6", "--seed", "3",
            "--movetime", "60", "--log", str(log), cwd=tmp_path, timeout=300))  # fmt: skip
    deals = deals_of(log)
    assert not [f for d in deals for f in d["faults"]]
    assert max(m["think_ms"] for d in deals for m in d["moves"] if m["seat"] == 0) < 60 + 100
    clocked = tmp_path / "c.jsonl"
    ok(zole("match", "searchbot", "rulebot", "rulebot", "--deals", "6", "--seed", "3",
            "--tc", "0.5+0.02", "--log", str(clocked), cwd=tmp_path, timeout=300))  # fmt: skip
    deals = deals_of(clocked)
    assert not [f for d in deals for f in d["faults"]]
    mine = [m for d in deals for m in d["moves"] if m["seat"] == 0]
    assert all(m["clock_ms"] >= 0 for m in mine)
    assert sum(m["think_ms"] for m in mine) > 500  # it used its clocks, not a few ms


CEILING = str(Path(__file__).resolve().parent.parent / "bots" / "ceiling_bot.py")


def _ceiling_match(tmp_path: Path, bot_seed: int, name: str) -> tuple[list[int], str]:
    """A short duplicate lzf match of the ceiling bot told ``bot_seed`` (the match's is 31):
    the sample count of each of its decisions (from searchbot's debug lines), and its stderr."""
    log = tmp_path / f"{name}.jsonl"
    env = {**os.environ, "ZOLE_BOT_SEARCHBOT_DEBUG": "1"}
    ok(zole("match", f"ceiling=python3 {CEILING} --seed {bot_seed}", "rulebot", "rulebot",
            "--duplicate", "--deals", "3", "--seed", "31", "--rules", "lzf", "--no-sandbox",
            "--option", "ceiling:Seed=1", "--log", str(log), cwd=tmp_path, env=env,
            timeout=300))  # fmt: skip
    assert not [f for d in deals_of(log) for f in d["faults"]]
    stderr = Path(f"{log}.ceiling.stderr").read_text()
    counts = re.findall(r"^SB phase \w+ played \d+ samples (\d+)", stderr, re.M)
    return [int(n) for n in counts], stderr


def test_the_ceiling_bot_plays_with_every_card_seen(tmp_path: Path) -> None:
    """``bots/ceiling_bot.py`` (the research bot that measures searchbot's method with open
    cards) finds each deal from the seed and its own hand: every decision is then one sample,
    the deal itself (six when a take's defenders sample its bury), where the same search told
    a wrong seed plays blind, says so, and samples as usual."""
    (samples, stderr), (blind, blind_stderr) = together(
        lambda: _ceiling_match(tmp_path, 31, "seen"), lambda: _ceiling_match(tmp_path, 32, "blind")
    )
    assert len(samples) > 50 and 1 in samples and set(samples) <= {0, 1, 6}  # 0: one legal card
    assert "blind" not in stderr
    assert "not one of the seed's; playing blind" in blind_stderr
    assert max(blind) >= 16, blind
