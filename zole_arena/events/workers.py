"""A tournament's worker processes: each plays one table at a time, as the parent sends tasks,
and sends every record back through its socket (:mod:`zole_arena.events.messages`); only the
parent writes the log."""

from __future__ import annotations

import contextlib
import dataclasses
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Final

from zole_arena.arena.match import Match, RecordSink
from zole_arena.arena.stop import Stop, StopReason
from zole_arena.errors import ZoleError
from zole_arena.events.messages import (
    MAX_MESSAGE_BYTES,
    MAX_TASK_BYTES,
    LineReader,
    NoMoreTables,
    ParentMessage,
    Ready,
    RecordMessage,
    TableDone,
    TableFailed,
    Task,
    WorkerExit,
    decode_parent_message,
    send,
)
from zole_arena.events.standings import TableState
from zole_arena.players.pool import SessionPool
from zole_arena.players.session import BotSession
from zole_arena.records.model import MatchRecord

__all__ = [
    "serve_tables",
    "table_messages",
]


class _RecordSink:
    """A worker's record sink: each record goes to the parent as a message of its own. No
    file of its own (``path`` None): the log is the parent's, which the tournament's sandbox
    hides already."""

    path = None

    def __init__(self, fd: int, number: int) -> None:
        self.fd = fd
        self.number = number

    def write(self, record: MatchRecord) -> None:
        # SIGTERM (a stop request) waits for the whole line: a stop never cuts a message.
        send(self.fd, RecordMessage(self.number, record))


def _worker_env() -> dict[str, str]:
    """The environment for a worker: this one, with this copy of zole_arena importable."""
    env = dict(os.environ)
    package_parent = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [package_parent, env.get("PYTHONPATH")]))
    return env


def _raise_interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def serve_tables(fd: int) -> None:
    """A worker process's life: ask for tables over the socket ``fd`` and play them until told
    there are no more (see :mod:`zole_arena.events.messages`).

    The worker runs in a process group of its own, so Ctrl-C in a terminal reaches only the
    tournament, which decides; SIGTERM from the tournament stops the current table the way
    Ctrl-C stops a match: the bots are stopped and the finished deals are kept.

    :raises MessageError: the tournament sent something that is not a task.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _raise_interrupt)
    reader = LineReader(fd, MAX_TASK_BYTES)
    pool = SessionPool()
    try:
        while True:
            send(fd, Ready())
            line = reader.next_line()
            if line is None:
                break
            task = decode_parent_message(line)
            if isinstance(task, NoMoreTables):
                break
            if not _play_table(task, _RecordSink(fd, task.table), pool, lambda m: send(fd, m)):
                break
    except (KeyboardInterrupt, BrokenPipeError, ConnectionResetError):
        pass
    finally:
        with contextlib.suppress(KeyboardInterrupt):
            pool.close()
        with contextlib.suppress(OSError):
            send(fd, WorkerExit())
        os.close(fd)


def _match(task: Task, sink: RecordSink, pool: SessionPool) -> Match:
    """A task's table as a match, its records into ``sink``; with ``task.keep_bots`` its bots
    come from ``pool`` and go back to it."""
    return Match(
        list(task.configs),
        task.settings,
        sink,
        match_id=task.match_id,
        part_of=task.part_of,
        start_session=pool.start if task.keep_bots else BotSession,
    )


def _play_table(
    task: Task,
    sink: RecordSink,
    pool: SessionPool,
    tell: Callable[[TableDone | TableFailed], None],
) -> bool:
    """Play a task's table, its records into ``sink``, and ``tell`` how it ended; whether to
    go on with another table (not after a stop request). With ``task.keep_bots`` the bots
    come from ``pool`` and go back to it."""
    match = _match(task, sink, pool)
    try:
        if task.started:
            match.replay_records(task.records)
        summary = match.run()
    except KeyboardInterrupt:  # SIGTERM: the bots are stopped, every finished deal was sent
        tell(TableDone(task.table, Stop(StopReason.INTERRUPTED)))
        return False
    except ZoleError as exc:
        tell(TableFailed(task.table, str(exc)))
        return True
    tell(TableDone(task.table, summary.stopped))
    return True


class _Gathered:
    """A record sink that keeps a table's records until they are taken (:func:`table_messages`)."""

    path = None

    def __init__(self) -> None:
        self.records: list[MatchRecord] = []

    def write(self, record: MatchRecord) -> None:
        self.records.append(record)

    def take(self, table: int) -> list[RecordMessage]:
        taken = [RecordMessage(table, record) for record in self.records]
        self.records.clear()
        return taken


def table_messages(
    task: Task, pool: SessionPool
) -> Iterator[RecordMessage | TableDone | TableFailed]:
    """Play a task's table deal by deal, as the messages a worker sends: the records of each
    deal as it ends (the match header with the first), then how the table ended. For a worker
    elsewhere (:mod:`zole_arena.events.ray_backend`), which yields each deal's messages as they
    come; a stop (``KeyboardInterrupt`` while a deal is played) ends the table as interrupted,
    with the bots stopped and every finished deal's records given."""
    gathered = _Gathered()
    match = _match(task, gathered, pool)
    try:
        if task.started:
            match.replay_records(task.records)
        for _ in match:
            yield from gathered.take(task.table)
    except KeyboardInterrupt:
        yield from gathered.take(task.table)
        yield TableDone(task.table, Stop(StopReason.INTERRUPTED))
        return
    except ZoleError as exc:
        yield from gathered.take(task.table)
        yield TableFailed(task.table, str(exc))
        return
    finally:
        match.close()  # also when the generator is dropped: no bot is left playing
    yield from gathered.take(task.table)
    yield TableDone(task.table, match.stopped)


@dataclasses.dataclass(eq=False)
class _Worker:
    """The tournament's side of one worker process: its socket, and what it may send next.

    What a worker sends is checked as it comes (see :meth:`Tournament._take`), but a record is
    written to the log only when the worker's next message for the table shows that its stream
    goes on as it should (a next record, or the table's end): a record a bot forged into the
    socket before the worker's own one is caught by the one that follows, and never reaches the
    log.
    """

    process: subprocess.Popen[bytes]
    fd: int
    reader: LineReader
    table: TableState | None = None
    """The table it plays now."""
    header_due: bool = False
    """Its table's match header is the record it must send next."""
    next_deal: int = 1
    """The number of the deal record it must send next."""
    held: MatchRecord | None = None
    """Its last record, checked but not yet written."""
    outbox: ParentMessage | None = None
    """The answer to its ``ready``, sent once the messages read with it are handled."""
    broken: bool = False
    """It sent something the tournament does not accept: the rest is read and dropped."""
    exited: bool = False

    def where(self) -> str:
        """The worker, for people: by its table when it has one."""
        if self.table is None:
            return f"a worker process (pid {self.process.pid})"
        return f"table {self.table.table.number} ({', '.join(self.table.names)})"


#: The module a local worker process runs.
LOCAL_WORKER: Final = ("zole_arena.events.worker",)


def _start_worker(program: Sequence[str] = LOCAL_WORKER) -> _Worker:
    """Start a worker process with one end of a new socket pair (see
    :mod:`zole_arena.events.messages` for why a socket, not a pipe): ``python -P -m
    program[0] FD program[1:]…``."""
    parent_end, worker_end = socket.socketpair()
    try:
        with worker_end:
            fd = worker_end.fileno()
            process = subprocess.Popen(
                # -P: the current folder does not go first on the worker's path, so a
                # zole_arena folder there (a clone) never shadows the arena's own copy.
                [sys.executable, "-P", "-m", program[0], str(fd), *program[1:]],
                pass_fds=[fd],
                stdin=subprocess.DEVNULL,
                env=_worker_env(),
                process_group=0,
            )
    except BaseException:
        parent_end.close()
        raise
    fd = parent_end.detach()
    return _Worker(process, fd, LineReader(fd, MAX_MESSAGE_BYTES))
