"""Rating intervals that respect the deals shared between tables and logs.

Every table of a tournament plays the same seeded deals, so block *b* at one table holds the
cards of block *b* at every other: the bootstrap must resample them together (clusters), and
a few clusters must widen the interval (Student's t). The tournaments here are real ones,
played through the command line; ``scripts/rating_calibration.py`` measures the coverage.
"""

from __future__ import annotations

import dataclasses
import doctest
import json
import statistics
from pathlib import Path

import pytest
from clihelp import ok, zole, zoles

from zole_arena.arena.summary import PlayerStats
from zole_arena.records.model import DealRecord
from zole_arena.records.reader import read_log
from zole_arena.stats import student
from zole_arena.stats.ratings import RatingList, fit_bootstrap, rate
from zole_arena.stats.student import two_sided_quantile
from zole_arena.stats.units import Unit, clusters, deal_keys, read_logs

BLOCKS = 6
FAST = ("--no-sandbox", "--movetime", "1000", "--concurrency", "1")


@pytest.fixture(scope="module")
def tournament(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real round-robin of four C bots: four tables, six duplicate blocks each."""
    folder = tmp_path_factory.mktemp("clusters")
    ok(zole("tournament", "cbot", "crandom", "cbot", "crandom", "--blocks", str(BLOCKS),
            "--seed", "11", *FAST, "--log", "t.jsonl", cwd=folder))  # fmt: skip
    return folder / "t.jsonl"


def independent(units: tuple[Unit, ...]) -> list[Unit]:
    """The same results, as if every table had been dealt cards of its own."""
    return [
        dataclasses.replace(unit, cards=frozenset(f"{unit.match_id}/{c}" for c in unit.cards))
        for unit in units
    ]


def widths(listed: RatingList) -> dict[str, float]:
    return {
        r.name: r.high - r.low for r in listed.ratings if r.high is not None and r.low is not None
    }


def test_the_same_block_at_every_table_is_one_cluster(tournament: Path) -> None:
    units = read_logs([tournament]).units
    assert len(units) == 4 * BLOCKS  # a unit per duplicate block per table
    groups = clusters(units)
    assert len(groups) == BLOCKS
    for group in groups:
        assert sorted(units[i].match_id for i in group) == sorted({u.match_id for u in units})
        assert len({units[i].block for i in group}) == 1


@pytest.fixture(scope="module")
def replayed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Two plain matches of deterministic bots on the same seed: the same deals, played the
    same way."""
    folder = tmp_path_factory.mktemp("replayed")
    plays = (["match", "cbot", "rulebot", "cbot", "--deals", "60", "--seed", "8", "--log",
              f"{name}.jsonl"] for name in ("a", "b"))  # fmt: skip
    for done in zoles(*plays, cwd=folder):  # at once
        ok(done)
    return folder / "a.jsonl", folder / "b.jsonl"


def points(logs: list[Path], shared: bool = True) -> dict[str, PlayerStats]:
    """Each player's points per deal over the logs, counted as the standings count them."""
    stats: dict[str, PlayerStats] = {}
    for log in logs:
        for record in read_log(log)[0]:
            if isinstance(record, DealRecord):
                cards = deal_keys(record)[1] if shared else None
                for seat, name in enumerate(record.names):
                    player = stats.setdefault(name, PlayerStats(name))
                    player.add(seat, record.result, record.result.scores[seat], cards)
    return stats


def test_the_same_deals_played_again_make_the_ratings_no_surer(
    replayed: tuple[Path, Path],
) -> None:
    # Deterministic bots play the same seed's deals the same way: a second table of the same
    # deals repeats the first one's results and adds nothing. Resampled by clusters its
    # ratings are as uncertain as the first table's alone; resampled as if its deals were
    # independent (the bootstrap before clusters) they looked √2 times surer.
    once = read_logs(replayed[:1]).units
    twice = read_logs(replayed).units
    assert [u.totals for u in twice[: len(once)]] == [u.totals for u in twice[len(once) :]]
    alone, shared = widths(rate(once)), widths(rate(twice))
    naive = widths(rate(independent(twice)))
    assert alone.keys() == shared.keys() == naive.keys() == {"cbot", "cbot#2", "rulebot"}
    for name in alone:
        assert shared[name] == pytest.approx(alone[name], rel=0.05), name
        assert naive[name] < 0.8 * alone[name], name


def test_the_same_deals_played_again_make_the_points_per_deal_no_surer(
    replayed: tuple[Path, Path],
) -> None:
    once, twice, naive = (
        points([replayed[0]]),
        points(list(replayed)),
        points(list(replayed), False),
    )
    assert once.keys() == twice.keys() == {"cbot", "cbot#2", "rulebot"}
    for name, player in once.items():
        assert twice[name].clusters == player.clusters == 60
        assert twice[name].mean == pytest.approx(player.mean)
        assert twice[name].interval == pytest.approx(player.interval)
        assert naive[name].interval < 0.8 * player.interval, name


def test_a_duplicate_matchs_points_per_deal_count_its_blocks(tmp_path: Path) -> None:
    # The six deals of a block share their cards: the block is one sample of the points per
    # deal (a cluster-robust standard error over the blocks, Student's t with blocks − 1).
    out = ok(zole("match", "cbot", "crandom", "rulebot", "--duplicate", "--deals", "8",
                  "--seed", "3", "--json", "--log", "d.jsonl", cwd=tmp_path)).stdout  # fmt: skip
    shown = {p["name"]: p["ci95"] for p in json.loads(out)["players"]}
    blocks: dict[str, dict[int, list[int]]] = {}
    for record in read_log(tmp_path / "d.jsonl")[0]:
        if isinstance(record, DealRecord):
            for name, score in zip(record.names, record.result.scores, strict=True):
                blocks.setdefault(name, {}).setdefault(record.block, []).append(score)
    for name, by_block in blocks.items():
        g, n = len(by_block), sum(len(s) for s in by_block.values())
        mean = sum(sum(s) for s in by_block.values()) / n
        spread = sum((sum(s) - mean * len(s)) ** 2 for s in by_block.values())
        expected = two_sided_quantile(0.95, g - 1) * (g / (g - 1) * spread) ** 0.5 / n
        assert g == 8 and n == 48
        assert shown[name] == pytest.approx(expected), name


def test_two_logs_of_the_same_seed_are_resampled_deal_by_deal_together(tmp_path: Path) -> None:
    # Two plain matches of the same seed hold the same deals, and so does a duplicate match:
    # rated together, each deal's cards make one cluster. Another seed shares nothing.
    matches = (("a", 5, ()), ("b", 5, ("--duplicate",)), ("c", 6, ()))
    plays = (["match", "cbot", "crandom", "cbot", "--deals", "12", "--seed", str(seed), *more,
              "--log", f"{name}.jsonl"] for name, seed, more in matches)  # fmt: skip
    for done in zoles(*plays, cwd=tmp_path):  # at once
        ok(done)
    same, other, table = map(ok, zoles(
        ["ratings", "a.jsonl", "b.jsonl", "--json"], ["ratings", "a.jsonl", "c.jsonl", "--json"],
        ["ratings", "a.jsonl", "b.jsonl"], cwd=tmp_path,
    ))  # fmt: skip
    counted = json.loads(same.stdout)
    assert (counted["units"], counted["clusters"]) == (24, 12)
    apart = json.loads(other.stdout)
    assert (apart["units"], apart["clusters"]) == (24, 24)
    assert "24 units in 12 clusters (84 deals) from 2 log(s)" in table.stdout


def test_a_tournaments_own_intervals_resample_its_clusters(tournament: Path) -> None:
    # The intervals of its standings are the ones `ratings` gives its log.
    folder = tournament.parent
    standings = json.loads(ok(zole("standings", "t.jsonl", "--json", cwd=folder)).stdout)
    listed = json.loads(ok(zole("ratings", "t.jsonl", "--json", cwd=folder)).stdout)
    assert listed["clusters"] == BLOCKS
    by_name = {r["name"]: (r["low"], r["high"]) for r in listed["ratings"]}
    shown = {r["name"]: (r["low"], r["high"]) for r in standings["standings"]}
    assert shown == by_name
    # And the points per deal: each block, with every table's deals of it, one sample.
    counted = points([tournament])
    for row in standings["standings"]:
        assert counted[row["name"]].clusters == BLOCKS
        assert row["ci95"] == pytest.approx(counted[row["name"]].interval)


def test_few_clusters_widen_the_percentiles_by_students_t(tournament: Path) -> None:
    # The interval reaches t(n − 1)/z·√(n/(n − 1)) times as far from the fit as the plain
    # bootstrap percentiles: for 6 clusters, 2.571/1.960·1.095 = 1.437 times.
    units = read_logs([tournament]).units
    groups = clusters(units)
    plain = fit_bootstrap([u.games() for u in units], clusters=groups, bootstrap=200)
    listed = rate(units, bootstrap=200)
    n = len(groups)
    factor = two_sided_quantile(0.95, n - 1) / 1.959963984540054 * (n / (n - 1)) ** 0.5
    assert factor == pytest.approx(1.437, abs=0.001)
    for rating in listed.ratings:
        i = plain.names.index(rating.name)
        elo = plain.elos[i]
        cuts = statistics.quantiles([s[i] for s in plain.samples], n=40, method="inclusive")
        assert rating.elo == pytest.approx(elo)
        assert rating.low == pytest.approx(elo + factor * (cuts[0] - elo))
        assert rating.high == pytest.approx(elo + factor * (cuts[-1] - elo))
        sd = statistics.stdev(s[i] for s in plain.samples) * (n / (n - 1)) ** 0.5
        assert rating.sd == pytest.approx(sd)


def test_students_quantiles() -> None:
    assert doctest.testmod(student).failed == 0
    # Tables of the t distribution (two-sided 95 %), to their 4 decimals.
    for df, value in ((1, 12.7062), (2, 4.3027), (5, 2.5706), (9, 2.2622), (30, 2.0423),
                      (100, 1.9840), (101, 1.9837), (1000, 1.9623)):  # fmt: skip
        assert two_sided_quantile(0.95, df) == pytest.approx(value, abs=5e-5)
    assert two_sided_quantile(0.5, 7) == pytest.approx(0.7111, abs=5e-5)
    for bad in ((0.0, 5), (1.0, 5), (0.95, 0)):
        with pytest.raises(ValueError):
            two_sided_quantile(*bad)


def test_cards_edited_at_some_tables_still_join_their_seeds_deal(tournament: Path) -> None:
    # A forger who swaps a card between two hands at all but one table (which `verify`
    # reports) gives every table cards of its own; the records still say which of the seed's
    # deals they are, and that joins them: the intervals are not narrowed by the edit.
    lines = tournament.read_text().splitlines()
    forged = []
    for line in lines:
        record = json.loads(line)
        if record.get("type") == "deal" and not record["match_id"].endswith("-t1"):
            hands = record["hands"]
            hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
        forged.append(json.dumps(record))
    path = tournament.parent / "forged.jsonl"
    path.write_text("\n".join(forged) + "\n")
    units = read_logs([path]).units
    assert len({key for u in units for key in u.cards}) > 2 * BLOCKS  # the cards differ
    assert len(clusters(units)) == BLOCKS
    honest = rate(read_logs([tournament]).units, bootstrap=50)
    edited = rate(units, bootstrap=50)
    assert (edited.clusters, [r.low for r in edited.ratings]) == (
        honest.clusters,
        [r.low for r in honest.ratings],
    )


def test_a_score_no_match_could_reach_is_skipped_not_a_traceback(tournament: Path) -> None:
    lines = tournament.read_text().splitlines()
    first = next(i for i, line in enumerate(lines) if json.loads(line).get("type") == "deal")
    record = json.loads(lines[first])
    record["result"]["scores"] = [2 * 10**200, -(10**200), -(10**200)]
    lines[first] = json.dumps(record)
    path = tournament.parent / "huge.jsonl"
    path.write_text("\n".join(lines) + "\n")
    standings = ok(zole("standings", "huge.jsonl", cwd=tournament.parent))
    assert "Standings after 143 of 144 deals" in standings.stdout  # the forged one left out
    ratings = ok(zole("ratings", "huge.jsonl", cwd=tournament.parent))
    assert "three whole numbers of at most 10^12" in ratings.stderr, ratings.stderr
