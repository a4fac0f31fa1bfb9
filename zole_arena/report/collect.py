"""What a report shows, gathered from one or more logs: every deal, each bot's figures, the
head-to-head results, the rating list and its history.

The logs may be of matches, tournaments and head-to-head tests, in any mix: deals are keyed
by their match and number (a deal read twice counts once, as ``ratings`` counts it), points
and roles are counted by bot name as a match counts them, and the ratings come from the same
units as ``ratings`` and ``standings`` make of the same logs, so the report agrees with them.

A log analysed by ``zole-arena analyze`` has its analysis file beside it
(``LOG.analysis.jsonl``): each deal the report counts gets the analysis of its log line
(keyed by the line's SHA-256) when the file holds one that fits it, and each bot the summary
of its analysed decisions. The file is read as untrusted, like the log: what cannot be used is
left out and listed among the log's problems. So is a log's fair-play screen
(``LOG.fairplay.jsonl``, made by ``zole-arena fairplay``): :mod:`~zole_arena.report.
fairplay_section`.
"""

from __future__ import annotations

import dataclasses
import math
import os
from collections.abc import Hashable, Sequence
from fractions import Fraction
from pathlib import Path

from zole_arena.analysis.model import DealAnalysis
from zole_arena.analysis.summary import summarise
from zole_arena.arena.summary import PlayerStats
from zole_arena.arena.verify import Finding, Kind, verify_log
from zole_arena.events.sprt import SprtTally
from zole_arena.game.actions import Contract
from zole_arena.records.model import (
    DealRecord,
    Fault,
    MatchHeader,
    Record,
    SettleRecord,
    TournamentHeader,
)
from zole_arena.records.reader import (
    LogEntry,
    RecordError,
    check_log_path,
    log_type,
)
from zole_arena.report.analysis_file import read_analyses
from zole_arena.report.fairplay_section import read_fairplay
from zole_arena.report.model import (
    SOLO_CONTRACTS,
    BotFigures,
    BotIdentity,
    LogSummary,
    PairResult,
    ReportData,
    Settlement,
    TableInfo,
    ThinkTime,
    paid,
    table_names,
)
from zole_arena.stats.bigpoints import PLACE_POINTS, big_points
from zole_arena.stats.ratings import (
    DEFAULT_BOOTSTRAP,
    DEFAULT_POINTS,
    RatingError,
    RatingList,
    rate,
    ratings_over_time,
)
from zole_arena.stats.reseating import table_sizes
from zole_arena.stats.rounds import places_points, seats_out
from zole_arena.stats.units import seed_deal_key, units_from_records

__all__ = ["collect"]


def _rules_name(record: MatchHeader | TournamentHeader) -> str:
    preset = record.rules.get("preset")
    return preset if isinstance(preset, str) else "a rules file"


class _Collector:
    """Reads logs one record at a time and counts what the report needs."""

    def __init__(self) -> None:
        self.deals: list[DealRecord] = []
        self.shas: list[str] = []
        """The SHA-256 of each deal's log line (its analysis' key)."""
        self.deal_tables: list[int] = []
        self.tables: list[TableInfo] = []
        self.table_of: dict[str, int] = {}
        self.seen: set[tuple[str, int]] = set()
        self.stats: dict[str, PlayerStats] = {}
        self.solo: dict[str, dict[Contract, list[int]]] = {}
        self.table_lost: dict[str, int] = {}
        self.think: dict[str, list[float]] = {}
        self.identities: dict[str, list[BotIdentity]] = {}
        self.faults: dict[str, list[tuple[int, Fault]]] = {}
        self.records: list[Record] = []
        self.analyses: list[DealAnalysis | None] = []
        """For each deal, its analysis (when the file beside its log holds one that fits)."""
        self.header_names: dict[str, tuple[str, ...]] = {}
        """Each match's players by table seat, as its (first) header lists them."""
        self.deal_names: dict[str, tuple[str, ...]] = {}
        """Each table of four's players by table seat, as its first deal names them (for a
        match whose header is not in the logs)."""
        self.max_faults: dict[str, int] = {}
        """Each match's fault limit, as its header says."""
        self.fault_counts: dict[str, dict[str, int]] = {}
        """Each match's faults so far, by player name."""
        self.lzf_tables: dict[str, int] = {}
        """Each ``lzf`` tournament's tables a round (from its header)."""
        self.deals_of: dict[str, int] = {}
        """Each match's deals in the report."""
        self.planned: dict[str, int] = {}
        """Each match's deals, as its header plans them."""
        self.rounds: dict[str, tuple[str, int]] = {}
        """The match ids of the ``lzf`` format's tables (their big points are counted), with
        their round."""
        self.table_points: dict[str, dict[str, int]] = {}
        """Each match's points so far by player name (deals and settle)."""
        self.settles: dict[str, SettleRecord] = {}
        """Each table of four's settle record (the first read: one read twice counts once)."""
        self.warnings: list[str] = []

    def _bot(self, name: str) -> PlayerStats:
        if name not in self.stats:
            self.stats[name] = PlayerStats(name)
            self.solo[name] = {contract: [0, 0] for contract in SOLO_CONTRACTS}
            self.table_lost[name] = 0
            self.think[name] = []
            self.identities[name] = []
            self.faults[name] = []
        return self.stats[name]

    def _identity(self, name: str, identity: BotIdentity) -> None:
        """Note one way ``name`` was seen. What a deal says (a version and a command) adds
        nothing to a header's entry for the same program, but its version if it had none."""
        self._bot(name)
        known = self.identities[name]
        from_deal = not identity.author and not identity.id_name
        for n, old in enumerate(known):
            same = from_deal and old.command == identity.command
            if same and old.version == identity.version:
                return
            if same and not old.version:
                known[n] = dataclasses.replace(old, version=identity.version)
                return
        if identity not in known:
            known.append(identity)

    def header(self, record: MatchHeader, log: int, label: str) -> None:
        self.header_names.setdefault(record.match_id, record.names)
        part = record.tournament
        self.planned.setdefault(record.match_id, record.total_deals)
        if part is not None and part.round is not None:
            self.rounds.setdefault(record.match_id, (part.id, part.round))
            self.max_faults.setdefault(record.match_id, record.settings.max_faults)
        self.table_of.setdefault(record.match_id, len(self.tables))
        if self.table_of[record.match_id] == len(self.tables):
            self.tables.append(
                TableInfo(log, record.match_id, label, record.names, record.total_deals)
            )
        for player in record.players:
            self._identity(
                player.name,
                BotIdentity(player.id_name, player.author, player.version, player.command),
            )

    def deal(self, record: DealRecord, log: int, sha256: str) -> None:
        key = (record.match_id, record.deal)
        if key in self.seen:
            return  # read twice (the rating units say so, in their warnings)
        self.seen.add(key)
        self.shas.append(sha256)
        if record.match_id not in self.table_of:
            self.table_of[record.match_id] = len(self.tables)
            self.tables.append(TableInfo(log, record.match_id, record.match_id))
        index = len(self.deals)
        self.deals.append(record)
        self.deals_of[record.match_id] = self.deals_of.get(record.match_id, 0) + 1
        self.deal_tables.append(self.table_of[record.match_id])
        result = record.result
        names = record.names
        seed_deal = seed_deal_key(record)
        scores = record.seat_scores  # at a table of four the table's, not the engine's
        for seat, name in enumerate(names):
            self._bot(name).add(seat, result, scores[seat], seed_deal)
            identity = record.players[seat]
            self._identity(name, BotIdentity("", "", identity.version, identity.command))
        self._sitter(record, seed_deal)
        points = self.table_points.setdefault(record.match_id, {})
        for name, score in paid(record):
            points[name] = points.get(name, 0) + score
        if result.forfeit is None and result.contract is not None:
            if result.soloist is not None and result.contract in SOLO_CONTRACTS:
                counts = self.solo[names[result.soloist]][result.contract]
                counts[0] += 1
                counts[1] += bool(result.won)
            for seat in result.losers:
                self.table_lost[names[seat]] += 1
        for move in record.moves:
            # A move the arena played for a faulted bot answered no request: no think time.
            think = move.think_ms
            if think is not None and move.request_id is not None and 0 <= think < math.inf:
                self.think[names[move.seat]].append(think)
        at_table = self.fault_counts.setdefault(record.match_id, {})
        for fault in record.faults:
            at_table[names[fault.seat]] = at_table.get(names[fault.seat], 0) + 1
            self.stats[names[fault.seat]].faults += 1
            self.faults[names[fault.seat]].append((index, fault))

    def _sitter(self, record: DealRecord, seed_deal: Hashable) -> None:
        """At a table of four, count the deal for the one who sat it out: he paid or
        collected as an opponent of the soloist, and played no card. A forged deal whose sitter
        also plays in it (``verify`` finds that only against the match's header) has its
        sitting out left out, with a warning, rather than counted twice for one bot."""
        table = record.table
        if table is None:
            return
        sitter = table.sitter
        if sitter.name in record.names:
            self.warnings.append(
                f"match {record.match_id}, deal {record.deal}: {sitter.name} both plays and "
                "sits out (a forged deal?): the sitting out is not counted"
            )
            return
        self._bot(sitter.name).add(None, record.result, table.scores[table.dealer], seed_deal)
        self._identity(sitter.name, BotIdentity("", "", sitter.version, sitter.command))
        names = table_names(record)
        if names is not None:
            self.deal_names.setdefault(record.match_id, names)

    def settle(self, record: SettleRecord) -> None:
        """Keep a table of four's settle record (counted once all logs are read, when its
        players are known: from its match's header, or else from its deals)."""
        self.settles.setdefault(record.match_id, record)

    def big_points(self) -> dict[str, Fraction]:
        """Each bot's big points over the ``lzf`` rounds' tables in the report: for its place
        at each table by the table's points (:func:`~zole_arena.stats.bigpoints.big_points`),
        as ``standings`` gives them. Call after :meth:`settlements`."""
        won: dict[str, Fraction] = {}
        rounds: dict[tuple[str, int], list[str]] = {}
        for match_id, key in self.rounds.items():
            rounds.setdefault(key, []).append(match_id)
        for (tournament, _), tables in rounds.items():
            # As standings: a round counts once it has ended (every table of it finished).
            whole = len(tables) == self.lzf_tables.get(tournament, len(tables))
            if not whole or not all(self._finished(match_id) for match_id in tables):
                continue
            for match_id in tables:
                self._big_points_of(match_id, won)
        return won

    def _finished(self, match_id: str) -> bool:
        """Whether a round's table ended: all its deals, or stopped by a disqualification."""
        return self.deals_of.get(match_id, 0) >= self.planned.get(match_id, 0) or bool(
            self._disqualified(match_id)
        )

    def _disqualified(self, match_id: str) -> set[int]:
        """The table seats disqualified at a table that stopped early (none at one that
        played all its deals: its faults cost what its deals say)."""
        names = self.header_names.get(match_id, ())
        counts = self.fault_counts.get(match_id, {})
        return seats_out(
            {seat: counts.get(name, 0) for seat, name in enumerate(names)},
            self.max_faults.get(match_id, 0),
            self.deals_of.get(match_id, 0) < self.planned.get(match_id, 0),
        )

    def _big_points_of(self, match_id: str, won: dict[str, Fraction]) -> None:
        """Add one finished table's big points to ``won``."""
        names = self.header_names.get(match_id, ())
        points = self.table_points.get(match_id, {})
        if len(names) in PLACE_POINTS and len(set(names)) == len(names):
            out = self._disqualified(match_id)
            totals = places_points([points.get(n, 0) for n in names], out)
            for name, share in zip(names, big_points(totals), strict=True):
                won[name] = won.get(name, Fraction(0)) + share

    def settlements(self) -> list[Settlement]:
        """The settle records that can be counted, their scores added to each player's points
        (as ``standings`` counts them: points, not deals). One whose players the report
        cannot name — no header of its match and none of its deals in the report — is left
        out, with a warning."""
        counted = []
        for match_id, record in self.settles.items():
            names = self.header_names.get(match_id)
            if names is None or len(names) != len(record.scores):
                names = self.deal_names.get(match_id)
            table = self.table_of.get(match_id)
            if names is None or table is None or len(names) != len(record.scores):
                self.warnings.append(
                    f"match {match_id}: its settle record (pules paid at the end) names "
                    "players by table seat, and neither the match's header nor a deal of it "
                    "is in the report: not counted"
                )
                continue
            points = self.table_points.setdefault(match_id, {})
            for name, score in zip(names, record.scores, strict=True):
                self._bot(name).points += score
                points[name] = points.get(name, 0) + score
            counted.append(Settlement(table, names, record.pules, record.payment, record.scores))
        return counted


def _label(record: MatchHeader, log_name: str, tests: int) -> str:
    """How the deal list names a match: its table, its place in a test, or its log's name."""
    if record.tournament is not None:
        return f"table {record.tournament.table}"
    if record.sprt is not None:
        return f"test match {tests}"
    return log_name


def _count(pairs: dict[tuple[str, str], PairResult], first: str, second: str, score: float) -> None:
    old = pairs.get((first, second), PairResult(0.0, 0))
    pairs[first, second] = PairResult(old.score + score, old.games + 1)


class _LogReading:
    """One log as ``verify`` checks it, record by record, into the collector: the deals it
    finds wrong are left out of every figure, what it finds becomes the log's problems."""

    def __init__(self, collector: _Collector, number: int, path: str | os.PathLike[str]) -> None:
        self.collector, self.number, self.name = collector, number, str(path)
        self.file_name = Path(path).name
        self.findings: list[Finding] = []
        self.left_out: set[int] = set()
        self.settles_left_out: set[int] = set()
        """Lines of settle records that ``verify`` finds wrong: not counted either."""
        self.rules = ""
        self.tests = 0
        self.test: SprtTally | None = None
        """The test's tally, when the log's first record is a test's match header: fed every
        record, as ``standings`` counts the test."""
        self.first = True

    def entry(self, entry: LogEntry, wrong: bool) -> None:
        record = entry.record
        if self.test is not None and record is not None:
            self.test.add(record)
        elif self.first and isinstance(record, MatchHeader) and record.sprt is not None:
            self.test = SprtTally.of_header(record)
        if wrong:
            self.left_out.add(entry.line)
            return
        collector = self.collector
        assert record is not None
        collector.records.append(record)
        if isinstance(record, MatchHeader):
            if record.sprt is not None:
                self.tests += 1
            self.rules = self.rules or _rules_name(record)
            collector.header(record, self.number, _label(record, self.file_name, self.tests))
        elif isinstance(record, TournamentHeader):
            self.rules = self.rules or _rules_name(record)
            if record.tournament_format == "lzf":
                collector.lzf_tables.setdefault(
                    record.tournament_id, len(table_sizes(len(record.entrants)))
                )
        elif isinstance(record, DealRecord):
            collector.deal(record, self.number, entry.sha256)
        elif isinstance(record, SettleRecord):
            if self._found_wrong(entry.line):
                self.settles_left_out.add(entry.line)
            else:
                collector.settle(record)
        self.first = False

    def _found_wrong(self, line: int) -> bool:
        """Whether ``verify`` found the record of ``line`` wrong: a settle record's problems
        are the last findings when it is handed on (it does not count them as a bad deal)."""
        for finding in reversed(self.findings):
            if finding.line != line:
                return False
            if finding.fails and finding.kind not in (Kind.CHAIN, Kind.NOTE):
                return True
        return False

    def problems(self) -> list[str]:
        """What verify found, a line each (a note is not a problem)."""
        problems = []
        for finding in self.findings:
            if finding.kind is Kind.NOTE:
                continue
            text = finding.describe(self.name)
            deal = finding.kind is Kind.DEAL and finding.line in self.left_out
            if deal or (finding.kind is not Kind.CHAIN and finding.line in self.settles_left_out):
                text += " (left out of the report's figures)"
            problems.append(text)
        return problems


def _read(collector: _Collector, number: int, path: str | os.PathLike[str]) -> LogSummary:
    """Read one log into the collector, as ``verify`` checks it (one pass over the file)."""
    check_log_path(path)
    name = str(path)
    kind = log_type(path)
    if kind not in ("match", "tournament"):
        raise RecordError(f"{name}: not a zole-arena log of a match or a tournament")
    reading = _LogReading(collector, number, path)
    before = len(collector.deals)
    report = verify_log(name, reading.findings.append, on_entry=reading.entry)
    problems = reading.problems()
    analysis_file, analyses, analysis_problems = read_analyses(
        Path(path), collector.deals[before:], collector.shas[before:]
    )
    collector.analyses += analyses
    problems += analysis_problems
    analysed = sum(a is not None for a in analyses)
    breaks = [finding.line for finding in reading.findings if finding.kind is Kind.CHAIN]
    test = None
    if reading.test is not None:
        kind = "sprt"
        test = reading.test.result(log=str(Path(path)))
    return LogSummary(
        name, kind, len(collector.deals) - before, report.digest, tuple(problems), reading.rules,
        report.format_version != 1, breaks[0] if breaks else None, test, len(reading.left_out),
        analysis_file, analysed,
    )  # fmt: skip


def collect(
    paths: Sequence[str | os.PathLike[str]],
    *,
    bootstrap: int = DEFAULT_BOOTSTRAP,
    history_bootstrap: int = 100,
    points: int = DEFAULT_POINTS,
    seed: int = 0,
) -> ReportData:
    """Read the logs and gather the report's figures.

    :param bootstrap: resamples for the rating list's intervals; ``history_bootstrap``: for
        the bands of each checkpoint of the ratings-over-time chart (``points`` of them; 0:
        no chart, the history is the rating list alone).

    Each log's analysis file, when there is one beside it, is read too (see the module's
    text); one that cannot be read is a problem of its log, never an error.

    :raises RecordError: a file is missing or is not a zole-arena log.
    """
    collector = _Collector()
    logs = [_read(collector, number, path) for number, path in enumerate(paths)]
    settlements = collector.settlements()
    big = collector.big_points()
    data = units_from_records(collector.records)
    collector.records.clear()
    warnings = [problem for log in logs for problem in log.problems] + collector.warnings
    warnings += data.warnings
    shares = [(log.path, log.deals) for log in logs]
    fairplay, fairplay_problems = read_fairplay(shares, collector.deals, collector.shas)
    warnings += fairplay_problems
    ratings: RatingList | None = None
    history: list[RatingList] = []
    if data.units:
        try:
            ratings = rate(data.units, bootstrap=bootstrap, seed=seed)
            if points:
                history = ratings_over_time(
                    data.units, points=points, bootstrap=history_bootstrap, seed=seed
                )
            # The last checkpoint holds every unit: the rating list itself, so that the
            # chart's legend and the standings give the same intervals.
            history[-1:] = [ratings]
        except RatingError as exc:
            warnings.append(f"no ratings: {exc}")
    pairs: dict[tuple[str, str], PairResult] = {}
    for unit in data.units:
        for game in unit.games():
            _count(pairs, game.first, game.second, game.score)
            _count(pairs, game.second, game.first, 1.0 - game.score)
    bots = [
        BotFigures(
            name,
            collector.stats[name],
            {contract: (played, won) for contract, (played, won) in collector.solo[name].items()},
            collector.table_lost[name],
            ThinkTime.of(collector.think[name]),
            collector.identities[name],
            collector.faults[name],
            big.get(name),
        )
        for name in collector.stats
    ]
    rated = {rating.name: place for place, rating in enumerate(ratings.ratings)} if ratings else {}
    bots.sort(key=lambda bot: (rated.get(bot.name, math.inf), -bot.stats.mean, bot.name))
    analysed = [analysis for analysis in collector.analyses if analysis is not None]
    return ReportData(
        logs, collector.deals, collector.deal_tables, collector.tables, bots, pairs,
        ratings, history, warnings, collector.analyses,
        {bot.name: bot for bot in summarise(analysed)}, settlements, fairplay,
    )  # fmt: skip
