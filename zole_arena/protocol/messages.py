"""Protocol version 1: formatting the arena's messages and parsing the bots' lines.

Pure text in and out, no I/O (``protocol/README.md`` is the specification). The arena is strict
in what it writes (canonical cards, fixed field order) and lenient in what it reads: unknown
messages and fields are ignored, ``\\r`` is dropped, cards may be written ``10D`` or lowercase.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from typing import Final, TypeAlias

from zole_arena.errors import NotationError, ZoleError
from zole_arena.game.actions import Action, Bid, Bury, Contract
from zole_arena.game.cards import CARDS, Card, names_of
from zole_arena.game.cards import POINTS as _POINTS
from zole_arena.game.state import DealResult, DealState, Phase, SeatView

__all__ = [
    "PROTOCOL_VERSION",
    "ActionReply",
    "BotLine",
    "IdLine",
    "InfoLine",
    "OptionDecl",
    "ProtocolError",
    "ReadyOk",
    "UnknownLine",
    "ZoleOk",
    "GoWriter",
    "CARD_EVENTS",
    "format_events",
    "trick_event",
    "format_go",
    "format_newdeal",
    "format_result",
    "parse_answer",
    "parse_bot_line",
]

#: The protocol version this arena speaks.
PROTOCOL_VERSION: Final = 1
#: The longest line a bot may send, in bytes.
MAX_LINE_BYTES: Final = 64 * 1024

_PHASE_WORDS: Final = {Phase.BIDDING: "bid", Phase.BURYING: "bury", Phase.PLAYING: "play"}
_PLAYING: Final = Phase.PLAYING
_BIDDING: Final = Phase.BIDDING
_CARD_NAMES: Final = tuple(card.name for card in CARDS)
#: Cards by their canonical names: how bots almost always write them (other spellings go
#: through :meth:`Card.parse`).
_CARD_BY_NAME: Final = {card.name: card for card in CARDS}


class ProtocolError(ZoleError):
    """A bot said something the protocol does not allow where it said it."""


@dataclasses.dataclass(frozen=True)
class IdLine:
    """``id name|author|version <text>``."""

    key: str
    value: str


@dataclasses.dataclass(frozen=True)
class OptionDecl:
    """``option name <name> type <type> default <value> [min <n> max <n>] [var <v>]…``."""

    name: str
    type: str
    default: str
    min: int | None = None
    max: int | None = None
    choices: tuple[str, ...] = ()

    def check_value(self, value: str) -> str:
        """The value normalised for ``setoption``.

        :raises ValueError: the value does not fit the option's type.
        """
        if self.type == "check":
            if value.lower() not in ("true", "false"):
                raise ValueError(f"option {self.name} takes true or false, not {value!r}")
            return value.lower()
        if self.type == "spin":
            try:
                number = int(value)
            except ValueError:
                raise ValueError(
                    f"option {self.name} takes a whole number, not {value!r}"
                ) from None
            if (self.min is not None and number < self.min) or (
                self.max is not None and number > self.max
            ):
                raise ValueError(f"option {self.name} takes {self.min} to {self.max}, not {number}")
            return str(number)
        if self.type == "combo" and value not in self.choices:
            raise ValueError(
                f"option {self.name} takes one of {', '.join(self.choices)}, not {value!r}"
            )
        return value


@dataclasses.dataclass(frozen=True)
class ZoleOk:
    """``zoleok [<version>]``: the end of the handshake."""

    version: int


@dataclasses.dataclass(frozen=True)
class ReadyOk:
    """``readyok``."""


@dataclasses.dataclass(frozen=True)
class ActionReply:
    """``action <id> <answer…>``; the answer is parsed later, against the open request."""

    request_id: int | None
    """None when the id is not a number (the reply can then answer no request)."""
    words: tuple[str, ...]


@dataclasses.dataclass(frozen=True)
class InfoLine:
    """``info <text>``: diagnostics, recorded, never an answer."""

    text: str


@dataclasses.dataclass(frozen=True)
class UnknownLine:
    """A line whose first token is no bot message: ignored (and recorded)."""

    text: str


BotLine: TypeAlias = IdLine | OptionDecl | ZoleOk | ReadyOk | ActionReply | InfoLine | UnknownLine


def _parse_option(words: list[str], line: str) -> OptionDecl | UnknownLine:
    fields: dict[str, str] = {}
    choices: list[str] = []
    key: str | None = None
    for word in words[1:]:
        if word in ("name", "type", "default", "min", "max", "var"):
            key = word
            if word == "var":
                choices.append("")
            continue
        if key is None:
            continue
        if key == "var":
            choices[-1] = f"{choices[-1]} {word}".strip()
        else:
            fields[key] = f"{fields[key]} {word}" if key in fields else word
    if "name" not in fields or "type" not in fields:
        return UnknownLine(line)
    try:
        low = int(fields["min"]) if "min" in fields else None
        high = int(fields["max"]) if "max" in fields else None
    except ValueError:
        return UnknownLine(line)
    return OptionDecl(
        name=fields["name"],
        type=fields["type"],
        default=fields.get("default", ""),
        min=low,
        max=high,
        choices=tuple(choices),
    )


def parse_bot_line(line: str) -> BotLine | None:
    """Parse one line from a bot (without its line end). Blank lines give None."""
    words = line.split()
    if not words:
        return None
    head = words[0]
    if head == "action":
        request_id: int | None
        try:
            request_id = int(words[1]) if len(words) > 1 else None
        except ValueError:
            request_id = None
        return ActionReply(request_id, tuple(words[2:]))
    if head == "readyok":
        return ReadyOk()
    if head == "info":
        return InfoLine(line.strip()[4:].strip())
    if head == "id" and len(words) >= 2:
        return IdLine(words[1], " ".join(words[2:]))
    if head == "option":
        return _parse_option(words, line)
    if head == "zoleok":
        try:
            version = int(words[1]) if len(words) > 1 else PROTOCOL_VERSION
        except ValueError:
            version = PROTOCOL_VERSION
        return ZoleOk(version)
    return UnknownLine(line)


def parse_answer(words: Sequence[str], phase: Phase) -> Action:
    """Read the answer of an ``action`` line for a request in ``phase``.

    :raises NotationError: the words are not a bid, two cards or a card as the phase needs
        (a *garbage* answer; whether it is legal is the rules engine's business).
    """
    if phase is _PLAYING:
        if len(words) != 1:
            raise NotationError(f"expected one card, got {' '.join(words)!r}")
        card = _CARD_BY_NAME.get(words[0])
        return card if card is not None else Card.parse(words[0])
    if phase is _BIDDING:
        if len(words) != 1:
            raise NotationError(f"expected a bid, got {' '.join(words)!r}")
        return Bid.parse(words[0])
    if phase is Phase.BURYING:
        if len(words) != 2:
            raise NotationError(f"expected two cards to bury, got {' '.join(words)!r}")
        return Bury.of(Card.parse(words[0]), Card.parse(words[1]))
    raise NotationError(f"no answer is expected in phase {phase}")


def _list(items: Iterable[object] | None) -> str:
    if items is None:
        return "-"
    text = ",".join(str(item) for item in items)
    return text or "-"


def _opt(value: object | None) -> str:
    return "-" if value is None else str(value)


def _common_fields(
    view: SeatView, deal_no: int, rules_preset: str, scores: Sequence[int]
) -> list[str]:
    return [
        "deal", str(deal_no),
        "seat", str(view.seat),
        "dealer", str(view.dealer),
        "forehand", str(view.forehand),
        "rules", rules_preset,
        "hand", _list(view.hand),
        "scores", _list(scores),
        "commonpules", str(view.pules.common),
        "personalpules", _list(view.pules.personal),
    ]  # fmt: skip


def format_newdeal(view: SeatView, deal_no: int, rules_preset: str, scores: Sequence[int]) -> str:
    """The ``newdeal`` event for one seat at the start of a deal."""
    return " ".join(["newdeal", *_common_fields(view, deal_no, rules_preset, scores)])


def format_go(
    request_id: int,
    time_ms: int,
    view: SeatView,
    deal_no: int,
    rules_preset: str,
    scores: Sequence[int],
) -> str:
    """A ``go`` decision request: this seat's whole view and its legal answers."""
    phase = _PHASE_WORDS[view.phase]
    # While burying, the legal answers are any two cards of the hand: the hand is listed.
    legal = _list(view.hand if view.phase is Phase.BURYING else view.legal_actions)
    played: list[Card] = [card for trick in view.tricks for card in trick.cards]
    played.extend(view.trick)
    fields = [
        "go",
        "id", str(request_id),
        "time", str(time_ms),
        "phase", phase,
        *_common_fields(view, deal_no, rules_preset, scores),
        "bids", _list(bid for _, bid in view.bids),
        "contract", _opt(view.contract),
        "soloist", _opt(view.soloist),
        "talon", _list(view.talon),
        "buried", _list(view.buried),
        "played", _list(played),
        "winners", _list(trick.winner for trick in view.tricks),
        "legal", legal,
    ]  # fmt: skip
    return " ".join(fields)


class GoWriter:
    """Writes the ``newdeal`` event and the ``go`` requests of one deal straight from the world
    state, fast.

    It gives exactly the lines that :func:`format_newdeal` and :func:`format_go` give from the
    seat's :class:`~zole_arena.game.state.SeatView` (the tests check this over random deals),
    without building the view: the parts that do not change during the deal are formatted
    once, and the played cards and trick winners grow trick by trick. It reads only what the
    seat to move may know.
    """

    def __init__(
        self, state: DealState, deal_no: int, rules_preset: str, scores: Sequence[int]
    ) -> None:
        self.state = state
        pules = state.pules
        self._head = [
            f"deal {deal_no} seat {seat} dealer {state.dealer} forehand {state.forehand} "
            f"rules {rules_preset} hand "
            for seat in range(3)
        ]
        self._standing = (
            f" scores {_list(scores)} commonpules {pules.common} "
            f"personalpules {_list(pules.personal)}"
        )
        self._bids_legal = _list(state.rules.bids)
        self._tricks_written = 0
        self._played = ""
        """The finished tricks' cards, as the ``played`` field lists them."""
        self._winners = "-"
        self._contract_parts: dict[tuple[int, int, int], str] = {}
        # During play the fields from "scores" to "buried" stay the same for each seat.
        self._play_middle: list[str | None] = [None, None, None]

    def newdeal(self, seat: int) -> str:
        """The ``newdeal`` event for ``seat`` (before the deal's first action)."""
        hand = names_of(self.state.initial_hands[seat])
        return f"newdeal {self._head[seat]}{hand}{self._standing}"

    def go(self, request_id: int, time_ms: int) -> str:
        """The ``go`` line for the seat to move now."""
        state = self.state
        seat: int = state.turn  # type: ignore[assignment]
        phase = state.phase
        if phase is _PLAYING:  # 24 of a deal's 27 or so requests: kept short
            middle = self._play_middle[seat]
            if middle is None:
                middle = self._play_middle[seat] = (
                    f"{self._standing} bids {self._contract_fields(seat, phase)}"
                )
            log = state.trick_log()
            if len(log) > self._tricks_written:
                self._add_tricks(log)
            trick = state.current_trick_cards()
            if trick:
                current = ",".join([_CARD_NAMES[card] for card in trick])
                played = f"{self._played},{current}" if self._played else current
            else:
                played = self._played or "-"
            return (
                f"go id {request_id} time {time_ms} phase play {self._head[seat]}"
                f"{names_of(state.hand_mask(seat))}{middle}played {played} "
                f"winners {self._winners} legal {names_of(state.legal_cards_mask())}"
            )
        hand = names_of(state.hand_mask(seat))
        if phase is _BIDDING:
            word, legal = "bid", self._bids_legal
        else:  # burying: any two cards of the hand
            word, legal = "bury", hand
        # Bids, contract, talon and buried cards change only with a bid or the bury (the
        # buried mask is 0 until then), so their text is kept per seat and stage.
        key = (seat, len(state.bids), state.buried)
        contract_part = self._contract_parts.get(key)
        if contract_part is None:
            contract_part = self._contract_parts[key] = self._contract_fields(seat, phase)
        return (
            f"go id {request_id} time {time_ms} phase {word} "
            f"{self._head[seat]}{hand}{self._standing} bids {contract_part}"
            f"played - winners - legal {legal}"
        )

    def _add_tricks(self, log: Sequence[tuple[int, int, int, int, int]]) -> None:
        """Add the tricks finished since the last request to ``played`` and ``winners``."""
        played = [self._played] if self._played else []
        winners = [self._winners] if self._tricks_written else []
        for _, a, b, c, winner in log[self._tricks_written :]:
            played.append(f"{_CARD_NAMES[a]},{_CARD_NAMES[b]},{_CARD_NAMES[c]}")
            winners.append(str(winner))
        self._played = ",".join(played)
        self._winners = ",".join(winners)
        self._tricks_written = len(log)

    def _contract_fields(self, seat: int, phase: Phase) -> str:
        state = self.state
        took = seat == state.soloist and state.contract is Contract.TAKE
        talon = names_of(state.talon) if took else "-"
        buried = names_of(state.buried) if took and phase is not Phase.BURYING else "-"
        return (
            f"{_list(bid for _, bid in state.bids)} contract {_opt(state.contract)} "
            f"soloist {_opt(state.soloist)} talon {talon} buried {buried} "
        )


#: ``CARD_EVENTS[seat][card]``: the ``card`` event of ``seat`` playing ``card``.
CARD_EVENTS: Final = tuple(
    tuple(f"card {seat} {name}" for name in _CARD_NAMES) for seat in range(3)
)


def trick_event(trick: tuple[int, int, int, int, int]) -> str:
    """The ``trick`` event of a finished trick given as (leader, card, card, card, winner)."""
    _, a, b, c, winner = trick
    return f"trick {winner} {_POINTS[a] + _POINTS[b] + _POINTS[c]}"


def format_events(
    seat: int, action: Action, trick: tuple[int, int, int, int, int] | None = None
) -> list[str]:
    """The events every bot is told of an action: ``bid``, or ``card`` (and ``trick`` when
    ``trick``, the finished trick as (leader, card, card, card, winner), is given). Burying is
    not an event: nothing of it is public.
    """
    if isinstance(action, Card):  # the most frequent, first
        if trick is None:
            return [CARD_EVENTS[seat][action]]
        return [CARD_EVENTS[seat][action], trick_event(trick)]
    if isinstance(action, Bid):
        return [f"bid {seat} {action}"]
    return []


def format_result(
    result: DealResult,
    deal_no: int,
    totals: Sequence[int],
    forfeit: int | None = None,
) -> str:
    """The ``result`` event at the end of a deal."""
    fields = [
        "result",
        "deal", str(deal_no),
        "contract", _opt(result.contract),
        "soloist", _opt(result.soloist),
        "scores", _list(result.scores),
        "totals", _list(totals),
        "tricks", _list(result.tricks),
        "points", _list(result.points),
        "soloistpoints", _opt(result.soloist_points),
        "band", _opt(result.band),
        "forfeit", _opt(forfeit),
    ]  # fmt: skip
    return " ".join(fields)
