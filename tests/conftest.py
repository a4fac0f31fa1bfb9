"""Fixtures shared by the test modules that run hostile bots."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hostilehelp import kill_marked, new_mark


@pytest.fixture
def mark() -> Iterator[str]:
    """The test's unique marker; whatever still carries it at the end is killed."""
    value = new_mark()
    yield value
    kill_marked(value)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "long: a module that runs for minutes; its files are handed out first"
    )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The modules marked ``long`` first (in their order), then the rest as collected.

    Two processes take whole files in this order (``--dist loadfile`` without xdist's
    reordering by test count): a file of minutes handed out last would run alone at the end
    while the other process idles (the fair-play screen's did, some 15 minutes of a CI run)."""
    items.sort(key=lambda item: item.get_closest_marker("long") is None)
