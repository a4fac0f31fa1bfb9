"""A movement of boards: the default sandboxed tournament deals every bot each cards once.

Tables with no bot in common play the same deals (a board group), each table every deal once,
so that every hand is held by several bots, while
no bot — no process of it, in no seating, at no table — meets the same cards twice
(:mod:`zole_arena.stats.boards`, ``docs/competitions.md``). The attack tests use a bot whose
processes pass every deal they saw to each other through the dentry cache, the channel no
sandbox on one kernel closes.
"""

from __future__ import annotations

import collections
import json
import re
from pathlib import Path
from typing import Any

import pytest
from clihelp import ok, one_line_error, rechained, zole
from hostilehelp import bot_command, parse_attacks, player

from zole_arena.arena.settings import MatchSettings
from zole_arena.catalogue.bundled import bundled_command
from zole_arena.cli.options import sandbox_setting
from zole_arena.events.schedule import Entrant, tables_for
from zole_arena.events.settings import TournamentSettings
from zole_arena.events.tournament import Tournament
from zole_arena.game.rules import load_rules
from zole_arena.stats.boards import board_groups, group_seed, table_seed

pytestmark = pytest.mark.long  # minutes long: run first (conftest.py)

FAST = ("--movetime", "1000")


def lines(path: Path) -> list[dict[str, Any]]:
    """A log's records."""
    return [json.loads(line) for line in path.read_text().splitlines()]


def _cards(deal: dict[str, Any]) -> str:
    """A deal's cards, whoever holds which hand."""
    return json.dumps([*sorted(sorted(h) for h in deal["hands"]), sorted(deal["talon"])])


def _seen(records: list[dict[str, Any]]) -> tuple[dict[str, list[str]], dict[str, set[str]]]:
    """Each bot's deals' cards in order, and each deal's cards' tables."""
    names = {r["match_id"]: [p["name"] for p in r["players"]] for r in records
             if r["type"] == "match"}  # fmt: skip
    by_bot: dict[str, list[str]] = collections.defaultdict(list)
    tables: dict[str, set[str]] = collections.defaultdict(set)
    for deal in (r for r in records if r["type"] == "deal"):
        key = _cards(deal)
        tables[key].add(deal["match_id"])
        for seated in deal["seating"]:
            by_bot[names[deal["match_id"]][seated]].append(key)
    return by_bot, tables


# -- the groups -----------------------------------------------------------------------------


@pytest.mark.parametrize("bots", [4, 5, 6, 7, 9, 12])
def test_a_movement_s_groups_share_no_bot_and_are_as_big_as_the_field_allows(bots: int) -> None:
    tables = [t.players for t in tables_for("round-robin", bots)]
    groups = board_groups(tables, "movement")
    members: dict[int, list[tuple[int, ...]]] = collections.defaultdict(list)
    for table, group in zip(tables, groups, strict=True):
        members[group].append(table)
    for group_tables in members.values():
        seated = [p for t in group_tables for p in t]
        assert len(seated) == len(set(seated)), group_tables  # no bot twice in a group
    sizes = [len(t) for t in members.values()]
    assert max(sizes) == bots // 3
    if bots >= 6:  # most tables share their deals with another
        assert sum(s for s in sizes if s > 1) >= 0.9 * len(tables), sizes


def test_the_other_ways_of_sharing_deals() -> None:
    tables = [t.players for t in tables_for("round-robin", 6)]
    assert board_groups(tables, None) == [0] * 20
    assert board_groups(tables, "own") == list(range(20))
    gauntlet = [t.players for t in tables_for("gauntlet", 6)]
    assert board_groups(gauntlet, "movement") == list(range(10))  # all seat the gauntlet's bot
    assert table_seed(5, None, 3) == 5
    seeds = {table_seed(5, "movement", g) for g in range(100)}
    assert len(seeds) == 100 and 5 not in seeds
    assert group_seed(5, 0) == table_seed(5, "own", 0)


# -- a tournament's log -------------------------------------------------------------------------


def test_a_default_tournament_of_seven_deals_no_bot_the_same_cards_twice(tmp_path: Path) -> None:
    """Seven sandboxed bots: 35 tables in 18 board groups. No bot's deals repeat a card deal,
    all but one table share their deals with another, and the readers agree on the log."""
    bots = ["rulebot", "cbot", "random", "rulebot", "cbot", "random", "rulebot"]
    proc = ok(zole("tournament", *bots, "--deals", "2", "--seed", "11", "--concurrency", "2",
                   "--log", "t.jsonl", "--json", *FAST, cwd=tmp_path, timeout=600))  # fmt: skip
    summary = json.loads(proc.stdout)
    assert summary["deals"] == summary["planned"] == 35 * 2
    assert "note: --duplicate" not in proc.stderr
    records = lines(tmp_path / "t.jsonl")
    header = records[0]
    assert header["boards"] == "movement" and header["duplicate"] is False
    by_bot, tables = _seen(records)
    assert len(by_bot) == 7
    for name, seen in by_bot.items():
        assert len(seen) == len(set(seen)) == 15 * 2, name  # 15 tables of 2 deals, all new
    shared = [key for key, at in tables.items() if len(at) > 1]
    assert len(shared) == 34 and all(len(tables[key]) == 2 for key in shared)
    assert sum(len(at) for at in tables.values()) == 70

    verify = ok(zole("verify", "t.jsonl", cwd=tmp_path))
    assert "70 of 70 deals verify — ok" in verify.stdout
    standings = json.loads(ok(zole("standings", "t.jsonl", "--json", cwd=tmp_path)).stdout)
    assert standings["standings"] == summary["standings"]
    rated = json.loads(ok(zole("ratings", "t.jsonl", "--json", cwd=tmp_path)).stdout)
    assert [(r["name"], r["elo"]) for r in rated["ratings"]] == [
        (s["name"], s["elo"]) for s in summary["standings"]
    ]
    ok(zole("report", "t.jsonl", "-o", "r.html", cwd=tmp_path))
    page = (tmp_path / "r.html").read_text()
    assert all(f'"{name}"' in page for name in by_bot)

    # A table's seed that is not its group's is a finding (a forger who deals it the
    # tournament's own seed again), and so is a header whose boards are unknown.
    forged = [dict(r) for r in records]
    first = next(i for i, r in enumerate(forged) if r["type"] == "match")
    forged[first] = {**forged[first], "seed": 11}
    for i, r in enumerate(forged):
        if r["type"] == "deal" and r["match_id"] == forged[first]["match_id"]:
            forged[i] = {**r, "seed": 11}
    (tmp_path / "f.jsonl").write_text(rechained(forged))
    found = zole("verify", "f.jsonl", cwd=tmp_path)
    assert found.returncode == 1 and "is not board group 1" in found.stdout, found.stdout
    odd = [{**records[0], "boards": "mixed"}, *records[1:]]
    (tmp_path / "b.jsonl").write_text(rechained(odd))
    found = zole("verify", "b.jsonl", cwd=tmp_path)
    assert found.returncode == 1 and "boards is 'mixed', not movement or own" in found.stdout


def test_no_duplicate_gives_every_table_deals_of_its_own_and_resumes(tmp_path: Path) -> None:
    args = ("tournament", "rulebot", "cbot", "random", "cbot", "--no-duplicate", "--deals", "3",
            "--seed", "4", "--no-sandbox", *FAST)  # fmt: skip
    ok(zole(*args, "--log", "whole.jsonl", cwd=tmp_path))
    records = lines(tmp_path / "whole.jsonl")
    assert records[0]["boards"] == "own"
    _, tables = _seen(records)
    assert len(tables) == 12 and all(len(at) == 1 for at in tables.values())
    # Cut after table 2's header and a deal, then resume: the same cards at every table.
    text = (tmp_path / "whole.jsonl").read_text().splitlines(keepends=True)
    (tmp_path / "cut.jsonl").write_text("".join(text[:7]))
    ok(zole("tournament", "--resume", "cut.jsonl", "--no-sandbox", cwd=tmp_path))
    resumed = lines(tmp_path / "cut.jsonl")

    def deals(rs: list[dict[str, Any]]) -> dict[tuple[int, int], str]:
        return {(r["match_id"].rsplit("-t", 1)[1], r["deal"]): _cards(r) for r in rs
                if r["type"] == "deal"}  # fmt: skip

    assert deals(resumed) == deals(records)
    assert "12 of 12 deals verify" in ok(zole("verify", "cut.jsonl", cwd=tmp_path)).stdout


def test_the_options_that_choose_how_tables_share_deals(tmp_path: Path) -> None:
    one_line_error(
        zole("tournament", "rulebot", "random", "random", "--movement", "--duplicate",
             cwd=tmp_path), "give --movement or --duplicate, not both")  # fmt: skip
    one_line_error(
        zole("tournament", "rulebot", "random", "random", "--no-duplicate", "--blocks", "2",
             cwd=tmp_path), "--blocks is for duplicate tables")  # fmt: skip
    one_line_error(
        zole("tournament", *["random"] * 6, "--format", "lzf", "--movement", cwd=tmp_path),
        "every table of a round plays the round's deals",
    )


# -- what a bot's processes can pass each other -------------------------------------------------


def _claims(log: Path, stderr: Path, attacker: str) -> tuple[int, int]:
    """(claims the attacker made, claims that were right): a claim is right when every card it
    names for another seat is in that seat's hand (or the talon, for the soloist), and it names
    at least 8 cards."""
    records = lines(log)
    numbers = {r["match_id"]: r["tournament"]["table"] for r in records if r["type"] == "match"}
    hands = {(numbers[r["match_id"]], r["deal"]): r for r in records if r["type"] == "deal"}
    made = right = 0
    for path in stderr.glob(f"table-*.{attacker}.stderr"):
        table = int(re.match(r"table-(\d+)\.", path.name)[1])  # type: ignore[index]
        for attack in parse_attacks(path.read_text()):
            found = re.match(r"deal (\d+) seat (\d) knows (.*)$", attack.detail)
            if not (attack.succeeded and found):
                continue
            made += 1
            deal = hands[(table, int(found[1]))]
            named = 0
            good = True
            for part in found[3].split():
                seat, cards = part.split(":")
                cards_named = [c for c in cards.split(",") if c]
                held = set(deal["hands"][int(seat)]) | set(deal["talon"])
                good &= set(cards_named) <= held
                named += len(cards_named)
            right += good and named >= 8
    return made, right


def _entrants(mark: str) -> list[str]:
    cheat = player("cheat", bot_command("redteam4_dentry", mark))
    return [cheat, "rulebot", "random", "rulebot", "random", "rulebot"]


def test_the_dentry_cheater_learns_hands_at_duplicate_tables(tmp_path: Path, mark: str) -> None:
    """Duplicate blocks, sandboxed (each seating its own processes): from a block's second
    seating on, the cheater's new process reads what the one before wrote."""
    cheat = player("cheat", bot_command("redteam4_dentry", mark))
    proc = ok(
        zole(
            "tournament",
            cheat,
            "rulebot",
            "random",
            "--duplicate",
            "--blocks",
            "3",
            "--seed",
            "8",
            "--log",
            "t.jsonl",
            *FAST,
            cwd=tmp_path,
            timeout=300,
        )
    )
    assert proc.stderr.count("note: --duplicate with sandboxed bots") == 1
    made, right = _claims(tmp_path / "t.jsonl", tmp_path / "t.jsonl.stderr", "cheat")
    assert right >= 6, (made, right)  # 15 later seatings; the talon's holder may be unknown


def test_the_dentry_cheater_learns_hands_when_every_table_deals_alike(
    tmp_path: Path, mark: str
) -> None:
    """Plain tables that all deal the tournament's seed (--no-duplicate before movements):
    the cheater's later tables meet the deals its earlier ones saw."""
    cheat = Entrant("cheat", tuple(bot_command("redteam4_dentry", mark)), {}, str(tmp_path))
    others = [Entrant(f"{name}{n}", bundled_command(name), {}, str(tmp_path))
              for n, name in enumerate(["rulebot", "random"] * 2 + ["rulebot"])]  # fmt: skip
    entrants = [cheat, *others]
    match = MatchSettings(load_rules("wpt"), seed=8, deals=3, movetime_ms=1000,
                          sandbox=sandbox_setting(True))  # fmt: skip
    settings = TournamentSettings(tuple(entrants), match, boards=None)
    Tournament(settings, tmp_path / "t.jsonl").run()
    made, right = _claims(tmp_path / "t.jsonl", tmp_path / "t.jsonl.stderr", "cheat")
    assert right >= 3, (made, right)


@pytest.mark.parametrize("how", ["movement", "no-duplicate"])
def test_the_dentry_cheater_learns_nothing_when_no_bot_meets_a_deal_twice(
    tmp_path: Path, mark: str, how: str
) -> None:
    """The default (a movement) and --no-duplicate: the cheater sends every deal it saw, and
    no process of it ever holds those cards again."""
    extra = ("--no-duplicate",) if how == "no-duplicate" else ()
    ok(zole("tournament", *_entrants(mark), *extra, "--deals", "3", "--seed", "8",
            "--log", "t.jsonl", *FAST, cwd=tmp_path, timeout=600))  # fmt: skip
    records = lines(tmp_path / "t.jsonl")
    assert records[0]["boards"] == ("own" if extra else "movement")
    stderr = tmp_path / "t.jsonl.stderr"
    sent = sum(p.read_text().count("NOTE sent deal") for p in stderr.glob("table-*.cheat.stderr"))
    assert sent == 10 * 3  # it played (and sent) every deal of its 10 tables
    made, right = _claims(tmp_path / "t.jsonl", stderr, "cheat")
    assert right == 0, (made, right)


def test_a_balanced_field_s_movement_verifies_and_resumes(tmp_path: Path) -> None:
    """Nine bots, a balanced schedule (12 tables): its board groups, and the turned seats kept
    in the header, survive a resume; no bot meets a deal twice."""
    bots = [f"b{n}={name}" for n, name in enumerate(["rulebot", "random", "cbot"] * 3)]
    args = ("tournament", *bots, "--format", "balanced", "--movement", "--deals", "2",
            "--seed", "6", "--no-sandbox", *FAST)  # fmt: skip
    ok(zole(*args, "--log", "whole.jsonl", cwd=tmp_path))
    records = lines(tmp_path / "whole.jsonl")
    assert records[0]["boards"] == "movement" and len(records[0]["tables"]) == 12
    by_bot, tables = _seen(records)
    assert all(len(seen) == len(set(seen)) for seen in by_bot.values())
    assert sum(1 for at in tables.values() if len(at) > 1) >= 8  # most deals at 2+ tables
    text = (tmp_path / "whole.jsonl").read_text().splitlines(keepends=True)
    (tmp_path / "cut.jsonl").write_text("".join(text[:9]))
    ok(zole("tournament", "--resume", "cut.jsonl", "--no-sandbox", cwd=tmp_path))
    resumed = lines(tmp_path / "cut.jsonl")
    assert [r["tables"] for r in resumed[:1]] == [records[0]["tables"]]
    assert sorted(_cards(r) for r in resumed if r["type"] == "deal") == sorted(
        _cards(r) for r in records if r["type"] == "deal"
    )
    assert "24 of 24 deals verify — ok" in ok(zole("verify", "cut.jsonl", cwd=tmp_path)).stdout
