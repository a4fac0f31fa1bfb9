"""Scoring: the bands of §3, small zole, pules (§5) and the table game (§4)."""

from __future__ import annotations

from typing import Any

import pytest

from zole_arena.game.actions import Contract
from zole_arena.game.rules import Rules, load_rules
from zole_arena.game.scoring import (
    NO_PULES,
    WINNING_BANDS,
    Band,
    Pules,
    band_of,
    score_soloist,
    score_table,
    table_losers,
)

WPT = load_rules("wpt")
LZF = load_rules("lzf")


def lzf_with(**changes: Any) -> Rules:
    """The lzf preset with some keys changed."""
    return Rules.from_dict({**LZF.to_dict(), **changes})


def wpt_with(**changes: Any) -> Rules:
    return Rules.from_dict({**WPT.to_dict(), **changes})


LZF_SMALL = lzf_with(contracts=["take", "zole", "small_zole"])


def seat_scores(soloist: int, net: int, each: int) -> tuple[int, int, int]:
    """The score vector with the soloist's net and each opponent's change."""
    scores = [each, each, each]
    scores[soloist] = net
    return (scores[0], scores[1], scores[2])


# ---------------------------------------------------------------------------------------------
# Bands (§3)
# ---------------------------------------------------------------------------------------------


def test_the_bands_are_the_rows_of_the_score_tables_with_one_name_each() -> None:
    assert [band.value for band in Band] == [
        "all_tricks", "high_win", "win", "loss", "high_loss", "no_tricks",
    ]  # fmt: skip
    for band in Band:
        assert isinstance(getattr(LZF.zole, band), int)  # a row of every table
        assert band.words and band.condition
    assert len({band.words for band in Band}) == len({band.condition for band in Band}) == 6
    assert Band.HIGH_WIN.words == "a win with more than 90"
    assert {band for band in Band if band.won} == WINNING_BANDS
    assert Band("win") is Band.WIN and f"{Band.WIN}" == "win"  # written as its name


#: (points, tricks, band): every boundary of §3 and §6.
BAND_CASES = [
    (61, 4, "win"),
    (60, 4, "loss"),
    (90, 7, "win"),
    (91, 7, "high_win"),
    (91, 1, "high_win"),
    (31, 1, "loss"),
    (30, 1, "high_loss"),
    (30, 3, "high_loss"),
    (0, 1, "high_loss"),
    (21, 0, "no_tricks"),  # 0 tricks with 21 buried
    (0, 0, "no_tricks"),
    (45, 0, "no_tricks"),
    (120, 7, "high_win"),  # 120 points but the opponents took a 0-point trick
    (120, 8, "all_tricks"),
    (99, 8, "all_tricks"),  # zole: all tricks, the talon's points to the opponents
    (75, 5, "win"),
]


@pytest.mark.parametrize("contract", [Contract.TAKE, Contract.ZOLE])
@pytest.mark.parametrize(("points", "tricks", "band"), BAND_CASES)
def test_band_of_boundaries(contract: Contract, points: int, tricks: int, band: str) -> None:
    assert band_of(contract, points, tricks) == band


def test_band_of_every_point_total() -> None:
    for tricks in range(1, 8):
        for points in range(121):
            expected = (
                "high_win"
                if points >= 91
                else "win"
                if points >= 61
                else "loss"
                if points >= 31
                else "high_loss"
            )
            assert band_of(Contract.TAKE, points, tricks) == expected, (points, tricks)
            assert band_of(Contract.ZOLE, points, tricks) == expected


#: Per opponent, from the tables of §3.
TABLES = {
    ("wpt", Contract.TAKE): {
        "all_tricks": 6,
        "high_win": 5,
        "win": 4,
        "loss": -5,
        "high_loss": -6,
        "no_tricks": -7,
    },
    ("lzf", Contract.TAKE): {
        "all_tricks": 3,
        "high_win": 2,
        "win": 1,
        "loss": -2,
        "high_loss": -3,
        "no_tricks": -4,
    },
    ("lzf", Contract.ZOLE): {
        "all_tricks": 7,
        "high_win": 6,
        "win": 5,
        "loss": -6,
        "high_loss": -7,
        "no_tricks": -8,
    },
}
RULES = {"wpt": WPT, "lzf": LZF}


@pytest.mark.parametrize(("preset", "contract"), list(TABLES))
@pytest.mark.parametrize(("points", "tricks", "band"), BAND_CASES)
@pytest.mark.parametrize("soloist", [0, 1, 2])
def test_every_band_and_boundary_scores_per_table(
    preset: str, contract: Contract, points: int, tricks: int, band: str, soloist: int
) -> None:
    amount = TABLES[preset, contract][band]
    score = score_soloist(RULES[preset], contract, soloist, points, tricks)
    assert score.band == band
    assert score.amount == amount
    assert score.won == (amount > 0)
    assert score.scores == seat_scores(soloist, 2 * amount, -amount)
    assert sum(score.scores) == 0
    assert score.pules == NO_PULES
    assert score.pule_event is None


#: §6, "Scoring boundaries", literally: (points, tricks, soloist net, each opponent).
LZF_TAKE_EXAMPLES = [
    (61, 4, +2, -1),
    (60, 4, -4, +2),
    (90, 6, +2, -1),
    (91, 6, +4, -2),
    (30, 2, -6, +3),
    (21, 0, -8, +4),
    (120, 7, +4, -2),
    (120, 8, +6, -3),
    (31, 2, -4, +2),
]
LZF_ZOLE_EXAMPLES = [
    (61, 4, +10, -5),
    (60, 4, -12, +6),
    (99, 8, +14, -7),
    (0, 0, -16, +8),
    (91, 6, +12, -6),
    (30, 1, -14, +7),
    (90, 6, +10, -5),
    (31, 1, -12, +6),
]
WPT_TAKE_EXAMPLES = [
    (61, 4, +8, -4),
    (60, 4, -10, +5),
    (90, 6, +8, -4),
    (91, 6, +10, -5),
    (31, 2, -10, +5),
    (30, 2, -12, +6),
    (21, 0, -14, +7),
    (120, 7, +10, -5),
    (120, 8, +12, -6),
]


@pytest.mark.parametrize(
    ("rules", "contract", "points", "tricks", "net", "each"),
    [(LZF, Contract.TAKE, *case) for case in LZF_TAKE_EXAMPLES]
    + [(LZF, Contract.ZOLE, *case) for case in LZF_ZOLE_EXAMPLES]
    + [(WPT, Contract.TAKE, *case) for case in WPT_TAKE_EXAMPLES],
)
def test_worked_scoring_boundaries(
    rules: Rules, contract: Contract, points: int, tricks: int, net: int, each: int
) -> None:
    for soloist in range(3):
        score = score_soloist(rules, contract, soloist, points, tricks)
        assert score.scores == seat_scores(soloist, net, each)


@pytest.mark.parametrize(
    ("contract", "soloist", "points", "tricks", "expected"),
    [
        (Contract.TAKE, 0, 28, 3, (-6, 3, 3)),  # E4: lielais jaņi loss, 13 + 15 buried
        (Contract.ZOLE, 2, 21, 1, (7, 7, -14)),  # E5: zole jaņi loss
        (Contract.ZOLE, 0, 0, 0, (-16, 8, 8)),  # E6: zole without a trick
    ],
    ids=["E4", "E5", "E6"],
)
def test_research_replays_e4_to_e6(
    contract: Contract, soloist: int, points: int, tricks: int, expected: tuple[int, int, int]
) -> None:
    assert score_soloist(LZF, contract, soloist, points, tricks).scores == expected


def test_wpt_has_no_zole_or_small_zole() -> None:
    with pytest.raises(ValueError):
        score_soloist(WPT, Contract.ZOLE, 0, 70, 4)
    with pytest.raises(ValueError):
        score_soloist(WPT, Contract.SMALL_ZOLE, 0, 0, 0)


def test_table_values_can_be_overridden() -> None:
    rules = lzf_with(take={**LZF.to_dict()["take"], "win": 2})
    assert score_soloist(rules, Contract.TAKE, 0, 70, 4).scores == (4, -2, -2)
    assert score_soloist(rules, Contract.TAKE, 0, 95, 4).scores == (4, -2, -2)


# ---------------------------------------------------------------------------------------------
# Small zole
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("soloist", [0, 1, 2])
def test_small_zole_won_with_no_trick(soloist: int) -> None:
    score = score_soloist(LZF_SMALL, Contract.SMALL_ZOLE, soloist, 0, 0)
    assert score.band == "win"
    assert score.won
    assert score.scores == seat_scores(soloist, 12, -6)


@pytest.mark.parametrize(("points", "tricks"), [(0, 1), (3, 1), (21, 1), (60, 4), (120, 8)])
def test_small_zole_lost_with_any_trick(points: int, tricks: int) -> None:
    for soloist in range(3):
        score = score_soloist(LZF_SMALL, Contract.SMALL_ZOLE, soloist, points, tricks)
        assert score.band == "loss"
        assert not score.won
        assert score.scores == seat_scores(soloist, -14, 7)


def test_small_zole_band_ignores_points() -> None:
    assert band_of(Contract.SMALL_ZOLE, 0, 0) == "win"
    assert band_of(Contract.SMALL_ZOLE, 0, 1) == "loss"
    assert band_of(Contract.SMALL_ZOLE, 120, 8) == "loss"


# ---------------------------------------------------------------------------------------------
# Zero-sum
# ---------------------------------------------------------------------------------------------

SOME_PULES = [
    NO_PULES,
    Pules(1, ()),
    Pules(2, (1,)),
    Pules(0, (0,)),
    Pules(0, (2, 1)),
    Pules(3, (0, 1, 2)),
]


@pytest.mark.parametrize(
    "rules", [WPT, LZF, LZF_SMALL, lzf_with(personal_pule_bonus=3, common_pule_bonus=2)]
)
def test_every_soloist_score_is_zero_sum(rules: Rules) -> None:
    contracts = [Contract.TAKE]
    if rules.zole is not None:
        contracts.append(Contract.ZOLE)
    if rules.small_zole is not None:
        contracts.append(Contract.SMALL_ZOLE)
    for contract in contracts:
        for pules in SOME_PULES:
            for soloist in range(3):
                for tricks in range(9):
                    for points in range(0, 121, 3):
                        score = score_soloist(rules, contract, soloist, points, tricks, pules)
                        assert sum(score.scores) == 0


# ---------------------------------------------------------------------------------------------
# Pules (§5)
# ---------------------------------------------------------------------------------------------


def test_common_pule_cleared_by_a_winner() -> None:
    # §6: the next deal a take wins with 75 -> +4/-2/-2 and the common pule is cleared
    score = score_soloist(LZF, Contract.TAKE, 0, 75, 5, Pules(1, ()))
    assert score.scores == (4, -2, -2)
    assert score.pules == Pules(0, ())
    assert not score.pules
    assert score.pule_event is not None


def test_only_one_common_pule_is_cleared_per_win() -> None:
    score = score_soloist(LZF, Contract.TAKE, 1, 75, 5, Pules(2, ()))
    assert score.scores == (-2, 4, -2)
    assert score.pules == Pules(1, ())


def test_common_pule_cleared_by_a_zole_winner() -> None:
    score = score_soloist(LZF, Contract.ZOLE, 2, 95, 6, Pules(1, ()))
    assert score.scores == (-7, -7, 14)  # +6 each, +1 extra each
    assert score.pules == NO_PULES


def test_common_pule_bonus_switch() -> None:
    rules = lzf_with(common_pule_bonus=2)
    score = score_soloist(rules, Contract.TAKE, 0, 75, 5, Pules(1, ()))
    assert score.scores == (6, -3, -3)


def test_soloist_losing_while_pules_exist_gets_a_personal_pule() -> None:
    score = score_soloist(LZF, Contract.TAKE, 1, 45, 3, Pules(1, ()))
    assert score.scores == (2, -4, 2)  # the normal loss, no extra
    assert score.pules == Pules(1, (1,))  # the common pule stays
    assert score.pule_event is not None


def test_losing_without_pules_gives_no_personal_pule() -> None:
    score = score_soloist(LZF, Contract.TAKE, 1, 45, 3, NO_PULES)
    assert score.pules == NO_PULES
    assert score.pule_event is None


def test_losing_with_only_personal_pules_standing_adds_another() -> None:
    score = score_soloist(LZF, Contract.TAKE, 0, 20, 2, Pules(0, (2,)))
    assert score.scores == (-6, 3, 3)
    assert score.pules == Pules(0, (2, 0))


def test_personal_pule_cleared_by_its_owner_without_extra() -> None:
    score = score_soloist(LZF, Contract.TAKE, 1, 75, 5, Pules(0, (1,)))
    assert score.scores == (-1, 2, -1)
    assert score.pules == NO_PULES


@pytest.mark.parametrize(("bonus", "expected"), [(2, (4, -3, -1)), (3, (5, -4, -1))])
def test_personal_pule_cleared_by_another_player(
    bonus: int, expected: tuple[int, int, int]
) -> None:
    rules = lzf_with(personal_pule_bonus=bonus)
    score = score_soloist(rules, Contract.TAKE, 0, 75, 5, Pules(0, (1,)))
    assert score.scores == expected  # the owner (seat 1) pays the extra, seat 2 only the game
    assert score.pules == NO_PULES
    assert sum(score.scores) == 0


def test_default_personal_pule_bonus_is_2() -> None:
    assert LZF.personal_pule_bonus == 2
    score = score_soloist(LZF, Contract.TAKE, 2, 75, 5, Pules(0, (0,)))
    assert score.scores == (-3, -1, 4)


def test_clearing_order_own_personal_before_common() -> None:
    score = score_soloist(LZF, Contract.TAKE, 1, 75, 5, Pules(1, (1,)))
    assert score.scores == (-1, 2, -1)
    assert score.pules == Pules(1, ())


def test_clearing_order_common_before_another_players_personal() -> None:
    score = score_soloist(LZF, Contract.TAKE, 0, 75, 5, Pules(1, (1,)))
    assert score.scores == (4, -2, -2)
    assert score.pules == Pules(0, (1,))


def test_clearing_order_oldest_other_personal_pule() -> None:
    score = score_soloist(LZF, Contract.TAKE, 0, 75, 5, Pules(0, (2, 1)))
    assert score.scores == (4, -1, -3)  # seat 2's pule is the oldest
    assert score.pules == Pules(0, (1,))


def test_own_personal_pule_first_even_when_not_the_oldest() -> None:
    score = score_soloist(LZF, Contract.TAKE, 1, 75, 5, Pules(0, (2, 1)))
    assert score.scores == (-1, 2, -1)
    assert score.pules == Pules(0, (2,))


def test_pules_apply_to_zole_by_default() -> None:
    assert not LZF.pules_take_only
    lost = score_soloist(LZF, Contract.ZOLE, 0, 40, 3, Pules(1, ()))
    assert lost.scores == (-12, 6, 6)
    assert lost.pules == Pules(1, (0,))
    small = score_soloist(LZF_SMALL, Contract.SMALL_ZOLE, 0, 0, 0, Pules(1, ()))
    assert small.scores == (14, -7, -7)
    assert small.pules == NO_PULES


def test_pules_take_only_zole_neither_clears_nor_earns() -> None:
    rules = lzf_with(pules_take_only=True, contracts=["take", "zole", "small_zole"])
    pules = Pules(1, (2,))
    won = score_soloist(rules, Contract.ZOLE, 0, 75, 5, pules)
    assert won.scores == (10, -5, -5)
    assert won.pules == pules
    assert won.pule_event is None
    lost = score_soloist(rules, Contract.ZOLE, 0, 40, 3, pules)
    assert lost.scores == (-12, 6, 6)
    assert lost.pules == pules
    small = score_soloist(rules, Contract.SMALL_ZOLE, 1, 0, 0, pules)
    assert small.scores == (-6, 12, -6)
    assert small.pules == pules
    # a take still clears and earns pules
    take = score_soloist(rules, Contract.TAKE, 0, 75, 5, pules)
    assert take.scores == (4, -2, -2)
    assert take.pules == Pules(0, (2,))
    take_lost = score_soloist(rules, Contract.TAKE, 0, 40, 3, pules)
    assert take_lost.pules == Pules(1, (2, 0))


def test_pules_to_dict() -> None:
    assert Pules(2, (1, 0)).to_dict() == {"common": 2, "personal": [1, 0]}
    assert not NO_PULES
    assert Pules(0, (1,))
    assert Pules(1, ())


# ---------------------------------------------------------------------------------------------
# The table game (§4)
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("loser", [0, 1, 2])
def test_table_most_tricks_loses(loser: int) -> None:
    tricks = [2, 2, 2]
    tricks[loser] = 4
    points = [40, 40, 37]
    points[loser] = 20  # fewer points, but the most tricks
    losers = table_losers(WPT, tuple(tricks), tuple(points))
    assert losers == (loser,)
    assert score_table(WPT, losers) == seat_scores(loser, -4, 2)


def test_table_tie_on_tricks_broken_by_points() -> None:
    # §6: A 4 tricks / 32 points, B 4 / 85, C 0 / 0 -> B loses
    losers = table_losers(WPT, (4, 4, 0), (32, 85, 0))
    assert losers == (1,)
    assert score_table(WPT, losers) == (2, -4, 2)


def test_table_complete_tie_of_two() -> None:
    losers = table_losers(WPT, (3, 3, 2), (45, 45, 27))
    assert losers == (0, 1)
    assert score_table(WPT, losers) == (-2, -2, 4)
    assert score_table(WPT, (1, 2)) == (4, -2, -2)


def test_table_complete_tie_of_three() -> None:
    rules = wpt_with(table_loser="points")
    losers = table_losers(rules, (3, 3, 2), (39, 39, 39))
    assert losers == (0, 1, 2)
    assert score_table(rules, losers) == (0, 0, 0)


def test_table_loser_by_points_switch() -> None:
    tricks, points = (4, 3, 1), (20, 60, 37)
    assert table_losers(WPT, tricks, points) == (0,)
    by_points = wpt_with(table_loser="points")
    assert table_losers(by_points, tricks, points) == (1,)
    assert score_table(by_points, (1,)) == (2, -4, 2)


def test_table_payment_switch() -> None:
    rules = wpt_with(table_payment=3)
    assert score_table(rules, (2,)) == (3, 3, -6)
    assert score_table(rules, (0, 2)) == (-3, 6, -3)


def test_table_scores_are_zero_sum() -> None:
    for rules in (WPT, wpt_with(table_payment=3), wpt_with(table_loser="points")):
        for losers in [(0,), (1,), (2,), (0, 1), (0, 2), (1, 2), (0, 1, 2)]:
            assert sum(score_table(rules, losers)) == 0
        for a in range(9):
            for b in range(9 - a):
                tricks = (a, b, 8 - a - b)
                for points in [(40, 40, 37), (0, 60, 57), (117, 0, 0)]:
                    losers = table_losers(rules, tricks, points)
                    assert 1 <= len(losers) <= 3
                    assert sum(score_table(rules, losers)) == 0
