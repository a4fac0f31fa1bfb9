"""Standings counted deal by deal agree with the ratings computed from the log afterwards."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest
from clihelp import ok, zole

from zole_arena.events.standings import Standings
from zole_arena.records.model import DealRecord, MatchHeader
from zole_arena.records.reader import read_log
from zole_arena.stats import tally as tally_module
from zole_arena.stats.ratings import fit_elo, units_from_records
from zole_arena.stats.tally import ResultTally

GOLDEN = Path(__file__).parent / "golden"


@pytest.fixture(scope="module")
def tournament_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real round-robin of four C bots (four tables, two duplicate blocks each)."""
    folder = tmp_path_factory.mktemp("tally")
    args = ["cbot", "crandom", "cbot", "crandom", "--blocks", "2", "--no-sandbox"]
    ok(zole("tournament", *args, "--log", "t.jsonl", "--concurrency", "1", cwd=folder))
    return folder / "t.jsonl"


def test_docstring_examples() -> None:
    assert doctest.testmod(tally_module).failed == 0


@pytest.mark.parametrize("which", ["tournament", "golden match"])
def test_live_standings_equal_the_log_read_afterwards(which: str, tournament_log: Path) -> None:
    log = tournament_log if which == "tournament" else GOLDEN / "format1-match.jsonl"
    records, problems = read_log(log)
    assert not problems
    header = next(r for r in records if isinstance(r, MatchHeader))
    deals = [r for r in records if isinstance(r, DealRecord)]
    assert len(deals) >= (48 if which == "tournament" else 3)
    names = sorted({name for r in deals for name in r.names})
    standings = Standings(names, header.duplicate)
    for record in deals:
        standings.add(record)
    from_log = units_from_records(records).units
    assert standings.deals == len(deals)
    assert [(u.match_id, u.block, dict(u.totals), dict(u.deals)) for u in standings.units()] == [
        (u.match_id, u.block, dict(u.totals), dict(u.deals)) for u in from_log
    ]
    # The cards too: the live ratings' bootstrap resamples the same clusters.
    assert [u.cards for u in standings.units()] == [u.cards for u in from_log]
    assert all(len(u.cards) == 2 for u in from_log)  # the cards, and the seed's deal
    assert [list(u.scores) for u in standings.units()] == [list(u.scores) for u in from_log]
    games = [g for u in from_log for g in u.games()]
    expected = fit_elo(games)
    live = standings.quick_elo()
    assert live.keys() == expected.keys()
    for name in expected:
        assert live[name] == pytest.approx(expected[name], abs=1e-6)
    h2h: dict[str, dict[str, tuple[float, int]]] = {}
    for g in games:
        for a, b, s in ((g.first, g.second, g.score), (g.second, g.first, 1 - g.score)):
            won, played = h2h.setdefault(a, {}).get(b, (0.0, 0))
            h2h[a][b] = (won + s, played + 1)
    assert standings.head_to_head() == h2h


def test_a_deal_counted_twice_counts_once_and_a_lone_player_has_no_elo() -> None:
    tally = ResultTally(duplicate=True)
    assert tally.elo() == {}
    tally.add("m", 1, 1, {"A": 2, "B": -1, "C": -1})
    tally.add("m", 1, 1, {"A": 2, "B": -1, "C": -1})
    assert tally.deals == 1
    assert tally.head_to_head()["B"]["C"] == (0.5, 1)
    assert len(tally.units()) == 1
    tally.add("m", 2, 1, {"A": -4, "B": 2, "C": 2})
    (unit,) = tally.units()
    assert dict(unit.totals) == {"A": -2, "B": 1, "C": 1}
    assert unit.size == 2
