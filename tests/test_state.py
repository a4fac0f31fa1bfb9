"""The deal state machine, played through the worked cases of zole-rules.md §6."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from zole_arena.errors import IllegalActionError
from zole_arena.game.actions import Action, Bid, Bury, Contract, parse_action
from zole_arena.game.cards import Card, cards, cards_of, mask_of, points_of
from zole_arena.game.rules import Rules, load_rules
from zole_arena.game.scoresheet import ScoreSheet
from zole_arena.game.scoring import NO_PULES, Pules
from zole_arena.game.state import DealState, Phase, dealer_of

WPT = load_rules("wpt")
LZF = load_rules("lzf")
LZF_SMALL = Rules.from_dict({**LZF.to_dict(), "contracts": ["take", "zole", "small_zole"]})
LZF_TABLE = Rules.from_dict({**LZF.to_dict(), "all_pass": "table"})

#: The worked examples' seats: A, B, C are seats 0, 1, 2 (clockwise).
SEATS = {"A": 0, "B": 1, "C": 2}


def make_deal(
    rules: Rules,
    hands: dict[str, str],
    talon: str,
    dealer: str,
    pules: Pules = NO_PULES,
    seats: dict[str, int] = SEATS,
) -> DealState:
    """A deal from hands in notation keyed by seat letter; ``dealer`` is a seat letter."""
    by_seat: list[tuple[Card, ...]] = [(), (), ()]
    for letter, text in hands.items():
        by_seat[seats[letter]] = cards(text)
    return DealState(rules, by_seat, cards(talon), seats[dealer], pules)


def bid_all(state: DealState, *bids: Bid) -> None:
    for bid in bids:
        state.apply(bid)


def play_tricks(
    state: DealState, tricks: Sequence[tuple[str, str]], seats: dict[str, int] = SEATS
) -> None:
    """Play tricks written as ("A:Q♥ B:A♦ C:7♦", winner letter), checking turns and winners."""
    for text, winner in tricks:
        number = len(state.tricks)
        for move in text.split():
            letter, card = move.split(":")
            assert state.turn == seats[letter], f"{move}: seat {state.turn} is to play"
            state.apply(Card.parse(card))
        assert len(state.tricks) == number + 1
        assert state.tricks[-1].winner == seats[winner], text


def play_randomly(state: DealState, rng: random.Random) -> None:
    while state.result is None:
        state.apply(rng.choice(list(state.legal_actions())))


def replay(state: DealState) -> DealState:
    """A fresh deal with the same cards, replaying ``state.history`` with checked actions."""
    fresh = DealState(
        state.rules,
        [cards_of(mask) for mask in state.initial_hands],
        cards_of(state.talon),
        state.dealer,
        state.pules,
    )
    for seat, action in state.history:
        assert fresh.turn == seat
        fresh.apply(action)
    return fresh


# ---------------------------------------------------------------------------------------------
# §6 legal plays. A (seat 0) is the forehand and leads the first trick of a table game; B
# (seat 1) answers. B's other cards are chosen so that they do not change the answer.
# ---------------------------------------------------------------------------------------------


def table_game(hands: dict[str, str], talon: str, rules: Rules = WPT) -> DealState:
    """A deal with A as forehand (C deals) in which all three pass: the table game."""
    state = make_deal(rules, hands, talon, dealer="C")
    bid_all(state, Bid.PASS, Bid.PASS, Bid.PASS)
    assert state.contract is Contract.TABLE
    assert state.phase is Phase.PLAYING
    return state


def test_lead_kc_queen_and_jack_of_clubs_are_trumps() -> None:
    # lead K♣, hand {Q♣, J♣, 9♥}: all three legal (B holds no club)
    state = table_game(
        {
            "A": "KC AC TC 9C QS QH QD JS",
            "B": "QC JC 9H AH TH KH AS TS",
            "C": "JH JD AD TD KD 9D 8D 7D",
        },
        talon="KS 9S",
    )
    state.apply(Card.parse("K♣"))
    legal = state.legal_actions()
    assert set(cards("Q♣ J♣ 9♥")) <= set(legal)
    assert tuple(legal) == state.hand(1)


def test_lead_kc_exact_three_card_hand() -> None:
    # The exact §6 situation at trick 6: B holds only Q♣ J♣ 9♥ when A leads K♣.
    state = table_game(
        {
            "A": "QS QH QD AS TS KC AC TC",
            "B": "QC JC 9H 9S KS 7D 8D 9D",
            "C": "JS JH JD AD TD KD 9C AH",
        },
        talon="TH KH",
    )
    play_tricks(
        state,
        [
            ("A:Q♠ B:7♦ C:J♠", "A"),
            ("A:Q♥ B:8♦ C:J♥", "A"),
            ("A:Q♦ B:9♦ C:J♦", "A"),
            ("A:A♠ B:9♠ C:9♣", "A"),
            ("A:10♠ B:K♠ C:A♥", "A"),
        ],
    )
    state.apply(Card.parse("K♣"))
    assert state.hand(1) == cards("Q♣ J♣ 9♥")
    assert tuple(state.legal_actions()) == cards("Q♣ J♣ 9♥")


def test_lead_kh_only_9h() -> None:
    # lead K♥, hand {J♥, 9♥, A♠}: only 9♥ (J♥ is a trump)
    state = table_game(
        {
            "A": "KH AH TH QC QS QH QD JC",
            "B": "JH 9H AS TS KS 9S AC TC",
            "C": "JS JD AD TD KD 9D 8D 7D",
        },
        talon="KC 9C",
    )
    state.apply(Card.parse("K♥"))
    assert tuple(state.legal_actions()) == cards("9♥")
    with pytest.raises(IllegalActionError, match="must follow"):
        state.apply(Card.parse("J♥"))
    with pytest.raises(IllegalActionError, match="must follow"):
        state.apply(Card.parse("A♠"))
    state.apply(Card.parse("9♥"))
    # C holds no heart: any card
    assert tuple(state.legal_actions()) == state.hand(2)


def test_lead_7d_only_the_queen() -> None:
    # lead 7♦, hand {Q♠, A♥}: only Q♠ (a queen is a trump)
    state = table_game(
        {
            "A": "7D QC QH QD JC JS JH JD",
            "B": "QS AH TH KH AS TS KS AC",
            "C": "AD TD KD 9D 8D 9H 9S TC",
        },
        talon="KC 9C",
    )
    state.apply(Card.parse("7♦"))
    assert tuple(state.legal_actions()) == cards("Q♠")
    with pytest.raises(IllegalActionError, match="must follow trump"):
        state.apply(Card.parse("A♥"))


def test_lead_ah_void_in_hearts_may_trump_or_not() -> None:
    # lead A♥, hand {7♦, K♠}, no hearts: both legal (no duty to trump)
    state = table_game(
        {
            "A": "AH TH KH 9H QC QS QH QD",
            "B": "7D KS AS TS 9S AC TC KC",
            "C": "JC JS JH JD AD TD KD 9D",
        },
        talon="8D 9C",
    )
    state.apply(Card.parse("A♥"))
    legal = state.legal_actions()
    assert set(cards("7♦ K♠")) <= set(legal)
    assert tuple(legal) == state.hand(1)
    state.apply(Card.parse("K♠"))  # not trumping is legal
    assert state.current_trick == cards("A♥ K♠")


def test_lead_qd_no_duty_to_overtake() -> None:
    # lead Q♦, hand {J♣, Q♣}: both legal
    state = table_game(
        {
            "A": "QD QS QH JS JH JD AD TD",
            "B": "QC JC AC TC KC 9C AS TS",
            "C": "KD 9D 8D 7D KS 9S AH TH",
        },
        talon="KH 9H",
    )
    state.apply(Card.parse("Q♦"))
    assert tuple(state.legal_actions()) == cards("Q♣ J♣")
    state.apply(Card.parse("J♣"))  # not overtaking is legal
    assert tuple(state.legal_actions()) == cards("K♦ 9♦ 8♦ 7♦")


# ---------------------------------------------------------------------------------------------
# §6 trick winners (first trick of a table game, A leads)
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hands", "talon", "trick", "winner", "points"),
    [
        (
            {
                "A": "9S AS TS KS QC QS QH QD",
                "B": "AH KH JC JS JH JD AD TD",
                "C": "TH 9H KD 9D 8D 7D AC TC",
            },
            "KC 9C",
            "A:9♠ B:A♥ C:10♥",
            "A",
            21,
        ),
        (
            {
                "A": "KS AS QC QS QH QD JC JS",
                "B": "TS AH TH KH 9H JH JD AD",
                "C": "9S TD KD 9D 8D 7D AC TC",
            },
            "KC 9C",
            "A:K♠ B:10♠ C:9♠",
            "B",
            14,
        ),
        (
            {
                "A": "JC AS TS KS 9S AH TH KH",
                "B": "QD QC QS QH AC TC KC 9C",
                "C": "AD JS JH JD TD KD 9D 8D",
            },
            "7D 9H",
            "A:J♣ B:Q♦ C:A♦",
            "B",
            16,
        ),
        (
            {
                "A": "AH KH 9H QC QS QH QD JC",
                "B": "TH JS JH JD AD TD KD 9D",
                "C": "7D 8D AC TC KC AS TS KS",
            },
            "9C 9S",
            "A:A♥ B:10♥ C:7♦",
            "C",
            21,
        ),
        (
            {
                "A": "KC AC QC QS QH QD JC JS",
                "B": "TC AH TH KH 9H JH JD AD",
                "C": "9C TD KD 9D 8D 7D AS TS",
            },
            "KS 9S",
            "A:K♣ B:10♣ C:9♣",
            "B",
            14,
        ),
    ],
    ids=["9S-AH-10H", "KS-10S-9S", "JC-QD-AD", "AH-10H-7D", "KC-10C-9C"],
)
def test_trick_winners(
    hands: dict[str, str], talon: str, trick: str, winner: str, points: int
) -> None:
    state = table_game(hands, talon)
    play_tricks(state, [(trick, winner)])
    done = state.tricks[0]
    assert done.leader == 0
    assert done.cards == cards(" ".join(move.split(":")[1] for move in trick.split()))
    assert done.points == points
    assert state.tricks_won == tuple(1 if s == SEATS[winner] else 0 for s in range(3))
    assert state.points_won == tuple(points if s == SEATS[winner] else 0 for s in range(3))
    # the winner leads the next trick
    assert state.turn == SEATS[winner]
    assert state.trick_leader == SEATS[winner]


# ---------------------------------------------------------------------------------------------
# §6 full take game (E1)
# ---------------------------------------------------------------------------------------------

E1_HANDS = {
    "A": "J♣ J♠ J♥ J♦ 10♦ 8♦ 9♣ A♥",
    "B": "Q♠ Q♦ A♦ K♦ K♠ 9♠ 10♥ K♥",
    "C": "Q♣ 7♦ A♣ 10♣ K♣ A♠ 10♠ 9♥",
}
E1_TALON = "Q♥ 9♦"
E1_TRICKS = [
    ("A:Q♥ B:A♦ C:7♦", "A"),
    ("A:10♦ B:Q♦ C:Q♣", "C"),
    ("C:10♠ A:J♠ B:K♠", "A"),
    ("A:9♦ B:K♦ C:K♣", "B"),
    ("B:10♥ C:9♥ A:A♥", "A"),
    ("A:J♣ B:Q♠ C:A♠", "B"),
    ("B:K♥ C:10♣ A:8♦", "A"),
    ("A:J♦ B:9♠ C:A♣", "A"),
]


def play_e1(rules: Rules) -> DealState:
    state = make_deal(rules, E1_HANDS, E1_TALON, dealer="C")
    assert state.forehand == 0
    assert state.turn == 0
    state.apply(Bid.TAKE)
    assert state.phase is Phase.BURYING
    assert state.soloist == 0
    assert state.turn == 0
    assert set(state.hand(0)) == set(cards(E1_HANDS["A"] + " " + E1_TALON))
    state.apply(Bury.parse("J♥ 9♣"))
    assert state.phase is Phase.PLAYING
    play_tricks(state, E1_TRICKS)
    return state


@pytest.mark.parametrize(
    ("rules", "scores"), [(LZF, (2, -1, -1)), (WPT, (8, -4, -4))], ids=["lzf", "wpt"]
)
def test_full_take_game(rules: Rules, scores: tuple[int, int, int]) -> None:
    state = play_e1(rules)
    result = state.result
    assert result is not None
    assert state.phase is Phase.DONE
    assert state.turn is None
    assert result.contract is Contract.TAKE
    assert result.soloist == 0
    assert result.tricks == (5, 2, 1)
    assert result.points == (78, 24, 16)
    assert result.soloist_tricks == 5
    assert result.soloist_points == 80  # 78 + 2 buried
    assert result.band == "win"
    assert result.won is True
    assert result.scores == scores
    assert not result.ended_early
    assert state.buried == mask_of(cards("J♥ 9♣"))


# ---------------------------------------------------------------------------------------------
# §6 full table game (E2)
# ---------------------------------------------------------------------------------------------

E2_HANDS = {
    "B": "J♥ J♦ A♦ 10♦ K♦ A♣ 10♣ A♠",
    "C": "J♣ 9♦ 7♦ 9♣ 10♠ 9♠ 10♥ 9♥",
    "A": "Q♣ Q♠ Q♦ J♠ K♣ K♠ A♥ K♥",
}
E2_TALON = "8♦ Q♥"
E2_TRICKS = [
    ("B:A♠ C:10♠ A:K♠", "B"),
    ("B:K♦ C:7♦ A:Q♠", "A"),
    ("A:Q♦ B:J♥ C:J♣", "A"),
    ("A:Q♣ B:J♦ C:9♦", "A"),
    ("A:K♣ B:10♣ C:9♣", "B"),
    ("B:A♦ C:9♥ A:J♠", "A"),
    ("A:A♥ B:10♦ C:10♥", "B"),
    ("B:A♣ C:9♠ A:K♥", "B"),
]


def play_e2(rules: Rules) -> DealState:
    state = make_deal(rules, E2_HANDS, E2_TALON, dealer="A")  # B is forehand
    assert state.forehand == 1
    for seat in (1, 2, 0):
        assert state.turn == seat
        state.apply(Bid.PASS)
    assert state.contract is Contract.TABLE
    assert state.turn == 1
    play_tricks(state, E2_TRICKS)
    return state


@pytest.mark.parametrize(
    "rules",
    [WPT, LZF_TABLE, Rules.from_dict({**WPT.to_dict(), "table_loser": "points"})],
    ids=["wpt", "lzf-table", "wpt-by-points"],
)
def test_full_table_game(rules: Rules) -> None:
    state = play_e2(rules)
    result = state.result
    assert result is not None
    assert result.contract is Contract.TABLE
    assert result.soloist is None
    assert result.won is None
    assert result.tricks == (4, 4, 0)
    assert result.points == (32, 85, 0)
    assert sum(result.points) == 120 - points_of(mask_of(cards(E2_TALON)))
    assert result.losers == (1,)
    assert result.scores == (2, -4, 2)
    # the talon is not used
    played = {card for trick in state.tricks for card in trick.cards}
    assert not played & set(cards(E2_TALON))


# ---------------------------------------------------------------------------------------------
# E3: small zole ending at the soloist's first trick
# ---------------------------------------------------------------------------------------------

E3_HANDS = {
    "C": "Q♠ J♣ K♦ 7♦ A♣ 10♣ A♥ 9♥",
    "A": "Q♦ J♠ 10♦ 9♦ 9♣ 10♠ 10♥ K♥",
    "B": "Q♣ Q♥ J♥ J♦ 8♦ K♣ K♠ 9♠",
}
E3_TALON = "A♦ A♠"  # the two cards no hand holds


def test_small_zole_ends_at_the_soloists_first_trick() -> None:
    state = make_deal(LZF_SMALL, E3_HANDS, E3_TALON, dealer="B")  # C is forehand
    assert state.turn == 2
    state.apply(Bid.PASS)  # C
    state.apply(Bid.PASS)  # A
    assert Bid.SMALL_ZOLE in state.legal_actions()
    state.apply(Bid.SMALL_ZOLE)  # B
    assert state.contract is Contract.SMALL_ZOLE
    assert state.soloist == 1
    assert state.phase is Phase.PLAYING
    assert state.turn == 2  # the forehand leads
    assert len(state.hand(1)) == 8  # no talon
    play_tricks(state, [("C:J♣ A:10♦ B:Q♥", "B")])
    result = state.result
    assert result is not None
    assert state.phase is Phase.DONE
    assert result.ended_early
    assert result.scores == (7, -14, 7)
    assert result.band == "loss"
    assert result.soloist_tricks == 1
    assert len(state.tricks) == 1
    assert state.legal_actions() == ()
    with pytest.raises(IllegalActionError, match="over"):
        state.apply(Card.parse("Q♠"))


def test_small_zole_won_without_a_trick_plays_all_eight() -> None:
    # B holds the lowest cards of every category: he can never win a trick, however it is played
    hands = {
        "A": "QC QS QH QD JC JS AC TC",
        "B": "7D 8D 9D 9C KC 9S KS 9H",
        "C": "JH JD AD TD KD AS TS AH",
    }
    rng = random.Random(0)
    for _ in range(20):
        state = make_deal(LZF_SMALL, hands, "TH KH", dealer="C")
        bid_all(state, Bid.PASS, Bid.SMALL_ZOLE)
        assert state.turn == 0
        play_randomly(state, rng)
        result = state.result
        assert result is not None
        assert len(state.tricks) == 8
        assert not result.ended_early
        assert result.soloist_tricks == 0
        assert result.band == "win"
        assert result.scores == (-6, 12, -6)


def test_small_zole_ends_early_only_before_the_last_trick() -> None:
    rng = random.Random(0)
    for _ in range(300):
        state = make_deal(LZF_SMALL, E3_HANDS, E3_TALON, dealer="B")
        bid_all(state, Bid.PASS, Bid.PASS, Bid.SMALL_ZOLE)
        play_randomly(state, rng)
        result = state.result
        assert result is not None
        assert result.soloist_tricks == 1  # the deal stops at his first trick
        assert state.tricks[-1].winner == 1
        assert all(t.winner != 1 for t in state.tricks[:-1])
        assert result.ended_early == (len(state.tricks) < 8)
        assert result.scores == (7, -14, 7)


def test_small_zole_not_allowed_unless_switched_on() -> None:
    state = make_deal(LZF, E3_HANDS, E3_TALON, dealer="B")
    assert Bid.SMALL_ZOLE not in state.legal_actions()
    with pytest.raises(IllegalActionError, match="smallzole"):
        state.apply(Bid.SMALL_ZOLE)


# ---------------------------------------------------------------------------------------------
# Pules through the deal state and the score sheet (§6 pule example)
# ---------------------------------------------------------------------------------------------

#: The E1 deal played so that A, taking, ends with 73 + 2 buried = 75.
E1_TRICKS_75 = [
    ("A:10♦ B:Q♠ C:Q♣", "C"),
    ("C:A♣ A:A♥ B:K♦", "B"),
    ("B:10♥ C:9♥ A:J♠", "A"),
    ("A:9♦ B:Q♦ C:7♦", "B"),
    ("B:A♦ C:10♠ A:J♦", "A"),
    ("A:8♦ B:K♥ C:K♣", "A"),
    ("A:Q♥ B:K♠ C:10♣", "A"),
    ("A:J♣ B:9♠ C:A♠", "A"),
]


def test_all_pass_writes_a_common_pule_then_a_take_clears_it() -> None:
    sheet = ScoreSheet(LZF, seed=20261129)
    first = sheet.next_deal()
    assert first.dealer == 2
    bid_all(first, Bid.PASS, Bid.PASS, Bid.PASS)
    result = first.result
    assert result is not None
    assert result.contract is Contract.PULE
    assert result.scores == (0, 0, 0)
    assert result.pules == Pules(1, ())
    assert first.tricks == ()
    assert first.legal_actions() == ()
    sheet.record_deal(first)
    assert sheet.totals == [0, 0, 0]
    assert sheet.pules == Pules(1, ())

    second = sheet.next_deal()
    assert second.pules == Pules(1, ())
    assert second.dealer == 0  # the deal passes to the left
    # The next deal: a take that wins with 75. Its cards are the E1 deal, placed so that the
    # taker A sits at deal 2's forehand (seat 1).
    seats = {"A": 1, "B": 2, "C": 0}
    state = make_deal(LZF, E1_HANDS, E1_TALON, dealer="C", pules=sheet.pules, seats=seats)
    state.apply(Bid.TAKE)
    state.apply(Bury.parse("J♥ 9♣"))
    play_tricks(state, E1_TRICKS_75, seats=seats)
    taken = state.result
    assert taken is not None
    assert taken.soloist_points == 75
    assert taken.scores == (-2, 4, -2)  # +4 / -2 / -2
    assert taken.pules == NO_PULES
    sheet.record(taken)
    assert sheet.totals == [-2, 4, -2]
    assert sheet.pules == NO_PULES


def test_take_winning_with_75_clears_the_common_pule() -> None:
    state = make_deal(LZF, E1_HANDS, E1_TALON, dealer="C", pules=Pules(1, ()))
    state.apply(Bid.TAKE)
    state.apply(Bury.parse("J♥ 9♣"))
    play_tricks(state, E1_TRICKS_75)
    result = state.result
    assert result is not None
    assert (result.soloist_points, result.soloist_tricks, result.band) == (75, 5, "win")
    assert result.scores == (4, -2, -2)
    assert result.pules == NO_PULES
    assert result.pule_event is not None
    # without the pule the same game is the ordinary +2 / -1 / -1
    plain = make_deal(LZF, E1_HANDS, E1_TALON, dealer="C")
    plain.apply(Bid.TAKE)
    plain.apply(Bury.parse("J♥ 9♣"))
    play_tricks(plain, E1_TRICKS_75)
    assert plain.result is not None
    assert plain.result.scores == (2, -1, -1)
    assert plain.result.pule_event is None


def test_losing_take_with_a_pule_standing_gets_a_personal_pule() -> None:
    # B takes the E1 cards; random play until B loses: the common pule stays, B gets one
    rng = random.Random(3)
    for _ in range(200):
        state = make_deal(LZF, E1_HANDS, E1_TALON, dealer="C", pules=Pules(1, ()))
        bid_all(state, Bid.PASS, Bid.TAKE)
        play_randomly(state, rng)
        result = state.result
        assert result is not None
        if not result.won:
            assert result.pules == Pules(1, (1,))
            amount = {"loss": -2, "high_loss": -3, "no_tricks": -4}[result.band or ""]
            assert result.scores == (-amount, 2 * amount, -amount)
            return
        assert result.pules == NO_PULES
    pytest.fail("B never lost")


def test_pules_in_a_table_game_stay_untouched() -> None:
    state = make_deal(LZF_TABLE, E2_HANDS, E2_TALON, dealer="A", pules=Pules(2, (0,)))
    bid_all(state, Bid.PASS, Bid.PASS, Bid.PASS)
    play_tricks(state, E2_TRICKS)
    assert state.result is not None
    assert state.result.pules == Pules(2, (0,))
    assert state.result.scores == (2, -4, 2)


def test_second_all_pass_adds_a_second_common_pule() -> None:
    state = DealState.from_seed(LZF, 5, 2, pules=Pules(1, (2,)))
    bid_all(state, Bid.PASS, Bid.PASS, Bid.PASS)
    assert state.result is not None
    assert state.result.pules == Pules(2, (2,))
    assert state.result.scores == (0, 0, 0)


# ---------------------------------------------------------------------------------------------
# Zole: no talon for the soloist, the talon's points to the opponents
# ---------------------------------------------------------------------------------------------


def test_zole_soloist_does_not_get_the_talon() -> None:
    state = make_deal(LZF, E1_HANDS, E1_TALON, dealer="C")
    bid_all(state, Bid.PASS, Bid.ZOLE)
    assert state.contract is Contract.ZOLE
    assert state.soloist == 1
    assert state.phase is Phase.PLAYING  # no burying
    assert state.hand(1) == tuple(sorted(cards(E1_HANDS["B"])))
    assert not set(state.hand(1)) & set(cards(E1_TALON))
    assert state.view(1).talon is None
    assert state.turn == 0  # the forehand leads


def test_zole_all_tricks_although_the_talon_points_go_to_the_opponents() -> None:
    # A holds the eight highest trumps; the talon holds 21 points
    hands = {
        "A": "QC QS QH QD JC JS JH JD",
        "B": "AD TD KD AC TC KC 9C AS",
        "C": "9D 8D 7D TS KS 9S KH 9H",
    }
    state = make_deal(LZF, hands, "AH TH", dealer="C")
    state.apply(Bid.ZOLE)
    rng = random.Random(1)
    while state.result is None:
        if state.turn == 0:
            state.apply(state.legal_actions()[0])
        else:
            state.apply(rng.choice(list(state.legal_actions())))
    result = state.result
    assert result.tricks == (8, 0, 0)
    assert result.soloist_points == 99  # 120 minus the talon's 21
    assert result.band == "all_tricks"
    assert result.scores == (14, -7, -7)


ZOLE_HANDS = {
    "A": "QC QS JC JS AD TD AS TS",
    "B": "QH QD JH JD KD 9D KS 9S",
    "C": "8D 7D AC TC KC 9C KH 9H",
}
ZOLE_TRICKS = [
    ("A:J♠ B:J♥ C:8♦", "A"),
    ("A:A♠ B:9♠ C:K♣", "A"),
    ("A:Q♠ B:Q♥ C:7♦", "A"),
    ("A:Q♣ B:9♦ C:9♥", "A"),
    ("A:10♦ B:Q♦ C:10♣", "B"),
    ("B:K♠ C:K♥ A:10♠", "A"),
    ("A:A♦ B:J♦ C:A♣", "B"),
    ("B:K♦ C:9♣ A:J♣", "A"),
]


def test_zole_talon_points_do_not_count_for_the_soloist() -> None:
    # A takes 52 in tricks; with the talon's 21 that would be a win, but it is not his
    state = make_deal(LZF, ZOLE_HANDS, "AH TH", dealer="C")
    state.apply(Bid.ZOLE)
    play_tricks(state, ZOLE_TRICKS)
    result = state.result
    assert result is not None
    assert result.tricks == (6, 2, 0)
    assert result.points == (52, 47, 0)
    assert result.soloist_points == 52
    assert result.band == "loss"
    assert result.scores == (-12, 6, 6)


def test_take_buried_points_count_for_the_soloist() -> None:
    # the same cards as a take: A takes the talon and buries A♥ 10♥ (21 points)
    hands = dict(ZOLE_HANDS)
    state = make_deal(LZF, hands, "AH TH", dealer="C")
    state.apply(Bid.TAKE)
    assert len(state.legal_actions()) == 45
    state.apply(Bury.parse("AH TH"))
    rng = random.Random(7)
    play_randomly(state, rng)
    result = state.result
    assert result is not None
    assert result.soloist_points == result.points[0] + 21
    assert result.soloist_points >= 21


# ---------------------------------------------------------------------------------------------
# Bidding and the forehand
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_bidding_starts_with_the_forehand_and_goes_left(dealer: int) -> None:
    state = DealState.from_seed(WPT, 11, 4, dealer=dealer)
    forehand = (dealer + 1) % 3
    assert state.forehand == forehand
    order = []
    for _ in range(3):
        order.append(state.turn)
        state.apply(Bid.PASS)
    assert order == [forehand, (forehand + 1) % 3, (forehand + 2) % 3]
    assert state.contract is Contract.TABLE
    assert state.turn == forehand  # the forehand leads the table game


@pytest.mark.parametrize("bids", [(Bid.PASS, Bid.TAKE), (Bid.PASS, Bid.PASS, Bid.TAKE)])
def test_forehand_leads_the_first_trick_when_another_seat_takes(bids: tuple[Bid, ...]) -> None:
    state = DealState.from_seed(LZF, 3, 1)  # dealer 2, forehand 0
    bid_all(state, *bids)
    soloist = len(bids) - 1
    assert state.soloist == soloist
    assert state.phase is Phase.BURYING
    assert state.turn == soloist
    state.apply(state.legal_actions()[0])
    assert state.phase is Phase.PLAYING
    assert state.turn == 0
    assert state.trick_leader == 0
    assert tuple(state.legal_actions()) == state.hand(0)


def test_forehand_leads_the_first_trick_of_a_zole() -> None:
    state = DealState.from_seed(LZF, 3, 2)  # dealer 0, forehand 1
    bid_all(state, Bid.PASS, Bid.ZOLE)
    assert state.soloist == 2
    assert state.turn == 1


def test_first_non_pass_ends_bidding() -> None:
    state = DealState.from_seed(LZF, 3, 1)
    state.apply(Bid.TAKE)
    assert state.bids == [(0, Bid.TAKE)]
    assert state.phase is Phase.BURYING


def test_legal_bids_per_preset() -> None:
    assert tuple(DealState.from_seed(WPT, 1, 1).legal_actions()) == (Bid.PASS, Bid.TAKE)
    assert tuple(DealState.from_seed(LZF, 1, 1).legal_actions()) == (Bid.PASS, Bid.TAKE, Bid.ZOLE)
    assert tuple(DealState.from_seed(LZF_SMALL, 1, 1).legal_actions()) == (
        Bid.PASS,
        Bid.TAKE,
        Bid.ZOLE,
        Bid.SMALL_ZOLE,
    )


# ---------------------------------------------------------------------------------------------
# Illegal actions
# ---------------------------------------------------------------------------------------------


def assert_illegal(state: DealState, action: Action, *words: str) -> None:
    """``action`` is refused, the message names it and the reason, and nothing changed."""
    before = (state.history, state.turn, state.phase, [state.hand(s) for s in range(3)])
    with pytest.raises(IllegalActionError) as info:
        state.apply(action)
    message = str(info.value)
    assert str(action) in message
    for word in words:
        assert word in message, message
    assert "\n" not in message
    assert isinstance(info.value, ValueError)
    after = (state.history, state.turn, state.phase, [state.hand(s) for s in range(3)])
    assert after == before


def test_illegal_card_not_in_hand() -> None:
    state = make_deal(WPT, E1_HANDS, E1_TALON, dealer="C")
    bid_all(state, Bid.PASS, Bid.PASS, Bid.PASS)
    assert_illegal(state, Card.parse("Q♠"), "not in the hand")  # B's card, A to play
    assert_illegal(state, Card.parse("Q♥"), "not in the hand")  # in the unused talon


def test_illegal_must_follow() -> None:
    state = make_deal(WPT, E1_HANDS, E1_TALON, dealer="C")
    bid_all(state, Bid.PASS, Bid.PASS, Bid.PASS)
    state.apply(Card.parse("A♥"))
    assert_illegal(state, Card.parse("Q♠"), "must follow", "H")  # B holds 10♥ K♥
    state.apply(Card.parse("K♥"))
    assert_illegal(state, Card.parse("Q♣"), "must follow")  # C holds 9♥


def test_illegal_must_follow_trump() -> None:
    state = make_deal(WPT, E1_HANDS, E1_TALON, dealer="C")
    bid_all(state, Bid.PASS, Bid.PASS, Bid.PASS)
    state.apply(Card.parse("J♣"))
    assert_illegal(state, Card.parse("K♠"), "must follow trump")


def test_illegal_wrong_kind_for_the_phase() -> None:
    state = make_deal(LZF, E1_HANDS, E1_TALON, dealer="C")
    assert_illegal(state, Card.parse("J♣"), "bids allowed")
    assert_illegal(state, Bury.parse("J♣ J♠"), "bids allowed")
    state.apply(Bid.TAKE)
    assert_illegal(state, Bid.PASS, "bury")
    assert_illegal(state, Card.parse("J♣"), "bury")
    state.apply(Bury.parse("J♥ 9♣"))
    assert_illegal(state, Bid.ZOLE, "play a card")
    assert_illegal(state, Bury.parse("J♣ J♠"), "play a card")


def test_illegal_bid_not_in_the_preset() -> None:
    state = make_deal(WPT, E1_HANDS, E1_TALON, dealer="C")
    assert_illegal(state, Bid.ZOLE, "allowed", "pass, take")
    assert_illegal(state, Bid.SMALL_ZOLE, "allowed")


def test_illegal_bury_of_a_card_not_held() -> None:
    state = make_deal(LZF, E1_HANDS, E1_TALON, dealer="C")
    state.apply(Bid.TAKE)
    assert_illegal(state, Bury.parse("J♥ Q♠"), "in the hand")  # Q♠ is B's
    assert_illegal(state, Bury.parse("Q♣ A♣"), "in the hand")
    state.apply(Bury.parse("Q♥ 9♦"))  # the talon cards themselves may be buried
    assert state.buried == mask_of(cards("Q♥ 9♦"))


def test_buried_cards_cannot_be_played() -> None:
    state = make_deal(LZF, E1_HANDS, E1_TALON, dealer="C")
    state.apply(Bid.TAKE)
    state.apply(Bury.parse("J♥ 9♣"))
    assert_illegal(state, Card.parse("J♥"), "not in the hand")
    assert Card.parse("9♣") not in state.legal_actions()


def test_illegal_after_the_deal_is_over() -> None:
    state = play_e1(LZF)
    for action in (Card.parse("J♣"), Bid.PASS, Bury.parse("J♣ J♠")):
        with pytest.raises(IllegalActionError) as info:
            state.apply(action)
        assert str(action) in str(info.value)
        assert "over" in str(info.value)
    assert state.legal_actions() == ()


def test_deal_state_rejects_bad_deals() -> None:
    hands = [cards(E1_HANDS[letter]) for letter in "ABC"]
    with pytest.raises(ValueError):
        DealState(WPT, hands, cards("Q♥"), 2)
    with pytest.raises(ValueError):
        DealState(WPT, [hands[0], hands[1], hands[1]], cards(E1_TALON), 2)
    with pytest.raises(ValueError):
        DealState(WPT, hands, cards(E1_TALON), -1)
    with pytest.raises(ValueError):
        DealState(WPT, [hands[0], hands[1], hands[2][:7]], cards("Q♥ 9♦ A♠"), 2)


def test_deal_state_rejects_a_dealer_that_is_not_a_seat() -> None:
    hands = [cards(E1_HANDS[letter]) for letter in "ABC"]
    with pytest.raises(ValueError, match="dealer"):
        DealState(WPT, hands, cards(E1_TALON), 3)


# ---------------------------------------------------------------------------------------------
# What a seat may see
# ---------------------------------------------------------------------------------------------


def test_views_during_a_take() -> None:
    state = make_deal(LZF, E1_HANDS, E1_TALON, dealer="C")
    talon = cards_of(mask_of(cards(E1_TALON)))
    for seat in range(3):
        view = state.view(seat)
        assert view.seat == seat
        assert view.hand == state.hand(seat)
        assert view.talon is None
        assert view.buried is None
        assert view.forehand == 0
        assert view.dealer == 2
        assert view.legal_actions == ((Bid.PASS, Bid.TAKE, Bid.ZOLE) if seat == 0 else ())
    state.apply(Bid.TAKE)
    soloist = state.view(0)
    assert soloist.phase is Phase.BURYING
    assert soloist.talon == talon
    assert soloist.buried is None
    assert len(soloist.hand) == 10
    assert len(soloist.legal_actions) == 45
    for seat in (1, 2):
        view = state.view(seat)
        assert view.talon is None
        assert view.buried is None
        assert view.hand == state.hand(seat)
        assert view.legal_actions == ()
        assert view.contract is Contract.TAKE
        assert view.soloist == 0
    state.apply(Bury.parse("J♥ 9♣"))
    soloist = state.view(0)
    assert soloist.talon == talon
    assert soloist.buried == cards("J♥ 9♣")
    assert len(soloist.hand) == 8
    assert soloist.legal_actions == state.hand(0)
    for seat in (1, 2):
        assert state.view(seat).talon is None
        assert state.view(seat).buried is None
        assert state.view(seat).legal_actions == ()
    # public information: the unfinished trick and the finished ones
    state.apply(Card.parse("Q♥"))
    view = state.view(2)
    assert view.trick == cards("Q♥")
    assert view.trick_leader == 0
    assert view.legal_actions == ()
    assert state.view(1).legal_actions == tuple(state.legal_actions())
    # nobody's view holds another seat's cards
    for seat in range(3):
        view = state.view(seat)
        others = {c for s in range(3) if s != seat for c in state.hand(s)}
        assert not set(view.hand) & others


def test_views_after_the_deal_show_the_result_but_not_the_talon() -> None:
    state = play_e1(LZF)
    for seat in range(3):
        view = state.view(seat)
        assert view.result == state.result
        assert view.turn is None
        assert view.legal_actions == ()
        assert len(view.tricks) == 8
        assert view.tricks_won == (5, 2, 1)
        assert (view.talon is not None) == (seat == 0)
        assert (view.buried is not None) == (seat == 0)


def test_views_in_a_zole_and_a_table_game_never_show_the_talon() -> None:
    zole = make_deal(LZF, ZOLE_HANDS, "AH TH", dealer="C")
    zole.apply(Bid.ZOLE)
    table = make_deal(WPT, E2_HANDS, E2_TALON, dealer="A")
    bid_all(table, Bid.PASS, Bid.PASS, Bid.PASS)
    for state in (zole, table):
        for seat in range(3):
            assert state.view(seat).talon is None
            assert state.view(seat).buried is None
            assert state.view(seat).hand == state.hand(seat)


# ---------------------------------------------------------------------------------------------
# History, replay, copy
# ---------------------------------------------------------------------------------------------


def small_zole_e3() -> DealState:
    state = make_deal(LZF_SMALL, E3_HANDS, E3_TALON, dealer="B")
    bid_all(state, Bid.PASS, Bid.PASS, Bid.SMALL_ZOLE)
    play_tricks(state, [("C:J♣ A:10♦ B:Q♥", "B")])
    return state


@pytest.mark.parametrize(
    "build",
    [lambda: play_e1(LZF), lambda: play_e1(WPT), lambda: play_e2(WPT), small_zole_e3],
    ids=["take-lzf", "take-wpt", "table", "small-zole"],
)
def test_history_round_trip(build: Any) -> None:
    state: DealState = build()
    fresh = replay(state)
    assert fresh.result == state.result
    assert fresh.tricks == state.tricks
    assert fresh.history == state.history
    assert fresh.buried == state.buried
    assert len(state.history) == state.action_count
    assert state.actions == tuple(action for _, action in state.history)
    # the wire form of every action reads back to the same action
    for _, action in state.history:
        assert parse_action(str(action)) == action


def test_history_of_the_take_game() -> None:
    state = play_e1(LZF)
    history = state.history
    assert history[0] == (0, Bid.TAKE)
    assert history[1] == (0, Bury.parse("J♥ 9♣"))
    assert len(history) == 2 + 24
    assert [seat for seat, _ in history[2:5]] == [0, 1, 2]
    assert [seat for seat, _ in history[8:11]] == [2, 0, 1]  # C led trick 3


def test_history_round_trip_on_random_deals() -> None:
    rng = random.Random(99)
    for rules in (WPT, LZF, LZF_SMALL, LZF_TABLE):
        for deal_no in range(1, 31):
            state = DealState.from_seed(rules, 424242, deal_no)
            play_randomly(state, rng)
            fresh = replay(state)
            assert fresh.result == state.result
            assert fresh.history == state.history


def test_history_mid_deal_replays_to_the_same_state() -> None:
    state = make_deal(LZF, E1_HANDS, E1_TALON, dealer="C")
    state.apply(Bid.TAKE)
    state.apply(Bury.parse("J♥ 9♣"))
    play_tricks(state, E1_TRICKS[:3])
    state.apply(Card.parse("9♦"))
    fresh = replay(state)
    assert fresh.current_trick == cards("9♦")
    assert fresh.turn == state.turn == 1
    assert tuple(fresh.legal_actions()) == tuple(state.legal_actions())
    assert [fresh.hand(s) for s in range(3)] == [state.hand(s) for s in range(3)]


def test_copy_is_independent() -> None:
    state = make_deal(LZF, E1_HANDS, E1_TALON, dealer="C")
    state.apply(Bid.TAKE)
    state.apply(Bury.parse("J♥ 9♣"))
    play_tricks(state, E1_TRICKS[:2])
    twin = state.copy()
    history = state.history
    play_tricks(twin, E1_TRICKS[2:])
    assert twin.result is not None
    assert state.result is None
    assert state.history == history
    assert len(state.tricks) == 2
    assert state.hand(0) != twin.hand(0)
    play_tricks(state, E1_TRICKS[2:])
    assert state.result == twin.result


# ---------------------------------------------------------------------------------------------
# The score sheet
# ---------------------------------------------------------------------------------------------


def test_dealer_of() -> None:
    assert [dealer_of(n) for n in range(1, 8)] == [2, 0, 1, 2, 0, 1, 2]


def play_sheet_deal(sheet: ScoreSheet, rng: random.Random) -> DealState:
    deal = sheet.next_deal()
    play_randomly(deal, rng)
    sheet.record_deal(deal)
    return deal


@pytest.mark.parametrize("rules", [WPT, LZF], ids=["wpt", "lzf"])
def test_score_sheet_dealer_rotation_and_totals(rules: Rules) -> None:
    sheet = ScoreSheet(rules, seed=77)
    rng = random.Random(5)
    expected_totals = [0, 0, 0]
    dealers = []
    for number in range(1, 10):
        assert sheet.next_deal_no == number
        deal = play_sheet_deal(sheet, rng)
        assert deal.deal_no == number
        assert deal.seed == 77
        dealers.append(deal.dealer)
        assert deal.forehand == (deal.dealer + 1) % 3
        assert deal.result is not None
        for seat in range(3):
            expected_totals[seat] += deal.result.scores[seat]
        assert sheet.totals == expected_totals
        assert sheet.pules == deal.result.pules
        assert sheet.deals_played == number
        assert len(sheet.games) == number // 3
    assert dealers[:4] == [2, 0, 1, 2]
    assert dealers == [2, 0, 1] * 3
    assert sum(sheet.totals) == 0


def test_score_sheet_deals_come_from_the_seed() -> None:
    sheet = ScoreSheet(LZF, seed=31337)
    deal = sheet.next_deal()
    reference = DealState.from_seed(LZF, 31337, 1)
    assert deal.initial_hands == reference.initial_hands
    assert deal.talon == reference.talon
    assert deal.dealer == 2


def test_score_sheet_games_of_three_deals() -> None:
    sheet = ScoreSheet(WPT, seed=8)
    rng = random.Random(8)
    for _ in range(7):
        play_sheet_deal(sheet, rng)
    games = sheet.games
    assert [g.number for g in games] == [1, 2]
    for index, game in enumerate(games):
        chunk = sheet.results[3 * index : 3 * index + 3]
        assert game.scores == tuple(sum(r.scores[s] for r in chunk) for s in range(3))
        assert game.winners == tuple(s for s in range(3) if game.scores[s] == max(game.scores))
    won = [0, 0, 0]
    for game in games:
        for seat in game.winners:
            won[seat] += 1
    assert sheet.games_won == tuple(won)


def test_score_sheet_refuses_unfinished_or_foreign_deals() -> None:
    sheet = ScoreSheet(WPT, seed=8)
    deal = sheet.next_deal()
    with pytest.raises(ValueError, match="not finished"):
        sheet.record_deal(deal)
    other = DealState.from_seed(WPT, 8, 2)
    play_randomly(other, random.Random(1))
    with pytest.raises(ValueError, match="not the next deal"):
        sheet.record_deal(other)
    foreign = DealState.from_seed(WPT, 9, 1)
    play_randomly(foreign, random.Random(1))
    with pytest.raises(ValueError, match="not the next deal"):
        sheet.record_deal(foreign)
    assert sheet.deals_played == 0
