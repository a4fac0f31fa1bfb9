"""The open-card values of the bids: each bid followed by the later bidders' best replies.

Bidding is one word each, in turn from the forehand; the first word that is not ``pass`` ends
it. A bid's value for its bidder is the score of the contract it starts, solved with open
cards (a take with the best bury), or for ``pass`` what follows when each later bidder in turn
says the word that is best for himself, with open cards too. When all pass, each seat is valued
by what it can guarantee in the table game (the paranoid value; a common pule: 0). A later
bidder indifferent between words is taken to say the first of them in the rules' order (pass
first): the cheaper word.
"""

from __future__ import annotations

import dataclasses

from zole_arena.analysis.outcomes import band_scores, table_score
from zole_arena.analysis.solver import Solver
from zole_arena.game.actions import CONTRACT_OF_BID, Bid, Contract
from zole_arena.game.rules import AllPass
from zole_arena.game.state import DealState

__all__ = ["BidValues"]

Scores = tuple[int, int, int]


@dataclasses.dataclass
class BidValues:
    """The bid tree of one deal, solved lazily and remembered.

    ``start`` is the deal before any bid; ``context`` a word unique to the deal (the solver's
    tables are kept per context, see :meth:`Solver.values`).
    """

    start: DealState
    solver: Solver
    context: str
    _leaves: dict[tuple[Bid, int], Scores] = dataclasses.field(default_factory=dict)
    _all_pass: dict[int, int] = dataclasses.field(default_factory=dict)

    def order(self) -> tuple[int, int, int]:
        """The bidders in turn: the forehand first."""
        f = self.start.forehand
        return (f, (f + 1) % 3, (f + 2) % 3)

    def values(self, turn: int) -> dict[Bid, int]:
        """The value of each bid for the ``turn``-th bidder (0 = forehand), the earlier ones
        having passed."""
        bidder = self.order()[turn]
        return {bid: self._value(turn, bid, bidder) for bid in self.start.rules.bids}

    # -- the tree ---------------------------------------------------------------------------

    def _value(self, turn: int, bid: Bid, seat: int) -> int:
        """The value for ``seat`` of the ``turn``-th bidder saying ``bid``."""
        if bid is not Bid.PASS:
            return self._leaf(bid, self.order()[turn])[seat]
        if turn == 2:
            return self._pass_out(seat)
        nxt = turn + 1
        chosen = self._choice(nxt)
        return self._value(nxt, chosen, seat)

    def _choice(self, turn: int) -> Bid:
        """The word the ``turn``-th bidder says, best for himself (first of equals)."""
        bidder = self.order()[turn]
        rules = self.start.rules
        if turn == 2 and rules.all_pass is AllPass.TABLE:
            # Passing gives the last bidder his table-game value, at most two payments: a
            # contract worth more is his word without solving the table game.
            contracts = [(self._value(turn, bid, bidder), bid) for bid in rules.bids[1:]]
            top = max((value for value, _ in contracts), default=None)
            if top is not None and top > 2 * rules.table_payment:
                return next(bid for value, bid in contracts if value == top)
        best: Bid | None = None
        best_value = 0
        for bid in rules.bids:
            value = self._value(turn, bid, bidder)
            if best is None or value > best_value:
                best, best_value = bid, value
        assert best is not None
        return best

    def _after_bids(self, bids: list[Bid]) -> DealState:
        state = self.start.copy()
        for bid in bids:
            state.apply(bid)
        return state

    def _leaf(self, bid: Bid, soloist: int) -> Scores:
        """Each seat's score when ``soloist`` plays the contract of ``bid``."""
        key = (bid, soloist)
        if key not in self._leaves:
            passes = [Bid.PASS] * self.order().index(soloist)
            state = self._after_bids([*passes, bid])
            contract = CONTRACT_OF_BID[bid]
            context = f"{self.context}:s{soloist}"
            if contract is Contract.TAKE:
                band = self.solver.best_bury(context, state)
            else:
                band = self.solver.values(context, state)[0]
            rules = self.start.rules
            self._leaves[key] = band_scores(rules, contract, soloist, self.start.pules, band)
        return self._leaves[key]

    def _pass_out(self, seat: int) -> int:
        """The value for ``seat`` when all three pass."""
        rules = self.start.rules
        if rules.all_pass is AllPass.PULE:
            return 0
        if seat not in self._all_pass:
            state = self._after_bids([Bid.PASS] * 3)
            outcome = self.solver.values(f"{self.context}:t", state, seat=seat)[0]
            self._all_pass[seat] = table_score(rules, outcome)
        return self._all_pass[seat]
