"""``zole-arena standings``: a finished run's summary computed again from its log alone."""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

from clihelp import ok, one_line_error, zole, zoles


def test_a_tournaments_standings_equal_its_own_json(tmp_path: Path) -> None:
    args = ("cbot", "crandom", "rulebot", "random", "--blocks", "2", "--no-sandbox")
    live = json.loads(ok(zole("tournament", *args, "--log", "t.jsonl", "--json",
                              cwd=tmp_path)).stdout)  # fmt: skip
    as_json, shown = map(ok, zoles(["standings", "t.jsonl", "--json"], ["standings", "t.jsonl"],
                                   cwd=tmp_path))  # fmt: skip
    assert json.loads(as_json.stdout) == live
    assert live["deals"] == 4 * 12 and len(live["standings"]) == 4
    table = shown.stdout
    assert "Standings after 48 of 48 deals" in table
    assert all(name in table for name in ("cbot", "crandom", "rulebot", "random"))


def test_a_cut_off_tournament_shows_the_deals_its_log_keeps(tmp_path: Path) -> None:
    args = ("cbot", "crandom", "rulebot", "--blocks", "2", "--no-sandbox")
    ok(zole("tournament", *args, "--log", "t.jsonl", cwd=tmp_path))
    lines = (tmp_path / "t.jsonl").read_text().splitlines(keepends=True)
    (tmp_path / "cut.jsonl").write_text("".join(lines[:8]))  # header, match header, 6 deals
    data = json.loads(ok(zole("standings", "cut.jsonl", "--json", cwd=tmp_path)).stdout)
    assert (data["deals"], data["planned"]) == (6, 12)
    assert data["tables"][0]["deals"] == 6


def test_a_matchs_standings_equal_its_own_json_but_the_run_time(tmp_path: Path) -> None:
    bots = ("cbot", "crandom", "rulebot", "--deals", "9", "--log", "m.jsonl", "--json")
    live = json.loads(ok(zole("match", *bots, cwd=tmp_path)).stdout)
    again = json.loads(ok(zole("standings", "m.jsonl", "--json", cwd=tmp_path)).stdout)
    del live["seconds"]
    assert again == live
    assert "cbot" in ok(zole("standings", "m.jsonl", cwd=tmp_path)).stdout


def test_what_is_not_a_log_gets_one_line(tmp_path: Path) -> None:
    one_line_error(zole("standings", "missing.jsonl", cwd=tmp_path), "no such file")
    (tmp_path / "other.jsonl").write_text('{"a": 1}\n')
    one_line_error(zole("standings", "other.jsonl", cwd=tmp_path), "not a zole-arena log")
    one_line_error(zole("standings", "other.jsonl", "--bootstrap", "3", cwd=tmp_path),
                   "--bootstrap must be at least 10")  # fmt: skip


def test_csv_and_markdown_give_the_standings_and_each_tables_results(tmp_path: Path) -> None:
    args = ("cbot", "crandom", "rulebot", "random", "--blocks", "1", "--no-sandbox")
    live = json.loads(ok(zole("tournament", *args, "--log", "t.jsonl", "--json",
                              cwd=tmp_path)).stdout)  # fmt: skip
    as_csv, as_md, shown, both = zoles(
        ["standings", "t.jsonl", "--csv"], ["standings", "t.jsonl", "--md"],
        ["standings", "t.jsonl"], ["standings", "t.jsonl", "--csv", "--md"], cwd=tmp_path,
    )  # fmt: skip
    rows = list(csv.DictReader(io.StringIO(ok(as_csv).stdout)))
    assert [row["name"] for row in rows] == [entry["name"] for entry in live["standings"]]
    for row, entry in zip(rows, live["standings"], strict=True):
        assert int(row["points"]) == entry["points"] and int(row["deals"]) == entry["deals"]
        assert int(row["solo_won"]) == entry["as_soloist"]["won"]
    page = ok(as_md).stdout
    assert page.count("| --- |") >= 2 and "Results by table" in page
    # Each table's points add up to zero, and the four tables are there.
    tables = [line for line in page.splitlines() if line.startswith("| ") and "/6 |" in line]
    assert len(tables) == 4
    for line in tables:
        players = line.split(" | ")[1].split(", ")
        assert sum(int(player.rsplit(" ", 1)[1]) for player in players) == 0
    assert "Results by table" in ok(shown).stdout
    one_line_error(both, "at most one of --json, --csv and --md")


def test_a_head_to_head_tests_standings_equal_its_own_json(tmp_path: Path) -> None:
    run = zole("sprt", "rulebot", "random", "--max-blocks", "2", "--log", "s.jsonl", "--json",
               cwd=tmp_path)  # fmt: skip
    live = json.loads(run.stdout)
    # Cut off in its second block: one whole block tested, undecided, not stopped.
    lines = (tmp_path / "s.jsonl").read_text().splitlines(keepends=True)
    (tmp_path / "cut.jsonl").write_text("".join(lines[:-3]))
    as_json, shown, cut_json, as_csv, as_md = map(ok, zoles(
        ["standings", "s.jsonl", "--json"], ["standings", "s.jsonl"],
        ["standings", "cut.jsonl", "--json"], ["standings", "s.jsonl", "--csv"],
        ["standings", "s.jsonl", "--md"], cwd=tmp_path,
    ))  # fmt: skip
    assert json.loads(as_json.stdout) == live
    assert live["blocks"] == 2 and live["deals_played"] == 24
    text = shown.stdout
    assert "LLR" in text and "2 blocks = 24 deals" in text
    cut = json.loads(cut_json.stdout)
    assert (cut["blocks"], cut["decision"], cut["stopped"]) == (1, None, None)
    # As CSV and Markdown: its bots as a rating list, with their figures.
    rows = list(csv.DictReader(io.StringIO(as_csv.stdout)))
    assert {row["name"] for row in rows} == {"rulebot", "random", "rulebot#2", "random#2"}
    assert sum(int(row["deals"]) for row in rows) == 24 * 3
    assert sum(int(row["points"]) for row in rows) == 0  # zero-sum
    markdown = as_md.stdout
    assert "Bots of the test after 24 deals" in markdown and "| rulebot |" in markdown


def test_a_log_that_cannot_be_resumed_still_has_standings(tmp_path: Path) -> None:
    # A session a person played, whose bots' folders are gone (a log from another machine):
    # not to be played on, but read.
    golden = Path(__file__).parent / "golden" / "format2-match.jsonl"
    header, *deals = golden.read_text().splitlines(keepends=True)
    fields = json.loads(header)
    fields["players"][0]["command"] = ["<human>"]
    for player in fields["players"]:
        player["cwd"] = str(tmp_path / "gone")
    (tmp_path / "m.jsonl").write_text(json.dumps(fields) + "\n" + "".join(deals))
    shutil.copy(golden, tmp_path / "golden.jsonl")
    data = json.loads(ok(zole("standings", "m.jsonl", "--json", cwd=tmp_path)).stdout)
    expected = json.loads(ok(zole("standings", "golden.jsonl", "--json", cwd=tmp_path)).stdout)
    assert data["players"] == expected["players"] and data["deals"] == 6
    one_line_error(zole("match", "--resume", "m.jsonl", cwd=tmp_path), "cannot be resumed")
