"""End-to-end tests of ``zole-arena match``, its game records, ``replay`` and ``verify``.

Every test runs the real command line (``python -m zole_arena …``) in a temporary folder, as a
user would, with real bot processes: the bundled ``rulebot`` and ``cbot`` (both deterministic)
and ``random``, and the misbehaving bots of ``tests/fault_bots/``. Nothing is mocked. The one
wait for progress (the Ctrl-C test) polls the log's line count against a deadline.

The record format is ``protocol/records.md``.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from clihelp import ok, one_line_error
from clihelp import zole as run_zole
from prochelp import child_pids, group_gone

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
FAULT_BOTS = TESTS / "fault_bots"
RANDOM_BOT = ROOT / "bots" / "random_bot.py"
PY = sys.executable
#: Seconds any one command may take before the test fails.
TIMEOUT = 60
#: Fast decisions: the bundled and fault bots answer in well under a millisecond.
FAST = ("--movetime", "500")

needs_cc = pytest.mark.skipif(
    not any(shutil.which(c) for c in (os.environ.get("CC") or "cc", "cc", "gcc", "clang")),
    reason="cbot needs a C compiler",
)

HEADER_KEYS = {
    "format",
    "format_version",
    "type",
    "arena_version",
    "match_id",
    "created",
    "rules",
    "seed",
    "deals",
    "duplicate",
    "players",
    "settings",
}
HEADER_PLAYER_KEYS = {"name", "id_name", "author", "version", "command", "options", "cwd"}
SETTINGS_KEYS = {
    "movetime_ms",
    "margin_ms",
    "startup_ms",
    "ping_ms",
    "on_fault",
    "penalty",
    "max_faults",
    "memory_mb",
    "cpu_seconds",
}
RULES_KEYS = {
    "preset",
    "contracts",
    "all_pass",
    "table_loser",
    "table_payment",
    "deals_per_game",
    "common_pule_bonus",
    "personal_pule_bonus",
    "pules_take_only",
    "take",
}
TAKE_KEYS = {"all_tricks", "high_win", "win", "loss", "high_loss", "no_tricks"}
DEAL_KEYS = {
    "format",
    "format_version",
    "type",
    "arena_version",
    "match_id",
    "deal",
    "block",
    "seating",
    "seed",
    "deal_no",
    "dealer",
    "rules",
    "pules_before",
    "hands",
    "talon",
    "moves",
    "buried",
    "tricks",
    "result",
    "totals",
    "termination",
    "culprit",
    "faults",
    "players",
    "finished",
}
RESULT_KEYS = {
    "contract",
    "soloist",
    "scores",
    "tricks",
    "points",
    "band",
    "soloist_points",
    "soloist_tricks",
    "losers",
    "pules",
    "pule_event",
    "ended_early",
    "forfeit",
}
MOVE_KEYS = {"seat", "action", "request_id", "think_ms"}
FAULT_KEYS = {"deal_no", "seat", "player", "bot", "kind", "message", "request", "reply"}
#: What differs between two runs of the same match: wall-clock times and the match's id.
# prev: the hash chain covers every byte of the lines before, times included.
TIMING_KEYS = ("created", "finished", "match_id", "prev")
CARD_RE = re.compile(r"^[AKQJT987][CSHD]$")
SUIT_SYMBOLS = {"C": "♣", "S": "♠", "H": "♥", "D": "♦"}


# -- helpers ------------------------------------------------------------------------------------


def zole(*args: str, cwd: Path, timeout: float = TIMEOUT) -> subprocess.CompletedProcess[str]:
    """Run ``zole-arena ARGS`` in ``cwd``."""
    return run_zole(*args, cwd=cwd, timeout=timeout)


assert_one_line_error = one_line_error


def records(path: Path) -> list[dict[str, Any]]:
    """Every line of a log, parsed (each must be one whole JSON object)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


def line_count(path: Path) -> int:
    try:
        return path.read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


def symbol(card: str) -> str:
    """A canonical card as replay shows it: ``TD`` → ``10♦``."""
    rank = "10" if card[0] == "T" else card[0]
    return rank + SUIT_SYMBOLS[card[1]]


def shown(card: str, tokens: set[str]) -> bool:
    """Whether the card appears among the tokens, in symbols or in plain text."""
    return symbol(card) in tokens or card in tokens


def deal_blocks(text: str) -> dict[int, list[str]]:
    """``replay`` output split into deals: deal number → its lines."""
    blocks: dict[int, list[str]] = {}
    current: list[str] | None = None
    for line in text.splitlines():
        found = re.match(r"^Deal (\d+)\b", line)
        if found:
            current = blocks.setdefault(int(found.group(1)), [])
        if current is not None:
            current.append(line)
    return blocks


def hands_section(lines: list[str]) -> list[str]:
    """The lines after a deal's heading that show hands (before bids, talon or tricks)."""
    section = []
    for line in lines[1:]:
        text = line.strip()
        if not text or text.startswith(("bids:", "talon:")) or re.match(r"^\d+\.", text):
            break
        if "talon" in text:
            break
        section.append(line)
    return section


def tokens_of(lines: list[str]) -> set[str]:
    return {token for line in lines for token in line.split()}


def normalised(record: dict[str, Any]) -> dict[str, Any]:
    """A record without what differs between runs: times, the match id, thinking times (and
    the hash of the line before, which holds them), and request ids (random, so that no bot
    can guess another's), kept only as answered or not."""
    copy = {k: v for k, v in record.items() if k not in TIMING_KEYS}
    if "moves" in copy:
        copy["moves"] = [
            {
                k: (v is not None if k == "request_id" else v)
                for k, v in m.items()
                if k != "think_ms"
            }
            for m in copy["moves"]
        ]
    return copy


def player_points_from_log(log: list[dict[str, Any]]) -> list[int]:
    """Each header player's total over the log's deal records."""
    points = [0, 0, 0]
    for record in log[1:]:
        for seat, player in enumerate(record["seating"]):
            points[player] += record["result"]["scores"][seat]
    return points


def check_summary(summary: dict[str, Any], deals: int, names: list[str]) -> None:
    """The ``--json`` summary's shape and sums."""
    assert summary["deals"] == deals
    assert [p["name"] for p in summary["players"]] == names
    for player in summary["players"]:
        assert isinstance(player["points"], int)
        assert isinstance(player["faults"], int)
    assert sum(p["points"] for p in summary["players"]) == 0
    assert summary["seconds"] > 0  # the run's wall time, for deals per second
    # What a script needs to reproduce the match and to tell who was disqualified.
    assert isinstance(summary["seed"], int) and isinstance(summary["match_id"], str)
    assert summary["rules"] in ("wpt", "lzf") and isinstance(summary["duplicate"], bool)
    assert isinstance(summary["disqualified"], list)


# -- shared matches -----------------------------------------------------------------------------


class Played:
    """A finished match: its folder, log, command result and parsed records."""

    def __init__(self, folder: Path, log: Path, proc: subprocess.CompletedProcess[str]) -> None:
        self.folder = folder
        self.log = log
        self.proc = proc
        self.records = records(log)
        self.summary = json.loads(proc.stdout) if proc.stdout.lstrip().startswith("{") else None

    @property
    def header(self) -> dict[str, Any]:
        return self.records[0]

    @property
    def deals(self) -> list[dict[str, Any]]:
        return self.records[1:]


def play(folder: Path, *args: str, log_name: str = "match.jsonl") -> Played:
    log = folder / log_name
    proc = ok(zole("match", *args, *FAST, "--log", log_name, cwd=folder))
    return Played(folder, log, proc)


NAMES = ["rulebot", "cbot", "rulebot#2"]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Played:
    """``match rulebot cbot rulebot`` of 6 wpt deals, with --json and --log."""
    if not any(shutil.which(c) for c in ("cc", "gcc", "clang")):
        pytest.skip("cbot needs a C compiler")
    folder = tmp_path_factory.mktemp("wpt")
    return play(
        folder, "rulebot", "cbot", "rulebot", "--deals", "6", "--seed", "5", "--rules", "wpt",
        "--json",
    )  # fmt: skip


@pytest.fixture(scope="module")
def duplicate(tmp_path_factory: pytest.TempPathFactory) -> Played:
    """``--deals 2 --duplicate`` under lzf: 12 deals."""
    if not any(shutil.which(c) for c in ("cc", "gcc", "clang")):
        pytest.skip("cbot needs a C compiler")
    folder = tmp_path_factory.mktemp("lzf-duplicate")
    return play(
        folder, "rulebot", "cbot", "rulebot", "--deals", "2", "--duplicate", "--seed", "9",
        "--rules", "lzf", "--json",
    )  # fmt: skip


#: (fixture, preset, deals of the seed, duplicate, seed)
MATCHES = {"wpt": ("played", "wpt", 6, False, 5), "lzf-duplicate": ("duplicate", "lzf", 2, True, 9)}


@pytest.fixture(params=list(MATCHES))
def match_case(request: pytest.FixtureRequest) -> tuple[Played, str, int, bool, int]:
    name, preset, deals, dup, seed = MATCHES[request.param]
    return request.getfixturevalue(name), preset, deals, dup, seed


# -- 1. match → log → replay → verify -----------------------------------------------------------


def test_json_summary_shape_and_zero_sum(match_case: tuple[Played, str, int, bool, int]) -> None:
    played, _preset, deals, dup, _seed = match_case
    assert played.summary is not None, played.proc.stdout
    check_summary(played.summary, deals * (6 if dup else 1), NAMES)
    assert played.summary["stopped"] is None
    # The summary's points are what the log's deals add up to, player by player.
    assert [p["points"] for p in played.summary["players"]] == player_points_from_log(
        played.records
    )
    assert all(p["faults"] == 0 for p in played.summary["players"])


def test_log_header_has_the_documented_keys(
    match_case: tuple[Played, str, int, bool, int],
) -> None:
    played, preset, deals, dup, seed = match_case
    header = played.header
    assert header.keys() >= HEADER_KEYS
    assert header["format"] == "zole-arena"
    assert header["format_version"] == 2
    assert header["prev"] is None  # the first line of the hash chain
    assert header["type"] == "match"
    assert (header["deals"], header["duplicate"], header["seed"]) == (deals, dup, seed)
    rules = header["rules"]
    assert rules.keys() >= RULES_KEYS
    assert rules["preset"] == preset
    assert set(rules["take"]) == TAKE_KEYS
    assert "name" not in rules and "source" not in rules
    assert ("zole" in rules) == ("zole" in rules["contracts"])
    assert [p["name"] for p in header["players"]] == NAMES
    for player in header["players"]:
        assert player.keys() >= HEADER_PLAYER_KEYS
        assert isinstance(player["command"], list) and player["command"]
    assert header["settings"].keys() >= SETTINGS_KEYS
    assert header["settings"]["movetime_ms"] == 500
    assert header["settings"]["on_fault"] == "forfeit"
    assert header["settings"]["penalty"] is None


def test_every_deal_record_is_complete_and_self_contained(
    match_case: tuple[Played, str, int, bool, int],
) -> None:
    played, _preset, deals, dup, _seed = match_case
    header = played.header
    total = deals * (6 if dup else 1)
    assert [r["deal"] for r in played.deals] == list(range(1, total + 1))
    running: dict[tuple[int, ...], list[int]] = {}
    for record in played.deals:
        assert record.keys() >= DEAL_KEYS, DEAL_KEYS - record.keys()
        assert record["type"] == "deal"
        assert record["format"] == "zole-arena" and record["format_version"] == 2
        assert record["match_id"] == header["match_id"]
        # Self-contained: the rules, the seed, the deal, the moves, the result, the players.
        assert record["rules"] == header["rules"]
        assert record["seed"] == header["seed"]
        assert record["block"] == record["deal_no"]
        hands = record["hands"]
        assert len(hands) == 3 and all(len(hand) == 8 for hand in hands)
        assert len(record["talon"]) == 2
        every = [c for hand in hands for c in hand] + record["talon"]
        assert len(set(every)) == 26 and all(CARD_RE.match(c) for c in every)
        assert record["moves"]
        for move in record["moves"]:
            assert move.keys() >= MOVE_KEYS
            assert move["seat"] in (0, 1, 2)
            assert isinstance(move["request_id"], int)
        result = record["result"]
        assert result.keys() >= RESULT_KEYS
        assert sum(result["scores"]) == 0
        assert record["termination"] == "normal"
        assert record["culprit"] is None and record["faults"] == []
        for seat, player in enumerate(record["players"]):
            assert {"name", "version", "command"} <= player.keys()
            entry = header["players"][record["seating"][seat]]
            assert (player["name"], player["command"]) == (entry["name"], entry["command"])
        # The running totals add up, on each seating's own score sheet.
        sheet = running.setdefault(tuple(record["seating"]), [0, 0, 0])
        sheet[:] = [t + s for t, s in zip(sheet, result["scores"], strict=True)]
        assert record["totals"] == sheet
    if not dup:
        assert all(r["seating"] == [0, 1, 2] for r in played.deals)
        assert [r["block"] for r in played.deals] == list(range(1, total + 1))


def test_verify_says_all_deals_verify(match_case: tuple[Played, str, int, bool, int]) -> None:
    played, _preset, deals, dup, _seed = match_case
    total = deals * (6 if dup else 1)
    proc = ok(zole("verify", played.log.name, cwd=played.folder))
    assert f"{played.log.name}: {total} of {total} deals verify" in proc.stdout
    assert "ok" in proc.stdout
    assert proc.stderr.strip() == ""


def test_the_first_deal_record_alone_verifies_and_replays(played: Played, tmp_path: Path) -> None:
    alone = tmp_path / "one.jsonl"
    alone.write_text(json.dumps(played.deals[0]) + "\n")
    proc = ok(zole("verify", "one.jsonl", cwd=tmp_path))
    assert "1 of 1 deals verify" in proc.stdout
    proc = ok(zole("replay", "one.jsonl", cwd=tmp_path))
    assert "Deal 1" in proc.stdout


def test_a_later_deal_record_alone_verifies(played: Played, tmp_path: Path) -> None:
    later = next(r for r in played.deals if r["totals"] != r["result"]["scores"])
    alone = tmp_path / "one.jsonl"
    alone.write_text(json.dumps(later) + "\n")
    proc = zole("verify", "one.jsonl", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout
    assert "1 of 1 deals verify" in proc.stdout


def test_replay_shows_every_deal(played: Played) -> None:
    proc = ok(zole("replay", played.log.name, cwd=played.folder))
    assert played.header["match_id"] in proc.stdout
    assert sorted(deal_blocks(proc.stdout)) == list(range(1, 7))


def test_replay_of_one_deal_shows_hands_tricks_and_scores(played: Played) -> None:
    record = played.deals[1]
    proc = ok(zole("replay", played.log.name, "--deal", "2", cwd=played.folder))
    blocks = deal_blocks(proc.stdout)
    assert list(blocks) == [2], proc.stdout
    lines = blocks[2]
    assert f"seed {record['seed']}" in lines[0]
    hand_lines = hands_section(lines)
    assert len(hand_lines) == 3
    for seat, hand in enumerate(record["hands"]):
        name = record["players"][seat]["name"]
        line = next(line for line in hand_lines if name + " " in line)
        assert all(shown(card, set(line.split())) for card in hand), (hand, line)
    tricks = [line for line in lines if re.match(r"^\s+\d+\.\s", line)]
    assert len(tricks) == len(record["tricks"])
    for line, trick in zip(tricks, record["tricks"], strict=True):
        assert all(symbol(card) in line or card in line for card in trick["cards"])
    scores = next(line for line in lines if "scores:" in line)
    for value in record["result"]["scores"]:
        assert f"{value:+d}" in scores
    for value in record["totals"]:
        assert f"{value:+d}" in scores.split("totals:")[1]


def test_replay_as_one_seat_hides_the_other_hands_and_the_talon(played: Played) -> None:
    take = next((r for r in played.deals if r["result"]["contract"] == "take"), None)
    assert take is not None, "the seed has no take deal: pick another"
    number = str(take["deal"])
    soloist = take["result"]["soloist"]
    for seat in (soloist, (soloist + 1) % 3):
        proc = ok(
            zole("replay", played.log.name, "--deal", number, "--seat", str(seat),
                 cwd=played.folder)
        )  # fmt: skip
        lines = deal_blocks(proc.stdout)[take["deal"]]
        assert take["players"][seat]["name"] in lines[0]  # "as seen by …"
        section = hands_section(lines)
        tokens = tokens_of(section)
        assert all(shown(card, tokens) for card in take["hands"][seat])
        for other in range(3):
            if other != seat:
                hidden = [c for c in take["hands"][other] if shown(c, tokens)]
                assert not hidden, f"seat {seat} sees seat {other}'s {hidden}"
        talon_lines = [line for line in lines if line.strip().startswith("talon:")]
        if seat == soloist:
            assert len(talon_lines) == 1
            assert all(shown(c, set(talon_lines[0].split())) for c in take["talon"])
        else:
            assert talon_lines == [], f"seat {seat} sees the talon"
            assert "buries:" not in proc.stdout
            assert any("hidden" in line for line in lines)


def test_replay_as_one_seat_hides_an_unused_talon(played: Played) -> None:
    other = [r for r in played.deals if r["result"]["contract"] != "take"]
    if not other:
        pytest.skip("no deal without a take in this match")
    record = other[0]
    proc = ok(
        zole("replay", played.log.name, "--deal", str(record["deal"]), "--seat", "0",
             cwd=played.folder)
    )  # fmt: skip
    assert "talon:" not in proc.stdout
    assert not any(shown(card, tokens_of(proc.stdout.splitlines())) for card in record["talon"])


# -- duplicate ----------------------------------------------------------------------------------


def test_duplicate_plays_each_deal_in_all_six_seatings(duplicate: Played) -> None:
    deals = duplicate.deals
    assert duplicate.header["duplicate"] is True and duplicate.header["deals"] == 2
    assert [r["deal"] for r in deals] == list(range(1, 13))
    assert [r["block"] for r in deals] == [1] * 6 + [2] * 6
    permutations = {tuple(p) for p in itertools.permutations(range(3))}
    for block in (1, 2):
        six = [r for r in deals if r["block"] == block]
        assert {tuple(r["seating"]) for r in six} == permutations
        for record in six:
            assert record["deal_no"] == block
            assert record["hands"] == six[0]["hands"]
            assert record["talon"] == six[0]["talon"]
            assert record["dealer"] == six[0]["dealer"]
            names = [duplicate.header["players"][p]["name"] for p in record["seating"]]
            assert [p["name"] for p in record["players"]] == names
    assert deals[0]["hands"] != deals[6]["hands"]


def test_replay_of_a_duplicate_deal_names_its_block(duplicate: Played) -> None:
    proc = ok(zole("replay", duplicate.log.name, "--deal", "8", cwd=duplicate.folder))
    heading = proc.stdout.splitlines()[0]
    assert heading.startswith("Deal 8") and "block 2" in heading


# -- names --------------------------------------------------------------------------------------


def test_equal_names_are_told_apart(tmp_path: Path) -> None:
    result = play(tmp_path, "random", "random", "rulebot", "--deals", "1", "--json")
    assert [p["name"] for p in result.header["players"]] == ["random", "random#2", "rulebot"]
    assert result.summary is not None
    check_summary(result.summary, 1, ["random", "random#2", "rulebot"])
    # Each player's stderr goes to a file of its own.
    assert (tmp_path / "match.jsonl.random.stderr").exists()
    assert (tmp_path / "match.jsonl.random#2.stderr").exists()


def test_a_bot_given_as_a_command_has_one_name_everywhere(tmp_path: Path) -> None:
    # Its program's name (the bot announces 'RuleBot'): in the banner, the results, the log,
    # its stderr file and --option, all alike.
    bot = f"{PY} {ROOT / 'bots' / 'rule_bot.py'}"
    result = play(tmp_path, bot, bot, "random", "--deals", "2", "--json",
                  "--option", "rule_bot#2:Epsilon=5")  # fmt: skip
    names = ["rule_bot", "rule_bot#2", "random"]
    players = result.header["players"]
    assert [p["name"] for p in players] == names
    assert [p["id_name"] for p in players][:2] == ["RuleBot", "RuleBot"]
    assert players[1]["options"] == {"Epsilon": "5"}
    assert result.summary is not None
    check_summary(result.summary, 2, names)
    assert [p["name"] for p in result.deals[0]["players"]] == names
    assert (tmp_path / "match.jsonl.rule_bot#2.stderr").exists()


@needs_cc
def test_name_equals_command_sets_display_names(tmp_path: Path) -> None:
    bob = f"bob={PY} {RANDOM_BOT} --seed 3"
    result = play(tmp_path, "alice=rulebot", bob, "cbot", "--deals", "2", "--seed", "1")
    header = result.header
    assert [p["name"] for p in header["players"]] == ["alice", "bob", "cbot"]
    assert header["players"][1]["command"] == [PY, str(RANDOM_BOT), "--seed", "3"]
    assert header["players"][0]["id_name"] == "RuleBot"
    for record in result.deals:
        assert [p["name"] for p in record["players"]] == ["alice", "bob", "cbot"]
    assert "alice, bob, cbot" in result.proc.stdout
    ok(zole("verify", "match.jsonl", cwd=tmp_path))


# -- 2. the demo --------------------------------------------------------------------------------


def test_match_without_arguments_runs_a_demo(tmp_path: Path) -> None:
    proc = ok(zole("match", cwd=tmp_path))
    first = proc.stdout.splitlines()[0]
    assert "demo" in first
    assert "random" in first and "rulebot" in first
    assert re.search(r"\b6 deals\b", first)
    assert "zole-arena match BOT BOT BOT" in proc.stdout
    assert re.search(r"^played 6 deals in ", proc.stdout, re.M)


# -- 3. Ctrl-C and --resume ---------------------------------------------------------------------


SECOND_SIGNAL = """
import os, signal
from zole_arena.cli.console import stop_on_signals
stop_on_signals()
try:
    os.kill(os.getpid(), signal.SIGINT)
    signal.pause()
except KeyboardInterrupt:
    # Shutting down: a second Ctrl-C and a SIGTERM now must not interrupt this.
    os.kill(os.getpid(), signal.SIGINT)
    os.kill(os.getpid(), signal.SIGTERM)
    print("summary printed")
"""


def test_a_second_signal_during_the_shutdown_is_ignored(tmp_path: Path) -> None:
    proc = subprocess.run(
        [PY, "-c", SECOND_SIGNAL], capture_output=True, text=True, timeout=TIMEOUT, check=False
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "summary printed\n"


@needs_cc
def test_resume_after_sigint_gives_the_same_match(tmp_path: Path) -> None:
    args = ["rulebot", "cbot", "rulebot", "--deals", "150", "--seed", "11", "--rules", "lzf"]
    whole = play(tmp_path, *args, log_name="whole.jsonl")
    assert len(whole.deals) == 150

    log = tmp_path / "L.jsonl"
    proc = subprocess.Popen(
        [PY, "-m", "zole_arena", "match", *args, *FAST, "--log", log.name],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 30
        while line_count(log) < 15:
            assert proc.poll() is None, "the match ended before it could be interrupted"
            assert time.monotonic() < deadline, "the match made no progress"
            time.sleep(0.002)  # a polling interval, not a synchronisation
        bots = child_pids(proc.pid)
        proc.send_signal(signal.SIGINT)
        stdout, stderr = proc.communicate(timeout=TIMEOUT)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert len(bots) == 3, bots
    assert proc.returncode == 130, (stdout, stderr)
    assert "Traceback" not in stderr
    assert "interrupted" in stderr
    assert f"--resume {log.name}" in stderr
    # No bot is left running (each is the leader of its own process group).
    assert [pid for pid in bots if not group_gone(pid)] == []
    # Every line is a whole record; the deals so far are all there, in order.
    partial = records(log)
    assert log.read_bytes().endswith(b"\n")
    assert partial[0]["type"] == "match"
    done = len(partial) - 1
    assert 14 <= done < 150
    assert [r["deal"] for r in partial[1:]] == list(range(1, done + 1))
    assert re.search(rf"\b{done} deals in ", stdout), stdout

    resumed = ok(zole("match", "--resume", log.name, cwd=tmp_path))
    assert f"{done} of 150 deals already played" in resumed.stdout + resumed.stderr
    final = records(log)
    assert len(final) == 151
    assert final[0] == partial[0]  # the header is kept, not written again
    assert [normalised(r) for r in final] == [normalised(r) for r in whole.records]
    assert len({r["match_id"] for r in final}) == 1
    ok(zole("verify", log.name, cwd=tmp_path))


# -- 4. damaged and foreign logs ----------------------------------------------------------------


def test_truncated_last_line_is_reported_and_skipped(played: Played, tmp_path: Path) -> None:
    log = tmp_path / "cut.jsonl"
    data = played.log.read_bytes()
    last_start = data.rstrip(b"\n").rfind(b"\n") + 1
    cut = last_start + (len(data) - last_start) // 2
    log.write_bytes(data[:cut])
    lines = len(played.records)  # the truncated line's number
    proc = zole("verify", log.name, cwd=tmp_path)
    # verify_command: skipped lines are warnings; only records that disagree make it exit 1.
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    assert f"cut.jsonl:{lines}:" in proc.stderr and "truncated" in proc.stderr
    assert "5 of 5 deals verify" in proc.stdout

    proc = ok(zole("replay", log.name, cwd=tmp_path))
    assert f"cut.jsonl:{lines}:" in proc.stderr
    assert sorted(deal_blocks(proc.stdout)) == list(range(1, 6))

    # --resume after such a crash plays the lost deal again; the result verifies.
    proc = ok(zole("match", "--resume", log.name, cwd=tmp_path))
    assert "5 of 6 deals already played" in proc.stdout
    proc = ok(zole("verify", log.name, cwd=tmp_path))
    assert "6 of 6 deals verify" in proc.stdout
    assert f"cut.jsonl:{lines}:" in proc.stderr  # the broken line is still reported
    deals = []
    for line in log.read_text().splitlines()[1:]:
        with contextlib.suppress(json.JSONDecodeError):
            deals.append(json.loads(line))
    assert [normalised(r) for r in deals[-6:]] == [normalised(r) for r in played.deals]


def test_resume_from_another_folder_runs_the_bots_where_they_ran(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    shutil.copy(RANDOM_BOT, home / "mybot.py")  # named by a path relative to its folder
    # (run by the interpreter that has the library: the copy is a bot on its bot class)
    args = [f"mine={PY} mybot.py", "random", "rulebot", "--deals", "6", "--seed", "5"]
    ok(zole("match", *args, "--log", "m.jsonl", cwd=home))
    log = home / "m.jsonl"
    lines = log.read_text().splitlines(keepends=True)
    log.write_text("".join(lines[:4]))  # as if stopped after deal 3
    proc = ok(zole("match", "--resume", "home/m.jsonl", cwd=tmp_path))
    assert "3 of 6 deals already played" in proc.stdout
    assert len(records(log)) == 7
    ok(zole("verify", "home/m.jsonl", cwd=tmp_path))
    # A folder that is gone is named in one line.
    shutil.move(home, tmp_path / "moved")
    (tmp_path / "moved" / "m.jsonl").write_text("".join(lines[:4]))
    one_line_error(zole("match", "--resume", "moved/m.jsonl", cwd=tmp_path),
                   f"folder {home} does not exist any more")  # fmt: skip


def test_resume_warns_of_a_line_it_cannot_read(played: Played, tmp_path: Path) -> None:
    log = tmp_path / "g.jsonl"
    lines = played.log.read_text().splitlines(keepends=True)
    log.write_text("".join(lines[:4]) + "garbage\n")  # the header, deals 1-3, a bad line
    proc = ok(zole("match", "--resume", log.name, cwd=tmp_path))
    assert "warning: g.jsonl:5: not a zole-arena record: skipped" in proc.stderr
    assert "3 of 6 deals already played" in proc.stdout


def _play_move_index(record: dict[str, Any]) -> int:
    return next(i for i, m in enumerate(record["moves"]) if CARD_RE.match(m["action"]))


def _swap_trick_cards(record: dict[str, Any]) -> None:
    cards = record["tricks"][0]["cards"]
    cards[0], cards[1] = cards[1], cards[0]


def _wrong_trick_winner(record: dict[str, Any]) -> None:
    trick = record["tricks"][0]
    trick["winner"], trick["points"] = (trick["winner"] + 1) % 3, 99


def _forfeit_said(record: dict[str, Any]) -> None:
    record["termination"] = "forfeit"


def _impostor(record: dict[str, Any]) -> None:
    record["players"][0]["name"] = "impostor"


@pytest.mark.parametrize(
    ("edit", "said"),
    [
        (_swap_trick_cards, "deal 3: trick 1: the log says"),
        (_wrong_trick_winner, "deal 3: trick 1: the log says"),
        (_forfeit_said, "deal 3: termination: the log says 'forfeit', the rules give 'normal'"),
        (_impostor, "deal 3: players: the record seats ['impostor'"),
    ],
)
def test_verify_checks_what_replay_shows_without_replaying(
    played: Played, tmp_path: Path, edit: Any, said: str
) -> None:
    # The trick list, the termination and the players are what replay and readers take from a
    # record as it stands: each must agree with the moves (or the header).
    log_records = json.loads(json.dumps(played.records))
    edit(log_records[3])
    log = tmp_path / "edited.jsonl"
    log.write_text("".join(json.dumps(r) + "\n" for r in log_records))
    proc = zole("verify", log.name, cwd=tmp_path)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert said in proc.stdout, proc.stdout
    assert "5 of 6 deals verify" in proc.stdout


def test_verify_checks_records_against_their_header_and_order(
    played: Played, tmp_path: Path
) -> None:
    log_records = json.loads(json.dumps(played.records))
    log_records[0]["seed"] += 1  # the header's seed, which --resume deals from
    log_records.insert(3, log_records[2])  # deal 2 twice
    log = tmp_path / "edited.jsonl"
    log.write_text("".join(json.dumps(r) + "\n" for r in log_records))
    proc = zole("verify", log.name, cwd=tmp_path)
    assert proc.returncode == 1
    assert "deal 1: seed: the record says" in proc.stdout
    assert "deal 2: deal number 2 follows deal 2 of its match" in proc.stdout


@pytest.mark.parametrize("edit", ["card", "score"])
def test_edited_record_is_listed_by_verify(played: Played, tmp_path: Path, edit: str) -> None:
    log_records = [dict(r) for r in played.records]
    number = 3
    record = json.loads(json.dumps(log_records[number]))
    if edit == "card":
        index = _play_move_index(record)
        seat = record["moves"][index]["seat"]
        stranger = record["hands"][(seat + 1) % 3][0]  # a card this seat does not hold
        record["moves"][index]["action"] = stranger
    else:
        scores = record["result"]["scores"]
        record["result"]["scores"] = [scores[0] + 1, scores[1] - 1, scores[2]]
    log_records[number] = record
    log = tmp_path / "edited.jsonl"
    log.write_text("".join(json.dumps(r) + "\n" for r in log_records))

    proc = zole("verify", log.name, cwd=tmp_path)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    listed = {int(n) for n in re.findall(r"edited\.jsonl: deal (\d+):", proc.stdout)}
    assert listed == {number}, proc.stdout
    assert "5 of 6 deals verify" in proc.stdout
    if edit == "card":
        assert "move" in proc.stdout
    else:
        assert "scores" in proc.stdout

    # replay still shows the deal, and says it does not verify.
    proc = ok(zole("replay", log.name, "--deal", str(number), cwd=tmp_path))
    assert "does not verify" in proc.stdout


FOREIGN: dict[str, bytes | None] = {
    "text": b"hello, world\nthis is not a log\n",
    "json-object": b'{"name": "something else", "value": 1}\n',
    "empty": b"",
    "missing": None,
}


def _foreign(tmp_path: Path, kind: str) -> str:
    if kind == "directory":
        (tmp_path / "a-folder").mkdir()
        return "a-folder"
    name = f"{kind}.jsonl"
    content = FOREIGN[kind]
    if content is not None:
        (tmp_path / name).write_bytes(content)
    return name


@pytest.mark.parametrize("command", ["verify", "replay"])
@pytest.mark.parametrize("kind", [*FOREIGN, "directory"])
def test_foreign_file_gives_a_one_line_error(tmp_path: Path, command: str, kind: str) -> None:
    name = _foreign(tmp_path, kind)
    proc = zole(command, name, cwd=tmp_path)
    assert_one_line_error(proc, name)
    assert proc.stdout == ""


def test_replay_of_a_malformed_record_gives_a_one_line_error(tmp_path: Path) -> None:
    (tmp_path / "bad.jsonl").write_text(
        '{"format": "zole-arena", "format_version": 1, "type": "deal", "deal": 1}\n'
    )
    proc = zole("verify", "bad.jsonl", cwd=tmp_path)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    proc = zole("replay", "bad.jsonl", cwd=tmp_path)
    assert "Traceback" not in proc.stderr, proc.stderr[-300:]
    assert proc.returncode != 0


def test_resume_of_a_log_of_another_format_version(tmp_path: Path) -> None:
    (tmp_path / "v3.jsonl").write_text(
        '{"format": "zole-arena", "format_version": 3, "type": "match"}\n'
    )
    proc = zole("match", "--resume", "v3.jsonl", cwd=tmp_path)
    assert "Traceback" not in proc.stderr, proc.stderr[-300:]
    assert proc.returncode != 0


# -- 5. faulting bots ---------------------------------------------------------------------------


@needs_cc
@pytest.mark.parametrize(
    ("bot", "kind"), [("illegal_card.py", "illegal"), ("crash_mid_deal.py", "crash")]
)
def test_forfeited_deal_is_recorded_with_its_culprit(tmp_path: Path, bot: str, kind: str) -> None:
    bad = f"bad={PY} {FAULT_BOTS / bot}"
    result = play(
        tmp_path, "rulebot", bad, "cbot", "--deals", "3", "--seed", "4", "--rules", "wpt",
        "--max-faults", "10", "--json",
    )  # fmt: skip
    assert len(result.deals) == 3
    forfeits = [r for r in result.deals if r["termination"] == "forfeit"]
    assert forfeits, "the bad bot made no fault"
    for record in forfeits:
        culprit = record["culprit"]
        assert culprit is not None
        assert culprit.keys() >= FAULT_KEYS
        assert culprit["seat"] == 1 and culprit["player"] == 1 and culprit["bot"] == "bad"
        assert culprit["kind"] == kind
        assert culprit["request"].startswith("go id ")
        if kind == "illegal":
            # The offending line itself, answering the request it was asked.
            request_id = culprit["request"].split()[2]
            assert re.fullmatch(rf"action {request_id} [AKQJT987][CSHD]", culprit["reply"])
        else:
            assert culprit["reply"] is None
        assert culprit in record["faults"]
        assert record["result"]["forfeit"] == 1
        # wpt: the culprit pays the largest loss (7) to each opponent.
        assert record["result"]["scores"] == [7, -14, 7]
    ok(zole("verify", "match.jsonl", cwd=tmp_path))
    assert result.summary is not None
    faults = sum(len(r["faults"]) for r in result.deals)
    assert [p["faults"] for p in result.summary["players"]] == [0, faults, 0]
    assert len(result.summary["faults"]) == faults
    assert sum(p["points"] for p in result.summary["players"]) == 0
    proc = ok(zole("replay", "match.jsonl", "--deal", str(forfeits[0]["deal"]), cwd=tmp_path))
    assert "forfeit" in proc.stdout and kind in proc.stdout
    # The cards played to the trick the fault stopped are shown, for context.
    record = forfeits[0]
    played = [m["action"] for m in record["moves"] if CARD_RE.match(m["action"])]
    on_table = len(played) - 3 * len(record["tricks"])
    unfinished = [line for line in proc.stdout.splitlines() if line.endswith("(unfinished)")]
    assert len(unfinished) == (1 if on_table else 0), proc.stdout
    if on_table:
        assert unfinished[0].count(":") == on_table


@needs_cc
def test_faults_show_in_the_results_table(tmp_path: Path) -> None:
    bad = f"bad={PY} {FAULT_BOTS / 'illegal_card.py'}"
    result = play(
        tmp_path, "rulebot", bad, "cbot", "--deals", "2", "--seed", "4", "--max-faults", "10"
    )
    out = result.proc.stdout
    row = next(line for line in out.splitlines() if re.match(r"^\s*bad\s", line))
    assert row.split()[-1] == "2"  # the last column: faults
    assert len(re.findall(r"^fault .*bad.*illegal", out, re.M)) == 2


@needs_cc
def test_on_fault_random_plays_on_and_records_the_faults(tmp_path: Path) -> None:
    bad = f"bad={PY} {FAULT_BOTS / 'illegal_card.py'}"
    result = play(
        tmp_path, "rulebot", bad, "cbot", "--deals", "3", "--seed", "4", "--max-faults", "100",
        "--on-fault", "random", "--json",
    )  # fmt: skip
    assert result.header["settings"]["on_fault"] == "random"
    assert len(result.deals) == 3
    for record in result.deals:
        assert record["termination"] == "normal"
        assert record["culprit"] is None and record["result"]["forfeit"] is None
        assert record["faults"] and all(f["kind"] == "illegal" for f in record["faults"])
        substituted = [m for m in record["moves"] if m["request_id"] is None]
        assert len(substituted) == len(record["faults"])
        assert all(m["seat"] == 1 for m in substituted)
    ok(zole("verify", "match.jsonl", cwd=tmp_path))
    assert result.summary is not None
    assert result.summary["stopped"] is None
    total = sum(len(r["faults"]) for r in result.deals)
    assert [p["faults"] for p in result.summary["players"]] == [0, total, 0]


@needs_cc
def test_exceeding_max_faults_stops_the_match_with_exit_3(tmp_path: Path) -> None:
    bad = f"bad={PY} {FAULT_BOTS / 'illegal_card.py'}"
    proc = zole(
        "match", "rulebot", bad, "cbot", "--deals", "6", "--seed", "4", "--max-faults", "1",
        *FAST, "--log", "match.jsonl", cwd=tmp_path,
    )  # fmt: skip
    assert proc.returncode == 3, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    assert "disqualified" in proc.stderr and "bad" in proc.stderr
    log = records(tmp_path / "match.jsonl")
    assert 1 <= len(log) - 1 < 6
    ok(zole("verify", "match.jsonl", cwd=tmp_path))
    proc = zole("match", "rulebot", bad, "cbot", "--deals", "6", "--seed", "4",
                "--max-faults", "1", *FAST, "--json", cwd=tmp_path)  # fmt: skip
    assert proc.returncode == 3
    summary = json.loads(proc.stdout)
    assert summary["stopped"].startswith("disqualified")
    assert summary["disqualified"] == ["bad"]
    assert summary["deals"] < summary["planned"] == 6


# -- 6. bad arguments ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def complete_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("complete")
    play(folder, "rulebot", "rulebot", "random", "--deals", "1", "--seed", "2")
    return folder / "match.jsonl"


BAD_ARGUMENTS = {
    "two-bots": (["rulebot", "rulebot"], "3 bots"),
    "no-such-bot": (["rulebot", "rulebot", "/nonexistent/bot", "--deals", "1"], "/nonexistent"),
    "games-and-deals": (
        ["rulebot", "rulebot", "random", "--games", "1", "--deals", "3"],
        "--games",
    ),
    "negative-seed": (["rulebot", "rulebot", "random", "--seed", "-1"], "--seed"),
    "no-such-rules": (["rulebot", "rulebot", "random", "--rules", "nosuch"], "nosuch"),
    "on-fault-maybe": (["rulebot", "rulebot", "random", "--on-fault", "maybe"], "maybe"),
    "zero-deals": (["rulebot", "rulebot", "random", "--deals", "0"], "deal"),
    "resume-complete": (["--resume", "LOG"], "complete"),
    "resume-with-bots": (["rulebot", "rulebot", "random", "--resume", "LOG"], "--resume"),
}


@pytest.mark.parametrize("case", list(BAD_ARGUMENTS))
def test_bad_arguments_give_a_one_line_error(complete_log: Path, tmp_path: Path, case: str) -> None:
    args, needle = BAD_ARGUMENTS[case]
    log = tmp_path / "complete.jsonl"
    shutil.copy(complete_log, log)
    before = log.read_bytes()
    args = [log.name if a == "LOG" else a for a in args]
    assert_one_line_error(zole("match", *args, cwd=tmp_path), needle)
    assert log.read_bytes() == before


# -- pinning to a CPU ---------------------------------------------------------------------------

CPUS_BOT = TESTS / "helper_bots" / "cpus_bot.py"
CPUS = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []


@pytest.mark.skipif(len(CPUS) < 2, reason="needs Linux and two CPUs to choose from")
def test_cpu_pins_the_arena_and_every_bot(tmp_path: Path) -> None:
    cpu = CPUS[-1]
    bots = [f"p{i}={PY} {CPUS_BOT}" for i in range(3)]
    ok(zole("match", *bots, "--deals", "2", "--cpu", str(cpu), "--log", "m.jsonl", cwd=tmp_path))
    for name in ("p0", "p1", "p2"):
        said = (tmp_path / f"m.jsonl.{name}.stderr").read_text().split()
        assert said[:2] == ["cpus", str(cpu)]  # that CPU only
    # Without --cpu the bots may run anywhere this process may.
    ok(zole("match", *bots, "--deals", "1", "--log", "free.jsonl", cwd=tmp_path))
    said = (tmp_path / "free.jsonl.p0.stderr").read_text().split()
    assert said[:2] == ["cpus", ",".join(map(str, CPUS))]


@pytest.mark.skipif(not CPUS, reason="pinning is for Linux")
def test_cpu_that_is_not_available_is_a_one_line_error(tmp_path: Path) -> None:
    missing = max(CPUS) + 1
    proc = zole("match", "random", "random", "random", "--cpu", str(missing), cwd=tmp_path)
    assert_one_line_error(proc, f"CPU {missing} is not available")
    assert not list(tmp_path.iterdir())  # nothing was started or written


def test_long_similar_names_stay_distinct_in_the_results_table(tmp_path: Path) -> None:
    long, eps = "rulebot-with-a-really-long-name", "rulebot-with-a-really-long-name-eps10"
    proc = ok(run_zole("match", f"{long}=rulebot", f"{eps}=rulebot", "random", "--deals", "1",
                       *FAST, cwd=tmp_path, timeout=TIMEOUT,
                       env={**os.environ, "COLUMNS": "80"}))  # fmt: skip
    text = proc.stdout.splitlines()
    rows = [line for line in text if line.lstrip().startswith(("rul", "random"))]
    assert len(rows) == 3, proc.stdout  # one line each: no column squeezed to wrap
    assert all(len(row) <= 80 for row in rows), rows
    shown = {row.split()[0] for row in rows} - {"random"}
    assert all(row.split()[1].lstrip("+-").isdigit() for row in rows), rows
    assert len(shown) == 2 and all("…" in name for name in shown), rows
    assert any(name.endswith("-eps10") for name in shown)
