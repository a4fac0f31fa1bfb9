"""Big fields: the balanced schedule (``--format balanced``) and bots kept running from one
table to the next, end to end with real bot processes and the real command line."""

from __future__ import annotations

import itertools
import json
import os
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from clihelp import ok, one_line_error, zole

from zole_arena.arena.settings import MatchSettings
from zole_arena.events.schedule import Entrant
from zole_arena.events.settings import TournamentSettings
from zole_arena.events.tournament import Tournament
from zole_arena.game.rules import load_rules
from zole_arena.isolation.sandbox import Sandbox
from zole_arena.players.limits import Limits
from zole_arena.players.pool import SessionPool
from zole_arena.players.session import BotConfig

TESTS = Path(__file__).resolve().parent
TRACKER = TESTS / "helper_bots" / "tracker_bot.py"
PY = sys.executable


def records(log: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in log.read_text().splitlines()]


def trackers(count: int, *extra: str) -> list[str]:
    """Tracker bots (they check the event stream of every deal and exit on a mismatch), each
    with a name of its own."""
    return [f"t{i}={PY} {TRACKER}{''.join(' ' + e for e in extra)}" for i in range(count)]


def started(pids: Path) -> list[str]:
    """The pids of the bot processes that told the file they started."""
    if not pids.exists():
        return []
    return [line.split()[1] for line in pids.read_text().splitlines() if line.startswith("bot ")]


# -- the balanced schedule ---------------------------------------------------------------------


def test_a_balanced_tournament_of_seven_plays_a_steiner_triple_system(tmp_path: Path) -> None:
    bots = [f"b{i}=crandom" for i in range(7)]
    proc = ok(zole("tournament", *bots, "--format", "balanced", "--blocks", "1", "--seed", "4",
                   "--no-sandbox", "--log", "t.jsonl", cwd=tmp_path))  # fmt: skip
    assert "balanced: 3 tables per bot, each pair meets once (an exact design)" in proc.stdout
    log = records(tmp_path / "t.jsonl")
    header = log[0]
    assert header["tournament_format"] == "balanced"
    tables = [tuple(t) for t in header["tables"]]
    assert len(tables) == 7  # instead of C(7, 3) = 35
    pairs = Counter(p for t in tables for p in itertools.combinations(sorted(t), 2))
    assert sorted(pairs) == list(itertools.combinations(range(7), 2))
    assert set(pairs.values()) == {1}
    # Every table plays the same deals (the seed's), in all six seatings.
    deals = [r for r in log if r["type"] == "deal"]
    assert len(deals) == 7 * 6
    assert len({json.dumps(sorted(map(sorted, d["hands"]))) for d in deals}) == 1
    # The log alone rates it.
    rated = json.loads(ok(zole("ratings", "t.jsonl", "--json", cwd=tmp_path)).stdout)
    assert sorted(r["name"] for r in rated["ratings"]) == [f"b{i}" for i in range(7)]


def test_a_balanced_tournament_resumes_from_its_header_alone(tmp_path: Path) -> None:
    bots = [f"b{i}=crandom" for i in range(8)]
    args = ["--format", "balanced", "--tables", "6", "--blocks", "1", "--seed", "9",
            "--no-sandbox"]  # fmt: skip
    ok(zole("tournament", *bots, *args, "--log", "full.jsonl", cwd=tmp_path))
    full = records(tmp_path / "full.jsonl")
    assert len(full[0]["tables"]) == 6
    appearances = Counter(p for t in full[0]["tables"] for p in t)
    assert sorted(appearances.values()) == [2, 2, 2, 2, 2, 2, 3, 3]  # 18 seats over 8 bots
    # Cut after the third table's header and two of its deals: resume plays the rest.
    lines = (tmp_path / "full.jsonl").read_text().splitlines(keepends=True)
    third = next(i for i, r in enumerate(full) if r.get("tournament", {}).get("table") == 3)
    (tmp_path / "cut.jsonl").write_text("".join(lines[: third + 3]))
    proc = ok(zole("tournament", "--resume", "cut.jsonl", "--no-sandbox", cwd=tmp_path))
    assert "4 of 6 tables to go" in proc.stdout
    resumed = records(tmp_path / "cut.jsonl")
    assert resumed[0]["tables"] == full[0]["tables"]
    assert [r.get("hands") for r in resumed if r["type"] == "deal"] == [
        r.get("hands") for r in full if r["type"] == "deal"
    ]
    ok(zole("verify", "cut.jsonl", cwd=tmp_path))


def test_balanced_options_are_checked_in_one_line(tmp_path: Path) -> None:
    bots = ["a=crandom", "b=crandom", "c=crandom", "d=crandom"]
    one_line_error(zole("tournament", *bots, "--tables", "3", cwd=tmp_path),
                   "--tables is for --format balanced")  # fmt: skip
    one_line_error(
        zole("tournament", *bots, "--format", "balanced", "--tables", "2", "--meetings", "1",
             cwd=tmp_path), "not both")  # fmt: skip
    one_line_error(zole("tournament", *bots, "--format", "balanced", "--tables", "0",
                        cwd=tmp_path), "--tables")  # fmt: skip
    one_line_error(zole("tournament", *bots, "--format", "balanced", "--tables", "5",
                        cwd=tmp_path), "round-robin")  # fmt: skip


# -- kept bots ---------------------------------------------------------------------------------


def test_a_worker_keeps_its_bots_from_table_to_table(tmp_path: Path) -> None:
    pids = tmp_path / "pids.txt"
    env = {**os.environ, "ZOLE_BOT_FAULT_PIDS": str(pids)}
    # Plain deals: the tracker checks the standing from deal to deal (one sheet per table).
    args = ["--no-duplicate", "--deals", "4", "--seed", "5", "--no-sandbox"]
    proc = ok(zole("tournament", *trackers(4), *args, "--log", "kept.jsonl", cwd=tmp_path,
                   env=env))  # fmt: skip
    log = records(tmp_path / "kept.jsonl")
    deals = [r for r in log if r["type"] == "deal"]
    assert len(deals) == 4 * 4 and not any(d["faults"] for d in deals), proc.stdout
    # The start-up check starts each bot once; then one process per bot for all 4 tables.
    assert len(started(pids)) == 4 + 4
    pids.unlink()
    ok(zole("tournament", *trackers(4), *args, "--no-keep-bots", "--log", "fresh.jsonl",
            cwd=tmp_path, env=env))  # fmt: skip
    assert len(started(pids)) == 4 + 4 * 3  # three bots at each of the 4 tables
    fresh = [r for r in records(tmp_path / "fresh.jsonl") if r["type"] == "deal"]
    assert [d["hands"] for d in fresh] == [d["hands"] for d in deals]


def test_a_kept_bot_that_crashes_is_replaced_and_the_rest_play_on(tmp_path: Path) -> None:
    pids = tmp_path / "pids.txt"
    marker = tmp_path / "crashed"
    env = {**os.environ, "ZOLE_BOT_FAULT_PIDS": str(pids)}
    bots = [*trackers(3), f"x={PY} {TRACKER} --crash-at 20 {marker}"]
    ok(zole("tournament", *bots, "--no-duplicate", "--deals", "4", "--seed", "5",
            "--no-sandbox", "--log", "t.jsonl", cwd=tmp_path, env=env))  # fmt: skip
    assert marker.exists()
    deals = [r for r in records(tmp_path / "t.jsonl") if r["type"] == "deal"]
    faults = [f for d in deals for f in d["faults"]]
    assert len(deals) == 4 * 4 and len(faults) == 1
    assert faults[0]["kind"] == "crash"
    assert len(started(pids)) == 4 + 4 + 1  # the check, one each, and x's replacement


def test_sandboxed_tables_never_keep_a_bot() -> None:
    """Every table plays the same deals: a sandboxed process kept for a second table would meet
    the same cards twice."""
    entrants = tuple(Entrant(n, ("crandom",)) for n in "abcd")
    rules = load_rules("wpt")
    for sandbox, kept in ((None, True), (Sandbox(), False)):
        match = MatchSettings(rules=rules, seed=1, deals=1, sandbox=sandbox)
        settings = TournamentSettings(entrants=entrants, match=match, keep_bots=True)
        tournament = Tournament(settings, "/dev/null")
        assert tournament._task(tournament.tables[0]).keep_bots is kept


BUSY_START = """
import sys, time
while time.process_time() < 1.2:  # CPU time spent before the handshake
    pass
for line in sys.stdin:
    word = line.split()[0] if line.split() else ""
    if word == "zole":
        print("id name Busy\\nzoleok 1", flush=True)
    elif word == "isready":
        print("readyok", flush=True)
    elif word == "quit":
        break
"""


@pytest.mark.parametrize(("cpu_limit", "reused"), [(1, 0), (None, 1)])
def test_a_kept_bot_near_its_cpu_limit_is_started_afresh(
    cpu_limit: int | None, reused: int
) -> None:
    # As at a table: the process may use --max-cpu-s beyond the table's thinking time.
    limits = Limits(cpu_seconds=cpu_limit, thinking_s=10)
    config = BotConfig(command=(PY, "-c", BUSY_START), limits=limits)
    with SessionPool() as pool:
        first = pool.start(config)
        first.send_quit()  # the match is done with it: back to the pool
        second = pool.start(config)
        assert (pool.started, pool.reused) == (2 - reused, reused)
        second.send_quit()
