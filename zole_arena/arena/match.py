"""A match: three bots, a number of deals, a log, a summary — resumable and interrupt-safe.

:class:`Match` plays deals through a :class:`~zole_arena.arena.referee.Referee`, reports each
as it ends, and appends it to the log (see :mod:`zole_arena.records.log`). With ``duplicate``,
every deal of the seed is played in all six seatings of the three bots; each seating keeps its
own score sheet (dealer rotation, pules), like the tables of a duplicate bridge event, and the
deals are played block by block. A match stops early when a bot is disqualified or on Ctrl-C;
every finished deal is in the log, and :func:`resume_match` continues from the log alone.
"""

from __future__ import annotations

import dataclasses
import os
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any, Protocol

from zole_arena.arena.header import PartOf
from zole_arena.arena.hiding import make_hidden, remove_empty, seal
from zole_arena.arena.referee import DealOutcome, Referee
from zole_arena.arena.settings import (
    MatchError,
    MatchSettings,
    _schedule,
    scheduled,
    unique_names,
)
from zole_arena.arena.stop import Disqualification, Stop, StopReason
from zole_arena.arena.summary import DealReport, PlayerStats, Summary
from zole_arena.game.actions import Contract
from zole_arena.game.scoresheet import ScoreSheet
from zole_arena.game.scoring import Pules
from zole_arena.game.state import DealResult
from zole_arena.players.session import BotConfig, BotSession, PlayerSession
from zole_arena.records.checks import resume_refusal
from zole_arena.records.log import (
    LogProblem,
    LogWriter,
    RecordError,
    check_log_path,
    deal_record,
    header_record,
    is_regular_log,
    read_log,
)

__all__ = [
    "Match",
    "RecordSink",
    "result_from_record",
    "resume_match",
    "stderr_path",
]


class RecordSink(Protocol):
    """Where a match's records go instead of a log file of its own: a
    :class:`~zole_arena.records.log.LogWriter` that several matches share, a tournament
    worker's socket to the one process that writes the log, or anything else that keeps
    records. The match writes its header, once, and then each deal's record as the deal ends,
    each whole and in order; it never closes a sink it was given."""

    @property
    def path(self) -> Path | None:
        """The file the records end up in, which a sandboxed match hides from its bots
        (None: they are not kept in a file a bot could read)."""

    def write(self, record: dict[str, Any]) -> None:
        """Keep one whole record."""


def result_from_record(data: dict[str, Any]) -> DealResult:
    """A deal record's ``result`` as the engine's :class:`~zole_arena.game.state.DealResult`."""
    pules = data["pules"]
    contract = None if data["contract"] is None else Contract(data["contract"])
    return DealResult(
        contract=contract,
        soloist=data["soloist"],
        scores=tuple(data["scores"]),
        tricks=tuple(data["tricks"]),
        points=tuple(data["points"]),
        band=data["band"],
        soloist_points=data["soloist_points"],
        soloist_tricks=data["soloist_tricks"],
        losers=tuple(data["losers"]),
        pules=Pules(pules["common"], tuple(pules["personal"])),
        pule_event=data["pule_event"],
        ended_early=data["ended_early"],
        forfeit=data["forfeit"],
    )


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
        if len(players) != 3:
            raise MatchError(f"a match needs 3 bots, not {len(players)}")
        self.settings = settings
        self._sink: RecordSink | None = None
        if log is None or isinstance(log, str | os.PathLike):
            self.log_path = Path(log) if log is not None else None
        else:
            self._sink = log
            self.log_path = log.path
        self.players = seal(list(players), settings.sandbox, self.log_path)
        self.match_id = match_id or uuid.uuid4().hex[:12]
        self.part_of = part_of
        self.sheets = [ScoreSheet(settings.rules, settings.seed) for _ in range(6)]
        self.stats = [
            PlayerStats(config.name or f"player{i + 1}") for i, config in enumerate(players)
        ]
        self.done = 0
        """Deals played (read from the log when resuming)."""
        self.stopped: Stop | None = None
        """Why the match stopped before its last deal (None: it did not)."""
        self.log_problems: list[LogProblem] = []
        """Lines of the log that could not be read when the match was resumed from it."""
        self.fault_lines: list[str] = []
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
        )

    # -- the header -------------------------------------------------------------------------

    def player_entries(self) -> list[dict[str, Any]]:
        """The players as the header keeps them: enough to start them again."""
        entries = []
        for player, config in zip(self.referee.players, self.players, strict=True):
            entry = dict(player.identity)
            entry["name"] = player.name
            entry["command"] = (
                list(config.command) if not isinstance(config.command, str) else [config.command]
            )
            entry["options"] = dict(config.options)
            # The folder it runs in, so that --resume from another folder starts it alike.
            entry["cwd"] = str(config.cwd) if config.cwd is not None else os.getcwd()
            entries.append(entry)
        return entries

    def header(self) -> dict[str, Any]:
        """The log's first record."""
        header = header_record(
            match_id=self.match_id,
            rules=self._rules,
            seed=self.settings.seed,
            players=self.player_entries(),
            deals=self.settings.deals,
            duplicate=self.settings.duplicate,
            settings=self.settings.to_dict(),
        )
        header["isolation"] = self.settings.isolation()
        if self.part_of is not None:
            header.update(self.part_of.header_fields())
        return header

    @property
    def names(self) -> tuple[str, str, str]:
        """The players' names (once started: each as it goes in the log, told apart)."""
        return (self.stats[0].name, self.stats[1].name, self.stats[2].name)

    # -- playing ----------------------------------------------------------------------------

    def _count(self, report: DealReport) -> None:
        for seat, player in enumerate(report.seating):
            self.stats[player].add(seat, report.result, report.result.scores[seat])

    def replay_records(self, records: Sequence[dict[str, Any]]) -> None:
        """Bring the sheets and figures up to date with deal records from a log (resume)."""
        schedule = _schedule(self.settings)
        for record in records:
            step = next(schedule, None)
            if step is None:
                raise MatchError(
                    f"the log has more deals than its header's match ({self.settings.total_deals})"
                )
            number, block, sheet_index, seating = step
            if (
                record["deal"] != number
                or record["block"] != block
                or tuple(record["seating"]) != seating
            ):
                raise MatchError(
                    f"the log's deal {record['deal']} is not deal {number} of this match "
                    "(was the log written by another zole-arena version?)"
                )
            result = result_from_record(record["result"])
            self.sheets[sheet_index].record(result)
            self._count(
                DealReport(
                    number,
                    block,
                    seating,
                    result,
                    _by_player(seating, result.scores),
                    len(record["faults"]),
                )
            )
            for fault in record["faults"]:
                self.stats[fault["player"]].faults += 1
                self.referee.players[fault["player"]].faults += 1
                self.fault_lines.append(
                    f"deal {fault['deal_no']}: {fault['bot']} (seat {fault['seat']}) "
                    f"{fault['kind']}: {fault['message']}"
                )
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
        try:
            outcome = self.referee.play_deal(self.sheets[sheet_index], seating, number, slot)
            report = self._finish(outcome, number, block, sheet_index, seating)
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
        report = DealReport(
            number, block, seating, result, _by_player(seating, result.scores), len(outcome.faults)
        )
        for fault in outcome.faults:
            self.stats[fault.player].faults += 1
            self.fault_lines.append(fault.describe())
        self._count(report)
        if self._writer is not None:
            players = [self.referee.players[p] for p in seating]
            record = deal_record(
                match_id=self.match_id,
                number=number,
                block=block,
                seating=seating,
                rules=self._rules,
                seed=self.settings.seed,
                state=outcome.state,
                result=result,
                moves=[
                    # think_ms to the microsecond: finer digits are noise, and cost log space
                    {
                        "seat": seat,
                        "action": action,
                        "request_id": request,
                        "think_ms": round(ms, 3),
                    }
                    for seat, action, request, ms in outcome.moves
                ],
                faults=[fault.to_dict() for fault in outcome.faults],
                players=[
                    {
                        "name": p.name,
                        "version": str(p.identity.get("version", "")),
                        "command": p.identity.get("command", []),
                    }
                    for p in players
                ],
                totals=self.sheets[sheet_index].totals,
            )
            self._writer.write(record)
        self.done = number
        return report

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


def _by_player(seating: tuple[int, int, int], scores: Sequence[int]) -> tuple[int, int, int]:
    by_player = [0, 0, 0]
    for seat, player in enumerate(seating):
        by_player[player] = scores[seat]
    return (by_player[0], by_player[1], by_player[2])


def stderr_path(log: Path | None, name: str) -> str | None:
    """Where a bot's stderr goes beside a log: ``LOG.NAME.stderr`` (None without a log, or
    when the log is not a file, ``/dev/null`` say: nothing is written beside it)."""
    if log is None or not is_regular_log(log):
        return None
    safe = "".join(c if c.isalnum() or c in "._-#+" else "_" for c in name)
    return str(log.with_name(f"{log.name}.{safe}.stderr"))


def resume_match(log_path: str | Path) -> Match:
    """A :class:`Match` set up from a log's header and brought up to its last whole deal.

    :raises RecordError: the file is not a zole-arena log.
    :raises MatchError: the log has no header or does not fit its header.
    """
    records, problems = read_log(log_path)
    if not records:
        why = problems[0].message if problems else "no records"
        raise MatchError(f"{log_path}: nothing to resume from ({why})")
    header = records[0]
    if header.get("type") == "tournament":
        raise MatchError(
            f"{log_path}: is a tournament log: continue it with "
            f"'zole-arena tournament --resume {log_path}'"
        )
    if header.get("type") != "match":
        raise MatchError(f"{log_path}: the first record is not a match header")
    refusal = resume_refusal(log_path, header, "match")
    if refusal is not None:
        raise MatchError(refusal)
    commands = [tuple(p.get("command", ())) for p in header.get("players", [])]
    if ("<human>",) in commands:
        raise MatchError(f"{log_path}: a 'play' session cannot be resumed (a person played it)")
    if sum(1 for r in records if r.get("type") == "match") > 1:
        raise MatchError(f"{log_path}: the file holds more than one match; resume needs one")
    settings = MatchSettings.from_header(header)
    for player in header.get("players", []):
        folder = player.get("cwd")
        if folder is not None and not Path(folder).is_dir():
            raise MatchError(
                f"{log_path}: bot {player.get('name')}'s folder {folder} does not exist any more"
            )
    configs = [
        BotConfig(
            command=tuple(p["command"]),
            name=p["name"],
            cwd=p.get("cwd"),
            options=p.get("options", {}),
            startup_ms=settings.startup_ms,
            ping_ms=settings.ping_ms,
            limits=settings.limits,
            stderr_path=stderr_path(Path(log_path), p["name"]),
            sandbox=settings.sandbox,
        )
        for p in header["players"]
    ]
    match = Match(configs, settings, log_path, match_id=header["match_id"])
    deals = [r for r in records[1:] if r.get("type") == "deal"]
    match.replay_records(deals)
    match.log_problems = problems
    return match
