"""A transcript of the protocol: every line between the arena and its bots, in both directions,
with the time and the bot, in one file (``--transcript FILE``, in the spirit of cutechess-cli's
``-debug`` and fastchess's log).

One line of the file per protocol line::

    2026-12-02 14:33:01.123456 >rulebot[4711]: go id 812 time 2000 phase bid ...
    2026-12-02 14:33:01.124010 <rulebot[4711]: action 812 pass

``>`` is what the arena wrote to the bot, ``<`` what it read from its stdout, ``#`` what the
bot wrote on its stderr (never read as protocol; written as the arena's reader thread takes
it, so its place among the protocol's lines is close, not exact), ``!`` a note of the arena's
(the rest of a flooding bot's lines left out, :data:`MAX_FROM_BOT`); the name is the bot's
display name, and the number in brackets its process (one bot may run several: a restart, a
seating of a sandboxed duplicate match, a table of a tournament). Times are the machine's
local time, to the microsecond. A line the bot wrote is shown as the arena read it: control
characters become ``?`` (the file is meant for ``less`` and ``grep``: a bot cannot move a
reader's cursor), and a line longer than :data:`SHOWN` characters is cut, its length said.

Every line goes to the file in one ``write`` of a file opened for appending, so the processes
of a tournament (its tables run in several) may share one transcript: their lines interleave
whole, each in the order it happened. Lines written before the deadline of an answer are in
the file before the answer is acted on; the file is flushed by the system, not by Python.
"""

from __future__ import annotations

import datetime
import errno
import os
import threading
from collections.abc import Iterable
from typing import Final

from zole_arena.errors import cut, printable

__all__ = ["MAX_FILE", "MAX_FROM_BOT", "SHOWN", "Transcript", "start_transcript"]

#: The most of one protocol line a transcript shows (characters).
SHOWN: Final = 2000
#: The most a transcript takes of the lines one bot process wrote (bytes): a bot that floods
#: its output (up to the protocol's 1 MiB per request) fills no disk through it.
MAX_FROM_BOT: Final = 16 * 1024 * 1024
#: The most a transcript file grows to (bytes), whatever its processes: a sandboxed event
#: starts many processes of each bot (a seating's, a table's, a restart's), each with its own
#: :data:`MAX_FROM_BOT`. Past it, each process notes once that it stopped.
MAX_FILE: Final = 1024 * 1024 * 1024
#: The first line of a transcript file.
HEADER: Final = (
    "# zole-arena protocol transcript: time, >bot[pid] to the bot, <bot[pid] from its stdout, "
    "#bot[pid] its stderr\n"
)


def _clean(line: str) -> str:
    """A line as the transcript shows it: cut, and with controls, tabs too, and what reorders
    or hides text as ``?``."""
    return printable(cut(line, SHOWN)).replace("\t", "?")


class Transcript:
    """The transcript file of one bot process: appends each line it is given, stamped."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        """Open ``path`` for appending (made if missing).

        :raises OSError: it cannot be opened.
        """
        self._fd: int | None = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        self.who = "bot"
        """How the lines name the bot: ``name[pid]``; set once the process is started."""
        self._from_bot = 0
        self._lock = threading.Lock()
        """Lines come from the arena's thread and from the stderr reader's."""
        """Bytes of the bot's lines written so far (:data:`MAX_FROM_BOT`)."""

    def write(self, sent: bool, lines: Iterable[str]) -> None:
        """Record ``lines``: sent to the bot (``sent``) or read from its stdout."""
        self._write(">" if sent else "<", lines)

    def write_stderr(self, lines: Iterable[str]) -> None:
        """Record lines the bot wrote on its stderr (from the stderr reader's thread)."""
        self._write("#", lines)

    def _write(self, mark: str, lines: Iterable[str]) -> None:
        stamp = datetime.datetime.now().strftime("%Y-%m-%d %H:%M:%S.%f")
        text = "".join(f"{stamp} {mark}{self.who}: {_clean(line)}\n" for line in lines)
        with self._lock:
            if self._fd is None:
                return
            if mark != ">":
                if self._from_bot >= MAX_FROM_BOT:
                    return
                self._from_bot += len(text.encode("utf-8", "replace"))  # bytes, not characters
                if self._from_bot >= MAX_FROM_BOT:
                    text += f"{stamp} !{self.who}: (the rest of this bot's lines is left out: "
                    text += f"over {MAX_FROM_BOT // 2**20} MiB of them)\n"
            fd = self._fd
            try:
                if os.fstat(fd).st_size >= MAX_FILE:
                    note = f"{stamp} !{self.who}: (the transcript is full: {MAX_FILE // 2**20} "
                    os.write(fd, f"{note}MiB; nothing more of this process's)\n".encode())
                    raise OSError(errno.EFBIG, "the transcript is full")
                os.write(fd, text.encode("utf-8", "replace"))
            except OSError:  # full, or a full disk: the match goes on; it is an aid
                os.close(fd)
                self._fd = None

    def close(self) -> None:
        """Close the file. Safe to call twice."""
        with self._lock:
            if self._fd is not None:
                os.close(self._fd)
                self._fd = None


def start_transcript(path: str | os.PathLike[str], *, append: bool = False) -> None:
    """Make (or empty, unless ``append``) the transcript file and write its header line. A
    file that holds anything else (a log given by mistake) is never overwritten.

    :raises OSError: it cannot be written, or it holds something that is not a transcript.
    """
    try:
        with open(path, "rb") as file:
            first = file.readline(len(HEADER) + 1)
    except FileNotFoundError:
        first = b""
    except IsADirectoryError:
        raise IsADirectoryError(errno.EISDIR, "it is a folder", str(path)) from None
    if first and first != HEADER.encode():
        raise FileExistsError(
            errno.EEXIST, "the file holds something other than a transcript: give a new name",
            str(path),
        )  # fmt: skip
    with open(path, "a" if append else "w", encoding="utf-8") as file:
        file.write(HEADER)
