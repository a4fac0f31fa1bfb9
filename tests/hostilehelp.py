"""Running the hostile bots of ``tests/hostile_bots/`` in real matches, and reading what they
report and what they left behind.

A match runs the real command line (``python -m zole_arena match``) in ``TMP/arena``, with the
attacker (display name ``hostile``) against two bundled ``random`` bots, a log, and an
environment of the test's own: ``HOME`` and ``XDG_CACHE_HOME`` in the temporary folder (so
that nothing a bot does unsandboxed reaches the real ones) and an organizer's secret,
``ZOLE_ORGANIZER_SECRET``, for the seed thief to steal. Each bot's stderr lands in
``LOG.NAME.stderr``; the attacker's ``ATTACK`` lines there are the tests' oracle, along with the
log, ``verify`` and the process table.

Survivors are found by the test's marker in their command line (:func:`marked`): every hostile
bot gets ``--mark MARK``, and every process it means to outlive it re-executes with the marker
among its arguments.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
HOSTILE_BOTS = TESTS / "hostile_bots"
PY = sys.executable
ATTACKER = "hostile"
#: Seconds any one command may take before the test fails.
TIMEOUT = 60
#: The environment variable of the organizer that no bot may learn.
SECRET_NAME = "ZOLE_ORGANIZER_SECRET"

T = TypeVar("T")


@dataclasses.dataclass(frozen=True)
class Attack:
    """One ``ATTACK <name> SUCCEEDED|FAILED <detail>`` line of a hostile bot."""

    name: str
    succeeded: bool
    detail: str

    def __str__(self) -> str:
        return f"{self.name} {'SUCCEEDED' if self.succeeded else 'FAILED'} {self.detail}"


def parse_attacks(text: str) -> list[Attack]:
    """Every ``ATTACK`` line of a bot's stderr, in order."""
    found = []
    for line in text.splitlines():
        words = line.split(" ", 3)
        if len(words) >= 3 and words[0] == "ATTACK" and words[2] in ("SUCCEEDED", "FAILED"):
            found.append(Attack(words[1], words[2] == "SUCCEEDED", words[3] if words[3:] else ""))
    return found


@dataclasses.dataclass
class Run:
    """A finished (or killed) arena command and the files it left."""

    proc: subprocess.CompletedProcess[str]
    log: Path
    seed: int
    secret: str

    def stderr_path(self, name: str = ATTACKER) -> Path:
        """``LOG.NAME.stderr``: where the arena put a bot's stderr."""
        return self.log.with_name(f"{self.log.name}.{name}.stderr")

    def stderr(self, name: str = ATTACKER) -> str:
        """A bot's stderr as text (the start of it, for a flood)."""
        with open(self.stderr_path(name), "rb") as handle:
            return handle.read(1 << 22).decode("utf-8", "replace")

    def attacks(self, name: str = ATTACKER) -> list[Attack]:
        """The attacker's report lines."""
        return parse_attacks(self.stderr(name))

    def outcomes(self, name: str = ATTACKER) -> dict[str, list[Attack]]:
        """The report lines by attack name."""
        by_name: dict[str, list[Attack]] = {}
        for attack in self.attacks(name):
            by_name.setdefault(attack.name, []).append(attack)
        return by_name

    def succeeded(self, name: str = ATTACKER) -> list[Attack]:
        """The attacks that say they succeeded."""
        return [a for a in self.attacks(name) if a.succeeded]

    def records(self) -> list[dict[str, Any]]:
        """The log's records (lines that are not JSON left out)."""
        found = []
        for line in self.log.read_bytes().splitlines():
            try:
                found.append(json.loads(line))
            except ValueError:
                continue
        return found

    def deals(self) -> list[dict[str, Any]]:
        """The log's deal records."""
        return [r for r in self.records() if r.get("type") == "deal"]

    def faults(self) -> list[dict[str, Any]]:
        """Every fault of every logged deal."""
        return [fault for deal in self.deals() for fault in deal.get("faults", [])]

    def faulted(self) -> set[str]:
        """The names of the players that were faulted in a logged deal."""
        names = [p["name"] for p in self.records()[0]["players"]]
        return {names[fault["player"]] for fault in self.faults()}

    def describe(self) -> str:
        """What went wrong, for an assertion's message."""
        attacker = self.stderr_path()
        tail = attacker.read_text(errors="replace")[-3000:] if attacker.exists() else "-"
        return (
            f"exit {self.proc.returncode}\nstdout: {self.proc.stdout[-2000:]}\n"
            f"stderr: {self.proc.stderr[-2000:]}\nattacker's stderr: {tail}"
        )


def new_mark() -> str:
    """A marker no other process on the machine carries."""
    return f"zolefp-{uuid.uuid4().hex}"


def bot_command(bot: str, mark: str, *args: str | os.PathLike[str]) -> list[str]:
    """The argument list of a hostile bot: ``python tests/hostile_bots/BOT.py --mark MARK …``."""
    return [PY, str(HOSTILE_BOTS / f"{bot}.py"), "--mark", mark, *(str(a) for a in args)]


def player(name: str, argv: Sequence[str]) -> str:
    """A bot argument ``NAME=COMMAND`` (the command quoted shell-style)."""
    return f"{name}={shlex.join(argv)}"


def arena_env(tmp: Path, secret: str) -> dict[str, str]:
    """The arena's environment: ours, with HOME and the cache in ``tmp`` and a secret."""
    env = dict(os.environ)
    home, cache = tmp / "home", tmp / "xdg"
    home.mkdir(exist_ok=True)
    cache.mkdir(exist_ok=True)
    env.update({"HOME": str(home), "XDG_CACHE_HOME": str(cache), SECRET_NAME: secret})
    return env


def match_args(
    tmp: Path,
    attacker: Sequence[str],
    *options: str,
    sandbox: bool,
    deals: int = 3,
    seed: int | None = None,
    others: Sequence[str] = ("random", "random"),
) -> tuple[list[str], Path, int]:
    """The ``zole-arena match`` arguments of a match of ``attacker`` (a command) against
    ``others``, the log's path and the seed."""
    folder = tmp / "arena"
    folder.mkdir(exist_ok=True)
    seed = seed if seed is not None else int.from_bytes(os.urandom(7), "big")
    log = folder / "m.jsonl"
    args = [
        "match",
        player(ATTACKER, attacker),
        *others,
        "--deals",
        str(deals),
        "--seed",
        str(seed),
        "--movetime",
        "3000",
        "--log",
        str(log),
        *(("--sandbox",) if sandbox else ()),
        *options,
    ]
    return args, log, seed


def run_match(
    tmp: Path,
    attacker: Sequence[str],
    *options: str,
    sandbox: bool,
    deals: int = 3,
    seed: int | None = None,
    others: Sequence[str] = ("random", "random"),
    env: Mapping[str, str] | None = None,
) -> Run:
    """Play a match through the real command line, in ``tmp/arena``; wait for it to end
    (``env``: more variables for the arena's environment)."""
    args, log, seed = match_args(
        tmp, attacker, *options, sandbox=sandbox, deals=deals, seed=seed, others=others
    )
    secret = uuid.uuid4().hex
    proc = subprocess.run(
        [PY, "-m", "zole_arena", *args],
        cwd=tmp / "arena",
        env={**arena_env(tmp, secret), **(env or {})},
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    return Run(proc, log, seed, secret)


def zole(tmp: Path, *args: str, timeout: float = TIMEOUT) -> subprocess.CompletedProcess[str]:
    """Another ``zole-arena`` command, in ``tmp/arena`` with the test's environment."""
    folder = tmp / "arena"
    folder.mkdir(exist_ok=True)
    return subprocess.run(
        [PY, "-m", "zole_arena", *args],
        cwd=folder,
        env=arena_env(tmp, "no-secret"),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def verify(log: Path) -> subprocess.CompletedProcess[str]:
    """``zole-arena verify LOG``."""
    return subprocess.run(
        [PY, "-m", "zole_arena", "verify", str(log)],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )


# -- the process table ----------------------------------------------------------------------


def marked(mark: str) -> dict[int, list[str]]:
    """Every live process (not a zombie) whose command line carries ``mark``: pid -> argv."""
    needle = mark.encode()
    found = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            data = Path(entry.path, "cmdline").read_bytes()
        except OSError:
            continue
        if needle in data:
            found[int(entry.name)] = [p.decode(errors="replace") for p in data.split(b"\0") if p]
    return found


def roles(processes: dict[int, list[str]], mark: str) -> dict[str, int]:
    """How many marked processes there are of each role: ``MARK:ROLE`` arguments, and ``bot``
    for a hostile bot's own process (the one started with ``--mark MARK``)."""
    counts: dict[str, int] = {}
    for argv in processes.values():
        role = next((a.split(":", 1)[1] for a in argv if a.startswith(mark + ":")), None)
        if role is None:
            role = "bot" if mark in argv and "--mark" in argv else "other"
        counts[role] = counts.get(role, 0) + 1
    return counts


def wait_for(condition: Callable[[], T], timeout: float, what: str) -> T:
    """Poll ``condition`` until it returns something true, at most ``timeout`` seconds (a
    wait for a condition with a deadline, never a fixed sleep); its last value."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value or time.monotonic() > deadline:
            assert value, f"timed out after {timeout} s waiting for {what}"
            return value
        time.sleep(0.01)


def kill_marked(mark: str) -> list[int]:
    """SIGKILL every process that carries ``mark`` (what a test's run left behind: they are
    all the test's own) until none is left; their pids."""
    killed: list[int] = []
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        alive = marked(mark)
        if not alive:
            break
        for pid in alive:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                continue
            killed.append(pid)
        time.sleep(0.01)
    return killed


# -- files ----------------------------------------------------------------------------------


def digest(path: Path) -> str:
    """A file's SHA-256."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def digests(paths: Iterable[Path]) -> dict[Path, str]:
    """The SHA-256 of each file."""
    return {path: digest(path) for path in paths}


def finished(run: Run) -> None:
    """The match itself went well: it finished and its log verifies."""
    assert run.proc.returncode == 0, run.describe()
    assert "Traceback" not in run.proc.stderr, run.describe()
    checked = verify(run.log)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def true_claims(run: Run, attack: str, name: str = ATTACKER) -> list[str]:
    """The claims of another seat's hand (``... deal N ... seat S hand CARDS``) in ``name``'s
    ``attack`` reports that the log shows right."""
    hands = {deal["deal"]: deal["hands"] for deal in run.deals()}
    right = []
    for found in run.outcomes(name).get(attack, []):
        claim = re.search(r"deal (\d+) .*?seat (\d+) hand (\S+)", found.detail)
        if not found.succeeded or claim is None:
            continue
        deal, seat, cards = int(claim[1]), int(claim[2]), claim[3].split(",")
        if deal in hands and sorted(hands[deal][seat]) == sorted(cards):
            right.append(f"deal {deal}: seat {seat} holds {','.join(cards)}")
    return right
