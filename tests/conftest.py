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
