"""A match: three bots, a number of deals, a log, a summary — resumable and interrupt-safe.

:class:`Match` plays deals through a :class:`~zole_arena.arena.referee.Referee` and appends each
finished deal to the log as it ends (see :mod:`zole_arena.records.log`). With ``duplicate``, every
deal of the seed is played in all six seatings of the three bots; each seating keeps its own
score sheet (dealer rotation, pules), like the tables of a duplicate bridge event, and the deals
are played block by block. A match stops early when a bot is disqualified or on Ctrl-C; every
finished deal is in the log, and :func:`resume_match` continues from the log alone.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

from zole_arena.arena.referee import DealOutcome, Referee
from zole_arena.arena.settings import MatchError, MatchSettings, _schedule, unique_names
from zole_arena.arena.summary import DealReport, PlayerStats, Summary
from zole_arena.game.actions import Contract
from zole_arena.game.scoresheet import ScoreSheet
from zole_arena.game.scoring import Pules
from zole_arena.game.state import DealResult
from zole_arena.isolation.sandbox import Sandbox, readable_paths
from zole_arena.players.botproc import split_command
from zole_arena.players.session import IN_PROCESS, BotConfig, BotSession, PlayerSession
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
    """Where a match's records go: a :class:`~zole_arena.records.log.LogWriter`, or (in a
    tournament's worker process) a queue to the one process that writes the log."""

    def write(self, record: dict[str, Any]) -> None:
        """Keep one whole record."""

    def close(self) -> None:
        """No more records will come."""


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
    """Plays a match between three bots and writes its log."""

    def __init__(
        self,
        players: Sequence[BotConfig],
        settings: MatchSettings,
        log_path: str | Path | None = None,
        *,
        match_id: str | None = None,
        start_session: Callable[[BotConfig], PlayerSession] = BotSession,
        sink: RecordSink | None = None,
        header_extra: dict[str, Any] | None = None,
    ) -> None:
        """
        :param log_path: the log file to append the records to (None: no log, unless ``sink``).
        :param sink: where the records go instead of ``log_path`` (a tournament's queue).
        :param header_extra: more keys for the match header (a tournament's table).
        """
        if len(players) != 3:
            raise MatchError(f"a match needs 3 bots, not {len(players)}")
        self.settings = settings
        self.log_path = Path(log_path) if log_path is not None else None
        self.players = _seal(list(players), settings.sandbox, self.log_path)
        self.match_id = match_id or uuid.uuid4().hex[:12]
        self.sheets = [ScoreSheet(settings.rules, settings.seed) for _ in range(6)]
        self.stats = [
            PlayerStats(config.name or f"player{i + 1}") for i, config in enumerate(players)
        ]
        self.done = 0
        self.log_problems: list[LogProblem] = []
        """Lines of the log that could not be read when the match was resumed from it."""
        """Deals already played (read from the log when resuming)."""
        self.fault_lines: list[str] = []
        self.sink = sink
        self.header_extra = dict(header_extra or {})
        self._header_written = False
        self._paused = False
        self._log: LogWriter | None = None
        """The match's own log, once opened (for its digest)."""
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
            rules=self.settings.rules.to_dict(),
            seed=self.settings.seed,
            players=self.player_entries(),
            deals=self.settings.deals,
            duplicate=self.settings.duplicate,
            settings=self.settings.to_dict(),
        )
        header["isolation"] = self.settings.isolation()
        header.update(self.header_extra)
        return header

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

    def run(
        self,
        on_deal: Callable[[DealReport, Summary], None] | None = None,
        *,
        until: int | None = None,
    ) -> Summary:
        """Play the remaining deals; stop early on disqualification or Ctrl-C.

        The bots are stopped at the end; :class:`KeyboardInterrupt` is caught and reported in
        the summary (``stopped = "interrupted"``).

        :param until: play only up to this deal number, then *pause*: return with the bots
            still running (and a ``sink`` still open), so that the next call goes on without
            starting them again — for a caller that plays several matches in turn, block by
            block (``zole-arena sprt``). A paused match must be ended with :meth:`close`. A
            match that reaches its last deal, is stopped or raises is never paused.
        :raises BotStartupError: a bot cannot be started at the beginning.
        """
        writer: RecordSink | None = self.sink
        stopped: str | None = None
        self._paused = False
        try:
            if writer is None and self.log_path is not None and not self._header_written:
                check_log_path(self.log_path)  # a bad path fails before any bot starts
            made = self._make_hidden()
            try:
                self.referee.start()
            except BaseException:
                for path in made:  # files made only to be hidden from the sandboxes
                    with contextlib.suppress(OSError):
                        if path.stat().st_size == 0:
                            path.unlink()
                raise
            # Players without a given name take the name they announce, told apart.
            names = unique_names([player.name for player in self.referee.players])
            for index, player in enumerate(self.referee.players):
                player.name = names[index]
                player.config = dataclasses.replace(player.config, name=names[index])
                self.stats[index].name = player.name
            if writer is None and self.log_path is not None:
                writer = self._log = LogWriter(self.log_path)
            if writer is not None and not self._header_written:
                writer.write(self.header())
                self._header_written = True
            rules = self.settings.rules.to_dict()  # the same in every deal record
            for number, block, sheet_index, seating in _schedule(self.settings):
                if number <= self.done:
                    continue
                if self.referee.disqualified:
                    culprits = ", ".join(
                        f"{self.referee.players[p].name} ({self.referee.players[p].faults} "
                        f"faults, more than the limit of {self.settings.policy.max_faults})"
                        for p in self.referee.disqualified
                    )
                    stopped = f"disqualified: {culprits}"
                    break
                if until is not None and number > until:
                    self._paused = True
                    break
                slot = sheet_index if self.settings.separate_seatings else 0
                outcome = self.referee.play_deal(self.sheets[sheet_index], seating, number, slot)
                report = self._finish(outcome, number, block, sheet_index, seating, writer, rules)
                if on_deal is not None:
                    on_deal(report, self.summary())
        except KeyboardInterrupt:
            self.referee.kill()
            summary = self.summary()
            summary.stopped = "interrupted"
            return summary
        except RecordError as exc:
            if writer is None:
                raise  # the log could not be opened: nothing was played
            if not self._header_written:
                raise MatchError(f"{exc}: the match did not start") from None
            resume = (
                f"; continue with --resume {self.log_path} once it can be written"
                if self.log_path is not None
                else ""
            )
            raise MatchError(
                f"{exc}: the match stopped after deal {self.done}, and the log keeps every "
                f"deal before it whole{resume}"
            ) from None
        finally:
            if not self._paused:
                self.referee.close()
            if writer is not None and (not self._paused or writer is not self.sink):
                writer.close()  # a log file of the match's own is opened again by the next run
        final = self.summary()
        final.stopped = stopped
        return final

    def _make_hidden(self) -> list[Path]:
        """Make the files the sandboxes hide that do not exist yet (the log, the stderr files):
        a file made after a sandbox was built inside a folder the bot may read would be
        visible to it. The files it made, so that a failed start can remove them again."""
        made: list[Path] = []
        if self.settings.sandbox is None:
            return made
        for config in self.players:
            for text in config.sandbox.hidden if config.sandbox is not None else ():
                path = Path(text)
                if not path.exists() and path.parent.is_dir() and not _special(path):
                    with contextlib.suppress(OSError):
                        path.touch()
                        made.append(path)
        return made

    def close(self) -> None:
        """End a match that :meth:`run` left paused (``until``): stop its bots and close its
        ``sink``. Does nothing for a match that is not paused."""
        if self._paused:
            self._paused = False
            self.referee.close()
            if self.sink is not None:
                self.sink.close()

    def _finish(
        self,
        outcome: DealOutcome,
        number: int,
        block: int,
        sheet_index: int,
        seating: tuple[int, int, int],
        writer: RecordSink | None,
        rules: dict[str, Any],
    ) -> DealReport:
        result = outcome.result
        report = DealReport(
            number, block, seating, result, _by_player(seating, result.scores), len(outcome.faults)
        )
        for fault in outcome.faults:
            self.stats[fault.player].faults += 1
            self.fault_lines.append(fault.describe())
        self._count(report)
        if writer is not None:
            players = [self.referee.players[p] for p in seating]
            record = deal_record(
                match_id=self.match_id,
                number=number,
                block=block,
                seating=seating,
                rules=rules,
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
            writer.write(record)
        self.done = number
        return report

    def summary(self) -> Summary:
        """The figures so far."""
        return Summary(
            players=[dataclasses.replace(s) for s in self.stats],
            deals=self.done,
            planned=self.settings.total_deals,
            log=str(self.log_path) if self.log_path is not None else None,
            fault_lines=list(self.fault_lines),
            digest=self._log.digest if self._log is not None else None,
        )


def _special(path: Path) -> bool:
    """A path under /dev or /proc (``--log /dev/null``): nothing to make or hide there."""
    return path.is_absolute() and path.parts[1:2] in (("dev",), ("proc",))


def _seal(configs: list[BotConfig], sandbox: Sandbox | None, log: Path | None) -> list[BotConfig]:
    """The players' configurations with the match's sandbox, each hiding what no bot may
    see even where it lies in a folder the bot may read: the log, the stderr files, and the
    other bots' programs."""
    if sandbox is None:
        return configs
    shared = [*sandbox.hidden]
    if log is not None and not _special(log):
        shared.append(str(log.absolute()))
    shared += [c.stderr_path for c in configs if c.stderr_path is not None]
    programs = []
    for config in configs:
        argv = split_command(config.command)
        programs.append(readable_paths(argv, config.cwd or os.getcwd())[1])
    sealed = []
    for index, config in enumerate(configs):
        others = [p for i, own in enumerate(programs) if i != index for p in own]
        hidden = tuple(dict.fromkeys([*shared, *others]))  # its own program stays visible
        sealed.append(
            dataclasses.replace(config, sandbox=dataclasses.replace(sandbox, hidden=hidden))
        )
    return sealed


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
    if any(command[:1] == (IN_PROCESS,) for command in commands):
        raise MatchError(
            f"{log_path}: a match with a bot seated in-process cannot be resumed from its log "
            "(the bot was a Python object, not a command)"
        )
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
