"""A match: three bots, a number of deals, a log, a summary — resumable and interrupt-safe.

:class:`Match` plays deals through a :class:`~zole_arena.arena.referee.Referee`, reports each
as it ends, and appends it to the log (see :mod:`zole_arena.records.writer`). With ``duplicate``,
every deal of the seed is played in all six seatings of the three bots; each seating keeps its
own score sheet (dealer rotation, pules), like the tables of a duplicate bridge event, and the
deals are played block by block. A match stops early when a bot is disqualified or on Ctrl-C;
every finished deal is in the log, and :func:`~zole_arena.arena.resume.resume_match`
continues from the log alone.
"""

from __future__ import annotations

import dataclasses
import os
import uuid
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import Protocol

from zole_arena.arena.hiding import make_hidden, remove_empty, seal
from zole_arena.arena.referee import DealOutcome, Referee
from zole_arena.arena.settings import (
    SEATINGS,
    MatchError,
    MatchSettings,
    in_order,
    scheduled,
    settles_at,
    unique_names,
)
from zole_arena.arena.stop import Disqualification, Stop, StopReason
from zole_arena.arena.summary import DealReport, MatchTally, Summary
from zole_arena.game.scoresheet import ScoreSheet
from zole_arena.game.table import TableSheet, settle_sheet
from zole_arena.players.session import BotConfig, BotSession, PlayerSession
from zole_arena.protocol import plays_at, tables_said
from zole_arena.records.model import (
    DealRecord,
    Identity,
    MatchHeader,
    MatchRecord,
    PlayerInfo,
    SettleRecord,
    SprtInfo,
    TableDeal,
    TableOf,
)
from zole_arena.records.reader import LogProblem, RecordError
from zole_arena.records.writer import LogWriter, check_log_path, is_regular_log

__all__ = [
    "Match",
    "RecordSink",
    "stderr_path",
]


#: The events a match can be part of, as its header says: a tournament's table, or a
#: head-to-head test.
PartOf = TableOf | SprtInfo


class RecordSink(Protocol):
    """Where a match's records go instead of a log file of its own: a
    :class:`~zole_arena.records.writer.LogWriter` that several matches share, a tournament
    worker's socket to the one process that writes the log, or anything else that keeps
    records. The match writes its header, once, and then each deal's record as the deal ends,
    each whole and in order; it never closes a sink it was given."""

    @property
    def path(self) -> Path | None:
        """The file the records end up in, which a sandboxed match hides from its bots
        (None: they are not kept in a file a bot could read)."""

    def write(self, record: MatchRecord) -> None:
        """Keep one whole record."""


class Match:
    """A match between three bots: a context manager, and an iterator of its deals as they end.

    ::

        with Match(bots, settings, "m.jsonl") as match:
            for deal in match:  # a DealReport as each deal ends
                print(deal.number, deal.scores)
        print(match.summary())

    Entering the match (or its first deal) starts the bots; leaving it, or its last deal, stops
    them. :meth:`run` plays every deal and returns the :class:`Summary`. A match stops early
    when a bot is disqualified: the iteration ends, and :attr:`stopped` says why. Ctrl-C (a
    :class:`KeyboardInterrupt`) reaches the caller after the bots are stopped, with every
    finished deal in the log and :attr:`stopped` interrupted; :func:`resume_match` continues
    from the log.
    """

    def __init__(
        self,
        players: Sequence[BotConfig],
        settings: MatchSettings,
        log: str | os.PathLike[str] | RecordSink | None = None,
        *,
        match_id: str | None = None,
        start_session: Callable[[BotConfig], PlayerSession] = BotSession,
        part_of: PartOf | None = None,
    ) -> None:
        """
        :param log: where the records go: a new log file (opened once the bots have started),
            a :class:`RecordSink` (records of several matches in one log, say), or None.
        :param start_session: how a player is started (a person at the terminal, say).
        :param part_of: the tournament table or head-to-head test the match is part of, for
            its header.
        """
        if len(players) not in (3, 4):
            raise MatchError(f"a match needs 3 bots, or 4 at a table of four, not {len(players)}")
        if len(players) == 4 and settings.duplicate:
            raise MatchError(
                "a table of four plays no duplicate match (its deals cannot be played in every "
                "seating); a tournament's rounds play the same deals at every table instead"
            )
        self.settings = settings
        self._sink: RecordSink | None = None
        if log is None or isinstance(log, str | os.PathLike):
            self.log_path = Path(log) if log is not None else None
        else:
            self._sink = log
            self.log_path = log.path
        self.players = seal([_thinking(c, settings) for c in players], settings.sandbox,
                            self.log_path)  # fmt: skip
        self.match_id = match_id or uuid.uuid4().hex[:12]
        self.part_of = part_of
        self.sheets = [ScoreSheet(settings.rules, settings.seed) for _ in range(6)]
        self.table: TableSheet | None = (
            TableSheet(settings.rules, settings.seed, 4) if len(players) == 4 else None
        )
        """A table of four's sheet (None: three players, on :attr:`sheets`)."""
        self.settle_missing = False
        """A finished table of four's log lacks its ``settle`` record (:meth:`write_settle`)."""
        self.settled: SettleRecord | None = None
        """The pules paid at the end of a table of four's match (None: not yet, or none
        stood)."""
        self.tally = MatchTally(
            [config.name or f"player{i + 1}" for i, config in enumerate(players)]
        )
        """The match's figures (:attr:`stats`, :attr:`fault_lines`), counted as a reader of its
        log counts them."""
        self.stats = self.tally.stats
        self.done = 0
        """Deals played (read from the log when resuming)."""
        self.stopped: Stop | None = None
        """Why the match stopped before its last deal (None: it did not)."""
        self.log_problems: list[LogProblem] = []
        """Lines of the log that could not be read when the match was resumed from it."""
        self.fault_lines = self.tally.fault_lines
        self._header_written = False
        self._running = False
        """The bots are started and the log is open."""
        self._writer: RecordSink | None = None
        """Where the records go while the bots run (None: nowhere, or not started)."""
        self._log: LogWriter | None = None
        """The match's own log, once opened (for its digest)."""
        self._rules = settings.rules.to_dict()  # the same in every deal record
        self.referee = Referee(
            settings.rules,
            self.players,
            time_ms=settings.movetime_ms,
            margin_ms=settings.margin_ms,
            policy=settings.policy,
            start_session=start_session,
            tc=settings.tc,
            slots=len(SEATINGS) if settings.separate_seatings else 1,
            fixed_pace=settings.fixed_pace,
        )

    # -- the header -------------------------------------------------------------------------

    def player_entries(self) -> tuple[PlayerInfo, ...]:
        """The players as the header keeps them: enough to start them again."""
        entries = []
        for player, config in zip(self.referee.players, self.players, strict=True):
            said = player.identity
            entries.append(
                PlayerInfo(
                    name=player.name,
                    command=tuple(config.command)
                    if not isinstance(config.command, str)
                    else (config.command,),
                    id_name=str(said.get("id_name", "")),
                    author=str(said.get("author", "")),
                    version=str(said.get("version", "")),
                    options=dict(config.options),
                    # The folder it runs in, so that --resume from another folder starts it alike.
                    cwd=str(config.cwd) if config.cwd is not None else os.getcwd(),
                )
            )
        return tuple(entries)

    def header(self) -> MatchHeader:
        """The log's first record."""
        header = MatchHeader(
            match_id=self.match_id,
            rules=self._rules,
            seed=self.settings.seed,
            deals=self.settings.deals,
            duplicate=self.settings.duplicate,
            players=self.player_entries(),
            settings=self.settings.header_settings(),
            isolation=self.settings.isolation(),
        )
        if isinstance(self.part_of, TableOf):
            return dataclasses.replace(header, tournament=self.part_of)
        if isinstance(self.part_of, SprtInfo):
            return dataclasses.replace(header, sprt=self.part_of)
        return header

    @property
    def names(self) -> tuple[str, ...]:
        """The players' names (once started: each as it goes in the log, told apart)."""
        return tuple(stats.name for stats in self.stats)

    # -- playing ----------------------------------------------------------------------------

    def replay_records(self, records: Sequence[DealRecord]) -> None:
        """Bring the sheets and figures up to date with deal records from a log (resume)."""
        size = 4 if self.table is not None else 3
        for record, sheet_index in in_order(self.settings, size, records):
            number, block, seating = record.deal, record.block, record.seating
            result = record.result
            if self.table is not None:
                sitting_out = self.table.seating(number).sitting_out
                scores = self.table.record(result).scores
            else:
                sitting_out = None
                self.sheets[sheet_index].record(result)
                scores = _by_player(seating, result.scores)
            report = DealReport(
                number,
                block,
                seating,
                result,
                scores,
                len(record.faults),
                record.moves,
                record.stray,
                sitting_out,
            )
            self.tally.add(report, record.faults)
            for fault in record.faults:
                self.referee.players[fault.player].faults += 1
            self.done = number
        self._header_written = True

    def __enter__(self) -> Match:
        self.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if isinstance(value, KeyboardInterrupt):  # Ctrl-C between deals: as within one
            self._abandon(value)
        else:
            self.close()

    def __iter__(self) -> Match:
        return self

    def __next__(self) -> DealReport:
        """Play the next deal (starting the bots first if they are not running) and report
        it; at the end, or after a bot was disqualified, stop the bots and end the iteration.

        :raises KeyboardInterrupt: Ctrl-C, after the bots are stopped.
        :raises MatchError: the log could not be written (every deal before is in it whole).
        """
        if self.stopped is not None or self.done >= self.settings.total_deals:
            self.close()
            raise StopIteration
        self.start()
        number = self.done + 1
        block, sheet_index, seating = scheduled(number, self.settings.duplicate)
        slot = sheet_index if self.settings.separate_seatings else 0
        sheet: ScoreSheet | TableSheet = self.sheets[sheet_index]
        if self.table is not None:
            sheet, seating = self.table, self.table.seating(number).players
        try:
            outcome = self.referee.play_deal(sheet, seating, number, slot)
            report = self._finish(outcome, number, block, sheet_index, seating)
            if self.settles and number == self.settings.total_deals:
                self.settle(number)
        except BaseException as exc:
            instead = self._abandon(exc)
            if instead is None:
                raise
            raise instead from None
        if self.referee.disqualified and number < self.settings.total_deals:
            culprits = [self.referee.players[p] for p in self.referee.disqualified]
            limit = self.settings.policy.max_faults
            self.stopped = Stop(
                StopReason.DISQUALIFIED,
                tuple(Disqualification(bot.name, bot.faults, limit) for bot in culprits),
            )
        return report

    def run(self, on_deal: Callable[[DealReport, Summary], None] | None = None) -> Summary:
        """Play the remaining deals (all of them, unless a bot is disqualified), stop the bots
        and return the summary.

        :param on_deal: called after each deal with its report and the summary so far.
        :raises BotStartupError: a bot cannot be started at the beginning.
        :raises KeyboardInterrupt: Ctrl-C, after the bots are stopped (:meth:`summary` then
            has the figures so far).
        """
        with self:
            for report in self:
                if on_deal is not None:
                    on_deal(report, self.summary())
        return self.summary()

    def start(self) -> None:
        """Start the bots, open the log and write the header (unless already written): what
        entering the match, or its first deal, does. Nothing when the bots are running.

        :raises BotStartupError: a bot cannot be started (then none is left running).
        :raises RecordError: the log cannot be written there.
        """
        if self._running:
            return
        try:
            if self._sink is None and self.log_path is not None and not self._header_written:
                check_log_path(self.log_path)  # a bad path fails before any bot starts
            made = make_hidden(self.players)
            try:
                self.referee.start()
            except BaseException:
                remove_empty(made)  # files made only to be hidden from the sandboxes
                raise
            self._check_tables()
            # Players without a given name take the name they announce, told apart.
            names = unique_names([player.name for player in self.referee.players])
            for index, player in enumerate(self.referee.players):
                player.name = names[index]
                player.config = dataclasses.replace(player.config, name=names[index])
                self.stats[index].name = player.name
            if self._sink is not None:
                self._writer = self._sink
            elif self.log_path is not None:
                self._writer = self._log = LogWriter(self.log_path)
            if self._writer is not None and not self._header_written:
                self._writer.write(self.header())
                self._header_written = True
            self._running = True
        except BaseException as exc:
            instead = self._abandon(exc)
            if instead is None:
                raise
            raise instead from None

    def _check_tables(self) -> None:
        """Refuse a bot that said at its handshake that it does not play at a table of this
        match's size (``id tables 3``: protocol §3).

        :raises MatchError: one did (the bots are stopped).
        """
        size = len(self.referee.players)
        for player in self.referee.players:
            ids = {"tables": str(player.identity.get("tables", ""))}
            if not plays_at(ids, size):
                self.referee.kill()
                sizes = ",".join(map(str, tables_said(ids)))
                raise MatchError(
                    f"{player.name} plays only at tables of {sizes} (its handshake's 'id tables' "
                    f"line): a table of {'four' if size == 4 else 'three'} cannot seat it"
                )

    def _abandon(self, exc: BaseException) -> MatchError | None:
        """Stop the bots after ``exc`` (Ctrl-C kills them at once) and close the log. For a
        log that could not be written, the :class:`MatchError` to raise instead, saying what
        the log keeps; None: raise ``exc``."""
        opened = self._writer is not None
        if isinstance(exc, KeyboardInterrupt):
            self.stopped = Stop(StopReason.INTERRUPTED)
            self.referee.kill()
        self.close()
        if not isinstance(exc, RecordError) or not opened:
            return None
        if not self._header_written:
            return MatchError(f"{exc}: the match did not start")
        resume = (
            f"; continue with --resume {self.log_path} once it can be written"
            if self._sink is None and self.log_path is not None
            else ""
        )
        return MatchError(
            f"{exc}: the match stopped after deal {self.done}, and the log keeps every "
            f"deal before it whole{resume}"
        )

    def close(self) -> None:
        """Stop the bots and close the match's own log; every finished deal is in it. Leaving
        the match, its last deal, an error and Ctrl-C do it. Another deal starts the bots
        again (a :class:`RecordSink` given to the match is never closed by it)."""
        self._running = False
        self._writer = None
        try:
            self.referee.close()
        finally:
            if self._log is not None:
                self._log.close()  # opened again by the next start

    def _finish(
        self,
        outcome: DealOutcome,
        number: int,
        block: int,
        sheet_index: int,
        seating: tuple[int, int, int],
    ) -> DealReport:
        result = outcome.result
        table_part: TableDeal | None = None
        if outcome.table is not None and self.table is not None:
            context, scored = outcome.table
            sitting_out = context.seating.dealer
            sitter = self.referee.players[sitting_out]
            scores = scored.scores
            table_part = TableDeal(
                size=context.seating.size,
                dealer=sitting_out,
                sitter=_identity(sitter.name, sitter.identity),
                pules_before=context.pules,
                scores=scored.scores,
                totals=tuple(self.table.totals),
                pules=scored.pules,
                pule_event=scored.pule_event,
            )
            totals: Sequence[int] = [self.table.totals[p] for p in seating]
        else:
            sitting_out = None
            scores = _by_player(seating, result.scores)
            totals = self.sheets[sheet_index].totals
        report = DealReport(
            number,
            block,
            seating,
            result,
            scores,
            len(outcome.faults),
            tuple(outcome.moves),
            outcome.stray,
            sitting_out,
        )
        self.tally.add(report, outcome.faults)
        if self._writer is not None:
            a, b, c = (self.referee.players[p] for p in seating)
            record = DealRecord.of_deal(
                match_id=self.match_id,
                number=number,
                block=block,
                seating=seating,
                rules=self._rules,
                seed=self.settings.seed,
                state=outcome.state,
                result=result,
                moves=outcome.moves,
                faults=outcome.faults,
                players=(
                    _identity(a.name, a.identity),
                    _identity(b.name, b.identity),
                    _identity(c.name, c.identity),
                ),
                totals=totals,
                stray=outcome.stray,
                table=table_part,
            )
            self._writer.write(record)
        self.done = number
        return report

    def write_settle(self) -> None:
        """Write the ``settle`` record a finished table of four's log lacks (the match was
        stopped between its last deal and it: :attr:`settle_missing`).

        :raises RecordError: the log cannot be written.
        """
        if self.settle_missing and self.settled is not None and self.log_path is not None:
            with LogWriter(self.log_path) as writer:
                writer.write(self.settled)
            self.settle_missing = False

    @property
    def settles(self) -> bool:
        """Whether the pules standing at the match's end are settled: at a table of four,
        and at a table of three in a round of the ``lzf`` format (docs/rules.md §8)."""
        return settles_at(len(self.players), self.part_of, self.settings.duplicate)

    def settle(self, number: int) -> None:
        """End a table's match (:attr:`settles`): the personal pules standing cost their owners
        the rules' ``end_pule_payment`` to each other player (common ones
        lapse); a ``settle`` record says so, after the last deal's."""
        # A round's table of three keeps one sheet, its seat i the player i.
        sheet: TableSheet | ScoreSheet = self.table if self.table is not None else self.sheets[0]
        pules, payment = sheet.pules, self.settings.rules.end_pule_payment
        if not pules.personal or not payment:
            return
        scores = settle_sheet(sheet)
        self.settled = SettleRecord(
            self.match_id, number, pules, payment, scores, tuple(sheet.totals)
        )
        self.tally.add_settle(self.settled)
        if self._writer is not None:
            self._writer.write(self.settled)

    def summary(self) -> Summary:
        """The figures so far."""
        return Summary(
            players=[dataclasses.replace(s) for s in self.stats],
            deals=self.done,
            planned=self.settings.total_deals,
            stopped=self.stopped,
            log=str(self.log_path) if self.log_path is not None else None,
            fault_lines=list(self.fault_lines),
            digest=self._log.digest if self._log is not None else None,
        )


def _identity(name: str, said: Mapping[str, object]) -> Identity:
    """The bot in a seat as a deal record names it, from what its session says of it."""
    command = said.get("command", ())
    return Identity(
        name,
        str(said.get("version", "")),
        tuple(str(part) for part in command) if isinstance(command, list | tuple) else (),
    )


def _by_player(seating: tuple[int, int, int], scores: Sequence[int]) -> tuple[int, int, int]:
    by_player = [0, 0, 0]
    for seat, player in enumerate(seating):
        by_player[player] = scores[seat]
    return (by_player[0], by_player[1], by_player[2])


def _thinking(config: BotConfig, settings: MatchSettings) -> BotConfig:
    """The bot's configuration with the time the match may give it to decide, which its
    per-process CPU limit allows on top (:attr:`Limits.thinking_s`)."""
    limits = config.limits
    if limits.cpu_seconds is None or config.bot is not None:
        return config
    thinking = dataclasses.replace(limits, thinking_s=settings.thinking_seconds())
    return dataclasses.replace(config, limits=thinking)


def stderr_path(log: Path | None, name: str) -> str | None:
    """Where a bot's stderr goes beside a log: ``LOG.NAME.stderr`` (None without a log, or
    when the log is not a file, ``/dev/null`` say: nothing is written beside it)."""
    if log is None or not is_regular_log(log):
        return None
    safe = "".join(c if c.isalnum() or c in "._-#+" else "_" for c in name)
    return str(log.with_name(f"{log.name}.{safe}.stderr"))
