"""Playing a head-to-head test: duplicate blocks between NEW and OLD until the SPRT decides.

:mod:`zole_arena.stats.sprt` holds the test's mathematics and says how a block is scored;
this module runs the matches, writes their log and feeds the test block by block
(``docs/sprt.md`` has the user's view).
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from zole_arena.arena.match import Match, stderr_path
from zole_arena.arena.settings import MatchSettings
from zole_arena.arena.stop import Stop, StopReason
from zole_arena.players.session import BotConfig, BotSession, PlayerSession
from zole_arena.records.model import DealRecord, MatchHeader, MatchRecord, Record, SprtInfo
from zole_arena.records.reader import read_log
from zole_arena.records.writer import LogWriter
from zole_arena.stats.ratings import MIN_UNITS, Unit
from zole_arena.stats.sprt import (
    Decision,
    Sprt,
    SprtError,
    SprtSettings,
    block_score,
)

__all__ = ["HeadToHead", "SprtResult", "SprtTally", "result_from_log"]


# -- playing a test ----------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class SprtResult:
    """Where a test stands: after a block, or at its end."""

    new: str
    old: str
    third: str | None
    settings: SprtSettings
    blocks: int
    """Whole blocks played: the test's samples."""
    deals_per_block: int
    deals_played: int
    """Every deal played (an interrupted block's deals are logged but not tested)."""
    games: int
    """Pairwise games between NEW and OLD in the blocks."""
    llr: float
    decision: Decision | None
    score: float
    """NEW's mean block score."""
    elo: float
    elo_low: float
    elo_high: float
    los: float
    """Likelihood of superiority of NEW, in percent."""
    stopped: Stop | None = None
    """Why an undecided test ended: most blocks played, interrupted, a bot disqualified."""
    seed: int = 0
    log: str | None = None
    faults: tuple[str, ...] = ()

    @property
    def deals(self) -> int:
        """The deals of the whole blocks: the deals the test used."""
        return self.blocks * self.deals_per_block

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (``null`` for an infinite Elo bound, and for the interval and LOS
        before there are blocks enough to estimate them)."""
        estimable = self.blocks >= MIN_UNITS

        def finite(value: float) -> float | None:
            return round(value, 2) if math.isfinite(value) else None

        return {
            "new": self.new,
            "old": self.old,
            "third": self.third,
            "decision": self.decision,
            "stopped": None if self.stopped is None else str(self.stopped),
            "llr": round(self.llr, 4),
            "lower": round(self.settings.lower, 4),
            "upper": round(self.settings.upper, 4),
            "elo0": self.settings.elo0,
            "elo1": self.settings.elo1,
            "alpha": self.settings.alpha,
            "beta": self.settings.beta,
            "blocks": self.blocks,
            "deals": self.deals,
            "deals_per_block": self.deals_per_block,
            "deals_played": self.deals_played,
            "games": self.games,
            "score": round(self.score, 4),
            "elo": finite(self.elo),
            "elo_low": finite(self.elo_low) if estimable else None,
            "elo_high": finite(self.elo_high) if estimable else None,
            "los": round(self.los, 2) if estimable else None,
            "seed": self.seed,
            "log": self.log,
            "faults": list(self.faults),
        }


class _SharedLog:
    """The log of a test's matches, opened with the first record (once the bots have started,
    as a match opens its own) and closed at the end of the test. Every record written is
    counted by the test's tally as well, so that the live test counts what its log says."""

    def __init__(self, path: Path | None, tally: SprtTally) -> None:
        self.path = path
        self.tally = tally
        self.writer: LogWriter | None = None

    def write(self, record: MatchRecord) -> None:
        """Log one record (nowhere, without a path) and count it."""
        if self.path is not None:
            if self.writer is None:
                self.writer = LogWriter(self.path)
            self.writer.write(record)
        self.tally.add(record)

    def close(self) -> None:
        """Close the log (at the end of the test)."""
        if self.writer is not None:
            self.writer.close()


class SprtTally:
    """A head-to-head test counted from its matches' deal records: the one count of a test,
    which the running test keeps as it writes its records and ``standings`` and ``report``
    keep from its log, so that the two cannot differ.

    It is fed every record of the log (:meth:`add`): the test's match headers name its
    matches (one with THIRD, two with copies), and a block is tested once every match has all
    six of its deals, blocks in order; a test that has decided counts no further block (its
    log may hold the deals of a block begun).

    :param info: the test's part of its match headers; ``max_blocks``: the most blocks the
        test plays (its headers' ``deals``).
    """

    def __init__(self, info: SprtInfo, max_blocks: int, seed: int = 0) -> None:
        self.info = info
        self.match_ids: list[str] = []
        """The test's matches, as their headers come."""
        self.matches = 1 if info.third is not None else 2
        """How many matches the test plays."""
        self.max_blocks = max_blocks
        self.seed = seed
        self.sprt = Sprt(
            SprtSettings(elo0=info.elo0, elo1=info.elo1, alpha=info.alpha, beta=info.beta)
        )
        copies = info.third is None
        self.new_side = {info.new} | ({f"{info.new}#2"} if copies else set())
        self.old_side = {info.old} | ({f"{info.old}#2"} if copies else set())
        self.games = 0
        self.deals_played = 0
        self.faults: list[str] = []
        self._pending: dict[tuple[str, int], dict[int, DealRecord]] = {}
        """Each match's deals of the blocks not yet tested, by block and deal number."""

    @classmethod
    def of_header(cls, header: MatchHeader) -> SprtTally:
        """The tally of the test whose (first) match header this is.

        :raises SprtError: the header is not a test's.
        """
        if header.sprt is None:
            raise SprtError("not a head-to-head test's match header")
        tally = cls(header.sprt, header.deals, header.seed)
        tally.add(header)
        return tally

    @property
    def deals_per_block(self) -> int:
        """Six deals of each of the test's matches."""
        return 6 * self.matches

    def add(self, record: Record) -> None:
        """Count one record: a test's match header adds its match, a deal of the test's
        matches is counted (and tests every block it completes); any other is passed by."""
        if isinstance(record, MatchHeader):
            known = record.match_id in self.match_ids
            if record.sprt is not None and not known and len(self.match_ids) < self.matches:
                self.match_ids.append(record.match_id)
            return
        if not isinstance(record, DealRecord) or record.match_id not in self.match_ids:
            return
        self.deals_played += 1
        self.faults += [fault.describe() for fault in record.faults]
        if self.sprt.decision is None and record.block > self.sprt.blocks:
            self._pending.setdefault((record.match_id, record.block), {})[record.deal] = record
            self._test_blocks()

    def _test_blocks(self) -> None:
        while self.sprt.decision is None:
            if len(self.match_ids) < self.matches:
                return
            block = self.sprt.blocks + 1
            found = [self._pending.get((match_id, block), {}) for match_id in self.match_ids]
            if any(len(deals) < 6 for deals in found):
                return
            units = []
            for match_id, deals in zip(self.match_ids, found, strict=True):
                ordered = [deals[number] for number in sorted(deals)]
                scores = tuple(dict(zip(r.names, r.result.scores, strict=True)) for r in ordered)
                units.append(_unit(match_id, block, ordered[0].names, scores))
                del self._pending[match_id, block]
            score, games = block_score(units, self.new_side, self.old_side)
            self.games += games
            self.sprt.add(score)

    def result(self, stopped: Stop | None = None, log: str | None = None) -> SprtResult:
        """Where the test stands. ``stopped``: why it ended undecided, when the caller knows;
        without it, a test at its most blocks says so."""
        test = self.sprt
        if stopped is None and test.decision is None and test.blocks >= self.max_blocks:
            stopped = Stop(StopReason.MAX_BLOCKS)
        elo, low, high, los = test.estimate()
        return SprtResult(
            new=self.info.new,
            old=self.info.old,
            third=self.info.third,
            settings=test.settings,
            blocks=test.blocks,
            deals_per_block=self.deals_per_block,
            deals_played=self.deals_played,
            games=self.games,
            llr=test.llr,
            decision=test.decision,
            score=test.mean,
            elo=elo,
            elo_low=low,
            elo_high=high,
            los=los,
            stopped=stopped,
            seed=self.seed,
            log=log,
            faults=tuple(self.faults),
        )


class HeadToHead:
    """Plays duplicate blocks between NEW and OLD (with THIRD, or with copies) until the SPRT
    decides, ``max_blocks`` (``settings.deals``) are played, a bot is disqualified or Ctrl-C.

    :param new: the bot under test; ``old``: the one it is compared with; ``third``: a third
        bot for the table, or None for the two matches NEW-OLD-OLD and OLD-NEW-NEW. Bots
        without a ``name`` are called ``new``, ``old`` and ``third``; copies ``NAME#2``.
    :param settings: the matches' settings; ``deals`` is the most blocks to play, and
        ``duplicate`` is implied.
    :param log_path: the log for the matches' records (None: none is written).
    :raises SprtError: two bots with the same name.
    """

    def __init__(
        self,
        new: BotConfig,
        old: BotConfig,
        settings: MatchSettings,
        sprt: SprtSettings,
        *,
        third: BotConfig | None = None,
        log_path: str | Path | None = None,
        start_session: Callable[[BotConfig], PlayerSession] = BotSession,
    ) -> None:
        if settings.deals < 1:
            raise SprtError("a test needs at least one block")
        self.settings = dataclasses.replace(settings, duplicate=True)
        self.log_path = Path(log_path) if log_path is not None else None
        self.new_name = new.name or "new"
        self.old_name = old.name or "old"
        self.third_name = None if third is None else third.name or "third"
        new_copy, old_copy = f"{self.new_name}#2", f"{self.old_name}#2"
        if third is not None:
            names = [self.new_name, self.old_name, third.name or "third"]
        else:
            names = [self.new_name, self.old_name, new_copy, old_copy]
        if len(set(names)) != len(names):
            raise SprtError(
                f"the bots need different names, not {', '.join(names)}: name them NAME=COMMAND"
            )
        new_bot, old_bot = self._named(new, self.new_name), self._named(old, self.old_name)
        if third is not None:
            tables = [[new_bot, old_bot, self._named(third, names[2])]]
        else:
            # NEW against two OLDs, and OLD against two NEWs, on the same seed.
            tables = [
                [new_bot, old_bot, self._named(old, old_copy)],
                [old_bot, new_bot, self._named(new, new_copy)],
            ]
        test = SprtInfo(
            new=self.new_name,
            old=self.old_name,
            third=self.third_name,
            elo0=sprt.elo0,
            elo1=sprt.elo1,
            alpha=sprt.alpha,
            beta=sprt.beta,
        )
        self.tally = SprtTally(test, self.settings.deals, self.settings.seed)
        self._log = _SharedLog(self.log_path, self.tally)
        self.matches = [
            Match(table, self.settings, self._log, start_session=start_session, part_of=test)
            for table in tables
        ]
        self.sprt = self.tally.sprt
        """The test's statistic (the tally's)."""
        self.stopped: Stop | None = None
        """Why the test ended undecided (None: it decided, or has not ended)."""

    def _named(self, config: BotConfig, name: str) -> BotConfig:
        errors = config.stderr_path
        if self.log_path is not None:
            errors = stderr_path(self.log_path, name)
        return dataclasses.replace(config, name=name, stderr_path=errors)

    @property
    def deals_played(self) -> int:
        """Deals played so far, in all the test's matches."""
        return self.tally.deals_played

    def result(self) -> SprtResult:
        """Where the test stands."""
        log = None if self.log_path is None else str(self.log_path)
        return self.tally.result(self.stopped, log)

    def run(
        self,
        on_block: Callable[[SprtResult], None] | None = None,
        on_deal: Callable[[int], None] | None = None,
    ) -> SprtResult:
        """Play blocks until the test decides or stops; the bots are stopped and the log
        closed at the end.

        :param on_block: called with the test's state after each block.
        :param on_deal: called with the number of deals played after each deal.
        :raises BotStartupError: a bot cannot be started at the beginning.
        :raises KeyboardInterrupt: Ctrl-C, after the bots are stopped and the log is closed
            (:meth:`result` then says where the test stands, ``stopped`` interrupted).
        """
        try:
            while self.sprt.decision is None:
                if self.sprt.blocks >= self.settings.deals:
                    self.stopped = Stop(StopReason.MAX_BLOCKS)
                    break
                for match in self.matches:
                    if not self._play_block(match, on_deal):
                        break
                if self.stopped is not None:
                    break
                if on_block is not None:
                    on_block(self.result())
        except KeyboardInterrupt:
            self.stopped = Stop(StopReason.INTERRUPTED)
            raise
        finally:
            for match in self.matches:
                match.close()
            self._log.close()
        return self.result()

    def _play_block(self, match: Match, on_deal: Callable[[int], None] | None) -> bool:
        """Play a match's next block (the tally counts its deals as they are logged); False
        when the match stopped in it, which stops the test."""
        for _ in itertools.islice(match, 6):
            if on_deal is not None:
                on_deal(self.deals_played)
        if match.stopped is not None:
            self.stopped = match.stopped
            return False
        return True


def _unit(
    match_id: str, block: int, names: Sequence[str], scores: tuple[dict[str, int], ...]
) -> Unit:
    """A block of one match as a rating unit: each deal's scores by name, and their sums."""
    totals = {name: sum(deal[name] for deal in scores) for name in names}
    return Unit(match_id, block, totals, dict.fromkeys(names, len(scores)), scores)


def result_from_log(log_path: str | Path) -> SprtResult:
    """Where a head-to-head test stands, computed again from its log alone: its matches' whole
    blocks scored and tested in order, as the run did (a test that decided stops there; one
    at its most blocks says so; one cut off short is undecided, with ``stopped`` None).

    :raises SprtError: the log holds no head-to-head test's matches.
    """
    records, _ = read_log(log_path)
    headers = [r for r in records if isinstance(r, MatchHeader) and r.sprt is not None]
    if not headers:
        raise SprtError(f"{log_path}: not the log of a head-to-head test ('zole-arena sprt')")
    tally = SprtTally.of_header(headers[0])
    for record in records:
        tally.add(record)
    # A log cut off before a decision is undecided, and why it ended is not in it.
    return tally.result(log=str(log_path))
