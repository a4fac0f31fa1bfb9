"""End-to-end tests of ``zole-arena tournament``: formats, parallel tables, config, resume.

Every test runs the real command line in a temporary folder with real bot processes: the
bundled ``rulebot`` and ``cbot`` (deterministic), ``random``/``crandom`` and the misbehaving bots
of ``tests/fault_bots/``. Tables are kept to a block or two so that each test takes seconds.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from clihelp import ok, one_line_error, together
from clihelp import zole as run_zole
from prochelp import marked_processes

from zole_arena.cli.console import short_names
from zole_arena.events.schedule import tables_for

TESTS = Path(__file__).resolve().parent
FAULT_BOTS = TESTS / "fault_bots"
PY = sys.executable
TIMEOUT = 120
FAST = ("--movetime", "1000")

needs_cc = pytest.mark.skipif(
    not any(shutil.which(c) for c in (os.environ.get("CC") or "cc", "cc", "gcc", "clang")),
    reason="cbot and crandom need a C compiler",
)


def zole(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return run_zole(*args, cwd=cwd, timeout=TIMEOUT)


def lines(path: Path) -> list[dict[str, Any]]:
    """Every line of a log, each of which must be a whole JSON record."""
    return [json.loads(line) for line in path.read_text().splitlines()]


def deals_of(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [r for r in records if r["type"] == "deal"]


def comparable(record: dict[str, Any]) -> dict[str, Any]:
    """A deal record without what differs between two runs of the same tournament: ids and
    times, and the hash of the line before it (which holds them)."""
    data = dict(record)
    for key in ("match_id", "finished", "prev"):
        data.pop(key)
    # Request ids are random (no bot can guess another's): kept only as answered or not.
    data["moves"] = [
        {k: (v is not None if k == "request_id" else v) for k, v in m.items() if k != "think_ms"}
        for m in record["moves"]
    ]
    data["faults"] = [{k: v for k, v in f.items() if k != "message"} for f in record["faults"]]
    return data


def by_table(records: list[dict[str, Any]]) -> dict[tuple[int, int], dict[str, Any]]:
    """Deal records keyed by (table, deal), whatever order the parallel tables wrote them in."""
    tables = {r["match_id"]: r["tournament"]["table"] for r in records if r["type"] == "match"}
    return {(tables[r["match_id"]], r["deal"]): comparable(r) for r in deals_of(records)}


# -- the schedule ---------------------------------------------------------------------------------


def test_bots_given_as_commands_are_named_after_their_scripts(tmp_path: Path) -> None:
    shutil.copy(TESTS.parent / "bots" / "random_bot.py", tmp_path / "mybot.py")
    proc = ok(
        zole("tournament", "rulebot", f"{PY} mybot.py", f"{PY} -u ./mybot.py", "--blocks", "1",
             "--json", *FAST, cwd=tmp_path)
    )  # fmt: skip
    names = [s["name"] for s in json.loads(proc.stdout)["standings"]]
    assert sorted(names) == ["mybot", "mybot#2", "rulebot"]


def test_round_robin_has_every_table_of_three_once() -> None:
    tables = tables_for("round-robin", 6)
    assert len(tables) == 20
    assert sorted(tuple(sorted(t.players)) for t in tables) == sorted(
        {tuple(sorted(t.players)) for t in tables}
    )
    assert [t.number for t in tables] == list(range(1, 21))


def test_round_robin_order_spreads_the_bots() -> None:
    # After every table, no bot has sat at more than two tables more than another.
    seated = [0] * 6
    for table in tables_for("round-robin", 6):
        for player in table.players:
            seated[player] += 1
        assert max(seated) - min(seated) <= 2, seated


def test_gauntlet_puts_its_bot_at_every_table() -> None:
    tables = tables_for("gauntlet", 5, gauntlet=2)
    assert len(tables) == 6  # pairs of the 4 others
    assert all(t.players[0] == 2 for t in tables)
    assert sorted(tuple(sorted(t.players[1:])) for t in tables) == [
        (0, 1), (0, 3), (0, 4), (1, 3), (1, 4), (3, 4)
    ]  # fmt: skip


# -- playing --------------------------------------------------------------------------------------


@needs_cc
def test_round_robin_in_parallel_logs_verifies_and_rates(tmp_path: Path) -> None:
    proc = ok(
        zole(
            "tournament", "rulebot", "random", "cbot", "crandom", "--blocks", "2", "--duplicate",
            "--seed", "7", "--concurrency", "2", "--log", "t.jsonl", "--json", *FAST,
            cwd=tmp_path,
        )
    )  # fmt: skip
    summary = json.loads(proc.stdout)
    assert summary["deals"] == summary["planned"] == 4 * 12
    assert summary["stopped"] is None
    # Sandboxed bots at duplicate tables: told once what that allows and what to use instead.
    assert proc.stderr.count("note: --duplicate with sandboxed bots") == 1
    assert "leave out --duplicate (a movement" in " ".join(proc.stderr.split())
    assert summary["format"] == "round-robin"
    assert [t["deals"] for t in summary["tables"]] == [12, 12, 12, 12]
    standings = summary["standings"]
    assert {s["name"] for s in standings} == {"rulebot", "random", "cbot", "crandom"}
    for entry in standings:
        assert entry["deals"] == 36  # 3 tables of 12 deals each
        # Two blocks, each at every table: two clusters of cards to resample.
        assert entry["low"] <= entry["elo"] <= entry["high"]
    elos = [s["elo"] for s in standings]
    assert elos == sorted(elos, reverse=True)
    assert abs(sum(elos)) < 0.5  # average 0
    assert sum(s["points"] for s in standings) == 0  # every deal is zero-sum
    h2h = summary["head_to_head"]
    assert h2h["rulebot"]["random"]["games"] > 0
    assert (
        h2h["rulebot"]["random"]["score"] + h2h["random"]["rulebot"]["score"]
        == (h2h["rulebot"]["random"]["games"])
    )

    records = lines(tmp_path / "t.jsonl")
    header = records[0]
    assert header["type"] == "tournament"
    assert header["tournament_format"] == "round-robin"
    assert [e["name"] for e in header["entrants"]] == ["rulebot", "random", "cbot", "crandom"]
    matches = [r for r in records if r["type"] == "match"]
    assert len(matches) == 4
    for match in matches:
        table = match["tournament"]["table"]
        assert match["match_id"] == f"{header['tournament_id']}-t{table}"
        assert match["seed"] == 7 and match["duplicate"] is True
    # Every table dealt the same cards.
    hands = {}
    for deal in deals_of(records):
        hands.setdefault((deal["block"], tuple(deal["seating"])), set()).add(
            json.dumps(deal["hands"])
        )
    assert all(len(found) == 1 for found in hands.values())

    verify = ok(zole("verify", "t.jsonl", cwd=tmp_path))
    assert "48 of 48 deals verify" in verify.stdout
    rated = json.loads(ok(zole("ratings", "t.jsonl", "--json", cwd=tmp_path)).stdout)
    assert {r["name"] for r in rated["ratings"]} == {s["name"] for s in standings}
    assert [r["elo"] for r in rated["ratings"]] == elos
    replay = ok(zole("replay", "t.jsonl", "--deal", "1", cwd=tmp_path))
    # In the order the parallel tables finished them: each table's deal 1 once.
    shown = [line[:16] for line in replay.stdout.splitlines() if line.startswith("Table")]
    assert sorted(shown) == [f"Table {n}, deal 1 " for n in (1, 2, 3, 4)]
    one = ok(zole("replay", "t.jsonl", "--deal", "1", "--table", "3", cwd=tmp_path)).stdout
    assert one.count("Table ") == 1 and one.startswith("Table 3, deal 1 ")
    one_line_error(zole("replay", "t.jsonl", "--table", "5", cwd=tmp_path), "no table 5")


def test_a_one_block_tournament_shows_its_intervals_as_not_estimable(tmp_path: Path) -> None:
    """Three bots, one table, one block: one cluster to resample, so no interval and no LOS."""
    bots = ("rulebot", "random", f"other={PY} {TESTS.parent / 'bots' / 'random_bot.py'}")
    proc = ok(zole("tournament", *bots, "--blocks", "1", "--duplicate", "--seed", "3", "--json",
                   *FAST, cwd=tmp_path))  # fmt: skip
    standings = json.loads(proc.stdout)["standings"]
    assert len(standings) == 3
    for entry in standings:
        assert entry["low"] is None and entry["high"] is None and entry["los_next"] is None
        assert isinstance(entry["elo"], float)
    table = ok(zole("tournament", *bots, "--blocks", "1", "--duplicate", "--seed", "3", *FAST,
                    cwd=tmp_path)).stdout  # fmt: skip
    rows = [line.split() for line in table.splitlines() if line[:3] in (" 1 ", " 2 ", " 3 ")]
    assert sorted(row[1] for row in rows[:3]) == sorted(e["name"] for e in standings)
    for row in rows[:3]:
        assert row[3] == "n/a", row  # not "+153…+153"
    assert rows[0][4] == rows[1][4] == "n/a"  # the LOS of all but the last
    assert "n/a: not estimable from fewer than 2 clusters" in table


def test_long_similar_names_stay_distinct_in_80_columns(tmp_path: Path) -> None:
    long, eps = "rulebot-with-a-long-name", "rulebot-with-a-long-name-eps10"
    proc = ok(run_zole("tournament", f"{long}=rulebot", f"{eps}=rulebot", "random",
                       "--option", f"{eps}:Epsilon=10", "--blocks", "1", "--seed", "7", *FAST,
                       cwd=tmp_path, timeout=TIMEOUT,
                       env={**os.environ, "COLUMNS": "80"}))  # fmt: skip
    text = proc.stdout.splitlines()
    standings = [line for line in text if line[:3] in (" 1 ", " 2 ", " 3 ")]
    assert len(standings) == 3
    head = text.index(next(line for line in text if line.startswith("Head to head")))
    h2h = [line for line in text[head:] if line.startswith("  ")]
    for line in standings + h2h:
        assert len(line) <= 80, line
    shown = {row.split()[1] for row in standings} - {"random"}
    assert len(shown) == 2 and all("…" in name for name in shown), standings
    assert any(name.endswith("-eps10") for name in shown)
    # Each keeps its own beginning (at least three letters: short_names's promise), however
    # wide the numbers beside it are.
    for name in shown:
        start = name.split("…")[0]
        assert len(start) >= 3 and eps.startswith(start), name
    for row in standings:  # the other columns are not squeezed to make room
        assert row.split()[2].lstrip("+-").isdigit(), row
    header = next(line for line in h2h if "random" in line and "(" not in line)
    labels = {line.split()[0] for line in h2h if "(" in line} - {"random"}
    assert labels == set(header.split()) - {"random"}
    assert len(labels) == 2 and any(label.endswith("-eps10") for label in labels)


def test_short_names_keep_what_tells_them_apart() -> None:
    names = ["rulebot-with-a-long-name", "rulebot-with-a-long-name-eps10", "bot#2", "random"]
    shown = short_names(names, 12)
    assert shown["random"] == "random" and shown["bot#2"] == "bot#2"
    assert shown["rulebot-with-a-long-name-eps10"].endswith("…-eps10")
    assert len(set(shown.values())) == len(names)
    assert all(len(form) <= 12 for form in shown.values())
    numbered = short_names(["a-very-long-bot-name", "a-very-long-bot-name#2"], 10)
    assert numbered["a-very-long-bot-name#2"].endswith("…#2")
    assert len(set(numbered.values())) == 2
    # Names alike but in the middle (same start, same last part) get more of their ends.
    middle = short_names(["solver-alpha-x", "solver-betas-x"], 10)
    assert len(set(middle.values())) == 2 and all(len(v) <= 10 for v in middle.values())
    # When no short forms can tell them apart, the names are kept whole.
    assert short_names(["abcdefgh1abcdefgh", "abcdefgh2abcdefgh"], 7) == {
        "abcdefgh1abcdefgh": "abcdefgh1abcdefgh",
        "abcdefgh2abcdefgh": "abcdefgh2abcdefgh",
    }


@needs_cc
def test_concurrency_does_not_change_the_deals(tmp_path: Path) -> None:
    args = ("rulebot", "cbot", "rulebot", "cbot", "--blocks", "1", "--seed", "3", *FAST)
    for done in together(  # the two runs at once, each with its own concurrency
        lambda: zole("tournament", *args, "--log", "one.jsonl", "--concurrency", "1", cwd=tmp_path),
        lambda: zole("tournament", *args, "--log", "two.jsonl", "--concurrency", "2", cwd=tmp_path),
    ):
        ok(done)
    one = by_table(lines(tmp_path / "one.jsonl"))
    two = by_table(lines(tmp_path / "two.jsonl"))
    assert len(one) == 4 * 6
    assert one == two


def test_gauntlet_and_plain_deals(tmp_path: Path) -> None:
    proc = ok(
        zole(
            "tournament", "random", "rulebot", "random", "rulebot", "--gauntlet", "rulebot",
            "--no-duplicate", "--deals", "4", "--seed", "1", "--json", "--log", "g.jsonl",
            *FAST, cwd=tmp_path,
        )
    )  # fmt: skip
    summary = json.loads(proc.stdout)
    assert summary["format"] == "gauntlet"
    tables = summary["tables"]
    assert len(tables) == 3
    assert all(t["players"][0] == "rulebot" for t in tables)
    assert {name for t in tables for name in t["players"]} == {
        "random", "rulebot", "random#2", "rulebot#2"
    }  # fmt: skip
    assert summary["deals"] == 12
    gauntlet = next(s for s in summary["standings"] if s["name"] == "rulebot")
    assert gauntlet["deals"] == 12
    matches = [r for r in lines(tmp_path / "g.jsonl") if r["type"] == "match"]
    assert all(m["duplicate"] is False and m["deals"] == 4 for m in matches)


def test_config_file_with_overrides(tmp_path: Path) -> None:
    folder = tmp_path / "event"
    folder.mkdir()
    shutil.copy(TESTS.parent / "bots" / "random_bot.py", folder / "mine.py")
    (folder / "event.toml").write_text(
        'format = "round-robin"\n'
        "blocks = 5\n"
        "seed = 99\n"
        'rules = "lzf"\n'
        "movetime = 1000\n"
        'log = "results/event.jsonl"\n'
        "max-faults = 5\n"
        'on_fault = "random"\n'
        "timemargin = 50\n"
        "[[bots]]\n"
        'name = "careful"\n'
        'command = "rulebot"\n'
        'options = { Aggression = "20" }\n'
        "[[bots]]\n"
        'name = "bold"\n'
        'command = "rulebot"\n'
        'options = { Aggression = "90" }\n'
        "[[bots]]\n"
        'name = "mine"\n'
        f'command = "{PY} mine.py"\n'
    )
    # The command line wins over the file: one block, not five.
    proc = ok(
        zole("tournament", "--config", "event/event.toml", "--blocks", "1", "--json", cwd=tmp_path)
    )
    summary = json.loads(proc.stdout)
    assert summary["deals"] == 6
    log = folder / "results" / "event.jsonl"
    assert (tmp_path / summary["log"]).resolve() == log.resolve()
    records = lines(log)
    header = records[0]
    assert header["rules"]["preset"] == "lzf" and header["seed"] == 99
    assert header["settings"]["max_faults"] == 5 and header["settings"]["on_fault"] == "random"
    assert header["settings"]["margin_ms"] == 50 and header["settings"]["movetime_ms"] == 1000
    options = {e["name"]: e["options"] for e in header["entrants"]}
    assert options == {"careful": {"Aggression": "20"}, "bold": {"Aggression": "90"}, "mine": {}}
    match = next(r for r in records if r["type"] == "match")
    assert {p["name"]: p["options"] for p in match["players"]}["bold"] == {"Aggression": "90"}
    mine = next(e for e in header["entrants"] if e["name"] == "mine")
    assert mine["command"][0] == PY
    assert (tmp_path / mine["command"][1]).resolve() == (folder / "mine.py").resolve()


def test_interrupt_keeps_whole_records_and_resume_finishes_the_same(tmp_path: Path) -> None:
    # Deterministic bots (the bundled random bot is not seeded), so that the two runs agree.
    args = (
        "rulebot", "rulebot", "rulebot", "rulebot", "--option", "rulebot#2:Aggression=10",
        "--option", "rulebot#3:Aggression=90", "--option", "rulebot#4:Aggression=30",
        "--blocks", "3", "--seed", "5", *FAST,
    )  # fmt: skip
    mark = uuid.uuid4().hex
    env = dict(os.environ, ZOLE_TEST_RUN=mark)
    log = tmp_path / "cut.jsonl"

    def cut_short() -> tuple[int, str, str]:
        """The same tournament, interrupted after its 21st deal: exit code, stdout, stderr."""
        proc = subprocess.Popen(
            [PY, "-m", "zole_arena", "tournament", *args, "--log", str(log), "--concurrency", "2"],
            cwd=tmp_path,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            # The tournament prints "deal N/72, ..." after writing deal N: wait for the 21st.
            assert proc.stdout is not None
            seen = []
            for line in proc.stdout:
                seen.append(line)
                if line.startswith("deal ") and int(line.split()[1].split("/")[0]) > 20:
                    break
            else:
                pytest.fail(f"the tournament ended early: {seen} {proc.communicate()}")
            proc.send_signal(signal.SIGINT)
            stdout, stderr = proc.communicate(timeout=TIMEOUT)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        return proc.returncode, stdout, stderr

    # The whole tournament meanwhile, in a run of its own.
    with ThreadPoolExecutor(max_workers=1) as pool:
        whole_run = pool.submit(zole, "tournament", *args, "--log", "whole.jsonl",
                                "--concurrency", "2", cwd=tmp_path)  # fmt: skip
        returncode, stdout, stderr = cut_short()
    ok(whole_run.result())
    whole = by_table(lines(tmp_path / "whole.jsonl"))
    assert len(whole) == 4 * 18
    assert returncode == 130, stderr
    assert "Traceback" not in stderr
    assert "interrupted" in stderr and f"--resume {log}" in stderr
    assert "Standings after" in stdout
    assert marked_processes(mark) == []  # no worker, no bot left behind
    cut = lines(log)  # every line is a whole record
    played = len(deals_of(cut))
    assert 20 <= played < 4 * 18

    resumed = ok(zole("tournament", "--resume", log.name, "--json", cwd=tmp_path))
    assert json.loads(resumed.stdout)["deals"] == 4 * 18
    final = lines(log)
    assert [r["type"] for r in final].count("tournament") == 1
    assert by_table(final) == whole
    assert "72 of 72 deals verify" in ok(zole("verify", log.name, cwd=tmp_path)).stdout
    again = zole("tournament", "--resume", log.name, cwd=tmp_path)
    one_line_error(again, "already complete")


def test_a_bot_disqualified_at_one_table_does_not_stop_the_others(tmp_path: Path) -> None:
    illegal = f"cheat={PY} {FAULT_BOTS / 'illegal_card.py'}"
    proc = zole(
        "tournament", "rulebot", "random", illegal, "rulebot", "--blocks", "2",
        "--max-faults", "1", "--seed", "2", "--log", "d.jsonl", "--json", *FAST,
        cwd=tmp_path,
    )  # fmt: skip
    # The tournament plays on, and then says with its exit code that a bot was disqualified.
    assert proc.returncode == 3 and "Traceback" not in proc.stderr, proc.stderr
    summary = json.loads(proc.stdout)
    tables = {tuple(t["players"]): t for t in summary["tables"]}
    for players, table in tables.items():
        if "cheat" in players:
            assert table["stopped"].startswith("disqualified"), table
            assert table["deals"] < table["planned"]
        else:
            assert table["stopped"] is None and table["deals"] == table["planned"]
    cheat = next(s for s in summary["standings"] if s["name"] == "cheat")
    assert cheat["faults"] >= 2
    assert ok(zole("verify", "d.jsonl", cwd=tmp_path)).returncode == 0


def test_a_bot_that_cannot_start_is_caught_before_anything_is_logged(tmp_path: Path) -> None:
    dead = f"dead={PY} {FAULT_BOTS / 'exit_at_start.py'}"
    proc = zole(
        "tournament", "rulebot", "random", "rulebot", dead, "--blocks", "1",
        "--log", "x.jsonl", *FAST, cwd=tmp_path,
    )  # fmt: skip
    one_line_error(proc, "bot dead cannot play", "ended during the handshake", "not started")
    assert not (tmp_path / "x.jsonl").exists()


def test_a_bot_that_stops_starting_mid_tournament_stops_it_resumably(tmp_path: Path) -> None:
    # Starts once (the check before the tournament), then exits at every later start.
    flaky = tmp_path / "flaky.py"
    flaky.write_text(
        "import os, runpy, sys\n"
        f"marker = {str(tmp_path / 'started-once')!r}\n"
        "if os.path.exists(marker):\n"
        "    sys.exit(4)\n"
        "open(marker, 'w').close()\n"
        f"sys.argv = [{str(TESTS.parent / 'bots' / 'random_bot.py')!r}]\n"
        "runpy.run_path(sys.argv[0], run_name='__main__')\n"
    )
    # Unsandboxed: the flaky bot keeps its state in a file beside it, which a sandboxed bot
    # cannot write.
    proc = zole(
        "tournament", "rulebot", "random", "rulebot", f"flaky={PY} {flaky}", "--blocks", "1",
        "--log", "x.jsonl", "--no-sandbox", *FAST, cwd=tmp_path,
    )  # fmt: skip
    line = one_line_error(proc, "flaky", "--resume x.jsonl")
    assert "table" in line
    records = lines(tmp_path / "x.jsonl")
    assert records[0]["type"] == "tournament"
    played = len(deals_of(records))
    assert played % 6 == 0  # the tables before flaky's first one were played to the end
    # With the bot mended, the tournament goes on from its log.
    flaky.write_text(
        "import runpy, sys\n"
        f"sys.argv = [{str(TESTS.parent / 'bots' / 'random_bot.py')!r}]\n"
        "runpy.run_path(sys.argv[0], run_name='__main__')\n"
    )
    # Unsandboxed as it began: the resume says so itself (a log's word is not enough).
    ok(zole("tournament", "--resume", "x.jsonl", "--no-sandbox", cwd=tmp_path))
    assert len(deals_of(lines(tmp_path / "x.jsonl"))) == 4 * 6


def test_resume_from_another_folder_runs_the_bots_where_they_started(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    shutil.copy(TESTS.parent / "bots" / "rule_bot.py", home / "mine.py")
    args = ("rulebot", "cbot", f"{PY} mine.py", "--blocks", "2", "--seed", "4", *FAST)
    ok(zole("tournament", *args, "--log", "t.jsonl", cwd=home))
    whole = lines(home / "t.jsonl")
    assert [e["name"] for e in whole[0]["entrants"]] == ["rulebot", "cbot", "mine"]
    assert whole[0]["entrants"][2]["cwd"] == str(home)
    # A crash after the 5th deal: the log keeps its first records only.
    cut = [json.dumps(r) for r in whole[: 2 + 5]]
    (home / "t.jsonl").write_text("\n".join(cut) + "\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    ok(zole("tournament", "--resume", str(home / "t.jsonl"), cwd=elsewhere))
    assert by_table(lines(home / "t.jsonl")) == by_table(whole)
    # Each table's bots wrote their stderr to files of their own.
    names = sorted(p.name for p in (home / "t.jsonl.stderr").iterdir())
    assert names == ["table-1.cbot.stderr", "table-1.mine.stderr", "table-1.rulebot.stderr"]


# -- user errors ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (("rulebot", "random"), ("at least 3 bots", "not 2")),
        ((), ("at least 3 bots",)),
        (("rulebot", "random", "rulebott"), ("rulebott", "did you mean 'rulebot'")),
        (("rulebot", "random", "./nothing-here"), ("no program", "./nothing-here")),
        (("rulebot", "random", "cbot", "--format", "swiss"), ("--format", "swiss")),
        (("rulebot", "random", "cbot", "--gauntlet", "nobody"), ("nobody", "not one of")),
        (("rulebot", "random", "cbot", "--gauntlet", "nobody", "--json"), ("not one of",)),
        (
            ("rulebot", "random", "cbot", "--format", "round-robin", "--gauntlet", "random"),
            ("--gauntlet",),
        ),
        (("rulebot", "random", "cbot", "--deals", "0"), ("--deals must be from 1 to",)),
        (("rulebot", "random", "cbot", "--blocks", "0"), ("--blocks must be from 1 to",)),
        (("rulebot", "random", "cbot", "--movetime", "0"), ("--movetime must be at least 1",)),
        (
            ("rulebot", "random", "cbot", "--max-faults", "-1"),
            ("--max-faults must be at least 0, not -1",),
        ),
        (("rulebot", "random", "cbot", "--on-fault", "ignore"), ("--on-fault", "ignore")),
        (
            ("rulebot", "random", "cbot", "--option", "rulebot:Nonexistent=3"),
            ("bot rulebot cannot play", "no option 'Nonexistent'", "not started"),
        ),
        (("rulebot", "random", "cbot", "--blocks", "2", "--deals", "12"), ("not both",)),
        (("rulebot", "random", "cbot", "--no-duplicate", "--blocks", "2"), ("--no-duplicate",)),
        (("rulebot", "random", "cbot", "--concurrency", "0"), ("--concurrency",)),
        (("rulebot", "random", "cbot", "--seed", "-1"), ("--seed",)),
        (("rulebot", "random", "cbot", "--rules", "nope"), ("nope",)),
        (("rulebot", "random", "cbot", "--option", "x:Y=1"), ("no bot named 'x'",)),
        (("--resume", "missing.jsonl"), ("missing.jsonl",)),
        (("--resume", "missing.jsonl", "--blocks", "2"), ("--resume", "--blocks")),
        (("--config", "missing.toml"), ("missing.toml", "no such file")),
    ],
)
def test_bad_arguments_get_one_line(tmp_path: Path, args: tuple[str, ...], needles: Any) -> None:
    one_line_error(zole("tournament", *args, cwd=tmp_path), *needles)
    assert not list(tmp_path.glob("tournament-*.jsonl"))  # nothing started


@pytest.mark.parametrize(
    ("text", "needles"),
    [
        ("blocks = [\n", ("not valid TOML",)),
        ("turns = 3\n", ("unknown key 'turns'",)),
        ('blocks = "3"\n', ("blocks must be a whole number",)),
        ("duplicate = 1\n", ("duplicate must be true or false",)),
        ("max-faults = true\n", ("max-faults must be a whole number, not true",)),
        (
            'format = "swiss"\n[[bots]]\ncommand = "rulebot"\n[[bots]]\ncommand = "random"\n'
            '[[bots]]\ncommand = "cbot"\n',
            ("config t.toml: format must be round-robin, gauntlet, balanced or lzf, not 'swiss'",),
        ),
        ('[[bots]]\nname = "x"\n', ("bot 1 needs a command",)),
        ('[[bots]]\ncommand = "rulebot"\nspeed = 2\n', ("unknown key(s) speed",)),
        ('[[bots]]\ncommand = ["rulebot"]\n[[bots]]\ncommand = "random"\n', ("not 2",)),
        ("[[bots]]\ncommand = 5\n", ("command must be a string or a list",)),
    ],
)
def test_bad_config_files_get_one_line(tmp_path: Path, text: str, needles: Any) -> None:
    (tmp_path / "t.toml").write_text(text)
    one_line_error(zole("tournament", "--config", "t.toml", cwd=tmp_path), *needles)


def test_an_existing_log_is_not_overwritten(tmp_path: Path) -> None:
    header = '{"format":"zole-arena","type":"tournament"}\n'
    (tmp_path / "old.jsonl").write_text(header)
    proc = zole("tournament", "rulebot", "random", "rulebot", "--log", "old.jsonl", cwd=tmp_path)
    one_line_error(proc, "old.jsonl exists", "'zole-arena tournament --resume old.jsonl'")
    assert (tmp_path / "old.jsonl").read_text() == header


def test_resume_of_a_match_log_points_to_match_resume(tmp_path: Path) -> None:
    ok(zole("match", "rulebot", "random", "rulebot", "--deals", "1", "--log", "m.jsonl",
            cwd=tmp_path))  # fmt: skip
    one_line_error(
        zole("tournament", "--resume", "m.jsonl", cwd=tmp_path),
        "not a tournament log",
        "match --resume m.jsonl",
    )
    # and the other way round
    ok(zole("tournament", "rulebot", "random", "rulebot", "--blocks", "1", "--log", "t.jsonl",
            *FAST, cwd=tmp_path))  # fmt: skip
    one_line_error(
        zole("match", "--resume", "t.jsonl", cwd=tmp_path), "tournament --resume t.jsonl"
    )
    one_line_error(
        zole("replay", "m.jsonl", "--table", "1", cwd=tmp_path), "not a tournament's log"
    )


@needs_cc
def test_the_readme_config_example_runs(tmp_path: Path) -> None:
    readme = (TESTS.parent / "README.md").read_text()
    start = readme.index("```toml\n", readme.index("## A tournament")) + len("```toml\n")
    text = readme[start : readme.index("```", start)]
    shutil.copy(TESTS.parent / "bots" / "random_bot.py", tmp_path / "mybot.py")
    # The example's own bot takes an argument this stand-in does not know: drop it.
    text = text.replace('"python3", "./mybot.py", "--depth", "3"', f'"{PY}", "./mybot.py"')
    (tmp_path / "event.toml").write_text(text)
    proc = ok(zole("tournament", "--config", "event.toml", "--blocks", "1", "--json", cwd=tmp_path))
    summary = json.loads(proc.stdout)
    assert {s["name"] for s in summary["standings"]} == {"mine", "bold", "cbot"}
    assert (tmp_path / "results" / "autumn.jsonl").exists()


@needs_cc
def test_tournament_benchmark_reports_both_settings(tmp_path: Path) -> None:
    proc = ok(zole("bench", "--tournament", "--blocks", "1", "--rounds", "1", "--json",
                   cwd=tmp_path))  # fmt: skip
    figures = json.loads(proc.stdout)
    assert figures["tables"] == 4 and figures["deals"] == 24
    assert figures["serial_median"] > 0 and figures["parallel_median"] > 0
    assert figures["speedup"] == pytest.approx(
        figures["parallel_median"] / figures["serial_median"]
    )


def test_in_a_terminal_the_standings_update_live(tmp_path: Path) -> None:
    import pexpect

    child = pexpect.spawn(
        PY,
        ["-m", "zole_arena", "tournament", "rulebot", "random", "rulebot", "random",
         "--blocks", "3", "--seed", "1", "--log", "t.jsonl", *FAST],
        encoding="utf-8", timeout=TIMEOUT, dimensions=(50, 100), cwd=str(tmp_path),
    )  # fmt: skip
    try:
        child.expect("Standings so far")  # the live view, while tables are still to play
        child.expect("tables [0-3]/4")
        child.expect("Standings after 72 of 72 deals")
        child.expect("Head to head")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0, child.before
    assert len(deals_of(lines(tmp_path / "t.jsonl"))) == 72


# -- pinning --------------------------------------------------------------------------------------

CPUS_BOT = TESTS / "helper_bots" / "cpus_bot.py"
CPUS = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []


@pytest.mark.skipif(len(CPUS) < 2, reason="needs Linux and two CPUs")
def test_affinity_pins_each_table_process_and_its_bots_to_a_cpu(tmp_path: Path) -> None:
    bots = [f"p{i}={PY} {CPUS_BOT}" for i in range(4)]
    # The bot runs the bundled random bot's script, which a sandbox must be told it may read.
    reads = ("--sandbox-read", str(TESTS.parent / "bots"))
    args = ("--blocks", "1", "--concurrency", "2", "--log", "t.jsonl", *reads, *FAST)
    proc = ok(zole("tournament", *bots, *args, "--affinity", cwd=tmp_path))
    assert f"2 at a time, each pinned to a CPU: {CPUS[0]}, {CPUS[1]};" in proc.stdout
    files = sorted((tmp_path / "t.jsonl.stderr").glob("table-*.stderr"))
    assert len(files) == 4 * 3  # 4 tables of 3 bots
    seen = set()
    for path in files:
        said = path.read_text().split()
        assert said[0] == "cpus" and said[1] in {str(c) for c in CPUS}  # one CPU each
        seen.add(said[1])
    assert seen == {str(CPUS[0]), str(CPUS[1])}  # the two table processes got a CPU each
    # --affinity may be given again (or left out) when resuming: it is not a result setting.
    resumed = zole("tournament", "--resume", "t.jsonl", "--affinity", cwd=tmp_path)
    one_line_error(resumed, "already complete")


def test_a_zole_arena_folder_where_it_runs_does_not_shadow_the_arena(tmp_path: Path) -> None:
    # A user runs from a clone, or any folder with a zole_arena/ in it: the table processes
    # must still import the arena the tournament itself runs, not that folder.
    shadow = tmp_path / "zole_arena"
    shadow.mkdir()
    (shadow / "__init__.py").write_text("raise SystemExit('the folder shadowed the arena')\n")
    # The installed command, as a user runs it ('python -m zole_arena' would itself import
    # the folder's package).
    command = [str(Path(sys.executable).with_name("zole-arena")), "tournament"]
    args = ("--blocks", "1", "--concurrency", "2", "--log", "t.jsonl", *FAST)
    proc = subprocess.run(
        [*command, "random", "rulebot", "random", *args],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    ok(proc)
    assert "shadowed" not in proc.stdout + proc.stderr
    assert json.loads((tmp_path / "t.jsonl").read_text().splitlines()[-1])["type"] == "deal"
