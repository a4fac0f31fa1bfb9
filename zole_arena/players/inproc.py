"""A :class:`~zole_arena.sdk.bot.Bot` seated in the arena's own process: no process, no
pipe, and no text.

The referee asks an :class:`InProcessSession` with values (:meth:`~InProcessSession.decide`,
:meth:`~InProcessSession.deal_over`): the session builds the seat's :class:`BotView` straight
from the deal (:meth:`DealState.view <zole_arena.game.state.DealState.view>`, so the bot sees
exactly what its seat may know), tells the bot's hooks the deal's start, its public events and
its result as typed values, and hands back the bot's action. No ``go`` line is written, and
none is parsed.

Faults are a process bot's: an exception in the bot's code is a *crash* (its traceback goes
to the configuration's ``stderr_path``), an answer later than the time plus the margin on the
clock a *timeout* (measured when ``decide`` returns: an in-process bot cannot be stopped while
it thinks), and the referee finds *garbage* and *illegal* answers. A session the referee stops
after a fault is replaced by a new one around the same object.

At a table of four, given the table in the deal's context (:attr:`DealContext.table`), the
session tells the three who play what a program reads from ``newdeal`` and ``result`` — the
table as :class:`~zole_arena.sdk.values.TableInfo` and :class:`~zole_arena.sdk.values.TableEnd`,
the table's pules and scores — and :meth:`~InProcessSession.sat_out` tells the one who sits
out what a program reads from ``sitout``. Without it a deal is told as at three.

The session also speaks the text protocol (:meth:`~InProcessSession.request`,
:meth:`~InProcessSession.send_lines`), reading the lines as a bot program would
(:mod:`zole_arena.sdk.notation`), for any caller that has only text.
"""

from __future__ import annotations

import time
import traceback
from collections.abc import Iterator, Sequence
from typing import Final, NamedTuple

from zole_arena.errors import BotCrashedError, BotError, BotStartupError, BotTimeoutError
from zole_arena.game.actions import Action
from zole_arena.game.cards import CARDS, POINTS, cards_of
from zole_arena.game.rules import Rules
from zole_arena.game.scoring import Pules
from zole_arena.game.state import DealResult, DealState
from zole_arena.game.table import TableContext, TableScore
from zole_arena.players.session import BotConfig, Reply
from zole_arena.sdk.bot import Bot, set_option, tables_announced, tell
from zole_arena.sdk.notation import format_action, parse_go
from zole_arena.sdk.values import (
    BidEvent,
    CardEvent,
    DealEnd,
    DealStart,
    Event,
    SitOut,
    TableEnd,
    TableInfo,
    TrickEvent,
    make_view,
)

__all__ = ["DealContext", "Decision", "InProcessSession"]


class DealContext(NamedTuple):
    """The deal being played and the match around it, as the referee knows them."""

    state: DealState
    deal_no: int
    scores: tuple[int, ...]
    """Each seat's total before the deal."""
    rules: Rules
    table: TableContext | None = None
    """At a table of four, the table before the deal (``scores`` are then the table's totals
    of the three who play, by deal seat); None at three."""


class Decision(NamedTuple):
    """What an in-process bot decided, and how long it took."""

    action: Action
    elapsed_ms: float


_NO_HOOK: Final = Bot.on_event


class InProcessSession:
    """The referee's side of a :class:`~zole_arena.sdk.bot.Bot` object in its process."""

    def __init__(self, config: BotConfig) -> None:
        """Take the configuration's bot and set its options.

        :raises BotStartupError: the configuration has no bot, an option is not declared or
            its value does not fit, or the bot's ``on_option`` raised.
        """
        if config.bot is None:
            raise BotStartupError("an in-process seat needs a Bot object (BotConfig.bot)")
        self.config = config
        self.bot: Bot = config.bot
        self.requests = 0
        self._state: DealState | None = None
        """The deal the bot was last told of."""
        self._told = (0, 0)
        """How many of that deal's bids and cards the bot has been told."""
        self._table: TableInfo | None = None
        """At a table of four, the table of that deal, as the bot was told it."""
        self._pules: Pules | None = None
        """At a table of four, the pules as the three who play that deal see them (the deal
        itself has none: they are the table's)."""
        self._events = type(self.bot).on_event is not _NO_HOOK
        """Whether the bot listens to events (if not, none are made)."""
        for name, value in config.options.items():
            try:
                why = set_option(self.bot, name, value)
            except Exception as exc:
                raise BotStartupError(self._crash("on_option", exc)) from None
            if why is not None:
                if self.bot.option(name) is None:
                    known = ", ".join(o.name for o in self.bot.options) or "none"
                    why = f"the bot has no option {name!r} (its options: {known})"
                raise BotStartupError(why)

    # -- the referee's typed requests -------------------------------------------------------

    def decide(
        self,
        deal: DealContext,
        seat: int,
        request_id: int,
        time_ms: int,
        margin_ms: int,
        clock: tuple[int, int] | None = None,
    ) -> Decision:
        """Ask the bot in ``seat`` to decide, after telling it what it has not heard yet.

        :param clock: under a game clock, the seat's clock and increment (ms): the clock is
            then the limit, ``time_ms`` a fair share of it.
        :raises BotCrashedError: the bot's code raised an exception.
        :raises BotTimeoutError: it answered after its time (the clock) + ``margin_ms``.
        """
        self.requests += 1
        start = time.monotonic()
        bot = self.bot
        try:
            self._catch_up(deal, seat)
            seat_view = deal.state.view(seat).__dict__
            if self._pules is not None:
                seat_view = {**seat_view, "pules": self._pules}
            view = make_view(
                **seat_view,
                deal_no=deal.deal_no,
                scores=deal.scores,
                ruleset=deal.rules,
                time_ms=time_ms,
                deadline=start + time_ms / 1000,
                clock_ms=None if clock is None else clock[0],
                inc_ms=None if clock is None else clock[1],
                table=self._table,
            )
            view.__dict__["rules"] = deal.rules.preset  # the base preset, as a program is told
            action = bot.decide(view)
        except Exception as exc:
            raise BotCrashedError(self._crash("decide", exc)) from None
        elapsed = (time.monotonic() - start) * 1000
        limit = time_ms if clock is None else clock[0]
        if elapsed > limit + margin_ms and bot.timed:
            raise BotTimeoutError(
                f"no answer to request {request_id} within {limit} ms (+{margin_ms} ms "
                f"margin): decide took {elapsed:.0f} ms"
            )
        return Decision(action, elapsed)

    def deal_over(
        self,
        deal: DealContext,
        seat: int,
        result: DealResult,
        totals: Sequence[int],
        score: TableScore | None = None,
    ) -> None:
        """Tell the bot the rest of the deal and its result.

        :param totals: each seat's total after the deal (at a table of four, the table's
            totals of the three who played, by deal seat).
        :param score: at a table of four, the deal scored for the table (as its sheet
            recorded it).
        :raises BotCrashedError: the bot's code raised an exception.
        """
        try:
            self._catch_up(deal, seat)
            scores = result.scores
            table_end = None
            if score is not None and deal.table is not None:
                seating = deal.table.seating
                a, b, c = (score.scores[player] for player in seating.players)
                scores = (a, b, c)
                table_end = TableEnd(
                    size=seating.size,
                    dealer=seating.dealer,
                    scores=score.scores,
                    totals=deal.table.totals_after(score),
                )
            self.bot.on_result(
                DealEnd(
                    deal_no=deal.deal_no,
                    contract=result.contract,
                    soloist=result.soloist,
                    scores=scores,
                    totals=(totals[0], totals[1], totals[2]),
                    tricks=result.tricks,
                    points=result.points,
                    soloist_points=result.soloist_points,
                    band=result.band,
                    forfeit=result.forfeit,
                    table=table_end,
                )
            )
        except Exception as exc:
            raise BotCrashedError(self._crash("on_result", exc)) from None
        self._state = None

    def sat_out(self, deal: DealContext, result: DealResult, score: TableScore) -> None:
        """At a table of four, tell the bot, which dealt the deal and sat it out, how it ended
        (its ``on_sitout``: what a program reads from ``sitout``); ``score``: the deal scored
        for the table.

        :raises ValueError: the deal is not at a table of four.
        :raises BotCrashedError: the bot's code raised an exception.
        """
        table = deal.table
        if table is None or table.seating.sitting_out is None:
            raise ValueError("only a deal at a table of four is sat out")
        seating = table.seating
        sitout = SitOut(
            deal_no=deal.deal_no,
            size=seating.size,
            seat=seating.dealer,  # the dealer sits out
            dealer=seating.dealer,
            players=seating.players,
            contract=result.contract,
            soloist=None if result.soloist is None else seating.table_seat(result.soloist),
            band=result.band,
            forfeit=None if result.forfeit is None else seating.table_seat(result.forfeit),
            scores=score.scores,
            totals=table.totals_after(score),
            pules=score.pules,
        )
        try:
            self.bot.on_sitout(sitout)
        except Exception as exc:
            raise BotCrashedError(self._crash("on_sitout", exc)) from None

    def _catch_up(self, deal: DealContext, seat: int) -> None:
        """Tell the bot a new deal's start, then every event it has not been told."""
        state = deal.state
        if state is not self._state:
            self._state = state
            self._told = (0, 0)
            scores = deal.scores
            table = deal.table
            self._table = None if table is None else _table_info(table, seat)
            self._pules = None if table is None else table.deal_pules
            self.bot.on_newdeal(
                DealStart(
                    deal_no=deal.deal_no,
                    seat=seat,
                    dealer=state.dealer,
                    forehand=state.forehand,
                    rules=deal.rules.preset,
                    ruleset=deal.rules,
                    hand=cards_of(state.initial_hands[seat]),
                    scores=(scores[0], scores[1], scores[2]),
                    pules=state.pules if self._pules is None else self._pules,
                    table=self._table,
                )
            )
        if self._events:
            on_event = self.bot.on_event
            for event in self._new_events(state):
                on_event(event)

    def _new_events(self, state: DealState) -> Iterator[Event]:
        """The deal's public events since the bot was last told: bids, then each card and,
        after a trick's third card, the trick (burying is not public)."""
        told_bids, told_cards = self._told
        bids = state.bids
        for seat, bid in bids[told_bids:]:
            yield BidEvent(seat, bid)
        log = state.trick_log()
        current = state.current_trick_cards()
        played = 3 * len(log) + len(current)
        self._told = (len(bids), played)
        for index in range(told_cards, played):
            number, place = divmod(index, 3)
            if number < len(log):
                leader, a, b, c, winner = log[number]
                yield CardEvent((leader + place) % 3, CARDS[(a, b, c)[place]])
                if place == 2:
                    yield TrickEvent(winner, POINTS[a] + POINTS[b] + POINTS[c])
            else:
                yield CardEvent((state.trick_leader + place) % 3, CARDS[current[place]])

    def _crash(self, hook: str, exc: Exception) -> str:
        """The fault message of an exception in the bot's code; its traceback goes to the
        configuration's stderr file."""
        path = self.config.stderr_path
        if path is not None:
            try:
                with open(path, "a", encoding="utf-8", errors="replace") as handle:
                    handle.write(traceback.format_exc())
            except OSError:
                pass
        return f"{hook} raised {type(exc).__name__}: {exc}"

    # -- what every player session does -----------------------------------------------------

    @property
    def name(self) -> str:
        """The configured name, else the bot's."""
        return self.config.name or self.bot.name or type(self.bot).__name__

    def identity(self) -> dict[str, str | Sequence[str]]:
        """Name, author, version, the table sizes it plays if not both (as its handshake
        would say them: a match at four refuses ``3``) and what the records name the bot
        by."""
        return {
            "name": self.name,
            "id_name": self.bot.name,
            "author": self.bot.author,
            "version": self.bot.version,
            "tables": tables_announced(self.bot),
            "command": list(self.config.command),
        }

    def ping(self, timeout_ms: int | None = None) -> float:
        """An in-process bot is always ready."""
        return 0.0

    def idle_seconds(self) -> float:
        return 0.0

    def check_limits(self) -> None:
        """An in-process bot has no limits of its own."""

    def take_stray(self) -> int:
        """An in-process bot writes no lines."""
        return 0

    def send_quit(self) -> None:
        """The match is over: the bot's ``on_quit``."""
        try:
            self.bot.on_quit()
        except Exception as exc:
            self._crash("on_quit", exc)

    def finish_quit(self, deadline: float) -> int | None:
        return 0

    def kill(self) -> None:
        """Forget the deal (the bot object stays as it is)."""
        self._state = None
        self._table = self._pules = None

    # -- the text protocol, for callers that have only text ---------------------------------

    def request(
        self,
        line: str,
        request_id: int,
        time_ms: int,
        margin_ms: int,
        events: Sequence[str] = (),
    ) -> Reply:
        """Answer a ``go`` line (after ``events``) as the bot's program would.

        :raises BotCrashedError: the bot's code raised an exception (or the text is bad).
        :raises BotTimeoutError: it answered after ``time_ms + margin_ms``.
        """
        self.requests += 1
        start = time.monotonic()
        try:
            self.send_lines(events)
            _, view = parse_go(line.split(), start)
            action = self.bot.decide(view)
        except BotError:
            raise
        except Exception as exc:
            raise BotCrashedError(self._crash("decide", exc)) from None
        elapsed = (time.monotonic() - start) * 1000
        if elapsed > time_ms + margin_ms and self.bot.timed:
            raise BotTimeoutError(
                f"no answer to request {request_id} within {time_ms} ms (+{margin_ms} ms margin)"
            )
        answer = format_action(request_id, action)
        return Reply(request_id, tuple(answer.split()[2:]), answer, elapsed)

    def send_lines(self, lines: Sequence[str]) -> None:
        """Tell the bot ``newdeal``, event and ``result`` lines as its program would hear them.

        :raises BotCrashedError: the bot's code raised an exception (or a line is bad).
        """
        for line in lines:
            words = line.split()
            if not words:
                continue
            try:
                tell(self.bot, words)
            except Exception as exc:
                raise BotCrashedError(self._crash(f"reading {words[0]!r}", exc)) from None


def _table_info(table: TableContext, seat: int) -> TableInfo:
    """The table before a deal as ``newdeal``'s table fields tell it to deal seat ``seat``."""
    seating = table.seating
    return TableInfo(
        size=seating.size,
        seat=seating.table_seat(seat),
        dealer=seating.dealer,
        scores=table.totals,
        personal_pules=table.pules.personal,
    )
