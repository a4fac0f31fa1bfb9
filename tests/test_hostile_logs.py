"""Crafted logs against every reader: markup, terminal escapes and gigantic headers.

A log is the organizer's only record of an event, and anyone who hands one over can write it:
the hash chain has no key, so each log here is edited and then chained again, as an attacker
would. Every reader is run as a user runs it (a real process, under an address-space limit
and a timeout) and must give escaped output or a one-line error: no escape sequence reaches
the terminal, no markup from the log becomes markup in the report (checked in a real
headless Chromium), and a header that asks for 15,000 entrants is refused before anything
is built from it.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import resource
import subprocess
from pathlib import Path
from typing import Any, Final

import pytest
from browserhelp import requested_urls, start_browser
from clihelp import PY, ok, zole

Record = dict[str, Any]

#: What a hostile string carries: a colour (CSI), a hyperlink (OSC 8, ended by BEL), a bell
#: and a carriage return that would let the rest of the line overwrite its start.
ESCAPES: Final = "\x1b[31mRED\x1b]8;;http://evil.example/\x07link\x1b]8;;\x07\x07\rover"
#: What the terminal acts on: none of it may reach stdout or stderr.
RAW: Final = ("\x1b", "\x07", "\r", "\x9b")
#: Markup that would redirect the page and hide it, were it written into an attribute.
MARKUP: Final = (
    '"><meta http-equiv="refresh" content="0;url=http://evil.example/">'
    "<style>body{display:none}</style><b id=injected>x</b>"
)
#: Each reader's address space: a fraction of what building the 15,000 entrants' tables took.
ADDRESS_SPACE: Final = 400 << 20
#: No reader may take longer (the 15,000-entrant header once never ended).
TIMEOUT: Final = 60

READERS: Final = (
    ("verify",),
    ("replay",),
    ("standings",),
    ("standings", "--json"),
    ("standings", "--md"),
    ("ratings", "--bootstrap", "20"),
    ("ratings", "--json", "--bootstrap", "20"),
    ("report", "-o", "page.html", "--bootstrap", "20"),
)


def rechain(records: list[Record]) -> bytes:
    """The records as a log whose hash chain is whole (what an attacker writes)."""
    lines, prev = [], None
    for record in records:
        fixed = {"format": record["format"], "format_version": 2, "prev": prev}
        fixed.update({k: v for k, v in record.items() if k not in fixed})
        line = json.dumps(fixed, separators=(",", ":"), ensure_ascii=False).encode()
        lines.append(line)
        prev = hashlib.sha256(line).hexdigest()
    return b"\n".join(lines) + b"\n"


def records_of(path: Path) -> list[Record]:
    return [json.loads(line) for line in path.read_bytes().splitlines()]


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """The real command, its address space capped at :data:`ADDRESS_SPACE` (a reader that
    builds in proportion to a forged number dies of it, and the test sees a MemoryError)."""

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))

    return subprocess.run([PY, "-m", "zole_arena", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=TIMEOUT, check=False, preexec_fn=cap)  # fmt: skip


def assert_clean(proc: subprocess.CompletedProcess[str]) -> list[str]:
    """No traceback, no memory error, nothing a terminal acts on, and every line on stderr one
    message (at most one error, last); the lines on stderr."""
    both = proc.stdout + proc.stderr
    assert "Traceback" not in both and "MemoryError" not in both, proc.stderr[-2000:]
    for raw in RAW:
        assert raw not in both, (raw, both[:2000])
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    for line in lines:
        assert line.startswith(("warning: ", "note: ", "error: ", "wrote ")), line[:300]
    errors = [line for line in lines if line.startswith("error: ")]
    assert len(errors) <= 1 and (not errors or lines[-1] == errors[0]), lines
    return lines


@pytest.fixture(scope="module")
def match_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real match whose third bot answers in markup: every deal has faults."""
    folder = tmp_path_factory.mktemp("match")
    injector = Path(__file__).parent / "hostile_bots" / "html_injector.py"
    ok(zole("match", "rulebot", "random", f"{PY} {injector}", "--deals", "3", "--seed", "3",
            "--on-fault", "random", "--max-faults", "1000", "--log", "m.jsonl",
            cwd=folder))  # fmt: skip
    return folder / "m.jsonl"


@pytest.fixture(scope="module")
def tournament_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real tournament: one table of two deals."""
    folder = tmp_path_factory.mktemp("tournament")
    ok(zole("tournament", "random", "rulebot", "rulebot", "--no-duplicate", "--deals", "2",
            "--seed", "5", "--movetime", "500", "--no-sandbox", "--log", "t.jsonl",
            cwd=folder))  # fmt: skip
    return folder / "t.jsonl"


def _faults(record: Record) -> list[Record]:
    return [*record["faults"], *([record["culprit"]] if record["culprit"] else [])]


def escapes_in_text(records: list[Record]) -> list[Record]:
    """Escapes wherever a log holds text that is only shown: fault messages, requests and
    replies, versions, the handshake's id, commands, options, isolation, pule events, the
    rules' preset, a move."""
    for record in records:
        if record["type"] == "match":
            player = record["players"][2]
            player.update(version="v" + ESCAPES, id_name="id" + ESCAPES, author="a" + ESCAPES)
            player["command"] = [*player["command"], "arg" + ESCAPES]
            player["options"] = {"Opt" + ESCAPES: "val" + ESCAPES}
            record["isolation"] = "iso" + ESCAPES
        elif record["type"] == "deal":
            record["players"][2]["version"] = "v" + ESCAPES
            record["players"][2]["command"] = ["cmd" + ESCAPES]
            for fault in _faults(record):
                fault.update(message="m" + ESCAPES, request="q" + ESCAPES, reply="r" + ESCAPES)
            record["result"]["pule_event"] = "pe" + ESCAPES
            record["rules"]["preset"] = "wpt" + ESCAPES
            if record["deal"] == 2:
                record["moves"][0]["action"] = "pass" + ESCAPES
    return records


def escapes_in_names(records: list[Record]) -> list[Record]:
    """Escapes in the third bot's name, everywhere it is named."""
    return _renamed(records, "inj" + ESCAPES)


def rich_markup_in_names(records: list[Record]) -> list[Record]:
    """A name that is console markup (a closing tag with nothing to close: rich raises)."""
    return _renamed(records, "[/]x[link=http://e/]y")


def _renamed(records: list[Record], name: str) -> list[Record]:
    for record in records:
        record["players"][2]["name"] = name
        for fault in _faults(record) if record["type"] == "deal" else ():
            fault["bot"] = name
    return records


@pytest.mark.parametrize("reader", READERS, ids=" ".join)
@pytest.mark.parametrize("edit", [escapes_in_text, escapes_in_names, rich_markup_in_names])
def test_no_escape_or_markup_from_a_log_reaches_the_terminal(
    match_log: Path, tmp_path: Path, reader: tuple[str, ...], edit: Any
) -> None:
    log = tmp_path / "crafted.jsonl"
    log.write_bytes(rechain(edit(records_of(match_log))))
    proc = run(reader[0], str(log), *reader[1:], cwd=tmp_path)
    lines = assert_clean(proc)
    if edit is escapes_in_names and reader[0] == "verify":
        assert proc.returncode == 1  # a name that is none is refused, naming the line
        assert "line 1: match header: players 3: name 'inj\\x1b[31mRED" in proc.stdout
    if edit is escapes_in_text and reader[0] == "replay":
        assert "pe?[31mRED?]8;;http://evil.example/?link" in proc.stdout  # shown, cleaned
    if edit is rich_markup_in_names and reader[0] in ("replay", "ratings", "standings"):
        assert proc.returncode == 0, lines
        if "--json" not in reader:
            assert "[/]" in proc.stdout, proc.stdout  # as written (names may be shortened)


def test_verify_refuses_a_match_id_that_is_not_one(match_log: Path, tmp_path: Path) -> None:
    records = records_of(match_log)
    for record in records:
        record["match_id"] = MARKUP
    log = tmp_path / "crafted.jsonl"
    log.write_bytes(rechain(records))
    proc = run("verify", str(log), cwd=tmp_path)
    assert_clean(proc)
    assert proc.returncode == 1
    first = proc.stdout.splitlines()[0]
    assert first.startswith(f"{log}: line 1: match header: match_id '\"><meta")
    assert "is not a match id" in first
    assert "deal 1: match_id" in proc.stderr  # each deal record is named too


@pytest.fixture(scope="module")
def chrome() -> Any:
    yield from start_browser()


def _assert_inert(chrome: Any, page: Path) -> None:
    """The page in the real browser: no redirect, no element or style of the log's, and the
    fault links still open their deals."""
    requested_urls(chrome)
    chrome.get(page.as_uri())
    assert chrome.current_url.startswith(page.as_uri())  # no redirect
    found = chrome.find_elements("css selector", "#injected, meta[http-equiv=refresh]")
    assert found == []
    assert chrome.execute_script("return document.styleSheets.length") == 1  # the page's own
    assert chrome.execute_script("return getComputedStyle(document.body).display") != "none"
    links = chrome.find_elements("css selector", "a.dealref")
    assert links, "the faults are listed with links to their deals"
    chrome.execute_script("arguments[0].click()", links[0])
    assert chrome.execute_script("return location.hash").startswith("#deal=")
    assert chrome.find_element("id", "viewer").get_attribute("hidden") is None
    assert all(not url.startswith("http") for url in requested_urls(chrome))


def test_markup_from_a_log_never_becomes_markup_in_the_report(
    match_log: Path, tmp_path: Path, chrome: Any
) -> None:
    """The report (the real command) of a log whose names and fault texts are markup."""
    records = _renamed(records_of(match_log), MARKUP)
    for record in records:
        for fault in _faults(record) if record["type"] == "deal" else ():
            fault["message"] = MARKUP
    log = tmp_path / "crafted.jsonl"
    log.write_bytes(rechain(records))
    proc = run("report", str(log), "-o", "page.html", "--bootstrap", "20", cwd=tmp_path)
    assert_clean(proc)
    assert proc.returncode == 0, proc.stderr
    _assert_inert(chrome, tmp_path / "page.html")
    assert MARKUP in chrome.find_element("id", "bots").text  # shown as text


def test_a_match_id_of_markup_stays_inside_its_link(
    match_log: Path, tmp_path: Path, chrome: Any
) -> None:
    """``verify`` and every reader refuse such a match id; the page escapes it all the same
    (a report is made from what a library reads, too): the fault links' ``href``."""
    from zole_arena.report import collect, render

    data = collect([match_log], bootstrap=20)
    data.deals[:] = [dataclasses.replace(deal, match_id=MARKUP) for deal in data.deals]
    data.tables[:] = [dataclasses.replace(table, match_id=MARKUP) for table in data.tables]
    page = tmp_path / "page.html"
    page.write_text(render(data), encoding="utf-8")
    assert 'http-equiv="refresh"' not in page.read_text()
    _assert_inert(chrome, page)


def entrants_header(tournament_log: Path, count: int, form: str) -> list[Record]:
    """The tournament's log with ``count`` entrants in its header (short ones: 15,000 fit a
    1 MiB line, as a forger would make them)."""
    records = records_of(tournament_log)
    header = records[0]
    header["tournament_format"] = form
    extra = [{"name": f"b{n}", "command": ["x"]} for n in range(count - len(header["entrants"]))]
    header["entrants"] = [*header["entrants"], *extra]
    return records


BIG_READERS: Final = (*READERS, ("tournament", "--resume"))


@pytest.mark.parametrize("reader", BIG_READERS, ids=" ".join)
@pytest.mark.parametrize(
    ("count", "form", "why"),
    [
        (15_000, "round-robin", "entrants has 15,000 bots, not 3 to 1,000"),
        (15_000, "balanced", "entrants has 15,000 bots, not 3 to 1,000"),
        (50, "round-robin", "a round-robin of 50 bots has 19,600 tables, more than 5,000"),
        (500, "gauntlet", "a gauntlet of 500 bots has 124,251 tables, more than 5,000"),
    ],
    ids=["15000-round-robin", "15000-balanced", "50-round-robin", "500-gauntlet"],
)
def test_a_header_of_too_many_entrants_is_refused_before_anything_is_built(
    tournament_log: Path, tmp_path: Path, reader: tuple[str, ...], count: int, form: str,
    why: str,
) -> None:  # fmt: skip
    log = tmp_path / "big.jsonl"
    log.write_bytes(rechain(entrants_header(tournament_log, count, form)))
    args = [*reader, str(log)] if reader[-1] == "--resume" else [reader[0], str(log), *reader[1:]]
    proc = run(*args, cwd=tmp_path)  # bounded memory, no hang
    lines = assert_clean(proc)
    said = proc.stdout + proc.stderr
    if reader[0] in ("standings", "tournament", "verify", "ratings"):
        assert why in said, said[-2000:]
    if reader[0] in ("standings", "tournament"):
        assert proc.returncode == 1 and len(lines) == 1 and lines[0].startswith("error: ")
    if reader[0] == "verify":
        assert proc.returncode == 1
        assert f"{log}: line 1: tournament header: {why}" in proc.stdout
