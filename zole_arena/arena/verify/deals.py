"""One deal record against its match's header and against itself, for ``verify``.

Each function returns the problems it found as sentences (empty when there are none): the
seed, rules, players and schedule the header gives (:func:`against_header`, with the clocks
and the fault policy), a forfeit's fault (:func:`forfeit_problems`), and the order the records
write cards in (:func:`order_problems`). The replay of the moves through the rules engine is
:func:`~zole_arena.arena.replay.replay_record`'s; the deals before it are the verifier's.
"""

from __future__ import annotations

from zole_arena.arena.settings import scheduled
from zole_arena.errors import ZoleError
from zole_arena.game.clock import clock_after
from zole_arena.game.rules import Rules
from zole_arena.game.state import dealer_of, max_penalty
from zole_arena.game.table import seating_of
from zole_arena.records.checks import short
from zole_arena.records.model import DealRecord, HeaderSettings, MatchHeader
from zole_arena.records.schema import FAULT, shown

__all__ = ["against_header", "forfeit_problems", "order_problems"]


def against_header(record: DealRecord, header: MatchHeader) -> list[str]:
    """What a deal record says that its match's header contradicts: the seed (which a resumed
    match deals from), the rules, the players in their seats, the deal the schedule puts at
    this number, and a forfeit's penalty."""
    problems = []
    if record.seed != header.seed:
        problems.append(
            f"seed: the record says {short(record.seed)}, its match header {header.seed}"
        )
    if record.rules != header.rules:
        differ = sorted(
            key
            for key in {*record.rules, *header.rules}
            if record.rules.get(key) != header.rules.get(key)
        )
        problems.append(f"rules: the record's differ from its match header's in {short(differ)}")
    names = header.names
    if max(record.seating) >= len(names):
        return [*problems, f"seating: {list(record.seating)} names a player its header has not"]
    expected = [names[player] for player in record.seating]
    logged = list(record.names)
    if logged != expected:
        problems.append(
            f"players: the record seats {short(logged)}, its header and seating give "
            f"{short(expected)}"
        )
    else:
        problems += identity_problems(record, header)
    number = record.deal
    if number > header.total_deals:
        problems.append(f"beyond the {header.total_deals} deals of its match")
    elif header.table_size == 4 or record.table is not None:
        problems += table_schedule_problems(record, header)
    else:
        block, _sheet, seating = scheduled(number, header.duplicate)
        if record.block != block or record.seating != seating:
            problems.append(
                f"deal {number} of the match is block {block} in seating {list(seating)}, "
                f"not block {record.block} in seating {list(record.seating)}"
            )
    problems += clock_problems(record, header.settings)
    problems += policy_problems(record, header.settings)
    forfeit = record.result.forfeit
    if forfeit is not None:
        try:
            penalty = header.settings.penalty
            if penalty is None:
                penalty = max_penalty(Rules.from_dict(header.rules))
        except ZoleError:
            penalty = None
        paid = record.result.scores[(forfeit + 1) % 3]
        if penalty is not None and paid != penalty:
            problems.append(
                f"forfeit: seat {forfeit} pays {paid} to each other seat, the match's "
                f"penalty is {penalty}"
            )
    return problems


def identity_problems(record: DealRecord, header: MatchHeader) -> list[str]:
    """Each seat's bot as the record names it (the version its handshake gave, the command
    it ran) is its header's player: reports show them per bot, from the deals."""
    for seat, (identity, player) in enumerate(zip(record.players, record.seating, strict=True)):
        entry = header.players[player]
        if identity.command != shown_command(entry.command):
            return [
                f"players {seat + 1}: command is {short(list(identity.command))}, its header's "
                f"{entry.name} runs {short(list(entry.command))}"
            ]
        if identity.version != entry.version:
            return [
                f"players {seat + 1}: version is {short(identity.version)}, its header's "
                f"{entry.name} announced {short(entry.version)}"
            ]
    return []


def shown_command(command: tuple[str, ...]) -> tuple[str, ...]:
    """A header's command as a deal record's identity is read: shown (a header keeps the
    command as given, to start it again; a deal's names it, for reading)."""
    return tuple(map(shown, command))


def table_schedule_problems(record: DealRecord, header: MatchHeader) -> list[str]:
    """A deal of a table of four's match: deal ``n`` is the seed's deal ``n``, dealt by table
    seat ``(n + 2) mod 4`` (:func:`~zole_arena.game.table.table_dealer_of`), who sits it out."""
    table = record.table
    if header.table_size != 4:
        return ["a table of four's deal in a match of three"]
    if table is None:
        return ["a deal of a table of four without its table part"]
    number = record.deal
    dealer = seating_of(number, 4).dealer
    problems = []
    if record.block != number or table.dealer != dealer:
        problems.append(
            f"deal {number} of the match is block {number} dealt by table seat {dealer}, not "
            f"block {record.block} dealt by {table.dealer}"
        )
    entry = header.players[table.dealer]
    if table.sitter.name != entry.name:
        problems.append(
            f"table.sitter: {short(table.sitter.name)}, but table seat {table.dealer} is "
            f"{entry.name}"
        )
    elif (table.sitter.command, table.sitter.version) != (
        shown_command(entry.command),
        entry.version,
    ):
        problems.append(
            f"table.sitter: {entry.name} as the record names it (its command and version) is "
            "not its header's"
        )
    return problems


def clock_problems(record: DealRecord, settings: HeaderSettings) -> list[str]:
    """Whether the moves' clocks are the match's: each seat's clock starts the deal at the
    base, and after each decision is what its think time left (:func:`clock_after`); no
    decision took longer than the clock and the margin allowed. A move the arena played for
    a faulted bot may only have lost time."""
    tc = settings.tc
    if tc is None:
        number = next((n for n, m in enumerate(record.moves, 1) if m.clock_ms is not None), 0)
        return [f"clock: move {number} has a clock, its match none"] if number else []
    clocks = [tc.base_ms] * 3
    for number, move in enumerate(record.moves, start=1):
        logged, before = move.clock_ms, clocks[move.seat]
        if logged is None:
            return [f"clock: move {number} has none, under its match's clock {tc}"]
        if move.request_id is None:  # played for a faulted bot: what the arena left it
            expected = logged if logged <= before + tc.inc_ms else before + tc.inc_ms
        else:
            think = move.think_ms or 0.0
            if think > before + settings.margin_ms:
                return [
                    f"clock: move {number} took {think:g} ms, with {before} ms on its clock "
                    f"(and a {settings.margin_ms} ms margin)"
                ]
            expected = clock_after(before, think, tc.inc_ms)
        if logged != expected:
            return [f"clock: move {number} leaves {logged} ms, its think time {expected} ms"]
        clocks[move.seat] = logged
    return []


def forfeit_problems(record: DealRecord) -> list[str]:
    """A forfeit needs its fault: the culprit, of the forfeiting seat, one of the deal's
    faults; and every fault names the deal and the player in its seat."""
    problems = []
    forfeit, culprit = record.result.forfeit, record.culprit
    shown = short(None if culprit is None else FAULT.encode(culprit))
    if forfeit is not None and (culprit is None or culprit.seat != forfeit):
        problems.append(f"forfeit: seat {forfeit} forfeits, but the culprit is {shown}")
    elif forfeit is None and culprit is not None:
        problems.append(f"culprit: {shown}, but no seat forfeits")
    if culprit is not None and culprit not in record.faults:
        problems.append("culprit: not one of the deal's faults")
    unasked: set[int] = set()
    for number, fault in enumerate(record.faults, start=1):
        if fault.deal_no != record.deal:
            problems.append(f"fault {number}: of deal {fault.deal_no}, not {record.deal}")
        if record.seating[fault.seat] != fault.player:
            problems.append(
                f"fault {number}: player {fault.player} does not sit in seat {fault.seat}"
            )
        elif fault.bot != record.names[fault.seat]:
            problems.append(
                f"fault {number}: of {short(fault.bot)}, who is not in seat {fault.seat}"
            )
        if fault.request is None:  # at the deal's start or end: once a seat, at most
            if fault.seat in unasked:
                problems.append(f"fault {number}: a second fault of seat {fault.seat} unasked")
            unasked.add(fault.seat)
    return problems


def policy_problems(record: DealRecord, settings: HeaderSettings) -> list[str]:
    """The faults a request answered badly must show in the deal as the match's policy
    plays them: under ``forfeit`` the deal is forfeited by that seat (the culprit); under
    ``random`` the arena played a move for the seat for each of them (the culprit aside), and
    for no other request (a move without a request id is one the arena played)."""
    problems = []
    asked = [f for f in record.faults if f.request is not None and f != record.culprit]
    if settings.on_fault == "forfeit" and asked:
        problems.append(
            f"faults: seat {asked[0].seat} faulted answering a request, and under the "
            "forfeit policy that forfeits the deal"
        )
    for seat in range(3):
        played_for = sum(1 for m in record.moves if m.seat == seat and m.request_id is None)
        faulted = sum(1 for f in asked if f.seat == seat)
        if faulted > played_for and settings.on_fault == "random":
            problems.append(
                f"faults: seat {seat} has more faults answering requests than moves the arena "
                "played for it"
            )
        elif played_for > faulted:
            problems.append(
                f"moves: the arena played {played_for} for seat {seat} (no request id), which "
                f"faulted answering {faulted}"
            )
    return problems


def order_problems(record: DealRecord) -> list[str]:
    """The record's cards as records write them: each hand, the talon and the buried cards
    strongest first (the canonical order of ``protocol/dealing.md``); the deal number of a
    seed's deal is its block, and its dealer the one the deal number gives."""
    problems = []
    for what, cards in (
        *((f"hand {seat}", hand) for seat, hand in enumerate(record.hands)),
        ("talon", record.talon),
        ("buried", record.buried),
    ):
        if list(cards) != sorted(cards) or len(set(cards)) != len(cards):
            problems.append(f"{what}: {short([str(c) for c in cards])} is not strongest first")
    if record.deal_no != record.block:
        problems.append(f"deal_no {record.deal_no} is not its block {record.block}")
    if record.table is not None:
        pass  # the deal's dealer at a table of four is seat 2: its shape says so
    elif record.dealer != dealer_of(record.deal_no):
        problems.append(
            f"dealer: seat {record.dealer}, but deal_no {record.deal_no} is dealt by "
            f"seat {dealer_of(record.deal_no)}"
        )
    return problems
