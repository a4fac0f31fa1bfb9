"""Mistakes a new user makes, each with a clear one-line message (found by a trial run)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from clihelp import one_line_error, zole

CRASH_BOT = """\
import sys
for line in sys.stdin:
    words = line.split()
    if words and words[0] == "zole":
        print("id name Crash\\nzoleok 1", flush=True)
    elif words and words[0] == "isready":
        print("readyok", flush=True)
    elif words and words[0] == "go":
        raise RuntimeError("my bot is broken here")
"""


def test_an_existing_log_is_not_appended_to(tmp_path: Path) -> None:
    log = tmp_path / "old.jsonl"
    header = '{"format":"zole-arena","type":"match"}\n'
    log.write_text(header)
    line = one_line_error(zole("match", "random", "random", "random", "--log", "old.jsonl",
                               cwd=tmp_path))  # fmt: skip
    assert "old.jsonl exists: give a new --log file" in line
    assert "continue that match with 'zole-arena match --resume old.jsonl'" in line
    line = one_line_error(zole("play", "--log", "old.jsonl", cwd=tmp_path))
    assert "old.jsonl exists" in line
    assert log.read_text() == header
    # Any other file is kept too, without a hint to continue it.
    (tmp_path / "notes.txt").write_text("precious\n")
    line = one_line_error(zole("sprt", "rulebot", "random", "--log", "notes.txt", cwd=tmp_path))
    assert line.endswith("notes.txt exists: give a new --log file")
    assert (tmp_path / "notes.txt").read_text() == "precious\n"
    # A tournament's log is continued by 'tournament --resume', and the message says so.
    (tmp_path / "t.jsonl").write_text('{"format":"zole-arena","type":"tournament"}\n')
    line = one_line_error(zole("match", "random", "random", "random", "--log", "t.jsonl",
                               cwd=tmp_path))  # fmt: skip
    assert "continue that tournament with 'zole-arena tournament --resume t.jsonl'" in line


def test_a_misspelled_bundled_bot_gets_a_suggestion(tmp_path: Path) -> None:
    line = one_line_error(zole("match", "rulbot", "random", "random", cwd=tmp_path))
    assert "'rulbot'" in line and "did you mean 'rulebot'?" in line
    assert "zole-arena bots" in line
    line = one_line_error(zole("check", "randon", cwd=tmp_path))
    assert "did you mean 'random'?" in line


def test_a_crashing_bot_shows_its_stderr(tmp_path: Path) -> None:
    (tmp_path / "crash.py").write_text(CRASH_BOT)
    proc = zole("check", f"{sys.executable} crash.py", "--movetime", "500", cwd=tmp_path)
    assert proc.returncode == 1
    item = next(line for line in proc.stdout.splitlines() if line.startswith("FAIL  4"))
    assert "crash" in item and "exit code 1" in item
    assert "RuntimeError: my bot is broken here" in item
    # every decision item is judged on a freshly started bot, not on the dead one
    later = [line for line in proc.stdout.splitlines() if " 17 " in line]
    assert later and "my bot is broken here" in later[0]


def test_a_bot_that_cannot_start_is_named_with_its_reason(tmp_path: Path) -> None:
    line = one_line_error(
        zole("match", f"{sys.executable} nosuch.py", "random", "random", cwd=tmp_path)
    )
    assert line.split(":")[1].strip() == "nosuch"  # the player, named after its script
    assert "nosuch.py" in line and "No such file" in line


@pytest.mark.parametrize(
    ("table", "needle"),
    [
        ("[take]\nwin = -3\nloss = 5\n", "[take]: wins"),
        ("[take]\nhigh_win = 9\n", "[take]: all_tricks (3) may not pay less than high_win (9)"),
        ("contracts = ['take', 'zole', 'small_zole']\n[small_zole]\nwin = -1\n",
         "[small_zole]: win must be positive"),
    ],
)  # fmt: skip
def test_nonsense_scoring_is_refused(tmp_path: Path, table: str, needle: str) -> None:
    (tmp_path / "r.toml").write_text('preset = "lzf"\n' + table)
    line = one_line_error(zole("rules", "--rules", "r.toml", cwd=tmp_path))
    assert needle in line  # the brackets survive: messages are not read as markup


def test_a_changed_preset_says_so(tmp_path: Path) -> None:
    (tmp_path / "small.toml").write_text(
        "preset = \"lzf\"\ncontracts = ['take', 'zole', 'small_zole']\n"
    )
    proc = zole("rules", "--rules", "small.toml", cwd=tmp_path)
    assert proc.returncode == 0
    assert proc.stdout.splitlines()[0].endswith("changed by small.toml")


def test_resume_refuses_a_file_of_two_matches(tmp_path: Path) -> None:
    one = zole("match", "random", "random", "random", "--deals", "1", "--seed", "3",
               "--log", "a.jsonl", cwd=tmp_path)  # fmt: skip
    assert one.returncode == 0, one.stderr
    text = (tmp_path / "a.jsonl").read_text()
    (tmp_path / "two.jsonl").write_text(text + text)
    line = one_line_error(zole("match", "--resume", "two.jsonl", cwd=tmp_path))
    assert "more than one match" in line


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("--movetime", "0"), "--movetime must be at least 1, not 0"),
        (("--timemargin", "-5"), "--timemargin must be at least 0, not -5"),
        (("--startup-ms", "0"), "--startup-ms must be at least 1, not 0"),
    ],
)
def test_a_time_out_of_range_is_named(tmp_path: Path, args: tuple[str, str], needle: str) -> None:
    one_line_error(zole("match", "random", "random", "random", *args, cwd=tmp_path), needle)
    one_line_error(zole("check", "random", *args, cwd=tmp_path), needle)


@pytest.mark.parametrize(
    "command",
    [
        ["match", "random", "random", "random", "--deals", "1"],
        ["tournament", "random", "random", "rulebot", "--blocks", "1"],
        ["sprt", "rulebot", "random", "--max-blocks", "1"],
        ["play"],
    ],
)
def test_a_log_that_cannot_be_written_is_one_line_before_anything_starts(
    tmp_path: Path, command: list[str]
) -> None:
    (tmp_path / "afile").write_text("")
    (tmp_path / "afolder").mkdir()
    line = one_line_error(zole(*command, "--log", "afile/x.jsonl", cwd=tmp_path))
    assert "cannot write the log afile/x.jsonl: a part of afile is a file, not a folder" in line
    line = one_line_error(zole(*command, "--log", "afolder", cwd=tmp_path))
    assert "--log afolder is a folder" in line
    if sys.platform == "linux":  # /proc takes no new files
        line = one_line_error(zole(*command, "--log", "/proc/zole.jsonl", cwd=tmp_path))
        assert "cannot write the log /proc/zole.jsonl" in line
    assert sorted(p.name for p in tmp_path.iterdir()) == ["afile", "afolder"]  # nothing written


@pytest.fixture
def small_log(tmp_path: Path) -> Path:
    log = tmp_path / "m.jsonl"
    proc = zole("match", "random", "rulebot", "random", "--deals", "6", "--seed", "2",
                "--log", log.name, cwd=tmp_path)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    return log


def test_replay_into_a_closed_pipe_stops_quietly(small_log: Path) -> None:
    # `zole-arena replay LOG | head`: the reader is gone (here before anything is written).
    proc = subprocess.Popen(
        [sys.executable, "-m", "zole_arena", "replay", small_log.name],
        cwd=small_log.parent,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    stderr = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 141  # as if killed by SIGPIPE
    assert stderr == ""


def test_replay_on_an_ascii_terminal_writes_cards_as_letters(small_log: Path) -> None:
    env = {**os.environ, "PYTHONIOENCODING": "ascii"}
    proc = zole("replay", small_log.name, "--deal", "2", cwd=small_log.parent, env=env)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    hands = [line for line in proc.stdout.splitlines() if line.startswith("  A ")]
    assert hands and re.search(r"\b[AKQJT987][CSHD]\b", hands[0]), proc.stdout


def test_verify_goes_on_past_a_missing_file(small_log: Path) -> None:
    proc = zole("verify", "missing.jsonl", small_log.name, cwd=small_log.parent)
    assert proc.returncode == 1
    assert "error: missing.jsonl" in proc.stderr
    assert f"{small_log.name}: 6 of 6 deals verify — ok" in proc.stdout
