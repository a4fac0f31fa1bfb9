"""The one place where the command line writes: data to stdout, messages to stderr."""

from __future__ import annotations

import json
import os
import re
import shlex
import signal
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any, Final, NoReturn

import typer
from rich.console import Console, RenderableType
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from zole_arena.arena.summary import PlayerStats
from zole_arena.errors import printable
from zole_arena.records.reader import log_type
from zole_arena.records.writer import check_log_path

__all__ = [
    "check_new_log",
    "err",
    "fail",
    "fit_names",
    "out",
    "print_json",
    "short_names",
    "stop_for_broken_pipe",
    "stop_on_signals",
]


#: Names are never shortened below this many characters (the ellipsis included).
_MIN_NAME: Final = 6
#: A last part this long or shorter is kept whole when a name is shortened.
_SHORT_PART: Final = 8
#: Where a name's last part (``-eps10``, ``#2``, ``.py``) begins.
_PART = re.compile(r"[-_#.=/: ][^-_#.=/: ]*$")


def short_names(names: Sequence[str], width: int) -> dict[str, str]:
    """Each name as it may be shown in ``width`` characters, no two alike.

    A name that fits is kept; a longer one keeps its beginning and its last part (what tells
    ``rulebot-eps10`` from ``rulebot``, or ``bot#2`` from ``bot``), with ``…`` between them,
    and when that is not enough to tell two names apart, more of their ends. Names that cannot
    be told apart in ``width`` characters are kept whole (a wide table, but not a wrong one).
    """
    width = max(width, _MIN_NAME)
    tails: dict[str, int] = {}
    for name in names:
        if len(name) > width:
            part = len(found.group()) if (found := _PART.search(name[1:])) else 0
            # A short last part (-eps10, #2) is kept whole if three letters of the start fit.
            tails[name] = min(part, width - 4 if part <= _SHORT_PART else width // 2)

    def shown(name: str) -> str:
        if name not in tails:
            return name
        tail = tails[name]
        return name[: width - 1 - tail] + "…" + (name[-tail:] if tail else "")

    while True:
        forms: dict[str, list[str]] = {}
        for name in names:
            forms.setdefault(shown(name), []).append(name)
        alike = [name for group in forms.values() if len(group) > 1 for name in group]
        if not alike:
            return {name: shown(name) for name in names}
        grown = False
        for name in alike:
            if name in tails and tails[name] < width - 2:
                tails[name] += 1
                grown = True
        if not grown:
            return {name: name for name in names}


def fit_names(
    names: Sequence[str],
    build: Callable[[Mapping[str, str]], RenderableType],
    console: Console | None = None,
) -> RenderableType:
    """``build(shown)`` with each name as ``shown[name]``, shortened as :func:`short_names`
    does just enough for the table to fit the console's width (rich would otherwise squeeze
    every column, or cut names so that two look the same)."""
    console = console or out
    unbounded = console.options.update_width(1 << 16)  # the width the table would like

    def fits(table: RenderableType) -> bool:
        return console.measure(table, options=unbounded).maximum <= console.width

    table = build({name: name for name in names})
    longest = max((len(name) for name in names), default=0)
    if fits(table) or longest <= _MIN_NAME:
        return table
    low, high = _MIN_NAME, longest - 1  # the widest that fits, by bisection
    best = build(short_names(names, low))
    while low < high:
        middle = (low + high + 1) // 2
        tried = build(short_names(names, middle))
        if fits(tried):
            low, best = middle, tried
        else:
            high = middle - 1
    return best


def _width() -> int | None:
    """Rich's width in a terminal; 120 columns when the output goes to a file or a pipe
    (rich would take 80, and squeeze the results table), unless COLUMNS says otherwise."""
    if sys.stdout.isatty() or os.environ.get("COLUMNS"):
        return None
    return 120


def _never_fail_to_encode() -> None:
    """On a stream whose encoding cannot show every character (``PYTHONIOENCODING=ascii``, a
    C locale), write ``?`` for what it cannot show instead of failing with an error."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        encoding = (getattr(stream, "encoding", None) or "").lower().replace("-", "")
        if reconfigure is not None and encoding != "utf8":
            reconfigure(errors="replace")


_never_fail_to_encode()


def stop_for_broken_pipe() -> NoReturn:
    """The reader of our output went away (``zole-arena replay LOG | head``): stop quietly with
    141, as a program killed by SIGPIPE does, and without a second error when Python flushes
    stdout at exit."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    raise SystemExit(141)


class _Console(Console):
    """Rich's console, but a broken pipe ends the command as :func:`stop_for_broken_pipe`
    says (rich exits with 1, which here means a bad value)."""

    def on_broken_pipe(self) -> None:
        stop_for_broken_pipe()


#: Tables and data.
out = _Console(highlight=False, soft_wrap=True, width=_width())
#: Progress, warnings and errors.
err = _Console(stderr=True, highlight=False, soft_wrap=True)


def print_json(data: Any) -> None:
    """Machine-readable output: one JSON document on stdout, nothing else."""
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    sys.stdout.flush()


#: What an error about the number of bots adds when there are more than asked for: the shell
#: split a bot's command line, usually.
QUOTE_IT: Final = " (a bot's command line with spaces is one argument: quote it)"


def print_stray_notes(players: Iterable[PlayerStats]) -> None:
    """A note for each player that wrote lines on its stdout that are no protocol message."""
    for player in players:
        n = player.stray_lines
        if n:
            out.print(
                f"[yellow]note:[/] {escape(player.name)} wrote {n:,} line{'s' if n != 1 else ''} "
                "on its stdout that are no protocol message (ignored; debugging output belongs "
                "on stderr)",
                highlight=False,
            )


def fail(message: str, code: int = 1) -> NoReturn:
    """Print a one-line error and exit with ``code``."""
    err.print(f"[bold red]error:[/] {escape(message)}", markup=True, highlight=False)
    raise typer.Exit(code)


def _interrupt(signum: int, frame: FrameType | None) -> None:
    # Only the first signal interrupts. A second one — a double Ctrl-C, or the same signal
    # sent to the whole process group by `timeout` or a shell — must not cut short the
    # shutdown that stops the bots, keeps the log and prints the summary (a second or less:
    # the bots are killed, not waited for).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    raise KeyboardInterrupt


def stop_on_signals() -> None:
    """Make the first Ctrl-C, SIGTERM or SIGHUP raise KeyboardInterrupt, so that a long command
    stops cleanly: even when it was started with SIGINT ignored (a shell's background job), the
    bots are stopped, every finished deal is kept and the summary so far is printed; later
    signals are ignored until then."""
    signal.signal(signal.SIGINT, _interrupt)
    signal.signal(signal.SIGTERM, _interrupt)
    # A terminal that hangs up (an ssh session that ends) stops the command the same way.
    signal.signal(signal.SIGHUP, _interrupt)


def show_logged_bots(
    isolation: str,
    bots: Sequence[tuple[str, str | Sequence[str], str | None]],
    json_output: bool,
) -> None:
    """Say what a resume is about to run, as its log has it, before any of it runs: how the
    bots are isolated and each bot's (name, command, folder), cleaned of control characters
    (a log is anyone's text). On stderr with ``--json``."""
    where = err if json_output else out
    where.print(f"bots from the log, {isolation}:", highlight=False, markup=False)
    for name, argv, cwd in bots:
        command = argv if isinstance(argv, str) else shlex.join(argv)
        where.print(
            f"  {printable(name)}: {printable(command)}  (in {printable(cwd or os.getcwd())})",
            highlight=False,
            markup=False,
            soft_wrap=True,
        )


def check_new_log(path: Path) -> None:
    """End the command with a one-line error unless a new log can be written at ``path``:
    not a folder, not a file with records (continue a log with ``--resume``), and writable
    (a missing folder is made)."""
    if path.is_dir():
        fail(f"--log {path} is a folder: give a file name")
    if path.exists() and path.stat().st_size > 0:
        kind = log_type(path)
        hint = f", or continue that {kind} with 'zole-arena {kind} --resume {path}'" if kind else ""
        fail(f"{path} exists: give a new --log file{hint}")
    check_log_path(path)


def time_caption(ranked: Sequence[PlayerStats], shown: Mapping[str, str]) -> str:
    """The time each bot used, as a caption's tail (beneath the table: a column would squeeze
    the names); empty when no bot made a decision."""
    timed = [p for p in ranked if p.decisions]
    if not timed:
        return ""
    text = "; ms per decision, mean/longest: " + ", ".join(
        f"{escape(shown[p.name])} {p.think_mean_ms:.0f}/{p.think_max_ms:.0f}" for p in timed
    )
    clocked = [p for p in timed if p.clock_low_ms is not None]
    if clocked:
        text += "; the least left on a clock after a move: " + ", ".join(
            f"{escape(shown[p.name])} {(p.clock_low_ms or 0) / 1000:.2f} s" for p in clocked
        )
    return text


@contextmanager
def progress_bar(label: str) -> Iterator[Callable[[int, int], None]]:
    """A transient bar on stderr for work counted in deals; yields the ``(done, total)`` hook
    that ``analyse_logs`` and ``screen_logs`` call as they go."""
    progress = Progress(
        TextColumn(f"[bold]{escape(label)}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        transient=True,
    )
    task = progress.add_task("deals", total=None)

    def show(done: int, total: int) -> None:
        progress.update(task, completed=done, total=total)

    with progress:
        yield show
