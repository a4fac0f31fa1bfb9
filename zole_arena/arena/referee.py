"""The referee: plays deals between three bot processes (at a table of four, the three who do
not deal) and applies the error policy.

For each deal the referee deals from the score sheet, tells each bot ``newdeal``, asks the seat
to move with a ``go`` that carries its whole view, checks the answer with the rules engine, and
tells every bot what it may see happen. A bot's fault (crash, timeout, stall, garbage, an
illegal action, a flood, a failed start) never raises out of :meth:`Referee.play_deal`: it is
recorded as a :class:`Fault` and handled by the :class:`FaultPolicy` — by default the culprit
forfeits the deal, is restarted for the next one, and is disqualified past the fault limit.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import random
import time
from collections.abc import Callable, Sequence
from typing import Final, Literal

from zole_arena.errors import (
    BotError,
    BotStartupError,
    BotTimeoutError,
    FaultKind,
    IllegalActionError,
    NotationError,
    cut,
    printable,
)
from zole_arena.game.actions import Action, Bid, Bury
from zole_arena.game.cards import Card
from zole_arena.game.clock import TimeControl, clock_after, decisions_left
from zole_arena.game.rules import Rules
from zole_arena.game.scoresheet import ScoreSheet
from zole_arena.game.state import DealResult, DealState, Phase, forfeit_result, max_penalty
from zole_arena.game.table import TableContext, TableScore, TableSheet
from zole_arena.isolation.cgroups import CgroupError
from zole_arena.players.botgroup import BotGroup
from zole_arena.players.command import program_name, split_command
from zole_arena.players.inproc import DealContext, InProcessSession
from zole_arena.players.session import BotConfig, BotSession, PlayerSession
from zole_arena.protocol import (
    DealWriter,
    answer_text,
    events_after,
    parse_answer,
    result_event,
    sitout_event,
)
from zole_arena.records.model import Fault, Move

__all__ = [
    "MARGIN_MS",
    "MOVETIME_MS",
    "RESTART_KINDS",
    "Fault",
    "FaultPolicy",
    "DealOutcome",
    "Move",
    "Referee",
]

LOGGER = logging.getLogger(__name__)

OnFault = Literal["forfeit", "random"]
#: A bot's time for a decision, and the slack allowed on top of it for the pipes and the
#: scheduler, in milliseconds, unless a match says otherwise.
MOVETIME_MS: Final = 2000
MARGIN_MS: Final = 100
#: Faults after which the bot's process cannot be trusted to go on: it is stopped, and started
#: again when it is next needed. With the forfeit policy every fault stops the culprit
#: (protocol §6: "the bot is stopped and restarted for the next deal"); with random
#: substitution a bot that answered badly but is alive plays on.
RESTART_KINDS: Final = frozenset({"crash", "timeout", "stall", "flood", "startup"})


@dataclasses.dataclass(frozen=True)
class FaultPolicy:
    """What the referee does when a bot faults (``protocol/README.md`` §6)."""

    on_fault: OnFault = "forfeit"
    """``forfeit``: the culprit forfeits the deal; ``random``: a random legal action is played
    for it and the deal goes on."""
    penalty: int | None = None
    """What a forfeiting bot pays each other player; None: the rules' largest loss."""
    max_faults: int = 3
    """A bot with more faults than this in a match is disqualified."""


@dataclasses.dataclass
class DealOutcome:
    """A finished deal: the final state, its result, the moves with timings, the faults."""

    deal_no: int
    state: DealState
    result: DealResult
    moves: list[Move]
    faults: list[Fault]
    stray: tuple[int, int, int] = (0, 0, 0)
    """By seat: lines the bot wrote on its stdout during the deal that are no protocol
    message (ignored, not a fault; a bot's debugging output in the wrong place)."""
    table: tuple[TableContext, TableScore] | None = None
    """At a table of four: the table before the deal, and the deal scored for it."""

    @property
    def forfeit(self) -> Fault | None:
        """The fault that forfeited the deal, if one did."""
        if self.result.forfeit is None:
            return None
        return next((f for f in self.faults if f.seat == self.result.forfeit), None)


class _Player:
    """One of the three bots, whichever seat it sits in for a deal."""

    def __init__(self, number: int, config: BotConfig) -> None:
        self.number = number
        self.index = number  # its seat in the current deal (set by play_deal)
        self.config = config
        self.sessions: dict[int, PlayerSession] = {}
        """The player's running processes, by slot (:meth:`Referee.play_deal`)."""
        self.slot = 0
        """The slot of the current deal: whose process plays it."""
        self.faults = 0
        self.stray = 0
        """Stray lines of the deal under way from processes already stopped."""
        argv = split_command(config.command) if config.command else []
        self.name = config.name or (program_name(argv) if argv else f"player{number + 1}")
        self.identity: dict[str, object] = {"name": self.name, "command": list(config.command)}
        self.pending: list[str] = []
        """Lines for this bot alone not yet sent (its ``newdeal``): they go with its next
        request, or at the deal's end."""
        self.seen = 0
        """How many of the deal's events (:attr:`Referee._events`) this bot has been sent."""
        self.in_process = config.bot is not None
        """A Python object in the arena's process (:class:`InProcessSession`): asked with
        values, never with text."""
        self.group: BotGroup | None = None
        """The limits of all the player's sandboxed processes (one per slot), made with the
        first of them and kept until the match ends: a process restarted after a fault joins
        its slot's group again, with the CPU time its predecessors used."""

    def config_to_start(self, slots: int) -> BotConfig:
        """The configuration a new process of the player starts with: a sandboxed one joins
        its slot's part of the player's group (of ``slots`` parts).

        :raises BotStartupError: the group cannot be made.
        """
        if self.in_process or self.config.sandbox is None:
            return self.config
        try:
            if self.group is None:
                self.group = BotGroup(self.config.limits, slots)
            part = self.group.slot(self.slot)
        except CgroupError as exc:
            raise BotStartupError(f"cannot limit the sandboxed bot: {exc}") from None
        return dataclasses.replace(self.config, group=part)

    def close_group(self) -> None:
        """Kill what is left of the player's processes and remove its group."""
        if self.group is not None:
            self.group.close()
            self.group = None

    @property
    def session(self) -> PlayerSession | None:
        """The process that plays the current deal (None: not running)."""
        return self.sessions.get(self.slot)

    @session.setter
    def session(self, session: PlayerSession | None) -> None:
        if session is None:
            old = self.sessions.pop(self.slot, None)
            if old is not None:
                self.stray += old.take_stray()
        else:
            self.sessions[self.slot] = session


#: The most of a fault's message and of the bot's reply a record keeps (characters): a bot's
#: answers of 64 KiB each, faulted many times in one deal, would make the deal's record longer
#: than a log line may be (:data:`~zole_arena.records.reader.MAX_LINE_BYTES`).
FAULT_TEXT_CHARS: Final = 1000


class _Forfeit(Exception):
    def __init__(self, seat: int) -> None:
        self.seat = seat


class Referee:
    """Runs deals between three bots; seat ``i`` of every deal is ``configs[i]``. With four
    bots (a table of four), each deal is played by the three its seating names, and the one
    who deals sits it out: he is told how it went at its end (``sitout``).

    Events reach a bot together with its next request (or the deal's result), in one write:
    a bot learns everything before it must act, and the arena makes one pipe round trip per
    decision, not one per bot per card.
    """

    #: A bot that has been silent this long is pinged before the next deal.
    PING_AFTER_IDLE_S: Final = 5.0

    def __init__(
        self,
        rules: Rules,
        configs: Sequence[BotConfig],
        *,
        time_ms: int = MOVETIME_MS,
        margin_ms: int = MARGIN_MS,
        policy: FaultPolicy = FaultPolicy(),
        on_fault: Callable[[Fault], None] | None = None,
        start_session: Callable[[BotConfig], PlayerSession] = BotSession,
        tc: TimeControl | None = None,
        slots: int = 1,
        fixed_pace: bool = False,
    ) -> None:
        """:param slots: how many processes of each player may be alive at once (the slots of
        :meth:`play_deal`): a sandboxed player's limits are shared out among them.
        :param fixed_pace: send no request (and no result) earlier than if every decision of
        the deal before it had taken the whole ``time_ms``, so that how long a bot waits
        tells it nothing of how long the others thought (their cards); not with ``tc``."""
        if fixed_pace and tc is not None:
            raise ValueError("a fixed pace is a pace of the move time, not of a game clock")
        if len(configs) not in (3, 4):
            raise ValueError(f"a Zole table seats 3 or 4 bots, not {len(configs)}")
        self.rules = rules
        self.time_ms = time_ms
        self.tc = tc
        """The game clock (each seat's, per deal); None: ``time_ms`` for every decision."""
        self.slots = slots
        self.fixed_pace = fixed_pace
        self._paced_from = 0.0
        """When the current deal began (:meth:`_pace`)."""
        self._clocks = [0, 0, 0]
        """Each seat's clock in the current deal, in milliseconds (under :attr:`tc`)."""
        self.margin_ms = margin_ms
        self.policy = policy
        self.penalty = policy.penalty if policy.penalty is not None else max_penalty(rules)
        self.players = [_Player(i, config) for i, config in enumerate(configs)]
        self.seating: tuple[int, int, int] = (0, 1, 2)
        """``seating[seat]`` is the player in that seat for the current (or last) deal."""
        self.faults: list[Fault] = []
        self.disqualified: list[int] = []
        """Players past the fault limit; a match should stop once this is not empty."""
        self._by_seat = list(self.players[:3])
        self._sitter: _Player | None = None
        """The one who sits the current deal out (a table of four)."""
        self._rng: random.Random | None = None
        self._rng_seed = ""
        """Seeds the random actions of the current deal (made only when one is needed)."""
        self._used_ids: set[int] = set()
        """The request ids of the current deal."""
        self._random_ids: list[int] = []
        self._on_fault = on_fault
        self._start_session = start_session
        self._writer: DealWriter | None = None
        self._events: list[str] = []
        """The public events of the current deal, in order (every bot is told all of them)."""
        self._texts = not all(player.in_process for player in self.players)
        """Whether a player is a process, told the events as text (else none are written)."""
        self._context: DealContext | None = None
        """The current deal, for the in-process players."""

    @property
    def seats(self) -> list[_Player]:
        """The players by seat, in the current seating."""
        return list(self._by_seat)

    # -- bots -------------------------------------------------------------------------------

    def start(self) -> None:
        """Start every bot that is not running.

        :raises BotStartupError: a bot cannot be started (a match cannot begin without it).
        """
        for player in self.players:
            if player.session is None:
                try:
                    self._start(player)
                except BotStartupError as exc:
                    self.kill()
                    raise BotStartupError(f"{player.name}: {exc}", line=exc.line) from None

    def _start(self, seat: _Player) -> PlayerSession:
        config = seat.config_to_start(self.slots)
        session = InProcessSession(config) if seat.in_process else self._start_session(config)
        seat.session = session
        seat.name = session.name
        seat.identity = dict(session.identity())
        return session

    def names(self) -> list[str]:
        """The players' display names."""
        return [player.name for player in self.players]

    def close(self, grace_ms: int = 1000) -> None:
        """Send ``quit`` to every bot, give them ``grace_ms`` together to exit, then kill
        whatever is left: none is left running.
        """
        sessions = [s for p in self.players for s in p.sessions.values()]
        for session in sessions:
            session.send_quit()
        deadline = time.monotonic() + grace_ms / 1000
        for session in sessions:
            session.finish_quit(deadline)
        for player in self.players:
            player.sessions.clear()
            player.close_group()

    def kill(self) -> None:
        """Kill every bot at once (Ctrl-C)."""
        for player in self.players:
            for session in player.sessions.values():
                session.kill()
            player.sessions.clear()
            player.close_group()

    # -- faults -----------------------------------------------------------------------------

    def _fault(
        self,
        deal_no: int,
        seat: _Player,
        kind: str,
        message: str,
        request: str | None = None,
        reply: str | None = None,
    ) -> Fault:
        shown = None if reply is None else cut(printable(reply), FAULT_TEXT_CHARS)
        fault = Fault(deal_no, seat.index, seat.number, seat.name, FaultKind(kind),
                      cut(printable(message), FAULT_TEXT_CHARS), request, shown)  # fmt: skip
        self.faults.append(fault)
        seat.faults += 1
        LOGGER.info("fault: %s", fault.describe())
        stop = kind in RESTART_KINDS or self.policy.on_fault == "forfeit"
        if stop and seat.session is not None:
            seat.session.kill()
            seat.session = None
        if seat.faults > self.policy.max_faults and seat.number not in self.disqualified:
            self.disqualified.append(seat.number)
        if self._on_fault is not None:
            self._on_fault(fault)
        return fault

    def _bot_fault(
        self, deal_no: int, seat: _Player, exc: BotError, request: str | None = None
    ) -> Fault:
        return self._fault(deal_no, seat, exc.kind, str(exc), request, exc.line)

    # -- a deal -----------------------------------------------------------------------------

    def play_deal(
        self,
        sheet: ScoreSheet | TableSheet,
        seating: tuple[int, int, int] = (0, 1, 2),
        number: int | None = None,
        slot: int = 0,
    ) -> DealOutcome:
        """Play the sheet's next deal to its end (or forfeit) and record it on the sheet.

        :param sheet: a three-player sheet, or a table's (:class:`TableSheet`, of four: then
            its seating says who plays, ``seating`` is not read, and player ``i`` sits at
            table seat ``i``).
        :param seating: ``seating[seat]`` is the player who sits in that seat.
        :param number: the deal's number in the match, for faults and request ids (default:
            the sheet's deal number).
        :param slot: which of each player's processes play the deal: each slot has processes
            of its own, started when first needed (a duplicate match gives each seating a slot,
            so that no process meets the same cards twice).
        """
        table: TableContext | None = None
        self._sitter = None
        if isinstance(sheet, TableSheet):
            table = sheet.context()
            _, deal = sheet.next_deal()
            seating = table.seating.players
            sitting_out = table.seating.sitting_out
            if sitting_out is not None:
                self._sitter = self.players[sitting_out]
                self._sitter.slot = slot
        else:
            deal = sheet.next_deal()
        deal_no = number if number is not None else sheet.next_deal_no
        self.seating = seating
        self._by_seat = [self.players[p] for p in seating]
        for seat, player in enumerate(self._by_seat):
            player.index = seat
            player.slot = slot
        self._used_ids.clear()
        self._rng = None
        self._rng_seed = f"{sheet.seed}/{deal_no}"
        if self.tc is not None:
            self._clocks = [self.tc.base_ms] * 3
        scores = tuple(sheet.totals) if table is None else table.deal_totals
        moves: list[Move] = []
        first_fault = len(self.faults)
        self._paced_from = time.monotonic()
        try:
            self._begin(deal, deal_no, scores, table)
            while deal.result is None:
                self._turn(deal, deal_no, moves)
            result = deal.result
        except _Forfeit as forfeit:
            result = forfeit_result(deal, forfeit.seat, self.penalty)
        scored = None
        if isinstance(sheet, TableSheet):
            assert table is not None
            scored = (table, sheet.record(result))
            totals: Sequence[int] = [sheet.totals[p] for p in seating]
        else:
            sheet.record(result)
            totals = sheet.totals
        self._pace(len(moves))
        self._flush(deal_no, result, totals, scored)
        a, b, c = (self._stray_of(player) for player in self._by_seat)
        faults = self.faults[first_fault:]
        return DealOutcome(deal_no, deal, result, moves, faults, (a, b, c), scored)

    @staticmethod
    def _stray_of(player: _Player) -> int:
        """The stray lines of the player's deal just played (and zero them)."""
        session = player.session
        stray = player.stray + (session.take_stray() if session is not None else 0)
        player.stray = 0
        return stray

    def _begin(
        self, deal: DealState, deal_no: int, scores: tuple[int, ...], table: TableContext | None
    ) -> None:
        writer = self._writer = DealWriter(deal, deal_no, scores, table)
        self._context = DealContext(deal, deal_no, scores, self.rules, table)
        for seat in self._by_seat:
            try:
                if seat.session is None:
                    self._start(seat)
                else:
                    seat.session.check_limits()
                    if seat.session.idle_seconds() > self.PING_AFTER_IDLE_S:
                        seat.session.ping()
            except BotError as exc:
                self._bot_fault(deal_no, seat, exc)
                raise _Forfeit(seat.index) from None
        self._events = []
        for seat in self._by_seat:
            seat.pending = [] if seat.in_process else [writer.newdeal(seat.index)]
            seat.seen = 0

    def _pace(self, decisions: int) -> None:
        """Under a fixed pace, wait until ``decisions`` whole move times have passed since the
        deal began: what comes next then comes when it would have if every decision before
        had used all its time, whatever the bots took (a bot's decision that overran into its
        margin delays what follows, and the next quick ones catch up)."""
        if not self.fixed_pace:
            return
        wait = self._paced_from + decisions * self.time_ms / 1000 - time.monotonic()
        if wait > 0:
            time.sleep(wait)

    def _turn(self, deal: DealState, deal_no: int, moves: list[Move]) -> None:
        self._pace(len(moves))
        index: int = deal.turn  # type: ignore[assignment]
        seat = self._by_seat[index]
        request_id = self._new_id()
        assert self._writer is not None
        line = answer = None  # the request and the reply as text, where there is text
        session = seat.session
        tc = self.tc
        clock: tuple[int, int] | None = None
        if tc is None:
            time_ms = limit = self.time_ms
        else:  # a fair share of the clock is offered; the clock itself is the limit
            limit = self._clocks[index]
            time_ms = tc.share(limit, decisions_left(deal, index))
            clock = (limit, tc.inc_ms)
        try:
            if session is None:  # restarted after a fault earlier in this deal: the new
                session = self._start(seat)  # process hears the deal from its start
                if not seat.in_process:
                    seat.pending, seat.seen = [self._writer.newdeal(index)], 0
            if seat.in_process:  # a Python object: asked with the deal, answers with a value
                assert isinstance(session, InProcessSession) and self._context is not None
                action, elapsed = session.decide(
                    self._context, index, request_id, time_ms, self.margin_ms, clock
                )
                phase = deal.phase  # another kind of action is garbage, as its text would be
                kind = Card if phase is Phase.PLAYING else Bid if phase is Phase.BIDDING else Bury
                if action.__class__ is not kind:
                    raise NotationError(f"decide returned {action!r}, not a {kind.__name__}")
            else:
                line = self._writer.go(request_id, time_ms, clock)
                # The events this bot has not seen yet go in the same write as the request.
                events = self._unsent(seat)
                reply = session.request(line, request_id, limit, self.margin_ms, events)
                answer = reply.line
                elapsed = reply.elapsed_ms
                action = parse_answer(reply.words, deal.phase)
            deal.apply(action)
        except BotError as exc:
            line = line or self._go_text(request_id, time_ms, clock)
            if clock is not None and exc.kind is FaultKind.TIMEOUT:
                exc = BotTimeoutError(f"its clock ran out: {exc}", line=exc.line)
                self._clocks[index] = 0  # spent: a substitute's move then gains the increment
            self._bot_fault(deal_no, seat, exc, request=line)
        except NotationError as exc:
            line = line or self._go_text(request_id, time_ms, clock)
            self._fault(deal_no, seat, "garbage", str(exc), line, answer)
        except IllegalActionError as exc:
            line = line or self._go_text(request_id, time_ms, clock)
            answer = answer or f"action {request_id} {answer_text(action)}"
            self._fault(deal_no, seat, "illegal", str(exc), line, answer)
        else:
            left = None
            if tc is not None:
                left = self._clocks[index] = clock_after(limit, elapsed, tc.inc_ms)
            moves.append(Move(index, answer_text(action), request_id, elapsed, left))
            if self._texts:
                self._announce(deal, index, action)
            return
        self._substitute(deal, deal_no, seat, moves)
        if self._texts:
            seat_done, action_done = deal.history[-1]
            self._announce(deal, seat_done, action_done)

    def _go_text(self, request_id: int, time_ms: int, clock: tuple[int, int] | None) -> str:
        """The ``go`` line of the open request, as a process is sent it (for an in-process
        player, made only for the record of a fault)."""
        assert self._writer is not None
        return self._writer.go(request_id, time_ms, clock)

    def _new_id(self) -> int:
        """A request id no other player can guess (so none can answer for the bot whose turn
        it is), positive and below 2**31 so that every bot can parse it, new in the deal.

        The ids come from the operating system's random source, 64 at a time (one system call
        for two deals' decisions)."""
        while True:
            if not self._random_ids:
                self._random_ids = [n & 0x7FFFFFFF for n in memoryview(os.urandom(256)).cast("I")]
            request_id = self._random_ids.pop()
            if request_id and request_id not in self._used_ids:
                self._used_ids.add(request_id)
                return request_id

    def _substitute(self, deal: DealState, deal_no: int, seat: _Player, moves: list[Move]) -> None:
        """After a fault: forfeit, or play a random legal action for the bot."""
        if self.policy.on_fault == "forfeit" or seat.number in self.disqualified:
            raise _Forfeit(seat.index)
        if self._rng is None:
            self._rng = random.Random(self._rng_seed)
        legal = deal.legal_actions()
        action = legal[self._rng.randrange(len(legal))]
        deal.apply(action)
        left = None
        if self.tc is not None:  # the arena's move costs the bot nothing but what it spent
            left = self._clocks[seat.index] = self._clocks[seat.index] + self.tc.inc_ms
        moves.append(Move(seat.index, answer_text(action), None, 0.0, left))

    def _announce(self, deal: DealState, seat: int, action: Action) -> None:
        """Add the events of an action to the deal's events (each bot gets them with its next
        message)."""
        self._events += events_after(deal, seat, action)

    def _tell_sitter(self, deal_no: int, sitter: _Player, line: str) -> None:
        """Send the one who sat the deal out its ``sitout``, if it is running (a fault in an
        earlier deal may have stopped it: it is started for the next deal it plays). A bot
        that cannot be told (it died, or does not read) is left as it is: the next deal it
        plays finds it so and faults it there, as it faults a bot that dies between deals —
        whether the write failed or not, which depends on when it died."""
        session = sitter.session
        if session is None:
            return
        try:
            session.send_lines([line])
        except BotError as exc:
            LOGGER.info("deal %d: %s sat out, not told: %s", deal_no, sitter.name, exc)

    def _tell_sitter_object(
        self, deal_no: int, sitter: _Player, result: DealResult, score: TableScore
    ) -> None:
        """Tell an in-process bot that sat the deal out how it ended (its ``on_sitout``), as
        :meth:`_tell_sitter` tells a program: one that raises is stopped, and no fault."""
        session = sitter.session
        if session is None or self._context is None:
            return
        assert isinstance(session, InProcessSession)
        try:
            session.sat_out(self._context, result, score)
        except BotError as exc:
            LOGGER.info("deal %d: %s sat out, not told: %s", deal_no, sitter.name, exc)
            session.kill()
            sitter.session = None

    def _unsent(self, seat: _Player) -> list[str]:
        """The lines ``seat`` has not been sent yet (its own, then the deal's events), now
        counted as sent."""
        events = self._events
        if seat.seen == len(events):
            lines, seat.pending = seat.pending, []
            return lines
        lines = [*seat.pending, *events[seat.seen :]] if seat.pending else events[seat.seen :]
        seat.pending = []
        seat.seen = len(events)
        return lines

    def _flush(
        self,
        deal_no: int,
        result: DealResult,
        totals: Sequence[int],
        table: tuple[TableContext, TableScore] | None = None,
    ) -> None:
        """Send every bot its unsent events and the deal's ``result``; tell the in-process
        ones the rest of the deal and the result as values. At a table of four, the one who
        sat out is told how it ended (``sitout``; an in-process one, as a value)."""
        last = result_event(result, deal_no, totals, table) if self._texts else ""
        score = None if table is None else table[1]
        sitter = self._sitter
        if table is not None and sitter is not None:
            if sitter.in_process:
                self._tell_sitter_object(deal_no, sitter, result, table[1])
            else:
                self._tell_sitter(deal_no, sitter, sitout_event(result, deal_no, *table))
        for seat in self._by_seat:
            if seat.in_process:
                if seat.session is not None:
                    assert isinstance(seat.session, InProcessSession) and self._context
                    try:
                        seat.session.deal_over(self._context, seat.index, result, totals, score)
                    except BotError as exc:
                        self._bot_fault(deal_no, seat, exc)
                continue
            lines = self._unsent(seat)
            lines.append(last)
            if seat.session is None:
                continue
            try:
                seat.session.send_lines(lines)
            except BotError as exc:
                self._bot_fault(deal_no, seat, exc)
