"""What a tournament and its worker processes say to each other: one line of JSON a message.

A tournament (:mod:`zole_arena.events.tournament`) talks to each worker process over one Unix
socket pair: the parent sends :class:`Task` (a table to play) or :class:`NoMoreTables`; the
worker sends :class:`Ready`, a :class:`RecordMessage` per log record, :class:`TableDone` or
:class:`TableFailed` when its table ends, and :class:`WorkerExit` when it goes. Each message is
one line of compact JSON ending in ``\\n`` (``{"kind":"record","table":3,"record":{...}}``),
written whole by :func:`send` (SIGTERM waits for the write, so that a stop never cuts a message)
and read by a :class:`LineReader` that refuses a line longer than its bound.

Nothing read here is ever evaluated, unpickled or imported: a line becomes plain JSON values,
then a message is built from them field by field, and anything else — bad UTF-8 or JSON, a
line too long, an unknown kind or key, a value of the wrong type — is a :class:`MessageError`.
That matters because a worker's bots are competitors' programs running as the same user: one
that can reach its worker's socket can write into it. It cannot open it through
``/proc/<worker>/fd`` (a socket, unlike a pipe, cannot be opened there), only take it with
``pidfd_getfd`` or ``ptrace``, which need the right to trace the worker, so the parent treats
every line as coming from someone who may have it (see :func:`check_header` and
:func:`check_deal` for what it checks of a record).

What that promises, and what it cannot: nothing a worker sends runs, crashes the tournament or
reaches the log malformed; a stream of messages that departs from what the worker's table must
send next stops the tournament; and since the parent writes a record only once the worker's next
message confirms it, a record forged in before the worker's own is never written (the worker's
own then comes where the next one was due). A bot that forges the whole rest of its table's
stream, records and end, gets those records written before the worker's own messages give it
away and stop the tournament; but the right to do that is the right to trace the worker, which
is the right to make the worker itself send anything, so no check of messages can do better.
That is a sandbox's job: a bot in a process namespace of its own (bubblewrap's
``--unshare-pid``) cannot see the worker, let alone take its socket.

The bot configurations and match settings in a task go as plain data built from their
dataclass fields (:func:`to_plain` and :func:`from_plain`, guided by the field types), so that a
field added to :class:`~zole_arena.players.session.BotConfig`,
:class:`~zole_arena.players.botproc.Limits`,
:class:`~zole_arena.arena.referee.FaultPolicy` or :class:`~zole_arena.arena.match.MatchSettings`
reaches the worker without an edit here, as long as its type is made of ``None``, ``bool``, ``int``,
``float``, ``str``, :class:`~pathlib.Path`, enums, ``Literal``, tuples, lists, frozensets,
mappings with string keys, unions of those, and dataclasses of those.
"""

from __future__ import annotations

import collections.abc
import contextlib
import dataclasses
import json
import os
import signal
import unicodedata
from collections.abc import Iterator, Mapping
from typing import Any, ClassVar, Final

from zole_arena.arena.settings import MatchSettings
from zole_arena.arena.stop import Stop
from zole_arena.events.plain import MessageError, _hints, _what, from_plain, to_plain
from zole_arena.players.session import BotConfig
from zole_arena.records.model import (
    FORMAT,
    FORMAT_VERSION,
    DealRecord,
    InvalidHeader,
    MatchHeader,
    MatchRecord,
    SettleRecord,
    TableOf,
)
from zole_arena.records.parse import from_json as record_from_json
from zole_arena.records.writer import to_json as record_json

__all__ = [
    "LineReader",
    "MAX_MESSAGE_BYTES",
    "MAX_TASK_BYTES",
    "Message",
    "NoMoreTables",
    "ParentMessage",
    "Ready",
    "RecordMessage",
    "TableDone",
    "TableFailed",
    "Task",
    "WorkerExit",
    "WorkerMessage",
    "decode_parent_message",
    "decode_worker_message",
    "encode",
    "one_line",
    "send",
]


#: The longest line a worker may send (a deal record is a few KB): more is a broken worker.
MAX_MESSAGE_BYTES: Final = 4 * 1024 * 1024


#: The longest task a worker reads (it carries the records of a table to resume: a few KB a
#: deal); the bound only stops a runaway, the parent is the worker's own.
MAX_TASK_BYTES: Final = 1024 * 1024 * 1024


#: Bytes asked of the operating system per read (a deal record or two; under the size at which
#: the allocator maps fresh memory for each read's buffer).
_CHUNK: Final = 64 * 1024


@dataclasses.dataclass(frozen=True)
class Ready:
    """The worker waits for its next table."""

    KIND: ClassVar[str] = "ready"

    def to_json(self) -> dict[str, Any]:
        """The message as JSON values."""
        return {"kind": self.KIND}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Ready:
        """:raises MessageError: the data is not this message."""
        _keys(data, cls.KIND)
        return cls()


@dataclasses.dataclass(frozen=True)
class RecordMessage:
    """A log record (a match header or a deal) of the table the worker plays; on the wire as
    the JSON object of its line."""

    table: int
    record: MatchRecord

    KIND: ClassVar[str] = "record"

    def to_json(self) -> dict[str, Any]:
        """The message as JSON values."""
        return {"kind": self.KIND, "table": self.table, "record": record_json(self.record)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RecordMessage:
        """:raises MessageError: the data is not this message."""
        _keys(data, cls.KIND, "table", "record")
        return cls(_table(data), _record(data["record"]))


def _record(data: object) -> MatchRecord:
    """A match header or a deal record from its JSON object, read as a log's reader reads it.

    :raises MessageError: it is neither, or not a valid one, or not of the format a table
        writes.
    """
    if not isinstance(data, dict):
        raise MessageError(f"a record that is {_what(data)}, not a JSON object")
    if data.get("format") != FORMAT:
        raise MessageError(f"a record that does not start with format {FORMAT!r}")
    if type(data.get("format_version")) is not int or data["format_version"] != FORMAT_VERSION:
        raise MessageError(f"a record not of format version {FORMAT_VERSION}")
    record = record_from_json(data)
    if isinstance(record, str):
        raise MessageError(f"a record that cannot be read ({one_line(record, 120)})")
    if isinstance(record, InvalidHeader):
        why = one_line(record.problems[0], 120)
        raise MessageError(f"a {record.type} header that is not valid ({why})")
    if not isinstance(record, MatchHeader | DealRecord | SettleRecord):
        raise MessageError(f"a {_what(record.type)} record, not a match header or a deal")
    return record


@dataclasses.dataclass(frozen=True)
class TableDone:
    """The worker's table ended: every deal played (``stopped`` None) or stopped early."""

    table: int
    stopped: Stop | None

    KIND: ClassVar[str] = "done"

    def to_json(self) -> dict[str, Any]:
        """The message as JSON values."""
        return {"kind": self.KIND, "table": self.table, "stopped": to_plain(self.stopped)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TableDone:
        """:raises MessageError: the data is not this message."""
        _keys(data, cls.KIND, "table", "stopped")
        return cls(_table(data), from_plain(Stop | None, data["stopped"], "stopped"))


@dataclasses.dataclass(frozen=True)
class TableFailed:
    """The worker's table could not be played (a bot that does not start, say)."""

    table: int
    message: str

    KIND: ClassVar[str] = "error"

    def to_json(self) -> dict[str, Any]:
        """The message as JSON values."""
        return {"kind": self.KIND, "table": self.table, "message": self.message}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TableFailed:
        """:raises MessageError: the data is not this message."""
        _keys(data, cls.KIND, "table", "message")
        message = data["message"]
        if not isinstance(message, str):
            raise MessageError(f"an error message whose message is {_what(message)}")
        return cls(_table(data), message)


@dataclasses.dataclass(frozen=True)
class WorkerExit:
    """The worker is about to exit."""

    KIND: ClassVar[str] = "exit"

    def to_json(self) -> dict[str, Any]:
        """The message as JSON values."""
        return {"kind": self.KIND}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> WorkerExit:
        """:raises MessageError: the data is not this message."""
        _keys(data, cls.KIND)
        return cls()


@dataclasses.dataclass(frozen=True)
class Task:
    """A table for a worker to play (or to finish, with the deal records it already has)."""

    table: int
    match_id: str
    configs: tuple[BotConfig, ...]
    settings: MatchSettings
    part_of: TableOf
    """Which tournament and table it is, for its match header."""
    started: bool
    """Its match header is in the log already."""
    records: tuple[DealRecord, ...]
    """Its deal records in the log, to resume from (on the wire as their JSON objects)."""
    keep_bots: bool = False
    """Play it with the worker's kept bots, and keep them for its next table
    (:mod:`zole_arena.players.pool`)."""

    KIND: ClassVar[str] = "task"

    def to_json(self) -> dict[str, Any]:
        """The message as JSON values."""
        return {
            "kind": self.KIND,
            "table": self.table,
            "match_id": self.match_id,
            "configs": [to_plain(config) for config in self.configs],
            "settings": to_plain(self.settings),
            "part_of": to_plain(self.part_of),
            "started": self.started,
            "records": [record_json(record) for record in self.records],
            "keep_bots": self.keep_bots,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Task:
        """:raises MessageError: the data is not this message."""
        names = ("table", "match_id", "configs", "settings", "part_of", "started", "keep_bots")
        _keys(data, cls.KIND, *names, "records")
        hints = _hints(cls)
        values = {name: from_plain(hints[name], data[name], name) for name in names}
        records = data["records"]
        if not isinstance(records, list):
            raise MessageError(f"records: a list was due, not {_what(records)}")
        deals = []
        for record in records:
            deal = _record(record)
            if not isinstance(deal, DealRecord):
                raise MessageError("records: a match header among the deal records")
            deals.append(deal)
        return cls(**values, records=tuple(deals))


@dataclasses.dataclass(frozen=True)
class NoMoreTables:
    """The answer to :class:`Ready` when the tournament has no table left for the worker."""

    KIND: ClassVar[str] = "finish"

    def to_json(self) -> dict[str, Any]:
        """The message as JSON values."""
        return {"kind": self.KIND}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> NoMoreTables:
        """:raises MessageError: the data is not this message."""
        _keys(data, cls.KIND)
        return cls()


#: What a worker sends.
WorkerMessage = Ready | RecordMessage | TableDone | TableFailed | WorkerExit


#: What the tournament sends a worker.
ParentMessage = Task | NoMoreTables


Message = WorkerMessage | ParentMessage


_WORKER_KINDS: Final[dict[str, type[WorkerMessage]]] = {
    kind.KIND: kind for kind in (Ready, RecordMessage, TableDone, TableFailed, WorkerExit)
}


_PARENT_KINDS: Final[dict[str, type[ParentMessage]]] = {
    kind.KIND: kind for kind in (Task, NoMoreTables)
}


def _keys(data: Mapping[str, Any], kind: str, *names: str) -> None:
    """Check that ``data`` has exactly the keys of a ``kind`` message."""
    if len(data) != len(names) + 1 or any(name not in data for name in names):
        expected = ", ".join(("kind", *names))
        raise MessageError(f"a {kind} message with the keys {', '.join(data)} (not {expected})")


def _table(data: Mapping[str, Any]) -> int:
    table = data["table"]
    if type(table) is not int or table < 1:
        raise MessageError(f"the table number {_what(table)} (not a whole number from 1)")
    return table


# Messages are trees built from JSON values, never cyclic: no cycle check (as in records).
_ENCODER: Final = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, check_circular=False)


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not a JSON number")


# NaN and Infinity are not JSON: a log must not get them from a message.
_DECODER: Final = json.JSONDecoder(parse_constant=_no_constant)


def encode(message: Message) -> bytes:
    """The message as its line: compact JSON, UTF-8, ending in a newline."""
    return (_ENCODER.encode(message.to_json()) + "\n").encode()


def _load(line: bytes, kinds: Mapping[str, Any]) -> Any:
    try:
        data = _DECODER.decode(line.decode())
    except (ValueError, RecursionError) as exc:  # UnicodeDecodeError is a ValueError
        raise MessageError(f"a line that is not JSON ({one_line(str(exc), 80)})") from None
    if not isinstance(data, dict):
        raise MessageError(f"a line that is {_what(data)}, not a JSON object")
    if b"\\u" in line:  # an escape: it may be half a surrogate pair, which no log can hold
        try:
            _ENCODER.encode(data).encode()
        except UnicodeEncodeError:
            raise MessageError(
                "a line with text that is not Unicode (half a surrogate pair)"
            ) from None
    kind = data.get("kind")
    if not isinstance(kind, str) or kind not in kinds:
        raise MessageError(f"a message of unknown kind {_what(kind)}")
    return kinds[kind].from_json(data)


def decode_worker_message(line: bytes) -> WorkerMessage:
    """The message of one line from a worker (without its newline).

    :raises MessageError: the line is not one of the messages a worker sends.
    """
    message: WorkerMessage = _load(line, _WORKER_KINDS)
    return message


def decode_parent_message(line: bytes) -> ParentMessage:
    """The message of one line from the tournament (without its newline).

    :raises MessageError: the line is not one of the messages the tournament sends.
    """
    message: ParentMessage = _load(line, _PARENT_KINDS)
    return message


@contextlib.contextmanager
def _sigterm_held() -> Iterator[None]:
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def send(fd: int, message: Message, *, hold_sigterm: bool = True) -> None:
    """Write the message's line to ``fd`` whole, blocking until it is written.

    :param hold_sigterm: SIGTERM (a worker's stop request) waits until the line is written, so
        that a stop never leaves half a message; its handler runs right after.
    :raises OSError: the other end is closed (``BrokenPipeError``) or the write failed.
    """
    data = encode(message)
    with _sigterm_held() if hold_sigterm else contextlib.nullcontext():
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]


class LineReader:
    """Whole lines from a file descriptor, each at most ``limit`` bytes (without its newline).

    :meth:`read` reads once, for a caller that waits for the descriptor with ``select``;
    :meth:`next_line` blocks until a line is whole.
    """

    def __init__(self, fd: int, limit: int) -> None:
        self.fd = fd
        self.limit = limit
        self.eof = False
        """The other end is closed (and everything before it was read)."""
        self._partial = bytearray()
        self._lines: collections.deque[bytes] = collections.deque()

    @property
    def partial(self) -> bytes:
        """The bytes of a line not ended yet (at end of file: a message cut short)."""
        return bytes(self._partial)

    def read(self) -> list[bytes]:
        """Read what there is (blocking only when there is nothing) and return the lines it
        completed; at end of file set :attr:`eof` and return none.

        :raises MessageError: a line is longer than the limit.
        :raises OSError: the read failed.
        """
        chunk = os.read(self.fd, _CHUNK)
        if not chunk:
            self.eof = True
            return []
        self._partial += chunk
        if b"\n" not in chunk:
            if len(self._partial) > self.limit:
                raise MessageError(f"a line longer than {self.limit} bytes")
            return []
        *lines, rest = self._partial.split(b"\n")
        self._partial = bytearray(rest)
        if len(rest) > self.limit or any(len(line) > self.limit for line in lines):
            raise MessageError(f"a line longer than {self.limit} bytes")
        return [bytes(line) for line in lines]

    def next_line(self) -> bytes | None:
        """The next whole line, waiting for it; None at end of file.

        :raises MessageError: a line is longer than the limit.
        :raises OSError: the read failed.
        """
        while not self._lines:
            if self.eof:
                return None
            self._lines.extend(self.read())
        return self._lines.popleft()


def one_line(text: str, limit: int = 300) -> str:
    """``text`` as one printable line of at most ``limit`` characters (for a worker's words in
    a message to people: no newline or terminal control from it reaches them)."""
    printable = "".join(
        " " if unicodedata.category(char)[0] in "CZ" else char for char in text[: limit * 4]
    )
    line = " ".join(printable.split())
    return line if len(line) <= limit else f"{line[: limit - 3]}..."
