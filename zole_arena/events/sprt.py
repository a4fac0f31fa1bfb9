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
from zole_arena.records.model import DealRecord, MatchHeader, MatchRecord, SprtInfo
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

__all__ = ["HeadToHead", "SprtResult", "result_from_log"]


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
    as a match opens its own) and closed at the end of the test."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.writer: LogWriter | None = None

    def write(self, record: MatchRecord) -> None:
        """Log one record (nowhere, without a path)."""
        if self.path is not None:
            if self.writer is None:
                self.writer = LogWriter(self.path)
            self.writer.write(record)

    def close(self) -> None:
        """Close the log (at the end of the test)."""
        if self.writer is not None:
            self.writer.close()


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
        self.sprt = Sprt(sprt)
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
        self.new_side = {self.new_name}
        self.old_side = {self.old_name}
        new_bot, old_bot = self._named(new, self.new_name), self._named(old, self.old_name)
        if third is not None:
            tables = [[new_bot, old_bot, self._named(third, names[2])]]
        else:
            # NEW against two OLDs, and OLD against two NEWs, on the same seed.
            tables = [
                [new_bot, old_bot, self._named(old, old_copy)],
                [old_bot, new_bot, self._named(new, new_copy)],
            ]
            self.new_side.add(new_copy)
            self.old_side.add(old_copy)
        self._log = _SharedLog(self.log_path)
        test = SprtInfo(
            new=self.new_name,
            old=self.old_name,
            third=self.third_name,
            elo0=sprt.elo0,
            elo1=sprt.elo1,
            alpha=sprt.alpha,
            beta=sprt.beta,
        )
        self.matches = [
            Match(table, self.settings, self._log, start_session=start_session, part_of=test)
            for table in tables
        ]
        self.deals_per_block = 6 * len(self.matches)
        self.games = 0
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
        return sum(match.done for match in self.matches)

    def result(self) -> SprtResult:
        """Where the test stands."""
        elo, low, high, los = self.sprt.estimate()
        faults = tuple(line for match in self.matches for line in match.fault_lines)
        return SprtResult(
            new=self.new_name,
            old=self.old_name,
            third=self.third_name,
            settings=self.sprt.settings,
            blocks=self.sprt.blocks,
            deals_per_block=self.deals_per_block,
            deals_played=self.deals_played,
            games=self.games,
            llr=self.sprt.llr,
            decision=self.sprt.decision,
            score=self.sprt.mean,
            elo=elo,
            elo_low=low,
            elo_high=high,
            los=los,
            stopped=self.stopped,
            seed=self.settings.seed,
            log=None if self.log_path is None else str(self.log_path),
            faults=faults,
        )

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
                units = []
                for match in self.matches:
                    unit = self._play_block(match, on_deal)
                    if unit is None:
                        break
                    units.append(unit)
                if self.stopped is not None:
                    break
                score, games = block_score(units, self.new_side, self.old_side)
                self.games += games
                self.sprt.add(score)
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

    def _play_block(self, match: Match, on_deal: Callable[[int], None] | None) -> Unit | None:
        """Play a match's next block and return it as a rating unit (each deal's scores by
        name); None when the match stopped in it, which stops the test."""
        reports = []
        for report in itertools.islice(match, 6):
            reports.append(report)
            if on_deal is not None:
                on_deal(self.deals_played)
        if match.stopped is not None:
            self.stopped = match.stopped
            return None
        names = match.names
        scores = tuple({name: r.scores[p] for p, name in enumerate(names)} for r in reports)
        return _unit(match.match_id, reports[0].block, names, scores)


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
    info = headers[0].sprt
    assert info is not None
    test = Sprt(SprtSettings(elo0=info.elo0, elo1=info.elo1, alpha=info.alpha, beta=info.beta))
    new_side = {info.new} | ({f"{info.new}#2"} if info.third is None else set())
    old_side = {info.old} | ({f"{info.old}#2"} if info.third is None else set())
    ids = [header.match_id for header in headers]
    deals: dict[tuple[str, int], list[DealRecord]] = {}
    faults: list[str] = []
    played = 0
    for record in records:
        if isinstance(record, DealRecord) and record.match_id in ids:
            deals.setdefault((record.match_id, record.block), []).append(record)
            faults += [fault.describe() for fault in record.faults]
            played += 1
    games = 0
    block = 0
    while test.decision is None:
        block += 1
        blocks = [sorted(deals.get((i, block), []), key=lambda r: r.deal) for i in ids]
        if any(len(found) < 6 for found in blocks):
            break
        units = []
        for match_id, found in zip(ids, blocks, strict=True):
            scores = tuple(dict(zip(r.names, r.result.scores, strict=True)) for r in found)
            units.append(_unit(match_id, block, found[0].names, scores))
        score, counted = block_score(units, new_side, old_side)
        games += counted
        test.add(score)
    stopped = None  # a log cut off before a decision: undecided, and why it ended is not in it
    if test.decision is None and test.blocks >= headers[0].deals:
        stopped = Stop(StopReason.MAX_BLOCKS)
    elo, low, high, los = test.estimate()
    return SprtResult(
        new=info.new,
        old=info.old,
        third=info.third,
        settings=test.settings,
        blocks=test.blocks,
        deals_per_block=6 * len(headers),
        deals_played=played,
        games=games,
        llr=test.llr,
        decision=test.decision,
        score=test.mean,
        elo=elo,
        elo_low=low,
        elo_high=high,
        los=los,
        stopped=stopped,
        seed=headers[0].seed,
        log=str(log_path),
        faults=tuple(faults),
    )
