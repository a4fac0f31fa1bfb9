"""Tests of the rating list: the Bradley–Terry fit on hand-made results, the grouping of deal
records into units, and ``zole-arena ratings`` end to end on logs of real matches.

The end-to-end tests play real matches (``python -m zole_arena match … --log``) between bots
of known relative strength — ``rulebot``, a rulebot weakened with its ``Epsilon`` option (half
its decisions random) and ``random`` — and rate their logs through the real command line.
Every bot that draws random numbers gets a ``--seed``, so every log, and so every number
checked here, is the same on every run.
"""

from __future__ import annotations

import csv
import dataclasses
import doctest
import io
import json
import math
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from clihelp import ok, one_line_error, zole, zoles

from zole_arena.errors import ZoleError
from zole_arena.game.shuffle import deal_cards
from zole_arena.records.model import DealRecord, Identity, MatchHeader
from zole_arena.records.reader import read_log
from zole_arena.stats import ratings as ratings_module
from zole_arena.stats.ratings import (
    MIN_UNITS,
    Game,
    RatingError,
    Unit,
    fit_elo,
    rate,
    units_from_records,
)
from zole_arena.stats.tally import ResultTally
from zole_arena.stats.units import deal_keys

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
RULE_BOT = ROOT / "bots" / "rule_bot.py"
RANDOM_BOT = ROOT / "bots" / "random_bot.py"
TIMEOUT = 120
#: 400·log₁₀ 3: the Elo difference at which the stronger player scores 75 %.
ELO_75 = 400 * math.log10(3)

# -- the fit on hand-made results ---------------------------------------------------------------


def wins(first: str, second: str, won: int, lost: int, drawn: int = 0) -> list[Game]:
    """``won`` wins, ``lost`` losses and ``drawn`` draws of ``first`` against ``second``."""
    return (
        [Game(first, second, 1.0)] * won
        + [Game(first, second, 0.0)] * lost
        + [Game(first, second, 0.5)] * drawn
    )


def units_of(games: list[tuple[str, str, int]], repeat: int = 1) -> list[Unit]:
    """Units of two players: (winner, loser, units) each; ``repeat`` copies of the lot."""
    units: list[Unit] = []
    for _ in range(repeat):
        for winner, loser, count in games:
            for _ in range(count):
                units.append(Unit("hand", len(units), {winner: 1, loser: -1}))
    return units


def test_a_75_percent_score_is_about_191_elo() -> None:
    elo = fit_elo(wins("A", "B", 300, 100))
    assert elo["A"] - elo["B"] == pytest.approx(ELO_75, abs=1.0)
    # The same through units and the full rating list.
    listed = rate(units_of([("A", "B", 150), ("B", "A", 50)]), bootstrap=20)
    assert [r.name for r in listed.ratings] == ["A", "B"]
    assert listed.ratings[0].elo - listed.ratings[1].elo == pytest.approx(ELO_75, abs=3.0)


def test_draws_count_as_half_wins() -> None:
    # As many wins as losses, and draws: an even score. 200 wins, 50 losses, 50 draws: 75 %.
    even = fit_elo(wins("A", "B", 20, 20, 40))
    assert even["A"] == pytest.approx(even["B"], abs=1e-6)
    three_quarters = fit_elo(wins("A", "B", 200, 50, 50))
    assert three_quarters["A"] - three_quarters["B"] == pytest.approx(ELO_75, abs=1.5)


def test_known_order_and_differences_of_three_players() -> None:
    # A–B 75 %, B–C 75 %, A–C 90 %: exactly what 191 Elo steps predict (9:1 at 382 Elo).
    games = wins("A", "B", 300, 100) + wins("B", "C", 300, 100) + wins("A", "C", 360, 40)
    elo = fit_elo(games)
    assert sorted(elo, key=elo.__getitem__, reverse=True) == ["A", "B", "C"]
    assert elo["A"] - elo["B"] == pytest.approx(ELO_75, abs=1.5)
    assert elo["B"] - elo["C"] == pytest.approx(ELO_75, abs=1.5)
    assert sum(elo.values()) == pytest.approx(0.0, abs=1e-6)


def test_symmetric_results_give_equal_ratings() -> None:
    games = wins("A", "B", 7, 7, 2) + wins("B", "C", 5, 5) + wins("C", "A", 9, 9, 1)
    elo = fit_elo(games)
    for name in "ABC":
        assert elo[name] == pytest.approx(0.0, abs=0.01)
    # Units in which each of three players tops the others equally often.
    units = [
        Unit("sym", n, dict(zip("ABC", order, strict=True)))
        for n, order in enumerate([(5, 0, -5), (-5, 5, 0), (0, -5, 5)] * 10)
    ]
    listed = rate(units, bootstrap=50)
    for rating in listed.ratings:
        assert rating.elo == pytest.approx(0.0, abs=0.01)
        assert rating.low < 0 < rating.high
    assert listed.ratings[0].los_next is not None
    assert 0.2 < listed.ratings[0].los_next < 0.8


def test_an_undefeated_player_stays_finite() -> None:
    elo = fit_elo(wins("A", "B", 50, 0))
    assert math.isfinite(elo["A"]) and math.isfinite(elo["B"])
    assert elo["A"] - elo["B"] > 400
    listed = rate(units_of([("A", "B", 20)]), bootstrap=20)
    assert all(math.isfinite(r.low) and math.isfinite(r.high) for r in listed.ratings)


def test_the_prior_shrinks_small_samples_more_than_large_ones() -> None:
    small = fit_elo(wins("A", "B", 3, 1))
    large = fit_elo(wins("A", "B", 300, 100))
    assert 0 < small["A"] - small["B"] < large["A"] - large["B"]


def test_anchoring() -> None:
    games = wins("A", "B", 30, 10) + wins("B", "C", 20, 20)
    free = fit_elo(games)
    assert sum(free.values()) == pytest.approx(0.0, abs=1e-9)
    pinned = fit_elo(games, anchor=("B", 1500.0))
    assert pinned["B"] == 1500.0
    for name in "AC":
        assert pinned[name] - pinned["B"] == pytest.approx(free[name] - free["B"], abs=1e-9)
    units = units_of([("A", "B", 30), ("B", "A", 10), ("B", "C", 20), ("C", "B", 20)])
    listed = rate(units, anchor=("B", 1500.0), bootstrap=30)
    by_name = {r.name: r for r in listed.ratings}
    assert by_name["B"].elo == by_name["B"].low == by_name["B"].high == 1500.0
    assert by_name["A"].low > 1500.0
    assert "B at 1500" in listed.method


def test_the_same_seed_gives_the_same_list() -> None:
    units = units_of([("A", "B", 12), ("B", "A", 8), ("B", "C", 11), ("C", "B", 9)])
    first = rate(units, seed=3, bootstrap=40)
    assert rate(units, seed=3, bootstrap=40) == first
    assert rate(list(reversed(units)), seed=3, bootstrap=40).ratings[0].elo == pytest.approx(
        first.ratings[0].elo, abs=1e-9
    )
    other = rate(units, seed=4, bootstrap=40)
    assert [r.elo for r in other.ratings] == [r.elo for r in first.ratings]
    assert [r.low for r in other.ratings] != [r.low for r in first.ratings]


def test_the_interval_contains_the_estimate_and_narrows_with_more_data() -> None:
    results = [("A", "B", 7), ("B", "A", 3)]
    few = rate(units_of(results, repeat=4), bootstrap=200, seed=1)
    many = rate(units_of(results, repeat=40), bootstrap=200, seed=1)
    for listed in (few, many):
        for rating in listed.ratings:
            assert rating.low <= rating.elo <= rating.high
    width_few = few.ratings[0].high - few.ratings[0].low
    width_many = many.ratings[0].high - many.ratings[0].low
    # Ten times the data: about √10 ≈ 3.2 times narrower.
    assert width_many < width_few / 2
    assert many.ratings[0].low > 0 > many.ratings[1].high
    assert many.ratings[0].los_next == 1.0


def test_counts_of_games_and_deals() -> None:
    units = [
        Unit("m", 1, {"A": 8, "B": -4, "C": -4}, {"A": 6, "B": 6, "C": 6}),
        Unit("m", 2, {"A": 2, "B": -2}, {"A": 1, "B": 1}),
    ]
    listed = rate(units, bootstrap=10)
    by_name = {r.name: r for r in listed.ratings}
    assert (by_name["A"].games, by_name["A"].deals) == (3, 7)
    assert (by_name["C"].games, by_name["C"].deals) == (2, 6)
    assert listed.units == 2 and listed.deals == 7
    assert listed.ratings[-1].los_next is None


def test_a_player_in_one_unit_has_no_interval_and_no_los() -> None:
    """One unit resampled is that unit every time: a zero-width interval would claim a
    certainty it does not have, so there is none (None, JSON null)."""
    assert MIN_UNITS == 2
    single = rate([Unit("m", 1, {"A": 8, "B": -4, "C": -4}, {"A": 6, "B": 6, "C": 6})])
    for rating in single.ratings:
        assert rating.low is None and rating.high is None and not rating.estimated
        assert rating.los_next is None
        assert rating.to_dict()["low"] is None and rating.to_dict()["high"] is None
    assert math.isfinite(single.ratings[0].elo) and single.ratings[0].elo > 0
    # C plays in one unit of five: its interval and the LOS next to it cannot be estimated,
    # A's and B's can; a pinned player keeps its exact rating as its interval.
    units = [Unit("m", n, {"A": 2, "B": -2}, {"A": 1, "B": 1}) for n in range(3)]
    units += [Unit("m", 3, {"A": -2, "B": 2}, {"A": 1, "B": 1})]
    units += [Unit("m", 4, {"A": 4, "B": -2, "C": -2}, {"A": 1, "B": 1, "C": 1})]
    for anchor in (None, ("C", 1500.0)):
        by_name = {r.name: r for r in rate(units, bootstrap=20, anchor=anchor).ratings}
        assert by_name["A"].estimated and by_name["B"].estimated
        low, high = by_name["A"].low, by_name["A"].high
        assert low is not None and high is not None and low < by_name["A"].elo < high
        c = by_name["C"]
        assert (c.low, c.high) == ((1500.0, 1500.0) if anchor else (None, None))
        listed = rate(units, bootstrap=20, anchor=anchor).ratings
        assert listed[-1].name == "C" and listed[-2].los_next is None
        assert listed[0].los_next is not None


def test_a_unit_gives_one_game_per_pair_with_ties_as_draws() -> None:
    unit = Unit("m", 1, {"C": -4, "A": 8, "B": -4})
    assert unit.games() == [Game("A", "B", 1.0), Game("A", "C", 1.0), Game("B", "C", 0.5)]


def test_nothing_to_rate_is_a_clear_error() -> None:
    with pytest.raises(RatingError, match="no finished deals"):
        rate([])
    with pytest.raises(RatingError, match="only 1 player"):
        rate([Unit("m", 1, {"A": 0})])
    with pytest.raises(RatingError, match="only 0 player"):
        fit_elo([])
    with pytest.raises(RatingError, match="no player named 'Z'"):
        fit_elo(wins("A", "B", 1, 1), anchor=("Z", 0.0))
    with pytest.raises(RatingError, match="at least 10"):
        rate(units_of([("A", "B", 3)]), bootstrap=9)
    assert issubclass(RatingError, ZoleError)


def test_the_module_examples() -> None:
    assert doctest.testmod(ratings_module).failed == 0


# -- from deal records to units -----------------------------------------------------------------

GOLDEN = Path(__file__).resolve().parent / "golden" / "format2-match.jsonl"
_RECORDS = read_log(GOLDEN)[0]
_HEADER = next(r for r in _RECORDS if isinstance(r, MatchHeader))
_DEAL = next(r for r in _RECORDS if isinstance(r, DealRecord))


def header(match_id: str, duplicate: bool) -> MatchHeader:
    return dataclasses.replace(_HEADER, match_id=match_id, duplicate=duplicate)


def deal(
    match_id: str, number: int, block: int, seats: dict[str, int], seed: int | None = None
) -> DealRecord:
    """A deal record (a real one, renumbered): ``seats`` maps the player in each seat to its
    score. Its cards are block ``block`` of ``seed``, by default a seed of the match's own: the
    deals of one block share them, and nothing else does unless given the same seed."""
    a, b, c = (Identity(name) for name in seats)
    x, y, z = seats.values()
    result = _DEAL.result._replace(scores=(x, y, z))
    seed = int.from_bytes(match_id.encode()[:8], "big") if seed is None else seed
    (one, two, three), talon = deal_cards(seed, block)
    return dataclasses.replace(
        _DEAL, match_id=match_id, deal=number, block=block, players=(a, b, c), result=result,
        seed=seed, deal_no=block, hands=(one, two, three), talon=talon,
    )  # fmt: skip


SEATINGS = [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]


def duplicate_block(match_id: str, block: int, scores: list[int]) -> list[DealRecord]:
    """Six deals of one block; the player in seat s scores ``scores[s]`` in each."""
    names = ["x", "y", "z"]
    return [
        deal(match_id, (block - 1) * 6 + k + 1, block,
             {names[seating[s]]: scores[s] for s in range(3)})
        for k, seating in enumerate(SEATINGS)
    ]  # fmt: skip


def test_a_duplicate_block_is_one_unit_with_totals_by_name() -> None:
    data = units_from_records([header("d", True), *duplicate_block("d", 1, [8, -4, -4])])
    assert len(data.units) == 1 and data.deals == 6
    unit = data.units[0]
    # Every player sat twice in each seat: 2·8 − 4·4 = 0 for all.
    assert unit.totals == {"x": 0, "y": 0, "z": 0}
    assert unit.deals == {"x": 6, "y": 6, "z": 6}
    # Rated deal by deal: each deal, the seat-0 player beats the two others, who draw.
    games = unit.games()
    assert len(games) == 18
    assert duplicate_block("d", 1, [8, -4, -4])[0].names[:2] == ("x", "y")
    assert games[:3] == [Game("x", "y", 1.0), Game("x", "z", 1.0), Game("y", "z", 0.5)]
    assert sorted(g.score for g in games) == [0.0] * 6 + [0.5] * 6 + [1.0] * 6
    assert unit.finished == _DEAL.finished  # the time of its last deal


def test_duplicate_and_plain_deals_are_rated_on_one_scale() -> None:
    """The same deals give the same ratings whether they are duplicate blocks or plain deals:
    only the bootstrap's units (and so the intervals) differ."""
    blocks = [
        record
        for block, scores in enumerate([[8, -4, -4], [-10, 5, 5], [6, -3, -3], [2, -1, -1]], 1)
        for record in duplicate_block("m", block, scores)
    ]
    # Make x better than the others: x wins its soloist games in every block.
    for index, record in enumerate(blocks):
        scores = record.result.scores
        if record.names[0] == "x" and scores[0] < 0:
            flipped = (-scores[0], -scores[1], -scores[2])
            blocks[index] = dataclasses.replace(
                record, result=record.result._replace(scores=flipped)
            )
    as_blocks = units_from_records([header("m", True), *blocks]).units
    as_deals = units_from_records([header("m", False), *blocks]).units
    assert (len(as_blocks), len(as_deals)) == (4, 24)
    by_block = {r.name: r.elo for r in rate(as_blocks, bootstrap=10).ratings}
    by_deal = {r.name: r.elo for r in rate(as_deals, bootstrap=10).ratings}
    assert by_block == pytest.approx(by_deal, abs=1e-9)
    assert max(by_block, key=by_block.__getitem__) == "x"


def test_plain_deals_are_units_of_their_own() -> None:
    records = [header("p", False)] + [
        deal("p", n, n, {"x": 8, "y": -4, "z": -4}) for n in range(1, 5)
    ]
    data = units_from_records(records)
    assert len(data.units) == 4
    assert all(unit.size == 1 for unit in data.units)


def test_records_without_their_header_are_grouped_by_block() -> None:
    data = units_from_records(
        [*duplicate_block("d", 1, [8, -4, -4]), deal("p", 1, 1, {"x": 1, "y": -1, "z": 0})]
    )
    assert sorted((u.match_id, u.size) for u in data.units) == [("d", 6), ("p", 1)]


def test_a_deal_read_twice_counts_once_and_a_player_in_two_seats_is_skipped() -> None:
    one = deal("p", 1, 1, {"x": 8, "y": -4, "z": -4})
    twice = dataclasses.replace(one, deal=2, players=(Identity("x"), Identity("x"), Identity("z")))
    data = units_from_records([header("p", False), one, one, twice])
    assert len(data.units) == 1
    assert data.warnings == (
        "deal 2 of match p: not usable for ratings (player 'x' sits in two seats): skipped",
        "1 deal(s) read more than once: each counted once",
    )


def test_the_same_name_in_two_matches_is_one_player() -> None:
    records = [
        header("a", False), deal("a", 1, 1, {"x": 8, "y": -4, "z": -4}),
        header("b", False), deal("b", 1, 1, {"x": -8, "w": 4, "z": 4}),
    ]  # fmt: skip
    listed = rate(units_from_records(records).units, bootstrap=10)
    assert sorted(r.name for r in listed.ratings) == ["w", "x", "y", "z"]
    assert {r.name: r.deals for r in listed.ratings}["x"] == 2


def test_the_live_tally_of_deals_gives_the_same_units() -> None:
    # A tournament's standings tally deals as they come (stats/tally.py): the same units.
    records = [header("m", True), *duplicate_block("m", 1, [8, -4, -4]),
               *duplicate_block("m", 2, [-2, 1, 1])]  # fmt: skip
    typed = units_from_records(records).units
    tally = ResultTally(duplicate=True)
    for record in records[1:]:
        assert isinstance(record, DealRecord)
        scores = dict(zip(record.names, record.result.scores, strict=True))
        tally.add(record.match_id, record.deal, record.block, scores, deal_keys(record))
    kept = tally.units()
    assert [(u.match_id, u.block, u.totals, u.deals, u.scores, u.cards) for u in typed] == [
        (u.match_id, u.block, u.totals, u.deals, u.scores, u.cards) for u in kept
    ]
    assert len(kept) == 2


# -- end to end: real matches, the real command line -------------------------------------------


#: ``NAME=COMMAND`` for the weakened rulebot: the bundled rulebot's command (as ``zole-arena
#: bots`` shows it) with a ``--seed``, so that its random moves are the same on every run.
WEAK = f"weak={PY} {RULE_BOT} --seed 11"
RANDOM = f"random={PY} {RANDOM_BOT} --seed 21"
#: Duplicate blocks of the validation match: 60 blocks, 360 deals, about 3 s.
BLOCKS = 60


@dataclass
class Logs:
    folder: Path
    validation: Path
    """``rulebot``, ``weak`` (Epsilon 50), ``random``: 60 duplicate blocks."""
    second: Path
    """``rulebot``, ``weak``, ``lazy`` (random, another seed): 90 plain deals."""


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> Logs:
    folder = tmp_path_factory.mktemp("ratings")
    for done in zoles(  # the two matches at once
        ["match", "rulebot", WEAK, RANDOM, "--option", "weak:Epsilon=50", "--duplicate",
         "--deals", str(BLOCKS), "--seed", "1", "--movetime", "1000", "--log", "validation.jsonl"],
        ["match", "rulebot", WEAK, f"lazy={PY} {RANDOM_BOT} --seed 5", "--option",
         "weak:Epsilon=50", "--deals", "90", "--seed", "2", "--movetime", "1000",
         "--log", "second.jsonl"],
        cwd=folder,
    ):  # fmt: skip
        ok(done)
    return Logs(folder, folder / "validation.jsonl", folder / "second.jsonl")


def ratings_json(logs: Logs, *args: str) -> dict[str, Any]:
    proc = ok(zole("ratings", *args, "--json", cwd=logs.folder))
    data: dict[str, Any] = json.loads(proc.stdout)
    return data


def test_validation_bots_of_known_strength_come_out_in_order(logs: Logs) -> None:
    """rulebot > weak (rulebot playing half its moves at random) > random, with 95 % intervals
    that do not overlap, from 60 duplicate blocks (360 deals)."""
    data = ratings_json(logs, "validation.jsonl")
    table = {r["name"]: r for r in data["ratings"]}
    print({name: (r["elo"], r["low"], r["high"], r["los_next"]) for name, r in table.items()})
    assert [r["name"] for r in data["ratings"]] == ["rulebot", "weak", "random"]
    assert table["rulebot"]["low"] > table["weak"]["high"]
    assert table["weak"]["low"] > table["random"]["high"]
    assert table["rulebot"]["los_next"] > 0.99 and table["weak"]["los_next"] > 0.99
    assert data["units"] == BLOCKS
    for rating in data["ratings"]:
        assert rating["low"] <= rating["elo"] <= rating["high"]
        assert rating["deals"] == 6 * BLOCKS
        assert rating["games"] == 12 * BLOCKS  # each deal: a game against each of the others


def test_json_shape(logs: Logs) -> None:
    data = ratings_json(logs, "validation.jsonl", "--bootstrap", "20")
    assert set(data) == {"ratings", "units", "clusters", "method"}
    assert "Bradley-Terry" in data["method"] and "20 resamples" in data["method"]
    assert data["clusters"] == data["units"]  # one match: no two blocks share cards
    keys = {"name", "elo", "low", "high", "games", "deals", "los_next", "sd"}
    for rating in data["ratings"]:
        assert set(rating) == keys
        assert isinstance(rating["name"], str)
        assert all(isinstance(rating[k], float) for k in ("elo", "low", "high", "sd"))
        assert isinstance(rating["games"], int) and isinstance(rating["deals"], int)
    elos = [r["elo"] for r in data["ratings"]]
    assert elos == sorted(elos, reverse=True)
    assert sum(elos) == pytest.approx(0.0, abs=0.05)
    assert all(0.0 <= r["los_next"] <= 1.0 for r in data["ratings"][:-1])
    assert data["ratings"][-1]["los_next"] is None


def test_csv_shape(logs: Logs) -> None:
    proc = ok(zole("ratings", "validation.jsonl", "--csv", "--bootstrap", "20", cwd=logs.folder))
    lines = proc.stdout.splitlines()
    assert lines[0] == "rank,name,elo,low,high,los_next,games,deals,sd"
    rows = list(csv.DictReader(io.StringIO(proc.stdout)))
    assert [row["rank"] for row in rows] == ["1", "2", "3"]
    assert {row["name"] for row in rows} == {"rulebot", "weak", "random"}
    assert rows[-1]["los_next"] == ""
    for row in rows:
        assert float(row["low"]) <= float(row["elo"]) <= float(row["high"])
        assert int(row["deals"]) == 6 * BLOCKS


def test_the_table(logs: Logs) -> None:
    proc = ok(zole("ratings", "validation.jsonl", "--bootstrap", "20", cwd=logs.folder))
    for word in ("rank", "elo", "95% interval", "LOS", "games", "deals", "rulebot", "weak"):
        assert word in proc.stdout
    assert f"{BLOCKS} units in {BLOCKS} clusters ({6 * BLOCKS} deals)" in proc.stdout
    assert proc.stdout.index("rulebot") < proc.stdout.index("weak") < proc.stdout.index("random")


def test_two_matches_are_rated_together(logs: Logs) -> None:
    # The order of the files does not matter; a file named twice counts once.
    done, again, twice = map(ok, zoles(
        ["ratings", "validation.jsonl", "second.jsonl", "--json", "--bootstrap", "50"],
        ["ratings", "second.jsonl", "validation.jsonl", "--json", "--bootstrap", "50"],
        ["ratings", "second.jsonl", "second.jsonl", "--json", "--bootstrap", "20"],
        cwd=logs.folder,
    ))  # fmt: skip
    data = json.loads(done.stdout)
    table = {r["name"]: r for r in data["ratings"]}
    assert set(table) == {"rulebot", "weak", "random", "lazy"}
    assert data["units"] == BLOCKS + 90
    # The same name in both logs is one player: its deals add up.
    assert table["rulebot"]["deals"] == 6 * BLOCKS + 90
    assert table["weak"]["deals"] == 6 * BLOCKS + 90
    assert table["random"]["deals"] == 6 * BLOCKS
    assert table["lazy"]["deals"] == 90
    assert table["rulebot"]["games"] == 2 * (6 * BLOCKS + 90)  # 2 games a deal
    assert data["ratings"][0]["name"] == "rulebot"
    assert json.loads(again.stdout) == data
    assert json.loads(twice.stdout)["units"] == 90
    assert "read more than once" in twice.stderr


def test_anchor_puts_a_player_at_the_given_rating(logs: Logs) -> None:
    free = ratings_json(logs, "validation.jsonl", "--bootstrap", "20")
    pinned = ratings_json(logs, "validation.jsonl", "--bootstrap", "20",
                          "--anchor", "rulebot=1500")  # fmt: skip
    by_name = {r["name"]: r for r in pinned["ratings"]}
    assert by_name["rulebot"]["elo"] == by_name["rulebot"]["low"] == 1500.0
    assert by_name["rulebot"]["high"] == 1500.0
    free_by_name = {r["name"]: r for r in free["ratings"]}
    for name in ("weak", "random"):
        gap = free_by_name["rulebot"]["elo"] - free_by_name[name]["elo"]
        assert 1500.0 - by_name[name]["elo"] == pytest.approx(gap, abs=0.02)


def test_the_same_seed_gives_the_same_output(logs: Logs) -> None:
    args = ("ratings", "validation.jsonl", "--csv", "--bootstrap", "20", "--seed", "7")
    assert ok(zole(*args, cwd=logs.folder)).stdout == ok(zole(*args, cwd=logs.folder)).stdout


@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (["missing.jsonl"], ["missing.jsonl", "no such file"]),
        (["foreign.txt"], ["foreign.txt", "not a zole-arena log"]),
        (["header-only.jsonl"], ["no finished deal"]),
        (["validation.jsonl", "--anchor", "rulebot"], ["bad --anchor", "NAME=ELO"]),
        (["validation.jsonl", "--anchor", "rulebot=strong"], ["bad --anchor"]),
        (["validation.jsonl", "--anchor", "nobody=1500"], ["no player named 'nobody'"]),
        (["validation.jsonl", "--bootstrap", "9"], ["--bootstrap", "at least 10"]),
        (["validation.jsonl", "--json", "--csv"], ["--json or --csv"]),
    ],
)
def test_bad_input_is_a_one_line_error(logs: Logs, args: list[str], needles: list[str]) -> None:
    (logs.folder / "foreign.txt").write_text("name,score\nrulebot,3\n")
    first_line = logs.validation.read_text(encoding="utf-8").splitlines()[0]
    (logs.folder / "header-only.jsonl").write_text(first_line + "\n")
    one_line_error(zole("ratings", *args, cwd=logs.folder), *needles)


def test_a_one_block_log_shows_its_intervals_as_not_estimable(tmp_path: Path) -> None:
    """One block, and two blocks (intervals again, and no note): the matches at once, then
    every rating of their logs at once."""
    for done in zoles(*(["match", "rulebot", WEAK, "random", "--duplicate", "--deals", deals,
                         "--seed", "4", "--movetime", "1000", "--log", f"{name}.jsonl"]
                        for name, deals in (("one", "1"), ("two", "2"))),
                      cwd=tmp_path):  # fmt: skip
        ok(done)
    shown, as_json, as_csv, two_json, two_shown = map(ok, zoles(
        ["ratings", "one.jsonl"], ["ratings", "one.jsonl", "--json"],
        ["ratings", "one.jsonl", "--csv"], ["ratings", "two.jsonl", "--json"],
        ["ratings", "two.jsonl"], cwd=tmp_path,
    ))  # fmt: skip
    table = shown.stdout
    rows = [line for line in table.splitlines() if any(n in line for n in ("rulebot", "weak"))]
    rows += [line for line in table.splitlines() if "│ random" in line]
    assert len(rows) == 3, table
    for row in rows:
        cells = [cell.strip() for cell in row.strip("│ ").split("│")]
        assert cells[3] == "n/a", row  # the interval: not "+186 … +186"
        assert "…" not in row
    assert [cell.strip() for cell in rows[0].split("│")][5] == "n/a"  # LOS of the first
    assert "n/a: not estimable from fewer than 2 clusters" in table
    data = json.loads(as_json.stdout)
    assert data["units"] == 1
    for rating in data["ratings"]:
        assert rating["low"] is None and rating["high"] is None and rating["los_next"] is None
        assert isinstance(rating["elo"], float)
    for row in csv.DictReader(io.StringIO(as_csv.stdout)):
        assert (row["low"], row["high"], row["los_next"]) == ("", "", "")
        float(row["elo"])
    # Two blocks: intervals again, and no note.
    two = json.loads(two_json.stdout)
    assert all(r["low"] <= r["elo"] <= r["high"] for r in two["ratings"])
    assert "n/a" not in two_shown.stdout


def test_logs_of_different_rules_are_rated_together_with_a_warning(logs: Logs) -> None:
    ok(zole("match", "rulebot", "random", "random", "--deals", "6", "--rules", "lzf",
            "--seed", "3", "--log", "lzf.jsonl", cwd=logs.folder))  # fmt: skip
    proc = ok(zole("ratings", "second.jsonl", "lzf.jsonl", cwd=logs.folder))
    assert "warning: the logs play different rules (lzf, wpt)" in proc.stderr
    proc = ok(zole("ratings", "second.jsonl", "validation.jsonl", cwd=logs.folder))
    assert "different rules" not in proc.stderr


def test_two_players_rated_alike_are_even_in_the_los() -> None:
    # A and B each beat C and draw with each other: fitted equal to the last bits, their LOS
    # is an even 50%, not the 100% that rounding noise would give.
    units = [Unit("m", n, {"A": 1, "B": 1, "C": -2}) for n in range(6)]
    ratings = rate(units, bootstrap=50)
    first, second, _ = ratings.ratings
    assert {first.name, second.name} == {"A", "B"}
    assert first.elo == pytest.approx(second.elo)
    assert first.los_next == 0.5


def test_a_player_who_never_loses_is_fitted_to_convergence() -> None:
    # Hunter's MM moves a player who never loses by a little per sweep, for as many sweeps as
    # it has games; the fit takes Newton steps there instead. Whichever step it takes, at its
    # result every player's expected wins (the prior's virtual game included) equal its wins.
    from zole_arena.stats import btfit

    games = [("A", "B", 1.0)] * 20_000 + [("B", "C", 1.0), ("C", "B", 1.0)] * 50
    names = ["A", "B", "C"]
    index = {name: i for i, name in enumerate(names)}
    table = btfit.results_table(3, btfit.tally_games(games, index))
    logs = btfit.fit_strengths(table, 1.0)
    strength = [math.exp(value) for value in logs]
    for i in range(3):
        expected = 0.5 * strength[i] / (strength[i] + 1.0) * 2  # the prior's virtual game
        for j, count in table.neighbours[i]:
            expected += count * strength[i] / (strength[i] + strength[j])
        assert expected == pytest.approx(table.wins[i] + 0.5, rel=1e-6), names[i]
