"""``zole-arena report`` with the open-card analysis of ``zole-arena analyze`` beside its log.

A real match is played and analysed by the real commands, its report made by the real
command and opened in a real headless Chromium: the standings' loss per decision is that of
:func:`~zole_arena.analysis.summary.summarise` over the file, a step of the deal viewer shows
the value and loss of the decision the file holds for it, a bot's worst decision links to its
deal at its step, and "as seen by" a seat shows only that seat's own decisions. A crafted
analysis file (a line whose loss does not follow from its values, an analysis copied under
another deal's hash, markup in its texts) is left out where it does not fit, listed among the
problems, and never becomes markup.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

import pytest
from browserhelp import open_page, start_browser, text_of, wait_up_to
from clihelp import ok, zole

from zole_arena.analysis.deal import analysis_fits
from zole_arena.analysis.model import DealAnalysis, Decision, Severity
from zole_arena.analysis.run import log_deals
from zole_arena.analysis.store import analysis_path, read_analysis
from zole_arena.analysis.summary import summarise
from zole_arena.game.cards import Card
from zole_arena.records.model import DealRecord

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

MARKS: Final = {Severity.INACCURACY: "?!", Severity.MISTAKE: "?", Severity.BLUNDER: "??"}
#: Markup that would redirect the page and hide it, were it ever written as markup.
MARKUP: Final = (
    '"><meta http-equiv="refresh" content="0;url=http://evil.example/">'
    "<style>body{display:none}</style><b id=injected>x</b>"
)
HEADING: Final = "open-card loss per decision"
BIDS: Final = ("pass", "take", "zole", "smallzole")


@pytest.fixture(scope="module")
def chrome() -> Iterator[Any]:
    yield from start_browser()


@pytest.fixture(scope="module")
def match(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real match, its analysis and its report (m.*), the same log without an analysis and
    its report (plain.*), and the log with a crafted analysis and its report (c.*)."""
    folder = tmp_path_factory.mktemp("analysis")
    ok(zole("match", "rulebot", "cbot", "random", "--deals", "12", "--rules", "wpt",
            "--seed", "3", "--log", "m.jsonl", cwd=folder))  # fmt: skip
    # One solver process: the pool of several is not what this test is about.
    ok(zole("analyze", "m.jsonl", "--workers", "1", cwd=folder, timeout=300))
    assert analysis_path(folder / "m.jsonl").is_file()
    ok(zole("report", "m.jsonl", "--bootstrap", "20", cwd=folder))
    shutil.copy(folder / "m.jsonl", folder / "plain.jsonl")
    ok(zole("report", "plain.jsonl", "--bootstrap", "20", cwd=folder))
    shutil.copy(folder / "m.jsonl", folder / "c.jsonl")
    analysis_path(folder / "c.jsonl").write_text(crafted(folder / "m.jsonl"))
    ok(zole("report", "c.jsonl", "--bootstrap", "20", cwd=folder))
    return folder


# -- what the test knows from the files themselves ---------------------------------------------


def deals_of(log: Path) -> list[tuple[DealRecord, str]]:
    """The log's deals with the SHA-256 of each one's line (the analysis' key)."""
    deals, skipped = log_deals([log])
    assert skipped == 0
    return deals


def fitting(log: Path) -> list[DealAnalysis | None]:
    """For each deal of the log, the analysis its file holds for it when that one fits."""
    held = read_analysis(analysis_path(log)).deals
    found: list[DealAnalysis | None] = []
    for record, sha in deals_of(log):
        analysis = held.get(sha)
        found.append(analysis if analysis is not None and analysis_fits(analysis, record) else None)
    return found


def crafted(log: Path) -> str:
    """The log's analysis file, crafted: deal 1's line with a loss its values do not give
    (skipped by the reader), deal 3's analysis copied under deal 2's hash (does not fit),
    deal 5's with markup for its match id (does not fit), deal 4's incomplete with markup
    for its note (fits: shown, as text), and a line of markup that is no JSON."""
    lines = {json.loads(line)["deal"]: json.loads(line)
             for line in analysis_path(log).read_text().splitlines()}  # fmt: skip
    shas = {record.deal: sha for record, sha in deals_of(log)}
    lines[1]["decisions"][0]["loss"] += 1
    lines[2] = {**lines[3], "deal_sha256": shas[2]}
    lines[5]["match_id"] = MARKUP
    lines[4]["complete"] = False
    lines[4]["note"] = MARKUP
    text = "".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines.values())
    return text + MARKUP + "\n"


def symbols(action: str) -> str:
    return " ".join(Card.parse(token).symbol() for token in action.split())


def action_words(action: str) -> str:
    if action in BIDS:
        return "small zole" if action == "smallzole" else action
    return symbols(action)


def minus(value: int) -> str:
    return f"{value:+d}".replace("-", "\u2212") if value else "0"


def expected_line(analysis: DealAnalysis, decision: Decision) -> str:
    """What the viewer says of a decision that lost points: its value, the best, the loss."""
    best = " / ".join(action_words(a) for a in decision.best_actions[:3])
    if len(decision.best_actions) > 3:
        best += f" / … ({len(decision.best_actions)} in all)"
    mark = MARKS[analysis.thresholds.severity(decision.loss)]
    return (
        f"{minus(decision.value)}, best {best} {minus(decision.best)}, loss {decision.loss} {mark}"
    )


def card_place(record: DealRecord, move: int) -> int:
    """The index among the cards played of the card of ``record.moves[move]``."""
    assert len(record.moves[move].action) == 2
    return sum(len(m.action) == 2 for m in record.moves[:move])


def biggest(
    analyses: list[DealAnalysis | None], phase: str, loss: bool = True
) -> tuple[int, DealAnalysis, Decision]:
    """The deal index, analysis and decision of the largest loss of a phase."""
    found = [
        (d.loss, n, a, d)
        for n, a in enumerate(analyses)
        if a is not None
        for d in a.decisions
        if d.phase.value == phase and (d.loss > 0) == loss
    ]
    assert found, f"no {phase} decision {'with' if loss else 'without'} a loss"
    found.sort(key=lambda item: (-item[0], item[1]))
    _, n, analysis, decision = found[0]
    return n, analysis, decision


# -- the browser ---------------------------------------------------------------------------


def headings(chrome: Any) -> list[str]:
    return [
        th.text.replace("\n", " ")
        for th in chrome.find_elements("css selector", "table.standings thead th")
    ]


def standings(chrome: Any) -> dict[str, list[str]]:
    rows = chrome.find_elements("css selector", "table.standings tbody tr")
    cells = [[cell.text for cell in row.find_elements("tag name", "td")] for row in rows]
    return {row[1]: row for row in cells}


def ids(chrome: Any, element_id: str) -> list[Any]:
    return list(chrome.find_elements("id", element_id))


def deal_anchor(record: DealRecord, step: int, seat: int | None = None) -> str:
    return f"#deal={record.match_id}-{record.deal}&step={step}" + (
        "" if seat is None else f"&seat={seat}"
    )


# -- the tests -------------------------------------------------------------------------------


def test_the_standings_show_each_bots_loss_per_decision(chrome: Any, match: Path) -> None:
    analyses = fitting(match / "m.jsonl")
    assert all(a is not None for a in analyses) and len(analyses) == 12
    expected = {bot.name: bot for bot in summarise(a for a in analyses if a is not None)}
    assert set(expected) == {"rulebot", "cbot", "random"}
    open_page(chrome, match / "m.html")
    shown = headings(chrome)
    assert shown[-2:] == [HEADING, "± 95%"]
    rows = standings(chrome)
    assert set(rows) == set(expected)
    for name, bot in expected.items():
        estimate = bot.per_decision
        assert rows[name][-2] == f"{estimate.mean:.2f}"
        assert rows[name][-1] == f"{(estimate.high - estimate.low) / 2:.2f}"
    assert "12 of the report's 12 deals analysed" in text_of(chrome, "analysis-note")
    tip = chrome.find_element("css selector", "table.standings th.loss").get_attribute("title")
    assert "12 of the report's 12 deals analysed" in tip
    # A click on it sorts by it: the largest loss first, then (again) the smallest.
    chrome.find_element("css selector", "table.standings th.loss").click()
    losses = [float(row[-2]) for row in standings(chrome).values()]
    assert losses == sorted(losses, reverse=True)
    chrome.find_element("css selector", "table.standings th.loss").click()
    losses = [float(row[-2]) for row in standings(chrome).values()]
    assert losses == sorted(losses)
    # Each bot's card: the same figure and its counts of ?! ? ??.
    for name, bot in expected.items():
        card = chrome.find_element(
            "xpath", f"//section[@class='bot'][.//h3[contains(., '. {name}')]]"
        )
        text = " ".join(card.text.split())
        assert f"loss per decision {bot.per_decision.mean:.2f} ±" in text
        assert f"over {bot.decisions} decisions" in text
        for severity, mark in MARKS.items():
            assert f"{bot.counts[severity]} {mark} (" in text


def test_a_step_shows_the_value_and_loss_of_its_decision(chrome: Any, match: Path) -> None:
    deals = deals_of(match / "m.jsonl")
    analyses = fitting(match / "m.jsonl")
    # A card that lost points: at the step that plays it, its mark, value, best and loss.
    n, analysis, decision = biggest(analyses, "play")
    record = deals[n][0]
    step = card_place(record, decision.move) + 2
    open_page(chrome, match / "m.html", deal_anchor(record, step))
    assert text_of(chrome, "step-info").startswith(f"step {step} of")
    card = symbols(decision.action)
    line = text_of(chrome, "analysis")
    assert line == (
        f"{decision.player} (seat {decision.seat}) played {card}: "
        f"{expected_line(analysis, decision)}"
    )
    mark = MARKS[analysis.thresholds.severity(decision.loss)]
    played = chrome.find_element("css selector", f"#trick .play[data-seat='{decision.seat}']")
    assert played.find_element("css selector", ".mark").text == mark
    # A card that lost nothing says so.
    n, analysis, decision = biggest(analyses, "play", loss=False)
    record = deals[n][0]
    open_page(chrome, match / "m.html", deal_anchor(record, card_place(record, decision.move) + 2))
    assert text_of(chrome, "analysis").endswith(f": {minus(decision.value)}, the best")
    # A bid that lost points: at step 1, beside the bid.
    n, analysis, decision = biggest(analyses, "bid")
    record = deals[n][0]
    open_page(chrome, match / "m.html", deal_anchor(record, 1))
    bids = chrome.find_elements("css selector", "#bids li")
    index = sum(m.action in BIDS for m in record.moves[: decision.move])
    assert " ".join(bids[index].text.split()) == (
        f"{decision.player} (seat {decision.seat}): {action_words(decision.action)} — "
        f"{expected_line(analysis, decision)}"
    )
    # A bury that lost points: at step 1, under the buried cards.
    n, analysis, decision = biggest(analyses, "bury")
    record = deals[n][0]
    open_page(chrome, match / "m.html", deal_anchor(record, 1))
    assert text_of(chrome, "bury-analysis") == (
        f"{decision.player} (seat {decision.seat}) buried {symbols(decision.action)}: "
        f"{expected_line(analysis, decision)}"
    )
    # The last step lists every decision of the deal that lost points, each with its step.
    open_page(chrome, match / "m.html", f"#deal={record.match_id}-{record.deal}")
    chrome.find_element("id", "step-last").click()
    lost = [d for d in analysis.decisions if d.loss > 0]
    items = chrome.find_elements("css selector", "#analysis-summary li")
    assert len(items) == len(lost)
    assert f"{len(analysis.decisions)} decisions, {len(lost)} lost points" in text_of(
        chrome, "analysis-summary"
    )


def test_a_bots_worst_decisions_link_to_their_step(chrome: Any, match: Path) -> None:
    deals = deals_of(match / "m.jsonl")
    analyses = fitting(match / "m.jsonl")
    open_page(chrome, match / "m.html")
    for name in ("random", "cbot"):
        found = sorted(
            (-d.loss, n, i)
            for n, a in enumerate(analyses)
            if a is not None
            for i, d in enumerate(a.decisions)
            if d.player == name and d.loss > 0
        )
        card = chrome.find_element(
            "xpath", f"//section[@class='bot'][.//h3[contains(., '. {name}')]]"
        )
        links = card.find_elements("css selector", "ol.worst a.worst")
        assert len(links) == min(5, len(found)) == 5
        shown = [-int(link.find_element("xpath", "..").text.split("loss ")[1].split()[0])
                 for link in links]  # fmt: skip
        assert shown == [loss for loss, _, _ in found[:5]]
        _, n, i = found[0]
        analysis = analyses[n]
        assert analysis is not None
        decision = analysis.decisions[i]
        record = deals[n][0]
        step = 1 if decision.phase.value != "play" else card_place(record, decision.move) + 2
        assert links[0].text == f"deal {n + 1}, step {step}"
        links[0].click()  # the page opens the deal when the address changes: wait for it
        wait_up_to(chrome, 10).until(
            lambda c, n=n: c.find_element("id", "viewer-title").text.startswith(f"Deal {n + 1}:")
        )
        assert text_of(chrome, "step-info").startswith(f"step {step} of")
        assert chrome.current_url.endswith(deal_anchor(record, step))
        where = (
            "analysis"
            if step > 1
            else "bury-analysis"
            if decision.phase.value == "bury"
            else "bids"
        )
        assert expected_line(analysis, decision) in text_of(chrome, where)
        chrome.execute_script("document.getElementById('bots').scrollIntoView()")


def test_as_seen_by_a_seat_only_its_own_decisions_show(chrome: Any, match: Path) -> None:
    deals = deals_of(match / "m.jsonl")
    analyses = fitting(match / "m.jsonl")
    n, analysis, decision = biggest(analyses, "play")
    record = deals[n][0]
    step = card_place(record, decision.move) + 2
    other = (decision.seat + 1) % 3
    # As the seat that decided: the same line as with all cards open.
    open_page(chrome, match / "m.html", deal_anchor(record, step, decision.seat))
    assert expected_line(analysis, decision) in text_of(chrome, "analysis")
    # As another seat: no value, no mark, anywhere on the page for that card.
    open_page(chrome, match / "m.html", deal_anchor(record, step, other))
    line = text_of(chrome, "analysis")
    assert "loss" not in line and "best" not in line
    assert f"only seat {other}'s own decisions" in line
    assert (
        chrome.find_elements("css selector", f"#trick .play[data-seat='{decision.seat}'] .mark")
        == []
    )
    for mark in chrome.find_elements("css selector", "#viewer .mark"):
        assert mark.find_element("xpath", "..").get_attribute("data-seat") in (None, str(other))
    # The bids at step 1: only that seat's own carry values.
    chrome.find_element("id", "step-first").click()
    chrome.find_element("id", "step-forward").click()
    decided = {d.move for d in analysis.decisions}
    bids = [i for i, m in enumerate(record.moves) if m.action in BIDS]
    items = chrome.find_elements("css selector", "#bids li")
    assert len(items) == len(bids)
    for item, move in zip(items, bids, strict=True):
        own = record.moves[move].seat == other and move in decided
        assert bool(item.find_elements("css selector", ".analysis")) == own
    # The last step lists only that seat's decisions.
    chrome.find_element("id", "step-last").click()
    mine = [d for d in analysis.decisions if d.seat == other]
    assert f"{len(mine)} decision{'s' if len(mine) != 1 else ''} of seat {other}," in text_of(
        chrome, "analysis-summary"
    )
    items = chrome.find_elements("css selector", "#analysis-summary li")
    assert len(items) == sum(d.loss > 0 for d in mine)
    for item in items:
        assert item.find_element("tag name", "b").text == record.names[other]


def test_a_report_without_analysis_has_none_of_it(chrome: Any, match: Path) -> None:
    assert not analysis_path(match / "plain.jsonl").exists()
    record = deals_of(match / "plain.jsonl")[0][0]
    open_page(chrome, match / "plain.html", deal_anchor(record, 3))
    assert HEADING not in headings(chrome) and ids(chrome, "analysis-note") == []
    assert ids(chrome, "analysis") == [] and chrome.find_elements("css selector", ".mark") == []
    assert "open-card analysis" not in chrome.find_element("id", "bots").text
    chrome.find_element("id", "step-last").click()
    assert ids(chrome, "analysis-summary") == []
    # ... while the same log's report with its analysis has all of it.
    open_page(chrome, match / "m.html", deal_anchor(record, 3))
    assert HEADING in headings(chrome) and ids(chrome, "analysis")


def test_a_crafted_analysis_is_left_out_and_its_markup_stays_text(chrome: Any, match: Path) -> None:
    deals = deals_of(match / "c.jsonl")
    analyses = fitting(match / "c.jsonl")
    # What the reader and the fit leave: deals 1 (a loss that does not follow), 2 (another
    # deal's analysis) and 5 (markup for a match id) have none.
    assert [n for n, a in enumerate(analyses, 1) if a is None] == [1, 2, 5]
    expected = {b.name: b for b in summarise(a for a in analyses if a is not None)}
    open_page(chrome, match / "c.html")
    assert chrome.title.startswith("Zole report")  # no redirect, nothing hidden
    assert ids(chrome, "injected") == []
    assert chrome.find_elements("css selector", "meta[http-equiv='refresh']") == []
    assert chrome.find_element("tag name", "body").is_displayed()
    problems = text_of(chrome, "warnings")
    file = analysis_path(match / "c.jsonl").name
    assert f"{file}: 2 lines that are no analysis record (of this version) skipped" in problems
    assert f"{file}: 2 analyses that do not fit the deal of their line" in problems
    assert "9 of the report's 12 deals analysed" in text_of(chrome, "analysis-note")
    rows = standings(chrome)
    for name, bot in expected.items():
        assert rows[name][-2] == f"{bot.per_decision.mean:.2f}"
    assert "9 analysed" in chrome.find_element("css selector", "table.logs").text
    # Deal 2 has an analysis under its hash, of deal 3: it is not shown beside deal 2.
    record = deals[1][0]
    open_page(chrome, match / "c.html", deal_anchor(record, 2))
    assert text_of(chrome, "analysis") == "open-card analysis: none for this deal"
    # Deal 4's note is markup: shown as its characters.
    record = deals[3][0]
    open_page(chrome, match / "c.html", f"#deal={record.match_id}-{record.deal}")
    chrome.find_element("id", "step-last").click()
    assert MARKUP in chrome.find_element("id", "analysis-summary").text
    assert ids(chrome, "injected") == [] and chrome.title.startswith("Zole report")
    assert chrome.find_elements("css selector", "meta[http-equiv='refresh']") == []


def test_an_analysis_file_that_is_none_is_a_problem_not_an_error(
    chrome: Any, match: Path, tmp_path: Path
) -> None:
    shutil.copy(match / "m.jsonl", tmp_path / "x.jsonl")
    shutil.copy(match / "m.jsonl", analysis_path(tmp_path / "x.jsonl"))  # a log, not analysis
    shutil.copy(match / "m.jsonl", tmp_path / "y.jsonl")
    analysis_path(tmp_path / "y.jsonl").mkdir()  # no file at all
    ok(zole("report", "x.jsonl", "y.jsonl", "-o", "xy.html", "--bootstrap", "20", cwd=tmp_path))
    open_page(chrome, tmp_path / "xy.html")
    problems = text_of(chrome, "warnings")
    assert "x.jsonl.analysis.jsonl: not an analysis file" in problems
    assert "y.jsonl.analysis.jsonl: not a regular file" in problems
    assert HEADING not in headings(chrome)
