"""What a report costs for a big log: the time to make it, its size, and the time a browser
takes to open it and to show a deal.

A match of ``deals`` deals is played in this process (rulebot, random and rulebot as bot
objects: no pipes, so 10,000 deals take seconds) into a temporary log; the report is made from
it, timed in its two parts (reading the log and computing the figures; drawing the page), and
then, when Selenium and a Chromium with its driver are at hand, opened in a headless Chromium:
the time from navigation to the page's script having drawn the deal list (its
``zole-report-ready`` mark), and from a change of the address's anchor to a deal in the middle
drawn (``zole-deal-drawn``), medians of a few openings.
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from zole_arena.arena.match import Match
from zole_arena.arena.settings import MatchSettings
from zole_arena.bench.match import _RandomBot
from zole_arena.game.rules import load_rules
from zole_arena.players.session import BotConfig
from zole_arena.report import collect, render
from zole_arena.sdk.bot import Bot

__all__ = ["ReportBenchResult", "headless_chromium", "play_bench_log", "run_report_bench"]

#: Openings of the page in the browser; the median is reported.
OPENINGS = 5


@dataclasses.dataclass(frozen=True)
class ReportBenchResult:
    """The figures of one run."""

    deals: int
    log_bytes: int
    report_bytes: int
    collect_seconds: float
    """Reading the log and computing the standings, ratings and their history."""
    render_seconds: float
    open_ms: float | None
    """Median time from navigation to the deal list drawn (None: no browser here)."""
    deal_ms: float | None
    """Median time from setting a deal's anchor to the deal drawn."""
    browser: str
    """The browser used, or why none was."""

    def to_dict(self) -> dict[str, object]:
        """JSON-ready figures."""
        return dataclasses.asdict(self)


#: The program Selenium starts instead of chromedriver: the reaper, in this Python.
_REAPER_SCRIPT = "#!{python}\nfrom zole_arena.bench.reaper import main\nmain()\n"


@contextlib.contextmanager
def headless_chromium(*, network_log: bool = False) -> Iterator[tuple[Any, str]]:
    """A headless Chromium driven by Selenium, and its name and version; or (None, why not).

    Selenium is given the driver's path (Debian's ``chromium-driver``), so it never tries to
    download one; the driver runs under :mod:`~zole_arena.bench.reaper`, so that no process of
    the browser's is left behind when it quits. ``network_log``: record the page's requests in
    the performance log.
    """
    try:
        webdriver = importlib.import_module("selenium.webdriver")
        service = importlib.import_module("selenium.webdriver.chrome.service")
    except ImportError:
        yield None, "not measured: no selenium (pip install 'zole-arena[test]')"
        return
    binary = next(
        (found for name in ("chromium", "chromium-browser", "google-chrome")
         if (found := shutil.which(name))), None,
    )  # fmt: skip
    driver = shutil.which("chromedriver")
    if binary is None or driver is None:
        yield None, "not measured: no chromium and chromedriver on PATH"
        return
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu",
                     "--disable-dev-shm-usage", "--window-size=1300,1000"):  # fmt: skip
        options.add_argument(argument)
    if network_log:
        options.set_capability("goog:loggingPrefs", {"performance": "ALL", "browser": "ALL"})
    with tempfile.TemporaryDirectory(prefix="zole-chromedriver-") as folder:
        reaper = Path(folder) / "chromedriver"
        reaper.write_text(_REAPER_SCRIPT.format(python=sys.executable))
        reaper.chmod(0o755)
        started = service.Service(str(reaper), env={**os.environ, "ZOLE_CHROMEDRIVER": driver})
        chrome = webdriver.Chrome(service=started, options=options)
        try:
            yield chrome, f"{Path(binary).name} {chrome.capabilities.get('browserVersion', '')}"
        finally:
            chrome.quit()


def _mark(chrome: Any, name: str) -> float | None:
    found = chrome.execute_script(
        "const m = performance.getEntriesByName(arguments[0]); "
        "return m.length ? m[m.length - 1].startTime : null;",
        name,
    )
    return None if found is None else float(found)


def _open_times(chrome: Any, page: Path, deals: int) -> tuple[float, float]:
    opens, shows = [], []
    for _ in range(OPENINGS):
        chrome.get("about:blank")
        chrome.get(page.as_uri())
        ready = _mark(chrome, "zole-report-ready")
        if ready is None:
            raise RuntimeError("the report's script did not finish")
        opens.append(ready)
        begun = chrome.execute_script(
            "const t = performance.now(); location.hash = '#deal=' + arguments[0] + '&step=5';"
            "return t;",
            max(1, deals // 2),
        )
        # The deal is drawn on the hashchange event, right after this script returns.
        for _ in range(10_000):
            drawn = _mark(chrome, "zole-deal-drawn")
            if drawn is not None and drawn >= begun:
                break
        else:
            raise RuntimeError("the report's script did not show the deal")
        shows.append(drawn - float(begun))
    return statistics.median(opens), statistics.median(shows)


def play_bench_log(log: Path, deals: int, seed: int) -> None:
    """Play ``deals`` plain ``wpt`` deals of rulebot, random and rulebot, all in this process
    (bot objects: no pipes, so 10,000 deals take seconds), into the new log ``log``."""
    # The bundled rulebot's class, seated in this process (its package is the bots folder).
    rule_bot: type[Bot] = importlib.import_module("zole_arena_bots.rule_bot").RuleBot
    players = [
        BotConfig.in_process(rule_bot(), name="rulebot"),
        BotConfig.in_process(_RandomBot(seed), name="random"),
        BotConfig.in_process(rule_bot(), name="rulebot#2"),
    ]
    Match(players, MatchSettings(rules=load_rules("wpt"), seed=seed, deals=deals), log).run()


def run_report_bench(
    deals: int = 10_000, *, seed: int = 1, browser: bool = True
) -> ReportBenchResult:
    """Play ``deals`` deals, make their report, and open it (see the module's text)."""
    with tempfile.TemporaryDirectory(prefix="zole-report-bench-") as folder:
        log = Path(folder) / "bench.jsonl"
        play_bench_log(log, deals, seed)
        started = time.perf_counter()
        data = collect([log])
        collected = time.perf_counter()
        page_text = render(data)
        rendered = time.perf_counter()
        page = Path(folder) / "bench.html"
        page.write_text(page_text, encoding="utf-8")
        open_ms = deal_ms = None
        used = "not measured (--no-browser)"
        if browser:
            with headless_chromium() as (chrome, used):
                if chrome is not None:
                    open_ms, deal_ms = _open_times(chrome, page, deals)
        return ReportBenchResult(
            deals, log.stat().st_size, page.stat().st_size, collected - started,
            rendered - collected, open_ms, deal_ms, used,
        )  # fmt: skip
