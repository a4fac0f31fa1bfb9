"""The ``lzf`` tournament format end to end, with real bots and the real command: rounds at
tables of four, every table of a round dealt the round's deals, pules settled at each
table's end, big points per table, reseating by standings that avoids repeat meetings;
``verify`` recomputes the rounds and catches a forged reseating; ``--resume`` continues a
tournament cut at a round's end to the same log; bad fields are refused in one line."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from clihelp import PY, THREE_ONLY, ok, one_line_error, rechained, zole

from zole_arena.report.collect import collect
from zole_arena.stats.bigpoints import big_points
from zole_arena.stats.rounds import (
    RoundStandings,
    disqualified_seats,
    places_points,
    round_seed,
)

Record = dict[str, Any]
RANDOM = Path(__file__).resolve().parents[1] / "bots" / "random_bot.py"
#: Eight bots, all deterministic (seeded random bots, each table's processes new): two
#: tables of four a round, and the same tournament from the same seed every time.
BOTS = ("rulebot", "rulebot", "rulebot", "rulebot",
        *(f"r{n}={PY} {RANDOM} --seed {n}" for n in range(1, 5)))  # fmt: skip
ARGS = (*BOTS, "--format", "lzf", "--rounds", "3", "--deals", "8", "--rules", "lzf",
        "--seed", "5", "--concurrency", "2", "--no-keep-bots")  # fmt: skip


@dataclass(frozen=True)
class Played:
    folder: Path
    log: Path
    records: list[Record]
    summary: dict[str, Any]


def _records(path: Path) -> list[Record]:
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Played:
    folder = tmp_path_factory.mktemp("lzf")
    proc = ok(zole("tournament", *ARGS, "--log", "t.jsonl", "--json", cwd=folder, timeout=300))
    log = folder / "t.jsonl"
    return Played(folder, log, _records(log), json.loads(proc.stdout))


def _tables(played: Played) -> list[Record]:
    return [r for r in played.records if r["type"] == "match"]


def test_the_header_says_lzf_and_its_rounds(played: Played) -> None:
    header = played.records[0]
    assert header["tournament_format"] == "lzf"
    assert header["rounds"] == 3 and header["deals"] == 8
    assert header["tables"] == [] and header["duplicate"] is False


def test_each_round_seats_everybody_at_tables_of_four_on_the_rounds_deals(
    played: Played,
) -> None:
    entrants = [e["name"] for e in played.records[0]["entrants"]]
    by_round: dict[int, list[Record]] = {}
    for table in _tables(played):
        by_round.setdefault(table["tournament"]["round"], []).append(table)
    assert sorted(by_round) == [1, 2, 3]
    for number, tables in by_round.items():
        seated = [p["name"] for t in tables for p in t["players"]]
        assert sorted(seated) == sorted(entrants)
        assert all(len(t["players"]) == 4 for t in tables)
        assert {t["seed"] for t in tables} == {round_seed(5, number)}
    # Every table of a round is dealt the same cards: deal n's hands are the same sets.
    deals: dict[tuple[int, int], set[str]] = {}
    rounds = {t["match_id"]: t["tournament"]["round"] for t in _tables(played)}
    for deal in (r for r in played.records if r["type"] == "deal"):
        hands = {",".join(hand) for hand in deal["hands"]}
        key = (rounds[deal["match_id"]], deal["deal"])
        assert deals.setdefault(key, hands) == hands


def test_big_points_follow_each_tables_final_points(played: Played) -> None:
    summary = played.summary
    totals: dict[str, list[int]] = {}
    for record in played.records:
        if record["type"] == "deal":
            totals[record["match_id"]] = record["table"]["totals"]
        elif record["type"] == "settle":
            totals[record["match_id"]] = record["totals"]
    big: Counter[str] = Counter()
    for table in _tables(played):
        names = [p["name"] for p in table["players"]]
        for name, won in zip(names, big_points(totals[table["match_id"]]), strict=True):
            big[name] += won  # type: ignore[assignment]
    standings = summary["standings"]
    assert {e["name"]: Fraction(e["big_points"]) for e in standings} == dict(big)
    # Ranked by big points, then points.
    keys = [(-e["big_points"], -e["points"]) for e in standings]
    assert keys == sorted(keys)
    assert sum(big.values()) == 3 * 2 * 12 or any(
        len(set(t)) < 4 for t in totals.values()
    )  # 12 a table of four, unless a four-way tie


def test_reseating_avoids_repeat_meetings_where_it_can(played: Played) -> None:
    met: Counter[frozenset[str]] = Counter()
    by_round: dict[int, list[list[str]]] = {}
    for table in _tables(played):
        names = [p["name"] for p in table["players"]]
        by_round.setdefault(table["tournament"]["round"], []).append(names)
    for number in (1, 2):
        for names in by_round[number]:
            met.update(frozenset(pair) for pair in itertools.combinations(names, 2))
        after = by_round[number + 1]
        repeats = sum(met[frozenset(p)] for t in after for p in itertools.combinations(t, 2))
        # Two tables of four after one round: each new table takes two of each old table, so
        # 4 repeats is the least there can be.
        assert number != 1 or repeats == 4


def test_verify_recomputes_the_rounds(played: Played) -> None:
    proc = ok(zole("verify", "t.jsonl", cwd=played.folder))
    assert "48 of 48 deals verify — ok" in proc.stdout


def test_verify_catches_a_forged_reseating(played: Played, tmp_path: Path) -> None:
    records = json.loads(json.dumps(played.records))
    round_two = [r for r in records if r["type"] == "match" and r["tournament"]["round"] == 2]
    first, second = round_two[0], round_two[1]
    moved = first["players"][0]["name"]
    # The organizer swaps two players between round 2's tables, in the headers and deals.
    first["players"][0], second["players"][0] = second["players"][0], first["players"][0]
    for record in records:
        if record["type"] == "deal" and record["match_id"] in (first["match_id"],
                                                             second["match_id"]):  # fmt: skip
            header = first if record["match_id"] == first["match_id"] else second
            names = [p["name"] for p in header["players"]]
            for seat, player in enumerate(record["seating"]):
                record["players"][seat]["name"] = names[player]
            record["table"]["sitter"]["name"] = names[record["table"]["dealer"]]
    (tmp_path / "f.jsonl").write_text(rechained(records))
    proc = zole("verify", "f.jsonl", cwd=tmp_path)
    assert proc.returncode == 1
    assert "the round's reseating" in proc.stdout, proc.stdout
    assert moved in proc.stdout


def test_resume_from_a_rounds_end_plays_the_same_tournament(played: Played, tmp_path: Path) -> None:
    lines = played.log.read_text().splitlines(keepends=True)
    # Cut after round 1: its tables' headers, deals and settles, no round-2 header.
    end = next(n for n, r in enumerate(played.records)
               if r["type"] == "match" and r["tournament"]["round"] == 2)  # fmt: skip
    (tmp_path / "t.jsonl").write_text("".join(lines[:end]))
    ok(zole("tournament", "--resume", "t.jsonl", "--json", cwd=tmp_path, timeout=300))
    resumed = _records(tmp_path / "t.jsonl")

    def same(record: Record) -> Record:
        # (settings: its sandbox hides the log where it is now, another folder)
        return {k: v for k, v in record.items()
                if k not in ("prev", "finished", "created", "moves", "settings")}  # fmt: skip

    def by_match(records: list[Record]) -> dict[str, list[Record]]:
        grouped: dict[str, list[Record]] = {}
        for record in records[1:]:
            grouped.setdefault(record["match_id"], []).append(same(record))
        return grouped

    assert by_match(resumed) == by_match(played.records)
    ok(zole("verify", "t.jsonl", cwd=tmp_path))


def test_a_bot_that_plays_only_at_three_is_refused_before_the_start(tmp_path: Path) -> None:
    (tmp_path / "three.py").write_text(THREE_ONLY)
    proc = zole("tournament", "rulebot", "rulebot", "rulebot", f"t={PY} three.py",
                "--format", "lzf", "--log", "x.jsonl", cwd=tmp_path)  # fmt: skip
    one_line_error(proc, "bot t plays only at tables of 3", "the tournament was not started")
    assert not (tmp_path / "x.jsonl").exists()


@pytest.mark.parametrize(
    ("extra", "needle"),
    [
        (("--format", "lzf", "--duplicate"), "plays no duplicate blocks"),
        (("--format", "lzf", "--blocks", "2"), "not duplicate --blocks"),
        (("--rounds", "3"), "--rounds is for --format lzf"),
    ],
)
def test_bad_lzf_settings_get_one_line(tmp_path: Path, extra: tuple[str, ...], needle: str) -> None:
    one_line_error(zole("tournament", *BOTS[:4], *extra, cwd=tmp_path), needle)


def test_a_field_of_five_cannot_sit_at_tables_of_four_and_three(tmp_path: Path) -> None:
    proc = zole("tournament", *(["rulebot"] * 5), "--format", "lzf", cwd=tmp_path)
    one_line_error(proc, "--format lzf")


def test_the_results_by_table_are_each_tables_final_points(played: Played) -> None:
    text = ok(zole("standings", "t.jsonl", "--md", cwd=played.folder)).stdout
    final: dict[str, list[int]] = {}
    for record in played.records:
        if record["type"] == "deal":
            final[record["match_id"]] = record["table"]["totals"]
        elif record["type"] == "settle":
            final[record["match_id"]] = record["totals"]
    for table in _tables(played):
        names = [p["name"] for p in table["players"]]
        points = ", ".join(f"{n} {t:+d}" for n, t in zip(names, final[table["match_id"]],
                                                        strict=True))  # fmt: skip
        assert f"| {table['tournament']['table']} | {points} | 8/8 |" in text, text


def test_the_report_gives_the_big_points_of_standings(played: Played, tmp_path: Path) -> None:
    ok(zole("report", str(played.log), "-o", str(tmp_path / "r.html"), cwd=tmp_path))
    page = (tmp_path / "r.html").read_text()
    assert ">big points<" in page
    data = collect([played.log], points=0)
    standings = {e["name"]: Fraction(e["big_points"]) for e in played.summary["standings"]}
    assert {bot.name: bot.big_points for bot in data.bots} == standings
    points = {e["name"]: e["points"] for e in played.summary["standings"]}
    assert {bot.name: bot.stats.points for bot in data.bots} == points


def test_a_bot_disqualified_at_its_table_takes_the_last_place() -> None:
    """A leader who faults past the limit on purpose, ending his table early, earns nothing
    for his lead: he takes the last place there (docs/rules.md §9)."""
    assert places_points([40, -10, -10, -20], {0})[0] < -20
    assert big_points(places_points([40, -10, -10, -20], {0})) == (0, 5, 5, 2)
    assert big_points(places_points([40, 30, -10, -60], {0, 1})) == (2, 0, 6, 4)
    assert disqualified_seats({0: 4, 1: 3, 2: 0}, 3) == {0}
    standings = RoundStandings(4, seed=1)
    standings.next_tables()
    won = standings.add_table((0, 1, 2, 3), (40, -10, -10, -20), {0})
    assert won[0] == 0 and standings.big[0] == 0


def test_forged_totals_change_no_big_points_on_resume(played: Played, tmp_path: Path) -> None:
    """The standings (through --resume's reading) add up each table's scores: totals shifted
    in the log, which verify finds, do not move big points."""
    records = json.loads(json.dumps(played.records))
    first = next(r for r in records if r["type"] == "match")["match_id"]
    for record in records:
        if record["type"] == "deal" and record["match_id"] == first:
            shifted = zip(record["table"]["totals"], [-40, 0, 40, 0], strict=True)
            record["table"]["totals"] = [t + d for t, d in shifted]
            record["totals"] = [record["table"]["totals"][p] for p in record["seating"]]
    (tmp_path / "t.jsonl").write_text(rechained(records))
    assert zole("verify", "t.jsonl", cwd=tmp_path).returncode == 1
    forged = json.loads(ok(zole("standings", "t.jsonl", "--json", cwd=tmp_path)).stdout)
    assert [(e["name"], e["big_points"]) for e in forged["standings"]] == [
        (e["name"], e["big_points"]) for e in played.summary["standings"]
    ]


def _with_faults(records: list[Record], match_id: str, deals: list[int], player: int) -> None:
    """Add a fault of ``player`` (a table seat) to each of a table's ``deals``: unasked (no
    request), as a bot that died at a deal's end is faulted."""
    for record in records:
        if (
            record["type"] == "deal"
            and record["match_id"] == match_id
            and (record["deal"] in deals)
        ):
            seat = record["seating"].index(player) if player in record["seating"] else None
            if seat is None:
                continue
            record["faults"].append({
                "deal_no": record["deal"], "seat": seat, "player": player,
                "bot": record["players"][seat]["name"], "kind": "crash",
                "message": "the bot closed its output", "request": None, "reply": None,
            })  # fmt: skip


def test_forged_faults_neither_pass_nor_move_big_points(played: Played, tmp_path: Path) -> None:
    records = json.loads(json.dumps(played.records))
    table = next(r for r in records if r["type"] == "match" and r["tournament"]["round"] == 2)
    leader = 0  # four unasked faults in one deal: one a seat at most
    _with_faults(records, table["match_id"], [5, 5, 5, 5], leader)
    for record in records:  # (_with_faults adds one a listed deal: list deal 5 four times)
        if record["type"] == "deal" and record["match_id"] == table["match_id"]:
            faults = [f for f in record["faults"] if f["request"] is None]
            if faults:
                record["faults"] = faults * 4
    (tmp_path / "f.jsonl").write_text(rechained(records))
    proc = zole("verify", "f.jsonl", cwd=tmp_path)
    assert proc.returncode == 1 and "a second fault of seat" in proc.stdout

    # Spread over four deals they pass (a bot may die at any deal's end), but a table that
    # played all its deals disqualified nobody: the big points stay.
    records = json.loads(json.dumps(played.records))
    plays = [r["deal"] for r in records if r["type"] == "deal"
             and r["match_id"] == table["match_id"] and leader in r["seating"]]  # fmt: skip
    _with_faults(records, table["match_id"], plays[:4], leader)
    (tmp_path / "g.jsonl").write_text(rechained(records))
    forged = json.loads(ok(zole("standings", "g.jsonl", "--json", cwd=tmp_path)).stdout)
    assert [(e["name"], e["big_points"]) for e in forged["standings"]] == [
        (e["name"], e["big_points"]) for e in played.summary["standings"]
    ]


def test_a_tables_first_deal_after_its_header_is_deal_1(played: Played, tmp_path: Path) -> None:
    first = next(r for r in played.records if r["type"] == "deal" and r["match_id"].endswith("-t1"))
    records = [r for r in played.records if r is not first]
    (tmp_path / "f.jsonl").write_text(rechained(records))
    proc = zole("verify", "f.jsonl", cwd=tmp_path)
    assert proc.returncode == 1 and "is the first after its match's header, not deal 1" in (
        proc.stdout
    )


def test_a_round_cut_short_earns_no_big_points_in_the_report(
    played: Played, tmp_path: Path
) -> None:
    cut = next(n for n, r in enumerate(played.records)
               if r["type"] == "match" and r["tournament"]["round"] == 2) + 3  # fmt: skip
    (tmp_path / "t.jsonl").write_text(rechained(played.records[:cut]))
    standings = json.loads(ok(zole("standings", "t.jsonl", "--json", cwd=tmp_path)).stdout)
    reported = {b.name: b.big_points for b in collect([tmp_path / "t.jsonl"], points=0).bots}
    assert {e["name"]: Fraction(e["big_points"]) for e in standings["standings"]} == reported
    assert sorted(reported.values()) != [0] * len(reported)  # round 1 counts, round 2 not yet


def test_a_settle_lost_at_a_rounds_end_is_written_by_resume(played: Played, tmp_path: Path) -> None:
    settles = [n for n, r in enumerate(played.records) if r["type"] == "settle"]
    first_round_two = next(n for n, r in enumerate(played.records)
                           if r["type"] == "match" and r["tournament"]["round"] == 2)  # fmt: skip
    lost = max(n for n in settles if n < first_round_two)
    cut = played.records[:lost] + played.records[lost + 1 : first_round_two]
    (tmp_path / "t.jsonl").write_text(rechained(cut))
    assert zole("verify", "t.jsonl", cwd=tmp_path).returncode == 1
    ok(zole("tournament", "--resume", "t.jsonl", "--json", cwd=tmp_path, timeout=300))
    resumed = _records(tmp_path / "t.jsonl")
    assert [r for r in resumed if r["type"] == "settle"][: len(settles)] != []
    assert ok(zole("verify", "t.jsonl", cwd=tmp_path)).returncode == 0
    standings = json.loads(ok(zole("standings", "t.jsonl", "--json", cwd=tmp_path)).stdout)
    assert [(e["name"], e["big_points"]) for e in standings["standings"]] == [
        (e["name"], e["big_points"]) for e in played.summary["standings"]
    ]


def test_verify_wants_the_settle_of_a_rounds_table_of_three(tmp_path: Path) -> None:
    bots = [f"r{n}={PY} {RANDOM} --seed {n}" for n in (5, 6, 1, 2, 3, 4)]
    args = ("--format", "lzf", "--rounds", "1", "--deals", "12", "--rules", "lzf", "--seed", "3")
    ok(zole("tournament", *bots, *args, "--no-sandbox", "--log", "t.jsonl", cwd=tmp_path))
    records = _records(tmp_path / "t.jsonl")
    assert [len(r["players"]) for r in records if r["type"] == "match"] == [3, 3]
    kept = [r for r in records if r["type"] != "settle"]
    assert len(kept) < len(records), "seed 3 leaves personal pules at a table of three"
    (tmp_path / "f.jsonl").write_text(rechained(kept))
    proc = zole("verify", "f.jsonl", cwd=tmp_path)
    assert proc.returncode == 1 and "no settle record pays them" in proc.stdout
