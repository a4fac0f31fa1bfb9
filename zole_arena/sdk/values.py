"""What a bot is told, typed: the view it decides on and the deal's news around it.

:class:`BotView` is a seat's whole view of a deal at a decision; :class:`DealStart`,
the :data:`Event` kinds, :class:`DealEnd` and, at a table of four, :class:`TableInfo`,
:class:`TableEnd` and :class:`SitOut` are what the hooks of :class:`~zole_arena.sdk.bot.Bot`
get; :class:`Option` is an option a bot declares. The same values come from the protocol's
lines (:mod:`zole_arena.sdk.notation`) and, for a bot in the arena's process, straight from
the deal.
"""

from __future__ import annotations

import dataclasses
import time
from typing import Any, Final, NamedTuple, TypeAlias

from zole_arena.game.actions import Bid, Contract
from zole_arena.game.cards import Card
from zole_arena.game.rules import Rules
from zole_arena.game.scoring import Band, Pules
from zole_arena.game.state import SeatView
from zole_arena.protocol import OptionDecl

__all__ = [
    "BidEvent",
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
    "make_view",
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
