"""Tests of head-to-head testing: the SPRT's mathematics on numbers worked out another way, its
error rates on simulated blocks, and ``zole-arena sprt`` end to end with real bot processes.

The end-to-end tests use wide bounds (``--elo1 100``), at which a test needs only a dozen or
so blocks, and the bundled Python bots: rulebot is about 190 Elo above random on the ratings
scale, and deterministic, so in a test of rulebot against itself each deal of one match is the
same deal of the other with the sides swapped, every block scores exactly ½, and the test falls
steadily to H0.
"""

from __future__ import annotations

import dataclasses
import doctest
import itertools
import json
import math
import random
import re
import shlex
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from clihelp import ok, one_line_error, zole
from prochelp import child_pids, group_gone

from zole_arena.arena.settings import MatchSettings
from zole_arena.catalogue.bundled import bundled_command
from zole_arena.errors import ZoleError
from zole_arena.events.sprt import HeadToHead, SprtTally, result_from_log
from zole_arena.game.rules import load_rules
from zole_arena.players.session import BotConfig
from zole_arena.records.model import MatchHeader
from zole_arena.records.reader import read_log
from zole_arena.stats import sprt as sprt_module
from zole_arena.stats.sprt import (
    Sprt,
    SprtError,
    SprtSettings,
    elo_of_score,
    expected_score,
    llr_normal,
    log_likelihood_ratio,
)

PY = sys.executable
ROOT = Path(__file__).resolve().parent.parent
TIMEOUT = 120
#: The random bot with a seed, so that every test plays the same deals on every run.
RANDOM = f"random={shlex.quote(PY)} {shlex.quote(str(ROOT / 'bots' / 'random_bot.py'))} --seed 7"
#: Wide bounds: a decision in a dozen or so blocks when one bot is far stronger (rulebot is about
#: 190 Elo above random), or when they are the same.
WIDE = ("--elo0", "0", "--elo1", "100")

# -- the mathematics ----------------------------------------------------------------------------


def test_the_module_examples() -> None:
    assert doctest.testmod(sprt_module).failed == 0


def test_elo_and_expected_score_are_inverse_on_the_ratings_scale() -> None:
    # The scale of zole-arena ratings: 75 % is 400·log10(3) Elo.
    assert expected_score(400 * math.log10(3)) == pytest.approx(0.75)
    for elo in (-700.0, -30.0, 0.0, 5.0, 191.0, 650.0):
        assert elo_of_score(expected_score(elo)) == pytest.approx(elo, abs=1e-9)
    assert elo_of_score(0.0) == -math.inf and elo_of_score(1.0) == math.inf


def test_wald_bounds() -> None:
    settings = SprtSettings(elo0=0, elo1=30, alpha=0.05, beta=0.05)
    assert settings.upper == pytest.approx(math.log(19)) and settings.lower == -settings.upper
    skewed = SprtSettings(elo0=-10, elo1=10, alpha=0.01, beta=0.2)
    assert skewed.upper == pytest.approx(math.log(0.8 / 0.01))
    assert skewed.lower == pytest.approx(math.log(0.2 / 0.99))


def brute_force_llr(counts: tuple[int, int, int], s0: float, s1: float) -> float:
    """The GSPRT for outcomes 0, ½, 1 by direct search: the best log-likelihood of a
    distribution (q0, q½, q1) with mean s is found over a fine grid of q0 (q1 follows)."""

    def best(s: float) -> float:
        top = -math.inf
        for i in range(1, 200_000):
            q0 = i / 200_000
            q1 = q0 + 2 * s - 1
            half = 1 - q0 - q1
            if q1 > 0 and half > 0:
                value = counts[0] * math.log(q0) + counts[1] * math.log(half)
                top = max(top, value + counts[2] * math.log(q1))
        return top

    return best(s1) - best(s0)


@pytest.mark.parametrize("counts", [(30, 40, 30), (20, 40, 40), (5, 80, 15)])
def test_the_llr_is_the_generalized_likelihood_ratio(counts: tuple[int, int, int]) -> None:
    s0, s1 = expected_score(0), expected_score(50)
    exact = log_likelihood_ratio({0.0: counts[0], 0.5: counts[1], 1.0: counts[2]}, s0, s1)
    assert exact == pytest.approx(brute_force_llr(counts, s0, s1), abs=1e-3)


def test_the_llr_approaches_the_normal_approximation_for_small_differences() -> None:
    counts = {0.0: 2900, 1 / 3: 2000, 0.5: 1000, 2 / 3: 2100, 1.0: 3000}
    n = sum(counts.values())
    mean = sum(v * c for v, c in counts.items()) / n
    variance = sum(c * (v - mean) ** 2 for v, c in counts.items()) / n
    s0, s1 = expected_score(0), expected_score(4)
    exact = log_likelihood_ratio(counts, s0, s1)
    approximate = llr_normal(n, mean, variance, s0, s1)
    assert exact == pytest.approx(approximate, rel=0.01)
    assert exact > 0  # the mean lies above (s0 + s1) / 2


def test_blocks_of_draws_fall_to_h0_at_a_known_rate() -> None:
    # Every game a draw: the best distribution with mean s1 puts its mass on ½ and on the
    # outcome 1, and each block costs ln(2(1 − s1)) — the steepest fall there is.
    # The pseudo-counts of the unseen outcomes 0 and 1 shift the LLR by a constant under 0.01,
    # which can cost one block more than ln(β/(1−α)) / step: 101 or 102 blocks at 0…10 Elo.
    settings = SprtSettings()
    test = Sprt(settings)
    step = math.log(2 * (1 - settings.s1))
    llrs = []
    while test.decision is None and test.blocks < 1000:
        test.add(0.5)
        llrs.append(test.llr)
    assert test.decision == "H0" and llrs[-1] <= settings.lower < llrs[-2]
    assert test.blocks - math.ceil(settings.lower / step) in (0, 1)
    # Each block costs nearly ``step`` (the pseudo-counts weigh less as blocks add up), never more.
    falls = [b - a for a, b in itertools.pairwise(llrs)]
    assert all(step <= fall <= 0.97 * step for fall in falls)
    assert falls[-1] == pytest.approx(step, rel=1e-3)
    assert test.llr == pytest.approx(test.blocks * step, abs=0.01)
    assert test.estimate() == (0.0, 0.0, 0.0, 50.0)


def test_one_block_can_move_the_llr_by_at_most_ln_s1_over_s0() -> None:
    # Even a NEW that wins every game needs ln((1-β)/α) / ln(s1/s0) blocks: 104 at 0…10 Elo.
    settings = SprtSettings()
    test = Sprt(settings)
    while test.decision is None:
        test.add(1.0)
    assert test.decision == "H1"
    assert test.blocks == math.ceil(settings.upper / math.log(settings.s1 / settings.s0)) == 104


def simulate(truth: float, settings: SprtSettings, rng: random.Random) -> str | None:
    """One test on simulated blocks of three games (a fifth of them drawn) at ``truth`` Elo."""
    s = expected_score(truth)
    test = Sprt(settings)
    while test.decision is None and test.blocks < 2000:
        games = []
        for _ in range(3):
            roll = rng.random()
            games.append(0.5 if roll < 0.2 else 1.0 if roll < 0.2 + (s - 0.1) else 0.0)
        test.add(sum(games) / 3)
    return test.decision


def test_the_error_rates_hold_on_simulated_blocks() -> None:
    settings = SprtSettings(elo0=0, elo1=100, alpha=0.1, beta=0.1)
    rng = random.Random(2024)
    runs = 200
    false_h1 = sum(simulate(0, settings, rng) == "H1" for _ in range(runs)) / runs
    false_h0 = sum(simulate(100, settings, rng) == "H0" for _ in range(runs)) / runs
    # At most α and β, give or take three standard errors of 200 runs.
    assert false_h1 <= 0.1 + 3 * math.sqrt(0.09 / runs), false_h1
    assert false_h0 <= 0.1 + 3 * math.sqrt(0.09 / runs), false_h0
    # And the test does decide for a NEW far above elo1, and against one far below elo0.
    assert simulate(300, settings, rng) == "H1"
    assert simulate(-200, settings, rng) == "H0"


@pytest.mark.parametrize(
    ("kwargs", "needle"),
    [
        ({"elo0": 10, "elo1": 10}, "greater than elo0"),
        ({"elo0": 20, "elo1": 5}, "greater than elo0"),
        ({"alpha": 0.0}, "alpha must be between 0 and 1"),
        ({"beta": 1.0}, "beta must be between 0 and 1"),
        ({"alpha": 0.6, "beta": 0.5}, "alpha + beta"),
        ({"elo1": math.inf}, "finite"),
    ],
)
def test_bad_settings_are_named(kwargs: dict[str, float], needle: str) -> None:
    with pytest.raises(SprtError, match=needle.replace("+", r"\+")):
        SprtSettings(**kwargs)
    assert issubclass(SprtError, ZoleError)


def test_a_score_outside_0_to_1_is_refused() -> None:
    with pytest.raises(SprtError):
        Sprt(SprtSettings()).add(1.5)


# -- zole-arena sprt end to end ------------------------------------------------------------------


def run_json(tmp_path: Path, *args: str, code: int = 0) -> dict[str, Any]:
    proc = zole("sprt", *args, "--json", cwd=tmp_path, timeout=TIMEOUT)
    assert proc.returncode == code, (proc.returncode, proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr
    data: dict[str, Any] = json.loads(proc.stdout)
    return data


def read_records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def scores_from_log(
    records: list[dict[str, Any]], new: set[str], old: set[str]
) -> list[list[float]]:
    """Each block's games worked out from the log by hand: in every deal record, each NEW-side
    player against each OLD-side player of that deal, 1 / ½ / 0 by their scores, gathered over
    all the deals (of both matches) with the block's number."""
    per_block: dict[int, list[float]] = {}
    for record in records:
        if record["type"] != "deal":
            continue
        names = [player["name"] for player in record["players"]]
        score = dict(zip(names, record["result"]["scores"], strict=True))
        for a, b in itertools.product(score, score):
            if a in new and b in old:
                x, y = score[a], score[b]
                result = 1.0 if x > y else 0.5 if x == y else 0.0
                per_block.setdefault(record["block"], []).append(result)
    return [games for _, games in sorted(per_block.items())]


def mean_score(blocks: list[list[float]]) -> float:
    """NEW's mean block score: each block's mean result, averaged over the blocks."""
    return sum(sum(games) / len(games) for games in blocks) / len(blocks)


def test_rulebot_against_random_accepts_h1_quickly(tmp_path: Path) -> None:
    data = run_json(tmp_path, "rulebot", RANDOM, *WIDE, "--seed", "1", "--log", "t.jsonl")
    assert data["decision"] == "H1" and data["stopped"] is None
    assert data["llr"] >= data["upper"] == pytest.approx(math.log(19), abs=1e-3)
    # Even a hopeless OLD needs ln 19 / ln(s1/s0) = 12 blocks at 0…100 Elo; no more are played.
    assert 12 <= data["blocks"] <= 30
    assert data["deals_per_block"] == 12
    assert data["deals"] == data["deals_played"] == 12 * data["blocks"]
    # NEW's side against OLD's: 2 games a deal (one NEW against two OLDs, or two NEWs against one).
    assert data["games"] == 24 * data["blocks"]
    assert data["score"] > 0.65 and data["elo"] > 100 and data["los"] > 99
    assert data["elo_low"] < data["elo"] <= (data["elo_high"] or math.inf)
    records = read_records(tmp_path / "t.jsonl")
    headers = [r for r in records if r["type"] == "match"]
    # Two matches, NEW against two OLDs and OLD against two NEWs, on the same seed.
    assert [[p["name"] for p in h["players"]] for h in headers] == [
        ["rulebot", "random", "random#2"],
        ["random", "rulebot", "rulebot#2"],
    ]
    assert {h["seed"] for h in headers} == {1} and all(h["duplicate"] for h in headers)
    assert headers[0]["sprt"] == {
        "new": "rulebot",
        "old": "random",
        "third": None,
        "elo0": 0.0,
        "elo1": 100.0,
        "alpha": 0.05,
        "beta": 0.05,
    }
    deals = [r for r in records if r["type"] == "deal"]
    assert len(deals) == data["deals"]
    for header in headers:
        mine = [r for r in deals if r["match_id"] == header["match_id"]]
        assert [r["deal"] for r in mine] == list(range(1, 6 * data["blocks"] + 1))
    # The statistic is the deal-by-deal comparison the docs describe, worked out by hand.
    by_hand = scores_from_log(records, {"rulebot", "rulebot#2"}, {"random", "random#2"})
    assert [len(games) for games in by_hand] == [24] * data["blocks"]
    assert mean_score(by_hand) == pytest.approx(data["score"], abs=1e-4)
    # The log is a normal match log: it verifies and rates, NEW's side above OLD's.
    assert "deals verify — ok" in ok(zole("verify", "t.jsonl", cwd=tmp_path)).stdout
    rated = json.loads(ok(zole("ratings", "t.jsonl", "--json", cwd=tmp_path)).stdout)
    elo = {r["name"]: r["elo"] for r in rated["ratings"]}
    assert min(elo["rulebot"], elo["rulebot#2"]) > max(elo["random"], elo["random#2"])
    shown = ok(zole("replay", "t.jsonl", "--deal", "1", cwd=tmp_path)).stdout
    assert shown.count("Deal 1") == 2  # deal 1 of each match


def test_with_a_third_bot_blocks_are_one_match(tmp_path: Path) -> None:
    data = run_json(
        tmp_path, "rulebot", RANDOM, "third=rulebot", *WIDE, "--seed", "2", "--log", "t.jsonl"
    )
    assert data["decision"] == "H1" and data["third"] == "third"
    assert data["deals_per_block"] == 6 and data["deals"] == 6 * data["blocks"]
    assert data["games"] == 6 * data["blocks"]  # one game a deal: NEW against OLD
    records = read_records(tmp_path / "t.jsonl")
    headers = [r for r in records if r["type"] == "match"]
    assert len(headers) == 1
    assert [p["name"] for p in headers[0]["players"]] == ["rulebot", "random", "third"]
    by_hand = scores_from_log(records, {"rulebot"}, {"random"})
    assert [len(games) for games in by_hand] == [6] * data["blocks"]
    assert mean_score(by_hand) == pytest.approx(data["score"], abs=1e-4)
    assert "deals verify — ok" in ok(zole("verify", "t.jsonl", cwd=tmp_path)).stdout
    ok(zole("ratings", "t.jsonl", cwd=tmp_path))


def test_identical_bots_accept_h0_and_exit_4(tmp_path: Path) -> None:
    data = run_json(tmp_path, "rulebot", "rulebot", "--elo1", "100", "--seed", "3", code=4)
    assert data["decision"] == "H0" and data["llr"] <= data["lower"]
    assert data["new"] == "rulebot.new" and data["old"] == "rulebot.old"
    assert data["score"] == 0.5 and data["elo"] == 0.0
    s1 = expected_score(100)
    assert data["blocks"] == math.ceil(data["lower"] / math.log(2 * (1 - s1)))


def test_an_undecided_test_stops_at_max_blocks_with_exit_5(tmp_path: Path) -> None:
    data = run_json(
        tmp_path, "rulebot", "rulebot", "x=rulebot", "--elo1", "5", "--max-blocks", "2", code=5
    )
    assert data["decision"] is None and data["stopped"] == "max-blocks"
    assert data["blocks"] == 2 and data["deals"] == 12
    assert data["lower"] < data["llr"] < data["upper"]


def test_json_output_has_the_documented_fields(tmp_path: Path) -> None:
    data = run_json(tmp_path, "rulebot", RANDOM, *WIDE, "--seed", "5", "--alpha", "0.1")
    assert set(data) == {
        "new", "old", "third", "decision", "stopped", "llr", "lower", "upper", "elo0", "elo1",
        "alpha", "beta", "blocks", "deals", "deals_per_block", "deals_played", "games", "score",
        "elo", "elo_low", "elo_high", "los", "seed", "log", "digest", "faults",
    }  # fmt: skip
    assert data["alpha"] == 0.1 and data["upper"] == pytest.approx(math.log(0.95 / 0.1), abs=1e-3)
    assert data["seed"] == 5 and data["log"] is None and data["faults"] == []


def test_plain_progress_lines_and_the_report(tmp_path: Path) -> None:
    proc = zole("sprt", "rulebot", RANDOM, *WIDE, "--seed", "6", cwd=tmp_path, timeout=TIMEOUT)
    ok(proc)
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("sprt: rulebot (NEW) against random (OLD), blocks of 12 deals")
    progress = [line for line in lines if line.startswith("LLR ") and "block" in line]
    pattern = r"LLR [+-]\d\.\d\d \[-2\.94, \+2\.94\]  block (\d+), (\d+) deals  score "
    shown = [re.match(pattern, line) for line in progress]
    assert all(shown), progress
    blocks = [int(m.group(1)) for m in shown if m]
    assert blocks[:9] == list(range(1, 10)) or blocks == list(range(1, len(blocks) + 1))
    assert all(int(m.group(2)) == 12 * int(m.group(1)) for m in shown if m)
    assert "H1 accepted: rulebot is better than random" in proc.stdout
    used = re.search(
        r"^(\d+) blocks = (\d+) deals \((\d+) games against random\)", proc.stdout, re.M
    )
    assert used and int(used[2]) == 12 * int(used[1]) >= 12 * blocks[-1]
    assert int(used[3]) == 24 * int(used[1])  # 2 games a deal against OLD's side
    assert "deals verify" not in proc.stdout


def test_ctrl_c_keeps_the_log_and_reports_the_state(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [PY, "-m", "zole_arena", "sprt", "rulebot", "rulebot", "--elo1", "5", "--log", "i.jsonl"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        for line in proc.stdout:  # the progress lines say when two blocks are done
            if "block 2," in line:
                break
        bots = child_pids(proc.pid)
        proc.send_signal(signal.SIGINT)
        stdout, stderr = proc.communicate(timeout=TIMEOUT)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 130, (stdout, stderr)
    assert "Traceback" not in stderr and "interrupted" in stderr
    assert "interrupted before a decision" in stdout
    assert len(bots) == 6  # two matches of three bots each, all stopped now
    assert all(group_gone(pid) for pid in bots)
    records = read_records(tmp_path / "i.jsonl")
    assert sum(r["type"] == "deal" for r in records) >= 24
    assert "deals verify — ok" in ok(zole("verify", "i.jsonl", cwd=tmp_path)).stdout


@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (["rulebot", "random", "--elo0", "10", "--elo1", "10"], ["elo1", "greater than elo0"]),
        (["rulebot", "random", "--elo0", "30", "--elo1", "0"], ["greater than elo0"]),
        (["rulebot", "random", "--alpha", "0"], ["alpha must be between 0 and 1"]),
        (["rulebot", "random", "--alpha", "1.5"], ["alpha"]),
        (["rulebot", "random", "--beta", "-0.1"], ["beta"]),
        (["rulebot", "rulebott"], ["no bundled bot or program 'rulebott'", "did you mean"]),
        (["rulebot"], ["2 or 3 bots, not 1"]),
        (["rulebot", "random", "random", "random"], ["2 or 3 bots, not 4"]),
        (["rulebot", "random", "--max-blocks", "0"], ["--max-blocks"]),
        (["rulebot", "random", "--seed", "-1"], ["--seed"]),
        (["rulebot", "random", "--option", "nobody:Epsilon=5"], ["no player named 'nobody'"]),
        (["rulebot", "random", "--option", "new:Epsilon"], ["PLAYER:NAME=VALUE"]),
        (["rulebot", "random", "--option", "new:Nonsense=1"], ["no option 'Nonsense'"]),
        (["rulebot", "random", "--rules", "nonesuch"], ["nonesuch"]),
        (["rulebot", "random", "--log", "exists.jsonl"], ["exists"]),
        (["a#2=rulebot", "a=random"], ["different names", "a#2, a, a#2#2, a#2"]),
        (["rulebot", "random", "--cpu", "4096"], ["CPU 4096 is not available"]),
    ],
)
def test_bad_arguments_give_a_one_line_error(
    tmp_path: Path, args: list[str], needles: list[str]
) -> None:
    (tmp_path / "exists.jsonl").write_text("{}\n")
    one_line_error(zole("sprt", *args, cwd=tmp_path), *needles)


def test_the_running_test_and_its_log_count_alike_block_by_block(tmp_path: Path) -> None:
    """One count of a test: the running test's state after each block (its tally, fed the
    records it writes) is the state a reader of its log reaches at the same block, feeding
    :class:`SprtTally` the log's records one at a time, as ``standings`` and ``report`` do."""
    log = tmp_path / "t.jsonl"
    test = HeadToHead(
        BotConfig(bundled_command("rulebot"), name="rule"),
        BotConfig(bundled_command("random"), name="rand"),
        MatchSettings(load_rules(), deals=40, seed=5),
        SprtSettings(elo0=0, elo1=100),
        log_path=log,
    )
    live: list[tuple[int, float, int]] = []
    end = test.run(on_block=lambda r: live.append((r.blocks, r.llr, r.games)))
    assert end.decision == "H1" and len(live) == end.blocks >= 12
    records, problems = read_log(log)
    assert not problems and isinstance(records[0], MatchHeader)
    tally = SprtTally.of_header(records[0])
    read: list[tuple[int, float, int]] = []
    for record in records[1:]:
        before = tally.sprt.blocks
        tally.add(record)
        if tally.sprt.blocks > before:
            read.append((tally.sprt.blocks, tally.sprt.llr, tally.games))
    assert read == live
    again = result_from_log(log)
    assert dataclasses.replace(again, log=None) == dataclasses.replace(end, log=None)
