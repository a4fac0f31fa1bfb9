"""``zole-arena replay`` of a table of four's log, made by a real match through the CLI.

At a table of four each deal is a three-player deal among the three who do not deal (seats
A, B, C), and the dealer sits it out (D): replay names him, shows the table's scores and
totals of all four (the deal record's table part, not the deal engine's three-player
``result.scores``), and the ``settle`` record of the pules standing at the end. The deal itself
re-plays through the engine as any three-player deal (dealer seat 2, no pules of its own).

The match is four rulebots (deterministic) over 12 ``lzf`` deals of seed 1, which end with a
personal pule standing, so the log has a ``settle`` record; a three-player match's replay is
run beside it, to show that it has none of this.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from clihelp import ok, zoles

from zole_arena.arena.replay import replay_record
from zole_arena.game.scoring import NO_PULES
from zole_arena.records.model import DealRecord, MatchHeader, SettleRecord
from zole_arena.records.reader import read_log

DEALS = 12
SCORES_RE = re.compile(r"^  scores: (.*)   totals: (.*)$", re.MULTILINE)


def signed(text: str) -> list[tuple[str, int]]:
    """``A +3, B -1`` as ``[("A", 3), ("B", -1)]``."""
    pairs = [item.rsplit(" ", 1) for item in text.strip().split(", ")]
    return [(who, int(value)) for who, value in pairs]


def blocks(stdout: str) -> dict[int, str]:
    """Each deal's part of a replay, by deal number."""
    parts = re.split(r"^(?=Deal \d+ )", stdout, flags=re.MULTILINE)
    return {int(part.split()[1]): part for part in parts if part.startswith("Deal ")}


#: The replays the tests read, by name: each its arguments after the log (four or three).
REPLAYS = {
    "four": ("four.jsonl",),
    "three": ("three.jsonl",),
    "last deal": ("four.jsonl", "--deal", str(DEALS)),
    "first deal": ("four.jsonl", "--deal", "1"),
    "as seat 1": ("four.jsonl", "--deal", "2", "--seat", "1"),
    "times": ("four.jsonl", "--deal", "3", "--times"),
}


class Logs:
    """The logs of the two matches, read, and the replays of them."""

    def __init__(self, folder: Path) -> None:
        self.four = folder / "four.jsonl"
        self.three = folder / "three.jsonl"
        self.replays: dict[str, str] = {}
        records, problems = read_log(self.four)
        assert not problems
        header = records[0]
        assert isinstance(header, MatchHeader)
        self.header = header
        self.deals = [r for r in records if isinstance(r, DealRecord)]
        self.settles = [r for r in records if isinstance(r, SettleRecord)]


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> Logs:
    """A table of four's log and a table of three's, each from a real match."""
    folder = tmp_path_factory.mktemp("replay_four")
    bots = ("rulebot",) * 4
    for proc in zoles(
        ("match", *bots, "--rules", "lzf", "--deals", str(DEALS), "--seed", "1",
         "--log", "four.jsonl"),
        ("match", "rulebot", "random", "rulebot", "--rules", "lzf", "--deals", "6", "--seed",
         "1", "--log", "three.jsonl"),
        cwd=folder,
    ):  # fmt: skip
        ok(proc)
    found = Logs(folder)
    assert len(found.deals) == DEALS and all(r.table is not None for r in found.deals)
    # The match must end with a personal pule standing for the log to have a settle record.
    assert len(found.settles) == 1 and found.settles[0].pules.personal, found.settles
    done = zoles(*(("replay", *args) for args in REPLAYS.values()), cwd=folder)
    found.replays = {name: ok(proc).stdout for name, proc in zip(REPLAYS, done, strict=True)}
    return found


def test_replay_names_who_sat_each_deal_out(logs: Logs) -> None:
    shown = blocks(logs.replays["four"])
    assert sorted(shown) == list(range(1, DEALS + 1))
    for record in logs.deals:
        assert record.table is not None
        name = logs.header.names[record.table.dealer]
        text = shown[record.deal]
        assert text.startswith(f"Deal {record.deal} — rules lzf, seed 1, dealer D {name}\n"), text
        assert f"\n  D {name} sits out (dealer)\n" in text, text
        assert name not in {r.name for r in record.players}  # the sitter plays no seat


def test_replay_shows_the_four_table_scores_and_totals(logs: Logs) -> None:
    shown = blocks(logs.replays["four"])
    engine_differs = 0
    for record in logs.deals:
        table = record.table
        assert table is not None
        (scores, totals), *more = SCORES_RE.findall(shown[record.deal])
        assert not more
        order = [*record.seating, table.dealer]  # table seats of A, B, C and D
        assert signed(scores) == list(zip("ABCD", (table.scores[p] for p in order), strict=True))
        assert signed(totals) == list(zip("ABCD", (table.totals[p] for p in order), strict=True))
        assert sorted(v for _, v in signed(scores)) == sorted(table.scores)
        assert [v for _, v in signed(scores)][:3] == list(record.seat_scores)
        engine_differs += list(record.result.scores) != list(record.seat_scores)
    assert engine_differs  # a soloist's deal: the sitter's payment is not in result.scores


def test_replay_shows_the_pules_settled_at_the_end(logs: Logs) -> None:
    settle = logs.settles[0]
    stdout = logs.replays["four"]
    names = logs.header.names
    last = blocks(stdout)[DEALS]
    head = f"Pules standing at the end (after deal {DEALS}): "
    assert head in last, last  # after the last deal, not before it
    line = next(line for line in last.splitlines() if line.startswith(head))
    for owner in set(settle.pules.personal):
        assert f"{settle.pules.personal.count(owner)} of {names[owner]}" in line, line
    assert f"each costs its owner {settle.payment} to each other player" in line, line
    (scores, totals), *_ = SCORES_RE.findall(last[last.index(head) :].replace("final ", ""))
    assert signed(scores) == list(zip(names, settle.scores, strict=True))
    assert signed(totals) == list(zip(names, settle.totals, strict=True))
    # One deal alone (the last) still ends with the settle; another does not.
    assert head in logs.replays["last deal"]
    assert head not in logs.replays["first deal"]


def test_replay_as_one_seat_at_a_table_of_four(logs: Logs) -> None:
    record = logs.deals[1]
    assert record.table is not None
    text = logs.replays["as seat 1"]
    name = record.players[1].name
    assert f" — as seen by seat 1, B {name}" in text.splitlines()[0], text
    hands = [line for line in text.splitlines()  # a seat's name, then its eight cards
             if re.match(r"^  [ABC] ", line) and sum(map(line.count, "♣♠♥♦")) == 8]  # fmt: skip
    assert [line.split()[0] for line in hands] == ["B"], text  # only its own hand
    assert f"  D {logs.header.names[record.table.dealer]} sits out (dealer)" in text
    (scores, _), *_ = SCORES_RE.findall(text)
    assert [who for who, _ in signed(scores)] == ["A", "B", "C", "D"]


def test_the_engine_replays_every_deal_of_a_table_of_four(logs: Logs) -> None:
    for record in logs.deals:
        assert record.dealer == 2 and record.pules_before == NO_PULES  # the deal's own
        replayed = replay_record(record)
        assert replayed.problems == [], (record.deal, replayed.problems)
        assert replayed.state is not None and replayed.state.result is not None
        assert replayed.state.result.contract == record.result.contract


def test_replay_of_a_table_of_three_shows_no_table(logs: Logs) -> None:
    stdout = logs.replays["three"]
    records, _ = read_log(logs.three)
    deals = [r for r in records if isinstance(r, DealRecord)]
    shown = blocks(stdout)
    assert "sits out" not in stdout and "Pules standing at the end" not in stdout
    assert "table of four" not in stdout
    for record in deals:
        (scores, totals), *_ = SCORES_RE.findall(shown[record.deal])
        assert signed(scores) == list(zip("ABC", record.result.scores, strict=True))
        assert signed(totals) == list(zip("ABC", record.totals, strict=True))
        text = shown[record.deal]
        dealer = record.players[record.dealer].name
        assert f", dealer {'ABC'[record.dealer]} {dealer}\n" in text.splitlines(True)[0]


def test_replay_with_times_at_a_table_of_four(logs: Logs) -> None:
    """``--times`` at four: the three who played used time; the table's scores as ever."""
    stdout = logs.replays["times"]
    assert re.search(r"^  time: A .*; B .*; C ", stdout, re.MULTILINE), stdout
    assert re.search(r"^  scores: A [+-]\d+, B [+-]\d+, C [+-]\d+, D [+-]\d+ ", stdout,
                     re.MULTILINE), stdout  # fmt: skip
