"""Analysing one deal record: the open-card value of every legal action at every decision.

The record is played again through the rules engine, move by move; before each move of a bot
with more than one legal choice, every legal action is valued by the solver (the bids by
:class:`~zole_arena.analysis.bids.BidValues`) and turned into the deciding seat's score.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from zole_arena.analysis.bids import BidValues
from zole_arena.analysis.model import ActionValue, DealAnalysis, Decision, Phase, Role
from zole_arena.analysis.outcomes import band_scores, table_score
from zole_arena.analysis.solver import Solver
from zole_arena.errors import ZoleError
from zole_arena.game.actions import Action, Bid, Bury, BuryChoices, Contract, parse_action
from zole_arena.game.cards import cards_of
from zole_arena.game.rules import Rules
from zole_arena.game.state import DealState
from zole_arena.game.values import Phase as StatePhase
from zole_arena.records.model import DealRecord, Move

__all__ = ["analyse_deal", "analysis_fits", "bury_text", "rules_swing"]


def bury_text(bury: Bury) -> str:
    """A bury as the protocol and the log write it: ``KD 9C``."""
    return f"{bury.cards[0]} {bury.cards[1]}"


def analysis_fits(analysis: DealAnalysis, record: DealRecord) -> bool:
    """Whether ``analysis`` can be the analysis of ``record``: the same match, deal, players
    and rules' swing, and exactly the record's decisions — each move of a bot (not of the
    arena) with more than one legal choice, once, in order — each with its seat, phase, role,
    the action taken and the legal actions in the rules' order. Only the values themselves
    are taken on trust. (An analysis file may be crafted: a reader shows an analysis only
    beside a deal it fits.)"""
    if (
        analysis.match_id != record.match_id
        or analysis.deal != record.deal
        or analysis.players != record.names
    ):
        return False
    try:
        rules = Rules.from_dict(record.rules)
        state = DealState(rules, record.hands, record.talon, record.dealer, record.pules_before)
    except (KeyError, TypeError, ValueError, ZoleError):
        return not analysis.decisions
    if analysis.swing != rules_swing(rules):
        return False
    expected = []
    for index, move, action, now in _walk(record, state, []):
        if move.request_id is None:
            continue
        legal = _legal_texts(now)
        if len(legal) < 2:
            continue
        phase, role = _kind(now, move.seat)
        expected.append((index, move.seat, phase, role, _text(action), legal))
    found = [
        (d.move, d.seat, d.phase, d.role, d.action, [v.action for v in d.values])
        for d in analysis.decisions
    ]
    return found == expected


def _text(action: Action) -> str:
    return bury_text(action) if isinstance(action, Bury) else str(action)


def _legal_texts(state: DealState) -> list[str]:
    return [_text(action) for action in state.legal_actions()]


def _kind(state: DealState, seat: int) -> tuple[Phase, Role]:
    if state.phase is StatePhase.BIDDING:
        return Phase.BID, Role.BIDDER
    if state.phase is StatePhase.BURYING:
        return Phase.BURY, Role.SOLOIST
    return Phase.PLAY, _role(state, seat)


def _walk(
    record: DealRecord, state: DealState, note: list[str]
) -> Iterator[tuple[int, Move, Action, DealState]]:
    """Each legal move of ``record`` with the state before it (``state``, which is then
    played on); stops at the first move that is not the seat to move's or not legal, and says
    why in ``note``."""
    for index, move in enumerate(record.moves):
        if state.turn != move.seat:
            note.append(f"move {index + 1} is logged for seat {move.seat}, not the seat to move")
            return
        try:
            action = parse_action(move.action)
        except ZoleError as exc:
            note.append(f"move {index + 1}: {exc}")
            return
        if action not in state.legal_actions():
            note.append(f"move {index + 1}: {move.action} is not a legal action there")
            return
        yield index, move, action, state
        try:
            state.apply(action)
        except ZoleError as exc:
            note.append(f"move {index + 1}: {exc}")
            return


def rules_swing(rules: Rules) -> int:
    """What a take's win is worth to one defender more than its loss (the thresholds' unit;
    at least 1, whatever a rules file says)."""
    return max(1, rules.take.win - rules.take.loss)


def _role(state: DealState, seat: int) -> Role:
    if state.soloist is None:
        return Role.TABLE
    return Role.SOLOIST if seat == state.soloist else Role.DEFENDER


def _scores(
    state: DealState, context: str, solver: Solver, seat: int, cards: Sequence[int]
) -> list[int]:
    """The deciding ``seat``'s score for each of ``cards`` played now."""
    raw = solver.values(context, state, cards)
    if state.contract is Contract.TABLE:
        return [table_score(state.rules, v) for v in raw]
    soloist: int = state.soloist  # type: ignore[assignment]
    contract: Contract = state.contract  # type: ignore[assignment]
    return [band_scores(state.rules, contract, soloist, state.pules, v)[seat] for v in raw]


def _bury_values(state: DealState, context: str, solver: Solver) -> list[ActionValue]:
    seat: int = state.turn  # type: ignore[assignment]
    bands = solver.bury_bands(context, state)
    choices = BuryChoices(state.hand_mask(seat))
    return [
        ActionValue(
            bury_text(bury), band_scores(state.rules, Contract.TAKE, seat, state.pules, band)[seat]
        )
        for bury, band in zip(choices, bands, strict=True)
    ]


def analyse_deal(record: DealRecord, sha256: str, solver: Solver, context: str) -> DealAnalysis:
    """The analysis of ``record`` (whose log line has the SHA-256 ``sha256``).

    ``context`` must differ from every other deal's given to the same solver.

    :raises SolverError: the solver failed.
    """
    names = record.names
    try:
        rules = Rules.from_dict(record.rules)
        state = DealState(rules, record.hands, record.talon, record.dealer, record.pules_before)
    except (KeyError, TypeError, ValueError, ZoleError) as exc:
        return DealAnalysis(sha256, record.match_id, record.deal, "?", 0, names, (), False,
                            f"the deal cannot be set up: {exc}")  # fmt: skip
    swing = rules_swing(rules)
    bids = BidValues(state.copy(), solver, context, *_analysed_after_bids(record))
    decisions: list[Decision] = []
    notes: list[str] = []
    for index, move, action, now in _walk(record, state, notes):
        if move.request_id is not None:
            seat = move.seat
            decision = _decide(now, bids, solver, context, index, seat, names[seat], action)
            if decision is not None:
                decisions.append(decision)
    note = notes[0] if notes else ""
    complete = state.is_terminal and not note and record.result.forfeit is None
    if not note and not complete:
        note = "the deal was forfeited" if record.result.forfeit is not None else "unfinished"
    return DealAnalysis(sha256, record.match_id, record.deal, rules.preset, swing, names,
                        tuple(decisions), complete, note)  # fmt: skip


def _analysed_after_bids(record: DealRecord) -> tuple[int | None, bool]:
    """Whether the decision after the bids is a bot's bury (its seat) or a bot's first lead
    of the table game: what :class:`BidValues` may solve in the form that decision needs."""
    for index, move in enumerate(record.moves[:3]):
        if move.action == str(Bid.PASS):
            continue
        after = record.moves[index + 1] if index + 1 < len(record.moves) else None
        if move.action == str(Bid.TAKE) and after is not None and after.request_id is not None:
            return move.seat, False
        return None, False
    first = record.moves[3] if len(record.moves) > 3 else None
    return None, first is not None and first.request_id is not None


def _decide(
    state: DealState,
    bids: BidValues,
    solver: Solver,
    context: str,
    index: int,
    seat: int,
    player: str,
    action: Action,
) -> Decision | None:
    """The decision before ``action``, a legal action (None when it had no alternative)."""
    kind, role = _kind(state, seat)
    if kind is Phase.BID:
        bid_values = bids.values(len(state.bids))
        values = [ActionValue(str(bid), value) for bid, value in bid_values.items()]
    elif kind is Phase.BURY:
        values = _bury_values(state, f"{context}:s{seat}", solver)
    else:
        legal = cards_of(state.legal_cards_mask())
        if len(legal) < 2:
            return None
        who = "t" if state.soloist is None else f"s{state.soloist}"
        scores = _scores(state, f"{context}:{who}", solver, seat, legal)
        values = [ActionValue(str(c), v) for c, v in zip(legal, scores, strict=True)]
    if len(values) < 2:
        return None
    return Decision(index, seat, player, kind, role, _text(action), tuple(values))
