"""What a worker's table must send next: its match header, each deal in the table's order,
and how it stopped — checked before the parent writes anything to the log."""

from __future__ import annotations

from zole_arena.arena.stop import Stop, StopReason
from zole_arena.events.messages import one_line
from zole_arena.events.plain import MessageError, _what
from zole_arena.records.model import (
    DealRecord,
    MatchHeader,
    MatchRecord,
    SettleRecord,
    TableOf,
)

__all__ = [
    "check_deal",
    "check_header",
    "check_settle",
    "check_stop",
]


def check_header(
    record: MatchRecord,
    match_id: str,
    names: tuple[str, ...],
    part_of: TableOf,
) -> None:
    """Check a worker's match header for its table: the match id, the players in order, and
    which tournament and table it says it is.

    :raises MessageError: it is not that table's header.
    """
    if not isinstance(record, MatchHeader):
        raise MessageError(f"a {record.type} record where its match record was due")
    if record.match_id != match_id:
        raise MessageError(f"a record of match {_what(record.match_id)}, not {match_id}")
    if record.names != names:
        raise MessageError(f"a match header whose players are not {', '.join(names)}")
    if record.tournament != part_of:
        raise MessageError(f"a match header whose tournament is {record.tournament}")


def check_stop(stop: Stop, names: tuple[str, ...]) -> None:
    """Check why a worker says its table stopped: interrupted, or some of the table's bots
    (``names``) disqualified — a table stops for nothing else.

    :raises MessageError: another reason, or a name that is not one of the table's.
    """
    bots = [bot.name for bot in stop.disqualified]
    if stop.reason is StopReason.INTERRUPTED:
        fits = not bots
    else:
        fits = stop.reason is StopReason.DISQUALIFIED and bool(bots)
    if not (fits and not stop.message and not stop.unfinished and set(bots) <= set(names)):
        raise MessageError(f"a done message that stops for {one_line(str(stop))!r}")


def check_deal(
    record: MatchRecord,
    match_id: str,
    names: tuple[str, ...],
    number: int,
    block: int,
    seating: tuple[int, ...],
) -> None:
    """Check a worker's deal record for its table: the match id, the deal's number, block and
    seating as the table's schedule has them next, and the players in their seats (the
    record's shape was checked as it was read: :class:`RecordMessage`).

    The rest of the record (hands, moves, tricks) is the worker's word: only a replay
    (``zole-arena verify``) checks it against the seed and the rules.

    :raises MessageError: it is not the deal the table plays next.
    """
    if not isinstance(record, DealRecord):
        raise MessageError(f"a {record.type} record where its deal record was due")
    if record.match_id != match_id:
        raise MessageError(f"a record of match {_what(record.match_id)}, not {match_id}")
    if record.deal != number:
        raise MessageError(f"deal {record.deal} where deal {number} was due")
    if record.block != block:
        raise MessageError(f"deal {number} in block {record.block}, not {block}")
    if record.seating != seating:
        raise MessageError(f"deal {number} in seating {list(record.seating)}")
    expected = tuple(names[player] for player in seating)
    if record.names != expected:
        raise MessageError(f"deal {number} whose players are not {', '.join(expected)}")
    table = record.table
    if (table is None) != (len(names) == 3):
        raise MessageError(f"deal {number} {'with' if table else 'without'} a table part")
    if table is not None:
        sitter = next(p for p in range(len(names)) if p not in seating)
        if table.dealer != sitter or table.sitter.name != names[sitter]:
            raise MessageError(f"deal {number} whose sitter is not {names[sitter]}")


def check_settle(record: MatchRecord, match_id: str, names: tuple[str, ...], last: int) -> None:
    """Check a worker's ``settle`` record for its table: of its match, after its last deal
    (``last``), of its players (the amounts are the worker's word, as a deal's are: ``verify``
    checks them).

    :raises MessageError: it is not that record.
    """
    if not isinstance(record, SettleRecord):
        raise MessageError(f"a {record.type} record after the table's last deal")
    if record.match_id != match_id:
        raise MessageError(f"a record of match {_what(record.match_id)}, not {match_id}")
    if record.after != last or len(record.scores) != len(names):
        raise MessageError(f"a settle record that is not of the table's {len(names)} players")
