"""Tables of four: the worked cases of docs/rules.md §8, read from the page and checked row by
row against the scoring (scoring.py with ``players=4``, table.py) and the big points
(stats/bigpoints.py)."""

from __future__ import annotations

import dataclasses
import random
import re
from fractions import Fraction
from pathlib import Path

import pytest

from zole_arena.game.actions import Contract
from zole_arena.game.rules import load_rules
from zole_arena.game.scoresheet import ScoreSheet
from zole_arena.game.scoring import (
    Pules,
    score_soloist,
    score_table,
    score_table_of,
)
from zole_arena.game.state import DealResult, DealState
from zole_arena.game.table import (
    END_PULE_PAYMENT,
    Seating,
    TableSheet,
    pules_after_all_pass,
    score_at_table,
    settle_pules,
)
from zole_arena.stats.bigpoints import big_points

PAGE = Path(__file__).resolve().parents[1] / "docs" / "rules.md"
SEATS = "ABCD"
CONTRACTS = {"take": Contract.TAKE, "zole": Contract.ZOLE, "smallzole": Contract.SMALL_ZOLE}


def _section() -> str:
    text = PAGE.read_text(encoding="utf-8")
    return text[text.index("## 8. Tables of four") :]


def _rows(header: str) -> list[list[str]]:
    """The body rows of the section's table whose header row starts with ``header``."""
    lines = _section().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"| {header}"))
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def _number(text: str) -> Fraction:
    text = text.replace("−", "-").replace("+", "").replace("½", "1/2")
    return Fraction(text)


def _pules(text: str) -> Pules:
    if text == "–":
        return Pules()
    common, personal = 0, ()
    for part in text.split(";"):
        word, value = part.split()
        if word == "common":
            common = int(value)
        else:
            personal = tuple(SEATS.index(s) for s in value.split(","))
    return Pules(common, personal)


SCORE_ROWS = _rows("case")
POINT_ROWS = _rows("round points")


def test_the_page_has_every_kind_of_case() -> None:
    deals = {row[2].split()[0] for row in SCORE_ROWS}
    assert deals == {"take", "zole", "smallzole", "table", "pass", "end"}
    assert len(SCORE_ROWS) == 12 and len(POINT_ROWS) == 9


@pytest.mark.parametrize("row", SCORE_ROWS, ids=[row[0] for row in SCORE_ROWS])
def test_a_worked_case_of_a_table_of_four(row: list[str]) -> None:
    _, rules_name, deal, before_text, *scores_text, after_text = row
    rules = load_rules(rules_name.split("+")[0])
    before = _pules(before_text)
    expected = tuple(int(_number(s)) for s in scores_text)
    seating = Seating(4, dealer=3)
    assert seating.sitting_out == 3 and seating.players == (0, 1, 2)
    words = deal.split()
    if words[0] in CONTRACTS:
        points, tricks = (int(n) for n in words[2].split("/"))
        soloist = SEATS.index(words[1])
        score = score_soloist(rules, CONTRACTS[words[0]], soloist, points, tricks, before, 4)
        scores, after = score.scores, score.pules
    elif words[0] == "table":
        losers = tuple(SEATS.index(s) for s in words[1].split(","))
        scores, after = score_table_of(rules, losers, 4), before
    elif words[0] == "pass":
        after, event = pules_after_all_pass(before, 4)
        scores = (0, 0, 0, 0)
        assert event.startswith("all passed: ")
    else:
        scores, after = settle_pules(before, 4, 1), Pules()
    assert scores == expected
    assert sum(scores) == 0
    assert after == _pules(after_text)


@pytest.mark.parametrize("row", POINT_ROWS, ids=[row[0] for row in POINT_ROWS])
def test_big_points_of_a_worked_table(row: list[str]) -> None:
    totals = [int(_number(s)) for s in re.sub(r"\(.*\)", "", row[0]).split(",")]
    expected = tuple(_number(s) for s in row[1].split(","))
    assert big_points(totals) == expected


def test_big_points_share_what_the_places_give() -> None:
    """Whatever the ties, a table gives out all its big points (the federation's four-way tie,
    2 each of 12, is the one exception)."""
    for totals in ([5, 5, 1, 1], [3, 2, 2, 2], [4, 4, 4, 1], [9, 9, 1, 1, 1], [0] * 5):
        assert sum(big_points(totals)) == sum((6, 4, 2, 0, 1)[: len(totals)])
    assert sum(big_points([0, 0, 0, 0])) == 8
    assert big_points([1, 2, 3]) == (0, 3, 6)  # a table of three: 6 / 3 / 0
    assert big_points([2, 2, 0]) == (Fraction(9, 2), Fraction(9, 2), 0)
    with pytest.raises(ValueError, match="tables of 3, 4 or 5, not 2"):
        big_points([1, 2])


def test_at_three_the_general_scoring_is_the_deals() -> None:
    """``players=4`` shares its code with the three-player scoring every deal uses: at three
    it gives what the deal engine has always given."""
    rules = load_rules("lzf")
    lost = score_soloist(rules, Contract.TAKE, 1, 55, 4, Pules(1, (0,)))
    assert lost.scores == (2, -4, 2) and lost.pules == Pules(1, (0, 1))
    won = score_soloist(rules, Contract.TAKE, 1, 75, 5, Pules(1, ()))
    assert won.scores == (-2, 4, -2) and won.pules == Pules(0, ())
    assert score_table(load_rules("wpt"), (0, 2)) == score_table_of(load_rules("wpt"), (0, 2), 3)
    assert pules_after_all_pass(Pules(), 3)[0] == Pules(1, ())


def test_a_seating_maps_deal_seats_to_the_table() -> None:
    seating = Seating(4, dealer=1)
    assert seating.players == (2, 3, 0) and seating.sitting_out == 1
    assert seating.deal_dealer == 2
    assert [seating.deal_seat(t) for t in range(4)] == [2, None, 0, 1]
    assert seating.to_table((5, 6, 7)) == (7, 0, 5, 6)
    three = Seating(3, dealer=1)
    assert three.players == (0, 1, 2) and three.sitting_out is None and three.deal_dealer == 1
    for size, dealer in ((5, 0), (4, 4), (3, -1)):
        with pytest.raises(ValueError):
            Seating(size, dealer)
    assert dataclasses.asdict(seating) == {"size": 4, "dealer": 1}


def _play_out(rules_name: str, seed: int, pules: Pules) -> DealResult:
    """A deal of ``rules_name`` played to its end by random legal moves."""
    rng = random.Random(seed)
    rules = load_rules(rules_name)
    if rules_name == "lzf":
        rules = dataclasses.replace(rules, contracts=(*rules.contracts, Contract.SMALL_ZOLE))
    state = DealState.from_seed(rules, seed, 1 + seed % 3, pules=pules)
    while state.result is None:
        state.apply(rng.choice(list(state.legal_actions())))
    return state.result


@pytest.mark.parametrize("rules_name", ["wpt", "lzf"])
def test_at_three_a_deal_scored_for_its_table_is_scored_as_the_deal_scores_itself(
    rules_name: str,
) -> None:
    """Seating of three, every kind of ending, pules of every kind: the table's score is the
    deal engine's own (so the layer for four adds the fourth player and nothing else)."""
    rules = load_rules(rules_name)
    seen: set[object] = set()
    for seed in range(600):
        pules = (Pules(), Pules(1, ()), Pules(0, (seed % 3,)), Pules(2, (0, 2, 0)))[seed % 4]
        result = _play_out(rules_name, seed, pules)
        table = score_at_table(rules, Seating(3, seed % 3), result, pules)
        assert table.scores == result.scores
        assert table.pules == result.pules and table.pule_event == result.pule_event
        seen.add(result.contract)
    kinds = (
        {Contract.TAKE, Contract.TABLE} if rules_name == "wpt" else set(Contract) - {Contract.TABLE}
    )
    assert seen == kinds


def test_at_four_the_one_who_sits_out_pays_and_collects_as_a_defender() -> None:
    """Random deals at a table of four: zero-sum; the dealer's change is a defender's (the
    table game: a non-loser's); the deal's players keep their order around the table."""
    rules = load_rules("lzf")
    for seed in range(300):
        result = _play_out("lzf", seed, Pules(seed % 2, ()))
        seating = Seating(4, dealer=seed % 4)
        table = score_at_table(rules, seating, result, Pules(seed % 2, ()))
        out = seating.sitting_out
        assert out is not None and sum(table.scores) == 0
        if result.soloist is not None and result.forfeit is None:
            soloist = seating.table_seat(result.soloist)
            defender = next(t for t in range(4) if t not in (soloist, out))
            assert table.scores[out] == table.scores[defender]
            assert table.scores[soloist] == -3 * table.scores[out]
        if result.contract is Contract.PULE:
            assert table.pules.common == (seed % 2) + (2 if seed % 2 == 0 else 1)


def _random_moves(deal: DealState, rng: random.Random) -> DealResult:
    while deal.result is None:
        deal.apply(rng.choice(list(deal.legal_actions())))
    return deal.result


def test_a_table_of_three_keeps_the_score_sheet_of_a_match() -> None:
    rules = load_rules("lzf")
    table, sheet = TableSheet(rules, seed=5, size=3), ScoreSheet(rules, seed=5)
    for n in range(30):
        seating, deal = table.next_deal()
        same = sheet.next_deal()
        assert seating.players == (0, 1, 2) and deal.dealer == same.dealer
        assert deal.initial_hands == same.initial_hands and deal.pules == same.pules
        result = _random_moves(deal, random.Random(n))
        table.record(result)
        _random_moves(same, random.Random(n))
        sheet.record_deal(same)
        assert table.totals == sheet.totals and table.pules == sheet.pules


def test_a_round_at_a_table_of_four() -> None:
    """24 deals (a federation round): each seat deals and sits out 6 times, is forehand 6
    times; the totals stay zero-sum, and the pules standing at the end are settled."""
    rules = load_rules("lzf")
    table = TableSheet(rules, seed=11)
    sat_out, forehands = [0] * 4, [0] * 4
    rng = random.Random(1)
    for _ in range(24):
        seating, deal = table.next_deal()
        sat_out[seating.sitting_out or 0] += 1
        forehands[seating.table_seat(deal.forehand)] += 1
        assert deal.pules == Pules()  # the table's pules are the table's
        table.record(_random_moves(deal, rng))
        assert sum(table.totals) == 0
    assert sat_out == [6] * 4 and forehands == [6] * 4
    assert table.seating(1).players == (0, 1, 2) and table.seating(2).sitting_out == 0
    standing = table.pules
    assert standing.personal and any(
        "two common pules" in (r.pule_event or "") for r in table.results
    )
    before = list(table.totals)
    changes = table.settle()
    assert changes == settle_pules(standing, 4, END_PULE_PAYMENT) and sum(changes) == 0
    assert table.totals == [b + c for b, c in zip(before, changes, strict=True)]
    assert table.pules == Pules()
