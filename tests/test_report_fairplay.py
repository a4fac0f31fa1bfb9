"""``zole-arena report`` with the fair-play screen of ``zole-arena fairplay`` beside its log.

A real match of the ceiling bot told every hand against rulebot and random is played and
screened by the real commands, its report made by the real command and opened in a real
headless Chromium: the Fair play section shows each bot with the verdict and figures that
``zole-arena fairplay --json`` printed for the same file, each bot's five decisions of the
largest excess (computed here from the cache through the library), and a click on one opens
the deal viewer at that deal and card. A crafted or corrupt fair-play file is a line among
the problems and never stops the report; a bot's name that is markup stays text; a log
without a fair-play file has no section; deals not screened are counted and the command that
screens them named.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

import pytest
from browserhelp import open_page, start_browser, text_of, wait_up_to
from clihelp import PY, ok, rechained, zole

from zole_arena.analysis.fairplay import fairplay_path, screen_logs
from zole_arena.game.cards import Card
from zole_arena.records.model import DealRecord

pytestmark = [
    pytest.mark.long,  # minutes long: run first (conftest.py)
    pytest.mark.filterwarnings("ignore::DeprecationWarning"),
]

ROOT: Final = Path(__file__).resolve().parent.parent
CEILING: Final = ROOT / "bots" / "ceiling_bot.py"
DEALS: Final = 60
#: Markup that would redirect the page and hide it, were it ever written as markup.
MARKUP: Final = (
    '"><meta http-equiv="refresh" content="0;url=http://evil.example/">'
    "<style>body{display:none}</style><b id=injected>x</b>"
)
MINUS: Final = "\u2212"


@pytest.fixture(scope="module")
def chrome() -> Iterator[Any]:
    yield from start_browser()


@pytest.fixture(scope="module")
def match(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder of: ``m.jsonl``, the ceiling bot's match, screened (``m.json``: what
    ``fairplay --json`` printed) and reported (``m.html``); ``plain``, the same log without a
    screen; ``other.jsonl``, a match never screened, reported with m (``mo.html``); ``c``, the
    log with a crafted screen; ``h``, its first 8 deals with random named in markup, screened
    and reported."""
    folder = tmp_path_factory.mktemp("fairplay-report")
    ceiling = f"ceiling={PY} {CEILING} --seed 7 --told 100"
    ok(zole("match", ceiling, "rulebot", "random", "--deals", str(DEALS), "--seed", "7",
            "--no-sandbox", "--movetime", "20", "--log", "m.jsonl", cwd=folder,
            timeout=300))  # fmt: skip
    ok(zole("match", "rulebot", "cbot", "random", "--deals", "10", "--seed", "8",
            "--log", "other.jsonl", cwd=folder))  # fmt: skip
    screened = ok(zole("fairplay", "m.jsonl", "--json", cwd=folder, timeout=300))
    (folder / "m.json").write_text(screened.stdout)
    assert fairplay_path(folder / "m.jsonl").is_file()
    records = [json.loads(line) for line in (folder / "m.jsonl").read_text().splitlines()]
    for record in records[:21]:
        for player in record["players"]:
            if player["name"] == "random":
                player["name"] = MARKUP
    (folder / "h.jsonl").write_text(rechained(records[:9]))
    ok(zole("fairplay", "h.jsonl", cwd=folder, timeout=300))
    for log in ("plain", "c"):
        shutil.copy(folder / "m.jsonl", folder / f"{log}.jsonl")
    fairplay_path(folder / "c.jsonl").write_bytes(crafted(fairplay_path(folder / "m.jsonl")))
    for log in ("m", "plain", "c", "h"):
        ok(zole("report", f"{log}.jsonl", "--bootstrap", "20", cwd=folder))
    ok(zole("report", "m.jsonl", "other.jsonl", "-o", "mo.html", "--bootstrap", "20",
            cwd=folder))  # fmt: skip
    return folder


def crafted(screen: Path) -> bytes:
    """A fair-play file crafted from a real one, whatever its lines' format: its first line
    with one character changed (its mark no longer fits), its second cut off in the middle,
    the rest as they are, and then a line of markup and one of bytes that are no text."""
    lines = screen.read_bytes().splitlines(keepends=True)
    first = lines[0]
    middle = len(first) // 2
    changed = first[:middle] + (b"1" if first[middle : middle + 1] != b"1" else b"2")
    changed += first[middle + 1 :]
    cut = lines[1][: len(lines[1]) // 2] + b"\n"
    return changed + cut + b"".join(lines[2:]) + MARKUP.encode() + b"\n\xff\xfe\x00garbage\n"


# -- what the test knows from the files themselves ---------------------------------------------


def expected_players(folder: Path) -> dict[str, dict[str, Any]]:
    """Each bot's figures as ``zole-arena fairplay --json`` printed them."""
    data = json.loads((folder / "m.json").read_text())
    return {p["name"]: p for p in data["players"]}


def verdict(player: dict[str, Any]) -> str:
    if player["flagged"]:
        return "flagged"
    return "not flagged" if player["judged"] else "too few"


def signed(value: float, digits: int = 3) -> str:
    return f"{value:+.{digits}f}".replace("-", MINUS)


def p_text(p: float) -> str:
    return f"{p:.2g}" if p >= 1e-4 else f"{p:.0e}"


def weighty(log: Path) -> dict[str, list[tuple[float, int, int, DealRecord]]]:
    """Each bot's five screened decisions of the largest excess (the earlier first among
    equals), as (excess, deal index, move, record), from the cache through the library."""
    run = screen_logs([log], solve=False)
    assert run.unscreened == 0
    found: dict[str, list[tuple[float, int, int, DealRecord]]] = {}
    for n, deal in enumerate(run.deals):
        for decision in deal.screen.decisions:
            if decision.bid:  # the lists are of cards, each linked to the viewer at it
                continue
            found.setdefault(deal.record.names[decision.seat], []).append(
                (decision.excess, n, decision.move, deal.record)
            )
    return {
        name: sorted(items, key=lambda item: (-item[0], item[1], item[2]))[:5]
        for name, items in found.items()
    }


def card_step(record: DealRecord, move: int) -> int:
    """The viewer's step that shows the card of ``record.moves[move]``: step 1 after the
    bidding, then one per card played."""
    assert len(record.moves[move].action) == 2
    return sum(len(m.action) == 2 for m in record.moves[:move]) + 2


# -- the browser ---------------------------------------------------------------------------


def fairplay_rows(chrome: Any) -> dict[str, list[str]]:
    rows = chrome.find_elements("css selector", "#fairplay table.fairplay tbody tr")
    cells = [[cell.text for cell in row.find_elements("tag name", "td")] for row in rows]
    return {row[0]: row for row in cells}


def headings(chrome: Any) -> list[str]:
    found = chrome.find_elements("css selector", "#fairplay table.fairplay thead th")
    return [th.text for th in found]


def bot_lists(chrome: Any) -> dict[str, Any]:
    found = chrome.find_elements("css selector", "#fairplay div.fairplay-bot")
    return {div.get_attribute("data-bot"): div for div in found}


def no_injection(chrome: Any) -> None:
    """The page is its own: no element, redirect or style a log's text brought in."""
    assert chrome.title.startswith("Zole report")
    assert chrome.find_elements("id", "injected") == []
    assert chrome.find_elements("css selector", "meta[http-equiv='refresh']") == []
    assert chrome.find_element("tag name", "body").is_displayed()


# -- the tests -------------------------------------------------------------------------------


def test_the_section_shows_each_bots_verdict_and_figures(chrome: Any, match: Path) -> None:
    expected = expected_players(match)
    assert set(expected) == {"ceiling", "rulebot", "random"}
    # The bot told every hand: flagged, or at least cards best in the true deal more often.
    assert expected["ceiling"]["flagged"] or expected["ceiling"]["excess"] > 0, expected
    open_page(chrome, match / "m.html")
    assert headings(chrome)[:8] == ["bot", "verdict", "excess", "SE", "z", "p", "decisions",
                                    "deals"]  # fmt: skip
    rows = fairplay_rows(chrome)
    assert set(rows) == set(expected)
    for name, p in expected.items():
        assert rows[name][1:8] == [
            verdict(p), signed(p["excess"]), f"{p['se']:.3f}", signed(p["z"], 2),
            p_text(p["p_value"]), f"{p['decisions']:,}", f"{p['deals']:,}",
        ], name  # fmt: skip
    flagged = chrome.find_elements("css selector", "#fairplay td.verdict.bad")
    assert len(flagged) == sum(p["flagged"] for p in expected.values())
    # the bots screened without a flagged bot's deals are named under the table, as fairplay
    # names them
    aside = sorted(n for n, p in expected.items() if p["set_aside"] and not p["flagged"])
    notes = chrome.find_elements("css selector", "#fairplay p.fairplay-aside")
    assert [sorted(e.text.split(":")[0].split(", ")) for e in notes] == ([aside] if aside else [])
    note = text_of(chrome, "fairplay-note")
    assert f"{DEALS} of the report's {DEALS} deals screened" in note
    assert "m.jsonl.fairplay.jsonl" in note and "the others have no screen" not in note
    tests = json.loads((match / "m.json").read_text())
    assert text_of(chrome, "fairplay-pairs") == f"No pair flagged ({tests['pair_tests']} tested)"
    assert chrome.find_element("css selector", "nav a[href='#fairplay']").text == "fair play"
    # A bot's name links to its card.
    link = chrome.find_element("xpath", "//table[contains(@class,'fairplay')]//a[.='ceiling']")
    card = chrome.find_element("css selector", link.get_attribute("hash"))
    assert "ceiling" in card.find_element("tag name", "h3").text


def test_each_bots_weightiest_decisions_link_to_the_viewer(chrome: Any, match: Path) -> None:
    expected = weighty(match / "m.jsonl")
    open_page(chrome, match / "m.html")
    lists = bot_lists(chrome)
    assert set(lists) == {"ceiling", "rulebot", "random"}
    for name, items in expected.items():
        links = lists[name].find_elements("css selector", "ol.weighty a.weighty")
        assert len(links) == len(items) == 5
        for link, (excess, n, move, record) in zip(links, items, strict=True):
            assert link.text == f"deal {n + 1}, step {card_step(record, move)}"
            line = " ".join(link.find_element("xpath", "..").text.split())
            card = Card.parse(record.moves[move].action).symbol()
            assert line.endswith(f"played {card}, excess {signed(excess)}"), line
    # A click on the ceiling bot's first opens the viewer at that deal and its card.
    excess, n, move, record = expected["ceiling"][0]
    step = card_step(record, move)
    lists["ceiling"].find_element("css selector", "a.weighty").click()
    wait_up_to(chrome, 10).until(
        lambda c: c.find_element("id", "viewer-title").text.startswith(f"Deal {n + 1}:")
    )
    assert text_of(chrome, "step-info").startswith(f"step {step} of")
    assert chrome.current_url.endswith(f"#deal={record.match_id}-{record.deal}&step={step}")
    seat = record.moves[move].seat
    played = chrome.find_element("css selector", f"#trick .play[data-seat='{seat}'] .card")
    assert played.get_attribute("data-card") == str(Card.parse(record.moves[move].action))


def test_a_report_without_a_fairplay_file_has_no_section(chrome: Any, match: Path) -> None:
    assert not fairplay_path(match / "plain.jsonl").exists()
    open_page(chrome, match / "plain.html")
    assert chrome.find_elements("id", "fairplay") == []
    assert chrome.find_elements("css selector", "nav a[href='#fairplay']") == []
    assert "Fair play" not in chrome.find_element("tag name", "main").text
    # ... while the same log's report with its screen has it.
    open_page(chrome, match / "m.html")
    assert chrome.find_element("css selector", "#fairplay h2").text == "Fair play"


def test_deals_not_screened_are_counted_and_the_command_named(chrome: Any, match: Path) -> None:
    open_page(chrome, match / "mo.html")
    note = text_of(chrome, "fairplay-note")
    assert f"{DEALS} of the report's {DEALS + 10} deals screened" in note
    assert "zole-arena fairplay other.jsonl screens them" in note
    rows = fairplay_rows(chrome)
    assert set(rows) == {"ceiling", "rulebot", "random"}
    # The figures are those of the screened deals; a bot that also played an unscreened deal
    # (rulebot and random played other.jsonl) is not cleared of it; the ceiling bot did not.
    expected = expected_players(match)
    assert rows["ceiling"][1] == verdict(expected["ceiling"])
    for name in ("rulebot", "random"):
        shown = verdict(expected[name]).replace("not flagged", "incomplete")
        assert rows[name][1] == shown, name
        assert rows[name][2] == signed(expected[name]["excess"])


def test_a_crafted_fairplay_file_is_a_problem_and_the_rest_is_shown(
    chrome: Any, match: Path
) -> None:
    open_page(chrome, match / "c.html")
    no_injection(chrome)
    file = fairplay_path(match / "c.jsonl").name
    problems = text_of(chrome, "warnings")
    assert f"{file}: 4 lines that are no fair-play screen of a deal of the log made here" in (
        problems
    )
    assert "zole-arena fairplay c.jsonl screens again what is missing" in problems
    # The two lines left out are two deals without a screen; the rest of the page is there.
    note = text_of(chrome, "fairplay-note")
    assert f"{DEALS - 2} of the report's {DEALS} deals screened" in note
    assert "zole-arena fairplay c.jsonl screens them" in note
    rows = fairplay_rows(chrome)
    assert set(rows) == {"ceiling", "rulebot", "random"}
    # Lines removed from a screen clear no one: a bot with a deal left unscreened is never
    # shown "not flagged" (a forger who deletes the lines where a cheater shows would be).
    assert all(row[1] in ("flagged", "incomplete", "too few") for row in rows.values()), rows
    assert chrome.find_elements("css selector", "table.standings tbody tr")


def test_a_fairplay_file_that_is_none_is_a_problem_not_an_error(
    chrome: Any, match: Path, tmp_path: Path
) -> None:
    for log in ("x", "y", "z"):
        shutil.copy(match / "m.jsonl", tmp_path / f"{log}.jsonl")
    fairplay_path(tmp_path / "x.jsonl").mkdir()  # no file at all
    shutil.copy(match / "m.jsonl", fairplay_path(tmp_path / "y.jsonl"))  # a log, not a screen
    fairplay_path(tmp_path / "z.jsonl").write_bytes(b"\x00\xff" * 5000)  # no line, no text
    for log in ("x", "y", "z"):
        proc = ok(zole("report", f"{log}.jsonl", "--bootstrap", "20", cwd=tmp_path))
        assert "Traceback" not in proc.stderr
    open_page(chrome, tmp_path / "x.html")
    assert "x.jsonl.fairplay.jsonl: not a regular file" in text_of(chrome, "warnings")
    assert chrome.find_elements("id", "fairplay") == []
    open_page(chrome, tmp_path / "y.html")
    lines = len((match / "m.jsonl").read_text().splitlines())
    assert f"y.jsonl.fairplay.jsonl: {lines} lines that are no fair-play screen" in text_of(
        chrome, "warnings"
    )
    assert f"0 of the report's {DEALS} deals screened" in text_of(chrome, "fairplay-note")
    assert chrome.find_elements("css selector", "#fairplay table") == []
    open_page(chrome, tmp_path / "z.html")
    assert "z.jsonl.fairplay.jsonl: 1 line that is no fair-play screen" in text_of(
        chrome, "warnings"
    )
    assert chrome.find_elements("css selector", "table.standings tbody tr")


def test_a_bot_named_in_markup_stays_text(chrome: Any, match: Path) -> None:
    open_page(chrome, match / "h.html")
    no_injection(chrome)
    rows = fairplay_rows(chrome)
    assert set(rows) == {"ceiling", "rulebot", MARKUP}
    # 8 deals: too few to judge anyone.
    assert {row[1] for row in rows.values()} == {"too few"}
    assert "8 of the report's 8 deals screened" in text_of(chrome, "fairplay-note")
    lists = bot_lists(chrome)
    assert MARKUP in lists
    heading = lists[MARKUP].find_element("css selector", "h4").get_attribute("textContent")
    assert heading.startswith(MARKUP)  # (the style writes h4 in capitals)
    assert lists[MARKUP].find_elements("css selector", "a.weighty")
