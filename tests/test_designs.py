"""Balanced schedules: Steiner triple systems, BIBDs and the most balanced tables otherwise."""

from __future__ import annotations

import doctest
import hashlib
import itertools
import re
from collections import Counter
from collections.abc import Sequence

import pytest

from zole_arena.events import designs
from zole_arena.events.designs import Balance, DesignError, balance, balanced_tables


def meetings(tables: Sequence[tuple[int, int, int]], bots: int) -> Counter[int]:
    """How many pairs meet how many times (pairs that never meet included)."""
    met = Counter(pair for table in tables for pair in itertools.combinations(table, 2))
    return Counter(met[pair] for pair in itertools.combinations(range(bots), 2))


def prefix_spread(tables: Sequence[tuple[int, int, int]], bots: int) -> int:
    """The most that bots' tables so far differ by, over every prefix of the playing order."""
    seated = [0] * bots
    worst = 0
    for table in tables:
        for bot in table:
            seated[bot] += 1
        worst = max(worst, max(seated) - min(seated))
    return worst


def assert_well_formed(tables: Sequence[tuple[int, int, int]], bots: int, count: int) -> None:
    assert len(tables) == count
    assert all(0 <= a < b < c < bots for a, b, c in tables)
    assert len(set(tables)) == count, "a table twice"


@pytest.mark.parametrize("bots", [7, 9, 13, 15, 19, 21, 99])
def test_one_meeting_is_a_steiner_triple_system_where_one_exists(bots: int) -> None:
    tables = balanced_tables(bots, meetings=1)
    assert_well_formed(tables, bots, bots * (bots - 1) // 6)
    assert meetings(tables, bots) == {1: bots * (bots - 1) // 2}
    assert balance(tables, bots) == Balance((bots - 1) // 2, (bots - 1) // 2, 1, 1)
    assert balance(tables, bots).exact


@pytest.mark.parametrize("bots, count", [(6, 10), (10, 30), (7, 14), (9, 24)])
def test_two_meetings_is_a_bibd_where_one_exists(bots: int, count: int) -> None:
    # BIBD(v, 3, 2) exists for v ≡ 0 or 1 mod 3: found by the search for 6 and 10, and as two
    # Steiner triple systems (with no table in both) for 7 and 9.
    tables = balanced_tables(bots, meetings=2)
    assert_well_formed(tables, bots, count)
    assert meetings(tables, bots) == {2: bots * (bots - 1) // 2}
    assert balance(tables, bots).exact


def test_more_than_half_the_round_robin_is_its_complement_and_as_balanced() -> None:
    # 7 bots, λ = 3: the 35 tables less two disjoint Steiner triple systems
    tables = balanced_tables(7, meetings=3)
    assert_well_formed(tables, 7, 21)
    assert meetings(tables, 7) == {3: 21}
    for bots, count in [(8, 50), (9, 83), (12, 200)]:
        tables = balanced_tables(bots, tables=count)
        assert_well_formed(tables, bots, count)
        found = balance(tables, bots)
        assert found.appearances_max - found.appearances_min <= 1
        assert found.meetings_max - found.meetings_min <= 1


def test_as_many_tables_as_the_round_robin_is_the_round_robin() -> None:
    tables = balanced_tables(6, tables=20)
    assert sorted(tables) == list(itertools.combinations(range(6), 3))
    assert balanced_tables(6, meetings=4) == tables


def test_twenty_bots_meeting_once_are_as_balanced_as_can_be() -> None:
    # 63 tables: 189 meetings for 190 pairs. Nine bots sit at 10 tables, meeting 20 times
    # among 19 others, so at least five pairs meet twice and at least six never meet.
    tables = balanced_tables(20, meetings=1)
    assert_well_formed(tables, 20, 63)
    found = balance(tables, 20)
    assert (found.appearances_min, found.appearances_max) == (9, 10)
    assert (found.meetings_min, found.meetings_max) == (0, 2)
    spread = meetings(tables, 20)
    assert 5 <= spread[2] <= 8 and spread[0] == spread[2] + 1


def test_twenty_bots_meeting_twice() -> None:
    tables = balanced_tables(20, meetings=2)  # 126⅔ tables
    assert_well_formed(tables, 20, 127)
    found = balance(tables, 20)
    assert (found.appearances_min, found.appearances_max) == (19, 20)
    assert found.meetings_max - found.meetings_min <= 2
    assert meetings(tables, 20)[2] >= 180  # of 190 pairs


def test_a_hundred_bots_meeting_once() -> None:
    tables = balanced_tables(100, meetings=1)
    assert_well_formed(tables, 100, 1650)
    found = balance(tables, 100)
    assert (found.appearances_min, found.appearances_max) == (49, 50)
    assert (found.meetings_min, found.meetings_max) == (0, 2)
    assert meetings(tables, 100)[2] <= 100  # of 4950 pairs; random tables have 900
    assert prefix_spread(tables, 100) <= 2


@pytest.mark.parametrize(
    "bots, count",
    [(3, 1), (4, 2), (5, 3), (8, 9), (11, 18), (30, 10), (30, 145), (40, 100), (60, 590)],
)
def test_any_number_of_tables_seats_every_bot_within_one(bots: int, count: int) -> None:
    tables = balanced_tables(bots, tables=count, seed=bots)
    assert_well_formed(tables, bots, count)
    found = balance(tables, bots)
    assert found.appearances_max - found.appearances_min <= 1
    assert found.meetings_max - found.meetings_min <= 2
    assert prefix_spread(tables, bots) <= 2


@pytest.mark.parametrize("bots, count", [(5, 3), (8, 9), (11, 18), (20, 63), (20, 127)])
def test_meetings_asks_for_the_nearest_whole_number_of_tables(bots: int, count: int) -> None:
    times = 2 if count == 127 else 1
    assert len(balanced_tables(bots, meetings=times)) == count


@pytest.mark.parametrize("bots, times", [(7, 1), (13, 1), (20, 1), (20, 2), (21, 1), (50, 1)])
def test_the_playing_order_keeps_the_field_balanced(bots: int, times: int) -> None:
    tables = balanced_tables(bots, meetings=times)
    assert prefix_spread(tables, bots) <= 2
    # each next table is one whose bots have sat at the fewest tables so far
    seated = [0] * bots
    for at, table in enumerate(tables):
        assert sum(seated[b] for b in table) == min(
            sum(seated[b] for b in later) for later in tables[at:]
        )
        for bot in table:
            seated[bot] += 1


def test_the_same_arguments_give_the_same_schedule() -> None:
    assert balanced_tables(20, meetings=1) == balanced_tables(20, meetings=1, seed=0)
    assert balanced_tables(20, meetings=1, seed=7) == balanced_tables(20, meetings=1, seed=7)
    assert balanced_tables(20, meetings=1, seed=7) != balanced_tables(20, meetings=1)
    assert balanced_tables(19, meetings=1, seed=1) != balanced_tables(19, meetings=1)
    # on any machine and Python: only random.Random(seed).random() is drawn on
    assert balanced_tables(8, tables=10, seed=3) == [
        (0, 4, 7), (2, 3, 6), (1, 4, 5), (1, 6, 7), (3, 4, 5),
        (0, 1, 2), (0, 3, 7), (2, 5, 7), (2, 4, 6), (0, 5, 6),
    ]  # fmt: skip
    for bots, digest in [(20, "dcd03376c75ca315"), (19, "afd65726d569d90c")]:
        text = repr(balanced_tables(bots, meetings=1)).encode()
        assert hashlib.sha256(text).hexdigest()[:16] == digest


@pytest.mark.parametrize(
    "bots, tables, meetings, message",
    [
        (2, 1, None, "a balanced schedule needs at least 3 bots, not 2"),
        (10, 0, None, "--tables must be at least 1, not 0"),
        (10, None, 0, "--meetings must be at least 1, not 0"),
        (10, 5, 1, "give --tables or --meetings, not both"),
        (10, None, None, "give --tables or --meetings"),
        (5, 11, None, "5 bots have 10 different tables, not --tables 11: play a round-robin"),
        (
            6,
            None,
            5,
            "6 bots have 20 different tables, not --meetings 5 (25 tables): play a round-robin",
        ),
        (9, 1, None, "1 table seats only 3 of 9 bots: every bot needs a table (give at least 3)"),
        (10, 3, None, "3 tables seat only 9 of 10 bots: every bot needs a table (give at least 4)"),
    ],
)
def test_bad_arguments_say_what_is_wrong(
    bots: int, tables: int | None, meetings: int | None, message: str
) -> None:
    with pytest.raises(DesignError, match=f"^{re.escape(message)}$"):
        balanced_tables(bots, tables=tables, meetings=meetings)
    assert issubclass(DesignError, ValueError)


def test_balance_counts_seats_and_meetings() -> None:
    found = balance([(0, 1, 2), (0, 1, 3)], 4)
    assert found == Balance(1, 2, 0, 2)  # 0 and 1 meet twice, 2 and 3 never
    assert not found.exact
    fano = [(0, 1, 2), (0, 3, 4), (0, 5, 6), (1, 3, 5), (1, 4, 6), (2, 3, 6), (2, 4, 5)]
    assert balance(fano, 7).exact
    assert not balance(fano[:-1], 7).exact
    assert not Balance(3, 3, 0, 1).exact and not Balance(2, 3, 1, 1).exact
    with pytest.raises(DesignError, match="not three different bots"):
        balance([(0, 1, 7)], 7)
    with pytest.raises(DesignError, match="not three different bots"):
        balance([(0, 1, 1)], 7)
    with pytest.raises(DesignError, match="at least 3 bots"):
        balance([], 2)


def test_the_module_examples_hold() -> None:
    result = doctest.testmod(designs)
    assert result.attempted > 0 and result.failed == 0
    assert sorted(designs.__all__) == ["Balance", "DesignError", "balance", "balanced_tables"]
