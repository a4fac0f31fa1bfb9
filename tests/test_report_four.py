"""``zole-arena report`` of a match at a table of four, opened in a real headless Chromium.

Four real bots play a real match through the command (the dealer sits each deal out and pays
or collects as an opponent; the personal pules standing at the end are settled in a
``settle`` record), and its report is checked against what ``standings`` and ``ratings``
compute from the same log and against the log's own records: the points of every bot (the
deals it sat out and the settle included), the results by match, the head to head, and the
deal viewer with the four players of the table. A three-player log's report keeps its form,
and crafted logs (a settle whose match header is not in the logs, a forged one, a sitter who
also plays) make a page, never a crash.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browserhelp import backs_in, cards_in, open_page, start_browser
from clihelp import PY, ok, zole, zoles

from zole_arena.records.model import DealRecord, MatchHeader, SettleRecord
from zole_arena.records.reader import read_log

GOLDEN = Path(__file__).parent / "golden"
RANDOM = Path(__file__).resolve().parents[1] / "bots" / "random_bot.py"
#: Seeded random bots and rule bots, so that the match is the same every time: under lzf
#: with seed 1 the random bots leave personal pules standing at the end (a settle record).
MATCH = ["match", f"rand1={PY} {RANDOM} --seed 3", "rulebot", f"rand2={PY} {RANDOM} --seed 4",
         "rulebot", "--rules", "lzf", "--deals", "24", "--seed", "1",
         "--log", "m.jsonl"]  # fmt: skip

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture(scope="module")
def chrome() -> Iterator[Any]:
    yield from start_browser()


@pytest.fixture(scope="module")
def four(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A match of four bots at one table (``m.jsonl``) and its report (``m.html``), with the
    golden three-player tournament log and its report (``t.jsonl``, ``t.html``) beside."""
    folder = tmp_path_factory.mktemp("four")
    shutil.copy(GOLDEN / "format2-tournament.jsonl", folder / "t.jsonl")
    for done in zoles(MATCH, ["report", "t.jsonl"], cwd=folder):  # at once
        ok(done)
    ok(zole("report", "m.jsonl", cwd=folder))
    return folder


def records_of(log: Path) -> tuple[list[DealRecord], list[SettleRecord]]:
    records, _ = read_log(log)
    deals = [record for record in records if isinstance(record, DealRecord)]
    return deals, [record for record in records if isinstance(record, SettleRecord)]


def standings_rows(chrome: Any) -> list[list[str]]:
    rows = chrome.find_elements("css selector", "table.standings tbody tr")
    return [[cell.text for cell in row.find_elements("tag name", "td")] for row in rows]


def minus(value: int) -> str:
    """A score as the deal viewer writes it (a true minus)."""
    return f"{value:+d}".replace("-", "\u2212") if value else "0"


def severe_errors(chrome: Any) -> list[Any]:
    return [entry for entry in chrome.get_log("browser") if entry["level"] == "SEVERE"]


def rechained(records: list[dict[str, Any]]) -> str:
    """Records as log lines with their hash chain made whole, as a forger would."""
    out: list[str] = []
    previous = None
    for record in records:
        text = json.dumps({**record, "prev": previous}, separators=(",", ":"), ensure_ascii=False)
        out.append(text)
        previous = hashlib.sha256(text.encode()).hexdigest()
    return "\n".join(out) + "\n"


# -- the figures ---------------------------------------------------------------------------


def test_the_standings_count_the_deals_sat_out_and_the_settle(chrome: Any, four: Path) -> None:
    expected = json.loads(ok(zole("standings", "m.jsonl", "--json", cwd=four)).stdout)
    rated = json.loads(ok(zole("ratings", "m.jsonl", "--json", cwd=four)).stdout)
    deals, settles = records_of(four / "m.jsonl")
    # The match is one that tells the table's scores from the engine's: the settle paid,
    # and the engine's three-player figures would give other points.
    assert len(settles) == 1 and any(settles[0].scores)
    engine: dict[str, int] = {}
    for deal in deals:
        for name, score in zip(deal.names, deal.result.scores, strict=True):
            engine[name] = engine.get(name, 0) + score
    by_name = {entry["name"]: entry for entry in expected["players"]}
    assert any(engine[name] != entry["points"] for name, entry in by_name.items())
    elo = {entry["name"]: entry["elo"] for entry in rated["ratings"]}
    open_page(chrome, four / "m.html")
    rows = standings_rows(chrome)
    assert len(rows) == 4
    for row in rows:
        _place, name, shown_elo, _interval, _los, deals_, points, per_deal, half, *_ = row
        entry = by_name[name]
        assert int(deals_) == entry["deals"] == 24  # 18 played, 6 sat out
        assert int(points) == entry["points"]
        assert float(per_deal) == pytest.approx(entry["points_per_deal"], abs=0.001)
        assert float(half) == pytest.approx(entry["ci95"], abs=0.001)
        assert shown_elo == f"{round(elo[name]):+d}"
    assert "sits the deal out" in chrome.find_element("id", "four-note").text


def test_the_results_by_match_give_the_tables_totals_and_the_settle(
    chrome: Any, four: Path
) -> None:
    deals, settles = records_of(four / "m.jsonl")
    header = read_log(four / "m.jsonl")[0][0]
    last = deals[-1].table
    assert isinstance(header, MatchHeader) and last is not None
    settle = settles[0]
    open_page(chrome, four / "m.html")
    row = chrome.find_element("css selector", "table.matches tbody tr")
    match, players, played = (cell.text for cell in row.find_elements("tag name", "td"))
    assert match == "m.jsonl" and played == "24/24"
    lines = players.splitlines()
    names = list(header.names)
    assert lines[0] == ", ".join(
        f"{name} {total:+d}" for name, total in zip(names, settle.totals, strict=True)
    )
    assert settle.totals == tuple(
        total + score for total, score in zip(last.totals, settle.scores, strict=True)
    )
    owners: dict[int, int] = {}
    for owner in settle.pules.personal:
        owners[owner] = owners.get(owner, 0) + 1
    said = lines[1]
    assert said.startswith("pules settled at the end")
    for owner, count in owners.items():
        pules = f"{count} pule" + ("s" if count != 1 else "")
        assert f"{names[owner]} {pules}, pays {3 * count}" in said
    assert said.endswith(
        ", ".join(
            f"{name} {score:+d}" if score else f"{name} 0"
            for name, score in zip(names, settle.scores, strict=True)
        )
    )


def test_the_head_to_head_counts_the_three_who_played_by_the_tables_scores(
    chrome: Any, four: Path
) -> None:
    deals, _ = records_of(four / "m.jsonl")
    games: dict[tuple[str, str], list[float]] = {}
    for deal in deals:
        played = list(zip(deal.names, deal.seat_scores, strict=True))
        for first, a in played:
            for second, b in played:
                if first != second:
                    score = 1.0 if a > b else 0.5 if a == b else 0.0
                    games.setdefault((first, second), []).append(score)
    open_page(chrome, four / "m.html")
    names = [row[1] for row in standings_rows(chrome)]
    rows = chrome.find_elements("css selector", "table.crosstable tbody tr")
    for name, row in zip(names, rows, strict=True):
        for other, cell in zip(names, row.find_elements("tag name", "td"), strict=True):
            if other != name:
                scores = games[name, other]
                assert cell.text.splitlines()[0] == f"{100 * sum(scores) / len(scores):.1f}%"
                assert f"of {len(scores)} pairwise games" in cell.get_attribute("title")


# -- the deal viewer -----------------------------------------------------------------------


def a_take_at_four(four: Path) -> tuple[int, DealRecord]:
    """The first deal of the match played out as a take whose table scores are not the
    engine's (the sitter paid too), with its number."""
    deals, _ = records_of(four / "m.jsonl")
    takes = [
        (n, deal)
        for n, deal in enumerate(deals, 1)
        if deal.result.contract is not None
        and deal.result.contract.value == "take"
        and deal.seat_scores != deal.result.scores
    ]
    # One with pules standing, when there is one: the viewer then names their owners.
    with_pules = [(n, d) for n, d in takes if d.table and (d.table.pules or d.table.pules_before)]
    return (with_pules or takes)[0]


def test_the_viewer_shows_the_four_players_and_the_sitter_marked(chrome: Any, four: Path) -> None:
    number, deal = a_take_at_four(four)
    table = deal.table
    assert table is not None
    sitter = table.sitter.name
    chrome.get_log("browser")  # forget the messages of the tests before
    open_page(chrome, four / "m.html", f"#deal={deal.match_id}-{deal.deal}")
    press_end = "\ue010"
    from selenium.webdriver.common.action_chains import ActionChains

    for seat in range(3):
        assert cards_in(chrome, f"#hand-{seat}") == [str(c) for c in deal.hands[seat]]
    out = chrome.find_element("id", "hand-out")
    assert out.find_element("class name", "who").text == f"{sitter} sits out (dealer)"
    assert out.find_elements("class name", "card") == []  # he has no hand
    # The engine's dealer is a seat of the three, but at four the dealer is the one out.
    for seat in range(3):
        who = chrome.find_element("css selector", f"#hand-{seat} .who").text
        assert who.startswith(f"seat {seat}: {deal.names[seat]}") and "dealer" not in who
    ActionChains(chrome).send_keys(press_end).perform()
    for seat, player in enumerate(deal.seating):
        cells = [c.text for c in chrome.find_elements("css selector", f"#score-{seat} td")]
        assert cells[1] == deal.names[seat]
        assert cells[4] == minus(table.scores[player]) and cells[5] == minus(table.totals[player])
    cells = [c.text for c in chrome.find_elements("css selector", "#score-out td")]
    assert cells[1] == f"{sitter} (sat out, dealer)"
    assert cells[4] == minus(table.scores[table.dealer])
    assert cells[5] == minus(table.totals[table.dealer])
    # The table's pules, their owners named by table seat.
    names = {player: deal.names[seat] for seat, player in enumerate(deal.seating)}
    names[table.dealer] = sitter
    after = table.pules
    if after or table.pules_before:  # the viewer shows the pules of a deal that had some
        pules = chrome.find_element("id", "pules").text
        if after.personal:
            assert "after: " in pules and ", ".join(names[o] for o in after.personal) in pules
        if after.common:
            assert f"after: {after.common} common" in pules
    else:
        assert chrome.find_elements("id", "pules") == []
    # The deal list: the one who sat out, and his score after the three.
    row = chrome.find_element("css selector", f"tr.deal-row[data-deal='{number}']")
    assert f"sits out: {sitter}" in row.text
    scores = (
        " ".join(minus(s) for s in deal.seat_scores)
        + " \u00b7 "
        + minus(table.scores[table.dealer])
    )
    assert scores in row.text
    assert not severe_errors(chrome)


def test_the_seat_toggle_works_for_the_three_and_the_sitter_sees_no_hand(
    chrome: Any, four: Path
) -> None:
    _, deal = a_take_at_four(four)
    soloist = deal.result.soloist
    assert soloist is not None and deal.table is not None
    defender = (soloist + 1) % 3
    open_page(chrome, four / "m.html", f"#deal={deal.match_id}-{deal.deal}&seat={defender}")
    for seat in range(3):
        if seat == defender:
            assert cards_in(chrome, f"#hand-{seat}") == [str(c) for c in deal.hands[seat]]
        else:
            assert cards_in(chrome, f"#hand-{seat}") == [] and backs_in(chrome, f"#hand-{seat}")
    chrome.find_element("id", "seat-out").click()
    assert chrome.current_url.endswith(f"#deal={deal.match_id}-{deal.deal}&seat=out")
    assert "me" in chrome.find_element("id", "hand-out").get_attribute("class").split()
    for seat in range(3):
        assert cards_in(chrome, f"#hand-{seat}") == [] and backs_in(chrome, f"#hand-{seat}") == 8
    assert cards_in(chrome, "#talon") == [] and backs_in(chrome, "#talon") == 2
    # The play is public: a trick on, he sees the cards on the table, and no hand still.
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(chrome).send_keys("\ue014", "\ue015").perform()
    assert cards_in(chrome, "#trick") == [str(c) for c in deal.tricks[0].cards]
    assert all(cards_in(chrome, f"#hand-{seat}") == [] for seat in range(3))
    assert cards_in(chrome, "#buried") == []  # only the soloist who took the talon sees it
    # The link is the view: opened afresh, it is the sitter's again.
    link = chrome.find_element("id", "deal-link").get_attribute("href")
    assert link.endswith("&seat=out&step=4")
    chrome.get("about:blank")
    chrome.get(link)
    assert chrome.find_element("id", "seat-out").is_selected()
    assert all(backs_in(chrome, f"#hand-{seat}") == 7 for seat in range(3))


def test_the_bot_filter_keeps_the_deals_a_bot_sat_out(chrome: Any, four: Path) -> None:
    deals, _ = records_of(four / "m.jsonl")
    open_page(chrome, four / "m.html")
    from selenium.webdriver.support.ui import Select

    Select(chrome.find_element("id", "filter-bot")).select_by_visible_text("rand1")
    rows = chrome.find_elements("css selector", "tr.deal-row")
    assert len(rows) == len(deals) == 24  # 18 played and 6 sat out: all at his table
    out = [n for n, d in enumerate(deals, 1) if d.sitter and d.sitter[0] == "rand1"]
    assert len(out) == 6
    for row in rows:
        if int(row.get_attribute("data-deal")) in out:
            assert "sits out: rand1" in row.text


def test_a_three_player_report_keeps_its_form(chrome: Any, four: Path) -> None:
    from zole_arena.report.collect import collect
    from zole_arena.report.payload import DEAL_FIELDS, payload

    deals, _ = records_of(four / "t.jsonl")
    data = payload(collect([four / "t.jsonl"], points=0))
    scores, four_field = DEAL_FIELDS.index("scores"), DEAL_FIELDS.index("four")
    assert [row[scores] for row in data["deals"]] == [list(d.result.scores) for d in deals]
    assert all(row[four_field] is None for row in data["deals"])
    page = (four / "t.html").read_text()
    assert 'id="four-note"' not in page and "pules settled" not in page
    deal = next(d for d in deals if d.result.contract and d.result.contract.value == "take")
    # A sitter's view asked of a deal of three is everyone's.
    open_page(chrome, four / "t.html", f"#deal={deal.match_id}-{deal.deal}&seat=out&step=25")
    assert chrome.find_elements("id", "seat-out") == []
    assert chrome.find_elements("id", "hand-out") == []
    assert chrome.find_elements("id", "score-out") == []
    assert chrome.find_element("id", "seat-all").is_selected()
    assert "dealer" in chrome.find_element("id", f"hand-{deal.dealer}").text
    for seat in range(3):
        assert cards_in(chrome, f"#hand-{seat}") == []  # all played by the last step
        cells = [c.text for c in chrome.find_elements("css selector", f"#score-{seat} td")]
        assert cells[4] == minus(deal.result.scores[seat])


# -- crafted logs --------------------------------------------------------------------------


def test_a_settle_whose_match_header_is_missing_is_left_out(four: Path, tmp_path: Path) -> None:
    records = [json.loads(line) for line in (four / "m.jsonl").read_text().splitlines()]
    assert records[-1]["type"] == "settle"
    # The header of another match: every deal lacks its header, and the settle its players.
    other = [{**records[0], "match_id": "other"}, *records[1:]]
    (tmp_path / "a.jsonl").write_text(rechained(other))
    # A settle after a header and no deal.
    (tmp_path / "b.jsonl").write_text(rechained([records[0], records[-1]]))
    # A forged settle (its chain made whole again): verify finds it wrong.
    forged = [*records[:-1], {**records[-1], "scores": [100, -100, 0, 0]}]
    (tmp_path / "c.jsonl").write_text(rechained(forged))
    for name in "abc":
        ok(zole("report", f"{name}.jsonl", cwd=tmp_path))
    page = (tmp_path / "a.html").read_text()
    assert "neither the match&#x27;s header nor a deal of it is in the report: not counted" in page
    assert "pules settled" not in page
    page = (tmp_path / "b.html").read_text()
    assert "settle: " in page and "pules settled" not in page
    page = (tmp_path / "c.html").read_text()
    assert "settle:" in page and "[100, -100, 0, 0]" in page
    assert "(left out of the report&#x27;s figures)" in page and "pules settled" not in page
    expected = json.loads(ok(zole("standings", "m.jsonl", "--json", cwd=four)).stdout)
    settle = records[-1]["scores"]
    from zole_arena.report.collect import collect

    points = {bot.name: bot.stats.points for bot in collect([tmp_path / "c.jsonl"], points=0).bots}
    for player, score in zip(expected["players"], settle, strict=True):
        assert points[player["name"]] == player["points"] - score  # the deals, no settle


def test_a_forged_table_part_does_not_break_the_page(
    chrome: Any, four: Path, tmp_path: Path
) -> None:
    """``verify`` leaves out a deal whose table part its header or its play contradicts; the
    page stands whatever it is given all the same (a report is made from what a library
    reads, too): parts the readers' shape checks let through, but that fit nothing."""
    from zole_arena.game.scoring import Pules
    from zole_arena.report import collect, render
    from zole_arena.report.collect import _Collector
    from zole_arena.report.payload import DEAL_FIELDS, payload

    data = collect([four / "m.jsonl"], bootstrap=20, points=0)
    number, deal = a_take_at_four(four)
    table = deal.table
    assert table is not None
    player = deal.players[0]
    forged = [
        # The sitter is one of the three who play; the pules name every table seat.
        dataclasses.replace(table, sitter=player, pules=Pules(9, (3, 0, 3, 1))),
        # Scores and totals that add up to nothing.
        dataclasses.replace(table, scores=(10**12, -(10**12), 5, 7), totals=(1, 2, 3, 4)),
        # A dealer who also plays: no table of four at all (shown as the deal of three).
        dataclasses.replace(table, dealer=deal.seating[0]),
    ]
    four_field = DEAL_FIELDS.index("four")
    for n, part in enumerate(forged):
        data.deals[number - 1] = dataclasses.replace(deal, table=part)
        row = payload(data)["deals"][number - 1]
        assert (row[four_field] is None) == (n == 2)
        page = tmp_path / f"forged{n}.html"
        page.write_text(render(data), encoding="utf-8")
        chrome.get_log("browser")
        open_page(chrome, page, f"#deal={number}&seat=out&step=99")
        assert chrome.find_element("id", "viewer").is_displayed()
        assert chrome.find_element("id", "scores").is_displayed()
        assert "undefined" not in chrome.find_element("id", "viewer").text
        assert len(chrome.find_elements("id", "hand-out")) == (n != 2)
        assert not severe_errors(chrome)
    # Counted, the sitter who also plays is counted once, with a warning.
    collector = _Collector()
    collector.deal(dataclasses.replace(deal, table=forged[0]), 0, "0" * 64)
    assert sorted(collector.stats) == sorted(deal.names)
    assert all(stats.deals == 1 for stats in collector.stats.values())
    assert "both plays and sits out" in collector.warnings[0]
