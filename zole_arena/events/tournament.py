"""A tournament: many bots, every table of three (or a gauntlet), played in parallel processes.

A tournament is a list of **tables**, each a :class:`~zole_arena.arena.match.Match` of three of the
entrants. A **round-robin** has a table for every three distinct entrants; a **gauntlet** has a
table for the gauntlet's bot and every pair of the others. Which tables deal the same cards is
the settings' ``boards`` (:mod:`zole_arena.stats.boards`): a sandboxed event moves each deal
between tables with no bot in common, so that no bot meets the same cards twice; trusted bots
play the seed's duplicate blocks at every table.

One log holds the tournament: a tournament header (``"type": "tournament"``) first, then each
table's match header and deal records as they end, interleaved when tables play in parallel.
Table *k*'s match id is ``<tournament id>-t<k>``, and its header says which table it is, so
the log is an ordinary zole-arena log for ``verify``, ``replay`` and ``ratings``, and
:func:`~zole_arena.events.resume.resume_tournament` continues an interrupted tournament from
it alone.

With ``concurrency`` N, N worker processes each play one table at a time (a table at a time is
also what a worker asks for next). Only the parent process writes the log: a worker sends each
record as a line of JSON through its own socket (:mod:`zole_arena.events.messages`), and
the parent checks it against what that worker's table must send next, appends it and counts it
in the standings. A worker that sends anything else — its bots run as the same user and may
write into its socket — is broken: the tournament stops as when a worker dies. Ctrl-C (or
SIGTERM) reaches the parent, which tells the workers to stop; each stops its bots, and every
deal finished by then is in the log.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import select
import signal
import subprocess
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Final

from zole_arena.arena.match import stderr_path
from zole_arena.arena.settings import MatchSettings, scheduled
from zole_arena.arena.stop import Stop, StopReason
from zole_arena.events.messages import (
    NoMoreTables,
    Ready,
    RecordMessage,
    TableDone,
    Task,
    WorkerExit,
    WorkerMessage,
    decode_worker_message,
    one_line,
    send,
)
from zole_arena.events.plain import MessageError
from zole_arena.events.schedule import TournamentError
from zole_arena.events.settings import TournamentSettings, hiding_the_event, tournament_header
from zole_arena.events.signals import _SignalGate
from zole_arena.events.standings import TableState, TournamentSummary
from zole_arena.events.state import TournamentState
from zole_arena.events.table_checks import check_deal, check_header, check_settle, check_stop
from zole_arena.events.workers import LOCAL_WORKER, _start_worker, _Worker
from zole_arena.game.table import seating_of
from zole_arena.isolation.affinity import pin
from zole_arena.records.model import (
    DealRecord,
    MatchRecord,
    SettleRecord,
)
from zole_arena.records.reader import RecordError
from zole_arena.records.writer import LogWriter, is_regular_log

__all__ = [
    "Event",
    "Tournament",
]


#: After Ctrl-C, how long the workers get to stop their bots and send their last records.
_STOP_GRACE_S: Final = 15.0


#: What the parent reports as the tournament goes: ("deal", table) after each deal record,
#: ("table", table) when a table ends.
Event = tuple[str, "TableState"]


class Tournament(TournamentState):
    """Plays a tournament and writes its log (see the module's text): its tables' records,
    as the workers send them, are counted by the :class:`~zole_arena.events.state.
    TournamentState` it is."""

    def __init__(
        self,
        settings: TournamentSettings,
        log_path: str | Path,
        *,
        tournament_id: str | None = None,
        cpus: Sequence[int] | None = None,
        ray_address: str | None = None,
        transcript: str | None = None,
    ) -> None:
        """:param transcript: the file every table's bots' protocol lines go to
            (:mod:`~zole_arena.players.transcript`; hidden from sandboxed bots); None: none.
        :param cpus: pin worker ``k`` and its bots to ``cpus[k % len(cpus)]``
        (:mod:`zole_arena.isolation.affinity`); None: the operating system places them.
        :param ray_address: play the tables on this Ray cluster (``auto``: the one this
            machine is part of; :mod:`zole_arena.events.ray_backend`); None: on this machine.
        """
        self.ray_address = ray_address
        self.transcript = transcript
        self.log_path = Path(log_path)
        super().__init__(hiding_the_event(settings, self.log_path, self.transcript), tournament_id)
        self.cpus = list(cpus) if cpus else None
        # The state of a run (see run()).
        self._pending: list[TableState] = []
        self._on_event: Callable[[Event], None] | None = None
        self._error: str | None = None
        self._stopping_since: float | None = None
        self._live: list[_Worker] = []
        self._gate = _SignalGate()
        self._log: LogWriter | None = None
        """The log while it is open (and after, for its digest)."""

    def write_missing_settles(self) -> None:
        """Write the settle records the log lacked (:attr:`settles_missing`) now, without
        playing (a complete tournament's; one that plays on writes them as it starts).

        :raises RecordError: the log cannot be written.
        """
        with LogWriter(self.log_path) as writer:
            for settled in self._unwritten:
                writer.write(settled)
        self._unwritten.clear()

    # -- playing ------------------------------------------------------------------------------

    def stderr_folder(self) -> Path | None:
        """Where the bots' stderr goes: ``LOG.stderr/``, one file per table and bot
        (``table-3.rulebot.stderr``), so that parallel tables do not mix their lines; None
        when the log is not a file (``/dev/null``): nothing is written beside it."""
        if not is_regular_log(self.log_path):
            return None
        # Absolute: a worker elsewhere (a Ray node) runs in a folder of its own.
        return self.log_path.absolute().with_name(self.log_path.name + ".stderr")

    def play_rest_with(self, match: MatchSettings) -> None:
        """Play the tables still to play with ``match`` (a resume's sandbox and limits:
        :meth:`~zole_arena.events.resume.Grant.settings`); the tournament's log, stderr folder
        and entrants' programs are hidden from its bots anew."""
        settings = dataclasses.replace(self.settings, match=match)
        self.settings = hiding_the_event(settings, self.log_path, self.transcript)

    def _task(self, table: TableState) -> Task:
        match = self._match_of(table)
        folder = self.stderr_folder()
        table_folder = None if folder is None else folder / f"table-{table.table.number}"
        configs = tuple(
            entrant.config(match, stderr_path(table_folder, entrant.name), self.transcript)
            for entrant in (self.settings.entrants[p] for p in table.table.players)
        )
        return Task(
            table=table.table.number,
            match_id=table.match_id,
            configs=configs,
            settings=match,
            part_of=self._part(table),
            started=table.started,
            records=tuple(self._deals[table.match_id]),
            keep_bots=self.settings.keep_bots
            and match.sandbox is None
            and not match.separate_seatings,
        )

    def summary(self, log: str | None = None, digest: str | None = None) -> TournamentSummary:
        """The figures so far, with the log's path and digest (unless given)."""
        own = self._log.digest if self._log is not None else None
        return super().summary(log or str(self.log_path), digest or own)

    def run(self, on_event: Callable[[Event], None] | None = None) -> TournamentSummary:
        """Play every unfinished table, ``concurrency`` at a time; stop on Ctrl-C.

        :raises TournamentError: a table could not be played (a bot that does not start, say),
            or a worker process died or sent what the tournament does not accept; the other
            tables are stopped first, and every finished deal is in the log.
        :raises KeyboardInterrupt: Ctrl-C, once every table is stopped and the log closed
            (:meth:`summary` then has the standings so far, ``stopped`` interrupted).
        """
        self._pending = [table for table in self.tables if not table.finished]
        self._on_event = on_event
        self._error = None
        self._stopping_since = None
        writer = self._log = LogWriter(self.log_path)
        folder = self.stderr_folder()
        if self.settings.match.sandbox is not None and folder is not None:
            folder.mkdir(exist_ok=True)  # hidden from the sandboxes: made before they are
        if not self._header_written:
            writer.write(tournament_header(self.tournament_id, self.settings))
            self._header_written = True
        try:
            for settled in self._unwritten:
                writer.write(settled)
            self._unwritten.clear()
            while True:
                self._play_pending(writer)
                if self._error is not None or self.stopped is not None or not self._next_round():
                    break
                self._pending = [table for table in self.tables if not table.finished]
        finally:
            writer.close()
        if self._error is not None:
            self.stopped = Stop(StopReason.ERROR, message=self._error)
            raise TournamentError(
                f"{self._error}; the tournament stopped (finished deals are in {self.log_path}; "
                f"fix that and continue with 'zole-arena tournament --resume {self.log_path}')"
            )
        if self.stopped is not None and self.stopped.interrupted:
            raise KeyboardInterrupt
        if self.stopped is None:
            unfinished = [t for t in self.tables if not t.finished]
            if unfinished:
                self.stopped = Stop(StopReason.UNFINISHED, unfinished=len(unfinished))
        return self.summary()

    def _play_pending(self, writer: LogWriter) -> None:
        """Play the pending tables (a round's, in the ``lzf`` format), ``concurrency`` at a
        time, until each has ended or the tournament stops."""
        if not self._pending:
            return
        workers: list[_Worker] = []
        self._gate.install()
        try:
            program: tuple[str, ...] = LOCAL_WORKER
            if self.ray_address is not None:
                program = ("zole_arena.events.ray_backend", self.ray_address)
            for index in range(min(self.settings.concurrency, len(self._pending))):
                worker = _start_worker(program)
                workers.append(worker)
                if self.cpus:  # before its first table: the bots it starts inherit it
                    pin(self.cpus[index % len(self.cpus)], worker.process.pid)
            self._live = list(workers)
            while self._live:
                try:
                    self._serve(writer)
                except KeyboardInterrupt:
                    if self._stopping_since is None:
                        self.stopped = Stop(StopReason.INTERRUPTED)
                        self._stop()
                except RecordError as exc:  # the log cannot be written (a full disk): stop
                    self._fail(str(exc))
        finally:
            for worker in workers:
                try:
                    worker.process.wait(timeout=_STOP_GRACE_S)
                except subprocess.TimeoutExpired:
                    worker.process.kill()
                    worker.process.wait()
                os.close(worker.fd)
            self._live = []
            self._gate.uninstall()

    def _serve(self, writer: LogWriter) -> None:
        """Wait for the workers' next messages and act on them; drop the workers that ended.

        Once stopping, the workers get a grace period to stop their bots and send their last
        records, and are killed after it.
        """
        timeout = None
        if self._stopping_since is not None:
            timeout = self._stopping_since + _STOP_GRACE_S - time.monotonic()
            if timeout <= 0:
                for worker in self._live:
                    worker.process.kill()
                self._live.clear()
                return
        self._send_answers()
        by_fd = {worker.fd: worker for worker in self._live}
        readable, _, _ = select.select(list(by_fd), [], [], timeout)
        for fd in readable:
            worker = by_fd[fd]
            with self._gate:
                self._read(worker, writer)
            if worker.reader.eof:
                self._ended(worker)
        self._send_answers()

    def _read(self, worker: _Worker, writer: LogWriter) -> None:
        """Read what a worker sent and act on each whole message; a worker that sends what the
        tournament does not accept is broken: the tournament stops."""
        if worker.broken:  # drained, so that it never waits on a full socket, and dropped
            try:
                data = os.read(worker.fd, 1 << 16)
            except OSError:
                data = b""
            worker.reader.eof = not data
            return
        try:
            lines = worker.reader.read()
        except OSError:  # reset by a worker that went: its end
            worker.reader.eof = True
            return
        except MessageError as exc:
            self._broken(worker, str(exc))
            return
        for line in lines:
            try:
                self._take(worker, decode_worker_message(line), writer)
            except MessageError as exc:
                self._broken(worker, str(exc))
                return

    def _take(self, worker: _Worker, message: WorkerMessage, writer: LogWriter) -> None:
        """Act on one message of a worker.

        :raises MessageError: it is not a message this worker may send now.
        """
        if worker.exited:
            raise MessageError(f"a {message.KIND} message after its exit message")
        if isinstance(message, Ready):
            if worker.table is not None:
                raise MessageError(
                    f"a ready message while it plays table {worker.table.table.number}"
                )
            worker.outbox = NoMoreTables()
            if self._stopping_since is None and self._pending:
                given = self._pending.pop(0)
                worker.outbox = self._task(given)
                worker.table = given
                worker.header_due = not given.started
                worker.next_deal = given.deals + 1
            return
        if isinstance(message, WorkerExit):
            worker.exited = True
            return
        if worker.table is None or message.table != worker.table.table.number:
            playing = "no table" if worker.table is None else f"table {worker.table.table.number}"
            raise MessageError(
                f"a {message.KIND} message of table {message.table} (it plays {playing})"
            )
        table = worker.table
        if isinstance(message, RecordMessage):
            self._check(worker, table, message.record)
            self._keep(worker, table, writer)
            worker.held = message.record
            return
        if isinstance(message, TableDone) and message.stopped is None:
            played = worker.next_deal - 1
            if played < table.planned:
                raise MessageError(
                    f"table {table.table.number} done after {played} of {table.planned} deals"
                )
        if isinstance(message, TableDone) and message.stopped is not None:
            check_stop(message.stopped, table.names)
        self._keep(worker, table, writer)
        worker.table = None
        if isinstance(message, TableDone):
            table.stopped = message.stopped
            if self._on_event is not None:
                self._on_event(("table", table))
        else:
            names = ", ".join(table.names)
            self._fail(f"table {table.table.number} ({names}): {one_line(message.message)}")

    def _check(self, worker: _Worker, table: TableState, record: MatchRecord) -> None:
        """Check a record of a worker's table against what the table must send next.

        :raises MessageError: it is not that record.
        """
        if worker.header_due:
            check_header(record, table.match_id, table.names, self._part(table))
            worker.header_due = False
            return
        number = worker.next_deal
        if number > table.planned:
            if table.settled or not isinstance(record, SettleRecord):
                raise MessageError(f"a record after the last of the table's {table.planned} deals")
            check_settle(record, table.match_id, table.names, table.planned)
            return
        block, _, seating = scheduled(number, self.settings.match.duplicate)
        if len(table.names) == 4:
            block, seating = number, seating_of(number, 4).players
        check_deal(record, table.match_id, table.names, number, block, seating)
        worker.next_deal += 1

    def _keep(self, worker: _Worker, table: TableState, writer: LogWriter) -> None:
        """Write a worker's held record to the log, then count it."""
        record, worker.held = worker.held, None
        if record is None:
            return
        writer.write(record)
        self._count(table, record)
        if self._on_event is not None and isinstance(record, DealRecord):
            self._on_event(("deal", table))

    def _broken(self, worker: _Worker, problem: str) -> None:
        """A worker sent what the tournament does not accept: nothing more of it is taken (not
        its held record either), and the tournament stops."""
        worker.broken = True
        worker.held = None
        self._fail(
            f"{worker.where()}: its worker process sent {one_line(problem)} (the tournament "
            "does not accept it; a bot may be writing into the worker's socket)"
        )

    def _ended(self, worker: _Worker) -> None:
        """A worker's socket is closed: it has exited (or is about to)."""
        self._live.remove(worker)
        code = worker.process.wait()
        if self._stopping_since is not None or worker.broken:
            return
        if code:
            self._fail(f"a worker process died (exit code {code})")
        elif worker.reader.partial:
            self._broken(worker, "a last message cut short")

    def _send_answers(self) -> None:
        """Send the workers that asked for a table their answer (after the messages read with
        the question are handled: a write to a worker may wait, and Ctrl-C must not)."""
        for worker in self._live:
            message, worker.outbox = worker.outbox, None
            if message is None:
                continue
            if isinstance(message, Task) and self._stopping_since is not None:
                self._pending.insert(0, self._table(message.table))
                worker.table = None
                message = NoMoreTables()
            try:
                send(worker.fd, message, hold_sigterm=False)
            except OSError:  # the worker is gone (stopped): its end of file comes next
                if isinstance(message, Task):
                    self._pending.insert(0, self._table(message.table))
                    worker.table = None

    def _table(self, number: int) -> TableState:
        return self.tables[number - 1]

    def _fail(self, message: str) -> None:
        if self._error is None:
            self._error = message
            self._stop()

    def _stop(self) -> None:
        """Ask every worker to stop its table; the records they send meanwhile are kept."""
        if self._stopping_since is None:
            self._stopping_since = time.monotonic()
        for worker in self._live:
            if worker.process.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    worker.process.send_signal(signal.SIGTERM)
