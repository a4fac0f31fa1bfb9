"""Re-playing deal records through the rules engine: for ``replay`` and ``verify``.

:func:`replay_record` rebuilds a record's deal from its rules, hands, talon, dealer and pules,
applies every logged move with the engine's checks, and compares what the engine concludes
with what the record says. Every disagreement becomes a line in the returned problems, so a
bad record never stops the checking of the others.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from zole_arena.actions import parse_action
from zole_arena.cards import Card, cards_of
from zole_arena.errors import IllegalActionError, NotationError, RulesError
from zole_arena.records import read_log
from zole_arena.rules import Rules
from zole_arena.scoring import Pules
from zole_arena.state import DealState, forfeit_result

__all__ = ["Replayed", "replay_record", "verify_log"]


@dataclasses.dataclass
class Replayed:
    """A deal record played again through the engine."""

    record: dict[str, Any]
    state: DealState | None
    """The engine's state after the logged moves (None if the deal could not be set up)."""
    problems: list[str]


def _cards(items: Sequence[str]) -> list[Card]:
    return [Card.parse(text) for text in items]


def _compare(problems: list[str], what: str, logged: object, engine: object) -> None:
    if logged != engine:
        problems.append(f"{what}: the log says {logged!r}, the rules give {engine!r}")


def replay_record(record: dict[str, Any]) -> Replayed:
    """Rebuild and re-play one deal record; list every way in which it disagrees."""
    problems: list[str] = []
    try:
        rules = Rules.from_dict(record["rules"])
        pules_data = record["pules_before"]
        pules = Pules(pules_data["common"], tuple(pules_data["personal"]))
        state = DealState(
            rules,
            [_cards(hand) for hand in record["hands"]],
            _cards(record["talon"]),
            record["dealer"],
            pules,
            seed=record["seed"],
            deal_no=record["deal_no"],
        )
    except (KeyError, TypeError, ValueError, RulesError, NotationError) as exc:
        return Replayed(record, None, [f"cannot set up the deal: {exc}"])
    try:
        dealt = DealState.from_seed(rules, record["seed"], record["deal_no"], record["dealer"])
        if dealt.initial_hands != state.initial_hands or dealt.talon != state.talon:
            problems.append("the hands are not the ones the seed deals")
    except (ValueError, TypeError) as exc:
        problems.append(f"the seed cannot be dealt: {exc}")
    for index, move in enumerate(record.get("moves", []), start=1):
        try:
            action = parse_action(move["action"])
            if state.turn != move["seat"]:
                problems.append(
                    f"move {index} ({move['action']}) is logged for seat {move['seat']}, "
                    f"but seat {state.turn} was to move"
                )
                break
            state.apply(action)
        except (NotationError, IllegalActionError, KeyError, TypeError) as exc:
            problems.append(f"move {index}: {exc}")
            break
    result = record.get("result", {})
    forfeit = result.get("forfeit")
    if forfeit is None:
        if state.result is None:
            problems.append("the logged moves do not finish the deal")
            return Replayed(record, state, problems)
        engine = state.result
    else:
        scores = result.get("scores", [0, 0, 0])
        penalty = scores[(forfeit + 1) % 3]
        engine = forfeit_result(state, forfeit, penalty)
    _compare(problems, "scores", result.get("scores"), list(engine.scores))
    _compare(problems, "contract", result.get("contract"),
             None if engine.contract is None else str(engine.contract))  # fmt: skip
    _compare(problems, "soloist", result.get("soloist"), engine.soloist)
    _compare(problems, "tricks", result.get("tricks"), list(engine.tricks))
    _compare(problems, "points", result.get("points"), list(engine.points))
    _compare(problems, "band", result.get("band"), engine.band)
    _compare(problems, "pules after", result.get("pules"), engine.pules.to_dict())
    if sum(engine.scores) != 0 or sum(result.get("scores", [0])) != 0:
        problems.append("the scores are not zero-sum")
    # What replay shows and readers use without re-playing must agree with the moves too.
    _compare_tricks(problems, record.get("tricks"), _trick_records(state))
    _compare(problems, "buried", record.get("buried"), [str(c) for c in cards_of(state.buried)])
    termination = "normal" if forfeit is None else "forfeit"
    _compare(problems, "termination", record.get("termination"), termination)
    return Replayed(record, state, problems)


def _compare_tricks(problems: list[str], logged: object, engine: list[dict[str, Any]]) -> None:
    """Name the first trick that differs (a whole deal's tricks would not fit one line)."""
    if not isinstance(logged, list) or len(logged) != len(engine):
        count = len(logged) if isinstance(logged, list) else logged
        problems.append(f"tricks: the log has {count!r}, the moves make {len(engine)}")
        return
    for number, (mine, theirs) in enumerate(zip(logged, engine, strict=True), start=1):
        if mine != theirs:
            problems.append(f"trick {number}: the log says {mine!r}, the moves make {theirs!r}")
            return


def _trick_records(state: DealState) -> list[dict[str, Any]]:
    """The finished tricks as deal records write them."""
    return [
        {"leader": trick.leader, "cards": [str(c) for c in trick.cards], "winner": trick.winner,
         "points": sum(c.points for c in trick.cards)}
        for trick in state.tricks
    ]  # fmt: skip


@dataclasses.dataclass
class VerifyReport:
    """What ``verify`` found in one log."""

    path: str
    deals: int
    bad: list[tuple[int, list[str]]]
    """(line-independent deal number, problems) of each record that disagrees."""
    skipped: list[str]
    """Lines that could not be read (a truncated last line, say)."""
    broken: int = 0
    """How many of the skipped lines are not merely records cut short by a crash."""


def verify_log(path: str) -> VerifyReport:
    """Re-play every deal record of a log.

    :raises RecordError: the file is not a zole-arena log.
    """
    records, log_problems = read_log(path)
    bad: list[tuple[int, list[str]]] = []
    deals = 0
    totals: dict[tuple[Any, tuple[int, ...]], list[int]] = {}
    headers = {r.get("match_id"): r for r in records if r.get("type") == "match"}
    last_deal: dict[Any, Any] = {}
    for record in records:
        if record.get("type") != "deal":
            continue
        deals += 1
        replayed = replay_record(record)
        problems = list(replayed.problems)
        match_id = record.get("match_id")
        header = headers.get(match_id)
        if header is not None:
            problems.extend(_against_header(record, header))
        number, previous = record.get("deal"), last_deal.get(match_id)
        if previous is not None and number != previous + 1:
            problems.append(f"deal number {number} follows deal {previous} of its match")
        last_deal[match_id] = number
        # Each seating of each match keeps its own sheet (a tournament's log interleaves the
        # deals of its tables).
        seating = (record.get("match_id"), tuple(record.get("seating", (0, 1, 2))))
        scores = record.get("result", {}).get("scores", [0, 0, 0])
        logged = record.get("totals")
        running = totals.get(seating)
        if running is None:
            # The first deal of this seating in this file: a record on its own (or a log that
            # starts later) is taken at its word, and the following deals must add up from it.
            start = logged if isinstance(logged, list) and len(logged) == 3 else [0, 0, 0]
            running = totals[seating] = [start[s] - scores[s] for s in range(3)]
        for seat in range(3):
            running[seat] += scores[seat]
        if logged is not None and logged != running:
            problems.append(
                f"totals: the log says {record['totals']}, its deals add up to {running}"
            )
            running[:] = record["totals"]
        if problems:
            bad.append((record.get("deal", deals), problems))
    broken = sum(1 for p in log_problems if not p.truncated)
    return VerifyReport(path, deals, bad, [p.describe() for p in log_problems], broken)


def _against_header(record: dict[str, Any], header: dict[str, Any]) -> list[str]:
    """What a deal record says that its match's header contradicts: the seed (which a resumed
    match deals from) and the players in their seats."""
    problems = []
    if record.get("seed") != header.get("seed"):
        problems.append(
            f"seed: the record says {record.get('seed')!r}, its match header {header.get('seed')!r}"
        )
    names = [player.get("name") for player in header.get("players", [])]
    seating = record.get("seating", [0, 1, 2])
    try:
        expected = [names[player] for player in seating]
    except (IndexError, TypeError):
        return [*problems, f"seating: {seating!r} does not fit the header's {len(names)} players"]
    logged = [player.get("name") for player in record.get("players", [])]
    if logged != expected:
        problems.append(
            f"players: the record seats {logged!r}, its header and seating give {expected!r}"
        )
    return problems
