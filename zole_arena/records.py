"""Game records: JSON Lines, one header per match and one self-contained record per deal.

The format is specified in ``protocol/records.md``. Writing is strict: each record is built
from the engine's own objects, serialised to one line and appended with a single unbuffered
write as the deal ends (synced to disk when the log is closed), so that a crash can at worst
truncate the last line. Reading is lenient:
:func:`read_log` returns the records it could read and a list of :class:`LogProblem` for
the lines it could not (a truncated last line is reported and skipped, never fatal), and
raises :class:`RecordError` only for a file that is not a zole-arena log at all.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime
import json
import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, Final

from zole_arena import __version__
from zole_arena.cards import CARDS, POINTS, cards_of
from zole_arena.errors import ZoleError
from zole_arena.state import DealResult, DealState

__all__ = [
    "FORMAT",
    "FORMAT_VERSION",
    "LogProblem",
    "LogWriter",
    "RecordError",
    "check_log_path",
    "deal_record",
    "encode",
    "header_record",
    "read_log",
]

#: The ``format`` field of every record.
FORMAT: Final = "zole-arena"
#: The version of the record format.
FORMAT_VERSION: Final = 1
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
    """A record as the one line a log holds for it (compact JSON, UTF-8, ending in a newline)."""
    return (_ENCODER.encode(record) + "\n").encode()


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


class LogWriter:
    """Appends records to a log file, one whole line per write, flushed and synced."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        """Open the log for appending (its folder is made if missing).

        :raises RecordError: the log cannot be written there.
        """
        self.path = Path(path)
        self._fd = _open_log(self.path)
        self._repair_tail()

    def _repair_tail(self) -> None:
        """After a crash mid-write the file may end without a newline: end that line, so the
        next record starts on a line of its own (the broken line is reported by readers)."""
        size = os.fstat(self._fd).st_size
        if size == 0:
            return
        with open(self.path, "rb") as handle:
            handle.seek(size - 1)
            if handle.read(1) != b"\n":
                os.write(self._fd, b"\n")

    def write(self, record: dict[str, Any]) -> None:
        """Append one record as one line, in one unbuffered write: once this returns, the
        record survives the arena's crash or kill (it is in the operating system's hands).
        """
        self.write_line(encode(record))

    def write_line(self, data: bytes) -> None:
        """Append one record already encoded by :func:`encode` (one whole line), in one
        unbuffered write."""
        view = memoryview(data)
        while view:
            written = os.write(self._fd, view)
            view = view[written:]

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


def _iter_lines(path: Path) -> Iterator[tuple[int, bytes, bool]]:
    """Lines with their numbers, and whether each ended with a newline."""
    with open(path, "rb") as handle:
        for number, raw in enumerate(handle, start=1):
            yield number, raw.rstrip(b"\r\n"), raw.endswith(b"\n")


def read_log(path: str | os.PathLike[str]) -> tuple[list[dict[str, Any]], list[LogProblem]]:
    """Read a log: its records (header first) and the problems with lines it skipped.

    :raises RecordError: the file cannot be read, or is not a zole-arena log (its first
        readable line is not a zole-arena record).
    """
    path = Path(path)
    name = str(path)
    try:
        lines = list(_iter_lines(path))
    except FileNotFoundError:
        raise RecordError(f"{name}: no such file") from None
    except IsADirectoryError:
        raise RecordError(f"{name}: is a folder, not a log file") from None
    except OSError as exc:
        raise RecordError(f"{name}: cannot read it: {exc.strerror}") from None
    records: list[dict[str, Any]] = []
    problems: list[LogProblem] = []
    for number, raw, ended in lines:
        if not raw.strip():
            continue
        try:
            record = json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError):
            record = None
        if not isinstance(record, dict) or record.get("format") != FORMAT:
            if not records and not problems:
                raise RecordError(
                    f"{name}: not a zole-arena log (line {number} is not a zole-arena record)"
                )
            last = number == len(lines)
            cut_short = record is None and raw.startswith(_RECORD_START)
            if last and not ended:
                why = "truncated last line (the arena stopped while writing it): skipped"
            elif cut_short:
                why = "truncated record (the arena stopped while writing it): skipped"
            else:
                why = "not a zole-arena record: skipped"
            problems.append(LogProblem(name, number, why))
            continue
        if record.get("format_version") != FORMAT_VERSION:
            problems.append(
                LogProblem(
                    name,
                    number,
                    f"record format version {record.get('format_version')!r} is not "
                    f"{FORMAT_VERSION}: skipped",
                )
            )
            continue
        records.append(record)
    if not records and not problems:
        raise RecordError(f"{name}: empty file, not a zole-arena log")
    return records, problems
