"""Re-playing a deal record through the rules engine: for ``replay`` and ``verify``.

:func:`replay_record` rebuilds a record's deal from its rules, hands, talon, dealer and pules,
applies every logged move with the engine's checks, and compares what the engine concludes
with what the record says. Every disagreement becomes a line in the returned problems, so a
bad record never stops the checking of the others.
"""

from __future__ import annotations

import dataclasses
from typing import Final

from zole_arena.errors import ZoleError
from zole_arena.game.actions import Contract, parse_action
from zole_arena.game.cards import cards_of
from zole_arena.game.rules import Rules
from zole_arena.game.state import DealState, forfeit_result
from zole_arena.game.values import DealResult
from zole_arena.records.checks import short
from zole_arena.records.model import DealRecord, LoggedTrick, Termination, tricks_of
from zole_arena.records.schema import TRICK

__all__ = ["Replayed", "replay_record"]


@dataclasses.dataclass
class Replayed:
    """A deal record played again through the engine."""

    record: DealRecord
    state: DealState | None
    """The engine's state after the logged moves (None if the deal could not be set up)."""
    problems: list[str]


def _compare(problems: list[str], what: str, logged: object, engine: object) -> None:
    if logged != engine:
        problems.append(f"{what}: the log says {short(logged)}, the rules give {short(engine)}")


def _name(value: Contract | str | None) -> str | None:
    """A contract or a band as records write it."""
    if value is None:
        return None
    return value.value if isinstance(value, Contract) else str(value)


def replay_record(record: DealRecord) -> Replayed:
    """Rebuild and re-play one deal record; list every way in which it disagrees."""
    problems: list[str] = []
    try:
        rules = Rules.from_dict(record.rules)
        state = DealState(
            rules,
            record.hands,
            record.talon,
            record.dealer,
            record.pules_before,
            seed=record.seed,
            deal_no=record.deal_no,
        )
    except (KeyError, TypeError, ValueError, ZoleError) as exc:
        return Replayed(record, None, [f"cannot set up the deal: {short(str(exc))}"])
    try:
        dealt = DealState.from_seed(rules, record.seed, record.deal_no, record.dealer)
        if dealt.initial_hands != state.initial_hands or dealt.talon != state.talon:
            problems.append("the hands are not the ones the seed deals")
    except (ValueError, TypeError) as exc:
        problems.append(f"the seed cannot be dealt: {short(str(exc))}")
    for index, move in enumerate(record.moves, start=1):
        try:
            action = parse_action(move.action)
            if state.turn != move.seat:
                problems.append(
                    f"move {index} ({short(move.action)}) is logged for seat {move.seat}, "
                    f"but seat {state.turn} was to move"
                )
                break
            state.apply(action)
        except (ZoleError, TypeError, ValueError) as exc:
            problems.append(f"move {index}: {short(str(exc))}")
            break
    result = record.result
    forfeit = result.forfeit
    if forfeit is None:
        if state.result is None:
            problems.append("the logged moves do not finish the deal")
            return Replayed(record, state, problems)
        engine = state.result
    else:
        engine = forfeit_result(state, forfeit, result.scores[(forfeit + 1) % 3])
    _compare(problems, "scores", list(result.scores), list(engine.scores))
    _compare(problems, "contract", _name(result.contract), _name(engine.contract))
    _compare(problems, "soloist", result.soloist, engine.soloist)
    _compare(problems, "tricks", list(result.tricks), list(engine.tricks))
    _compare(problems, "points", list(result.points), list(engine.points))
    _compare(problems, "band", _name(result.band), _name(engine.band))
    _compare(problems, "pules after", result.pules.to_dict(), engine.pules.to_dict())
    for field in _PLAIN_FIELDS:  # the rest of the result, which readers show as logged
        logged, derived = getattr(result, field), getattr(engine, field)
        if isinstance(logged, tuple) and isinstance(derived, tuple):
            logged, derived = list(logged), list(derived)
        _compare(problems, field, logged, derived)
    if sum(engine.scores) != 0 or sum(result.scores) != 0:
        problems.append("the scores are not zero-sum")
    # What replay shows and readers use without re-playing must agree with the moves too.
    _compare_tricks(problems, record.tricks, tricks_of(state))
    _compare(problems, "buried", [str(c) for c in record.buried],
             [str(c) for c in cards_of(state.buried)])  # fmt: skip
    termination = Termination.NORMAL if forfeit is None else Termination.FORFEIT
    _compare(problems, "termination", record.termination.value, termination.value)
    return Replayed(record, state, problems)


#: The result's fields compared as they are (the others above, shown by name or as lists).
_PLAIN_FIELDS: Final = tuple(
    field
    for field in DealResult._fields
    if field not in {"scores", "contract", "soloist", "tricks", "points", "band", "pules"}
)


def _compare_tricks(
    problems: list[str], logged: tuple[LoggedTrick, ...], engine: tuple[LoggedTrick, ...]
) -> None:
    """Name the first trick that differs (a whole deal's tricks would not fit one line)."""
    if len(logged) != len(engine):
        problems.append(f"tricks: the log has {len(logged)}, the moves make {len(engine)}")
        return
    for number, (mine, theirs) in enumerate(zip(logged, engine, strict=True), start=1):
        if mine != theirs:
            problems.append(
                f"trick {number}: the log says {short(TRICK.encode(mine))}, the moves make "
                f"{short(TRICK.encode(theirs))}"
            )
            return
