"""A tournament's state, counted from the records its tables write: the tables seated so far
and how far each has got, the standings, and in the ``lzf`` format the rounds (each one seated
as the rounds before it ended, its big points when it ends).

:class:`TournamentState` runs nothing: it is fed the records — as the workers send them
(:class:`~zole_arena.events.tournament.Tournament` is a state that plays its tables), or from a
log (``standings``: :func:`~zole_arena.events.resume.read_tournament`) — so that a running
tournament and every reader of its log count alike.
"""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import Iterable, Mapping

from zole_arena.arena.results import settle_of
from zole_arena.arena.settings import MatchSettings
from zole_arena.arena.stop import Stop
from zole_arena.events.schedule import Table, TournamentError
from zole_arena.events.settings import TournamentSettings
from zole_arena.events.standings import Standings, TableState, TournamentSummary
from zole_arena.records.model import DealRecord, Record, SettleRecord, TableOf
from zole_arena.stats.rounds import RoundStandings, RoundTable, round_seed

__all__ = ["TournamentState"]


class TournamentState:
    """A tournament's tables, standings and rounds, counted from its records."""

    def __init__(self, settings: TournamentSettings, tournament_id: str | None = None) -> None:
        """:param tournament_id: its id (None: a new one)."""
        self.settings = settings
        self.tournament_id = tournament_id or uuid.uuid4().hex[:12]
        self._header_written = False
        """The tournament header is in the log."""
        names = [entrant.name for entrant in settings.entrants]
        self.standings = Standings(names, settings.match.duplicate)
        self.tables: list[TableState] = []
        self._deals: dict[str, list[DealRecord]] = {}
        """Each table's deal records so far (to resume a table from)."""
        self._totals: dict[str, tuple[int, ...]] = {}
        """Each table's points so far, by table seat (settled pules included)."""
        self._faults: dict[str, dict[int, int]] = {}
        """Each table's faults so far, by table seat (past the limit: disqualified there)."""
        self.rounds: RoundStandings | None = None
        """The ``lzf`` format's rounds: big points, and the tables of each round begun."""
        self._rounds_ended = 0
        self._unwritten: list[SettleRecord] = []
        """Settle records a resumed log lacked (:meth:`_settle_round`): written at the run's
        start."""
        for table in settings.tables:
            self._add_table(table)
        if settings.format == "lzf":
            self.rounds = RoundStandings(len(names), settings.match.seed)
            self._new_round()
        self.stopped: Stop | None = None
        """Why the tournament stopped before its end (None: it did not, or has not)."""

    # -- tables and rounds ----------------------------------------------------------------

    def _add_table(self, table: Table) -> TableState:
        names = self.standings.names
        state = TableState(
            table,
            f"{self.tournament_id}-t{table.number}",
            tuple(names[player] for player in table.players),
            self.settings.match.total_deals,
        )
        self.tables.append(state)
        self._deals[state.match_id] = []
        return state

    def _new_round(self) -> None:
        """Seat the next round (:class:`~zole_arena.stats.rounds.RoundStandings`)."""
        assert self.rounds is not None
        tables = self.rounds.next_tables()
        number, first = len(self.rounds.rounds), len(self.tables) + 1
        for offset, players in enumerate(tables):
            self._add_table(Table(first + offset, players, number))

    @property
    def round_number(self) -> int:
        """The round being played (the ``lzf`` format; 0 otherwise)."""
        return len(self.rounds.rounds) if self.rounds is not None else 0

    def _round_over(self) -> bool:
        """Whether the round being played has ended (every table finished) and is counted:
        its big points added. False in the other formats."""
        rounds = self.rounds
        if rounds is None:
            return False
        number = len(rounds.rounds)
        if self._rounds_ended == number:
            return True
        playing = [t for t in self.tables if t.table.round == number]
        if not all(t.finished for t in playing):
            return False
        ended = (
            RoundTable(
                t.table.players,
                self._totals.get(t.match_id, (0,) * len(t.table.players)),
                self._faults.get(t.match_id, {}),
                t.deals < t.planned,
            )
            for t in playing
        )
        won = rounds.close_round(ended, self.settings.match.policy.max_faults)
        for table, big in zip(playing, won, strict=True):
            table.big = big
        self._rounds_ended = number
        return True

    def _next_round(self) -> bool:
        """After a round has ended: seat the next one, if there is one to play."""
        if self.rounds is None or not self._round_over():
            return False
        if self.round_number >= (self.settings.rounds or 0):
            return False
        self._new_round()
        return True

    # -- resuming -----------------------------------------------------------------------------

    def take_records(self, records: Iterable[Record]) -> None:
        """Count the records of an earlier run of this tournament (from its log). In the
        ``lzf`` format each round's tables are seated as the rounds before them ended."""
        by_id = {table.match_id: table for table in self.tables}
        for record in records:
            if record.type == "tournament":
                self._header_written = True
                continue
            table = by_id.get(record.match_id)
            if table is None:  # a record of the next round: the round before has ended
                self._settle_round()
                if self._next_round():
                    by_id = {table.match_id: table for table in self.tables}
                    table = by_id.get(record.match_id)
            if table is None:
                raise TournamentError(
                    f"the log holds match {record.match_id!r}, which is not a table of "
                    f"tournament {self.tournament_id}"
                    + (" (or not of the round it is in)" if self.rounds is not None else "")
                )
            self._count(table, record)
        self._settle_round()
        self._next_round()  # a round whose last deal ended the log: the next is seated

    @property
    def settles_missing(self) -> bool:
        """Whether settle records the log lacked are waiting to be written (a tournament
        resumed from a log stopped between a table's last deal and its settle)."""
        return bool(self._unwritten)

    def _settle_round(self) -> None:
        """Settle the pules of the current round's tables that played all their deals but
        whose log lacks its ``settle`` record (a run stopped between the two): computed from
        their deals' results as the table's sheet keeps them
        (:func:`~zole_arena.arena.results.settle_of`), counted now, and written first when the
        tournament plays on (:attr:`_unwritten`)."""
        number = self.round_number
        for table in self.tables:
            if table.table.round != number or table.settled or table.deals < table.planned:
                continue
            settled = settle_of(
                table.match_id,
                self.settings.match.rules,
                self._match_of(table).seed,
                len(table.names),
                self._deals[table.match_id],
            )
            if settled is not None:
                self._count(table, settled)
                self._unwritten.append(settled)

    def _count(self, table: TableState, record: Record) -> None:
        if record.type == "match":
            table.started = True
        elif isinstance(record, DealRecord):
            self._deals[table.match_id].append(record)
            table.deals += 1
            self.standings.add(record)
            self._add_points(table, record.player_scores)
            faults = self._faults.setdefault(table.match_id, {})
            for fault in record.faults:
                faults[fault.player] = faults.get(fault.player, 0) + 1
        elif isinstance(record, SettleRecord):
            table.settled = True
            self.standings.add_settle(table.names, record)
            self._add_points(table, dict(enumerate(record.scores)))

    def _add_points(self, table: TableState, scores: Mapping[int, int]) -> None:
        """Add a deal's (or a settle's) scores to its table's points, by table seat: summed
        from the scores, never taken from a record's totals (a log's totals are its word)."""
        size = len(table.names)
        before = self._totals.get(table.match_id, (0,) * size)
        self._totals[table.match_id] = tuple(
            points + scores.get(seat, 0) for seat, points in enumerate(before)
        )

    def _part(self, table: TableState) -> TableOf:
        """What a table's match header says of it: which tournament, table and round."""
        return TableOf(self.tournament_id, table.table.number, table.table.round)

    def _match_of(self, table: TableState) -> MatchSettings:
        """How a table plays: as the tournament's settings say, from its board group's seed
        (:mod:`zole_arena.stats.boards`) or its round's."""
        match, number = self.settings.match, table.table.round
        if number is None:
            number = table.table.number
            return dataclasses.replace(match, seed=self.settings.table_seed(number))
        return dataclasses.replace(match, seed=round_seed(match.seed, number))

    def points(self, table: TableState) -> tuple[int, ...]:
        """A table's points so far by table seat, its settled pules included (summed from the
        scores, never taken from a record's totals)."""
        return self._totals.get(table.match_id, (0,) * len(table.names))

    def summary(self, log: str | None = None, digest: str | None = None) -> TournamentSummary:
        """The figures so far (``log`` and ``digest``: the log's path and digest, to show)."""
        return TournamentSummary(
            self.standings,
            self.tables,
            self.settings.total_deals,
            self.stopped,
            log,
            digest=digest,
            rounds=self.rounds,
        )
