"""Match bookkeeping: a sequence of deals on one score sheet (zole-rules.md §2, §4, §5).

A :class:`ScoreSheet` is what Latvian players call the *pieraksts*: it deals each new deal from
the match seed with the dealer rotating to the left, adds each finished deal's scores to the
cumulative totals, carries the pules from deal to deal, and groups deals into games of
``rules.deals_per_game`` (3: every seat deals once).

>>> from zole_arena.game.rules import load_rules
>>> sheet = ScoreSheet(load_rules("lzf"), seed=7)
>>> deal = sheet.next_deal()
>>> deal.deal_no, deal.dealer, deal.forehand
(1, 2, 0)
"""

from __future__ import annotations

import dataclasses

from zole_arena.game.rules import Rules
from zole_arena.game.scoring import NO_PULES, Pules
from zole_arena.game.state import DealResult, DealState, dealer_of

__all__ = ["GameResult", "ScoreSheet"]


@dataclasses.dataclass(frozen=True)
class GameResult:
    """One finished game: its deals' score changes summed, and who won it."""

    number: int
    """1-based game number."""
    scores: tuple[int, int, int]
    winners: tuple[int, ...]
    """The seats with the most points in this game (more than one on a tie)."""


class ScoreSheet:
    """Cumulative scores, pules and games over the deals of one match."""

    def __init__(self, rules: Rules, seed: int) -> None:
        self.rules = rules
        self.seed = seed
        self.results: list[DealResult] = []
        """The result of every finished deal, in order."""
        self.totals = [0, 0, 0]
        """Each seat's cumulative score."""
        self.pules: Pules = NO_PULES
        """The pules standing now."""

    @property
    def deals_played(self) -> int:
        """How many deals are finished."""
        return len(self.results)

    @property
    def next_deal_no(self) -> int:
        """The 1-based number of the next deal."""
        return len(self.results) + 1

    def next_deal(self) -> DealState:
        """Deal the next deal from the seed, with its dealer and the pules standing now."""
        deal_no = self.next_deal_no
        return DealState.from_seed(
            self.rules, self.seed, deal_no, dealer=dealer_of(deal_no), pules=self.pules
        )

    def record(self, result: DealResult) -> None:
        """Add a finished deal's scores to the totals and take over its pules.

        Deals must be recorded in order: the pules the deal started with must be the pules
        standing now.
        """
        self.results.append(result)
        for seat in range(3):
            self.totals[seat] += result.scores[seat]
        self.pules = result.pules

    def record_deal(self, deal: DealState) -> DealResult:
        """Record a finished :class:`DealState` from :meth:`next_deal`.

        :raises ValueError: the deal is not finished, or is not the next deal of this sheet.
        """
        if deal.result is None:
            raise ValueError("the deal is not finished")
        if deal.deal_no != self.next_deal_no or deal.seed != self.seed:
            raise ValueError(
                f"deal {deal.deal_no} of seed {deal.seed} is not the next deal "
                f"({self.next_deal_no}) of this sheet"
            )
        self.record(deal.result)
        return deal.result

    @property
    def games(self) -> list[GameResult]:
        """The finished games (a game is ``rules.deals_per_game`` deals)."""
        size = self.rules.deals_per_game
        games = []
        for start in range(0, len(self.results) - size + 1, size):
            chunk = self.results[start : start + size]
            scores = tuple(sum(r.scores[s] for r in chunk) for s in range(3))
            best = max(scores)
            games.append(
                GameResult(
                    number=start // size + 1,
                    scores=(scores[0], scores[1], scores[2]),
                    winners=tuple(s for s in range(3) if scores[s] == best),
                )
            )
        return games

    @property
    def games_won(self) -> tuple[int, int, int]:
        """How many games each seat won outright or shared."""
        won = [0, 0, 0]
        for game in self.games:
            for seat in game.winners:
                won[seat] += 1
        return (won[0], won[1], won[2])
