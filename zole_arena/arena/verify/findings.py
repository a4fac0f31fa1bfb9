"""What ``verify`` reports: each finding as it is found, and the counts of a whole log."""

from __future__ import annotations

import dataclasses
import enum
import re
from typing import Final

__all__ = ["DIGEST_RE", "Finding", "Kind", "VerifyReport"]

#: How a log's digest is written: ``sha256:`` and 64 lowercase hex digits.
DIGEST_RE: Final = re.compile(r"sha256:[0-9a-f]{64}")


class Kind(enum.Enum):
    """What a finding is about."""

    DEAL = "deal"
    """A deal record that disagrees with the rules, its header or the deals before it."""
    HEADER = "header"
    """A header with impossible settings, or that disagrees with its tournament."""
    CHAIN = "chain"
    """The hash chain breaks (only the first break is reported)."""
    LINE = "line"
    """A line that could not be read as a record, and was skipped."""
    DIGEST = "digest"
    """The log's digest is not the one given."""
    NOTE = "note"
    """Something to know that is not wrong: a format-1 log has no hash chain."""


@dataclasses.dataclass(frozen=True)
class Finding:
    """One thing ``verify`` found in a log, as it found it."""

    kind: Kind
    line: int
    """The log's line (from 1); 0 for the log as a whole (its digest)."""
    message: str
    deal: int | None = None
    """The deal record's number, for a problem with a deal record."""
    fails: bool = True
    """Whether it makes the log fail; False for a note, or a line cut short by a crash."""

    def describe(self, path: str) -> str:
        """One line: ``LOG: deal N: …``, ``LOG: line N: …`` or ``LOG: …``."""
        if self.deal is not None:
            return f"{path}: deal {self.deal}: {self.message}"
        if self.line:
            return f"{path}: line {self.line}: {self.message}"
        return f"{path}: {self.message}"


@dataclasses.dataclass
class VerifyReport:
    """What ``verify`` found in one log (the findings themselves went to ``on_finding``)."""

    path: str
    deals: int = 0
    """Deal records read."""
    bad: int = 0
    """Deal records that disagree with the rules, their header or the deals before them."""
    bad_headers: int = 0
    """Headers with impossible or missing settings, or that disagree with their tournament."""
    bad_settles: int = 0
    """``settle`` records (pules paid at the end of a table of four) found wrong, or missing."""
    broken: int = 0
    """Lines that cannot be read as records, not counting lines cut short by a crash."""
    chain_breaks: int = 0
    """Lines whose ``prev`` is not the hash of the line before (the first is reported)."""
    format_version: int | None = None
    """The format of the log (of its first record)."""
    digest: str | None = None
    """``sha256:<hex>`` of the log's last line."""
    digest_differs: bool = False
    """The digest asked for is not the log's."""

    @property
    def failed(self) -> bool:
        """Whether anything found makes the log fail."""
        return bool(
            self.bad
            or self.bad_headers
            or self.bad_settles
            or self.broken
            or self.chain_breaks
            or self.digest_differs
        )
