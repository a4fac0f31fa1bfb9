"""A match's results read from its log alone: :func:`read_match`.

Reading results runs no bot and builds no match: the header and the deal records are checked to
be one match's, its deals in the order it plays them, and counted by the match's own tally
(:class:`~zole_arena.arena.summary.MatchTally`), which the match keeps as it plays; the pules
a finished table settles are computed again from its deals' results (:func:`settle_of`), as
the table's own sheet keeps them, never taken from the log's word. ``standings`` reads a
match's log so; ``match --resume`` (:mod:`~zole_arena.arena.resume`) checks the log the same
way before it brings a match up to it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path

from zole_arena.arena.settings import MatchError, MatchSettings, in_order, settles_at
from zole_arena.arena.summary import MatchTally, Summary
from zole_arena.game.rules import Rules
from zole_arena.game.scoresheet import ScoreSheet
from zole_arena.game.table import TableSheet, settle_sheet
from zole_arena.records.checks import resume_refusal
from zole_arena.records.model import DealRecord, InvalidHeader, MatchHeader, Record, SettleRecord
from zole_arena.records.reader import LogProblem, read_log

__all__ = ["MatchResults", "match_header", "read_match", "settle_of"]


def match_header(
    log_path: str | Path,
    records: Sequence[Record],
    problems: Sequence[LogProblem],
    doing: str = "resume",
) -> MatchHeader:
    """The header of a log that holds one match, or why the log holds none, in one line.

    :raises MatchError: no records, a tournament's log, an invalid header, or more than one
        match in the file.
    """
    if not records:
        why = problems[0].message if problems else "no records"
        raise MatchError(f"{log_path}: nothing to {doing} from ({why})")
    header = records[0]
    if header.type == "tournament":
        raise MatchError(
            f"{log_path}: is a tournament log: continue it with "
            f"'zole-arena tournament --resume {log_path}'"
        )
    if isinstance(header, InvalidHeader):
        raise MatchError(resume_refusal(log_path, header, doing))
    if not isinstance(header, MatchHeader):
        raise MatchError(f"{log_path}: the first record is not a match header")
    if sum(1 for r in records if r.type == "match") > 1:
        raise MatchError(f"{log_path}: the file holds more than one match; resume needs one")
    return header


def settle_of(
    match_id: str, rules: Rules, seed: int, size: int, deals: Sequence[DealRecord]
) -> SettleRecord | None:
    """The ``settle`` record a table's match writes after its last deal (``deals``, all of
    them), from the deals' results as its sheet keeps them: None when no personal pule stood
    or the rules pay none for it."""
    sheet: TableSheet | ScoreSheet = (
        TableSheet(rules, seed, size) if size == 4 else ScoreSheet(rules, seed)
    )
    for record in deals:
        sheet.record(record.result)
    pules, payment = sheet.pules, rules.end_pule_payment
    if not pules.personal or not payment or not deals:
        return None
    scores = settle_sheet(sheet)
    return SettleRecord(match_id, deals[-1].deal, pules, payment, scores, tuple(sheet.totals))


@dataclasses.dataclass
class MatchResults:
    """What a match's log says of its results."""

    header: MatchHeader
    settings: MatchSettings
    tally: MatchTally
    deals: int
    """Deals in the log."""
    settled: SettleRecord | None
    """The pules its table settled at its end (None: not finished, or none stood)."""
    problems: list[LogProblem]
    """Lines of the log that could not be read."""

    def summary(self, log: str | None = None) -> Summary:
        """The match's summary as the match printed it at its end (no digest, no stop)."""
        return Summary(
            players=[dataclasses.replace(stats) for stats in self.tally.stats],
            deals=self.deals,
            planned=self.settings.total_deals,
            log=log,
            fault_lines=list(self.tally.fault_lines),
        )

    def disqualified(self) -> list[str]:
        """The players past the match's fault limit, in the order of its players."""
        limit = self.settings.policy.max_faults
        return [stats.name for stats in self.tally.stats if stats.faults > limit]


def read_match(log_path: str | Path) -> MatchResults:
    """A match's results from its log (finished or cut off: the deals it keeps).

    :raises RecordError: the file is not a zole-arena log.
    :raises MatchError: the log holds no match, or its deals are not its header's match's.
    """
    records, problems = read_log(log_path)
    header = match_header(log_path, records, problems, "read")
    settings = MatchSettings.from_header(header)
    deals = [r for r in records[1:] if isinstance(r, DealRecord)]
    tally = MatchTally(header.names)
    for record, _ in in_order(settings, len(header.players), deals):
        tally.add_record(record)
    settled = None
    settles = settles_at(len(header.players), header.tournament, header.duplicate)
    if settles and len(deals) == settings.total_deals:
        settled = settle_of(
            header.match_id, settings.rules, settings.seed, len(header.players), deals
        )
        if settled is not None:
            tally.add_settle(settled)
    return MatchResults(header, settings, tally, len(deals), settled, problems)
