"""A resumed match trusts its organizer, not its log (issue 23, as ``tournament --resume``).

A log is anyone's text: its hash chain has no key, so whoever edits a header can chain the log
anew and ``verify`` says ok. These tests forge match headers as such a person would
(:func:`~test_resume_trust.forge`) and resume them through the real command line, with real
bots in real sandboxes: a spy bot that tries to plant a file in the organizer's folder and to
read an earlier log there, and says what it managed on its stderr. ``match`` is unsandboxed by
default (a bot author's own bots), so the resume's isolation is its own command line's:
``--sandbox`` / ``--no-sandbox``, ``--sandbox-read`` and the limits' options.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from clihelp import ok, one_line_error
from test_resume_trust import PY, SECRET, forge
from test_resume_trust import Organizer as TournamentOrganizer

MOVES = ("--deals", "3", "--seed", "7", "--movetime", "1000")


class Organizer(TournamentOrganizer):
    """The organizer's folder ``org/``: an earlier log with the same seed, a spy's program in
    ``entries/spy/`` and the current match's log ``m.jsonl``."""

    LOG = "m.jsonl"

    def play(self, *options: str) -> None:
        """A whole match of the spy and two random bots."""
        spy = f"spy={PY} entries/spy/bot.py"
        ok(self.run("match", spy, "random", "random", *MOVES, "--log", "m.jsonl", *options))

    def spy_said(self) -> str:
        """Everything the spy reported in this match, at every start."""
        path = self.folder / "m.jsonl.spy.stderr"
        return path.read_text() if path.exists() else ""

    def cut(self, edit: Callable[[dict[str, Any]], None]) -> bytes:
        """The log cut after its first deal, its header edited and chained anew (``verify``
        finds nothing wrong); its new bytes."""
        forged = forge(self.log, 2, edit)
        checked = self.run("verify", "m.jsonl")
        assert checked.returncode == 0, checked.stdout  # the chain holds
        return forged


@pytest.fixture
def org(tmp_path: Path) -> Organizer:
    return Organizer(tmp_path)


def unsandboxed(header: dict[str, Any]) -> None:
    header["settings"]["sandbox"] = None


def test_a_header_edited_to_unsandboxed_is_refused_and_runs_nothing(org: Organizer) -> None:
    org.play("--sandbox")
    assert not org.planted.exists()
    assert "SPY write" in org.spy_said() and SECRET not in org.spy_said()
    forged = org.cut(unsandboxed)
    said = org.spy_said()

    refused = org.run("match", "--resume", "m.jsonl", "--sandbox")
    one_line_error(refused, "m.jsonl: its header runs the bots unsandboxed", "--no-sandbox")
    assert not org.planted.exists()  # no bot ran, sandboxed or not
    assert org.log.read_bytes() == forged and org.spy_said() == said

    # Told so, the organizer trusts the bots: they run unsandboxed, and can plant and read.
    resumed = ok(org.run("match", "--resume", "m.jsonl", "--no-sandbox"))
    assert "bots from the log, unsandboxed" in resumed.stdout
    assert org.planted.exists()
    assert SECRET in org.spy_said()


def test_a_sandboxed_match_goes_on_as_the_command_line_says(org: Organizer) -> None:
    """``match`` is unsandboxed by default: a sandboxed log resumed without a word about the
    sandbox is refused; ``--sandbox`` goes on sandboxed, an explicit ``--no-sandbox`` without."""
    org.play("--sandbox")
    whole = org.log.read_bytes()
    forged = org.cut(lambda header: None)  # cut, as after a crash
    said = org.spy_said()
    one_line_error(
        org.run("match", "--resume", "m.jsonl"),
        "m.jsonl: its bots ran sandboxed: give --sandbox to go on so, or --no-sandbox",
    )
    assert org.log.read_bytes() == forged and org.spy_said() == said  # nothing ran

    resumed = ok(org.run("match", "--resume", "m.jsonl", "--sandbox"))
    assert "bots from the log, sandboxed" in resumed.stdout
    assert len(org.spy_said()) > len(said) and SECRET not in org.spy_said()
    assert not org.planted.exists()
    assert "3 of 3 deals verify — ok" in ok(org.run("verify", "m.jsonl")).stdout

    org.log.write_bytes(whole)
    org.cut(lambda header: None)
    resumed = ok(org.run("match", "--resume", "m.jsonl", "--no-sandbox"))
    assert "bots from the log, unsandboxed" in resumed.stdout
    assert org.planted.exists()  # the organizer's word: trusted


@pytest.mark.parametrize(
    ("sandbox", "edit", "needles", "allowed"),
    [
        (
            "--sandbox",
            lambda h: h["settings"]["sandbox"].update(readable=[h["players"][0]["cwd"]]),
            ("its header lets the bots read ", ": give --sandbox-read "),
            ("--sandbox-read", "."),
        ),
        (
            "--sandbox",
            lambda h: h["settings"].update(memory_mb=None),
            ("its header sets no --max-memory-mb limit", "give --max-memory-mb 0 to allow it"),
            ("--max-memory-mb", "0"),
        ),
        (
            "--sandbox",
            lambda h: h["settings"].update(cpu_seconds=10**9),
            ("its header sets --max-cpu-s 1000000000, more than this resume allows "
             "(--max-cpu-s 600)",),
            ("--max-cpu-s", str(10**9)),
        ),
        (
            "--sandbox",
            lambda h: h["settings"].update(processes=100_000),
            ("--max-processes 100000",),
            ("--max-processes", "100000"),
        ),
        (
            "--no-sandbox",
            lambda h: h["settings"].update(stderr_bytes=None),
            ("its header sets no --max-stderr-mb limit", "give --max-stderr-mb 0"),
            ("--max-stderr-mb", "0"),
        ),
    ],
    ids=["readable", "memory", "cpu", "processes", "unsandboxed-stderr"],
)  # fmt: skip
def test_a_header_that_asks_for_more_than_the_organizer_gives_is_refused(
    org: Organizer,
    sandbox: str,
    edit: Callable[[dict[str, Any]], None],
    needles: tuple[str, ...],
    allowed: tuple[str, ...],
) -> None:
    org.play(sandbox)
    forged = org.cut(edit)
    said = org.spy_said()
    flags = (sandbox,) if sandbox == "--sandbox" else ()  # unsandboxed: the match's default
    one_line_error(org.run("match", "--resume", "m.jsonl", *flags), "m.jsonl: ", *needles)
    assert org.log.read_bytes() == forged and org.spy_said() == said  # nothing ran
    ok(org.run("match", "--resume", "m.jsonl", *flags, *allowed))  # the organizer's word


def test_resume_shows_the_commands_it_will_run_before_it_runs_any(org: Organizer) -> None:
    """The forged command is an escape sequence, and a program that cannot play: the resume
    shows it, cleaned, and its folder, before it starts it (and fails)."""
    org.play("--sandbox")

    def other_command(header: dict[str, Any]) -> None:
        spy = header["players"][0]
        spy["command"] = [PY, "-c", "import sys; sys.exit(3)", "\x1b]0;owned\x07\x1b[2J"]
        spy["cwd"] = "/"

    org.cut(other_command)
    proc = org.run("match", "--resume", "m.jsonl", "--sandbox")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert "spy" in proc.stderr  # the start error names it
    assert "\x1b" not in proc.stdout + proc.stderr and "\x07" not in proc.stdout
    shown = [line for line in proc.stdout.splitlines() if line.startswith("  spy: ")]
    assert shown == [f"  spy: {PY} -c 'import sys; sys.exit(3)' '?]0;owned??[2J'  (in /)"]
    assert proc.stdout.index("bots from the log, sandboxed") < proc.stdout.index("  spy: ")
    assert f"  random: {PY} " in proc.stdout and f"(in {org.folder})" in proc.stdout
