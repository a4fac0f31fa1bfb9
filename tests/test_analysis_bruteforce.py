"""The open-card solver (``zole_arena.analysis.solver``) against a brute force written here.

The brute force is plain minimax over every legal card sequence, from the rules text
(docs/rules.md §2–4): its own trump order, following and trick winner, its own card points
(from the rank letter of each card's notation), its own bands, small-zole end and table-game
losers. It shares nothing with the solver nor with searchbot's C code; the rules engine only
deals the cards and plays the seeded openings that lead to the positions compared.

Positions: real deals (``DealState.from_seed``), bid to the contract wanted (a take buries
two cards), then seeded play — random, or biased towards the soloist taking or losing tricks —
to the end. Deals are picked, by a deterministic scan, for how their playout ends (all tricks,
no trick, 91 or more, exactly 60, a table-game tie, anything), so that every band and outcome
comes up. Every position of a picked deal with 4 to 12 cards in hand (2 to 4 a hand, tricks
partly played included) is compared: each legal card of the seat to move, and the position
as it stands; in the table game for each of the three seats.
"""

from __future__ import annotations

import random
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import pytest

from zole_arena.analysis.solver import Solver, SolverError, solver_program
from zole_arena.game.actions import Bid, Bury, Contract
from zole_arena.game.cards import CARDS
from zole_arena.game.rules import Rules, TableLoser, load_rules
from zole_arena.game.state import DealState
from zole_arena.game.values import Phase

# -- the rules, written out again ---------------------------------------------------------

#: Trumps from the highest down (every queen, every jack, every diamond; §2).
_TRUMP_ORDER = "QC QS QH QD JC JS JH JD AD TD KD 9D 8D 7D".split()
#: A plain suit's ranks from the highest down.
_PLAIN_ORDER = "ATK9"
_RANK_POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}

_NAME = tuple(CARDS[n].name for n in range(26))  # the notation of each card number only
#: What each card follows as: "T" (trump) or its plain suit letter.
FOLLOWS = tuple("T" if name in _TRUMP_ORDER else name[1] for name in _NAME)
#: Card points from the rank letter.
POINTS = tuple(_RANK_POINTS[name[0]] for name in _NAME)


def _strength(card: int, led: str) -> int:
    """Higher wins: any trump beats any plain card; a card neither trump nor of the led suit
    never wins."""
    name = _NAME[card]
    if FOLLOWS[card] == "T":
        return 100 - _TRUMP_ORDER.index(name)
    if FOLLOWS[card] == led:
        return 50 - _PLAIN_ORDER.index(name[0])
    return 0


def trick_winner(trick: Sequence[int]) -> int:
    """The place (0, 1, 2 from the leader) of the card that wins a full trick."""
    led = FOLLOWS[trick[0]]
    strengths = [_strength(card, led) for card in trick]
    return strengths.index(max(strengths))


def legal_cards(hand: Sequence[int], trick: Sequence[int]) -> tuple[int, ...]:
    """Follow the led category if able; otherwise, or when leading, any card."""
    if trick:
        same = tuple(c for c in hand if FOLLOWS[c] == FOLLOWS[trick[0]])
        if same:
            return same
    return tuple(hand)


def band(points: int, tricks: int) -> int:
    """A take's or zole's band (§3): 0 all tricks, 1 91+, 2 61–90, 3 31–60, 4 ≤30 with a
    trick, 5 no trick."""
    if tricks == 8:
        return 0
    if tricks == 0:
        return 5
    return 1 if points >= 91 else 2 if points >= 61 else 3 if points >= 31 else 4


def table_outcome(seat: int, tricks: Sequence[int], points: Sequence[int], by_points: bool) -> int:
    """``seat``'s table-game outcome in table payments: most tricks lose, then most points
    (or most points only); every seat tied at the worst loses."""
    keys = [(0 if by_points else tricks[s], points[s]) for s in range(3)]
    losers = [s for s in range(3) if keys[s] == max(keys)]
    if seat in losers:
        return {1: -2, 2: -1, 3: 0}[len(losers)]
    return {1: 1, 2: 2}[len(losers)]


# -- the brute force ----------------------------------------------------------------------


@dataclass(frozen=True)
class Game:
    """What a search maximises: ``final`` values a finished deal from every seat's tricks and
    points; the seats in ``maximisers`` want it high, the others low; ``ends`` says whether
    the deal stops after a trick (small zole)."""

    final: Callable[[Sequence[int], Sequence[int]], int]
    maximisers: frozenset[int]
    ends: Callable[[Sequence[int]], bool] = lambda tricks: False


Hands = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]


@dataclass(frozen=True)
class Position:
    """Who holds what and what is won, recounted here from the tricks played."""

    hands: Hands
    trick: tuple[int, ...]
    leader: int
    tricks: tuple[int, int, int]
    points: tuple[int, int, int]

    @property
    def mover(self) -> int:
        return (self.leader + len(self.trick)) % 3

    def legal(self) -> tuple[int, ...]:
        return legal_cards(self.hands[self.mover], self.trick)


class BruteForce:
    """Minimax over every legal card sequence; positions met again at a trick's start (the
    same cards left, leader, tricks and points) are looked up rather than searched again."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.seen: dict[Position, int] = {}

    def value(self, pos: Position) -> int:
        if not pos.trick and pos in self.seen:
            return self.seen[pos]
        values = [self.after(pos, card) for card in pos.legal()]
        value = max(values) if pos.mover in self.game.maximisers else min(values)
        if not pos.trick:
            self.seen[pos] = value
        return value

    def after(self, pos: Position, card: int) -> int:
        """The value once the seat to move plays ``card``."""
        mover = pos.mover
        hands = list(pos.hands)
        hands[mover] = tuple(c for c in hands[mover] if c != card)
        left: Hands = (hands[0], hands[1], hands[2])
        trick = (*pos.trick, card)
        if len(trick) < 3:
            return self.value(Position(left, trick, pos.leader, pos.tricks, pos.points))
        winner = (pos.leader + trick_winner(trick)) % 3
        tricks = list(pos.tricks)
        points = list(pos.points)
        tricks[winner] += 1
        points[winner] += sum(POINTS[c] for c in trick)
        if self.game.ends(tricks) or not any(left):
            return self.game.final(tricks, points)
        won = (tricks[0], tricks[1], tricks[2])
        return self.value(Position(left, (), winner, won, (points[0], points[1], points[2])))


def brute_force(game: Game, pos: Position) -> tuple[dict[int, int], int]:
    """The value of each legal card of the seat to move, and of the position."""
    search = BruteForce(game)
    cards = {card: search.after(pos, card) for card in pos.legal()}
    pick = max if pos.mover in game.maximisers else min
    return cards, pick(cards.values())


def value_of(game: Game, pos: Position) -> int:
    return BruteForce(game).value(pos)


def engine_legal(state: DealState) -> list[int]:
    """The cards the engine lets the seat to move play, in card order."""
    return [n for n in range(26) if state.legal_cards_mask() >> n & 1]


def position_of(state: DealState) -> Position:
    """The position of ``state``, with tricks and points recounted from its finished tricks by
    this file's rules (and checked against the engine's trick winners)."""
    tricks = [0, 0, 0]
    points = [0, 0, 0]
    for leader, a, b, c, engine_winner in state.trick_log():
        winner = (leader + trick_winner((a, b, c))) % 3
        assert winner == engine_winner, (leader, a, b, c)
        tricks[winner] += 1
        points[winner] += POINTS[a] + POINTS[b] + POINTS[c]

    def held(seat: int) -> tuple[int, ...]:
        return tuple(n for n in range(26) if state.hand_mask(seat) >> n & 1)

    pos = Position(
        (held(0), held(1), held(2)),
        state.current_trick_cards(),
        state.trick_leader,
        (tricks[0], tricks[1], tricks[2]),
        (points[0], points[1], points[2]),
    )
    assert pos.mover == state.turn
    assert sorted(pos.legal()) == engine_legal(state)
    return pos


def mask_points(mask: int) -> int:
    return sum(POINTS[n] for n in range(26) if mask >> n & 1)


def soloist_game(soloist: int, extra: int, *, sixty_wins: bool = False) -> Game:
    """A take or zole: the soloist's band, ``extra`` points (a take's buried cards) counted for
    him. ``sixty_wins`` is the wrong rule (60–60 a win), to show the boundary is tested."""

    def final(tricks: Sequence[int], points: Sequence[int]) -> int:
        total = points[soloist] + extra
        value = band(total, tricks[soloist])
        return 2 if sixty_wins and value == 3 and total == 60 else value

    return Game(final, frozenset({0, 1, 2} - {soloist}))  # the defenders want a high band


def small_zole_game(soloist: int) -> Game:
    return Game(
        lambda tricks, points: int(tricks[soloist] > 0),
        frozenset({0, 1, 2} - {soloist}),
        lambda tricks: tricks[soloist] > 0,
    )


def table_game(seat: int, by_points: bool) -> Game:
    return Game(
        lambda tricks, points: table_outcome(seat, tricks, points, by_points),
        frozenset({seat}),
    )


# -- positions ----------------------------------------------------------------------------


def _rules(base: str, **changes: object) -> Rules:
    return Rules.from_dict({**load_rules(base).to_dict(), **changes})


WPT = load_rules("wpt")
LZF = load_rules("lzf")
LZF_SMALL = _rules("lzf", contracts=["take", "zole", "small_zole"])
WPT_BY_POINTS = _rules("wpt", table_loser="points")


def _trumps(state: DealState, seat: int) -> int:
    return sum(1 for n in range(26) if state.hand_mask(seat) >> n & 1 and FOLLOWS[n] == "T")


def _deal(
    rules: Rules, bid: Bid, seed: int, deal_no: int, style: str, rng: random.Random
) -> tuple[DealState, int | None]:
    """A deal bid to ``bid`` (pass for the table game): the soloist is the seat with the most
    trumps for the strong style, the fewest for the weak one, any for random."""
    state = DealState.from_seed(rules, seed, deal_no)
    soloist: int | None = None
    if bid is not Bid.PASS:
        trumps = [_trumps(state, s) for s in range(3)]
        if style == "strong":
            soloist = trumps.index(max(trumps))
        elif style == "weak":
            soloist = trumps.index(min(trumps))
        else:
            soloist = rng.randrange(3)
    while state.phase is Phase.BIDDING:
        state.apply(bid if state.turn == soloist else Bid.PASS)
    if state.phase is Phase.BURYING:
        # strong: bury the two weakest cards (highest numbers), weak: the two strongest
        held = [n for n in range(26) if state.hand_mask(state.turn or 0) >> n & 1]
        if style == "strong":
            pair = held[-2:]
        elif style == "weak":
            pair = held[:2]
        else:
            pair = rng.sample(held, 2)
        state.apply(Bury.of(pair[0], pair[1]))
    assert state.phase is Phase.PLAYING
    return state, soloist


def _pick(state: DealState, soloist: int | None, style: str, rng: random.Random) -> int:
    """The next card: at random, or (most of the time) the soloist's strongest card and the
    defenders' weakest (strong style), or the other way round (weak style)."""
    options = engine_legal(state)
    if style == "random" or soloist is None or rng.random() < 0.1:
        return rng.choice(options)
    # a lower card number is a stronger card of its category
    high = (state.turn == soloist) == (style == "strong")
    return min(options) if high else max(options)


@dataclass
class Playout:
    """One seeded deal played to its end: the positions with 4 to 12 cards in hand (copies)
    and the finished deal."""

    seed: int
    deal_no: int
    style: str
    soloist: int | None
    positions: list[DealState]
    end: DealState


def playout(rules: Rules, bid: Bid, seed: int, deal_no: int, style: str) -> Playout:
    rng = random.Random(f"{seed}:{deal_no}:{style}")
    state, soloist = _deal(rules, bid, seed, deal_no, style, rng)
    positions = []
    while not state.is_terminal:
        left = sum(state.hand_mask(s).bit_count() for s in range(3))
        if 4 <= left <= 12:
            positions.append(state.copy())
        state.apply(CARDS[_pick(state, soloist, style, rng)])
    return Playout(seed, deal_no, style, soloist, positions, state)


def _soloist_result(end: DealState) -> tuple[int, int]:
    """The soloist's tricks and points (a take's buried cards included) at the end."""
    assert end.soloist is not None
    return end.tricks_won[end.soloist], end.points_won[end.soloist] + mask_points(end.buried)


def _table_tie(end: DealState) -> bool:
    by_points = end.rules.table_loser is TableLoser.POINTS
    return table_outcome(0, end.tricks_won, end.points_won, by_points) in (-1, 0, 2)


#: What the deals are chosen for: the style they are played in, and what their playout must
#: end in (so that the late positions are about all tricks, no trick, 60–60 or a tie).
AIMS: dict[str, tuple[str, Callable[[DealState], bool]]] = {
    "all": ("strong", lambda end: _soloist_result(end)[0] == 8),
    "none": ("weak", lambda end: _soloist_result(end)[0] == 0),
    "high": ("strong", lambda end: 91 <= _soloist_result(end)[1] < 120),
    "sixty": ("random", lambda end: _soloist_result(end)[1] == 60),
    "tie": ("random", _table_tie),
    "any": ("random", lambda end: True),
}


def chosen_deals(rules: Rules, bid: Bid, first_seed: int, counts: dict[str, int]) -> list[Playout]:
    """The first deals (from ``first_seed + 1`` on) that serve each aim ``counts`` names, as
    many as it says, with positions to compare. A deterministic scan: the same every run."""
    chosen: list[Playout] = []
    for aim, count in counts.items():
        style, accept = AIMS[aim]
        deal_no = found = 0
        while found < count:
            deal_no += 1
            game = playout(rules, bid, first_seed + deal_no, deal_no, style)
            if game.positions and accept(game.end):
                chosen.append(game)
                found += 1
    return chosen


@dataclass
class Tally:
    """What a comparison saw, so that a test can check it was not vacuous."""

    positions: int = 0
    position_values: set[int] = field(default_factory=set)
    card_values: set[int] = field(default_factory=set)
    not_to_move: int = 0
    partial_tricks: int = 0
    hand_sizes: set[int] = field(default_factory=set)
    tests: int = 0


def _describe(state: DealState, pos: Position, seat: int | None) -> str:
    hands = " | ".join(" ".join(_NAME[c] for c in hand) or "-" for hand in pos.hands)
    trick = " ".join(_NAME[c] for c in pos.trick) or "-"
    return (
        f"deal seed={state.seed} no={state.deal_no} {state.contract} soloist={state.soloist} "
        f"valued seat={seat} leader={pos.leader} hands {hands} trick {trick} "
        f"tricks {pos.tricks} points {pos.points} buried {mask_points(state.buried)}"
    )


def compare(
    solver: Solver,
    context: str,
    state: DealState,
    game: Game,
    tally: Tally,
    problems: list[str],
    rng: random.Random,
    seat: int | None = None,
) -> tuple[Position, int]:
    """Compare the solver with the brute force on one position: every legal card of the seat
    to move (in a shuffled order) and the position as it stands; in the table game also the
    test of each outcome (asked first, as the bids' comparisons ask it)."""
    pos = position_of(state)
    expected_cards, expected = brute_force(game, pos)
    if state.contract is Contract.TABLE:
        valued = seat if seat is not None else pos.mover
        tests = [solver.table_at_least(context, state, valued, k) for k in range(-3, 4)]
        if tests != [expected >= k for k in range(-3, 4)]:
            problems.append(f"{_describe(state, pos, seat)}: tests {tests}, value {expected}")
        tally.tests += 1
    cards = list(expected_cards)
    rng.shuffle(cards)
    got_cards = solver.values(context, state, cards, seat=seat)
    got = solver.values(context, state, (), seat=seat)
    want_cards = tuple(expected_cards[c] for c in cards)
    if got_cards != want_cards or got != (expected,):
        problems.append(
            f"{_describe(state, pos, seat)}: cards {[_NAME[c] for c in cards]} expected "
            f"{want_cards} got {got_cards}; position expected {expected} got {got}"
        )
    tally.positions += 1
    tally.position_values.add(expected)
    tally.card_values.update(want_cards)
    tally.not_to_move += seat is not None and seat != pos.mover
    tally.partial_tricks += bool(pos.trick)
    tally.hand_sizes.add(len(pos.hands[pos.mover]))
    return pos, expected


def _no_problems(problems: list[str]) -> None:
    assert not problems, f"{len(problems)} disagreements:\n" + "\n".join(problems[:10])


# -- the comparisons ----------------------------------------------------------------------


def test_the_brute_force_rules_match_the_worked_cases() -> None:
    """docs/rules.md §6, so that a disagreement below is the solver's, not this file's."""
    n = {name: i for i, name in enumerate(_NAME)}

    def legal(led: str, hand: str) -> set[str]:
        return {_NAME[c] for c in legal_cards([n[h] for h in hand.split()], [n[led]])}

    assert legal("KC", "QC JC 9H") == {"QC", "JC", "9H"}
    assert legal("KH", "JH 9H AS") == {"9H"}
    assert legal("7D", "QS AH") == {"QS"}
    assert legal("AH", "7D KS") == {"7D", "KS"}
    assert legal("QD", "JC QC") == {"JC", "QC"}
    for trick, place, worth in (
        ("9S AH TH", 0, 21),
        ("KS TS 9S", 1, 14),
        ("JC QD AD", 1, 16),
        ("AH TH 7D", 2, 21),
    ):
        cards = [n[c] for c in trick.split()]
        assert (trick_winner(cards), sum(POINTS[c] for c in cards)) == (place, worth)
    assert sum(POINTS) == 120
    # the table game of §6: A 4 tricks 32 points, B 4 / 85, C 0 / 0; B loses alone
    assert [table_outcome(s, (4, 4, 0), (32, 85, 0), False) for s in range(3)] == [1, -2, 1]
    assert [table_outcome(s, (4, 4, 0), (32, 85, 0), True) for s in range(3)] == [1, -2, 1]
    assert [table_outcome(s, (3, 3, 2), (40, 40, 40), True) for s in range(3)] == [0, 0, 0]
    assert [table_outcome(s, (3, 3, 2), (50, 50, 20), False) for s in range(3)] == [-1, -1, 2]
    boundaries = {(61, 3): 2, (60, 3): 3, (90, 5): 2, (91, 5): 1, (30, 1): 4, (31, 1): 3}
    assert {key: band(*key) for key in boundaries} == boundaries
    assert [band(21, 0), band(120, 7), band(100, 8)] == [5, 1, 0]


def _context(game: Playout, seat: int) -> str:
    return f"{game.seed}:{game.deal_no}:{game.style}:{seat}"


def test_take_values_match_the_brute_force() -> None:
    """Takes: the buried cards and the tricks already won count for the soloist; every band
    comes up, and the 60–60 boundary and the buried points decide some positions."""
    problems: list[str] = []
    tally = Tally()
    sixty_decides = buried_decides = 0
    rng = random.Random(1)
    deals = chosen_deals(
        WPT, Bid.TAKE, 1000, {"all": 5, "none": 5, "high": 4, "sixty": 5, "any": 5}
    )
    with Solver() as solver:
        for deal in deals:
            soloist = deal.soloist
            assert soloist is not None
            buried = mask_points(deal.end.buried)
            game = soloist_game(soloist, buried)
            for state in deal.positions:
                assert state.contract is Contract.TAKE
                pos, value = compare(
                    solver, _context(deal, soloist), state, game, tally, problems, rng
                )
                if sixty_decides < 3:
                    sixty = soloist_game(soloist, buried, sixty_wins=True)
                    sixty_decides += value_of(sixty, pos) != value
                if buried_decides < 10:
                    buried_decides += value_of(soloist_game(soloist, 0), pos) != value
    _no_problems(problems)
    assert tally.positions >= 150
    assert tally.position_values == {0, 1, 2, 3, 4, 5}
    assert tally.partial_tricks >= 50 and tally.hand_sizes == {2, 3, 4}
    assert sixty_decides >= 3 and buried_decides >= 10, (sixty_decides, buried_decides)


def test_zole_values_match_the_brute_force() -> None:
    """Zoles: the talon's points are the defenders', not the soloist's."""
    problems: list[str] = []
    tally = Tally()
    talon_decides = 0
    rng = random.Random(2)
    deals = chosen_deals(LZF, Bid.ZOLE, 2000, {"all": 3, "none": 3, "sixty": 3, "any": 3})
    with Solver() as solver:
        for deal in deals:
            soloist = deal.soloist
            assert soloist is not None
            game = soloist_game(soloist, 0)
            with_talon = soloist_game(soloist, mask_points(deal.end.talon))
            for state in deal.positions:
                assert state.contract is Contract.ZOLE
                pos, value = compare(
                    solver, _context(deal, soloist), state, game, tally, problems, rng
                )
                if talon_decides < 3:
                    talon_decides += value_of(with_talon, pos) != value
    _no_problems(problems)
    assert tally.positions >= 80
    assert tally.position_values == {0, 1, 2, 3, 4, 5}
    assert talon_decides >= 3, talon_decides


def test_small_zole_values_match_the_brute_force() -> None:
    """Small zoles: the deal stops at the soloist's first trick; both outcomes come up."""
    assert Contract.SMALL_ZOLE in LZF_SMALL.contracts
    problems: list[str] = []
    tally = Tally()
    rng = random.Random(3)
    deals = chosen_deals(LZF_SMALL, Bid.SMALL_ZOLE, 3000, {"none": 8, "any": 8})
    with Solver() as solver:
        for deal in deals:
            soloist = deal.soloist
            assert soloist is not None
            game = small_zole_game(soloist)
            for state in deal.positions:
                assert state.contract is Contract.SMALL_ZOLE
                compare(solver, _context(deal, soloist), state, game, tally, problems, rng)
    _no_problems(problems)
    assert tally.positions >= 60
    assert tally.position_values == {0, 1} and tally.card_values == {0, 1}
    assert tally.partial_tricks >= 20


def test_a_small_zole_soloist_ducks() -> None:
    """The smallest case: seat 1 led TH; seat 2 (AS TS) discards; the soloist (seat 0, AH 9H)
    ducks with 9H, then throws AH on seat 1's 9S. He avoids every trick: 0. (Playing AH would
    take the trick: 1.)"""
    n = {name: i for i, name in enumerate(_NAME)}

    def mask(*names: str) -> str:
        return f"{sum(1 << n[name] for name in names):x}"

    hands = f"{mask('AH', '9H')} {mask('9S')} {mask('AS', 'TS')}"
    pos = Position(
        ((n["AH"], n["9H"]), (n["9S"],), (n["AS"], n["TS"])), (n["TH"],), 1, (0,) * 3, (0,) * 3
    )
    game = small_zole_game(0)
    assert value_of(game, pos) == 0
    search = BruteForce(game)
    ducked = Position(
        ((n["AH"], n["9H"]), (n["9S"],), (n["AS"],)), (n["TH"], n["TS"]), 1, (0,) * 3, (0,) * 3
    )
    cards = {card: search.after(ducked, card) for card in (n["AH"], n["9H"])}
    with Solver() as solver:
        # seat 2 to move: the position as it stands, and each card of seat 2
        line = f"s S 0 1 {hands} {n['TH']} 0 0 1 0 0 0 0 0 0 0"
        assert solver.ask(f"{line} -") == (0,)
        assert solver.ask(f"{line} {n['AS']},{n['TS']}") == (0, 0)
        # seat 2 has discarded TS: the soloist to move
        hands2 = f"{mask('AH', '9H')} {mask('9S')} {mask('AS')}"
        line2 = f"s S 0 1 {hands2} {n['TH']},{n['TS']} 0 0 1 0 0 0 0 0 0 0"
        assert (
            solver.ask(f"{line2} {n['AH']},{n['9H']}") == (cards[n["AH"]], cards[n["9H"]]) == (1, 0)
        )
        assert solver.ask(f"{line2} -") == (0,)


#: Two seeded table games (seed, deal number) whose random playout ends with all three seats
#: on equal points: found by scanning 20,000 deals, too slow to do here.
THREE_WAY_TIES = ((16313, 10313), (20448, 14448))


@pytest.mark.parametrize("rules", [WPT, WPT_BY_POINTS], ids=["tricks_then_points", "points"])
def test_table_values_match_the_brute_force(rules: Rules) -> None:
    """The table game: each seat's paranoid value, whether or not it is the seat to move;
    deals ending in ties so that shared losses (and, by points, a three-way tie) come up."""
    by_points = rules.table_loser is TableLoser.POINTS
    problems: list[str] = []
    tally = Tally()
    rng = random.Random(4)
    deals = chosen_deals(rules, Bid.PASS, 4000, {"tie": 5, "any": 5})
    if by_points:
        for seed, deal_no in THREE_WAY_TIES:
            deals.append(playout(rules, Bid.PASS, seed, deal_no, "random"))
            points = deals[-1].end.points_won
            assert points[0] == points[1] == points[2], points
    with Solver() as solver:
        for deal in deals:
            for seat in range(3):
                game = table_game(seat, by_points)
                for state in deal.positions:
                    assert state.contract is Contract.TABLE
                    context = _context(deal, seat)
                    compare(solver, context, state, game, tally, problems, rng, seat=seat)
    _no_problems(problems)
    assert tally.positions >= 250 and tally.not_to_move >= 150 and tally.partial_tricks >= 150
    assert tally.tests == tally.positions
    outcomes = {-2, -1, 0, 1, 2} if by_points else {-2, -1, 1, 2}
    assert tally.position_values == outcomes and tally.card_values == outcomes


# -- refusals -----------------------------------------------------------------------------


def _table_state() -> DealState:
    """The first position of a seeded table game with 3 cards a hand and a card led where the
    seat to move must follow (it holds cards of the led category and others)."""
    for deal in chosen_deals(WPT, Bid.PASS, 5000, {"any": 20}):
        for state in deal.positions:
            trick = state.current_trick_cards()
            hand = state.hand_mask(state.turn or 0)
            if len(trick) == 1 and hand.bit_count() == 3 and hand != state.legal_cards_mask():
                return state
    raise AssertionError("no such position in 20 deals")


def test_malformed_requests_get_a_clear_error_and_the_solver_goes_on() -> None:
    state = _table_state()
    pos = position_of(state)
    hand = pos.hands[pos.mover]
    illegal = [c for c in hand if c not in pos.legal()]
    with Solver() as solver:
        with pytest.raises(SolverError, match="expected 19 fields"):
            solver.ask("x P 0 0 1 2 3 - 0 0 0")
        with pytest.raises(SolverError, match="not legal"):
            solver.values("t", state, [illegal[0]])
        with pytest.raises(SolverError, match="not legal"):
            solver.values("t", state, [next(c for c in range(26) if c not in hand)])
        with pytest.raises(SolverError, match="two hands"):
            solver.ask("x P 0 0 3 3 c - 0 0 0 0 0 0 0 0 0 0 -")
        with pytest.raises(SolverError, match="trick card is also held"):
            solver.ask("x T 0 0 6 18 60 1 0 0 0 0 0 0 0 0 0 0 -")
        with pytest.raises(SolverError, match="hand sizes"):
            solver.ask("x T 0 0 7 18 60 - 0 0 0 0 0 0 0 0 0 0 -")
        with pytest.raises(SolverError, match="malformed"):
            solver.ask("x Q 0 0 3 c 30 - 0 0 0 0 0 0 0 0 0 0 -")
        with pytest.raises(SolverError, match="malformed"):
            solver.ask("x T 0 0 zz c 30 - 0 0 0 0 0 0 0 0 0 0 -")
        # still answering, and rightly, after the refusals
        cards, value = brute_force(table_game(1, False), pos)
        assert solver.values("t2", state, list(cards), seat=1) == tuple(cards.values())
        assert solver.values("t2", state, (), seat=1) == (value,)
        assert solver.requests == 10


def test_the_program_answers_bad_lines_without_hanging() -> None:
    """Garbage of every kind, straight to the program: one refusal per line, then a good
    answer, and the program ends at the end of its input."""
    lines = [
        "x",
        "x P 0 0 1 2 3 - 0 0 0",
        "x P 9 0 3 c 30 - 0 0 0 0 0 0 0 0 0 0 -",
        "x P 0 0 3 c 30 - 121 0 0 0 0 0 0 0 0 0 -",
        "x P 0 0 3 c 30 1,2,3,4 0 0 0 0 0 0 0 0 0 0 -",
        "x P 0 0 3 c 30 - 0 0 0 9 0 0 0 0 0 0 -",
        "x P 0 0 3 c 30 - 0 0 0 0 0 0 0 0 0 0 26",
        "x P 0 0 4000000 c 30 - 0 0 0 0 0 0 0 0 0 0 -",
        "x P 0 0 3 c 30 - 0 0 0 0 0 0 0 0 0 0 " + "0," * 5000 + "0",
        # the soloist, seat 0, holds QC QS (seat 1 QH QD, seat 2 JC JS) and leads: he takes
        # both last tricks, 16 points with base 0, not all tricks (ALL 0): band 4
        "x P 0 0 3 c 30 - 0 0 0 0 0 0 0 0 0 0 -",
    ]
    proc = subprocess.run(
        [str(solver_program())],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    answers = proc.stdout.splitlines()
    assert len(answers) == len(lines), answers
    assert all(a.startswith("? ") and len(a) > 3 for a in answers[:-1]), answers
    assert answers[-1] == "= 4", answers
