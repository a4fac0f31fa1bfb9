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
from pathlib import Path

from zole_arena.arena.match import Match
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
from zole_arena.records.model import DealRecord, MatchHeader

__all__ = [
    "serve_tables",
]


class _RecordSink:
    """A worker's record sink: each record goes to the parent as a message of its own. No
    file of its own (``path`` None): the log is the parent's, which the tournament's sandbox
    hides already."""

    path = None

    def __init__(self, fd: int, number: int) -> None:
        self.fd = fd
        self.number = number

    def write(self, record: MatchHeader | DealRecord) -> None:
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
    try:
        while True:
            send(fd, Ready())
            line = reader.next_line()
            if line is None:
                break
            task = decode_parent_message(line)
            if isinstance(task, NoMoreTables):
                break
            if not _play_table(fd, task):
                break
    except (KeyboardInterrupt, BrokenPipeError, ConnectionResetError):
        pass
    finally:
        with contextlib.suppress(OSError):
            send(fd, WorkerExit())
        os.close(fd)


def _play_table(fd: int, task: Task) -> bool:
    """Play a task's table and tell the parent how it ended; whether to ask for another table
    (not after a stop request)."""
    match = Match(
        list(task.configs),
        task.settings,
        _RecordSink(fd, task.table),
        match_id=task.match_id,
        part_of=task.part_of,
    )
    try:
        if task.started:
            match.replay_records(task.records)
        summary = match.run()
    except KeyboardInterrupt:  # SIGTERM: the bots are stopped, every finished deal was sent
        send(fd, TableDone(task.table, Stop(StopReason.INTERRUPTED)))
        return False
    except ZoleError as exc:
        send(fd, TableFailed(task.table, str(exc)))
        return True
    send(fd, TableDone(task.table, summary.stopped))
    return True


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
    held: MatchHeader | DealRecord | None = None
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


def _start_worker() -> _Worker:
    """Start a worker process with one end of a new socket pair (see
    :mod:`zole_arena.events.messages` for why a socket, not a pipe)."""
    parent_end, worker_end = socket.socketpair()
    try:
        with worker_end:
            fd = worker_end.fileno()
            process = subprocess.Popen(
                # -P: the current folder does not go first on the worker's path, so a
                # zole_arena folder there (a clone) never shadows the arena's own copy.
                [sys.executable, "-P", "-m", "zole_arena.events.worker", str(fd)],
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
