"""Building the typed record of a line's JSON value, or saying in one line why there is none.

The reader (:mod:`zole_arena.records.reader`) decodes a line and hands its value here:
:func:`from_json` checks it (:mod:`zole_arena.records.checks`) and builds the record of
:mod:`zole_arena.records.model` from the checked value, so nothing but a well-formed record is
ever built. Keys this version does not know are left out; keys that early logs lack are read as
absent.

The records are built as :mod:`~zole_arena.records.schema` declares them, with the text that is
only shown cleaned of what a terminal acts on.

A header that fails its checks becomes an
:class:`~zole_arena.records.model.InvalidHeader` (it is a header, just not a usable one),
a deal record that fails them is no record at all.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from zole_arena.records.checks import (
    check_header,
    deal_shape_problem,
    settle_shape_problem,
    short,
)
from zole_arena.records.model import (
    READABLE_VERSIONS,
    InvalidHeader,
    OtherRecord,
    Record,
)
from zole_arena.records.schema import DEAL, MATCH, SETTLE, TOURNAMENT, shown

__all__ = ["from_json"]

#: The longest match id an unusable header or an unknown record keeps (for a warning).
_SHOWN_ID: Final = 200


def from_json(value: Mapping[str, Any]) -> Record | str:
    """The record of a zole-arena record's JSON object (its ``format`` is ``zole-arena``), or
    why it cannot be read, in one line (``deal 3: hands is …, not three lists of card
    names``)."""
    version = value.get("format_version")
    if version not in READABLE_VERSIONS or type(version) is not int:
        versions = " or ".join(map(str, READABLE_VERSIONS))
        return f"record format version {short(version)} is not {versions}"
    kind, match_id = value.get("type"), value.get("match_id")
    if not isinstance(kind, str) or not isinstance(match_id, str):
        return "a record without a type or match_id in text"
    if kind == "deal":
        shape = deal_shape_problem(value)
        if shape is not None:
            number = value["deal"] if type(value.get("deal")) is int else None
            return f"{'a deal record' if number is None else f'deal {number}'}: {shape}"
        return DEAL.decode(value)
    if kind == "settle":
        problem = settle_shape_problem(value)
        if problem is not None:
            return f"a settle record: {problem}"
        return SETTLE.decode(value)
    if kind not in ("match", "tournament"):
        return OtherRecord(shown(kind[:_SHOWN_ID]), shown(match_id[:_SHOWN_ID]))
    problems = check_header(value)
    if problems:
        return InvalidHeader(
            kind, shown(match_id[:_SHOWN_ID]), tuple(problems), bool(value.get("duplicate"))
        )
    return MATCH.decode(value) if kind == "match" else TOURNAMENT.decode(value)
