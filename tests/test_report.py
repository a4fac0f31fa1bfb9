"""``zole-arena report``: the HTML page of a set of logs, opened in a real headless Chromium.

The page is made by the real command from real logs (the golden tournament log, whose numbers
are known, and matches played here by real bots, one of them hostile), then clicked through
as a person would: standings, sorting, a deal's hands, stepping through its tricks with the
keyboard, the seat toggle, a shared link, the filters. Nothing in it may ask for the network.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browserhelp import (
    backs_in,
    cards_in,
    open_page,
    requested_urls,
    start_browser,
    wait_up_to,
    whole_page_screenshot,
)
from clihelp import PY, ok, one_line_error, zole, zoles

from zole_arena.records.model import DealRecord
from zole_arena.records.reader import read_log
from zole_arena.report.model import ThinkTime

GOLDEN = Path(__file__).parent / "golden"
INJECTOR = Path(__file__).parent / "hostile_bots" / "html_injector.py"

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture(scope="module")
def chrome() -> Iterator[Any]:
    yield from start_browser()


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The golden tournament log, a match with a bot that answers in markup, a match of the
    lzf rules (zole, all passes writing pules), and their reports."""
    folder = tmp_path_factory.mktemp("report")
    shutil.copy(GOLDEN / "format2-tournament.jsonl", folder / "t.jsonl")
    evil = ["match", "rulebot", "random", f"{PY} {INJECTOR}", "--deals", "4", "--seed", "3",
            "--on-fault", "random", "--max-faults", "1000", "--log", "evil.jsonl"]  # fmt: skip
    lzf = ["match", "rulebot", "random", "rulebot", "--rules", "lzf", "--deals", "30", "--seed",
           "1", "--log", "lzf.jsonl"]  # fmt: skip
    for done in zoles(["report", "t.jsonl"], evil, lzf, cwd=folder):  # at once
        ok(done)
    for done in zoles(["report", "evil.jsonl", "-o", "evil.html"], ["report", "lzf.jsonl"],
                      cwd=folder):  # fmt: skip
        ok(done)
    return folder


def deals_of(log: Path) -> list[DealRecord]:
    records, _ = read_log(log)
    return [record for record in records if isinstance(record, DealRecord)]


def press(chrome: Any, key: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(chrome).send_keys(key).perform()


def standings_rows(chrome: Any) -> list[list[str]]:
    rows = chrome.find_elements("css selector", "table.standings tbody tr")
    return [[cell.text for cell in row.find_elements("tag name", "td")] for row in rows]


# -- the command ---------------------------------------------------------------------------


def test_bad_input_gets_one_line(tmp_path: Path) -> None:
    shutil.copy(GOLDEN / "format2-match.jsonl", tmp_path / "m.jsonl")
    one_line_error(zole("report", "missing.jsonl", cwd=tmp_path), "no such file")
    (tmp_path / "other.jsonl").write_text('{"a": 1}\n')
    one_line_error(zole("report", "other.jsonl", cwd=tmp_path), "not a zole-arena log")
    one_line_error(zole("report", "m.jsonl", "--bootstrap", "3", cwd=tmp_path),
                   "--bootstrap must be from 10 to 10,000")  # fmt: skip
    one_line_error(zole("report", "m.jsonl", "--bootstrap", "100000000", cwd=tmp_path),
                   "--bootstrap must be from 10 to 10,000")  # fmt: skip
    one_line_error(zole("report", "/dev/null", "-o", "r.html", cwd=tmp_path), "not a regular file")
    (tmp_path / "loop.jsonl").symlink_to("loop.jsonl")
    one_line_error(zole("report", "loop.jsonl", cwd=tmp_path), "a link to nothing")
    one_line_error(zole("report", "m.jsonl", "-o", "r.txt", cwd=tmp_path), "name the report")
    one_line_error(zole("report", "m.jsonl", "-o", "no/r.html", cwd=tmp_path), "no folder no")
    (tmp_path / "dir.html").mkdir()
    one_line_error(zole("report", "m.jsonl", "-o", "dir.html", cwd=tmp_path), "is a folder")
    (tmp_path / "m.html").write_text("")
    one_line_error(zole("report", "m.jsonl", "m.html", cwd=tmp_path), "is one of the logs")
    one_line_error(zole("report", "m.jsonl", "m.html", "-o", "r.html", cwd=tmp_path),
                   "m.html: not a zole-arena log")  # fmt: skip
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dir.html", "loop.jsonl", "m.html",
                                                          "m.jsonl", "other.jsonl"]  # fmt: skip


def test_the_page_is_written_whole_beside_the_log(logs: Path) -> None:
    page = (logs / "t.html").read_text()
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert not list(logs.glob(".t.html.*"))  # no temporary file left behind
    assert (logs / "t.html").stat().st_mode & 0o644 == 0o644


def test_the_guides_python_example_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    guide = (Path(__file__).parent.parent / "docs" / "report.md").read_text()
    example = guide.split("```python\n")[1].split("```")[0]
    shutil.copy(GOLDEN / "format2-tournament.jsonl", tmp_path / "t.jsonl")
    monkeypatch.chdir(tmp_path)
    exec(compile(example, "docs/report.md", "exec"), {})
    assert (tmp_path / "t.html").read_text().startswith("<!DOCTYPE html>")


def test_think_time_figures() -> None:
    times = ThinkTime.of([float(n) for n in range(1, 101)])
    assert (times.moves, times.median, times.p95, times.max) == (100, 50.5, 95.0, 100.0)
    assert ThinkTime.of([]).median is None


# -- in the browser ------------------------------------------------------------------------


def test_the_standings_show_the_numbers_of_standings_json(chrome: Any, logs: Path) -> None:
    expected = json.loads(ok(zole("standings", "t.jsonl", "--json", cwd=logs)).stdout)
    open_page(chrome, logs / "t.html")
    rows = standings_rows(chrome)
    assert len(rows) == len(expected["standings"]) == 4
    for row, entry in zip(rows, expected["standings"], strict=True):
        _place, name, elo, interval, _los, deals, points, per_deal, *_ = row
        assert name == entry["name"]
        assert elo == f"{round(entry['elo']):+d}"
        if entry["low"] is None:  # one block at every table: a single cluster of cards
            assert interval == "n/a"
        else:
            assert interval == f"{round(entry['low']):+d} … {round(entry['high']):+d}"
        assert int(deals) == entry["deals"] and int(points) == entry["points"]
        assert float(per_deal) == pytest.approx(entry["points_per_deal"], abs=0.001)
        assert row[-1] == str(entry["faults"])
        take = row[9]
        assert take == f"{entry['as_soloist']['won']}/{entry['as_soloist']['deals']}"
    # The head-to-head table: each bot's score against each other, as standings counts it.
    cells = chrome.find_elements("css selector", "table.crosstable tbody tr")
    names = [entry["name"] for entry in expected["standings"]]
    for name, row in zip(names, cells, strict=True):
        for other, cell in zip(names, row.find_elements("tag name", "td"), strict=True):
            if other != name:
                pair = expected["head_to_head"][name][other]
                score, games = pair["score"], pair["games"]
                assert cell.text.splitlines()[0] == f"{100 * score / games:.1f}%"


def test_the_results_by_match_are_those_of_standings(chrome: Any, logs: Path) -> None:
    markdown = ok(zole("standings", "t.jsonl", "--md", cwd=logs)).stdout
    by_table = markdown.split("Results by table")[1].strip().splitlines()[2:]
    expected = [[cell.strip() for cell in line.strip("|").split("|")] for line in by_table]
    open_page(chrome, logs / "t.html")
    rows = chrome.find_elements("css selector", "table.matches tbody tr")
    shown = [[cell.text for cell in row.find_elements("tag name", "td")] for row in rows]
    assert shown == [[f"table {number}", players, deals] for number, players, deals in expected]


def test_a_click_on_a_heading_sorts(chrome: Any, logs: Path) -> None:
    open_page(chrome, logs / "t.html")
    heading = chrome.find_element("xpath", "//table[contains(@class,'standings')]//th[.='points']")
    heading.click()
    points = [int(row[6]) for row in standings_rows(chrome)]
    assert points == sorted(points, reverse=True)
    heading.click()
    points = [int(row[6]) for row in standings_rows(chrome)]
    assert points == sorted(points)
    chrome.find_element("xpath", "//table[contains(@class,'standings')]//th[.='bot']").click()
    names = [row[1] for row in standings_rows(chrome)]
    assert names == sorted(names)


def test_a_deal_shows_its_hands_and_steps_through_its_tricks(chrome: Any, logs: Path) -> None:
    deals = deals_of(logs / "t.jsonl")
    number = next(n for n, deal in enumerate(deals, 1) if deal.result.contract
                  and deal.result.contract.value == "take")  # fmt: skip
    deal = deals[number - 1]
    open_page(chrome, logs / "t.html")
    chrome.find_element("css selector", f"tr.deal-row[data-deal='{number}']").click()
    assert chrome.find_element("id", "viewer").is_displayed()
    assert chrome.current_url.endswith(f"#deal={deal.match_id}-{deal.deal}")
    for seat in range(3):
        assert cards_in(chrome, f"#hand-{seat}") == [str(c) for c in deal.hands[seat]]
    assert cards_in(chrome, "#talon") == [str(c) for c in deal.talon]
    # As dealt: before the bidding, so neither the bids nor the bury yet.
    assert chrome.find_element("id", "step-info").text == "step 0 of 25"
    assert chrome.find_elements("id", "buried") == []
    assert "for the bidding" in chrome.find_element("id", "bids").text
    press(chrome, "\ue014")  # → : the bidding done, the soloist's hand has the talon, less the bury
    assert cards_in(chrome, "#buried") == [str(c) for c in deal.buried]
    bids = chrome.find_element("id", "bids").text.splitlines()
    assert len(bids) == sum(move.action in ("pass", "take", "zole") for move in deal.moves)
    soloist = deal.result.soloist
    assert soloist is not None
    held = sorted({*deal.hands[soloist], *deal.talon} - set(deal.buried))
    assert cards_in(chrome, f"#hand-{soloist}") == [str(c) for c in held]
    press(chrome, "\ue014")  # → : one card on the table
    assert cards_in(chrome, "#trick") == [str(deal.tricks[0].cards[0])]
    assert chrome.find_element("id", "trick-winner").text.strip() == ""  # no winner yet
    press(chrome, "\ue012")  # ← : back to the bidding
    for number_of_trick, trick in enumerate(deal.tricks, 1):
        press(chrome, "\ue015")  # ↓ : a trick on
        step = 1 + 3 * number_of_trick
        assert chrome.find_element("id", "step-info").text == f"step {step} of 25"
        shown = cards_in(chrome, "#trick")
        assert shown == [str(c) for c in trick.cards]
        winner = chrome.find_element("id", "trick-winner").text
        assert winner == f"{deal.names[trick.winner]} wins {trick.points} points"
        for seat in range(3):
            assert len(cards_in(chrome, f"#hand-{seat}")) == 8 - number_of_trick
    result = chrome.find_element("id", "scores").text
    for seat in range(3):
        assert f"{deal.result.scores[seat]:+d}".replace("-", "−") in result
    press(chrome, "\ue012")  # ← : the last card taken back
    assert cards_in(chrome, "#trick") == [str(c) for c in deal.tricks[-1].cards[:2]]
    press(chrome, "\ue013")  # ↑ : to the end of the trick before
    assert cards_in(chrome, "#trick") == [str(c) for c in deal.tricks[-2].cards]
    press(chrome, "\ue011")  # Home: as dealt
    assert chrome.find_element("id", "step-info").text == "step 0 of 25"


def test_the_seat_toggle_hides_what_that_seat_could_not_see(chrome: Any, logs: Path) -> None:
    deals = deals_of(logs / "t.jsonl")
    number, deal = next((n, d) for n, d in enumerate(deals, 1) if d.result.soloist is not None
                        and d.result.contract and d.result.contract.value == "take")  # fmt: skip
    soloist = deal.result.soloist
    assert soloist is not None
    other = (soloist + 1) % 3
    open_page(chrome, logs / "t.html", f"#deal={number}")
    chrome.find_element("css selector", f"#seat-toggle input[value='{other}']").click()
    assert f"seat={other}" in chrome.current_url
    for seat in range(3):
        if seat == other:
            assert cards_in(chrome, f"#hand-{seat}") == [str(c) for c in deal.hands[seat]]
        else:
            assert (
                cards_in(chrome, f"#hand-{seat}") == [] and backs_in(chrome, f"#hand-{seat}") == 8
            )
    assert cards_in(chrome, "#talon") == [] and cards_in(chrome, "#buried") == []
    # The link is the view: a fresh page opened at it shows the same, a trick on.
    press(chrome, "\ue014")
    press(chrome, "\ue015")
    link = chrome.find_element("id", "deal-link").get_attribute("href")
    assert link.endswith(f"#deal={deal.match_id}-{deal.deal}&seat={other}&step=4")
    chrome.get("about:blank")
    chrome.get(link)
    assert cards_in(chrome, f"#hand-{soloist}") == []
    assert cards_in(chrome, "#trick") == [str(c) for c in deal.tricks[0].cards]  # played: public
    assert len(cards_in(chrome, f"#hand-{other}")) == 7
    # The soloist who took the talon sees it, and what he buried, once he has picked it up.
    chrome.find_element("css selector", f"#seat-toggle input[value='{soloist}']").click()
    assert cards_in(chrome, "#talon") == [str(c) for c in deal.talon]
    assert cards_in(chrome, "#buried") == [str(c) for c in deal.buried]


def test_the_filters_list_only_matching_deals(chrome: Any, logs: Path) -> None:
    deals = deals_of(logs / "t.jsonl")
    open_page(chrome, logs / "t.html")
    from selenium.webdriver.support.ui import Select

    Select(chrome.find_element("id", "filter-contract")).select_by_value("table")
    rows = chrome.find_elements("css selector", "tr.deal-row")
    tables = [n for n, d in enumerate(deals, 1) if d.result.contract
              and d.result.contract.value == "table"]  # fmt: skip
    assert [int(row.get_attribute("data-deal")) for row in rows] == tables
    Select(chrome.find_element("id", "filter-contract")).select_by_value("")
    Select(chrome.find_element("id", "filter-bot")).select_by_visible_text("wild")
    rows = chrome.find_elements("css selector", "tr.deal-row")
    assert len(rows) == sum("wild" in d.names for d in deals) and rows
    assert all("wild" in row.text for row in rows)


def test_faults_are_listed_with_their_deals_and_markup_stays_text(chrome: Any, logs: Path) -> None:
    deals = deals_of(logs / "evil.jsonl")
    faulty = [n for n, d in enumerate(deals, 1) if d.faults]
    assert faulty
    open_page(chrome, logs / "evil.html")
    assert chrome.title.startswith("Zole report")  # no script of the bot's ran
    assert chrome.find_elements("id", "injected") == []
    assert chrome.find_elements("css selector", "img") == []
    bot = chrome.find_element(
        "xpath", "//section[@class='bot'][.//h3[contains(., 'html_injector')]]"
    )
    assert "id <img src=x onerror=" in bot.text and "</script><script>" in bot.text
    chrome.find_element("id", "filter-faults").click()
    rows = chrome.find_elements("css selector", "tr.deal-row")
    assert [int(row.get_attribute("data-deal")) for row in rows] == faulty
    folded = bot.find_element("tag name", "details")
    assert folded.get_attribute("open") is None  # more than 10 faults: folded
    bot.find_element("tag name", "summary").click()
    assert "<script>document.title='pwned'</script>" in folded.text
    link = bot.find_element("css selector", "a.dealref")
    link.click()  # the page draws the deal when the address changes: wait for it
    target = link.text.split()[1]  # "deal N"
    wait_up_to(chrome, 10).until(
        lambda c: c.find_element("id", "viewer-title").text.startswith(f"Deal {target}:")
    )
    press(chrome, "\ue010")  # End: the result and the deal's faults
    shown = chrome.find_element("id", "deal-faults").text
    assert "<script>document.title='pwned'</script>" in shown
    assert chrome.title.startswith("Zole report")


def test_nothing_in_the_page_asks_for_the_network(chrome: Any, logs: Path) -> None:
    requested_urls(chrome)  # forget what came before
    page = logs / "t.html"
    open_page(chrome, page, "#deal=3")
    press(chrome, "\ue010")
    assert set(requested_urls(chrome)) <= {page.as_uri(), page.as_uri() + "#deal=3"}
    # And the page's policy forbids any fetch, whatever a script might try.
    outcome = chrome.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch('https://example.com/x').then(() => done('fetched'), () => done('blocked'));"
    )
    assert outcome == "blocked"
    policy = chrome.find_element("css selector", "meta[http-equiv='Content-Security-Policy']")
    assert "default-src 'none'" in policy.get_attribute("content")


def test_several_logs_make_one_report(chrome: Any, logs: Path, tmp_path: Path) -> None:
    for name in ("format2-match.jsonl", "format2-sprt.jsonl"):
        shutil.copy(GOLDEN / name, tmp_path / name)
    shutil.copy(logs / "t.jsonl", tmp_path / "t.jsonl")
    ok(zole("report", "t.jsonl", "format2-match.jsonl", "format2-sprt.jsonl", "-o", "all.html",
            cwd=tmp_path))  # fmt: skip
    open_page(chrome, tmp_path / "all.html")
    logs_table = chrome.find_elements("css selector", "table.logs tbody tr")
    assert [row.text.split()[1] for row in logs_table] == ["tournament", "match", "sprt"]
    assert "of 54" in chrome.find_element("id", "page-info").text  # 24 + 6 + 24 deals
    assert chrome.find_element("id", "filter-table")  # a match filter, as there are several
    names = {row[1] for row in standings_rows(chrome)}
    assert {"rulebot", "bad", "new", "old", "wild"} <= names


def test_screenshots_of_the_report_and_the_deal_viewer(
    chrome: Any, logs: Path, tmp_path: Path
) -> None:
    open_page(chrome, logs / "t.html")
    whole_page_screenshot(chrome, tmp_path / "report.png")
    open_page(chrome, logs / "t.html", "#deal=2&step=4")
    chrome.find_element("id", "viewer").screenshot(str(tmp_path / "viewer.png"))
    for name in ("report.png", "viewer.png"):
        picture = (tmp_path / name).read_bytes()
        assert picture.startswith(b"\x89PNG") and len(picture) > 20_000
    print(f"screenshots: {tmp_path / 'report.png'} {tmp_path / 'viewer.png'}")


def test_the_viewer_follows_a_click_and_the_filtered_list(chrome: Any, logs: Path) -> None:
    deals = deals_of(logs / "t.jsonl")
    open_page(chrome, logs / "t.html")
    chrome.find_element("css selector", "tr.deal-row[data-deal='20']").click()
    top = chrome.execute_script(
        "return document.getElementById('viewer').getBoundingClientRect().top"
    )
    assert -2 <= top < chrome.get_window_size()["height"] / 2  # scrolled to it
    assert "open" in chrome.find_element(
        "css selector", "tr.deal-row[data-deal='20']"
    ).get_attribute("class")
    assert "null" not in chrome.find_element("id", "viewer").text
    from selenium.webdriver.support.ui import Select

    # A filter that leaves the open deal out: its neighbours are those of the new list.
    Select(chrome.find_element("id", "filter-contract")).select_by_value("table")
    tables = [
        n
        for n, d in enumerate(deals, 1)
        if d.result.contract and d.result.contract.value == "table"
    ]
    assert 20 not in tables
    chrome.find_element("id", "deal-next").click()
    after = min(n for n in tables if n > 20)
    assert chrome.find_element("id", "viewer-title").text.startswith(f"Deal {after}:")
    press(chrome, "p")
    before = max(n for n in tables if n < after)
    assert chrome.find_element("id", "viewer-title").text.startswith(f"Deal {before}:")


def test_a_deals_link_names_the_same_deal_in_another_report(
    chrome: Any, logs: Path, tmp_path: Path
) -> None:
    deal = deals_of(logs / "t.jsonl")[4]
    shutil.copy(GOLDEN / "format2-match.jsonl", tmp_path / "m.jsonl")
    shutil.copy(logs / "t.jsonl", tmp_path / "t.jsonl")
    ok(zole("report", "m.jsonl", "t.jsonl", "-o", "both.html", cwd=tmp_path))  # t second
    open_page(chrome, tmp_path / "both.html", f"#deal={deal.match_id}-{deal.deal}")
    assert chrome.find_element("id", "viewer-title").text.startswith(
        f"Deal {6 + 5}: log 2 · table 1, deal {deal.deal}"
    )
    assert cards_in(chrome, "#hand-0") == [str(c) for c in deal.hands[0]]


def test_an_edited_log_is_reported_as_such(logs: Path, tmp_path: Path) -> None:
    lines = (logs / "t.jsonl").read_text().splitlines(keepends=True)
    lines[5] = lines[5].replace('"think_ms":', '"think_ms": ', 1)  # same record, other bytes
    (tmp_path / "e.jsonl").write_text("".join(lines))
    ok(zole("report", "e.jsonl", cwd=tmp_path))
    page = (tmp_path / "e.html").read_text()
    assert "hash chain broken: line 6 was changed" in page  # as verify words it
    assert "(line 6 was changed, or lines were removed, inserted or moved)" in page  # problems
    assert "hash chain intact" in (logs / "t.html").read_text()


def test_a_tests_report_gives_its_decision(tmp_path: Path) -> None:
    shutil.copy(GOLDEN / "format2-sprt.jsonl", tmp_path / "s.jsonl")
    expected = json.loads(ok(zole("standings", "s.jsonl", "--json", cwd=tmp_path)).stdout)
    ok(zole("report", "s.jsonl", cwd=tmp_path))
    page = (tmp_path / "s.html").read_text()
    assert "no decision (max-blocks)" in page
    assert f"LLR {expected['llr']:+.3f}" in page
    assert f"Elo {expected['elo']:+.0f}" in page
    assert "test match 1" in page and "test match 2" in page


def test_moves_the_arena_played_for_a_faulted_bot_are_marked(logs: Path) -> None:
    from zole_arena.report.collect import collect
    from zole_arena.report.payload import DEAL_FIELDS, payload

    data = payload(collect([logs / "evil.jsonl"]))
    auto = DEAL_FIELDS.index("auto")
    records = deals_of(logs / "evil.jsonl")
    for row, record in zip(data["deals"], records, strict=True):
        seat = record.names.index(next(n for n in record.names if "injector" in n))
        plays = [move for move in record.moves if len(move.action) == 2]
        marked = row[auto]["plays"] if row[auto] else []
        assert marked == [n for n, move in enumerate(plays) if move.seat == seat]
        assert marked  # every card of the injector's was the arena's


def test_zole_and_pules_show_as_the_lzf_rules_play_them(chrome: Any, logs: Path) -> None:
    deals = deals_of(logs / "lzf.jsonl")
    pule = next(n for n, d in enumerate(deals, 1) if d.result.contract
                and d.result.contract.value == "pule")  # fmt: skip
    open_page(chrome, logs / "lzf.html", f"#deal={pule}")
    assert chrome.find_element("id", "step-info").text == "step 0 of 1"  # no card is played
    press(chrome, "\ue010")
    assert chrome.find_element("id", "result").text == "all passed: a pule"
    assert "no cards were played" in chrome.find_element("id", "trick").text
    record = deals[pule - 1]
    after = record.result.pules
    text = chrome.find_element("id", "pules").text
    assert after.common and f"after: {after.common} common" in text  # an all-pass writes one
    zole = next(n for n, d in enumerate(deals, 1) if d.result.contract
                and d.result.contract.value == "zole")  # fmt: skip
    open_page(chrome, logs / "lzf.html", f"#deal={zole}&seat={deals[zole - 1].result.soloist}")
    press(chrome, "\ue014")
    assert chrome.find_element("id", "contract").text == "zole"
    # Nobody sees the talon of a zole: not even the soloist, who did not pick it up.
    assert cards_in(chrome, "#talon") == [] and backs_in(chrome, "#talon") == 2


def rechained(lines: list[str]) -> str:
    """Log lines with their hash chain made whole again, as a forger would."""
    out: list[str] = []
    previous = None
    for line in lines:
        record = json.loads(line)
        record["prev"] = previous
        text = json.dumps(record, separators=(",", ":"), ensure_ascii=False)
        out.append(text)
        previous = hashlib.sha256(text.encode()).hexdigest()
    return "\n".join(out) + "\n"


def test_a_forged_log_with_a_whole_chain_is_still_caught(logs: Path, tmp_path: Path) -> None:
    lines = (logs / "t.jsonl").read_text().splitlines()
    record = json.loads(lines[6])
    record["result"]["scores"] = [-2, 4, -2]  # what the moves do not give
    lines[6] = json.dumps(record, separators=(",", ":"))
    (tmp_path / "f.jsonl").write_text(rechained(lines))
    ok(zole("report", "f.jsonl", cwd=tmp_path))
    page = (tmp_path / "f.html").read_text()
    assert "hash chain intact" in page  # the chain has no key: only the digest would tell
    assert "1 left out: wrong" in page and "(left out of the report&#x27;s figures)" in page
    assert "of 24 planned" in page  # 23 deals counted of the 24


def test_invisible_characters_and_long_names_cannot_pass_or_widen_the_page(
    chrome: Any, logs: Path, tmp_path: Path
) -> None:
    text = (logs / "t.jsonl").read_text()
    text = text.replace('"random"', '"\\u202etobelur\\u202c"').replace(
        '"wild"', '"' + "w" * 300 + '"'
    )
    (tmp_path / "n.jsonl").write_text(rechained(text.splitlines()))
    ok(zole("report", "n.jsonl", cwd=tmp_path))
    open_page(chrome, tmp_path / "n.html")
    names = [row[1] for row in standings_rows(chrome)]
    # A name with a direction override is no name (protocol/records.md): its header and deals
    # are left out, and the page says why, the override written out as an escape.
    assert "rulebot" in names and not any("tobelur" in name for name in names)
    warnings = chrome.find_element("id", "warnings").text
    assert "name is '\\u202etobelur\\u202c', not a name" in warnings
    assert any(name.startswith("w" * 300) for name in names)
    width = chrome.execute_script("return [document.documentElement.scrollWidth, innerWidth]")
    assert width[0] <= width[1]  # the long name wraps; the page does not scroll sideways


def test_odd_addresses_open_what_they_can(chrome: Any, logs: Path) -> None:
    deal = deals_of(logs / "t.jsonl")[1]
    chrome.get_log("browser")  # forget the messages of the tests before
    open_page(chrome, logs / "t.html", "#deal=2&step=%zz")  # a malformed escape
    assert chrome.find_element("id", "viewer-title").text.startswith("Deal 2:")
    assert chrome.current_url.endswith(f"#deal={deal.match_id}-{deal.deal}")  # its own form
    assert not [e for e in chrome.get_log("browser") if e["level"] == "SEVERE"]
    open_page(chrome, logs / "t.html", "#deal=999999")
    assert "No deal" in chrome.find_element("id", "deal-notice").text
    assert not chrome.find_element("id", "viewer").is_displayed()


def test_a_phone_sees_the_viewer_without_scrolling_sideways(chrome: Any, logs: Path) -> None:
    chrome.set_window_size(390, 800)
    try:
        open_page(chrome, logs / "t.html", "#deal=2&step=25")
        assert chrome.find_element("id", "scores").is_displayed()
        width = chrome.execute_script("return [document.documentElement.scrollWidth, innerWidth]")
        assert width[0] <= width[1]
    finally:
        chrome.set_window_size(1300, 1000)
