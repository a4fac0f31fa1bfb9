"""A Zole bot as a Python class: :meth:`Bot.decide` takes a typed view and returns an action.

Subclass :class:`Bot`, write :meth:`~Bot.decide`, and the same object plays two ways:

* **as a protocol program** — ``MyBot().run()`` (or :func:`~zole_arena.players.bot_io.run_bot`)
  reads the arena's lines on standard input and answers on standard output, as
  ``protocol/README.md`` says, so ``zole-arena check "python3 mybot.py"``, ``match`` and
  ``tournament`` (sandboxed) take it like any other bot;
* **in the arena's own process** — a match seats the object itself
  (:meth:`BotConfig.in_process <zole_arena.players.session.BotConfig.in_process>`): no
  process, no pipe, no text; ``decide`` gets the same :class:`BotView`, built straight from the
  deal. That is fast self-play for training a bot; it is no sandbox (the object lives in the
  arena's memory), so it is for one's own bots, never for others'.

Every value is typed: cards are :class:`~zole_arena.game.cards.Card`, bids
:class:`~zole_arena.game.actions.Bid`, the answer an :data:`~zole_arena.game.actions.Action`
(a ``Bid``, a :class:`~zole_arena.game.actions.Bury` or a ``Card``). A bot may keep no state at
all: the view holds everything its seat may know. The hooks (``on_newdeal``, ``on_event``,
``on_result``, ``on_sitout``, ``on_option``, ``on_quit``) are there for bots that want them.

At a table of four (protocol/README.md §3) the dealer sits each deal out: the three who play
get an ordinary three-player deal, and the table around it as :class:`TableInfo` (on
:class:`DealStart` and :class:`BotView`) and :class:`TableEnd` (on :class:`DealEnd`); the one
who sits out is told :meth:`Bot.on_sitout`. A bot that plays only at three says so with
``tables = (3,)``.

>>> class FirstBot(Bot):
...     name = "First"
...     def decide(self, view: BotView) -> Action:
...         return view.legal_actions[0]
>>> FirstBot().name
'First'
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Sequence
from typing import Any, Final, NamedTuple, TypeAlias

from zole_arena.game.actions import Action, Bid, Contract
from zole_arena.game.cards import Card
from zole_arena.game.rules import Rules
from zole_arena.game.scoring import Band, Pules
from zole_arena.game.state import SeatView
from zole_arena.game.table import TABLE_SIZES
from zole_arena.protocol import OptionDecl

__all__ = [
    "BidEvent",
    "Bot",
    "BotView",
    "CardEvent",
    "DealEnd",
    "DealStart",
    "Event",
    "Option",
    "OptionValue",
    "SitOut",
    "TableEnd",
    "TableInfo",
    "TrickEvent",
]

OptionValue: TypeAlias = bool | int | str
"""An option's value: ``check`` options are bools, ``spin`` ints, ``combo`` and ``string``
options strings."""


@dataclasses.dataclass(frozen=True)
class TableInfo:
    """The table of four a deal is played at, before the deal (``newdeal``'s table fields).

    The deal itself is an ordinary three-player deal among the three who play, in deal seats
    0–2 (the forehand, at the dealer's left, is deal seat 0); this is the table around it, in
    table seats 0–3 (table seat *s* + 1 sits at *s*'s left). The dealer deals, sits the deal
    out and pays or collects as an opponent of the soloist (docs/rules.md §8).
    """

    size: int
    """How many sit at the table: 4."""
    seat: int
    """This bot's table seat, the same for the whole match."""
    dealer: int
    """The table seat that dealt the deal and sits it out."""
    scores: tuple[int, ...]
    """Each table seat's total before the deal, table seat 0 first."""
    personal_pules: tuple[int, ...]
    """The owners of the personal pules standing, by table seat (the sitter's too), oldest
    first. (The common pules are the table's: ``DealStart.pules.common``.)"""

    @property
    def players(self) -> tuple[int, int, int]:
        """The table seats of deal seats 0, 1 and 2: the three after the dealer, clockwise."""
        d, n = self.dealer, self.size
        return ((d + 1) % n, (d + 2) % n, (d + 3) % n)

    def table_seat(self, deal_seat: int) -> int:
        """The table seat of a deal seat."""
        return self.players[deal_seat]

    def deal_seat(self, table_seat: int) -> int | None:
        """The deal seat of a table seat; None for the dealer, who sits out."""
        players = self.players
        return players.index(table_seat) if table_seat in players else None


@dataclasses.dataclass(frozen=True)
class TableEnd:
    """What a deal at a table of four did to the table (``result``'s table fields)."""

    size: int
    dealer: int
    """The table seat that dealt the deal and sat it out."""
    scores: tuple[int, ...]
    """This deal's change of each table seat's total (zero-sum: the dealer pays or collects
    as an opponent of the soloist)."""
    totals: tuple[int, ...]
    """Each table seat's total after the deal."""


@dataclasses.dataclass(frozen=True)
class SitOut:
    """A deal this bot sat out at a table of four, as it ended (``sitout``). Seats here are
    table seats: the deal's seats are not this bot's concern."""

    deal_no: int
    size: int
    seat: int
    """This bot's table seat (the dealer's: the dealer sits out)."""
    dealer: int
    players: tuple[int, int, int]
    """The table seats of the deal's seats 0, 1 and 2 (the forehand first)."""
    contract: Contract | None
    """As :attr:`DealEnd.contract`: ``PULE`` when all passed, None for a deal forfeited
    before bidding ended."""
    soloist: int | None
    """The soloist's table seat."""
    band: Band | None
    forfeit: int | None
    """The table seat of the player who faulted and forfeited the deal."""
    scores: tuple[int, ...]
    """This deal's change of each table seat's total (this bot's too)."""
    totals: tuple[int, ...]
    """Each table seat's total after the deal."""
    pules: Pules
    """The table's pules after the deal, owners by table seat."""


@dataclasses.dataclass(frozen=True)
class BotView(SeatView):
    """What the bot is asked to decide on: its seat's whole view of the deal
    (:class:`~zole_arena.game.state.SeatView`: the hand, the bids, the tricks, the legal
    actions…) and the match around it.

    ``rules`` is the base preset's name, as the protocol sends it; ``legal_actions`` while
    burying holds the 45 :class:`~zole_arena.game.actions.Bury` pairs of the hand; ``turn`` is
    always this seat and ``result`` None.
    """

    deal_no: int
    """The deal's number in the match, from 1."""
    scores: tuple[int, int, int]
    """Each seat's total before this deal (seat 0 first)."""
    ruleset: Rules
    """The rules, as far as the bot is told them: in the arena's process the match's own; over
    the protocol the base preset's (protocol v1 names only the preset)."""
    time_ms: int
    """Milliseconds the bot has for this decision (the arena adds a margin for pipes)."""
    deadline: float
    """When the time is up, on the :func:`time.monotonic` clock."""
    clock_ms: int | None = None
    """Under a game clock, what is left on this seat's clock for the deal (the hard limit:
    ``time_ms`` is then a fair share of it); None: no clock."""
    inc_ms: int | None = None
    """Under a game clock, what the clock gains after each decision; None: no clock."""
    table: TableInfo | None = None
    """At a table of four, the table before the deal (as :attr:`DealStart.table`); None at
    three. Everything else is the deal's, in deal seats: ``scores`` and ``pules`` are the
    table's as the three who play see them."""

    def time_left(self) -> float:
        """Seconds left for this decision (0 once the time is up)."""
        return max(0.0, self.deadline - time.monotonic())


def make_view(**fields: Any) -> BotView:
    """A :class:`BotView` of every one of its fields, given by name.

    Its fields are filled at once: a frozen dataclass's ``__init__`` sets them one by one, at
    a few microseconds a decision, which is much of a fast bot's time. (Nothing is checked:
    the caller gives every field.)
    """
    view = _NEW(BotView)
    view.__dict__.update(fields)
    return view


_NEW: Final = object.__new__


@dataclasses.dataclass(frozen=True)
class DealStart:
    """A new deal begins (``newdeal``): where the bot sits and the hand it was dealt."""

    deal_no: int
    seat: int
    dealer: int
    forehand: int
    rules: str
    """The base preset's name."""
    ruleset: Rules
    hand: tuple[Card, ...]
    """The 8 cards dealt, strongest first."""
    scores: tuple[int, int, int]
    """Each seat's total before the deal."""
    pules: Pules
    table: TableInfo | None = None
    """At a table of four, the table before the deal; None at three."""


class BidEvent(NamedTuple):
    """A seat bid."""

    seat: int
    bid: Bid


class CardEvent(NamedTuple):
    """A seat played a card."""

    seat: int
    card: Card


class TrickEvent(NamedTuple):
    """A trick is complete: who won it and its card points."""

    winner: int
    points: int


Event: TypeAlias = BidEvent | CardEvent | TrickEvent
"""What every seat sees happen, in order. Burying is no event: nothing of it is public."""


@dataclasses.dataclass(frozen=True)
class DealEnd:
    """A deal is over (``result``): what it scored. After a forfeit, ``forfeit`` is the seat
    that faulted and the tricks and points are those taken until then."""

    deal_no: int
    contract: Contract | None
    """``PULE`` when all passed and a pule was written; None for a deal forfeited before
    bidding ended."""
    soloist: int | None
    scores: tuple[int, int, int]
    """This deal's change of each seat's total."""
    totals: tuple[int, int, int]
    """Each seat's total after the deal."""
    tricks: tuple[int, int, int]
    points: tuple[int, int, int]
    """Card points in each seat's tricks."""
    soloist_points: int | None
    """The soloist's points as scored (with the buried cards after a take)."""
    band: Band | None
    forfeit: int | None
    table: TableEnd | None = None
    """At a table of four, what the deal did to the table (``scores`` and ``totals`` above are
    then the table's, of the three who played); None at three."""


@dataclasses.dataclass(frozen=True)
class Option:
    """An option the bot declares in the handshake; the arena sets it with ``setoption``
    (``--option BOT:NAME=VALUE``) and :meth:`Bot.on_option` gets the value typed.

    The type follows from the default: a bool is a ``check`` option, an int a ``spin``
    option (``min`` to ``max``), a str with ``choices`` a ``combo``, any other str a
    ``string``.
    """

    name: str
    default: OptionValue
    min: int | None = None
    max: int | None = None
    choices: tuple[str, ...] = ()

    @property
    def declaration(self) -> OptionDecl:
        """The option as the protocol declares it (the arena checks values against this)."""
        if isinstance(self.default, bool):
            return OptionDecl(self.name, "check", "true" if self.default else "false")
        if isinstance(self.default, int):
            return OptionDecl(self.name, "spin", str(self.default), self.min, self.max)
        if self.choices:
            return OptionDecl(self.name, "combo", self.default, choices=self.choices)
        return OptionDecl(self.name, "string", self.default)

    def value(self, text: str) -> OptionValue:
        """A ``setoption`` value, typed.

        :raises ValueError: it does not fit the option (the message says why).
        """
        normal = self.declaration.check_value(text)
        if isinstance(self.default, bool):
            return normal == "true"
        if isinstance(self.default, int):
            return int(normal)
        return normal


class Bot:
    """A Zole bot: subclass it and write :meth:`decide`.

    Set ``name``, ``author`` and ``version`` as class attributes (the name defaults to the
    class's), and ``options`` to the :class:`Option` values the bot declares. Run it as a
    protocol program with :meth:`run`; seat it in a match in the arena's process with
    :meth:`BotConfig.in_process <zole_arena.players.session.BotConfig.in_process>`.

    ``decide`` must return a legal action in time: an exception is a *crash*, an action of the
    wrong kind for the phase is *garbage*, one the rules forbid is *illegal*, a late one a
    *timeout* — faults, recorded and handled like any bot's.

    A bot plays at tables of three and of four unless ``tables`` says otherwise: a bot that
    cannot play at four sets ``tables = (3,)``, and a match at four refuses it before the first
    deal (its handshake says ``id tables 3``).
    """

    name: str = ""
    author: str = ""
    version: str = ""
    options: Sequence[Option] = ()
    tables: tuple[int, ...] = (3, 4)
    """The table sizes the bot plays: 3, 4 or both (the default)."""
    timed: bool = True
    """Whether the clock holds in the arena's process: False for a person at the keyboard,
    or a bot stopped in a debugger, whose answers are never late. (A program is always
    timed.)"""

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        if not cls.__dict__.get("name"):
            cls.name = cls.__name__  # a class that names no bot is named after itself
        sizes = cls.tables
        if not sizes or not set(sizes) <= set(TABLE_SIZES):
            raise ValueError(f"{cls.__name__}.tables must name 3, 4 or both, not {sizes!r}")

    def decide(self, view: BotView) -> Action:
        """The action for this request: one of ``view.legal_actions``."""
        raise NotImplementedError(f"{type(self).__name__} must define decide(view)")

    def on_option(self, name: str, value: OptionValue) -> None:
        """An option was set (before the first deal) to a value that fits its declaration;
        ``name`` is the declared name."""

    def on_newdeal(self, deal: DealStart) -> None:
        """A deal begins. Told before the deal's first event and the bot's first request."""

    def on_event(self, event: Event) -> None:
        """Something public happened (a bid, a card, a finished trick). Events come in order,
        each before the bot's next request or the deal's result."""

    def on_result(self, end: DealEnd) -> None:
        """The deal is over."""

    def on_sitout(self, sitout: SitOut) -> None:
        """At a table of four, a deal this bot dealt and sat out is over: who played it, how it
        ended and what it did to the table. The bot is told nothing else of that deal (no
        ``on_newdeal``, events or requests); it plays the next deal as usual."""

    def on_quit(self) -> None:
        """The match is over."""

    def run(self) -> None:
        """Play as a protocol program on standard input and output until ``quit``."""
        from zole_arena.players.bot_io import run_bot

        run_bot(self)

    def option(self, name: str) -> Option | None:
        """The declared option called ``name`` (the exact name, else ignoring case)."""
        for option in self.options:
            if option.name == name:
                return option
        folded = name.casefold()
        return next((o for o in self.options if o.name.casefold() == folded), None)
