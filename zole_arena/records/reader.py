"""Reading a log: lenient, streaming, one typed record (or one problem) a line.

:class:`LogReader` yields a :class:`LogEntry` for every line that is not blank, never holding
more than one line and never reading a line longer than :data:`MAX_LINE_BYTES` into memory:
the line's record (:mod:`zole_arena.records.model`, built by
:func:`~zole_arena.records.parse.from_json`), or a :class:`LogProblem` that says in one line why
it was skipped — not JSON, cut short by a crash (reported, never fatal), nested too deep,
gigantic, of another format version, or a deal record of the wrong shape. Keys a record does
not need are ignored, so that logs of later versions still read. :func:`read_log` collects the
records. :class:`RecordError` is raised only for a file that is not a zole-arena log at all.

The entry also gives what the line says about its place in the log: its format version and
its ``prev`` (the hash of the line before, in format 2), with the hash of the line itself, for
``verify``'s check of the chain.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any, Final

from zole_arena.errors import ZoleError
from zole_arena.records.checks import short
from zole_arena.records.model import ABSENT, FORMAT, Absent, Record
from zole_arena.records.parse import from_json

__all__ = [
    "check_log_path",
    "MAX_LINE_BYTES",
    "LogEntry",
    "LogProblem",
    "LogReader",
    "RecordError",
    "last_line_digest",
    "log_type",
    "read_log",
]

#: The longest line a reader reads: a deal record is a few KB, so a longer line is no record,
#: and is skipped without being read into memory.
MAX_LINE_BYTES: Final = 1 << 20
#: How every record a writer writes begins (a line that begins so but does not parse was
#: cut short by a crash, and was ended with a newline when the match was resumed).
_RECORD_START: Final = b'{"format":"zole-arena"'


class RecordError(ZoleError):
    """A file that cannot be read as a zole-arena log, or a log that cannot be written."""


@dataclasses.dataclass(frozen=True)
class LogProblem:
    """A line of a log that could not be used."""

    path: str
    line: int
    message: str

    @property
    def truncated(self) -> bool:
        """A record cut short by a crash: expected after one, not a sign of a bad log."""
        return self.message.startswith("truncated")

    def describe(self) -> str:
        """One line for people: ``file:line: message``."""
        return f"{self.path}:{self.line}: {self.message}"


@dataclasses.dataclass(frozen=True, slots=True)
class LogEntry:
    """One line of a log that is not blank: a record, or the problem that made it unusable."""

    line: int
    """Its number, from 1."""
    record: Record | None
    problem: LogProblem | None
    """Why the line was skipped (``record`` is then None)."""
    sha256: str
    """The SHA-256 (hex) of the line's bytes, without its newline."""
    previous: str | None
    """The SHA-256 of the line before it, or None for the file's first line: what a format-2
    record's ``prev`` must be."""
    format_version: int = 0
    """The record's format version (0 for a skipped line)."""
    prev: str | Absent | None = ABSENT
    """The record's ``prev``: the hash it names, None for null, absent in format 1 (or when a
    format-2 record lacks it)."""


# -- hashes of lines ---------------------------------------------------------------------------


def _last_line_start(handle: IO[bytes], end: int) -> int:
    """Where the line that ends at ``end`` (its newline excluded) begins, reading back from it
    a block at a time (a line may be a gigabyte long)."""
    position = end
    while position > 0:
        step = min(1 << 16, position)
        handle.seek(position - step)
        block = handle.read(step)
        newline = block.rfind(b"\n")
        if newline >= 0:
            return position - step + newline + 1
        position -= step
    return 0


def _hash_range(handle: IO[bytes], start: int, end: int) -> str:
    digest = hashlib.sha256()
    handle.seek(start)
    left = end - start
    while left > 0:
        block = handle.read(min(1 << 16, left))
        if not block:
            break
        digest.update(block)
        left -= len(block)
    return digest.hexdigest()


def last_line_hash(handle: IO[bytes], size: int) -> str | None:
    """The SHA-256 (hex) of a file's last line, without its newline; None for an empty file."""
    if size == 0:
        return None
    handle.seek(size - 1)
    end = size - 1 if handle.read(1) == b"\n" else size
    return _hash_range(handle, _last_line_start(handle, end), end)


def last_line_digest(path: str | os.PathLike[str]) -> str | None:
    """A log's digest, ``sha256:<hex>`` of its last line, read from the end of the file;
    None for an empty or unreadable file."""
    try:
        with open(path, "rb") as handle:
            found = last_line_hash(handle, os.fstat(handle.fileno()).st_size)
    except OSError:
        return None
    return None if found is None else f"sha256:{found}"


def _rest_of_line(handle: IO[bytes], head: bytes) -> tuple[int, bool, str]:
    """Read on to the end of a line longer than :data:`MAX_LINE_BYTES`, a block at a time,
    hashing it without keeping it: (its size, ended with a newline, its SHA-256)."""
    digest = hashlib.sha256(head)
    size = len(head)
    while block := handle.readline(1 << 16):
        ended = block.endswith(b"\n")
        if ended:
            block = block[:-1]
        digest.update(block)
        size += len(block)
        if ended:
            return size, True, digest.hexdigest()
    return size, False, digest.hexdigest()


# -- lines ---------------------------------------------------------------------------------------


class _TooDeep:
    """What :func:`_decode` gives for JSON nested too deep to read (no record is)."""


_TOO_DEEP: Final = _TooDeep()


class _Cut:
    """What :func:`_decode` gives for JSON that stops too early: a line cut short."""


_CUT: Final = _Cut()


class _Surrogate:
    """What :func:`_decode` gives for JSON text holding a lone surrogate (``\\ud800``)."""


_SURROGATE: Final = _Surrogate()


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not a JSON number")


#: NaN and Infinity are not JSON (Python's json reads them unless told): a line that holds
#: one is not JSON, as the arena never writes one.
_DECODER: Final = json.JSONDecoder(parse_constant=_no_constant)


def _decode(raw: bytes) -> Any:
    """A line's JSON value; None when it is not JSON (``NaN`` and ``Infinity`` are not),
    :data:`_CUT` when it is JSON cut off (what an arena stopped while writing leaves),
    :data:`_TOO_DEEP` when it is nested too deep for the reader, :data:`_SURROGATE` when its
    text holds a lone surrogate."""
    try:
        value = _DECODER.decode(raw.decode())
    except json.JSONDecodeError as exc:
        return _CUT if _cut_off(exc) else None
    except ValueError:  # UnicodeDecodeError; an integer too long to read
        return None
    except RecursionError:
        return _TOO_DEEP
    if _ESCAPED_SURROGATE.search(raw) and _lone_surrogate(value):
        return _SURROGATE  # text no writer of text makes: every reader would trip on it
    return value


#: A surrogate written as an escape (``\ud800``): decoded alone, it is no character.
_ESCAPED_SURROGATE: Final = re.compile(rb"\\u[dD][89a-fA-F]")


def _lone_surrogate(value: Any) -> bool:
    """Whether a decoded value holds a string with a lone surrogate (a pair is a character)."""
    if isinstance(value, str):
        try:
            value.encode()
        except UnicodeEncodeError:
            return True
        return False
    if isinstance(value, list):
        return any(map(_lone_surrogate, value))
    if isinstance(value, dict):
        return any(map(_lone_surrogate, value)) or any(map(_lone_surrogate, value.values()))
    return False


def _cut_off(exc: json.JSONDecodeError) -> bool:
    """Whether the JSON ends too early (a prefix of a value: a cut string, or the end within
    a literal's few letters), not whether it is damaged elsewhere or has more after its end."""
    if exc.msg.startswith("Unterminated string"):
        return True
    return not exc.msg.startswith("Extra data") and exc.pos >= len(exc.doc.rstrip()) - 4


def first_format_version(handle: IO[bytes]) -> object:
    """The ``format_version`` of the first line of a log open at its start (None if none)."""
    first = _decode(handle.readline(MAX_LINE_BYTES + 1))
    return first.get("format_version") if isinstance(first, dict) else None


def check_log_path(path: str | os.PathLike[str]) -> None:
    """Check that ``path`` names a file that can be read as a log.

    :raises RecordError: a folder, a link to nothing, not a regular file, no such file, or a
        path the system refuses (too long, say).
    """
    name, where = str(path), Path(path)
    try:
        if where.is_dir():
            raise RecordError(f"{name}: is a folder, not a log")
        if where.is_symlink() and not where.exists():
            raise RecordError(f"{name}: a link to nothing (or a loop of links)")
        if where.exists() and not where.is_file():
            raise RecordError(f"{name}: not a regular file")
        if not where.is_file():
            raise RecordError(f"{name}: no such file")
    except OSError as exc:
        raise RecordError(f"{name}: cannot be read ({exc.strerror or exc})") from None


def log_type(path: str | os.PathLike[str]) -> str | None:
    """What a file's first line says the log is, ``match`` or ``tournament``, whether or not
    the record would read; None for anything else (for a hint to the user, not for reading)."""
    try:
        with open(path, "rb") as handle:
            first = _decode(handle.readline(MAX_LINE_BYTES + 1))
    except OSError:
        return None
    if not isinstance(first, dict) or first.get("format") != FORMAT:
        return None
    kind = first.get("type")
    return kind if kind in ("match", "tournament") else None


class _Line:
    """What a line that is not blank holds: a record with its place in the chain, or why it
    cannot be used (and whether it is no zole-arena record at all)."""

    __slots__ = ("record", "why", "foreign", "version", "prev")

    def __init__(self, record: Record | None, why: str = "", foreign: bool = False) -> None:
        self.record = record
        self.why = why
        self.foreign = foreign
        self.version = 0
        self.prev: str | Absent | None = ABSENT


def _read_line(raw: bytes, ended: bool) -> _Line:
    value = _decode(raw)
    if not isinstance(value, dict) or value.get("format") != FORMAT:
        if value is _TOO_DEEP:
            return _Line(None, "nested too deep to be a record: skipped", True)
        if value is _SURROGATE:
            return _Line(None, "text with a lone surrogate (an escape such as \\ud800 that is "
                         "no character): skipped", not raw.startswith(_RECORD_START))  # fmt: skip
        if not ended:
            return _Line(None, "truncated last line (the arena stopped while writing it): "
                         "skipped", True)  # fmt: skip
        if value is _CUT and raw.startswith(_RECORD_START):
            return _Line(None, "truncated record (the arena stopped while writing it): skipped",
                         True)  # fmt: skip
        if raw.startswith(_RECORD_START):
            return _Line(None, "damaged record (not JSON, and not cut short): skipped", True)
        return _Line(None, "not a zole-arena record: skipped", True)
    record = from_json(value)
    if isinstance(record, str):
        return _Line(None, f"{record}: skipped")
    line = _Line(record)
    line.version = value["format_version"]
    if line.version >= 2 and "prev" in value:
        prev = value["prev"]
        if prev is not None and not isinstance(prev, str):
            return _Line(None, f"prev is {short(prev)}, not null or a hash: skipped")
        line.prev = prev
    return line


class LogReader:
    """The lines of a log, read one at a time: ``for entry in LogReader(path)``.

    Memory does not grow with the file: one line is held at a time, and a line longer than
    :data:`MAX_LINE_BYTES` is reported and skipped without being read into memory. After the
    iteration, :attr:`digest` is the log's digest (the hash of its last line).

    :raises RecordError: (while iterating) the file cannot be read, or is not a zole-arena
        log (its first line that is not blank is not a zole-arena record), or is empty.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self.digest: str | None = None
        """``sha256:<hex>`` of the last line, once the log is read to its end."""
        self.lines = 0
        """Lines read so far."""

    def __iter__(self) -> Iterator[LogEntry]:
        name = str(self.path)
        try:
            handle = open(self.path, "rb")  # noqa: SIM115 (closed below, also on error)
        except FileNotFoundError:
            raise RecordError(f"{name}: no such file") from None
        except IsADirectoryError:
            raise RecordError(f"{name}: is a folder, not a log file") from None
        except OSError as exc:
            raise RecordError(f"{name}: cannot read it: {exc.strerror}") from None
        with handle:
            try:
                yield from self._entries(handle, name)
            except IsADirectoryError:
                raise RecordError(f"{name}: is a folder, not a log file") from None
            except OSError as exc:
                raise RecordError(f"{name}: cannot read it: {exc.strerror}") from None

    def _entries(self, handle: IO[bytes], name: str) -> Iterator[LogEntry]:
        previous: str | None = None
        seen = False
        number = 0
        while head := handle.readline(MAX_LINE_BYTES + 1):
            number += 1
            self.lines = number
            ended = head.endswith(b"\n")
            raw = head[:-1] if ended else head
            del head
            if not ended and len(raw) > MAX_LINE_BYTES:
                if not seen:  # not worth reading on: this is no log
                    raise RecordError(f"{name}: not a zole-arena log (line {number} is longer "
                                      "than any record)")  # fmt: skip
                size, ended, sha = _rest_of_line(handle, raw)
                del raw
                before, previous = previous, sha
                self.digest = f"sha256:{sha}"
                why = f"a line of {size} bytes, longer than any record: skipped"
                yield LogEntry(number, None, LogProblem(name, number, why), sha, before)
                continue
            sha = hashlib.sha256(raw).hexdigest()
            before, previous = previous, sha
            self.digest = f"sha256:{sha}"
            if not raw.strip():
                continue
            line = _read_line(raw, ended)
            if line.foreign and not seen:
                raise RecordError(f"{name}: not a zole-arena log (line {number} is not a "
                                  "zole-arena record)")  # fmt: skip
            seen = True
            if line.record is not None:
                yield LogEntry(number, line.record, None, sha, before, line.version, line.prev)
            else:
                yield LogEntry(number, None, LogProblem(name, number, line.why), sha, before)
        if not seen:
            raise RecordError(f"{name}: empty file, not a zole-arena log")


def read_log(path: str | os.PathLike[str]) -> tuple[list[Record], list[LogProblem]]:
    """Read a whole log: its records (header first) and the problems with lines it skipped
    (for the callers that need every record at once; :class:`LogReader` streams).

    :raises RecordError: the file cannot be read, or is not a zole-arena log (its first
        readable line is not a zole-arena record).
    """
    records: list[Record] = []
    problems: list[LogProblem] = []
    for entry in LogReader(path):
        if entry.record is not None:
            records.append(entry.record)
        elif entry.problem is not None:
            problems.append(entry.problem)
    return records, problems
