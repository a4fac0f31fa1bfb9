"""Game clocks (``--tc BASE+INC``): with real bots that use the clock, overrun it and ignore it;
the ``go`` fields, the records' clocks (recomputed by ``verify``), replay and the results."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from clihelp import PY, ok, one_line_error, zole

from zole_arena import Bot, BotConfig, BotView, Match, MatchSettings, bundled_command, load_rules
from zole_arena.game.clock import TimeControl, clock_after

HELPERS = Path(__file__).resolve().parent / "helper_bots"
CLOCK_BOT = HELPERS / "clock_bot.py"


def clock_bot(mode: str, notes: Path | None = None) -> str:
    return f"{PY} {CLOCK_BOT} {mode}" + ("" if notes is None else f" {notes}")


def deals_of(log: Path) -> list[dict[str, Any]]:
    return [r for r in map(json.loads, log.read_text().splitlines()) if r["type"] == "deal"]


def header_of(log: Path) -> dict[str, Any]:
    header: dict[str, Any] = json.loads(log.read_text().splitlines()[0])
    return header


# -- the time control ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "base", "inc"),
    [("10+0.1", 10_000, 100), ("60", 60_000, 0), ("0.5+0", 500, 0), (" 2 + 0.05 ", 2000, 50)],
)
def test_a_time_control_is_base_plus_increment_in_seconds(text: str, base: int, inc: int) -> None:
    tc = TimeControl.parse(text)
    assert (tc.base_ms, tc.inc_ms) == (base, inc)
    assert TimeControl.parse(str(tc)) == tc


@pytest.mark.parametrize("text", ["", "x", "1+", "+1", "-1", "0", "0.0001", "1+0.0005", "90000"])
def test_a_bad_time_control_says_what_is_wanted(text: str) -> None:
    with pytest.raises(ValueError, match="time control"):
        TimeControl.parse(text)


def test_a_bot_that_keeps_to_its_shares_never_runs_out() -> None:
    """Whatever it saves or spends up to its share, the clock is never gone before the deal's
    last decision: a share is what is left spread over the decisions to come."""
    for tc in (TimeControl(1000, 0), TimeControl(300, 25), TimeControl(7, 1)):
        for used in (1.0, 0.5, 0.0):
            clock = tc.base_ms
            for left in range(10, 0, -1):
                share = tc.share(clock, left)
                assert 1 <= share <= max(clock, 1)
                think = used * share
                assert think <= clock  # within the clock, margin or not
                clock = clock_after(clock, think, tc.inc_ms)
                assert clock >= tc.inc_ms


# -- the command line ------------------------------------------------------------------------


def test_tc_and_movetime_are_one_choice(tmp_path: Path) -> None:
    one_line_error(
        zole("match", "crandom", "crandom", "crandom", "--tc", "1+0.1", "--movetime", "50",
             cwd=tmp_path),
        "--tc and --movetime", "not both",
    )  # fmt: skip
    one_line_error(zole("match", "crandom", "crandom", "crandom", "--tc", "1+x", cwd=tmp_path),
                   "--tc is '1+x'", "BASE+INC")  # fmt: skip
    config = tmp_path / "both.toml"
    bots = '[[bots]]\ncommand = "crandom"\n' * 3
    config.write_text(f'tc = "1+0.1"\nmovetime = 50\n{bots}')
    one_line_error(zole("tournament", "--config", str(config), cwd=tmp_path), "not both")
    config.write_text(f'tc = "soon"\n{bots}')
    one_line_error(zole("tournament", "--config", str(config), cwd=tmp_path), "tc")


def test_check_clocks_a_huge_movetime_at_the_longest_clock(tmp_path: Path) -> None:
    proc = ok(zole("check", "crandom", "--movetime", "100000000", cwd=tmp_path))
    assert "under a game clock of 86400+5000 s" in proc.stdout


def test_a_tournament_config_sets_the_clock(tmp_path: Path) -> None:
    config = tmp_path / "clock.toml"
    bots = '[[bots]]\ncommand = "crandom"\n' * 3
    config.write_text(f'tc = "0.5+0.01"\nblocks = 1\nsandbox = false\n{bots}')
    proc = ok(zole("tournament", "--config", str(config), "--log", "t.jsonl", "--seed", "3",
                   cwd=tmp_path))  # fmt: skip
    assert "clock 0.5+0.01 s per seat and deal" in proc.stdout
    log = tmp_path / "t.jsonl"
    assert header_of(log)["settings"]["tc"] == {"base_ms": 500, "inc_ms": 10}
    deals = deals_of(log)
    assert len(deals) == 6 and all("clock_ms" in m for d in deals for m in d["moves"])
    assert re.search(r"ms per decision, mean/longest: (\S+ \d+/\d+, ){2}\S+ \d+/\d+", proc.stdout)
    assert re.search(r"the least left on a clock after a move: \S+ [\d.]+ s", proc.stdout)
    # The standings count each bot's decisions and least clock, from the log as live.
    standings = json.loads(ok(zole("standings", "t.jsonl", "--json", cwd=tmp_path)).stdout)
    for entry in standings["standings"]:
        decided = [m for d in deals for m in d["moves"] if m.get("request_id") is not None
                   and d["players"][m["seat"]]["name"] == entry["name"]]  # fmt: skip
        assert entry["time"]["decisions"] == len(decided) > 0
        assert entry["time"]["clock_low_ms"] == min(m["clock_ms"] for m in decided)


# -- real bots under a clock -----------------------------------------------------------------


def test_a_bot_that_spends_its_shares_uses_the_clock_and_never_flags(tmp_path: Path) -> None:
    notes = tmp_path / "go.txt"
    log = tmp_path / "m.jsonl"
    proc = ok(zole("match", clock_bot("share", notes), "crandom", "crandom", "--tc", "0.4+0.02",
                   "--deals", "3", "--seed", "8", "--log", str(log), cwd=tmp_path))  # fmt: skip
    assert "clock 0.4+0.02 s per seat and deal" in proc.stdout
    assert re.search(r"ms per decision, mean/longest: \S+ \d+/\d+", proc.stdout)
    assert re.search(r"the least left on a clock after a move: \S+ [\d.]+ s", proc.stdout)
    deals = deals_of(log)
    assert all(not d["faults"] for d in deals)
    # Every go carried the clock and the increment; time was a fair share, never above it.
    gos = [line.split() for line in notes.read_text().splitlines()]
    assert gos and all(g[2] != "-" and g[3] == "20" for g in gos)
    assert all(1 <= int(g[1]) <= int(g[2]) for g in gos)
    assert any(int(g[1]) < int(g[2]) for g in gos)  # a share, not the whole clock
    # Each record carries each move's clock, as its think time leaves it.
    for deal in deals:
        clocks = [400, 400, 400]
        for move in deal["moves"]:
            expected = clock_after(clocks[move["seat"]], move["think_ms"], 20)
            assert move["clock_ms"] == expected
            clocks[move["seat"]] = expected
        spent = sum(m["think_ms"] for m in deal["moves"] if m["seat"] == 0)  # its seat
        assert spent > 200  # it really thought: most of its 0.4 s and increments
    ok(zole("verify", str(log), cwd=tmp_path))
    shown = ok(zole("replay", str(log), "--deal", "1", cwd=tmp_path)).stdout
    assert re.search(r"time: A [\d.]+ (ms|s) in \d+ decisions .* left on the clock", shown)


def test_the_clock_not_the_share_is_the_limit_and_running_out_is_a_timeout(
    tmp_path: Path,
) -> None:
    """60% of the clock is far over the share (a tenth or so): the first decision stands;
    the second needs 60% of what is left, more than the 40% there is: a timeout fault."""
    log = tmp_path / "m.jsonl"
    proc = zole("match", clock_bot("clock"), "crandom", "crandom", "--tc", "1", "--deals", "1",
                "--seed", "2", "--timemargin", "50", "--log", str(log), cwd=tmp_path)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    (deal,) = deals_of(log)
    fault = deal["culprit"]
    assert fault is not None and fault["kind"] == "timeout", deal["faults"]
    assert "its clock ran out" in fault["message"]
    assert fault["request"].split()[-4::2] == ["clock", "inc"]
    first = next(m for m in deal["moves"] if m["seat"] == fault["seat"])
    assert first["think_ms"] > 500  # more than any share of a 1 s clock, and allowed
    assert first["clock_ms"] == clock_after(1000, first["think_ms"], 0)
    ok(zole("verify", str(log), cwd=tmp_path))


def test_after_a_flag_a_substitute_move_gains_only_the_increment(tmp_path: Path) -> None:
    log = tmp_path / "m.jsonl"
    ok(zole("match", clock_bot("clock"), "crandom", "crandom", "--tc", "1+0.05", "--deals", "1",
            "--seed", "2", "--timemargin", "50", "--on-fault", "random", "--log", str(log),
            cwd=tmp_path))  # fmt: skip
    (deal,) = deals_of(log)
    assert deal["faults"] and deal["faults"][0]["kind"] == "timeout"
    substituted = [m for m in deal["moves"] if m["request_id"] is None]
    assert substituted and substituted[0]["clock_ms"] == 50
    ok(zole("verify", str(log), cwd=tmp_path))


def test_a_bot_that_answers_at_once_never_flags_on_a_tiny_clock(tmp_path: Path) -> None:
    log = tmp_path / "m.jsonl"
    proc = ok(zole("match", clock_bot("instant"), "crandom", "crandom", "--tc", "0.05",
                   "--deals", "30", "--seed", "4", "--log", str(log), "--json",
                   cwd=tmp_path))  # fmt: skip
    summary = json.loads(proc.stdout)
    assert all(p["faults"] == 0 for p in summary["players"])
    assert all(0 < p["time"]["clock_low_ms"] <= 50 for p in summary["players"])
    assert all(not d["faults"] for d in deals_of(log))


def test_logs_without_a_clock_have_no_clock_fields(tmp_path: Path) -> None:
    log = tmp_path / "m.jsonl"
    ok(zole("match", "crandom", "crandom", "crandom", "--deals", "2", "--log", str(log),
            cwd=tmp_path))  # fmt: skip
    assert "tc" not in header_of(log)["settings"]
    assert all("clock_ms" not in m for d in deals_of(log) for m in d["moves"])
    shown = ok(zole("replay", str(log), cwd=tmp_path)).stdout
    assert "left on the clock" not in shown and "time:" not in shown
    timed = ok(zole("replay", str(log), "--times", cwd=tmp_path)).stdout
    assert re.search(r"time: A [\d.]+ ms in \d+ decisions? \(longest", timed)


def test_cpu_spent_thinking_in_its_turns_is_not_held_against_a_bot(tmp_path: Path) -> None:
    """The CPU limit (1 s here) is on top of the time a bot is given: one that computes for
    most of each decision's time, some 2 s of CPU in all, is never killed for it."""
    log = tmp_path / "m.jsonl"
    proc = ok(zole("match", clock_bot("burn"), "crandom", "crandom", "--movetime", "100",
                   "--deals", "3", "--max-cpu-s", "1", "--seed", "3", "--log", str(log), "--json",
                   cwd=tmp_path))  # fmt: skip
    summary = json.loads(proc.stdout)
    burner = summary["players"][0]
    assert burner["faults"] == 0 and burner["time"]["think_ms"] > 1500, burner


# -- records ---------------------------------------------------------------------------------


def _rewrite(log: Path, out: Path, edit: Any) -> None:
    """The log with one deal record edited and the hash chain made whole again, as a forger
    who knows the format would."""
    import hashlib

    lines = log.read_text().splitlines()
    records = [json.loads(line) for line in lines]
    edit(records)
    prev, written = None, []
    for record in records:
        record["prev"] = prev
        line = json.dumps(record, separators=(",", ":"), ensure_ascii=False)
        written.append(line)
        prev = hashlib.sha256(line.encode()).hexdigest()
    out.write_text("\n".join(written) + "\n")


def test_verify_recomputes_every_clock(tmp_path: Path) -> None:
    log = tmp_path / "m.jsonl"
    ok(zole("match", "crandom", "cbot", "crandom", "--tc", "2+0.1", "--deals", "2", "--seed", "6",
            "--log", str(log), cwd=tmp_path))  # fmt: skip
    ok(zole("verify", str(log), cwd=tmp_path))

    def more_time(records: list[dict[str, Any]]) -> None:
        records[1]["moves"][3]["clock_ms"] += 500

    def slower(records: list[dict[str, Any]]) -> None:
        records[1]["moves"][2]["think_ms"] = 9000.0

    def no_clock(records: list[dict[str, Any]]) -> None:
        del records[2]["moves"][0]["clock_ms"]

    for edit, needle in ((more_time, "clock: move 4 leaves"), (slower, "clock: move 3 took 9000"),
                         (no_clock, "clock: move 1 has none")):  # fmt: skip
        forged = tmp_path / f"{edit.__name__}.jsonl"
        _rewrite(log, forged, edit)
        proc = zole("verify", str(forged), cwd=tmp_path)
        assert proc.returncode == 1 and needle in proc.stdout, proc.stdout


def test_a_bad_tc_in_a_header_is_reported(tmp_path: Path) -> None:
    log = tmp_path / "m.jsonl"
    ok(zole("match", "crandom", "crandom", "crandom", "--tc", "1", "--deals", "1",
            "--log", str(log), cwd=tmp_path))  # fmt: skip

    def bad(records: list[dict[str, Any]]) -> None:
        records[0]["settings"]["tc"] = {"base_ms": -5, "inc_ms": 0}

    forged = tmp_path / "bad.jsonl"
    _rewrite(log, forged, bad)
    proc = zole("verify", str(forged), cwd=tmp_path)
    assert proc.returncode == 1 and "settings.tc" in proc.stdout, proc.stdout


# -- the library -----------------------------------------------------------------------------


class _Watcher(Bot):
    """Notes what each view says about the time."""

    name = "Watcher"

    def __init__(self) -> None:
        self.seen: list[tuple[int, int | None, int | None]] = []

    def decide(self, view: BotView) -> Any:
        self.seen.append((view.time_ms, view.clock_ms, view.inc_ms))
        return view.legal_actions[0]


def test_a_python_bot_sees_its_clock_in_the_view() -> None:
    watcher = _Watcher()
    settings = MatchSettings(load_rules("wpt"), seed=5, deals=2, tc=TimeControl(3000, 30))
    crandom = BotConfig(bundled_command("crandom"))
    players = [BotConfig.in_process(watcher), crandom, crandom]
    summary = Match(players, settings).run()
    assert summary.deals == 2
    assert watcher.seen and all(c is not None and i == 30 for _, c, i in watcher.seen)
    assert all(t <= c for t, c, _ in watcher.seen if c is not None)
    # Its first decision has the whole clock, and a share of it for a bid (up to ten
    # decisions to come: bid, bury, eight cards) or, the bidding over, a card (eight).
    assert watcher.seen[0][1] == 3000 and watcher.seen[0][0] in (3000 // 10 + 30, 3000 // 8 + 30)
    assert summary.players[0].clock_low_ms is not None
