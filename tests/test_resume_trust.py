"""A resumed tournament trusts its organizer, not its log; a ``python -m`` bot sees its package.

A log is anyone's text: its hash chain has no key, so whoever edits a header can chain the log
anew and ``verify`` says ok. These tests forge headers as such a person would (:func:`forge`)
and resume them through the real command line, with real bots in real sandboxes: a spy bot that
tries to plant a file in the organizer's folder and to read an earlier log there (which holds
every hand of the same seed) and the current one, and says what it managed on its stderr.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from clihelp import ok, one_line_error, zole

PY = sys.executable
#: What an earlier log of the organizer's holds: no bot may read it.
SECRET = "every-hand-of-seed-7"
MOVES = ("--no-duplicate", "--deals", "3", "--seed", "7", "--movetime", "1000")

#: A working bot (random legal actions) that first tries what a cheat would: each line of
#: ``targets.txt`` beside it is ``write PATH`` or ``read PATH``; it reports ``SPY read PATH
#: yes|empty|no`` (``yes`` with what it read) and ``SPY write PATH yes|no`` on its stderr.
SPY = """
import os, random, sys
from zole_arena.game.actions import Bury
from zole_arena.game.state import Phase
from zole_arena.sdk import Bot

def spy(targets):
    for line in open(targets).read().splitlines():
        what, path = line.split(" ", 1)
        try:
            if what == "write":
                with open(path, "w") as handle:
                    handle.write("planted")
                print("SPY write", path, "yes", file=sys.stderr, flush=True)
            else:
                data = open(path, "rb").read(200).decode("utf-8", "replace")
                said = ("yes " + " ".join(data.split())) if data else "empty"
                print("SPY read", path, said, file=sys.stderr, flush=True)
        except OSError as exc:
            print("SPY", what, path, "no", exc.errno, file=sys.stderr, flush=True)

class Spy(Bot):
    name = "Spy"
    def decide(self, view):
        if view.phase is Phase.BURYING:
            return Bury.of(*random.sample(view.hand, 2))
        return random.choice(view.legal_actions)
"""


def sha(line: bytes) -> str:
    return hashlib.sha256(line).hexdigest()


def forge(log: Path, keep: int, edit: Callable[[dict[str, Any]], None]) -> bytes:
    """Cut ``log`` to its first ``keep`` records, edit its header (and the tables' settings
    with it), and chain it anew: what a forger who knows the format writes, in which
    ``verify`` finds nothing wrong. The new bytes."""
    records = [json.loads(line) for line in log.read_bytes().splitlines()[:keep]]
    edit(records[0])
    entrants = {e["name"]: e for e in records[0].get("entrants", ())}
    players: dict[str, dict[str, Any]] = {}
    for record in records:  # the tables' headers say what their tournament's says
        if record["type"] == "match":
            record["settings"] = records[0]["settings"]
            for player in record["players"]:
                for key in ("command", "options", "cwd"):
                    if player["name"] in entrants:
                        player[key] = entrants[player["name"]].get(key)
                players[player["name"]] = player
        elif record["type"] == "deal":  # and each deal names the bots its header runs
            for identity in record["players"]:
                identity["command"] = players[identity["name"]]["command"]
    lines, prev = [], None
    for record in records:
        record["prev"] = prev
        line = json.dumps(record, separators=(",", ":"), ensure_ascii=False).encode()
        lines.append(line)
        prev = sha(line)
    data = b"\n".join(lines) + b"\n"
    log.write_bytes(data)
    return data


class Organizer:
    """The organizer's folder ``org/``: an earlier log with the same seed, a spy's entry in
    ``entries/spy/`` and the current tournament's log ``t.jsonl`` (:attr:`LOG`)."""

    LOG = "t.jsonl"

    def __init__(self, tmp: Path) -> None:
        self.folder = tmp / "org"
        self.entry = self.folder / "entries" / "spy"
        self.entry.mkdir(parents=True)
        self.old = self.folder / "old.jsonl"
        self.old.write_text(SECRET + "\n")
        self.log = self.folder / self.LOG
        self.planted = self.folder / "planted"
        (self.entry / "bot.py").write_text(
            SPY + "spy(os.path.join(os.path.dirname(os.path.abspath(__file__)), "
            "'targets.txt'))\nSpy().run()\n"
        )
        targets = [f"write {self.planted}", f"read {self.old}", f"read {self.log}"]
        (self.entry / "targets.txt").write_text("\n".join(targets) + "\n")

    def run(self, *args: str) -> Any:
        return zole(*args, cwd=self.folder)

    def play(self, *options: str) -> None:
        """A whole tournament of the spy and two random bots (sandboxed by default)."""
        spy = f"spy={PY} entries/spy/bot.py"
        ok(self.run("tournament", spy, "random", "random", *MOVES, "--log", "t.jsonl", *options))

    def spy_said(self) -> str:
        """Everything the spy reported in this tournament, at every table and start."""
        folder = self.folder / "t.jsonl.stderr"
        return "".join(p.read_text() for p in sorted(folder.glob("*spy*")))


@pytest.fixture
def org(tmp_path: Path) -> Organizer:
    return Organizer(tmp_path)


def unsandboxed(header: dict[str, Any]) -> None:
    header["settings"]["sandbox"] = None


def test_a_header_edited_to_unsandboxed_is_refused_and_runs_nothing(org: Organizer) -> None:
    org.play()
    assert not org.planted.exists()
    assert "SPY write" in org.spy_said() and SECRET not in org.spy_said()
    forged = forge(org.log, 3, unsandboxed)  # header, table header, first deal
    checked = org.run("verify", "t.jsonl")
    assert checked.returncode == 0, checked.stdout  # the chain holds
    said = org.spy_said()

    refused = org.run("tournament", "--resume", "t.jsonl")
    one_line_error(refused, "t.jsonl: its header runs the bots unsandboxed", "--no-sandbox")
    assert not org.planted.exists()  # no bot ran, sandboxed or not
    assert org.log.read_bytes() == forged and org.spy_said() == said

    # Told so, the organizer trusts the bots: they run unsandboxed, and can plant and read.
    resumed = ok(org.run("tournament", "--resume", "t.jsonl", "--no-sandbox"))
    assert "bots from the log, unsandboxed" in resumed.stdout
    assert org.planted.exists()
    assert SECRET in org.spy_said()


def test_resume_hides_what_the_organizer_hides_whatever_the_header_says(org: Organizer) -> None:
    """The organizer's config lets every bot read the organizer's folder; the arena hides
    the log and the config file in it. The forged header hides nothing: the resume, given the
    config again, hides both all the same (hidden paths are found anew, never read)."""
    config = org.folder / "event.toml"
    config.write_text('sandbox-read = ["."]\n')
    targets = [f"read {org.log}", f"read {config}", f"write {org.planted}"]
    (org.entry / "targets.txt").write_text("\n".join(targets) + "\n")
    org.play("--config", "event.toml")

    def nothing_hidden(header: dict[str, Any]) -> None:
        header["settings"]["sandbox"]["hidden"] = []

    forge(org.log, 3, nothing_hidden)
    before = org.spy_said().count(f"SPY read {config} ")
    resumed = ok(org.run("tournament", "--resume", "t.jsonl", "--config", "event.toml"))
    assert "bots from the log, sandboxed" in resumed.stdout
    said = org.spy_said()
    assert said.count(f"SPY read {config} ") > before, said  # the resumed table's spy tried
    for path in (org.log, config):
        assert not re.search(rf"SPY read {re.escape(str(path))} yes", said), said
    assert not org.planted.exists()


@pytest.mark.parametrize(
    ("edit", "needles", "allowed"),
    [
        (
            lambda h: h["settings"]["sandbox"].update(readable=[h["entrants"][0]["cwd"]]),
            ("its header lets the bots read ", ": give --sandbox-read "),
            ("--sandbox-read", "."),
        ),
        (
            lambda h: h["settings"].update(memory_mb=None),
            ("its header sets no --max-memory-mb limit", "give --max-memory-mb 0 to allow it"),
            ("--max-memory-mb", "0"),
        ),
        (
            lambda h: h["settings"].update(cpu_seconds=10**9),
            ("its header sets --max-cpu-s 1000000000, more than this resume allows "
             "(--max-cpu-s 600)",),
            ("--max-cpu-s", str(10**9)),
        ),
        (
            lambda h: h["settings"].update(processes=100_000),
            ("--max-processes 100000",),
            ("--max-processes", "100000"),
        ),
    ],
    ids=["readable", "memory", "cpu", "processes"],
)  # fmt: skip
def test_a_header_that_asks_for_more_than_the_organizer_gives_is_refused(
    org: Organizer,
    edit: Callable[[dict[str, Any]], None],
    needles: tuple[str, ...],
    allowed: tuple[str, ...],
) -> None:
    org.play()
    forged = forge(org.log, 3, edit)
    said = org.spy_said()
    one_line_error(org.run("tournament", "--resume", "t.jsonl"), "t.jsonl: ", *needles)
    assert org.log.read_bytes() == forged and org.spy_said() == said  # nothing ran
    ok(org.run("tournament", "--resume", "t.jsonl", *allowed))  # the organizer's word


def test_resume_shows_the_commands_it_will_run_before_it_runs_any(org: Organizer) -> None:
    """The forged command is an escape sequence, and a program that cannot play: the resume
    shows it, cleaned, and its folder, before it starts it (and fails)."""
    org.play()

    def other_command(header: dict[str, Any]) -> None:
        spy = header["entrants"][0]
        spy["command"] = [PY, "-c", "import sys; sys.exit(3)", "\x1b]0;owned\x07\x1b[2J"]
        spy["cwd"] = "/"

    forge(org.log, 3, other_command)
    proc = org.run("tournament", "--resume", "t.jsonl")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert "spy cannot play" in proc.stderr
    assert "\x1b" not in proc.stdout + proc.stderr and "\x07" not in proc.stdout
    shown = [line for line in proc.stdout.splitlines() if line.startswith("  spy: ")]
    assert shown == [f"  spy: {PY} -c 'import sys; sys.exit(3)' '?]0;owned??[2J'  (in /)"]
    assert proc.stdout.index("bots from the log") < proc.stdout.index("  spy: ")


def test_a_config_given_to_resume_pins_the_bots_commands(org: Organizer) -> None:
    config = org.folder / "event.toml"
    config.write_text(
        f'[[bots]]\nname = "spy"\ncommand = ["{PY}", "entries/spy/bot.py"]\n'
        '[[bots]]\ncommand = "random"\n[[bots]]\ncommand = "random"\n'
    )
    org.run("tournament", "--config", "event.toml", *MOVES, "--log", "t.jsonl")
    assert org.log.exists()

    def wider(header: dict[str, Any]) -> None:  # the organizer's whole folder readable
        header["entrants"][0]["command"].append(str(org.folder))

    whole = org.log.read_bytes()
    forge(org.log, 3, wider)
    one_line_error(
        org.run("tournament", "--resume", "t.jsonl", "--config", "event.toml"),
        "t.jsonl: bot spy runs ",
        f"{PY} entries/spy/bot.py {org.folder} in {org.folder}, not {PY} entries/spy/bot.py as",
    )
    org.log.write_bytes(whole)
    forge(org.log, 3, lambda header: None)  # cut, as after a crash: the same bots
    ok(org.run("tournament", "--resume", "t.jsonl", "--config", "event.toml"))
    assert "3 of 3 deals verify — ok" in ok(org.run("verify", "t.jsonl")).stdout


# -- python -m PACKAGE ----------------------------------------------------------------------


def test_a_python_m_entry_imports_its_package_and_sees_nothing_else_of_the_folder(
    org: Organizer,
) -> None:
    package = org.folder / "spypkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "helper.py").write_text("WORD = 'imported-own-module'\n")
    targets = [f"read {org.old}", f"read {org.entry / 'targets.txt'}", f"write {org.planted}"]
    (package / "targets.txt").write_text("\n".join(targets) + "\n")
    (package / "__main__.py").write_text(
        SPY + "from spypkg.helper import WORD\nprint('SPY import', WORD, file=sys.stderr, "
        "flush=True)\nspy(os.path.join(os.path.dirname(__file__), 'targets.txt'))\nSpy().run()\n"
    )
    ok(org.run("tournament", f"spy={PY} -m spypkg", "random", "random", *MOVES, "--log",
               "t.jsonl"))  # fmt: skip
    said = org.spy_said()
    assert "SPY import imported-own-module" in said
    assert f"SPY read {org.old} no 2" in said  # not there at all: no such file
    assert f"SPY read {org.entry / 'targets.txt'} no 2" in said  # another entry's files
    assert SECRET not in said and not org.planted.exists()


def test_a_python_m_module_not_beside_the_bot_is_a_one_line_start_error(org: Organizer) -> None:
    proc = org.run("tournament", f"lost={PY} -m nosuchpkg.sub", "random", "random", *MOVES)
    one_line_error(proc, "bot lost cannot play: python -m nosuchpkg.sub: no nosuchpkg/ or "
                   f"nosuchpkg.py in {org.folder}")  # fmt: skip
