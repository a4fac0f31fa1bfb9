"""The check's catalogue: the decisions it asks a bot for, each a real deal brought to it.

Each :class:`Scenario` is a deal dealt from a seed and brought by legal moves to the decision
it is about; a :class:`CheckMatch` is one rule set's scenarios, the deals of one match in
order (both presets, ``lzf`` with pules standing, and ``lzf`` with its switches on). The
runner (:mod:`~zole_arena.arena.check.runner`) plays them against the bot.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Final

from zole_arena.game.actions import Action, Bid
from zole_arena.game.rules import AllPass, Rules, load_rules
from zole_arena.game.scoring import NO_PULES, Pules
from zole_arena.game.state import DealState, Phase

__all__ = [
    "FOUR_DEALS",
    "FOUR_PLAYING",
    "FOUR_RULES",
    "FOUR_SEED",
    "FOUR_SITTING",
    "CheckMatch",
    "Scenario",
    "check_matches",
]

#: The rule set and seed of the table-of-four items (the federation's rules, whose
#: tournaments seat four), and their number of deals: four, so that each of the four copies of
#: the bot deals, and so sits out, once.
FOUR_RULES: Final = "lzf"
FOUR_SEED: Final = 20261129
FOUR_DEALS: Final = 4
#: The names of the table-of-four items.
FOUR_PLAYING: Final = "table of four (lzf), the bot among the three who play"
FOUR_SITTING: Final = "table of four, the bot sitting a deal out ('sitout', then isready)"


@dataclasses.dataclass(frozen=True)
class Scenario:
    """A decision the check asks for: a real deal, brought by legal moves to it."""

    name: str
    state: DealState
    """The deal at the decision, dealt from ``state.seed`` as deal ``state.deal_no``, with the
    moves before it in ``state.history``. The bot plays the seat to move."""

    @property
    def seat(self) -> int:
        """The bot's seat."""
        seat: int = self.state.turn  # type: ignore[assignment]
        return seat

    @property
    def joins(self) -> bool:
        """Whether the bot's seat moved before the decision, so that a fresh copy of the bot
        joins the deal here, as a bot restarted in the middle of a deal does."""
        return any(seat == self.seat for seat, _ in self.state.history)

    @property
    def title(self) -> str:
        """The item's name."""
        return f"{self.name}, restarted mid-deal" if self.joins else self.name


@dataclasses.dataclass(frozen=True)
class CheckMatch:
    """The scenarios of one rule set: the deals, in order, of one match."""

    rules: Rules
    scenarios: tuple[Scenario, ...]
    totals: tuple[int, int, int] = (0, 0, 0)
    """The scores standing before the first of them."""
    pules: Pules = NO_PULES
    """The pules standing before the first of them."""


def _rules_with(base: str, **changes: object) -> Rules:
    data = load_rules(base).to_dict()
    data.update(changes)
    return Rules.from_dict(data, source=f"{base} (check)")


def _first(legal: Sequence[Action]) -> Action:
    return legal[0]


def _last(legal: Sequence[Action]) -> Action:
    return legal[-1]


def _find(
    name: str,
    rules: Rules,
    deal_no: int,
    bids: tuple[Bid, ...],
    plays: int = 0,
    want: Callable[[DealState], bool] = lambda _: True,
    *,
    bury: bool = True,
    pick: Callable[[Sequence[Action]], Action] = _first,
) -> Scenario:
    """The first deal ``deal_no`` of seeds 1, 2, … where the bids can be made and, after the
    bury (of the first two cards, unless ``bury`` is false) and ``plays`` cards (each the
    ``pick`` of the legal cards), ``want`` holds."""
    for seed in range(1, 5000):
        state = DealState.from_seed(rules, seed, deal_no)
        for bid in bids:
            state.apply(bid)
        if state.phase is Phase.BURYING and bury:
            state.apply(state.legal_actions()[0])
        for _ in range(plays):
            if state.phase is not Phase.PLAYING:
                break
            state.apply(pick(state.legal_actions()))
        if state.phase is not Phase.DONE and want(state):
            return Scenario(name, state)
    raise RuntimeError(f"no deal found for the check's {name!r}")  # pragma: no cover


def _follow_constrained(state: DealState) -> bool:
    return bool(state.current_trick) and len(state.legal_actions()) < len(
        state.hand(state.turn)  # type: ignore[arg-type]
    )


def _void(state: DealState) -> bool:
    return bool(state.current_trick) and len(state.legal_actions()) == len(
        state.hand(state.turn)  # type: ignore[arg-type]
    )


def _soloist_to_play(state: DealState) -> bool:
    return state.turn == state.soloist


def check_matches() -> list[CheckMatch]:
    """The decisions of the check, for both presets, ``lzf`` with small zole and the table
    game, and every contract. The ``lzf`` match is joined at deal 4, with two common pules and
    a personal pule standing (deals 1 and 3 all passed; in deal 2 seat 1 lost a take)."""
    wpt = load_rules("wpt")
    lzf = load_rules("lzf")
    switches = _rules_with("lzf", contracts=["take", "zole", "small_zole"],
                           all_pass=AllPass.TABLE.value)  # fmt: skip
    p, t, z, s = Bid.PASS, Bid.TAKE, Bid.ZOLE, Bid.SMALL_ZOLE
    return [
        CheckMatch(wpt, (
            _find("wpt bid as forehand", wpt, 1, ()),
            _find("wpt bid after two passes", wpt, 2, (p, p)),
            _find("wpt follow the led category", wpt, 3, (t,), 1, _follow_constrained),
            _find("wpt play when void", wpt, 4, (t,), 1, _void, pick=_last),
            _find("wpt bury after taking the talon", wpt, 5, (t,), bury=False),
            _find("wpt lead the first trick", wpt, 6, (p, t)),
            _find("wpt table game (all passed)", wpt, 7, (p, p, p), 4),
        )),
        CheckMatch(lzf, (
            _find("lzf take with pules standing", lzf, 4, (t,), 2),
            _find("lzf bid with zole offered", lzf, 5, ()),
            _find("lzf zole: opponent plays", lzf, 6, (p, z), 2),
            _find("lzf zole: soloist plays", lzf, 7, (z,), 3, _soloist_to_play),
        ), totals=(2, -4, 2), pules=Pules(common=2, personal=(1,))),
        CheckMatch(switches, (
            _find("lzf bid with small zole offered", switches, 1, (p,)),
            _find("lzf small zole: soloist plays", switches, 2, (s,), 0, _soloist_to_play),
            _find("lzf table game switch (all passed)", switches, 3, (p, p, p), 2),
        )),
    ]  # fmt: skip
