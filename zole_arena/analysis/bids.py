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
from zole_arena.game.cards import cards_of
from zole_arena.game.rules import AllPass
from zole_arena.game.state import DealState

__all__ = ["BidValues", "own_contract_values"]

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
    bury_seat: int | None = None
    """The seat whose bury is analysed after the bids, if any: its take is valued by the
    band of every pair (the best of them), which that analysis then finds solved."""
    lead_analysed: bool = False
    """Whether the table game's first lead is analysed after the bids: the forehand's
    table-game value is then the best of his cards' values, which that analysis then finds
    solved."""
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
        end = self._after_pass(turn)
        return self._pass_out(seat) if end is None else self._leaf(*end)[seat]

    def _after_pass(self, turn: int) -> tuple[Bid, int] | None:
        """The contract bidding ends in (its bid and soloist) when the ``turn``-th bidder
        passes and each later one says his best word; None when all pass."""
        for later in range(turn + 1, 3):
            chosen = self._choice(later)
            if chosen is not Bid.PASS:
                return chosen, self.order()[later]
        return None

    def _choice(self, turn: int) -> Bid:
        """The word the ``turn``-th bidder says, best for himself (first of equals, so
        ``pass`` when it is as good as the best contract).

        Only the comparison matters here, so when passing leads to the table game it is one
        search of whether the bidder's table-game value reaches the best contract's, not the
        value itself (which is solved only for a decision that was made)."""
        bidder = self.order()[turn]
        rules = self.start.rules
        contracts = [(self._leaf(bid, bidder)[bidder], bid) for bid in rules.bids[1:]]
        if not contracts:
            return Bid.PASS
        top = max(value for value, _ in contracts)
        end = self._after_pass(turn)
        if end is not None:
            passes = self._leaf(*end)[bidder] >= top
        else:
            passes = self._pass_reaches(bidder, top)
        return Bid.PASS if passes else next(bid for value, bid in contracts if value == top)

    def _pass_reaches(self, seat: int, value: int) -> bool:
        """Whether ``seat``'s value when all three pass is at least ``value``."""
        rules = self.start.rules
        if seat in self._all_pass or rules.all_pass is AllPass.PULE:
            return self._pass_out(seat) >= value
        payment = rules.table_payment
        if payment == 0:  # every outcome scores 0
            return value <= 0
        outcome = -(-value // payment)  # the least outcome whose score reaches value
        state = self._after_bids([Bid.PASS] * 3)
        return self.solver.table_at_least(f"{self.context}:t", state, seat, outcome)

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
            if contract is Contract.TAKE and soloist == self.bury_seat:
                band = min(self.solver.bury_bands(context, state))
            elif contract is Contract.TAKE:
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
            context = f"{self.context}:t"
            if self.lead_analysed and seat == state.turn:
                cards = cards_of(state.legal_cards_mask())
                outcome = max(self.solver.values(context, state, cards))
            else:
                outcome = self.solver.values(context, state, seat=seat)[0]
            self._all_pass[seat] = table_score(rules, outcome)
        return self._all_pass[seat]


def own_contract_values(state: DealState, solver: Solver, context: str) -> dict[Bid, int]:
    """What each bid the rules allow would score for the seat to bid in ``state`` (in bidding,
    after the earlier bidders' passes) if it ended the bidding: each contract solved with open
    cards (a take with the best bury), ``pass`` 0.

    The fair-play screen's question of a bid: whether its bidder's contract would have won.
    Unlike :meth:`BidValues.values` it leaves out what a pass leads to (the later bidders'
    contracts, the table game), which costs more searches than the contract itself and says
    less of what the bidder knew of its own game.
    """
    bidder: int = state.turn  # type: ignore[assignment]
    values: dict[Bid, int] = {}
    for bid in state.rules.bids:
        if bid is Bid.PASS:
            values[bid] = 0
            continue
        after = state.copy()
        after.apply(bid)
        contract = CONTRACT_OF_BID[bid]
        where = f"{context}:{bid}"
        if contract is Contract.TAKE:
            band = solver.best_bury(where, after)
        else:
            band = solver.values(where, after)[0]
        values[bid] = band_scores(state.rules, contract, bidder, state.pules, band)[bidder]
    return values
