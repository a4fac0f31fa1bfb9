"""What the hostile bots share: the protocol loop of ``bots/random_bot.py``, the report lines
the tests read, and the look-ups in ``/proc`` that their attacks need.

Every hostile bot is a complete, working bot: it plays random legal moves, so that a failed
attack still lets the match finish. It reports each attempt on its stderr as one line::

    ATTACK <name> SUCCEEDED <detail>
    ATTACK <name> FAILED <why>

The arena keeps each bot's stderr in ``LOG.NAME.stderr``: the tests read those files as their
oracle. Other lines a bot writes there (``NOTE ...``) are for people.

Standard library only (a sandboxed bot may not be able to import anything else), and no
import of ``zole_arena`` here: a bot that uses it imports it itself, and copes without it.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

Fields = dict[str, str]
"""A ``go`` or ``newdeal`` line's fields: ``{"id": "101", "phase": "bid", ...}``."""


def one_line(text: str) -> str:
    """``text`` on one line, for a report."""
    return " ".join(str(text).split())[:2000] or "-"


def report(attack: str, succeeded: bool, detail: str) -> None:
    """Write one ``ATTACK`` line to stderr (flushed: the bot may be killed next)."""
    outcome = "SUCCEEDED" if succeeded else "FAILED"
    sys.stderr.write(f"ATTACK {attack} {outcome} {one_line(detail)}\n")
    sys.stderr.flush()


def note(text: str) -> None:
    """A line for people on stderr, not read by the tests as an outcome."""
    sys.stderr.write(f"NOTE {one_line(text)}\n")
    sys.stderr.flush()


def why(exc: BaseException) -> str:
    """An exception as a short reason: ``PermissionError: [Errno 13] ...``."""
    return f"{type(exc).__name__}: {exc}"


def parser(description: str) -> argparse.ArgumentParser:
    """An argument parser with ``--mark`` (the test's unique marker; it also ends up in the
    bot's command line, where the tests find its processes)."""
    args = argparse.ArgumentParser(description=description)
    args.add_argument("--mark", default="nomark", help="the test run's unique marker")
    return args


# -- the protocol loop ----------------------------------------------------------------------


def fields_of(words: Sequence[str]) -> Fields:
    """The ``key value`` pairs after a message's first word."""
    return dict(zip(words[1::2], words[2::2], strict=False))


def random_answer(fields: Fields, rng: random.Random) -> str:
    """A random legal answer to a ``go``: a bid or card from ``legal``, two cards to bury."""
    legal = fields["legal"].split(",")
    if fields["phase"] == "bury":
        return " ".join(rng.sample(legal, 2))
    return rng.choice(legal)


def play(
    name: str,
    *,
    on_go: Callable[[Fields], None] | None = None,
    on_line: Callable[[list[str]], None] | None = None,
    on_eof: Callable[[], None] | None = None,
) -> None:
    """Play protocol v1 on stdin/stdout with random legal answers until ``quit`` or the end
    of input.

    :param on_go: called with each ``go`` request's fields before it is answered (an attack
        at a decision; it must leave time to answer).
    :param on_line: called with the words of every line from the arena (events, ``newdeal``,
        ``result``...), before the bot reacts to it.
    :param on_eof: called when the input ends or ``quit`` comes, instead of returning at once.
    """
    try:
        _loop(name, on_go, on_line)
    except BrokenPipeError:  # the arena is gone
        with contextlib.suppress(OSError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    if on_eof is not None:
        on_eof()


def _loop(
    name: str,
    on_go: Callable[[Fields], None] | None,
    on_line: Callable[[list[str]], None] | None,
) -> None:
    rng = random.Random()
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if on_line is not None:
            on_line(words)
        if words[0] == "zole":
            print(f"id name {name}\nid author zole-arena tests\nid version 1\nzoleok 1", flush=True)
        elif words[0] == "isready":
            print("readyok", flush=True)
        elif words[0] == "go":
            fields = fields_of(words)
            if on_go is not None:
                on_go(fields)
            print(f"action {fields['id']} {random_answer(fields, rng)}", flush=True)
        elif words[0] == "quit":
            break


# -- the process table ----------------------------------------------------------------------


def stat(pid: int) -> tuple[str, int] | None:
    """(state letter, parent pid) of a process, or None if it is not visible."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    state, ppid = text.rsplit(")", 1)[1].split()[:2]
    return state, int(ppid)


def pgid(pid: int) -> int | None:
    """A process's group, or None if it is gone."""
    try:
        return os.getpgid(pid)
    except OSError:
        return None


def wait_state(pid: int, states: str, timeout: float = 2.0) -> bool:
    """Wait until a process is in one of ``states`` (``"Tt"``: stopped; ``"Z"``: dead, or gone
    when ``"Z"`` is asked for); whether it got there in ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        info = stat(pid)
        if info is None:
            return "Z" in states
        if info[0] in states:
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.002)


def cmdline(pid: int) -> list[str]:
    """A process's argument list ([] if it cannot be read, or a zombie)."""
    try:
        data = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return []
    return [part.decode("utf-8", "replace") for part in data.split(b"\0") if part]


def pids() -> list[int]:
    """Every process this bot can see."""
    return sorted(int(entry) for entry in os.listdir("/proc") if entry.isdigit())


def siblings() -> list[int]:
    """The other processes with this bot's parent: at a table, the other two bots."""
    me, parent = os.getpid(), os.getppid()
    found = []
    for pid in pids():
        info = stat(pid)
        if pid != me and info is not None and info[1] == parent and info[0] != "Z":
            found.append(pid)
    return found


def ancestors() -> list[int]:
    """This bot's parent, grandparent... (pid 0 and pid 1 left out), nearest first."""
    chain = []
    pid = os.getppid()
    while pid > 1 and pid not in chain:
        chain.append(pid)
        info = stat(pid)
        if info is None:
            break
        pid = info[1]
    return chain


def is_arena(pid: int) -> bool:
    """Whether a process's command line is a zole-arena command (not a sandbox's helper)."""
    return any("zole_arena" in arg or "zole-arena" in arg for arg in cmdline(pid))


def arena_processes() -> list[int]:
    """The visible ancestors that are zole-arena processes (a match, a tournament and its
    worker), nearest first."""
    return [pid for pid in ancestors() if is_arena(pid)]


def option_value(argv: Sequence[str], option: str) -> str | None:
    """The value of ``--option VALUE`` or ``--option=VALUE`` in an argument list."""
    for index, arg in enumerate(argv):
        if arg == option and index + 1 < len(argv):
            return argv[index + 1]
        if arg.startswith(option + "="):
            return arg.split("=", 1)[1]
    return None


def log_candidates() -> list[Path]:
    """Where the arena's log may be, as a cheating bot finds it: ``--log``/``--resume`` in an
    ancestor's command line (relative to that process's folder), a ``.jsonl`` file an ancestor
    holds open, and the log named by this bot's own stderr file (``LOG.NAME.stderr``)."""
    found: list[Path] = []
    for pid in ancestors():
        argv = cmdline(pid)
        for option in ("--log", "--resume"):
            value = option_value(argv, option)
            if value is not None:
                with contextlib.suppress(OSError):
                    found.append(Path(os.readlink(f"/proc/{pid}/cwd")) / value)
        with contextlib.suppress(OSError):
            for fd in os.listdir(f"/proc/{pid}/fd"):
                with contextlib.suppress(OSError):
                    target = os.readlink(f"/proc/{pid}/fd/{fd}")
                    if target.endswith(".jsonl"):
                        found.append(Path(target))
    with contextlib.suppress(OSError):
        mine = os.readlink("/proc/self/fd/2")
        if mine.endswith(".stderr") and ".jsonl." in mine:  # a match: LOG.NAME.stderr
            found.append(Path(mine[: mine.rindex(".jsonl.") + len(".jsonl")]))
        folder = Path(mine).parent  # a tournament: LOG.stderr/table-N.NAME.stderr
        if folder.name.endswith(".stderr"):
            found.append(folder.with_name(folder.name[: -len(".stderr")]))
    unique: list[Path] = []
    for path in found:
        if path not in unique:
            unique.append(path)
    return unique
