"""Writing a log: records as the bytes of their lines, appended whole and chained.

:func:`to_json` is the one place that turns a record (:mod:`zole_arena.records.model`) into
the JSON object of ``protocol/records.md``, key by key in the format's order; :func:`encode`
makes it a line. :class:`LogWriter` appends each line with a single unbuffered write as the
deal ends (synced to disk when the log is closed), so that a crash can at worst truncate the
last line, and cuts a write that fails part-way (a full disk) back off, so that the log ends
with its last whole record. Every line of a format-2 log names the SHA-256 of the line before
it (``prev``), so that an edited, removed or reordered record shows, and the hash of the last
line, the log's **digest**, pins the whole log.
"""

from __future__ import annotations

import contextlib
import datetime
import hashlib
import json
import os
import stat
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, Final

from zole_arena.game.cards import CARDS
from zole_arena.game.state import DealResult
from zole_arena.records.model import (
    ABSENT,
    FORMAT,
    FORMAT_VERSION,
    DealRecord,
    Fault,
    Header,
    HeaderSettings,
    LoggedTrick,
    MatchHeader,
    Move,
    PlayerInfo,
    SettleRecord,
    TableDeal,
    TournamentHeader,
)
from zole_arena.records.reader import RecordError, first_format_version, last_line_hash

__all__ = [
    "LogWriter",
    "check_log_path",
    "encode",
    "fault_json",
    "is_regular_log",
    "to_json",
    "trick_json",
]


_NAMES: Final = tuple(str(card) for card in CARDS)


def _time(when: datetime.datetime | None) -> str | None:
    return None if when is None else when.isoformat()


def fault_json(fault: Fault) -> dict[str, Any]:
    """A fault as records write it."""
    return {
        "deal_no": fault.deal_no,
        "seat": fault.seat,
        "player": fault.player,
        "bot": fault.bot,
        "kind": fault.kind.value,
        "message": fault.message,
        "request": fault.request,
        "reply": fault.reply,
    }


def _tricks(tricks: Iterable[LoggedTrick]) -> list[dict[str, Any]]:
    """Tricks as records write them (the one place that knows how)."""
    names = _NAMES
    return [
        {"leader": leader, "cards": [names[x], names[y], names[z]], "winner": winner,
         "points": points}
        for leader, (x, y, z), winner, points in tricks
    ]  # fmt: skip


def trick_json(trick: LoggedTrick) -> dict[str, Any]:
    """A trick as records write it."""
    return _tricks((trick,))[0]


def _result(result: DealResult) -> dict[str, Any]:
    return {
        "contract": None if result.contract is None else result.contract.value,
        "soloist": result.soloist,
        "scores": list(result.scores),
        "tricks": list(result.tricks),
        "points": list(result.points),
        "band": None if result.band is None else result.band.value,
        "soloist_points": result.soloist_points,
        "soloist_tricks": result.soloist_tricks,
        "losers": list(result.losers),
        "pules": result.pules.to_dict(),
        "pule_event": result.pule_event,
        "ended_early": result.ended_early,
        "forfeit": result.forfeit,
    }


def _deal(record: DealRecord) -> dict[str, Any]:
    names = _NAMES
    a, b, c = record.hands
    return (
        {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "type": "deal",
            "arena_version": record.arena_version,
            "match_id": record.match_id,
            "deal": record.deal,
            "block": record.block,
            "seating": list(record.seating),
            "seed": record.seed,
            "deal_no": record.deal_no,
            "dealer": record.dealer,
            "rules": record.rules if type(record.rules) is dict else dict(record.rules),
            "pules_before": record.pules_before.to_dict(),
            "hands": [[names[x] for x in a], [names[x] for x in b], [names[x] for x in c]],
            "talon": [names[x] for x in record.talon],
            "moves": _moves(record.moves),
            "buried": [names[x] for x in record.buried],
            "tricks": _tricks(record.tricks),
            "result": _result(record.result),
            "totals": list(record.totals),
            "termination": record.termination.value,
            "culprit": None if record.culprit is None else fault_json(record.culprit),
            "faults": [fault_json(fault) for fault in record.faults],
            "players": [
                {"name": p.name, "version": p.version, "command": list(p.command)}
                for p in record.players
            ],
            "finished": _time(record.finished),
        }
        | ({"stray": list(record.stray)} if any(record.stray) else {})
        | ({} if record.table is None else {"table": _table(record.table)})
    )


def _table(table: TableDeal) -> dict[str, Any]:
    sitter = table.sitter
    return {
        "size": table.size,
        "dealer": table.dealer,
        "sitter": {"name": sitter.name, "version": sitter.version,
                   "command": list(sitter.command)},
        "pules_before": table.pules_before.to_dict(),
        "scores": list(table.scores),
        "totals": list(table.totals),
        "pules": table.pules.to_dict(),
        "pule_event": table.pule_event,
    }  # fmt: skip


def _settle(record: SettleRecord) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "type": "settle",
        "arena_version": record.arena_version,
        "match_id": record.match_id,
        "after": record.after,
        "pules": record.pules.to_dict(),
        "payment": record.payment,
        "scores": list(record.scores),
        "totals": list(record.totals),
        "finished": _time(record.finished),
    }


def _moves(moves: Sequence[Move]) -> list[dict[str, Any]]:
    # think_ms to the microsecond: finer digits are noise, and cost log space
    written = [
        {
            "seat": seat,
            "action": action,
            "request_id": request,
            "think_ms": None if ms is None else round(ms, 3),
        }
        for seat, action, request, ms, _ in moves
    ]
    # clock_ms only under a game clock (then every move has one): logs without stay as they were
    if moves and moves[0].clock_ms is not None:
        for move, logged in zip(written, moves, strict=True):
            move["clock_ms"] = logged.clock_ms
    return written


def _settings(settings: HeaderSettings) -> dict[str, Any]:
    data: dict[str, Any] = {
        "movetime_ms": settings.movetime_ms,
        "margin_ms": settings.margin_ms,
        "startup_ms": settings.startup_ms,
    }
    if settings.ping_ms is not ABSENT:
        data["ping_ms"] = settings.ping_ms
    data.update(
        on_fault=settings.on_fault,
        penalty=settings.penalty,
        max_faults=settings.max_faults,
        memory_mb=settings.memory_mb,
        cpu_seconds=settings.cpu_seconds,
    )
    if settings.processes is not ABSENT:
        data["processes"] = settings.processes
    if settings.stderr_bytes is not ABSENT:
        data["stderr_bytes"] = settings.stderr_bytes
    sandbox = settings.sandbox
    if sandbox is None:
        data["sandbox"] = None
    elif sandbox is not ABSENT:
        data["sandbox"] = {
            "tmp_mb": sandbox.tmp_mb,
            "readable": list(sandbox.readable),
            "hidden": list(sandbox.hidden),
        }
    if settings.process_per_seating is not ABSENT:
        data["process_per_seating"] = settings.process_per_seating
    if settings.tc is not None:
        data["tc"] = {"base_ms": settings.tc.base_ms, "inc_ms": settings.tc.inc_ms}
    if settings.fixed_pace:
        data["fixed_pace"] = True
    return data


def _player(player: PlayerInfo) -> dict[str, Any]:
    return {
        "name": player.name,
        "id_name": player.id_name,
        "author": player.author,
        "version": player.version,
        "command": list(player.command),
        "options": dict(player.options),
        "cwd": player.cwd,
    }


def _match(header: MatchHeader) -> dict[str, Any]:
    data: dict[str, Any] = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "type": "match",
        "arena_version": header.arena_version,
        "match_id": header.match_id,
        "created": _time(header.created),
        "rules": dict(header.rules),
        "seed": header.seed,
        "deals": header.deals,
        "duplicate": header.duplicate,
        "players": [_player(player) for player in header.players],
        "settings": _settings(header.settings),
    }
    if header.isolation is not None:
        data["isolation"] = header.isolation
    if header.tournament is not None:
        data["tournament"] = {"id": header.tournament.id, "table": header.tournament.table}
        if header.tournament.round is not None:
            data["tournament"]["round"] = header.tournament.round
    if header.sprt is not None:
        sprt = header.sprt
        data["sprt"] = {"new": sprt.new, "old": sprt.old, "third": sprt.third,
                        "elo0": sprt.elo0, "elo1": sprt.elo1, "alpha": sprt.alpha,
                        "beta": sprt.beta}  # fmt: skip
    return data


def _tournament(header: TournamentHeader) -> dict[str, Any]:
    data: dict[str, Any] = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "type": "tournament",
        "arena_version": header.arena_version,
        "match_id": header.match_id,
        "tournament_id": header.tournament_id,
        "created": _time(header.created),
        "tournament_format": header.tournament_format,
        "gauntlet": header.gauntlet,
        "entrants": [
            {"name": e.name, "command": list(e.command), "options": dict(e.options), "cwd": e.cwd}
            for e in header.entrants
        ],
        "tables": [list(table) for table in header.tables],
        "rules": dict(header.rules),
        "seed": header.seed,
        "deals": header.deals,
        "duplicate": header.duplicate,
        "concurrency": header.concurrency,
        "settings": _settings(header.settings),
    }
    if header.rounds is not None:
        data["rounds"] = header.rounds
    if header.boards is not None:
        data["boards"] = header.boards
    if header.isolation is not None:
        data["isolation"] = header.isolation
    return data


def to_json(record: Header | DealRecord | SettleRecord) -> dict[str, Any]:
    """A record as the JSON object of its line, plain JSON values all through (beginning with
    ``format`` and ``format_version``; :class:`LogWriter` adds ``prev`` after them as it writes
    the line)."""
    if isinstance(record, DealRecord):
        return _deal(record)
    if isinstance(record, SettleRecord):
        return _settle(record)
    if isinstance(record, MatchHeader):
        return _match(record)
    return _tournament(record)


# Records are trees built here, never cyclic: the encoder's cycle check (a dict of the ids of
# every open container) would cost a sixth of the encoding.
_ENCODER: Final = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, check_circular=False)


def encode(record: Header | DealRecord | SettleRecord) -> bytes:
    """A record as the one line a log holds for it (compact JSON, UTF-8, ending in a newline),
    in format 2 without its ``prev``."""
    return (_ENCODER.encode(to_json(record)) + "\n").encode()


#: How every line :func:`encode` makes begins.
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
            self._last = last_line_hash(handle, size)
            handle.seek(0)
            if first_format_version(handle) == 1:
                self.format_version = 1

    @property
    def digest(self) -> str | None:
        """The log's digest so far, ``sha256:<hex>`` of its last line (None: still empty)."""
        return None if self._last is None else f"sha256:{self._last}"

    def write(self, record: Header | DealRecord | SettleRecord) -> None:
        """Append one record as one line, in one unbuffered write: once this returns, the
        record survives the arena's crash or kill (it is in the operating system's hands).

        :raises RecordError: the line could not be written (the file is as it was before).
        """
        if self._failed is not None:
            raise RecordError(self._failed)
        line = self._chained(encode(record))
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

    def _chained(self, data: bytes) -> bytes:
        """The line to write for a line of :func:`encode`: with ``prev`` (format 2), or as
        format 1 when continuing a format-1 log."""
        rest = memoryview(data)[len(_ENCODED_START) :]
        if self.format_version == 1:
            return _VERSION_1_START + rest
        prev = b"null" if self._last is None else b'"' + self._last.encode() + b'"'
        return b"".join((_ENCODED_START, b'"prev":', prev, b",", rest))

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
