"""Reseating between rounds (stats.reseating): table sizes, the first round's draw, and the
Swiss-like reseating that avoids repeat meetings, checked against every possible seating on
small fields."""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Sequence

import pytest

from zole_arena.stats.reseating import (
    first_round,
    meetings,
    repeat_meetings,
    reseat,
    table_sizes,
)

Seating = Sequence[Sequence[int]]
Met = dict[frozenset[int], int]


def swiss(ranking: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """The plain Swiss seating: the ranking cut into tables of :func:`table_sizes`."""
    tables, start = [], 0
    for size in table_sizes(len(ranking)):
        tables.append(tuple(ranking[start : start + size]))
        start += size
    return tuple(tables)


def distance(tables: Seating, ranking: Sequence[int]) -> int:
    """The reseating's second criterion: each player's tables away from his Swiss table,
    squared, summed."""
    home = {player: t for t, table in enumerate(swiss(ranking)) for player in table}
    return sum((t - home[player]) ** 2 for t, table in enumerate(tables) for player in table)


def cost(
    tables: Seating, ranking: Sequence[int], met: dict[frozenset[int], int]
) -> tuple[int, int]:
    """What reseat minimises, in order: repeat meetings, then distance from the Swiss seating."""
    return repeat_meetings(tables, met), distance(tables, ranking)


def optimum(ranking: Sequence[int], met: Met) -> tuple[int, int]:
    """The least cost of any seating at the Swiss table sizes, by trying every one (table by
    table, remembering the best seating of each set of players left for the tables left)."""
    sizes = table_sizes(len(ranking))
    home = {player: t for t, table in enumerate(swiss(ranking)) for player in table}

    @functools.cache
    def best(left: frozenset[int], t: int) -> tuple[int, int]:
        if t == len(sizes):
            return (0, 0)
        options = []
        for table in itertools.combinations(sorted(left), sizes[t]):
            rest = best(left - set(table), t + 1)
            repeats = repeat_meetings([table], met) + rest[0]
            options.append((repeats, sum((t - home[p]) ** 2 for p in table) + rest[1]))
        return min(options)

    return best(frozenset(ranking), 0)


def drawn_rounds(players: int, rounds: int, rng: random.Random) -> list[list[list[int]]]:
    """``rounds`` rounds of tables drawn at random, for a ``met`` with no pattern."""
    result = []
    for _ in range(rounds):
        order = list(range(players))
        rng.shuffle(order)
        result.append([list(table) for table in swiss(order)])
    return result


def shuffled(players: int, rng: random.Random) -> list[int]:
    ranking = list(range(players))
    rng.shuffle(ranking)
    return ranking


def assert_seats(tables: Seating, players: int) -> None:
    """``tables`` seat every entrant once, at tables of table_sizes' sizes in its order."""
    assert tuple(map(len, tables)) == table_sizes(players)
    assert sorted(p for table in tables for p in table) == list(range(players))


# --- table_sizes -------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, *range(6, 41)])
def test_table_sizes_seat_the_field_at_as_many_fours_as_can_be_then_threes(players: int) -> None:
    sizes = table_sizes(players)
    assert sum(sizes) == players
    assert set(sizes) <= {3, 4}
    most_fours = max(k for k in range(players // 4 + 1) if (players - 4 * k) % 3 == 0)
    assert sizes.count(4) == most_fours
    assert list(sizes) == sorted(sizes, reverse=True)  # the fours first


def test_table_sizes_examples() -> None:
    assert table_sizes(3) == (3,)
    assert table_sizes(4) == (4,)
    assert table_sizes(6) == (3, 3)
    assert table_sizes(12) == (4, 4, 4)
    assert table_sizes(13) == (4, 3, 3, 3)
    assert table_sizes(14) == (4, 4, 3, 3)
    assert table_sizes(15) == (4, 4, 4, 3)


@pytest.mark.parametrize("players", [-1, 0, 1, 2, 5])
def test_a_field_that_cannot_be_split_into_threes_and_fours_is_refused(players: int) -> None:
    with pytest.raises(ValueError, match=f"^{players} players cannot be seated") as error:
        table_sizes(players)
    assert "\n" not in str(error.value)
    with pytest.raises(ValueError):
        first_round(players, 1)
    with pytest.raises(ValueError):
        reseat(list(range(max(players, 0))), {})


# --- first_round -------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 7, 9, 12, 13, 22, 100])
def test_the_first_round_seats_every_entrant_once(players: int) -> None:
    assert_seats(first_round(players, 7), players)


def test_the_first_round_is_drawn_from_the_seed_alone() -> None:
    assert first_round(20, 3) == first_round(20, 3)
    draws = {first_round(20, seed) for seed in range(10)}
    assert len(draws) == 10
    # The draw is the same on every Python version (random.Random of a string, shuffle):
    # a tournament's first round can be drawn again from its seed.
    assert first_round(8, 1) == ((0, 4, 5, 6), (2, 7, 3, 1))
    assert first_round(13, 2024) == ((0, 4, 2, 9), (1, 5, 10), (8, 12, 7), (6, 3, 11))


# --- meetings and repeat_meetings --------------------------------------------------------


def test_meetings_count_the_rounds_each_pair_shared_a_table() -> None:
    rounds = [[[0, 1, 2], [3, 4, 5]], [[0, 1, 3], [2, 4, 5]]]
    assert meetings(rounds) == {
        frozenset({0, 1}): 2,
        frozenset({0, 2}): 1,
        frozenset({1, 2}): 1,
        frozenset({3, 4}): 1,
        frozenset({3, 5}): 1,
        frozenset({4, 5}): 2,
        frozenset({0, 3}): 1,
        frozenset({1, 3}): 1,
        frozenset({2, 4}): 1,
        frozenset({2, 5}): 1,
    }
    assert meetings([]) == {}


def test_meetings_refuse_a_player_seated_twice_in_a_round() -> None:
    with pytest.raises(ValueError, match=r"^player 2 sits twice in round 2$"):
        meetings([[[0, 1, 2]], [[0, 1, 2], [2, 3, 4]]])


def test_repeat_meetings_sum_the_earlier_meetings_of_every_pair_at_a_table() -> None:
    met = meetings([[[0, 1, 2, 3]], [[0, 1, 4, 5]]])  # 0 and 1 met twice
    assert repeat_meetings([[0, 1, 6], [2, 3, 4]], met) == 2 + 1
    assert repeat_meetings([[0, 2, 4], [1, 3, 5]], met) == 1 + 1 + 1 + 1
    assert repeat_meetings([[0, 6, 7], [1, 8, 9]], met) == 0


# --- reseat ------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 17, 40])
def test_without_earlier_meetings_the_tables_are_the_swiss_ones(players: int) -> None:
    ranking = shuffled(players, random.Random(players))
    assert reseat(ranking, {}) == swiss(ranking)
    assert reseat(list(range(players)), {}) == swiss(range(players))


def test_each_table_lists_its_players_in_ranking_order_from_the_top_table_down() -> None:
    rng = random.Random(5)
    met = meetings(drawn_rounds(16, 3, rng))
    ranking = shuffled(16, rng)
    tables = reseat(ranking, met)
    assert_seats(tables, 16)
    for table in tables:
        assert list(table) == sorted(table, key=ranking.index)
    assert tables != swiss(ranking)  # the search did move players (the check is not empty)


def test_after_one_round_of_nine_nobody_meets_again() -> None:
    # Three tables of three: every table of round 1 is split over the three tables of round 2,
    # which every ranking allows (and the plain Swiss seating often misses).
    rng = random.Random(9)
    for seed in range(20):
        met = meetings([first_round(9, seed)])
        ranking = shuffled(9, rng)
        tables = reseat(ranking, met)
        assert_seats(tables, 9)
        assert repeat_meetings(tables, met) == 0
        assert cost(tables, ranking, met) == optimum(ranking, met)


def test_after_one_round_of_eight_the_fewest_repeats_are_found() -> None:
    # Two tables of four: at best each table of round 2 takes two players from each table of
    # round 1, so that four pairs meet again.
    rng = random.Random(8)
    for seed in range(20):
        met = meetings([first_round(8, seed)])
        ranking = shuffled(8, rng)
        tables = reseat(ranking, met)
        assert repeat_meetings(tables, met) == 4
        assert cost(tables, ranking, met) == optimum(ranking, met)


@pytest.mark.parametrize("players", [7, 8, 9, 10, 11, 12])
def test_on_small_fields_the_search_finds_the_best_of_all_seatings(players: int) -> None:
    """The fewest repeat meetings, and the least distance from the Swiss seating among them,
    of every seating at the Swiss table sizes: with meetings drawn at random (dense, no
    pattern), and with meetings of rounds that reseat itself seated."""
    rng = random.Random(f"small/{players}")
    for trial in range(8):
        if trial % 2:
            met = meetings(drawn_rounds(players, rng.randint(1, 6), rng))
        else:
            played = [first_round(players, trial)]
            for _ in range(rng.randint(1, 5)):
                played.append(reseat(shuffled(players, rng), meetings(played)))
            met = meetings(played)
        ranking = shuffled(players, rng)
        tables = reseat(ranking, met)
        assert_seats(tables, players)
        best = optimum(ranking, met)
        assert cost(tables, ranking, met) == best
        assert best <= cost(swiss(ranking), ranking, met)


def test_twelve_players_over_seven_rounds_meet_again_less_than_swiss_seating_would() -> None:
    rng = random.Random("twelve")
    played = [first_round(12, 12)]
    total = swiss_total = 0
    for _ in range(2, 8):
        met = meetings(played)
        ranking = shuffled(12, rng)
        tables = reseat(ranking, met)
        assert_seats(tables, 12)
        repeats, plain = repeat_meetings(tables, met), repeat_meetings(swiss(ranking), met)
        assert repeats <= plain
        assert cost(tables, ranking, met) == optimum(ranking, met)
        total += repeats
        swiss_total += plain
        played.append(tables)
    assert total < swiss_total


def test_the_same_standings_and_meetings_always_give_the_same_tables() -> None:
    rng = random.Random(3)
    met = meetings(drawn_rounds(24, 4, rng))
    ranking = shuffled(24, rng)
    first = reseat(ranking, met)
    assert reseat(list(ranking), dict(met)) == first
    # ... whatever the order the meetings are listed in
    items = list(met.items())
    rng.shuffle(items)
    assert reseat(tuple(ranking), dict(items)) == first


def test_without_the_long_search_the_seating_is_still_no_worse_than_swiss() -> None:
    rng = random.Random(4)
    for players in (10, 13, 20):
        met = meetings(drawn_rounds(players, 3, rng))
        ranking = shuffled(players, rng)
        quick = reseat(ranking, met, tries=0)
        assert_seats(quick, players)
        assert cost(swiss(ranking), ranking, met) >= cost(quick, ranking, met)
        assert cost(quick, ranking, met) >= cost(reseat(ranking, met), ranking, met)


def test_a_hundred_players_over_ten_rounds() -> None:
    rng = random.Random(100)
    played = [first_round(100, 1)]
    for _ in range(2, 11):
        met = meetings(played)
        ranking = shuffled(100, rng)
        tables = reseat(ranking, met)
        assert_seats(tables, 100)
        assert repeat_meetings(tables, met) == 0  # 100 players never need to meet again
        played.append(tables)
    assert len(played) == 10


@pytest.mark.parametrize(
    ("ranking", "message"),
    [
        ([0, 1, 2, 2], "^the ranking lists entrant 2 twice$"),
        ([0, 1, 2, 4], "^a ranking of 4 must list the entrants 0 to 3, not 4$"),
        ([0, 1, -1, 3], "^a ranking of 4 must list the entrants 0 to 3, not -1$"),
    ],
)
def test_a_ranking_that_is_not_an_order_of_the_entrants_is_refused(
    ranking: list[int], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        reseat(ranking, {})


def test_meetings_outside_the_field_negative_counts_and_negative_tries_are_refused() -> None:
    ranking = [2, 0, 1, 3]
    with pytest.raises(ValueError, match=r"^a meeting must be of two different entrants"):
        reseat(ranking, {frozenset({1, 4}): 1})
    with pytest.raises(ValueError, match=r"^a meeting must be of two different entrants"):
        reseat(ranking, {frozenset({1}): 1})
    with pytest.raises(ValueError, match=r"^the meetings of \[0, 1\] are -1, below 0$"):
        reseat(ranking, {frozenset({0, 1}): -1})
    with pytest.raises(ValueError, match=r"^tries must be at least 0, not -1$"):
        reseat(ranking, {}, tries=-1)
