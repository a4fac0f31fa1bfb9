"""A match from Python: a context manager and an iterator of its deals, played block by block,
records sent where the caller says, and Ctrl-C reaching the program that embeds the match
after the bots are stopped. Real bots, real processes."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

from clihelp import ok, zole
from prochelp import group_gone, marked_processes

from zole_arena.arena.match import Match
from zole_arena.arena.settings import MatchSettings
from zole_arena.catalogue.bundled import bundled_command
from zole_arena.game.rules import load_rules
from zole_arena.isolation.sandbox import Sandbox
from zole_arena.players.session import BotConfig, BotSession
from zole_arena.records.model import DealRecord, MatchHeader, SprtInfo, TableOf
from zole_arena.records.writer import to_json

PY = sys.executable
TESTS = Path(__file__).resolve().parent
INTERRUPTER = TESTS / "helper_bots" / "interrupt_arena.py"
WPT = load_rules("wpt")


def _bots(*kinds: str) -> list[BotConfig]:
    kinds = kinds or ("random", "rulebot", "random")
    return [
        BotConfig(bundled_command(kind), name=name) for kind, name in zip(kinds, "abc", strict=True)
    ]


def _groups(match: Match) -> list[int]:
    """The process groups of the match's running bots."""
    sessions = [player.session for player in match.referee.players]
    return [s.process.pgid for s in sessions if isinstance(s, BotSession)]


def _records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_a_match_is_a_context_manager_and_an_iterator_of_its_deals(tmp_path: Path) -> None:
    log = tmp_path / "m.jsonl"
    reports, lines = [], []
    with Match(_bots(), MatchSettings(rules=WPT, seed=5, deals=4), log) as match:
        groups = _groups(match)
        assert len(groups) == 3  # entering the match started its bots
        for deal in match:
            reports.append(deal)
            lines.append(len(log.read_text().splitlines()))
    assert all(group_gone(group) for group in groups)  # leaving it stopped them
    assert [r.number for r in reports] == [1, 2, 3, 4]
    assert lines == [2, 3, 4, 5]  # each deal is in the log by the time it is reported
    assert all(sum(r.scores) == 0 and r.faults == 0 for r in reports)
    summary = match.summary()
    assert summary.stopped is None and summary.deals == 4
    points = [sum(r.scores[player] for r in reports) for player in range(3)]
    assert [p.points for p in summary.players] == points
    assert match.names == ("a", "b", "c")
    assert "4 of 4 deals verify — ok" in ok(zole("verify", "m.jsonl", cwd=tmp_path)).stdout


def test_iterating_starts_the_bots_with_the_first_deal_and_stops_them_after_the_last() -> None:
    match = Match(_bots(), MatchSettings(rules=WPT, seed=6, deals=3))
    assert _groups(match) == []  # made, not started
    deals = iter(match)
    first = next(deals)
    groups = _groups(match)
    assert len(groups) == 3
    rest = list(deals)
    assert [first.number, *(r.number for r in rest)] == [1, 2, 3]
    assert all(group_gone(group) for group in groups)
    assert match.summary().deals == 3 and list(match) == []


def test_a_match_played_block_by_block_keeps_its_bots_between_blocks(tmp_path: Path) -> None:
    settings = MatchSettings(rules=WPT, seed=9, deals=3, duplicate=True)
    log = tmp_path / "m.jsonl"
    match = Match(_bots("rulebot", "rulebot", "rulebot"), settings, log)
    first = list(itertools.islice(match, 6))
    assert [r.number for r in first] == [1, 2, 3, 4, 5, 6] and {r.block for r in first} == {1}
    assert match.done == 6 and match.stopped is None
    sessions = [player.session for player in match.referee.players]
    assert all(session is not None for session in sessions)  # between blocks: still running
    second = list(itertools.islice(match, 6))
    assert {r.block for r in second} == {2} and match.done == 12
    assert [player.session for player in match.referee.players] == sessions  # not restarted
    match.close()
    assert all(player.session is None for player in match.referee.players)
    records = _records(log)
    assert [r["type"] for r in records] == ["match"] + ["deal"] * 12  # one header, in order
    assert [r["deal"] for r in records[1:]] == list(range(1, 13))
    # Closed before its end, a match starts its bots again with its next deal and goes on.
    last = match.run()
    assert last.deals == 18 and all(p.session is None for p in match.referee.players)
    assert "18 of 18 deals verify — ok" in ok(zole("verify", "m.jsonl", cwd=tmp_path)).stdout


class _Kept:
    """A record sink that keeps the records in a list (and has no ``close``: a match never
    closes a sink it was given)."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path
        self.records: list[MatchHeader | DealRecord] = []

    def write(self, record: MatchHeader | DealRecord) -> None:
        self.records.append(record)


def test_records_go_to_the_sink_given_with_the_event_the_match_is_part_of() -> None:
    kept = _Kept()
    part = TableOf("t0", 2)
    summary = Match(_bots(), MatchSettings(rules=WPT, seed=7, deals=2), kept, part_of=part).run()
    assert summary.deals == 2 and summary.log is None
    assert [r.type for r in kept.records] == ["match", "deal", "deal"]
    header = kept.records[0]
    assert isinstance(header, MatchHeader)
    assert header.tournament == part and header.sprt is None
    assert to_json(header)["tournament"] == {"id": "t0", "table": 2}
    test = SprtInfo("a", "b", None, elo0=0, elo1=5, alpha=0.05, beta=0.05)
    kept = _Kept()
    Match(_bots(), MatchSettings(rules=WPT, seed=7, deals=1), kept, part_of=test).run()
    assert to_json(kept.records[0])["sprt"] == {
        "new": "a", "old": "b", "third": None, "elo0": 0, "elo1": 5, "alpha": 0.05, "beta": 0.05,
    }  # fmt: skip


def test_a_sandboxed_match_hides_the_file_its_sink_writes_from_every_bot(tmp_path: Path) -> None:
    shared = tmp_path / "shared.jsonl"
    settings = MatchSettings(rules=WPT, seed=7, deals=1, sandbox=Sandbox())
    match = Match(_bots(), settings, _Kept(shared))
    assert match.log_path == shared
    for config in match.players:
        assert config.sandbox is not None and str(shared.absolute()) in config.sandbox.hidden


EMBEDDED = """
import json, os, signal, sys
from zole_arena.arena.match import Match
from zole_arena.arena.settings import MatchSettings
from zole_arena.game.rules import load_rules
from zole_arena.catalogue.bundled import bundled_command
from zole_arena.players.session import BotConfig

how, interrupter = sys.argv[1], sys.argv[2]
# Ctrl-C as a terminal gives it: a test runner's worker may start its children with SIGINT
# ignored (then Python installs no handler, and the interrupter's SIGINT is lost: seen in CI).
inherited = signal.getsignal(signal.SIGINT)
signal.signal(signal.SIGINT, signal.default_int_handler)
stop_at = "100000" if how == "between" else "30"  # the interrupter's go, or none
bots = [
    BotConfig(bundled_command("rulebot"), name="a"),
    BotConfig((sys.executable, interrupter, stop_at), name="b"),
    BotConfig(bundled_command("random"), name="c"),
]
match = Match(bots, MatchSettings(rules=load_rules("wpt"), seed=3, deals=40), "m.jsonl")
seen, groups = [], []

def started():
    groups.extend(p.session.process.pgid for p in match.referee.players)

def alive(group):
    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        return False
    return True

try:
    if how == "run":
        def on_deal(report, summary):
            if not groups:
                started()
            seen.append(report.number)
        match.run(on_deal)
    else:
        with match:
            started()
            for deal in match:
                seen.append(deal.number)
                if how == "between" and deal.number == 3:  # Ctrl-C in the caller's own code
                    os.kill(os.getpid(), signal.SIGINT)
except KeyboardInterrupt:
    summary = match.summary()
    print(json.dumps({
        "seen": seen, "deals": summary.deals, "stopped": str(summary.stopped),
        "interrupted": summary.stopped.interrupted, "groups": len(groups),
        "alive": [group for group in groups if alive(group)],
        "sessions": [p.session is not None for p in match.referee.players],
    }))
else:
    summary = match.summary()
    print("the match was not interrupted:", summary.deals, "deals, faults", summary.fault_lines,
          "SIGINT as inherited:", inherited)
"""


def test_ctrl_c_reaches_the_program_after_the_bots_are_stopped(tmp_path: Path) -> None:
    # Ctrl-C while the match waits for a bot (iterating, or in run()), and between deals.
    for how in ("iterate", "run", "between"):
        folder = tmp_path / how
        folder.mkdir()
        mark = uuid.uuid4().hex
        proc = subprocess.run(
            [PY, "-c", EMBEDDED, how, str(INTERRUPTER)], cwd=folder, capture_output=True,
            text=True, timeout=120, check=False, env=dict(os.environ, ZOLE_TEST_RUN=mark),
        )  # fmt: skip
        assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
        # Seen in CI (2026-12-07): "the match was not interrupted", the interrupter timed out
        # at its Nth go: its SIGINT was lost (the script now sets Python's handler itself).
        assert proc.stdout.startswith("{"), (how, proc.stdout, proc.stderr[-3000:])
        data = json.loads(proc.stdout)
        # The deal Ctrl-C came in is not reported, and not logged; every one before it is.
        assert data["seen"] == list(range(1, data["deals"] + 1)) and 1 <= data["deals"] < 40
        assert how != "between" or data["deals"] == 3
        assert data["stopped"] == "interrupted" and data["interrupted"]
        assert data["groups"] == 3 and data["alive"] == []  # stopped before the caller saw it
        assert data["sessions"] == [False, False, False]
        assert marked_processes(mark) == []
        records = _records(folder / "m.jsonl")
        assert [r["type"] for r in records] == ["match"] + ["deal"] * data["deals"]
        ok(zole("verify", "m.jsonl", cwd=folder))
