"""The records of a game log as typed values: match and tournament headers and deal records.

A log (``protocol/records.md``) is a header, then one self-contained record per deal. Here each
kind of record is a frozen dataclass whose fields are the record's keys, of the types the
format gives them: seats and counts as ints, cards as :class:`~zole_arena.game.cards.Card`, a
result as the engine's :class:`~zole_arena.game.state.DealResult`, a fault's kind and a band as
enums. :mod:`zole_arena.records.writer` turns them into the bytes of a log and
:mod:`zole_arena.records.reader` reads them back; nothing else knows the JSON.

What a line says about its place in the log — its format version and the hash of the line
before it (``prev``) — belongs to the line, not to the record: the writer adds it, and the
reader gives it on the :class:`~zole_arena.records.reader.LogEntry` that holds the record.

A header whose settings no command could have given (a forged or corrupt one) is read as an
:class:`InvalidHeader` that lists what is wrong; a record of a type this version does not know
as an :class:`OtherRecord`.
"""

from __future__ import annotations

import dataclasses
import datetime
import enum
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Final, Literal, NamedTuple

from zole_arena import __version__
from zole_arena.errors import FaultKind
from zole_arena.game.cards import CARDS, POINTS, Card, cards_of
from zole_arena.game.clock import TimeControl
from zole_arena.game.scoring import Pules
from zole_arena.game.state import DealResult, DealState

__all__ = [
    "ABSENT",
    "FORMAT",
    "FORMAT_VERSION",
    "READABLE_VERSIONS",
    "TOURNAMENT_FORMATS",
    "Absent",
    "DealRecord",
    "EntrantInfo",
    "Fault",
    "Header",
    "HeaderSettings",
    "Identity",
    "InvalidHeader",
    "Move",
    "LoggedTrick",
    "MatchHeader",
    "OnFault",
    "OtherRecord",
    "PlayerInfo",
    "MatchRecord",
    "Record",
    "RulesData",
    "SandboxSettings",
    "SettleRecord",
    "SprtInfo",
    "TableDeal",
    "TableOf",
    "Termination",
    "TournamentFormat",
    "Boards",
    "BOARDS",
    "TournamentHeader",
    "now",
    "tricks_of",
]

#: The ``format`` field of every record.
FORMAT: Final = "zole-arena"
#: The version of the record format new logs are written in: 2, with the hash chain (``prev``).
FORMAT_VERSION: Final = 2
#: The versions readers accept (1: before the hash chain).
READABLE_VERSIONS: Final = (1, 2)
#: The ``tournament_format`` values of a tournament header.
TOURNAMENT_FORMATS: Final = ("round-robin", "gauntlet", "balanced", "lzf")

TournamentFormat = Literal["round-robin", "gauntlet", "balanced", "lzf"]
#: How a tournament's tables share their deals (:mod:`zole_arena.stats.boards`): a movement of
#: board groups, or every table its own; a header without it: every table the same deals.
Boards = Literal["movement", "own"]
#: The ``boards`` values of a tournament header.
BOARDS: Final[tuple[Boards, ...]] = ("movement", "own")
OnFault = Literal["forfeit", "random"]
#: The resolved rules as records keep them: what :meth:`~zole_arena.game.rules.Rules.to_dict`
#: gives (``Rules.from_dict`` reads them). Kept as data, not as :class:`Rules`, so that a
#: record's rules can be compared with its header's key by key, and a record whose rules the
#: engine rejects is still read (``verify`` says what is wrong with them).
RulesData = Mapping[str, Any]


class _Absent(enum.Enum):
    ABSENT = "absent"

    def __repr__(self) -> str:
        return "ABSENT"


#: A key that a log does not have: headers of earlier versions lack keys added since (where a
#: null means something else, "no limit" say, than an absent key, which means "as then").
ABSENT: Final = _Absent.ABSENT
Absent = Literal[_Absent.ABSENT]


def now() -> datetime.datetime:
    """The time a record is made, as records write it: UTC, to the second."""
    return datetime.datetime.now(datetime.UTC).replace(microsecond=0)


class Termination(enum.StrEnum):
    """How a deal ended."""

    NORMAL = "normal"
    FORFEIT = "forfeit"
    """A bot's fault forfeited it (the record's ``culprit``)."""


# -- the parts of a deal record --------------------------------------------------------------


@dataclasses.dataclass(frozen=True, slots=True)
class Fault:
    """One fault of a bot, as the referee records it and game records keep it."""

    deal_no: int
    """The deal's number in the match (its record number)."""
    seat: int
    player: int
    """The bot's index among the match's three players."""
    bot: str
    kind: FaultKind
    message: str
    request: str | None = None
    """The request the bot failed to answer properly, if any."""
    reply: str | None = None
    """The offending line, if any."""

    def describe(self) -> str:
        """One line for people."""
        return f"deal {self.deal_no}: {self.bot} (seat {self.seat}) {self.kind}: {self.message}"


class Move(NamedTuple):
    """One action of a deal, as the referee saw it made and the log keeps it."""

    seat: int
    action: str
    """The protocol's form: ``pass``, ``take``, ``QC 9H`` for a bury, ``TD``."""
    request_id: int | None
    """The ``go`` it answered; None for an action the arena played for a faulted bot."""
    think_ms: float | None
    """From writing the request to reading the answer, in milliseconds (logs keep it to the
    microsecond; None: a log that does not say)."""
    clock_ms: int | None = None
    """Under a game clock, what the seat's clock shows after the move, its increment added
    (:func:`~zole_arena.game.clock.clock_after`); None: no clock."""


class LoggedTrick(NamedTuple):
    """A finished trick as the log keeps it: its points are written out, so that a reader
    need not add them up (``verify`` checks them)."""

    leader: int
    cards: tuple[Card, Card, Card]
    """In the order played."""
    winner: int
    points: int


def tricks_of(state: DealState) -> tuple[LoggedTrick, ...]:
    """A deal's finished tricks as its record keeps them."""
    cards, points, new = CARDS, POINTS, tuple.__new__  # a named tuple's own __new__ is slower
    return tuple([
        new(LoggedTrick, (leader, (cards[a], cards[b], cards[c]), winner,
                          points[a] + points[b] + points[c]))
        for leader, a, b, c, winner in state.trick_log()
    ])  # fmt: skip


@dataclasses.dataclass(frozen=True, slots=True)
class Identity:
    """The bot in a seat, as a deal record names it."""

    name: str
    """Its display name in the match (what ratings go by)."""
    version: str = ""
    """The version its handshake announced."""
    command: tuple[str, ...] = ()


@dataclasses.dataclass(frozen=True, slots=True)
class TableDeal:
    """A deal at a table of four, scored for the table (:mod:`zole_arena.game.table`).

    The deal record's own fields are those of the three-player deal among the three who play
    (its ``result`` is the deal engine's, played with no pules: the pules are the table's);
    this part says who sat out and what each of the four was paid. Table seats are the
    indices of the match header's players."""

    size: int
    """Players at the table (4)."""
    dealer: int
    """The table seat that dealt and sat the deal out."""
    sitter: Identity
    """The bot that sat out."""
    pules_before: Pules
    """The table's pules before the deal, owners by table seat."""
    scores: tuple[int, ...]
    """Each table seat's change in this deal."""
    totals: tuple[int, ...]
    """Each table seat's cumulative score after it."""
    pules: Pules
    """The table's pules after the deal."""
    pule_event: str | None = None
    """What happened to the pules, in words; None when they played no part."""


# -- deal records ------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True, slots=True)
class DealRecord:
    """One finished deal, with everything needed to replay, check and re-feed it."""

    type: ClassVar[str] = "deal"

    match_id: str
    deal: int
    """The deal's number in the match, from 1."""
    block: int
    """The shuffle's deal number (the same for the six seatings of a duplicate block)."""
    seating: tuple[int, int, int]
    """``seating[seat]`` is the index (in the header's players) of the player in that seat."""
    seed: int
    deal_no: int
    dealer: int
    rules: RulesData
    pules_before: Pules
    hands: tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]
    """As dealt, by seat (strongest first, as logs write them)."""
    talon: tuple[Card, ...]
    moves: tuple[Move, ...]
    buried: tuple[Card, ...]
    tricks: tuple[LoggedTrick, ...]
    result: DealResult
    totals: tuple[int, int, int]
    """Each seat's cumulative score after this deal, on this seating's score sheet."""
    termination: Termination
    culprit: Fault | None
    """The fault that forfeited the deal."""
    faults: tuple[Fault, ...]
    players: tuple[Identity, Identity, Identity]
    """The bot in each seat."""
    finished: datetime.datetime | None = dataclasses.field(default_factory=now)
    """When the deal ended (None: the record does not say)."""
    arena_version: str | None = __version__
    stray: tuple[int, int, int] = (0, 0, 0)
    """By seat: lines the bot wrote on its stdout during the deal that are no protocol message
    (ignored by the arena, not a fault: usually debugging output meant for stderr). Logs
    write the key only when one is not zero."""
    table: TableDeal | None = None
    """At a table of four: who sat out and the table's scores (None at three)."""

    @property
    def names(self) -> tuple[str, str, str]:
        """The players' names, by seat."""
        a, b, c = self.players
        return (a.name, b.name, c.name)

    @property
    def seat_scores(self) -> tuple[int, int, int]:
        """What each deal seat was paid: the result's scores, or at a table of four the
        table's (the sitter paying or collecting too changes the soloist's amount)."""
        if self.table is None:
            return self.result.scores
        scores = self.table.scores
        a, b, c = (scores[player] for player in self.seating)
        return (a, b, c)

    @property
    def sitter(self) -> tuple[str, int] | None:
        """At a table of four, the name of the one who sat the deal out and what he was
        paid; None at three."""
        table = self.table
        return None if table is None else (table.sitter.name, table.scores[table.dealer])

    @property
    def player_scores(self) -> dict[int, int]:
        """What each player of the match (an index into its header's players) was paid in
        this deal: the three who played, and at a table of four the one who sat out."""
        if self.table is not None:
            return dict(enumerate(self.table.scores))
        return {player: self.result.scores[seat] for seat, player in enumerate(self.seating)}

    @classmethod
    def of_deal(
        cls,
        *,
        match_id: str,
        number: int,
        block: int,
        seating: tuple[int, int, int],
        rules: RulesData,
        seed: int,
        state: DealState,
        result: DealResult,
        moves: Sequence[Move],
        faults: Sequence[Fault],
        players: tuple[Identity, Identity, Identity],
        totals: Sequence[int],
        stray: tuple[int, int, int] = (0, 0, 0),
        table: TableDeal | None = None,
    ) -> DealRecord:
        """The record of a deal the engine played to its end (or forfeit).

        :param number: the deal's number in the match; ``block``: the shuffle's deal number.
        :param state: the deal, dealt from ``seed`` (so that it has a ``deal_no``).
        :param totals: each seat's cumulative score after this deal, on its seating's sheet.
        :param stray: by seat, the lines that were no protocol message (:attr:`stray`).
        :param table: at a table of four, the table's part (:class:`TableDeal`).
        :raises ValueError: the deal was not dealt from a seed.
        """
        if state.deal_no is None:
            raise ValueError("a deal record needs a deal dealt from a seed")
        forfeit = result.forfeit
        culprit = None
        if forfeit is not None:
            culprit = next((f for f in faults if f.seat == forfeit), None)
        a, b, c = state.initial_hands
        return cls(
            match_id=match_id,
            deal=number,
            block=block,
            seating=seating,
            seed=seed,
            deal_no=state.deal_no,
            dealer=state.dealer,
            rules=rules,
            pules_before=state.pules,
            hands=(cards_of(a), cards_of(b), cards_of(c)),
            talon=cards_of(state.talon),
            moves=tuple(moves),
            buried=cards_of(state.buried),
            tricks=tricks_of(state),
            result=result,
            totals=(totals[0], totals[1], totals[2]),
            termination=Termination.NORMAL if forfeit is None else Termination.FORFEIT,
            culprit=culprit,
            faults=tuple(faults),
            players=players,
            stray=stray,
            table=table,
        )


@dataclasses.dataclass(frozen=True, slots=True)
class SettleRecord:
    """The end of a table's match (or round) with pules standing: what each player paid or
    was paid for them (:func:`~zole_arena.game.table.settle_pules`). It follows the table's
    last deal record; a match whose pules all stood cleared writes none."""

    type: ClassVar[str] = "settle"

    match_id: str
    after: int
    """The number of the last deal before it (the match's last)."""
    pules: Pules
    """The pules standing, owners by player (an index into the header's players)."""
    payment: int
    """What each personal pule cost its owner, to each other player."""
    scores: tuple[int, ...]
    """Each player's change (zero-sum)."""
    totals: tuple[int, ...]
    """Each player's final score."""
    finished: datetime.datetime | None = dataclasses.field(default_factory=now)
    arena_version: str | None = __version__


# -- headers ---------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class SandboxSettings:
    """The sandbox every bot of a match ran in (see :mod:`zole_arena.isolation.sandbox`)."""

    tmp_mb: int
    readable: tuple[str, ...]
    hidden: tuple[str, ...]


@dataclasses.dataclass(frozen=True)
class HeaderSettings:
    """How every deal of a match is played, besides its rules and seed: times, faults, limits.

    The keys added after the first logs (from ``ping_ms`` on) are :data:`ABSENT` in a header
    that lacks them.
    """

    movetime_ms: int
    margin_ms: int
    startup_ms: int
    on_fault: OnFault
    penalty: int | None
    """What a forfeiting bot pays each other player; None: the rules' largest loss."""
    max_faults: int
    memory_mb: int | None
    cpu_seconds: int | None
    ping_ms: int | Absent = ABSENT
    processes: int | Absent | None = ABSENT
    stderr_bytes: int | Absent | None = ABSENT
    sandbox: SandboxSettings | Absent | None = ABSENT
    """None: the bots ran unsandboxed."""
    process_per_seating: bool | Absent = ABSENT
    tc: TimeControl | None = None
    """The game clock (then ``movetime_ms`` is not used); None: a fixed time per decision."""
    fixed_pace: bool = False
    """Whether no request went out before every decision before it could have used its whole
    ``movetime_ms`` (``--fixed-pace``): the bots' waits told nothing of the others' thinking."""


@dataclasses.dataclass(frozen=True)
class PlayerInfo:
    """A player of a match as its header keeps it: enough to start it again."""

    name: str
    """Its display name, unique in the match."""
    command: tuple[str, ...]
    id_name: str = ""
    author: str = ""
    version: str = ""
    """``id_name``, ``author`` and ``version``: what its handshake announced."""
    options: Mapping[str, str] = dataclasses.field(default_factory=dict)
    """Set with ``setoption``."""
    cwd: str | None = None
    """The folder it runs in (None: the log does not say)."""


@dataclasses.dataclass(frozen=True)
class TableOf:
    """Which table of which tournament a match is (a table's match header has it)."""

    id: str
    table: int
    round: int | None = None
    """The round the table plays in (the ``lzf`` format's rounds; None: a tournament of one
    round of tables)."""


@dataclasses.dataclass(frozen=True)
class SprtInfo:
    """The test a match of ``zole-arena sprt`` belongs to."""

    new: str
    old: str
    third: str | None
    elo0: float
    elo1: float
    alpha: float
    beta: float


@dataclasses.dataclass(frozen=True)
class MatchHeader:
    """The first record of a match's log (and of each table's match in a tournament's)."""

    type: ClassVar[str] = "match"

    match_id: str
    rules: RulesData
    seed: int
    deals: int
    """Deals of the seed to play (with ``duplicate``, each is played six times)."""
    duplicate: bool
    players: tuple[PlayerInfo, ...]
    """Three, or four at a table of four (where a player's index is his table seat)."""
    settings: HeaderSettings
    isolation: str | None = None
    """Whether the bots were sandboxed and how the limits held, for people (None: absent)."""
    tournament: TableOf | None = None
    sprt: SprtInfo | None = None
    created: datetime.datetime | None = dataclasses.field(default_factory=now)
    arena_version: str | None = __version__

    @property
    def total_deals(self) -> int:
        """Deals in the whole match."""
        return self.deals * (6 if self.duplicate else 1)

    @property
    def names(self) -> tuple[str, ...]:
        """The players' names, in the order of ``players`` (the indices a seating names)."""
        return tuple(player.name for player in self.players)

    @property
    def table_size(self) -> int:
        """Players at the table: 3, or 4 (the dealer sitting each deal out)."""
        return len(self.players)


@dataclasses.dataclass(frozen=True)
class EntrantInfo:
    """A bot of a tournament as its header keeps it."""

    name: str
    command: tuple[str, ...]
    options: Mapping[str, str] = dataclasses.field(default_factory=dict)
    cwd: str | None = None


@dataclasses.dataclass(frozen=True)
class TournamentHeader:
    """The first record of a tournament's log; its ``match_id`` is the tournament's id."""

    type: ClassVar[str] = "tournament"

    match_id: str
    tournament_format: TournamentFormat
    gauntlet: str | None
    entrants: tuple[EntrantInfo, ...]
    tables: tuple[tuple[int, int, int], ...]
    """Each table's three entrants, as indices into ``entrants``, in playing order (empty in
    the ``lzf`` format, whose tables follow from each round's results)."""
    rules: RulesData
    seed: int
    deals: int
    duplicate: bool
    concurrency: int
    settings: HeaderSettings
    isolation: str | None = None
    created: datetime.datetime | None = dataclasses.field(default_factory=now)
    arena_version: str | None = __version__
    rounds: int | None = None
    """The ``lzf`` format's rounds (None in the others); ``deals`` are then each round's."""
    boards: Boards | None = None
    """How the tables share deals (:mod:`zole_arena.stats.boards`): ``movement`` (tables with
    no bot in common play the same deals, no bot meets a deal twice), ``own`` (no two tables
    share one); None: every table plays the tournament's seed (and each ``lzf`` round's
    tables their round's)."""

    @property
    def tournament_id(self) -> str:
        """The tournament's id (its ``match_id``)."""
        return self.match_id


Header = MatchHeader | TournamentHeader


@dataclasses.dataclass(frozen=True)
class InvalidHeader:
    """A match or tournament header that no command could have written: a key missing or of
    the wrong type, or settings out of range (see :func:`~zole_arena.records.checks.
    check_header`). Readers use none of its settings; ``verify`` lists the problems."""

    type: str
    """``match`` or ``tournament``."""
    match_id: str
    problems: tuple[str, ...]
    """What is wrong, one line each (at least one)."""
    duplicate: bool = False
    """Whether the header says its deals are duplicate blocks (for ``ratings``)."""


@dataclasses.dataclass(frozen=True)
class OtherRecord:
    """A record of a type this version does not know (readers pass it by)."""

    type: str
    match_id: str


Record = MatchHeader | TournamentHeader | DealRecord | SettleRecord | InvalidHeader | OtherRecord
#: What a match writes: its header, then its deals, then (a table of four) the pules settled.
MatchRecord = MatchHeader | DealRecord | SettleRecord
