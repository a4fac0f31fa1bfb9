"""The library's Bot class at a table of four (protocol/README.md §3, *At a table of four*).

A :class:`~zole_arena.players.bot.Bot` subclass run as a program in a real four-player match
through the CLI writes down what its hooks receive; what it was told must be what the log
records: its table seat and the dealer in every ``DealStart`` (and every view), the table's
scores and pules before each deal, each ``DealEnd``'s table scores and totals, and an
``on_sitout`` on exactly the deals its table seat dealt, with the table's scores, totals and
pules. A bot with ``tables = (3,)`` says ``id tables 3`` and is refused at four in one line,
but plays at three. In the arena's process, the session tells a bot what a program reads
from the same deal's lines when the deal's context carries the table. Real processes and real
logs; nothing sleeps to synchronise.
"""

from __future__ import annotations

import dataclasses
import json
import os
import random
from pathlib import Path
from typing import Any

import pytest
from clihelp import PY, ok, one_line_error, zole

from zole_arena.arena.match import Match
from zole_arena.arena.settings import MatchError, MatchSettings
from zole_arena.game.actions import Action
from zole_arena.game.rules import load_rules
from zole_arena.game.table import TableSheet
from zole_arena.players.inproc import DealContext, InProcessSession
from zole_arena.players.session import BotConfig
from zole_arena.protocol import DealWriter
from zole_arena.protocol.encode import result_event, sitout_event
from zole_arena.sdk.bot import Bot, handshake_lines
from zole_arena.sdk.notation import (
    parse_go,
    parse_newdeal,
    parse_result,
    parse_sitout,
)
from zole_arena.sdk.values import BotView, DealEnd, DealStart, SitOut, TableInfo

ROOT = Path(__file__).resolve().parents[1]
Record = dict[str, Any]

#: A bot on the class that writes down, as JSON lines, what each hook receives (and plays a
#: random legal action from its seed, passing half the time: pules are written). ``three`` as
#: its first argument: the same bot with ``tables = (3,)``. It imports the class by its first
#: path (``zole_arena.players.bot``), which bots written on it still use.
WATCHER = '''
import dataclasses
import json
import random
import sys

from zole_arena.game.actions import Bid
from zole_arena.players.bot import Bot


def plain(value):
    """A hook's value as JSON: dataclasses as dicts, enums as their words."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if hasattr(value, "value") and not dataclasses.is_dataclass(value):
        return value.value
    if dataclasses.is_dataclass(value):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    return [plain(item) for item in value]


class Watcher(Bot):
    name = "Watcher"

    def __init__(self, seed, path):
        self.rng = random.Random(seed)
        self.file = open(path, "a")

    def keep(self, kind, **record):
        self.file.write(json.dumps({"kind": kind, **record}) + "\\n")
        self.file.flush()

    def on_newdeal(self, deal):
        self.keep("newdeal", deal=deal.deal_no, seat=deal.seat, scores=list(deal.scores),
                  pules=plain(deal.pules), table=plain(deal.table))

    def decide(self, view):
        self.keep("go", deal=view.deal_no, table=plain(view.table), pules=plain(view.pules))
        if Bid.PASS in view.legal_actions and self.rng.random() < 0.5:
            return Bid.PASS  # all pass often: pules are written, and left standing
        return self.rng.choice(view.legal_actions)

    def on_result(self, end):
        self.keep("result", deal=end.deal_no, scores=list(end.scores),
                  totals=list(end.totals), table=plain(end.table))

    def on_sitout(self, sitout):
        self.keep("sitout", **plain(sitout))

    def on_quit(self):
        self.keep("quit")


class ThreeOnly(Watcher):
    name = "ThreeOnly"
    tables = (3,)


if __name__ == "__main__":
    kind = ThreeOnly if sys.argv[1] == "three" else Watcher
    kind(int(sys.argv[2]), sys.argv[3]).run()
'''

LZF = load_rules("lzf")


def _records(path: Path) -> list[Record]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def _env() -> dict[str, str]:
    """The environment with this tree's library first on the arena's import path (a bot gets
    no ``PYTHONPATH``: the arena gives bots only a few variables)."""
    return {**os.environ, "PYTHONPATH": str(ROOT)}


def _watcher(folder: Path) -> Path:
    """The watcher bot as a program in ``folder``, importing this tree's library."""
    script = folder / "watcher.py"
    script.write_text(f"import sys\nsys.path.insert(0, {str(ROOT)!r})\n{WATCHER}")
    return script


@dataclasses.dataclass(frozen=True)
class Four:
    deals: list[Record]
    """The log's deal records, in order."""
    told: list[list[Record]]
    """What the watcher at each table seat wrote down, in order."""


@pytest.fixture(scope="module")
def four(tmp_path_factory: pytest.TempPathFactory) -> Four:
    """Four watchers (the player at table seat ``i`` writes ``told{i}.jsonl``) in a match of 24
    deals under ``lzf`` (pules), through the CLI."""
    folder = tmp_path_factory.mktemp("bot-four")
    script = _watcher(folder)
    bots = [f"w{i}={PY} {script} four {i} told{i}.jsonl" for i in range(4)]
    ok(zole("match", *bots, "--rules", "lzf", "--deals", "24", "--seed", "3",
            "--movetime", "5000", "--log", "m.jsonl", cwd=folder, env=_env()))  # fmt: skip
    records = _records(folder / "m.jsonl")
    deals = [record for record in records if record["type"] == "deal"]
    told = [_records(folder / f"told{i}.jsonl") for i in range(4)]
    return Four(deals, told)


def _of(told: list[Record], kind: str) -> dict[int, Record]:
    """The records of one kind, by deal number."""
    return {_deal(record): record for record in told if record["kind"] == kind}


def _deal(record: Record) -> int:
    """A record's deal number (``SitOut`` calls it ``deal_no``)."""
    return int(record["deal"] if "deal" in record else record["deal_no"])


def _table_before(deals: list[Record], index: int) -> list[int]:
    """The table's totals before the deal at ``index``: the last deal's after it."""
    return deals[index - 1]["table"]["totals"] if index else [0, 0, 0, 0]


def test_the_match_is_one_of_four_with_pules_and_without_faults(four: Four) -> None:
    """The ground the other tests stand on: 24 deals at four, each table seat dealing 6,
    no fault (a fault would make the hooks' values those of a forfeit), pules written and
    personal pules standing at some deal (else their fields would go untested)."""
    assert len(four.deals) == 24
    assert all(deal["table"]["size"] == 4 for deal in four.deals)
    dealers = [deal["table"]["dealer"] for deal in four.deals]
    assert sorted(dealers) == sorted([0, 1, 2, 3] * 6)
    assert not any(deal["faults"] for deal in four.deals)
    assert any(deal["table"]["pules_before"]["common"] for deal in four.deals)
    assert any(deal["table"]["pules_before"]["personal"] for deal in four.deals)
    for told in four.told:
        assert told[-1] == {"kind": "quit"}


@pytest.mark.parametrize("table_seat", range(4))
def test_deal_start_names_the_table_seat_and_dealer_the_log_records(
    four: Four, table_seat: int
) -> None:
    """On every deal it plays (and only those), the bot is told its table seat, the dealer
    who sits out, the table's totals and pules before the deal, and its deal seat is the one
    the log's seating gives its table seat; every view carries the same table."""
    told = four.told[table_seat]
    starts = _of(told, "newdeal")
    played = [deal for deal in four.deals if table_seat in deal["seating"]]
    assert sorted(starts) == [deal["deal"] for deal in played]
    assert len(played) == 18
    for index, deal in enumerate(four.deals):
        if deal["deal"] not in starts:
            continue
        start = starts[deal["deal"]]
        table = deal["table"]
        assert deal["seating"][start["seat"]] == table_seat
        assert start["table"] == {
            "size": 4,
            "seat": table_seat,
            "dealer": table["dealer"],
            "scores": _table_before(four.deals, index),
            "personal_pules": table["pules_before"]["personal"],
        }, f"deal {deal['deal']}"
        assert start["pules"]["common"] == table["pules_before"]["common"]
        assert start["scores"] == [_table_before(four.deals, index)[p] for p in deal["seating"]]
    views = [record for record in told if record["kind"] == "go"]
    assert views, "the bot was asked to decide"
    for view in views:
        assert view["table"] == starts[view["deal"]]["table"], "the view has the newdeal's"
        assert view["pules"] == starts[view["deal"]]["pules"]


@pytest.mark.parametrize("table_seat", range(4))
def test_deal_end_has_the_tables_scores_and_totals(four: Four, table_seat: int) -> None:
    """Each ``DealEnd`` of a deal the bot played carries the table's scores and totals as the
    log records them; its ``scores`` and ``totals`` are the table's of the three who played."""
    ends = _of(four.told[table_seat], "result")
    played = [deal for deal in four.deals if table_seat in deal["seating"]]
    assert sorted(ends) == [deal["deal"] for deal in played]
    for deal in played:
        end, table = ends[deal["deal"]], deal["table"]
        assert end["table"] == {
            "size": 4,
            "dealer": table["dealer"],
            "scores": table["scores"],
            "totals": table["totals"],
        }
        assert end["scores"] == [table["scores"][p] for p in deal["seating"]]
        assert end["totals"] == [table["totals"][p] for p in deal["seating"]]


@pytest.mark.parametrize("table_seat", range(4))
def test_on_sitout_is_told_exactly_the_deals_the_bot_dealt(four: Four, table_seat: int) -> None:
    """``on_sitout`` comes on exactly the deals the bot's table seat dealt, after the last
    deal it played and before the next it plays, with what the log records of the deal."""
    told = four.told[table_seat]
    sat = _of(told, "sitout")
    dealt = [deal for deal in four.deals if deal["table"]["dealer"] == table_seat]
    assert sorted(sat) == [deal["deal"] for deal in dealt]
    assert len(dealt) == 6
    for deal in dealt:
        sitout, table, result = sat[deal["deal"]], deal["table"], deal["result"]
        seating = deal["seating"]
        soloist, forfeit = result["soloist"], result["forfeit"]
        assert sitout == {
            "kind": "sitout",
            "deal_no": deal["deal"],
            "size": 4,
            "seat": table_seat,
            "dealer": table_seat,
            "players": seating,
            "contract": result["contract"],
            "soloist": None if soloist is None else seating[soloist],
            "band": result["band"],
            "forfeit": None if forfeit is None else seating[forfeit],
            "scores": table["scores"],
            "totals": table["totals"],
            "pules": table["pules"],
        }, f"deal {deal['deal']}"
    # In order: each sitout after the previous deal's result and before the next newdeal.
    deals = [_deal(record) for record in told if record["kind"] in ("newdeal", "sitout")]
    assert deals == sorted(deals) == list(range(1, 25))
    assert any(sat[d["deal"]]["contract"] not in ("pule", None) for d in dealt)


def test_a_bot_that_plays_only_at_three_is_refused_at_four_and_plays_at_three(
    tmp_path: Path,
) -> None:
    """``tables = (3,)``: a match at four refuses the bot in one line naming it, before the
    first deal; a match at three plays it."""
    script = _watcher(tmp_path)
    three = f"only3={PY} {script} three 1 told.jsonl"
    refused = zole("match", three, "random", "random", "random", "--deals", "4",
                   cwd=tmp_path, env=_env())  # fmt: skip
    one_line_error(refused, "only3", "plays only at tables of 3")
    told = tmp_path / "told.jsonl"
    assert not told.exists() or not any(r["kind"] == "newdeal" for r in _records(told))

    ok(zole("match", three, "random", "random", "--deals", "3", "--log", "m.jsonl",
            cwd=tmp_path, env=_env()))  # fmt: skip
    starts = _of(_records(told), "newdeal")
    assert sorted(starts) == [1, 2, 3]
    assert all(start["table"] is None for start in starts.values())
    assert not any(r["kind"] == "sitout" for r in _records(told))


# -- the handshake and the parsers ------------------------------------------------------------


class _Any(Bot):
    def decide(self, view: BotView) -> Action:
        return view.legal_actions[0]


class _ThreeOnly(_Any):
    tables = (3,)


def test_the_handshake_says_id_tables_only_for_a_bot_that_does_not_play_at_four() -> None:
    assert handshake_lines(_Any()) == ["id name _Any", "zoleok 1"]
    assert handshake_lines(_ThreeOnly()) == ["id name _ThreeOnly", "id tables 3", "zoleok 1"]
    with pytest.raises(ValueError, match="tables"):
        type("Five", (_Any,), {"tables": (5,)})
    with pytest.raises(ValueError, match="tables"):
        type("NoTable", (_Any,), {"tables": ()})


def test_the_protocols_example_reads_into_typed_values() -> None:
    """protocol/README.md's example of deal 5 at four, read as a program reads it."""
    newdeal = parse_newdeal(
        "newdeal deal 5 seat 0 dealer 2 forehand 0 rules lzf hand QC,QS,JS,8D,7D,TC,TS,TH "
        "scores 0,8,-4 commonpules 2 personalpules - tablesize 4 tableseat 0 tabledealer 3 "
        "tablescores 0,8,-4,-4 tablepersonalpules 1".split()
    )
    assert newdeal.table == TableInfo(4, 0, 3, (0, 8, -4, -4), (1,))
    assert newdeal.table.players == (0, 1, 2)
    assert newdeal.table.deal_seat(3) is None and newdeal.table.table_seat(2) == 2
    result = parse_result(
        "result deal 5 contract pule soloist - scores 0,0,0 totals 0,8,-4 tricks 0,0,0 "
        "points 0,0,0 soloistpoints - band - forfeit - tablesize 4 tabledealer 3 "
        "tablescores 0,0,0,0 tabletotals 0,8,-4,-4".split()
    )
    assert result.table is not None and result.table.totals == (0, 8, -4, -4)
    sitout = parse_sitout(
        "sitout deal 5 tablesize 4 tableseat 3 tabledealer 3 players 0,1,2 contract take "
        "soloist 1 band win forfeit - tablescores -1,3,-1,-1 tabletotals -1,11,-5,-5 "
        "tablepersonalpules 2,0 commonpules 3".split()
    )
    assert (sitout.seat, sitout.soloist, sitout.players) == (3, 1, (0, 1, 2))
    assert sitout.pules.common == 3 and sitout.pules.personal == (2, 0)
    assert sitout.scores == (-1, 3, -1, -1) and sitout.totals == (-1, 11, -5, -5)
    three = parse_newdeal(
        "newdeal deal 1 seat 0 dealer 2 forehand 0 rules lzf hand QC scores 0,0,0".split()
    )
    assert three.table is None


# -- in the arena's process -------------------------------------------------------------------


class _Keeper(Bot):
    """Keeps what it is told, and plays the first legal action."""

    def __init__(self) -> None:
        self.starts: list[DealStart] = []
        self.views: list[BotView] = []
        self.ends: list[DealEnd] = []
        self.sitouts: list[SitOut] = []

    def on_newdeal(self, deal: DealStart) -> None:
        self.starts.append(deal)

    def decide(self, view: BotView) -> Action:
        self.views.append(view)
        return view.legal_actions[0]

    def on_result(self, end: DealEnd) -> None:
        self.ends.append(end)

    def on_sitout(self, sitout: SitOut) -> None:
        self.sitouts.append(sitout)


def test_in_process_a_deal_with_its_table_is_told_as_a_program_reads_it() -> None:
    """Given the table in the deal's context, the in-process session tells each of the four
    bots what a program reads from the same deal's ``newdeal``, ``go``, ``result`` and
    ``sitout`` lines: the table, the table's pules and scores, the sitter's ``on_sitout``."""
    for seed in (1, 2):
        keepers = [_Keeper() for _ in range(4)]
        sessions = [InProcessSession(BotConfig.in_process(k)) for k in keepers]
        sheet = TableSheet(LZF, seed, 4)
        rng = random.Random(seed)
        pules_seen = 0
        for deal_no in range(1, 25):
            table = sheet.context()
            _, state = sheet.next_deal()
            players = table.seating.players
            context = DealContext(state, deal_no, table.deal_totals, LZF, table)
            writer = DealWriter(state, deal_no, table.deal_totals, table)
            pules_seen += bool(table.pules.personal)
            while state.result is None:
                seat: int = state.turn  # type: ignore[assignment]
                keeper = keepers[players[seat]]
                sessions[players[seat]].decide(context, seat, 7, 2000, 100)
                _, read = parse_go(writer.go(7, 2000).split())
                start = parse_newdeal(writer.newdeal(seat).split())
                assert keeper.starts[-1] == start, f"seed {seed} deal {deal_no}"
                read.__dict__["table"] = start.table  # as run_bot gives it
                read = dataclasses.replace(read, deadline=keeper.views[-1].deadline)
                assert keeper.views[-1] == read
                legal = state.legal_actions()
                state.apply(legal[rng.randrange(len(legal))])
            result = state.result
            score = sheet.record(result)
            totals = [sheet.totals[p] for p in players]
            for seat, player in enumerate(players):
                sessions[player].deal_over(context, seat, result, totals, score)
                line = result_event(result, deal_no, totals, (table, score))
                assert keepers[player].ends[-1] == parse_result(line.split())
            sitter = table.seating.dealer
            sessions[sitter].sat_out(context, result, score)
            expected = parse_sitout(sitout_event(result, deal_no, table, score).split())
            assert keepers[sitter].sitouts[-1] == expected
        assert [len(k.sitouts) for k in keepers] == [6, 6, 6, 6]
        assert all(start.table is not None for k in keepers for start in k.starts)
    assert pules_seen


def test_in_process_bots_play_a_match_of_four_and_one_for_three_only_is_refused(
    tmp_path: Path,
) -> None:
    """Four bot objects seated in the arena's process play a match at four to its end, each
    only the deals it does not deal; a bot object with ``tables = (3,)`` is refused there."""
    keepers = [_Keeper() for _ in range(4)]
    settings = MatchSettings(rules=LZF, seed=5, deals=12)
    summary = Match(
        [BotConfig.in_process(k) for k in keepers], settings, tmp_path / "m.jsonl"
    ).run()
    assert summary.deals == 12 and summary.stopped is None
    for table_seat, keeper in enumerate(keepers):
        dealt = [n for n in range(1, 13) if (n + 2) % 4 == table_seat]
        assert [start.deal_no for start in keeper.starts] == [
            n for n in range(1, 13) if n not in dealt
        ]
        assert len(keeper.ends) == 9
    ok(zole("verify", "m.jsonl", cwd=tmp_path, env=_env()))

    three_only = [
        BotConfig.in_process(_ThreeOnly()),
        *(BotConfig.in_process(_Any()) for _ in range(3)),
    ]
    with pytest.raises(MatchError, match="plays only at tables of 3"):
        Match(three_only, settings, tmp_path / "refused.jsonl").run()


def test_in_process_a_bot_at_four_is_told_the_table_and_its_sitouts(tmp_path: Path) -> None:
    """The referee hands an object seated in-process the table, as a program reads it."""

    class Told(Bot):
        def __init__(self) -> None:
            self.tables: list[object] = []
            self.sat: list[int] = []

        def on_newdeal(self, deal: DealStart) -> None:
            self.tables.append(deal.table)

        def on_sitout(self, sitout: SitOut) -> None:
            self.sat.append(sitout.deal_no)

        def decide(self, view: BotView) -> Action:
            return view.legal_actions[0]

    bots = [Told() for _ in range(4)]
    settings = MatchSettings(rules=load_rules("lzf"), seed=3, deals=8)
    match = Match([BotConfig.in_process(b, name=f"t{n}") for n, b in enumerate(bots)], settings,
                  tmp_path / "m.jsonl")  # fmt: skip
    match.run()
    for seat, bot in enumerate(bots):
        assert bot.sat == [n for n in range(1, 9) if (n + 2) % 4 == seat]
        assert len(bot.tables) == 6 and all(t is not None for t in bot.tables)
        assert all(t.seat == seat for t in bot.tables)  # type: ignore[attr-defined]
