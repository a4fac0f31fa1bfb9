"""The verifier: a log's records in order, each checked against the records before it.

:func:`verify_log` streams a log (one record at a time, so memory does not grow with the file)
through :class:`_Verifier`, which keeps what later records are checked against: the hash
chain, the headers of the matches and the tournament, each seating's score sheet (its running
totals and pules), and an ``lzf`` tournament's rounds. The checks of one deal on its own are
:mod:`~zole_arena.arena.verify.deals`'.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, Final

from zole_arena.arena.replay import replay_record
from zole_arena.arena.verify.deals import against_header, forfeit_problems, order_problems
from zole_arena.arena.verify.findings import Finding, Kind, VerifyReport
from zole_arena.arena.verify.tables import entrant_problems, tables_problems
from zole_arena.errors import ZoleError
from zole_arena.game.rules import END_PULE_PAYMENT, Rules
from zole_arena.game.scoring import Pules
from zole_arena.game.state import DealState
from zole_arena.game.table import Seating, score_at_table, settle_pules
from zole_arena.records.checks import short
from zole_arena.records.model import (
    ABSENT,
    DealRecord,
    InvalidHeader,
    MatchHeader,
    Record,
    SettleRecord,
    SprtInfo,
    TournamentHeader,
)
from zole_arena.records.reader import LogEntry, LogReader
from zole_arena.records.writer import to_json
from zole_arena.stats.boards import board_groups, table_seed
from zole_arena.stats.rounds import RoundStandings, RoundTable, round_seed

__all__ = ["verify_log"]

_HEADERS: Final = ("match", "tournament")


@dataclasses.dataclass
class _Sheet:
    """One seating's score sheet in a match, as its deal records have built it so far."""

    totals: list[int]
    pules: Pules
    """The pules the sheet's last deal left."""
    last: int
    """The number of its last deal."""


@dataclasses.dataclass
class _Rounds:
    """An ``lzf`` tournament's rounds as ``verify`` recomputes them."""

    standings: RoundStandings
    expected: dict[int, tuple[int, tuple[int, ...]]] = dataclasses.field(default_factory=dict)
    """Each table number's (round, entrants by table seat), for the rounds begun."""
    seated: int = 0
    """Tables seated so far."""
    playing: list[tuple[str, tuple[int, ...]]] = dataclasses.field(default_factory=list)
    """The current round's tables so far: (match id, entrants)."""


class _Verifier:
    """The state of one log's verification: a little per match and per score sheet."""

    def __init__(self, report: VerifyReport, emit: Callable[[Finding], None]) -> None:
        self.report = report
        self.emit = emit
        self.headers: dict[str, MatchHeader | None] = {}
        """Each match's header (None: a header too broken to check its deals against)."""
        self.tournaments: dict[str, TournamentHeader | None] = {}
        """Each tournament's header (None: a header with problems)."""
        self.last_deal: dict[str, int] = {}
        self.sheets: dict[tuple[str, tuple[int, int, int]], _Sheet] = {}
        self.tables: dict[str, _Sheet] = {}
        """The sheet of each table of four's match (pules and totals by table seat)."""
        self.faults: dict[str, dict[int, int]] = {}
        """Each match's faults so far, by player (in a round, past the limit: last place)."""
        self.rounds: dict[str, _Rounds] = {}
        """Each ``lzf`` tournament's rounds, as its tables' headers begin them."""
        self.groups: dict[str, list[int]] = {}
        """Each movement's board group of every table (:mod:`zole_arena.stats.boards`)."""
        self.settled: set[str] = set()
        """The matches whose pules were settled (their ``settle`` record read)."""
        self.first_type: str | None = None
        """The type of the log's first record: ``match`` or ``tournament`` in a whole log."""
        self.test: SprtInfo | None = None
        """The head-to-head test of the log's first match that belongs to one."""
        self.whole = False
        """Whether the log begins where a log does (a header, or a first line whose ``prev``
        is null), not a part of one: each of its deals needs its header before it."""

    # -- the hash chain -------------------------------------------------------------------------

    def chain(self, entry: LogEntry, record: Record) -> None:
        """Check a record's place in the hash chain: its ``prev`` is the hash of the line
        before it (null on the first line), in a log of one format."""
        version = entry.format_version
        report = self.report
        first = report.format_version is None
        if first:
            report.format_version = version
            if version == 1:
                self.emit(
                    Finding(
                        Kind.NOTE,
                        0,
                        "format 1 (written before the hash chain): edits to this log cannot "
                        "be detected",
                        fails=False,
                    )
                )
        if version != report.format_version:
            self._chain_break(
                entry.line, f"a format-{version} record in a format-{report.format_version} log"
            )
            return
        if version == 1:
            return
        prev = entry.prev
        if prev is ABSENT:
            self._chain_break(entry.line, "the record has no prev")
            return
        if first and record.type not in _HEADERS and prev is not None:
            return  # a part of a log (a deal on its own): nothing before it to check against
        if prev == entry.previous:
            return
        shown = prev if prev is not None and len(prev) <= 64 else short(prev)
        if entry.previous is None:
            self._chain_break(
                entry.line,
                f"prev is {shown}, but the first line of a log has prev null (the lines "
                "before it were removed)",
            )
        else:
            self._chain_break(
                entry.line,
                f"prev is {shown}, but line {entry.line - 1} hashes to {entry.previous} "
                f"(line {entry.line - 1} was changed, or lines were removed, inserted or moved)",
            )

    def _chain_break(self, line: int, why: str) -> None:
        """Report the first break (the lines after it follow from it), count the others."""
        self.report.chain_breaks += 1
        if self.report.chain_breaks == 1:
            self.emit(Finding(Kind.CHAIN, line, f"the hash chain breaks here: {why}"))

    # -- headers --------------------------------------------------------------------------------

    def header(
        self, entry: LogEntry, record: MatchHeader | TournamentHeader | InvalidHeader
    ) -> None:
        match_id = record.match_id
        problems = list(record.problems) if isinstance(record, InvalidHeader) else []
        if match_id in self.headers or match_id in self.tournaments:
            problems.append(f"a second header for match {short(match_id)}")
        if isinstance(record, MatchHeader) and not problems:
            problems.extend(self._against_tournament(record))
            problems.extend(self._against_test(record))
        if isinstance(record, TournamentHeader) and not problems:
            if self.tournaments:
                problems.append("a second tournament in one log (a tournament's log holds one)")
            problems.extend(tables_problems(record))
        for problem in problems:
            self.emit(Finding(Kind.HEADER, entry.line, f"{record.type} header: {problem}"))
        if problems:
            self.report.bad_headers += 1
        if record.type == "tournament":
            valid = record if isinstance(record, TournamentHeader) and not problems else None
            self.tournaments.setdefault(match_id, valid)
            return
        if match_id not in self.headers:
            self.headers[match_id] = (
                record if isinstance(record, MatchHeader) and not problems else None
            )

    def _against_test(self, record: MatchHeader) -> list[str]:
        """A match of a head-to-head test seats its bots as ``sprt`` does: NEW, OLD and the
        third bot; or NEW against OLD and a copy of OLD, or OLD against NEW and a copy of NEW.
        Every match of the log's test has the same test settings."""
        test = record.sprt
        if test is None:
            return []
        problems = []
        if self.test is None:
            self.test = test
        elif test != self.test:
            problems.append("sprt: not the test settings of the log's first match of the test")
        new, old = test.new, test.old
        if test.third is not None:
            layouts = [[new, old, test.third]]
        else:
            layouts = [[new, old, f"{old}#2"], [old, new, f"{new}#2"]]
        if list(record.names) not in layouts:
            problems.append(
                f"sprt: the players {short(list(record.names))} are not a match of the test "
                f"of {short(new)} against {short(old)} (its matches seat {short(layouts)})"
            )
        return problems

    def _against_tournament(self, record: MatchHeader) -> list[str]:
        """A table's match header must play as its tournament's header says."""
        table = record.tournament
        if table is None:
            if self.first_type == "tournament":  # standings would refuse it, ratings count it
                return ["a match that is no table of the log's tournament (a tournament's log "
                        "holds its tables alone)"]  # fmt: skip
            return []
        if table.id not in self.tournaments:
            if self.first_type != "tournament":
                return []  # a table's records on their own
            return [f"its tournament {short(table.id)} has no header before it"]
        tournament = self.tournaments[table.id]
        if tournament is None:
            return []  # its header is reported
        mine, theirs = _without_hidden(to_json(record)), _without_hidden(to_json(tournament))
        lzf = tournament.tournament_format == "lzf"
        problems = [
            f"{key}: the table's is {short(mine[key])}, its tournament's {short(theirs[key])}"
            for key in ("rules", "seed", "deals", "duplicate", "settings")
            if mine[key] != theirs[key] and not (key == "seed" and (lzf or tournament.boards))
        ]
        if lzf:
            return problems + self._against_round(record, tournament)
        number = table.table
        if record.match_id != f"{table.id}-t{number}":
            problems.append(f"match_id {short(record.match_id)} is not table {number}'s")
        if number > len(tournament.tables):
            return [*problems, f"table {number}: the tournament has {len(tournament.tables)}"]
        if tournament.boards is not None:
            groups = self.groups.get(tournament.match_id)
            if groups is None:
                groups = board_groups(tournament.tables, tournament.boards)
                self.groups[tournament.match_id] = groups
            group = groups[number - 1]
            seed = table_seed(tournament.seed, tournament.boards, group)
            if record.seed != seed and tournament.boards == "own":
                problems.append(f"seed: {record.seed} is not table {number}'s, {seed} (every "
                                "table of its tournament deals its own)")  # fmt: skip
            elif record.seed != seed:
                problems.append(f"seed: {record.seed} is not board group {group + 1}'s, "
                                f"{seed} (its tournament's movement)")  # fmt: skip
        seats = tournament.tables[number - 1]
        expected = [tournament.entrants[p].name for p in seats]
        seated = list(record.names)
        if seated != expected:
            problems.append(f"players: the table seats {short(seated)}, its tournament {expected}")
            return problems
        return problems + entrant_problems(record, [tournament.entrants[p] for p in seats])

    def _against_round(self, record: MatchHeader, tournament: TournamentHeader) -> list[str]:
        """An ``lzf`` tournament's table: of a round begun in order, dealt from its round's
        seed, seating the entrants that the rounds before it give (:mod:`~zole_arena.events.
        rounds`: recomputed from the big points of the tables before it)."""
        table = record.tournament
        assert table is not None
        number = table.round
        if number is None:
            return ["tournament: an lzf table without its round"]
        problems = []
        if record.seed != round_seed(tournament.seed, number):
            problems.append(f"seed: {record.seed} is not round {number}'s")
        state = self.rounds.get(tournament.match_id)
        if state is None:
            standings = RoundStandings(len(tournament.entrants), tournament.seed)
            state = self.rounds[tournament.match_id] = _Rounds(standings)
        begun = len(state.standings.rounds)
        if number == begun + 1 and number <= (tournament.rounds or 0):
            if begun:  # the round before has ended: its tables' points give big points
                ended = (
                    RoundTable(
                        players,
                        self._points_of(match_id, len(players)),
                        self.faults.get(match_id, {}),
                        self._stopped_early(match_id, tournament.deals),
                    )
                    for match_id, players in state.playing
                )
                state.standings.close_round(ended, tournament.settings.max_faults)
            state.playing = []
            for players in state.standings.next_tables():
                state.seated += 1
                state.expected[state.seated] = (number, players)
        elif number != begun:
            return [*problems, f"round {number} where round {begun} or {begun + 1} was due"]
        expected = state.expected.get(table.table)
        if expected is None or expected[0] != number:
            return [*problems, f"table {table.table} is no table of round {number}"]
        names = [tournament.entrants[p].name for p in expected[1]]
        if list(record.names) != names:
            problems.append(
                f"players: the table seats {short(list(record.names))}, the round's reseating "
                f"{names}"
            )
        else:
            problems += entrant_problems(record, [tournament.entrants[p] for p in expected[1]])
        state.playing.append((record.match_id, expected[1]))
        return problems

    def _settling_sheet(self, match_id: str) -> _Sheet | None:
        """The sheet of a table that settles its pules at its end: a table of four's, or the
        one seating of an ``lzf`` round's table of three (its seat i the player i)."""
        sheet = self.tables.get(match_id)
        header = self.headers.get(match_id)
        if (
            sheet is None
            and header is not None
            and header.tournament is not None
            and (header.tournament.round is not None)
        ):
            sheet = self.sheets.get((match_id, (0, 1, 2)))
        return sheet

    def _stopped_early(self, match_id: str, planned: int) -> bool:
        """Whether a table ended before its last deal (a bot was disqualified there): only
        then do its faults decide places (a complete table's faults cost what its deals say)."""
        sheet = self._settling_sheet(match_id)
        return sheet is None or sheet.last < planned

    def _points_of(self, match_id: str, size: int) -> list[int]:
        """A finished table's points by table seat, as its records add up (settle included)."""
        sheet = self._settling_sheet(match_id)
        return list(sheet.totals) if sheet is not None else [0] * size

    # -- deals ----------------------------------------------------------------------------------

    def deal(self, entry: LogEntry, record: DealRecord) -> None:
        self.report.deals += 1
        match_id = record.match_id
        replayed = replay_record(record)
        problems = list(replayed.problems)
        if match_id in self.headers:
            header = self.headers[match_id]
            if header is not None:
                problems.extend(against_header(record, header))
        elif self.whole:
            problems.append(f"its match {short(match_id)} has no header before it")
        problems.extend(forfeit_problems(record))
        faults = self.faults.setdefault(match_id, {})
        for fault in record.faults:
            faults[fault.player] = faults.get(fault.player, 0) + 1
        problems.extend(order_problems(record))
        number, previous = record.deal, self.last_deal.get(match_id)
        if previous is not None and number != previous + 1:
            problems.append(f"deal number {number} follows deal {previous} of its match")
        elif previous is None and number != 1 and match_id in self.headers:
            problems.append(f"deal {number} is the first after its match's header, not deal 1")
        self.last_deal[match_id] = number
        if record.table is None:
            problems.extend(self._sheet_problems(record))
        else:
            problems.extend(self._table_problems(record, replayed.state))
        if problems:
            self.report.bad += 1
            for problem in problems:
                self.emit(Finding(Kind.DEAL, entry.line, problem, deal=number))

    def _sheet_problems(self, record: DealRecord) -> list[str]:
        """Each seating of each match keeps its own sheet (a tournament's log interleaves the
        deals of its tables): its totals must add up, and its pules carry over."""
        problems = []
        key = (record.match_id, record.seating)
        scores = record.result.scores
        logged = list(record.totals)
        if sum(logged) != 0:
            problems.append(f"totals: {logged} are not zero-sum")
        sheet = self.sheets.get(key)
        if sheet is None and self._from_the_start(record):
            # The sheet's first deal, its match's header before it: the sheet starts at zero.
            sheet = self.sheets[key] = _Sheet([0, 0, 0], Pules(), 0)
        if sheet is None:
            # The first deal of this seating in this file: a record on its own (or a log that
            # starts later) is taken at its word, and the following deals must add up from it.
            sheet = self.sheets[key] = _Sheet(
                [logged[s] - scores[s] for s in range(3)], record.pules_before, 0
            )
        elif record.pules_before != sheet.pules:
            problems.append(
                f"pules_before: the log says {short(record.pules_before.to_dict())}, the "
                f"sheet's deal {sheet.last} left {short(sheet.pules.to_dict())}"
            )
        running = sheet.totals
        for seat in range(3):
            running[seat] += scores[seat]
        if logged != running:
            problems.append(f"totals: the log says {logged}, its deals add up to {running}")
            running[:] = logged
        sheet.pules = record.result.pules
        sheet.last = record.deal
        return problems

    def _from_the_start(self, record: DealRecord) -> bool:
        """Whether a sheet's first deal in the file begins its sheet: its match's header came
        before it, and it is of the match's first block (deal 1, or at a duplicate match's
        start the first deal of its seating). Its sheet then starts at zero, with no pules —
        not at what the record says (a forger's totals would shift every later deal)."""
        return record.match_id in self.headers and record.block == 1

    def _table_problems(self, record: DealRecord, state: DealState | None) -> list[str]:
        """A table of four's deal: the table's scores, pules and totals are what the deal's
        end gives at that table (:func:`~zole_arena.game.table.score_at_table`), carried from
        the table's deal before; the deal's own totals are the table's of its three."""
        table = record.table
        assert table is not None
        problems = []
        if record.match_id in self.settled:
            problems.append("a deal after its match's pules were settled")
        seating = Seating(table.size, table.dealer)
        sheet = self.tables.get(record.match_id)
        if sheet is None and self._from_the_start(record):
            sheet = self.tables[record.match_id] = _Sheet([0] * table.size, Pules(), 0)
        if sheet is None:  # as for three: the first deal in the file is taken at its word
            before = [t - s for t, s in zip(table.totals, table.scores, strict=True)]
            sheet = self.tables[record.match_id] = _Sheet(before, table.pules_before, 0)
        elif table.pules_before != sheet.pules:
            problems.append(
                f"table.pules_before: the log says {short(table.pules_before.to_dict())}, the "
                f"table's deal {sheet.last} left {short(sheet.pules.to_dict())}"
            )
        if state is None:  # the replay could not set the deal up, and says why
            return problems
        try:
            scored = score_at_table(state.rules, seating, record.result, table.pules_before)
        except ValueError as exc:
            return [*problems, f"table: {exc}"]
        if list(table.scores) != list(scored.scores):
            problems.append(
                f"table.scores: the log says {list(table.scores)}, the deal's end gives "
                f"{list(scored.scores)}"
            )
        if table.pules != scored.pules:
            problems.append(
                f"table.pules: the log says {short(table.pules.to_dict())}, the deal's end "
                f"leaves {short(scored.pules.to_dict())}"
            )
        elif table.pule_event != scored.pule_event:
            problems.append(
                f"table.pule_event: the log says {short(table.pule_event)}, the deal's end "
                f"{short(scored.pule_event)}"
            )
        if sum(table.totals) != 0:
            problems.append(f"table.totals: {list(table.totals)} are not zero-sum")
        running = [
            total + change for total, change in zip(sheet.totals, scored.scores, strict=True)
        ]
        if list(table.totals) != running:
            problems.append(
                f"table.totals: the log says {list(table.totals)}, its deals add up to {running}"
            )
        expected = [table.totals[player] for player in seating.players]
        if list(record.totals) != expected:
            problems.append(
                f"totals: the log says {list(record.totals)}, the table's give {expected}"
            )
        if record.pules_before:  # the replay then checks the deal's own result
            problems.append(
                "pules_before: a table of four's deal is played with no pules of its own (the "
                "table's are in table.pules_before)"
            )
        sheet.totals = list(table.totals)
        sheet.pules = table.pules
        sheet.last = record.deal
        return problems

    def settle(self, entry: LogEntry, record: SettleRecord) -> None:
        """A ``settle`` (a table of four's, or a table of three's in an ``lzf`` round):
        after its match's last deal, the pules that stood, each personal one costing its
        owner the payment to each other player."""
        problems = []
        header = self.headers.get(record.match_id)
        sheet = self._settling_sheet(record.match_id)
        if record.match_id in self.settled:
            problems.append("a second settle record of its match")
        self.settled.add(record.match_id)
        if sheet is None:
            problems.append("no deal before it of a table that settles its pules")
        else:
            if header is not None and sheet.last != header.total_deals:
                problems.append(
                    f"after deal {sheet.last}, not the match's last ({header.total_deals})"
                )
            if record.after != sheet.last:
                problems.append(f"after: {record.after}, but the last deal was {sheet.last}")
            if record.pules != sheet.pules:
                problems.append(
                    f"pules: the log says {short(record.pules.to_dict())}, the table's last "
                    f"deal left {short(sheet.pules.to_dict())}"
                )
            payment = _end_payment(header)
            if record.payment != payment:
                problems.append(f"payment: {record.payment}, not the rules' {payment}")
            size = len(sheet.totals)
            expected = list(settle_pules(sheet.pules, size, record.payment))
            if list(record.scores) != expected:
                problems.append(
                    f"scores: the log says {list(record.scores)}, the pules give {expected}"
                )
            totals = [t + s for t, s in zip(sheet.totals, expected, strict=True)]
            if list(record.totals) != totals:
                problems.append(f"totals: the log says {list(record.totals)}, not {totals}")
            sheet.totals = list(record.totals)
            sheet.pules = Pules()
        if problems:
            self.report.bad_settles += 1
            for problem in problems:
                self.emit(Finding(Kind.DEAL, entry.line, f"settle: {problem}"))

    def finish(self) -> None:
        """At the end of the log: a table that settles its pules (of four, or of three in an
        ``lzf`` round) and played all its deals with personal pules standing must have
        settled them."""
        for match_id, header in self.headers.items():
            sheet = self._settling_sheet(match_id)
            if (
                sheet is not None
                and header is not None
                and sheet.last == header.total_deals
                and sheet.pules.personal
                and _end_payment(header) > 0
                and match_id not in self.settled
            ):
                self.report.bad_settles += 1
                self.emit(
                    Finding(
                        Kind.DEAL,
                        0,
                        f"match {short(match_id)}: its last deal left personal pules "
                        f"{list(sheet.pules.personal)}, and no settle record pays them",
                    )
                )


def _end_payment(header: MatchHeader | None) -> int:
    """What the match's rules make each personal pule cost at its end (the default when the
    header is missing or its rules are not the engine's: those are reported already)."""
    if header is None:
        return END_PULE_PAYMENT
    try:
        return Rules.from_dict(header.rules).end_pule_payment
    except ZoleError:
        return END_PULE_PAYMENT


def _without_hidden(data: dict[str, Any]) -> dict[str, Any]:
    """A header's JSON without the paths its sandbox hid: they are where the log and the
    bots were when the table began (a tournament resumed from another folder hides the log
    there), not how the table plays."""
    sandbox = data["settings"].get("sandbox")
    if not isinstance(sandbox, dict):
        return data
    settings = {**data["settings"], "sandbox": {**sandbox, "hidden": None}}
    return {**data, "settings": settings}


def verify_log(
    path: str,
    on_finding: Callable[[Finding], None] | None = None,
    *,
    digest: str | None = None,
    on_entry: Callable[[LogEntry, bool], None] | None = None,
) -> VerifyReport:
    """Check a log a record at a time: what each problem is goes to ``on_finding`` as it is
    found; the counts come back in the report.

    :param digest: the log's digest as published (``sha256:<hex>``): checked against the hash
        of its last line, which (with the chain) pins the whole log.
    :param on_entry: given each record's line once it is checked, and whether it is a deal
        record found wrong: a reader that wants the checked records (the report) reads the log
        only once.
    :raises RecordError: the file is not a zole-arena log.
    """
    report = VerifyReport(path)
    verifier = _Verifier(report, on_finding or (lambda finding: None))
    reader = LogReader(path)
    for entry in reader:
        record = entry.record
        if record is None:
            assert entry.problem is not None
            truncated = entry.problem.truncated
            if not truncated:
                report.broken += 1
            verifier.emit(
                Finding(Kind.LINE, entry.line, entry.problem.message, fails=not truncated)
            )
            continue
        first = verifier.first_type is None
        if first:
            verifier.first_type = record.type
            # A log's first line (prev null) is its header: deals after it need theirs.
            verifier.whole = record.type in _HEADERS or entry.prev is None
        verifier.chain(entry, record)
        bad = report.bad
        if isinstance(record, DealRecord):
            verifier.deal(entry, record)
        elif isinstance(record, SettleRecord):
            verifier.settle(entry, record)
        elif isinstance(record, MatchHeader | TournamentHeader | InvalidHeader):
            verifier.header(entry, record)
        elif first:  # where a log's header is: a header renamed, its deals unchecked
            report.broken += 1
            verifier.emit(
                Finding(Kind.LINE, entry.line, f"a record of type {short(record.type)} where "
                        "a log's header is: skipped")
            )  # fmt: skip
        else:  # a later arena's kind of record (readers pass it by, protocol/records.md)
            verifier.emit(
                Finding(Kind.NOTE, entry.line, f"a record of type {short(record.type)}, "
                        "which this version does not know: passed by", fails=False)
            )  # fmt: skip
        if on_entry is not None:
            on_entry(entry, report.bad > bad)
    verifier.finish()
    if report.deals and not verifier.whole:
        verifier.emit(
            Finding(
                Kind.NOTE,
                0,
                "the log does not begin with a header: its deals are checked against the rules "
                "and each other, not against their match's settings",
                fails=False,
            )
        )
    report.digest = reader.digest
    if digest is not None and digest != reader.digest:
        report.digest_differs = True
        verifier.emit(
            Finding(
                Kind.DIGEST,
                0,
                f"digest: the log's is {reader.digest}, not {digest} (the log was "
                "cut short or added to, or its last line changed)",
            )
        )
    if digest is not None and verifier.first_type not in _HEADERS:
        report.digest_differs = True
        verifier.emit(
            Finding(Kind.DIGEST, 0, "digest: the log does not begin with its header: a part of it")
        )
    return report
