"""A real headless Chromium for the report's tests, driven by Selenium.

CI installs Debian's ``chromium`` and ``chromium-driver``: there a missing browser fails the
tests. Elsewhere they are skipped, saying what to install. Selenium is given the driver's path,
so it never tries to download one.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from zole_arena.bench.report import headless_chromium


def start_browser() -> Iterator[Any]:
    """A headless Chromium (one per test module: starting one takes about a second), its
    network requests recorded in the performance log; the benchmark's, so both open the
    report alike, and nothing of it is left to the test process when it quits."""
    with headless_chromium(network_log=True) as (chrome, why):
        if chrome is None:
            message = f"{why}: the report's browser tests need selenium, chromium, chromium-driver"
            if os.environ.get("CI"):
                pytest.fail(message)
            pytest.skip(message)
        yield chrome


def requested_urls(chrome: Any) -> list[str]:
    """Every URL the page asked for since the last call (from the performance log)."""
    urls = []
    for entry in chrome.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] == "Network.requestWillBeSent":
            urls.append(message["params"]["request"]["url"])
    return urls


def whole_page_screenshot(chrome: Any, path: os.PathLike[str] | str) -> None:
    """Save a picture of the whole page (the window stretched to the page's height)."""
    width = chrome.get_window_size()["width"]
    height = chrome.execute_script("return document.documentElement.scrollHeight")
    chrome.set_window_size(width, min(int(height) + 40, 12000))
    chrome.save_screenshot(str(path))
    chrome.set_window_size(width, 1000)


def open_page(chrome: Any, page: Path, anchor: str = "") -> None:
    """Open a report page (a path) at ``anchor``, afresh even when only the anchor differs
    from the page open, and wait until its script has drawn the deal list."""
    chrome.get("about:blank")
    chrome.get(page.as_uri() + anchor)
    chrome.find_element("css selector", "#dealist table")  # the script has drawn the list


def wait_up_to(chrome: Any, seconds: float) -> Any:
    """Selenium's wait: polls a condition until it holds (or fails the test after ``seconds``);
    an element the page redraws between finding and reading it is polled again."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(chrome, seconds, ignored_exceptions=(StaleElementReferenceException,))


def text_of(chrome: Any, element_id: str) -> str:
    """The text of the element of that id, its white space made single spaces."""
    return " ".join(chrome.find_element("id", element_id).text.split())


def cards_in(chrome: Any, selector: str) -> list[str]:
    """The faces of the cards shown in ``selector``."""
    return [
        card.get_attribute("data-card")
        for card in chrome.find_elements("css selector", f"{selector} .card:not(.back)")
    ]


def backs_in(chrome: Any, selector: str) -> int:
    """How many cards ``selector`` shows face down."""
    return len(chrome.find_elements("css selector", f"{selector} .card.back"))
