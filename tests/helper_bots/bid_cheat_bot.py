"""A cheater that uses the hidden cards for its bids only: rulebot, except that it takes
exactly when taking wins with every card open.

It recomputes each deal from the match's seed (the arena's shuffle is public), as the ceiling
bot does, so it works only unsandboxed with the seed given: ``bid_cheat_bot.py SEED``. Its
cards are rulebot's, with nothing hidden known: the fair-play screen must see it by its bids
(a red team's bot like it kept 87% of a clairvoyant bot's gain and was not flagged by the
screen of cards alone).
"""

from __future__ import annotations

import sys

from zole_arena_bots.rule_bot import RuleBot

from zole_arena.analysis.bids import own_contract_values
from zole_arena.analysis.solver import Solver
from zole_arena.game.actions import Action, Bid
from zole_arena.game.cards import mask_of
from zole_arena.game.rules import load_rules
from zole_arena.game.state import DealState
from zole_arena.game.values import Phase
from zole_arena.sdk import BotView


class BidCheat(RuleBot):
    name = "BidCheat"

    def __init__(self, seed: int) -> None:
        super().__init__()
        self.match_seed = seed
        self.solver = Solver()

    def decide(self, view: BotView) -> Action:
        if view.phase is not Phase.BIDDING:
            return super().decide(view)
        rules = load_rules(view.rules)
        mine = mask_of(view.hand)
        for number in (view.deal_no, *range(1, 2000)):
            state = DealState.from_seed(rules, self.match_seed, number, view.dealer)
            if mask_of(state.hand(view.seat)) == mine:
                break
        else:
            return super().decide(view)
        for _, bid in view.bids:
            state.apply(bid)
        values = own_contract_values(state, self.solver, f"d{view.deal_no}")
        best = max(values, key=lambda b: values[b])
        return best if values[best] > 0 and best in view.legal_actions else Bid.PASS


if __name__ == "__main__":
    BidCheat(int(sys.argv[1])).run()
