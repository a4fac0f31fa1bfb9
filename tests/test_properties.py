"""Property tests: random deals, random legal play, checked against simple reference rules.

The references here work on card names only (no masks, nothing from the engine but the deal):
the follow rule and the trick winner of zole-rules.md §2, the bands of §3, the table game of §4
and the pules of §5.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from itertools import combinations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from zole_arena.game.actions import Bid, Bury, Contract
from zole_arena.game.cards import Card
from zole_arena.game.rules import Rules, load_rules
from zole_arena.game.scoring import NO_PULES, Pules
from zole_arena.game.shuffle import MAX_SEED, deal_cards
from zole_arena.game.state import DealResult, DealState, Phase

WPT = load_rules("wpt")
LZF = load_rules("lzf")
LZF_SMALL = Rules.from_dict({**LZF.to_dict(), "contracts": ["take", "zole", "small_zole"]})
LZF_TABLE = Rules.from_dict({**LZF.to_dict(), "all_pass": "table"})
LZF_SMALL_TABLE_POINTS = Rules.from_dict(
    {
        **LZF.to_dict(),
        "contracts": ["take", "zole", "small_zole"],
        "all_pass": "table",
        "table_loser": "points",
        "personal_pule_bonus": 3,
    }
)
LZF_TAKE_ONLY_PULES = Rules.from_dict(
    {**LZF.to_dict(), "contracts": ["take", "zole", "small_zole"], "pules_take_only": True}
)
RULESETS = {
    "wpt": WPT,
    "lzf": LZF,
    "lzf-small": LZF_SMALL,
    "lzf-table": LZF_TABLE,
    "lzf-small-table-points": LZF_SMALL_TABLE_POINTS,
    "lzf-take-only-pules": LZF_TAKE_ONLY_PULES,
}

SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# ---------------------------------------------------------------------------------------------
# Reference rules on card names
# ---------------------------------------------------------------------------------------------

TRUMP_ORDER = "QC QS QH QD JC JS JH JD AD TD KD 9D 8D 7D".split()
PLAIN_RANK_ORDER = "ATK9"
RANK_POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}


def category(name: str) -> str:
    """Trump for any queen, jack or diamond; else the printed suit letter."""
    if name[0] in "QJ" or name[1] == "D":
        return "trump"
    return name[1]


def points(names: set[str] | list[str]) -> int:
    return sum(RANK_POINTS[name[0]] for name in names)


def reference_legal(hand: set[str], trick: list[str]) -> set[str]:
    """Follow the led category if able; otherwise (or when leading) anything."""
    if not trick:
        return set(hand)
    led = category(trick[0])
    following = {name for name in hand if category(name) == led}
    return following if following else set(hand)


def reference_winner(trick: list[str]) -> int:
    """Index (0–2, from the leader) of the winning card: highest trump, else highest of led suit."""
    trumps = [i for i, name in enumerate(trick) if category(name) == "trump"]
    if trumps:
        return min(trumps, key=lambda i: TRUMP_ORDER.index(trick[i]))
    led = trick[0][1]
    same = [i for i, name in enumerate(trick) if name[1] == led]
    return min(same, key=lambda i: PLAIN_RANK_ORDER.index(trick[i][0]))


def reference_band(contract: Contract, p: int, t: int) -> str:
    if contract is Contract.SMALL_ZOLE:
        return "win" if t == 0 else "loss"
    if t == 8:
        return "all_tricks"
    if t == 0:
        return "no_tricks"
    if p > 90:
        return "high_win"
    if p > 60:
        return "win"
    if p > 30:
        return "loss"
    return "high_loss"


def reference_soloist_scores(
    rules: Rules, contract: Contract, soloist: int, p: int, t: int, pules: Pules
) -> tuple[tuple[int, int, int], Pules]:
    band = reference_band(contract, p, t)
    if contract is Contract.SMALL_ZOLE:
        assert rules.small_zole is not None
        amount = rules.small_zole.win if band == "win" else rules.small_zole.loss
    else:
        table = rules.take if contract is Contract.TAKE else rules.zole
        assert table is not None
        amount = getattr(table, band)
    scores = [-amount] * 3
    scores[soloist] = 2 * amount
    won = amount > 0
    if (pules.common or pules.personal) and (
        contract is Contract.TAKE or not rules.pules_take_only
    ):
        common, personal = pules.common, list(pules.personal)
        if not won:
            personal.append(soloist)
        elif soloist in personal:
            personal.remove(soloist)
        elif common:
            common -= 1
            for seat in range(3):
                if seat == soloist:
                    scores[seat] += 2 * rules.common_pule_bonus
                else:
                    scores[seat] -= rules.common_pule_bonus
        else:
            owner = personal.pop(0)
            scores[soloist] += rules.personal_pule_bonus
            scores[owner] -= rules.personal_pule_bonus
        pules = Pules(common, tuple(personal))
    return (scores[0], scores[1], scores[2]), pules


def reference_table_scores(
    rules: Rules, tricks: list[int], pts: list[int]
) -> tuple[tuple[int, ...], tuple[int, int, int]]:
    keys: list[tuple[int, ...]]
    if rules.table_loser.value == "points":
        keys = [(pts[s],) for s in range(3)]
    else:
        keys = [(tricks[s], pts[s]) for s in range(3)]
    worst = max(keys)
    losers = tuple(s for s in range(3) if keys[s] == worst)
    pay = rules.table_payment
    scores = [0, 0, 0]
    for loser in losers:
        for other in range(3):
            if other != loser:
                scores[loser] -= pay
                scores[other] += pay
    return losers, (scores[0], scores[1], scores[2])


# ---------------------------------------------------------------------------------------------
# A model of the deal, kept beside the engine from the dealt cards alone
# ---------------------------------------------------------------------------------------------


@dataclasses.dataclass
class Model:
    rules: Rules
    dealer: int
    pules: Pules
    hands: list[set[str]]
    talon: set[str]
    turn: int | None = None
    bids: int = 0
    contract: Contract | None = None
    soloist: int | None = None
    buried: set[str] = dataclasses.field(default_factory=set)
    trick: list[str] = dataclasses.field(default_factory=list)
    leader: int = 0
    taken: list[list[str]] = dataclasses.field(default_factory=lambda: [[], [], []])
    tricks_won: list[int] = dataclasses.field(default_factory=lambda: [0, 0, 0])
    done: bool = False
    ended_early: bool = False

    @property
    def forehand(self) -> int:
        return (self.dealer + 1) % 3


def model_of(rules: Rules, seed: int, deal_no: int, dealer: int, pules: Pules) -> Model:
    dealt, talon = deal_cards(seed, deal_no)
    forehand = (dealer + 1) % 3
    hands: list[set[str]] = [set(), set(), set()]
    for k in range(3):
        hands[(forehand + k) % 3] = {str(c) for c in dealt[k]}
    model = Model(rules, dealer, pules, hands, {str(c) for c in talon})
    model.turn = forehand
    model.leader = forehand
    return model


def model_apply(model: Model, action: Bid | Bury | Card) -> None:
    seat = model.turn
    assert seat is not None
    if isinstance(action, Bid):
        model.bids += 1
        if action is Bid.PASS:
            if model.bids < 3:
                model.turn = (seat + 1) % 3
            elif model.rules.all_pass.value == "pule":
                model.contract = Contract.PULE
                model.done = True
                model.turn = None
            else:
                model.contract = Contract.TABLE
                model.turn = model.forehand
            return
        model.soloist = seat
        model.contract = {
            Bid.TAKE: Contract.TAKE,
            Bid.ZOLE: Contract.ZOLE,
            Bid.SMALL_ZOLE: Contract.SMALL_ZOLE,
        }[action]
        if action is Bid.TAKE:
            model.hands[seat] |= model.talon
        else:
            model.turn = model.forehand
        return
    if isinstance(action, Bury):
        names = {str(c) for c in action.cards}
        model.hands[seat] -= names
        model.buried = names
        model.turn = model.forehand
        return
    name = str(action)
    model.hands[seat].remove(name)
    model.trick.append(name)
    if len(model.trick) < 3:
        model.turn = (seat + 1) % 3
        return
    winner = (model.leader + reference_winner(model.trick)) % 3
    model.taken[winner].extend(model.trick)
    model.tricks_won[winner] += 1
    model.trick = []
    model.leader = model.turn = winner
    if sum(model.tricks_won) == 8:
        model.done = True
    elif model.contract is Contract.SMALL_ZOLE and winner == model.soloist:
        model.done = model.ended_early = True
    if model.done:
        model.turn = None


# ---------------------------------------------------------------------------------------------
# Strategies
# ---------------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class DealSpec:
    rules_name: str
    seed: int
    deal_no: int
    dealer: int
    pules: Pules
    bidder: int
    """Number of passes before the first non-pass bid (3: all pass)."""
    choices: int
    """Seed of the random play."""

    @property
    def rules(self) -> Rules:
        return RULESETS[self.rules_name]


PULE_CHOICES = [NO_PULES, Pules(1, ()), Pules(0, (1,)), Pules(2, (0, 2)), Pules(0, (2, 0))]


@st.composite
def deal_specs(draw: st.DrawFn) -> DealSpec:
    return DealSpec(
        rules_name=draw(st.sampled_from(sorted(RULESETS))),
        seed=draw(st.integers(0, MAX_SEED)),
        deal_no=draw(st.integers(1, 10**6)),
        dealer=draw(st.integers(0, 2)),
        pules=draw(st.sampled_from(PULE_CHOICES)),
        bidder=draw(st.integers(0, 3)),
        choices=draw(st.integers(0, 2**32)),
    )


def choose(state: DealState, spec: DealSpec, rng: random.Random) -> Bid | Bury | Card:
    legal = list(state.legal_actions())
    if state.phase is Phase.BIDDING:
        if len(state.bids) < spec.bidder or len(legal) == 1:
            return Bid.PASS
        return rng.choice([bid for bid in legal if bid is not Bid.PASS])
    action = rng.choice(legal)
    assert isinstance(action, Bid | Bury | Card)
    return action


def new_state(spec: DealSpec) -> DealState:
    return DealState.from_seed(spec.rules, spec.seed, spec.deal_no, spec.dealer, spec.pules)


def play(spec: DealSpec) -> DealState:
    state = new_state(spec)
    rng = random.Random(spec.choices)
    while state.result is None:
        state.apply(choose(state, spec, rng))
    return state


def cards_of_mask(mask: int) -> tuple[Card, ...]:
    """The cards of a mask, read bit by bit (without the engine's tables)."""
    return tuple(Card(n) for n in range(26) if mask >> n & 1)


def card_names(items: object) -> set[str]:
    """Names of the cards in a tuple (or None), for comparing with the model."""
    if items is None:
        return set()
    assert isinstance(items, tuple)
    return {str(c) for c in items}


# ---------------------------------------------------------------------------------------------
# Properties
# ---------------------------------------------------------------------------------------------


@SETTINGS
@given(spec=deal_specs())
def test_every_deal_has_26_distinct_cards(spec: DealSpec) -> None:
    state = new_state(spec)
    hands = [set(state.hand(s)) for s in range(3)]
    talon = set(cards_of_mask(state.talon))
    assert [len(h) for h in hands] == [8, 8, 8]
    assert len(talon) == 2
    everything = hands[0] | hands[1] | hands[2] | talon
    assert len(everything) == 26
    assert points([str(c) for c in everything]) == 120
    model = model_of(spec.rules, spec.seed, spec.deal_no, spec.dealer, spec.pules)
    assert [{str(c) for c in h} for h in hands] == model.hands
    assert {str(c) for c in talon} == model.talon


def check_step(state: DealState, model: Model) -> None:
    """Everything the engine says now agrees with the model."""
    assert state.turn == model.turn
    assert state.contract == model.contract
    assert state.soloist == model.soloist
    for seat in range(3):
        assert card_names(state.hand(seat)) == model.hands[seat]
    # conservation of cards and points
    played = [name for seat in range(3) for name in model.taken[seat]]
    in_hands = [name for seat in range(3) for name in model.hands[seat]]
    loose = [*played, *model.trick, *in_hands, *model.buried]
    if model.contract is not Contract.TAKE:
        loose += sorted(model.talon)
    assert len(loose) == len(set(loose)) == 26
    assert points(loose) == 120
    engine_played = [str(c) for t in state.tricks for c in t.cards]
    engine_played += [str(c) for c in state.current_trick]
    engine_talon = set() if state.contract is Contract.TAKE else model.talon
    engine_buried = {str(c) for c in cards_of_mask(state.buried)}
    assert engine_buried == model.buried
    hand_names = [str(c) for s in range(3) for c in state.hand(s)]
    engine_loose = engine_played + hand_names + sorted(engine_talon) + sorted(engine_buried)
    assert sorted(engine_loose) == sorted(loose)
    assert (
        points(engine_played) + points(hand_names) + points(engine_talon) + points(engine_buried)
        == 120
    )
    assert state.tricks_won == tuple(model.tricks_won)
    assert state.points_won == tuple(points(model.taken[s]) for s in range(3))


def check_views(state: DealState, model: Model) -> None:
    """No seat sees another seat's cards; the talon and the buried cards only the taker."""
    took = model.contract is Contract.TAKE
    for seat in range(3):
        view = state.view(seat)
        others = set().union(*(model.hands[s] for s in range(3) if s != seat))
        private: set[str] = card_names(view.hand) | card_names(view.talon)
        private |= card_names(view.buried)
        for action in view.legal_actions:
            if isinstance(action, Card):
                private.add(str(action))
            elif isinstance(action, Bury):
                private |= {str(c) for c in action.cards}
        assert not private & others
        assert card_names(view.hand) == model.hands[seat]
        if took and seat == model.soloist:
            assert card_names(view.talon) == model.talon
            if state.phase is Phase.BURYING:
                assert view.buried is None
            else:
                assert card_names(view.buried) == model.buried
        else:
            assert view.talon is None
            assert view.buried is None
        if seat != state.turn:
            assert view.legal_actions == ()
        else:
            assert view.legal_actions == tuple(state.legal_actions())
        # public information is the same for everyone
        assert view.tricks == state.tricks
        assert view.trick == state.current_trick
        assert view.bids == tuple(state.bids)


def only_cards(actions: object) -> list[Card]:
    assert isinstance(actions, Sequence)
    items = [a for a in actions if isinstance(a, Card)]
    assert len(items) == len(actions)
    return items


def only_buries(actions: object) -> list[Bury]:
    assert isinstance(actions, Sequence)
    items = [a for a in actions if isinstance(a, Bury)]
    assert len(items) == len(actions)
    return items


def check_legal(state: DealState, model: Model) -> None:
    legal = state.legal_actions()
    if state.phase is Phase.PLAYING:
        assert model.turn is not None
        expected = reference_legal(model.hands[model.turn], model.trick)
        played = only_cards(legal)
        assert {str(c) for c in played} == expected
        assert len(played) == len(expected)
        assert played == sorted(played)  # canonical order
    elif state.phase is Phase.BIDDING:
        assert tuple(legal) == state.rules.bids
    elif state.phase is Phase.BURYING:
        assert model.turn is not None
        hand = model.hands[model.turn]
        assert len(hand) == 10
        pairs = {frozenset(str(c) for c in bury.cards) for bury in only_buries(legal)}
        assert pairs == {frozenset(pair) for pair in combinations(sorted(hand), 2)}
        assert len(legal) == 45
        assert len(list(legal)) == 45
        assert [legal[i] for i in range(45)] == list(legal)
        for bury in legal:
            assert bury in legal
        outside = next(Card.parse(n) for n in [*TRUMP_ORDER, "AC"] if n not in hand)
        inside = Card.parse(sorted(hand)[0])
        assert Bury.of(outside, inside) not in legal
    else:
        assert tuple(legal) == ()


def check_result(state: DealState, model: Model) -> DealResult:
    result = state.result
    assert result is not None
    assert model.done
    assert sum(result.scores) == 0
    assert result.contract is model.contract
    assert result.soloist == model.soloist
    assert result.ended_early == model.ended_early
    assert result.tricks == tuple(model.tricks_won)
    assert result.points == tuple(points(model.taken[s]) for s in range(3))
    if model.contract is Contract.PULE:
        assert result.scores == (0, 0, 0)
        assert result.pules == Pules(model.pules.common + 1, model.pules.personal)
        assert state.tricks == ()
    elif model.contract is Contract.TABLE:
        losers, scores = reference_table_scores(
            model.rules, model.tricks_won, [points(model.taken[s]) for s in range(3)]
        )
        assert result.losers == losers
        assert result.scores == scores
        assert result.pules == model.pules
        assert len(state.tricks) == 8
    else:
        soloist = model.soloist
        assert soloist is not None
        assert model.contract is not None
        p = points(model.taken[soloist])
        if model.contract is Contract.TAKE:
            p += points(model.buried)
        t = model.tricks_won[soloist]
        assert result.soloist_points == p
        assert result.soloist_tricks == t
        assert result.band == reference_band(model.contract, p, t)
        scores, pules = reference_soloist_scores(
            model.rules, model.contract, soloist, p, t, model.pules
        )
        assert result.scores == scores
        assert result.pules == pules
    return result


@SETTINGS
@given(spec=deal_specs())
def test_random_play_agrees_with_the_reference_rules(spec: DealSpec) -> None:
    state = new_state(spec)
    model = model_of(spec.rules, spec.seed, spec.deal_no, spec.dealer, spec.pules)
    rng = random.Random(spec.choices)
    check_step(state, model)
    while state.result is None:
        check_legal(state, model)
        check_views(state, model)
        action = choose(state, spec, rng)
        state.apply(action)
        model_apply(model, action)
        check_step(state, model)
        if state.tricks:
            last = state.tricks[-1]
            names = [str(c) for c in last.cards]
            assert last.winner == (last.leader + reference_winner(names)) % 3
            assert last.points == points(names)
    check_legal(state, model)
    check_views(state, model)
    check_result(state, model)


@SETTINGS
@given(spec=deal_specs())
def test_every_result_is_zero_sum_and_conserves_points(spec: DealSpec) -> None:
    state = play(spec)
    result = state.result
    assert result is not None
    assert sum(result.scores) == 0
    trick_points = sum(t.points for t in state.tricks)
    hand_points = sum(c.points for s in range(3) for c in state.hand(s))
    buried = sum(c.points for c in cards_of_mask(state.buried))
    talon = 0
    if result.contract is not Contract.TAKE:
        talon = sum(c.points for c in cards_of_mask(state.talon))
    assert trick_points + hand_points + buried + talon == 120
    assert sum(result.points) == trick_points
    if result.contract in (Contract.TABLE, Contract.TAKE, Contract.ZOLE):
        assert len(state.tricks) == 8
        assert hand_points == 0


@SETTINGS
@given(spec=deal_specs())
def test_same_seed_and_choices_give_the_same_deal_and_result(spec: DealSpec) -> None:
    first = play(spec)
    second = play(spec)
    assert first.initial_hands == second.initial_hands
    assert first.talon == second.talon
    assert first.history == second.history
    assert first.result == second.result
    # and a replay of the history, action by action, gives the same again
    third = new_state(spec)
    for seat, action in first.history:
        assert third.turn == seat
        third.apply(action)
    assert third.result == first.result
    assert third.tricks == first.tricks


@SETTINGS
@given(
    rules_name=st.sampled_from(sorted(RULESETS)),
    seed=st.integers(0, MAX_SEED),
    deal_no=st.integers(1, 10**6),
    rnd=st.randoms(use_true_random=False),
)
def test_bury_choices_are_the_45_pairs(
    rules_name: str, seed: int, deal_no: int, rnd: random.Random
) -> None:
    rules = RULESETS[rules_name]
    state = DealState.from_seed(rules, seed, deal_no)
    for _ in range(rnd.randrange(3)):
        state.apply(Bid.PASS)
    bidder = state.turn
    assert bidder is not None
    state.apply(Bid.TAKE)
    assert state.soloist == bidder
    assert state.phase is Phase.BURYING
    hand = state.hand(bidder)
    assert len(hand) == 10
    assert set(cards_of_mask(state.talon)) <= set(hand)
    legal = only_buries(state.legal_actions())
    assert len(legal) == 45
    assert {frozenset(b.cards) for b in legal} == {frozenset(p) for p in combinations(hand, 2)}
    assert len(set(legal)) == 45
    bury = rnd.choice(list(legal))
    state.apply(bury)
    assert set(state.hand(bidder)) == set(hand) - set(bury.cards)
    assert state.view(bidder).buried == bury.cards
    assert state.turn == state.forehand
    # play out at random: the buried cards count for the soloist
    while state.result is None:
        state.apply(rnd.choice(list(state.legal_actions())))
    result = state.result
    assert result.soloist_points == result.points[bidder] + sum(c.points for c in bury.cards)


@SETTINGS
@given(
    rules_name=st.sampled_from(sorted(RULESETS)),
    seed=st.integers(0, MAX_SEED),
    deal_no=st.integers(1, 10**6),
    rnd=st.randoms(use_true_random=False),
)
def test_copy_does_not_share_state(
    rules_name: str, seed: int, deal_no: int, rnd: random.Random
) -> None:
    state = DealState.from_seed(RULESETS[rules_name], seed, deal_no)
    steps = rnd.randrange(0, 20)
    for _ in range(steps):
        if state.result is not None:
            break
        state.apply(rnd.choice(list(state.legal_actions())))
    before = (state.history, [state.hand(s) for s in range(3)], state.turn, state.result)
    twin = state.copy()
    while twin.result is None:
        twin.apply(rnd.choice(list(twin.legal_actions())))
    assert (state.history, [state.hand(s) for s in range(3)], state.turn, state.result) == before
