"""Matches at a table of four, end to end with real bot processes: the dealer sits each deal
out and is told ``sitout``; the three who play are told the table in ``newdeal`` and
``result``; the log's deal records carry the table's part and a ``settle`` record pays the
pules standing at the end; ``verify`` re-derives all of it and catches a forged table score
or a missing settle; ``standings`` and ``--resume`` agree with the run; a bot that says
``id tables 3`` is refused."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from clihelp import PLAYS_FIRST_LEGAL, PY, THREE_ONLY, ok, one_line_error, rechained, zole

from zole_arena.protocol import plays_at, tables_said
from zole_arena.stats.ratings import read_logs

Record = dict[str, Any]
RANDOM = Path(__file__).resolve().parents[1] / "bots" / "random_bot.py"
#: Seeded random bots and rule bots: the whole match follows from the seed (for --resume).
BOTS = (f"rand1={PY} {RANDOM} --seed 3", "rulebot", f"rand2={PY} {RANDOM} --seed 4", "rulebot")
NAMES = ["rand1", "rulebot", "rand2", "rulebot#2"]
#: lzf (pules) with seed 1: the random bots leave personal pules standing at the end.
ARGS = (*BOTS, "--deals", "24", "--rules", "lzf", "--seed", "1", "--movetime", "2000")


@dataclass(frozen=True)
class Played:
    folder: Path
    log: Path
    records: list[Record]
    summary: dict[str, Any]
    transcript: str


def _records(path: Path) -> list[Record]:
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Played:
    folder = tmp_path_factory.mktemp("four")
    proc = ok(zole("match", *ARGS, "--log", "m.jsonl", "--transcript", "t.txt", "--json",
                   cwd=folder))  # fmt: skip
    log = folder / "m.jsonl"
    return Played(
        folder, log, _records(log), json.loads(proc.stdout), (folder / "t.txt").read_text()
    )


def _deals(played: Played) -> list[Record]:
    return [r for r in played.records if r["type"] == "deal"]


def test_each_player_deals_and_sits_out_a_quarter_of_the_deals(played: Played) -> None:
    header = played.records[0]
    assert [p["name"] for p in header["players"]] == NAMES
    deals = _deals(played)
    assert len(deals) == 24
    sat_out = Counter(d["table"]["dealer"] for d in deals)
    assert sat_out == {0: 6, 1: 6, 2: 6, 3: 6}
    for number, deal in enumerate(deals, start=1):
        dealer = (number + 2) % 4
        table = deal["table"]
        assert table["dealer"] == dealer
        assert table["sitter"]["name"] == NAMES[dealer]
        # The three who play, forehand first, are those after the dealer, clockwise.
        assert deal["seating"] == [(dealer + 1) % 4, (dealer + 2) % 4, (dealer + 3) % 4]
        assert deal["dealer"] == 2
        assert sum(table["scores"]) == 0
        assert [p["name"] for p in deal["players"]] == [NAMES[p] for p in deal["seating"]]
        assert deal["totals"] == [table["totals"][p] for p in deal["seating"]]


def test_a_soloist_collects_from_three_the_sitter_included(played: Played) -> None:
    taken = [d for d in _deals(played)
             if d["result"]["contract"] == "take" and not d["table"]["pules_before"]["personal"]
             and not d["table"]["pules_before"]["common"]]  # fmt: skip
    assert taken, "no take without pules standing"
    for deal in taken:
        table, soloist = deal["table"], deal["seating"][deal["result"]["soloist"]]
        scores = table["scores"]
        others = [scores[p] for p in range(4) if p != soloist]
        assert len(set(others)) == 1  # the sitter pays (or collects) as an opponent
        assert scores[soloist] == -3 * others[0]


def test_the_pules_standing_at_the_end_are_settled(played: Played) -> None:
    last_deal, settle = played.records[-2], played.records[-1]
    assert settle["type"] == "settle"
    owners = last_deal["table"]["pules"]["personal"]
    assert owners and settle["pules"]["personal"] == owners
    assert settle["payment"] == 1
    for player in range(4):
        owned = owners.count(player)
        assert settle["scores"][player] == len(owners) - owned - 3 * owned
    before = last_deal["table"]["totals"]
    assert settle["totals"] == [b + s for b, s in zip(before, settle["scores"], strict=True)]
    # The run's summary counts the settlement in the points.
    points = {p["name"]: p["points"] for p in played.summary["players"]}
    assert [points[name] for name in NAMES] == settle["totals"]
    assert {p["name"]: p.get("sat_out") for p in played.summary["players"]} == dict.fromkeys(
        NAMES, 6
    )


def test_the_bots_are_told_the_table(played: Played) -> None:
    lines = played.transcript.splitlines()
    sitouts = [line for line in lines if " sitout deal " in line]
    assert len(sitouts) == 24
    for line in sitouts:
        fields = line.split(" sitout ", 1)[1].split()
        f = dict(zip(fields[::2], fields[1::2], strict=False))
        deal = int(f["deal"])
        assert f["tablesize"] == "4"
        assert int(f["tableseat"]) == (deal + 2) % 4
        record = _deals(played)[deal - 1]
        assert f["tablescores"] == ",".join(map(str, record["table"]["scores"]))
    newdeals = [line for line in lines if " newdeal " in line]
    assert newdeals and all(" tablesize 4 tableseat " in line for line in newdeals)
    results = [line for line in lines if " result deal " in line]
    assert results and all(" tablescores " in line for line in results)


def test_verify_and_standings_agree_with_the_run(played: Played) -> None:
    proc = ok(zole("verify", "m.jsonl", cwd=played.folder))
    assert "24 of 24 deals verify — ok" in proc.stdout
    standings = json.loads(ok(zole("standings", "m.jsonl", "--json", cwd=played.folder)).stdout)
    assert [p["points"] for p in standings["players"]] == [
        p["points"] for p in played.summary["players"]
    ]


def test_verify_catches_a_forged_table_score(played: Played, tmp_path: Path) -> None:
    records = json.loads(json.dumps(played.records))
    deal = records[5]
    scores = deal["table"]["scores"]
    sitter = deal["table"]["dealer"]
    scores[sitter] += 1  # the sitter takes a point from a player
    scores[(sitter + 1) % 4] -= 1
    (tmp_path / "f.jsonl").write_text(rechained(records))
    proc = zole("verify", "f.jsonl", cwd=tmp_path)
    assert proc.returncode == 1
    assert "table.scores: the log says" in proc.stdout


@pytest.mark.parametrize(
    ("key", "value", "bound"),
    [("payment", 10**400, "0 to 10^12"), ("after", 10**400, "1 to 1,000,000,000")],
    ids=["payment", "after"],
)
def test_a_settle_with_a_thousand_digit_number_is_refused_in_one_short_line(
    played: Played, tmp_path: Path, key: str, value: int, bound: str
) -> None:
    """Red team 13: a settle's payment of 10^400 was refused only against the deals, after
    being carried into sums and a ~1,600-digit message; its shape now bounds it, and every
    reader's message stays short."""
    records = json.loads(json.dumps(played.records))
    records[-1][key] = value
    (tmp_path / "f.jsonl").write_text(rechained(records))
    for command in (["verify", "f.jsonl"], ["standings", "f.jsonl"], ["report", "f.jsonl"]):
        proc = zole(*command, cwd=tmp_path)
        assert "Traceback" not in proc.stderr, proc.stderr
        said = proc.stdout + proc.stderr
        assert str(value) not in said and "0" * 100 not in said, command
    proc = zole("verify", "f.jsonl", cwd=tmp_path)
    assert proc.returncode == 1
    said = " ".join((proc.stdout + proc.stderr).split())
    assert f"settle record: {key} is " in said and f"not a whole number from {bound}" in said


def test_verify_catches_a_missing_settle(played: Played, tmp_path: Path) -> None:
    (tmp_path / "f.jsonl").write_text(rechained(played.records[:-1]))
    proc = zole("verify", "f.jsonl", cwd=tmp_path)
    assert proc.returncode == 1
    assert "no settle record pays them" in proc.stdout
    assert "bad or missing settle" in proc.stdout


def test_resume_plays_the_rest_to_the_same_end(tmp_path: Path) -> None:
    args = ("rulebot", "rulebot", "rulebot", "rulebot", "--deals", "16", "--rules", "lzf",
            "--seed", "2", "--log", "m.jsonl")  # fmt: skip
    whole_folder, part_folder = tmp_path / "whole", tmp_path / "part"
    whole_folder.mkdir()
    part_folder.mkdir()
    ok(zole("match", *args, cwd=whole_folder))
    whole = whole_folder / "m.jsonl"
    lines = whole.read_text().splitlines(keepends=True)
    (part_folder / "m.jsonl").write_text("".join(lines[:7]))  # the header and 6 deals
    proc = ok(zole("match", "--resume", "m.jsonl", cwd=part_folder))
    assert "6 of 16 deals already played" in proc.stdout

    def same(record: Record) -> Record:
        drop = {"prev", "finished", "moves", "created"}
        return {k: v for k, v in record.items() if k not in drop}

    resumed = _records(part_folder / "m.jsonl")
    assert [same(r) for r in resumed] == [same(r) for r in _records(whole)]
    ok(zole("verify", "m.jsonl", cwd=part_folder))


def test_a_complete_log_without_its_settle_is_settled_by_resume(
    played: Played, tmp_path: Path
) -> None:
    log = tmp_path / "m.jsonl"
    log.write_text("".join(played.log.read_text().splitlines(keepends=True)[:-1]))
    proc = ok(zole("match", "--resume", "m.jsonl", cwd=tmp_path))
    assert "now settled" in proc.stdout
    assert _records(log)[-1] == {**played.records[-1], "finished": _records(log)[-1]["finished"],
                                 "prev": _records(log)[-1]["prev"]}  # fmt: skip
    ok(zole("verify", "m.jsonl", cwd=tmp_path))


def test_a_bot_that_plays_only_at_three_is_not_seated_at_four(tmp_path: Path) -> None:
    (tmp_path / "three.py").write_text(THREE_ONLY)
    proc = zole("match", "rulebot", "rulebot", "rulebot", f"{PY} three.py", "--deals", "4",
                cwd=tmp_path)  # fmt: skip
    message = one_line_error(proc, "plays only at tables of 3", "table of four cannot seat it")
    assert "three" in message.lower() or "ThreeOnly" in message or "python" in message


def test_a_table_of_four_plays_no_duplicate(tmp_path: Path) -> None:
    proc = zole("match", "rulebot", "rulebot", "rulebot", "rulebot", "--duplicate", cwd=tmp_path)
    one_line_error(proc, "a table of four plays no duplicate match")


@pytest.mark.parametrize("payment", [0, 2])
def test_the_rules_file_says_what_a_pule_costs_at_the_end(tmp_path: Path, payment: int) -> None:
    (tmp_path / "r.toml").write_text(f'preset = "lzf"\nend_pule_payment = {payment}\n')
    ok(zole("match", *ARGS[:4], "--deals", "24", "--rules", "r.toml", "--seed", "1",
            "--log", "m.jsonl", cwd=tmp_path))  # fmt: skip
    records = _records(tmp_path / "m.jsonl")
    assert records[0]["rules"]["end_pule_payment"] == payment
    owners = records[-1 if payment == 0 else -2]["table"]["pules"]["personal"]
    assert owners, "the match should end with personal pules standing"
    if payment == 0:  # they lapse: no settle record
        assert records[-1]["type"] == "deal"
    else:
        settle = records[-1]
        assert settle["payment"] == 2
        costs = Counter(owners)  # each of an owner's pules costs him 2 to each of three
        assert settle["scores"] == [2 * (len(owners) - costs[p]) - 6 * costs[p] for p in range(4)]
    ok(zole("verify", "m.jsonl", cwd=tmp_path))


def test_a_bad_end_pule_payment_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "r.toml").write_text('preset = "lzf"\nend_pule_payment = -1\n')
    proc = zole("match", *ARGS[:4], "--rules", "r.toml", cwd=tmp_path)
    one_line_error(proc, "end_pule_payment must be at least 0")


def test_ratings_take_each_deals_games_among_the_three_who_played(played: Played) -> None:
    data = json.loads(ok(zole("ratings", "m.jsonl", "--json", cwd=played.folder)).stdout)
    by_name = {r["name"]: r for r in data["ratings"]}
    assert set(by_name) == set(NAMES)
    for rating in by_name.values():  # 18 of the 24 deals played, 2 games in each
        assert (rating["deals"], rating["games"]) == (18, 36)
    # Each game is decided by the table's scores of the three who played (the sitter none).
    units = read_logs([played.log]).units
    assert len(units) == 24
    for unit, deal in zip(sorted(units, key=lambda u: u.block), _deals(played), strict=True):
        names = [NAMES[p] for p in deal["seating"]]
        assert dict(unit.totals) == {n: deal["table"]["scores"][NAMES.index(n)] for n in names}


def test_verify_catches_totals_shifted_from_the_start(played: Played, tmp_path: Path) -> None:
    """With its header before it, a table's first deal starts from zero: totals shifted by a
    constant all through (the scores untouched) are caught, and so is a pule nobody won."""
    records = json.loads(json.dumps(played.records))
    for deal in _deals_of(records):
        deal["table"]["totals"] = [t + d for t, d in zip(deal["table"]["totals"],
                                                         [-40, 0, 40, 0], strict=True)]  # fmt: skip
        deal["totals"] = [deal["table"]["totals"][p] for p in deal["seating"]]
    records[-1]["totals"] = [t + d for t, d in zip(records[-1]["totals"], [-40, 0, 40, 0],
                                                   strict=True)]  # fmt: skip
    (tmp_path / "f.jsonl").write_text(rechained(records))
    proc = zole("verify", "f.jsonl", cwd=tmp_path)
    assert proc.returncode == 1 and "table.totals: the log says" in proc.stdout

    records = json.loads(json.dumps(played.records))
    _deals_of(records)[0]["table"]["pules_before"] = {"common": 0, "personal": [1]}
    (tmp_path / "p.jsonl").write_text(rechained(records))
    proc = zole("verify", "p.jsonl", cwd=tmp_path)
    assert proc.returncode == 1 and "table.pules_before: the log says" in proc.stdout


def _deals_of(records: list[Record]) -> list[Record]:
    return [r for r in records if r["type"] == "deal"]


def test_a_header_of_three_over_deals_of_four_is_a_finding_not_a_traceback(
    played: Played, tmp_path: Path
) -> None:
    records = json.loads(json.dumps(played.records))
    records[0]["players"] = records[0]["players"][:3]
    (tmp_path / "f.jsonl").write_text(rechained(records))
    for command in (("verify", "f.jsonl"), ("report", "f.jsonl", "-o", "r.html")):
        proc = zole(*command, cwd=tmp_path)
        assert "Traceback" not in proc.stderr + proc.stdout
    proc = zole("verify", "f.jsonl", cwd=tmp_path)
    assert proc.returncode == 1 and "a table of four's deal in a match of three" in proc.stdout


DIES_ON_SITOUT = (
    "import sys\n"
    "for line in sys.stdin:\n"
    "    if line.startswith('zole '):\n"
    "        print('id name Dies', 'zoleok 1', sep='\\n', flush=True)\n"
    "    elif line.startswith('isready'):\n"
    "        print('readyok', flush=True)\n"
    "    elif line.startswith('sitout'):\n"
    "        sys.exit(3)\n" + PLAYS_FIRST_LEGAL
)


def test_a_bot_that_dies_sitting_out_is_faulted_when_it_next_plays(tmp_path: Path) -> None:
    (tmp_path / "dies.py").write_text(DIES_ON_SITOUT)
    ok(zole("match", f"dies={PY} dies.py", "rulebot", "rulebot", "rulebot", "--deals", "4",
            "--log", "m.jsonl", cwd=tmp_path))  # fmt: skip
    deals = _deals_of(_records(tmp_path / "m.jsonl"))
    # Table seat 0 deals deal 2; it plays deals 3 and 4 after, and the first of them faults.
    assert deals[1]["table"]["dealer"] == 0
    culprit = deals[2]["culprit"]
    assert culprit is not None and culprit["bot"] == "dies" and culprit["kind"] == "crash"
    assert not any(d["faults"] for d in deals[:2])


def test_id_tables_is_kept_at_three_too_and_garbage_in_it_is_ignored(tmp_path: Path) -> None:
    (tmp_path / "four.py").write_text(THREE_ONLY.replace("id tables 3", "id tables 4"))
    proc = zole("match", f"f={PY} four.py", "rulebot", "rulebot", "--deals", "3", cwd=tmp_path)
    one_line_error(proc, "f plays only at tables of 4", "a table of three cannot seat it")
    assert plays_at({"tables": "x,-1,0"}, 4) and plays_at({"tables": "x,-1,0"}, 3)
    assert tables_said({"tables": "3, 4 ,9 x"}) == (3, 4)
    assert not plays_at({"tables": " 3 "}, 4)


def test_a_forged_pule_event_is_named_as_such(played: Played, tmp_path: Path) -> None:
    records = json.loads(json.dumps(played.records))
    deal = next(d for d in _deals_of(records) if d["table"]["pule_event"])
    deal["table"]["pule_event"] = "nothing happened"
    (tmp_path / "f.jsonl").write_text(rechained(records))
    proc = zole("verify", "f.jsonl", cwd=tmp_path)
    assert proc.returncode == 1 and "table.pule_event: the log says 'nothing happened'" in (
        proc.stdout
    )
