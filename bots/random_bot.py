#!/usr/bin/env python3
"""A Zole bot that plays a random legal action: the smallest complete bot on the library's
:class:`~zole_arena.sdk.bot.Bot` class.

It keeps no state: every request's view holds the legal actions. Run it as
``python3 random_bot.py [--seed N]``; the bot class itself speaks the protocol. With a seed,
each decision's draw follows from the seed and the decision's place in the deal, so a
restarted bot (a resumed match) plays as it would have.
"""

from __future__ import annotations

import os
import random
import sys

try:  # the library as installed, else the one this bot came with (a clone, PYTHONPATH)
    import zole_arena  # noqa: F401
except ImportError:
    sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from zole_arena.game.actions import Action, Bury
from zole_arena.game.state import Phase
from zole_arena.sdk import Bot, BotView


class RandomBot(Bot):
    """Uniformly random legal actions (burying: two cards of the hand drawn at random)."""

    name = "Random"
    author = "zole-arena"
    version = "1"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def decide(self, view: BotView) -> Action:
        if self.seed is not None:
            where = (view.deal_no, view.seat, view.hand, len(view.bids), len(view.tricks),
                     view.trick)  # fmt: skip
            self.rng = random.Random(f"{self.seed}/{where}")
        if view.phase is Phase.BURYING:
            first, second = self.rng.sample(view.hand, 2)
            return Bury.of(first, second)
        return self.rng.choice(view.legal_actions)


if __name__ == "__main__":
    RandomBot(int(sys.argv[2]) if sys.argv[1:2] == ["--seed"] else None).run()
