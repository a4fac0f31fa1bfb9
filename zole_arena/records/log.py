"""Game records: JSON Lines, one header per match and one self-contained record per deal.

The format is specified in ``protocol/records.md``. Writing is strict: each record is built
from the engine's own objects, serialised to one line and appended with a single unbuffered
write as the deal ends (synced to disk when the log is closed), so that a crash can at worst
truncate the last line, and a write that fails part-way (a full disk) is cut back off, so that
the log ends with its last whole record. Every line of a format-2 log names the SHA-256 of the
line before it (``prev``), so that an edited, removed or reordered record shows, and the hash
of the last line, the log's **digest**, pins the whole log.

Reading is lenient and streams: :class:`LogReader` yields the records one line at a time (never
holding more than one line, and never reading a line longer than :data:`MAX_LINE_BYTES` into
memory) with a :class:`LogProblem` for each line it cannot use (a truncated last line is
reported and skipped, never fatal); :func:`read_log` collects them. Deal records of the wrong
shape are skipped too (:func:`~zole_arena.records.checks.deal_shape_problem`), so that readers
meet only values of the types they expect; headers are passed on as they are, to be checked
with :func:`~zole_arena.records.checks.check_header` before use. :class:`RecordError` is raised
only for a file that is not a zole-arena log at all.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime
import hashlib
import json
import os
import stat
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO, Any, Final

from zole_arena import __version__
from zole_arena.errors import ZoleError
from zole_arena.game.cards import CARDS, POINTS, cards_of
from zole_arena.game.state import DealResult, DealState
from zole_arena.records.checks import deal_shape_problem, short

__all__ = [
    "FORMAT",
    "FORMAT_VERSION",
    "MAX_LINE_BYTES",
    "READABLE_VERSIONS",
    "LogEntry",
    "LogProblem",
    "LogReader",
    "LogWriter",
    "RecordError",
    "check_log_path",
    "deal_record",
    "encode",
    "header_record",
    "is_regular_log",
    "last_line_digest",
    "read_log",
]

#: The ``format`` field of every record.
FORMAT: Final = "zole-arena"
#: The version of the record format new logs are written in: 2, with the hash chain (``prev``).
FORMAT_VERSION: Final = 2
#: The versions readers accept (1: before the hash chain).
READABLE_VERSIONS: Final = (1, 2)
#: The longest line a reader reads: a deal record is a few KB, so a longer line is no record,
#: and is skipped without being read into memory.
MAX_LINE_BYTES: Final = 1 << 20
#: How every record this writer writes begins (a line that begins so but does not parse was
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


def _now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")


def header_record(
    *,
    match_id: str,
    rules: dict[str, Any],
    seed: int,
    players: Sequence[dict[str, Any]],
    deals: int,
    duplicate: bool,
    settings: dict[str, Any],
) -> dict[str, Any]:
    """The first record of a log: the match as it was set up."""
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "type": "match",
        "arena_version": __version__,
        "match_id": match_id,
        "created": _now(),
        "rules": rules,
        "seed": seed,
        "deals": deals,
        "duplicate": duplicate,
        "players": list(players),
        "settings": settings,
    }


_NAMES: Final = tuple(str(card) for card in CARDS)


def _cards(mask: int) -> list[str]:
    return [_NAMES[card] for card in cards_of(mask)]


def _result(result: DealResult) -> dict[str, Any]:
    return {
        "contract": None if result.contract is None else str(result.contract),
        "soloist": result.soloist,
        "scores": list(result.scores),
        "tricks": list(result.tricks),
        "points": list(result.points),
        "band": result.band,
        "soloist_points": result.soloist_points,
        "soloist_tricks": result.soloist_tricks,
        "losers": list(result.losers),
        "pules": result.pules.to_dict(),
        "pule_event": result.pule_event,
        "ended_early": result.ended_early,
        "forfeit": result.forfeit,
    }


def deal_record(
    *,
    match_id: str,
    number: int,
    block: int,
    seating: Sequence[int],
    rules: dict[str, Any],
    seed: int,
    state: DealState,
    result: DealResult,
    moves: Sequence[dict[str, Any]],
    faults: Sequence[dict[str, Any]],
    players: Sequence[dict[str, Any]],
    totals: Sequence[int],
) -> dict[str, Any]:
    """One finished deal, with everything needed to replay, check and re-feed it.

    :param number: the deal's 1-based number in the log.
    :param block: the shuffle's deal number (the same for the six seatings of a duplicate
        block).
    :param seating: ``seating[seat]`` is the index (in the header's ``players``) of the
        player in that seat.
    :param players: the identity of the bot in each seat (name, version, command).
    :param totals: each seat's cumulative score after this deal, on this seating's sheet.
    """
    forfeit = result.forfeit
    culprit = None
    if forfeit is not None:
        culprit = next((f for f in faults if f.get("seat") == forfeit), None)
    tricks = [
        {"leader": leader, "cards": [_NAMES[a], _NAMES[b], _NAMES[c]], "winner": winner,
         "points": POINTS[a] + POINTS[b] + POINTS[c]}
        for leader, a, b, c, winner in state.trick_log()
    ]  # fmt: skip
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "type": "deal",
        "arena_version": __version__,
        "match_id": match_id,
        "deal": number,
        "block": block,
        "seating": list(seating),
        "seed": seed,
        "deal_no": state.deal_no,
        "dealer": state.dealer,
        "rules": rules,
        "pules_before": state.pules.to_dict(),
        "hands": [_cards(mask) for mask in state.initial_hands],
        "talon": _cards(state.talon),
        "moves": list(moves),
        "buried": _cards(state.buried),
        "tricks": tricks,
        "result": _result(result),
        "totals": list(totals),
        "termination": "normal" if forfeit is None else "forfeit",
        "culprit": culprit,
        "faults": list(faults),
        "players": list(players),
        "finished": _now(),
    }


# Records are trees built here, never cyclic: the encoder's cycle check (a dict of the ids of
# every open container) would cost a sixth of the encoding.
_ENCODER: Final = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, check_circular=False)


def encode(record: dict[str, Any]) -> bytes:
    """A record as the one line a log holds for it (compact JSON, UTF-8, ending in a newline).

    A record built here begins with ``format`` and ``format_version``; :class:`LogWriter`
    adds ``prev`` after them as it writes the line.
    """
    return (_ENCODER.encode(record) + "\n").encode()


#: How every line :func:`encode` makes of a record of this module begins.
_ENCODED_START: Final = f'{{"format":"{FORMAT}","format_version":{FORMAT_VERSION},'.encode()
#: How a line of a format-1 log begins.
_VERSION_1_START: Final = f'{{"format":"{FORMAT}","format_version":1,'.encode()


def _sha256(data: bytes | memoryview) -> str:
    return hashlib.sha256(data).hexdigest()


def _open_log(path: Path) -> int:
    """Open ``path`` for appending, making its folder if missing; the file descriptor.

    :raises RecordError: the log cannot be written there (a one-line reason).
    """
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        return os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    except (FileExistsError, NotADirectoryError):
        raise RecordError(
            f"cannot write the log {path}: a part of {path.parent} is a file, not a folder"
        ) from None
    except IsADirectoryError:
        raise RecordError(f"cannot write the log {path}: it is a folder") from None
    except OSError as exc:
        raise RecordError(f"cannot write the log {path}: {exc.strerror or exc}") from None


def check_log_path(path: str | os.PathLike[str]) -> None:
    """Make sure a log can be written at ``path`` before anything is started: its folder is
    made if missing, and the file is opened for appending (and removed again if it is new).

    :raises RecordError: the log cannot be written there (a one-line reason).
    """
    target = Path(path)
    existed = target.exists()
    os.close(_open_log(target))
    if not existed:
        target.unlink(missing_ok=True)


def is_regular_log(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is (or would be created as) a regular file: not ``/dev/null``, a pipe
    or another device, beside which nothing (a bot's stderr file, say) should be written."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except FileNotFoundError:
        return True
    except OSError:
        return False


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


def _last_line_hash(handle: IO[bytes], size: int) -> str | None:
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
            found = _last_line_hash(handle, os.fstat(handle.fileno()).st_size)
    except OSError:
        return None
    return None if found is None else f"sha256:{found}"


class LogWriter:
    """Appends records to a log file, one whole line per write, flushed and synced, each line
    (in a format-2 log) chained to the one before it by its ``prev`` hash.

    A write that fails (a full disk, a file-size limit) is cut back off the file, so that the
    log ends with its last whole record, and raises :class:`RecordError`; so does every
    write after it.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        """Open the log for appending (its folder is made if missing). An existing log is
        continued: a cut-short last line is ended, the last line is hashed for the next
        ``prev``, and a format-1 log goes on in format 1 (without the chain).

        :raises RecordError: the log cannot be written there.
        """
        self.path = Path(path)
        self._fd = _open_log(self.path)
        self._failed: str | None = None
        self.format_version = FORMAT_VERSION
        """The format the records are written in: 2, or 1 when continuing a format-1 log."""
        self._last: str | None = None
        """The SHA-256 (hex) of the file's last line, for the next record's ``prev``."""
        info = os.fstat(self._fd)
        self._regular = stat.S_ISREG(info.st_mode)
        if self._regular and info.st_size > 0:
            try:
                self._continue(info.st_size)
            except OSError as exc:
                os.close(self._fd)
                raise RecordError(
                    f"cannot continue the log {self.path}: {exc.strerror or exc}"
                ) from None

    def _continue(self, size: int) -> None:
        """Take up an existing log: end a line cut short by a crash (readers report it), so
        that the next record starts on a line of its own, hash the last line, and read the
        format of the first."""
        with open(self.path, "rb") as handle:
            handle.seek(size - 1)
            if handle.read(1) != b"\n":
                os.write(self._fd, b"\n")
                size += 1
            self._last = _last_line_hash(handle, size)
            handle.seek(0)
            first = _decode(handle.readline(MAX_LINE_BYTES + 1))
        if isinstance(first, dict) and first.get("format_version") == 1:
            self.format_version = 1

    @property
    def digest(self) -> str | None:
        """The log's digest so far, ``sha256:<hex>`` of its last line (None: still empty)."""
        return None if self._last is None else f"sha256:{self._last}"

    def write(self, record: dict[str, Any]) -> None:
        """Append one record as one line, in one unbuffered write: once this returns, the
        record survives the arena's crash or kill (it is in the operating system's hands).

        :raises RecordError: the line could not be written (the file is as it was before).
        """
        self.write_line(encode(record))

    def _chained(self, data: bytes) -> bytes:
        """The line to write for a line of :func:`encode`: with ``prev`` (format 2), or as
        format 1 when continuing a format-1 log."""
        if not data.startswith(_ENCODED_START) or not data.endswith(b"\n"):
            raise ValueError("not a line that records.encode made of a record of this module")
        rest = memoryview(data)[len(_ENCODED_START) :]
        if self.format_version == 1:
            return _VERSION_1_START + rest
        prev = b"null" if self._last is None else b'"' + self._last.encode() + b'"'
        return b"".join((_ENCODED_START, b'"prev":', prev, b",", rest))

    def write_line(self, data: bytes) -> None:
        """Append one record already encoded by :func:`encode` (one whole line), in one
        unbuffered write, with its ``prev``.

        :raises RecordError: the line could not be written (the file is as it was before).
        """
        if self._failed is not None:
            raise RecordError(self._failed)
        line = self._chained(data)
        start = os.lseek(self._fd, 0, os.SEEK_END) if self._regular else -1
        try:
            view = memoryview(line)
            while view:
                written = os.write(self._fd, view)
                if written == 0:
                    raise OSError(28, os.strerror(28))  # ENOSPC: nothing more goes in
                view = view[written:]
        except OSError as exc:
            self._failed = f"cannot write the log {self.path}: {exc.strerror or exc}"
            if not self._cut_back(start):
                self._failed += " (and a part of the record written could not be removed)"
            raise RecordError(self._failed) from None
        except BaseException:  # Ctrl-C between two parts of the line
            self._cut_back(start)
            raise
        self._last = _sha256(memoryview(line)[:-1])

    def _cut_back(self, start: int) -> bool:
        """Remove what a failed write left of its line; whether the file is whole again."""
        if start < 0:
            return True  # not a file: nothing to cut (a pipe, /dev/null)
        try:
            os.ftruncate(self._fd, start)
        except OSError:
            return False
        return True

    def close(self) -> None:
        """Sync the file to disk and close it."""
        if self._fd >= 0:
            with contextlib.suppress(OSError):
                os.fsync(self._fd)
            os.close(self._fd)
            self._fd = -1

    def __enter__(self) -> LogWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# -- reading ------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True, slots=True)
class LogEntry:
    """One line of a log that is not blank: a record, or the problem that made it unusable."""

    line: int
    """Its number, from 1."""
    record: dict[str, Any] | None
    problem: LogProblem | None
    """Why the line was skipped (``record`` is then None)."""
    sha256: str
    """The SHA-256 (hex) of the line's bytes, without its newline."""
    previous: str | None
    """The SHA-256 of the line before it, or None for the file's first line: what a format-2
    record's ``prev`` must be."""


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


class _TooDeep:
    """What :func:`_decode` gives for JSON nested too deep to read (no record is)."""


_TOO_DEEP: Final = _TooDeep()


def _decode(raw: bytes) -> Any:
    """A line's JSON value; None when it is not JSON, :data:`_TOO_DEEP` when it is nested too
    deep for the reader."""
    try:
        return json.loads(raw)
    except ValueError:  # JSONDecodeError, UnicodeDecodeError
        return None
    except RecursionError:
        return _TOO_DEEP


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
            sha = _sha256(raw)
            before, previous = previous, sha
            self.digest = f"sha256:{sha}"
            if not raw.strip():
                continue
            record, why, foreign = _read_record(raw, ended)
            if foreign and not seen:
                raise RecordError(f"{name}: not a zole-arena log (line {number} is not a "
                                  "zole-arena record)")  # fmt: skip
            seen = True
            if record is not None:
                yield LogEntry(number, record, None, sha, before)
            else:
                yield LogEntry(number, None, LogProblem(name, number, why), sha, before)
        if not seen:
            raise RecordError(f"{name}: empty file, not a zole-arena log")


def _read_record(raw: bytes, ended: bool) -> tuple[dict[str, Any] | None, str, bool]:
    """(the line's record, "", False); or (None, why it cannot be used, whether it is no
    zole-arena record at all: such a line cannot begin a log)."""
    value = _decode(raw)
    if not isinstance(value, dict) or value.get("format") != FORMAT:
        if value is _TOO_DEEP:
            return None, "nested too deep to be a record: skipped", True
        if not ended:
            return None, "truncated last line (the arena stopped while writing it): skipped", True
        if value is None and raw.startswith(_RECORD_START):
            return None, "truncated record (the arena stopped while writing it): skipped", True
        return None, "not a zole-arena record: skipped", True
    if value.get("format_version") not in READABLE_VERSIONS:
        versions = " or ".join(map(str, READABLE_VERSIONS))
        why = f"record format version {short(value.get('format_version'))} is not {versions}"
    elif not isinstance(value.get("type"), str) or not isinstance(value.get("match_id"), str):
        why = "a record without a type or match_id in text"
    elif value["type"] == "deal" and (shape := deal_shape_problem(value)) is not None:
        number = value["deal"] if type(value.get("deal")) is int else None
        why = f"{'a deal record' if number is None else f'deal {number}'}: {shape}"
    else:
        return value, "", False
    return None, f"{why}: skipped", False


def read_log(path: str | os.PathLike[str]) -> tuple[list[dict[str, Any]], list[LogProblem]]:
    """Read a whole log: its records (header first) and the problems with lines it skipped
    (for the callers that need every record at once; :class:`LogReader` streams).

    :raises RecordError: the file cannot be read, or is not a zole-arena log (its first
        readable line is not a zole-arena record).
    """
    records: list[dict[str, Any]] = []
    problems: list[LogProblem] = []
    for entry in LogReader(path):
        if entry.record is not None:
            records.append(entry.record)
        elif entry.problem is not None:
            problems.append(entry.problem)
    return records, problems
