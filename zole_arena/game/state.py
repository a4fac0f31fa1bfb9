"""The deal state machine: bidding, burying, 8 tricks and scoring (zole-rules.md §2–5).

:class:`DealState` follows OpenSpiel's contract: :attr:`~DealState.turn` says whose move it
is, :meth:`~DealState.legal_actions` lists what that seat may do (in canonical order),
:meth:`~DealState.apply` checks and plays an action, and :attr:`~DealState.result` is set
once the deal is over. It is pure (no I/O, no randomness of its own) and works on 26-bit card
masks, so a full deal costs tens of microseconds.

Seats are 0, 1, 2 clockwise: seat ``s + 1`` (mod 3) sits to the left of seat ``s``. The
forehand sits to the dealer's left, speaks first and leads the first trick, whoever the soloist
is. What one seat may know is given by :meth:`~DealState.view`, never by the state itself.

>>> from zole_arena.game.rules import load_rules
>>> deal = DealState.from_seed(load_rules("wpt"), seed=1, deal_no=1)
>>> deal.turn, deal.phase
(0, <Phase.BIDDING: 'bidding'>)
>>> [str(a) for a in deal.legal_actions()]
['pass', 'take']
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from typing import Final

from zole_arena.errors import IllegalActionError
from zole_arena.game.actions import (
    CONTRACT_OF_BID,
    Action,
    Bid,
    Bury,
    BuryChoices,
    Contract,
)
from zole_arena.game.cards import (
    _HIGH_CARDS,
    _LOW_CARDS,
    CARDS,
    CATEGORY,
    CATEGORY_MASK,
    NUM_CARDS,
    POINTS,
    Card,
    cards_of,
    mask_of,
    points_of,
)
from zole_arena.game.rules import AllPass, Rules
from zole_arena.game.scoring import (
    NO_PULES,
    Pules,
    pules_after_all_pass,
    score_soloist,
    score_table,
    table_losers,
)
from zole_arena.game.shuffle import deal_from_deck, shuffled_deck

# The values a deal shows are part of this module's face: most users need them with it.
from zole_arena.game.values import DealResult, Phase, SeatView, Trick, dealer_of

__all__ = [
    "DealResult",
    "Phase",
    "SeatView",
    "Trick",
    "dealer_of",
    "BuryChoices",
    "DealState",
    "forfeit_result",
    "max_penalty",
]


def _winner_table() -> bytes:
    """Offset (0, 1, 2) of the winning card for every ordered triple of cards: the first of
    the lowest trick keys (a trump by its number, a card of the led suit by its number, any
    other card 100). Built a row of 26 at a time, as the table is made at every import."""
    table = bytearray()
    for a in range(NUM_CARDS):
        led = CATEGORY[a]
        keys = [n if n < 14 or CATEGORY[n] == led else 100 for n in range(NUM_CARDS)]
        ka = keys[a]
        for kb in keys:
            if ka <= kb:
                table += bytes([0 if ka <= kc else 2 for kc in keys])
            else:
                table += bytes([1 if kb <= kc else 2 for kc in keys])
    return bytes(table)


#: _TRICK_WINNER[(a * 26 + b) * 26 + c]: offset from the leader of the winning card.
_TRICK_WINNER: Final = _winner_table()


#: _TRICK_POINTS[(a * 26 + b) * 26 + c]: card points of the trick.
_TRICK_POINTS: Final = tuple(
    POINTS[a] + POINTS[b] + POINTS[c]
    for a in range(NUM_CARDS)
    for b in range(NUM_CARDS)
    for c in range(NUM_CARDS)
)


#: _SEAT_AFTER[seat][k]: the seat k places to the left of ``seat``.
_SEAT_AFTER: Final = ((0, 1, 2), (1, 2, 0), (2, 0, 1))


#: The mask of the category that card n belongs to (what must follow it).
_FOLLOW_MASK: Final = tuple(CATEGORY_MASK[CATEGORY[n]] for n in range(NUM_CARDS))


_NEXT: Final = (1, 2, 0)


_BIT_AND_INT: Final = tuple((1 << n, n) for n in range(NUM_CARDS))


_NO_CARD: Final = (0, 0)


_PLAYING: Final = Phase.PLAYING


_BIDDING: Final = Phase.BIDDING


_BURYING: Final = Phase.BURYING


_DONE: Final = Phase.DONE


_SMALL_ZOLE: Final = Contract.SMALL_ZOLE


_TAKE: Final = Contract.TAKE


_TABLE: Final = Contract.TABLE


_CARD_TYPE: Final = Card


class DealState:
    """One deal from the deal to the score, for the world (all cards known).

    Build it with :meth:`from_seed` (the reproducible shuffle) or directly from the hands.
    """

    __slots__ = (
        "rules",
        "dealer",
        "forehand",
        "pules",
        "seed",
        "deal_no",
        "initial_hands",
        "talon",
        "phase",
        "turn",
        "bids",
        "contract",
        "soloist",
        "buried",
        "result",
        "_hands",
        "_trick",
        "_legal",
        "_leader",
        "_tricks",
        "_won_tricks",
        "_won_points",
        "_bids_allowed",
    )

    def __init__(
        self,
        rules: Rules,
        hands: Sequence[Iterable[int]],
        talon: Iterable[int],
        dealer: int,
        pules: Pules = NO_PULES,
        *,
        seed: int | None = None,
        deal_no: int | None = None,
    ) -> None:
        """Start a deal from the three hands by seat and the talon.

        :raises ValueError: the cards are not the 26 distinct cards, 8 per hand, 2 in the talon,
            or the dealer is not a seat.
        """
        if dealer not in (0, 1, 2):
            raise ValueError(f"dealer must be seat 0, 1 or 2, not {dealer!r}")
        masks = tuple(mask_of(hand) for hand in hands)
        talon_mask = mask_of(talon)
        self._setup(rules, masks, talon_mask, dealer, pules, seed, deal_no)
        counts = [m.bit_count() for m in masks]
        union = masks[0] | masks[1] | masks[2] | talon_mask
        if (
            len(masks) != 3
            or counts != [8, 8, 8]
            or talon_mask.bit_count() != 2
            or union.bit_count() != NUM_CARDS
        ):
            raise ValueError(
                "a deal needs three hands of 8 and a talon of 2, all 26 cards once each"
            )

    def _setup(
        self,
        rules: Rules,
        masks: tuple[int, ...],
        talon: int,
        dealer: int,
        pules: Pules,
        seed: int | None,
        deal_no: int | None,
    ) -> None:
        forehand = _NEXT[dealer]
        self.rules = rules
        self.dealer = dealer
        self.forehand = forehand
        self.pules = pules
        self.seed = seed
        self.deal_no = deal_no
        self.initial_hands = masks
        self.talon = talon
        self.phase = _BIDDING
        self.turn: int | None = forehand
        self.bids: list[tuple[int, Bid]] = []
        self.contract: Contract | None = None
        self.soloist: int | None = None
        self.buried = 0
        self.result: DealResult | None = None
        self._hands = list(masks)
        self._trick: list[int] = []
        self._legal = 0
        self._leader = forehand
        self._tricks: list[tuple[int, int, int, int, int]] = []
        self._won_tricks = [0, 0, 0]
        self._won_points = [0, 0, 0]
        self._bids_allowed = rules.bids

    @classmethod
    def from_seed(
        cls,
        rules: Rules,
        seed: int,
        deal_no: int,
        dealer: int | None = None,
        pules: Pules = NO_PULES,
    ) -> DealState:
        """Deal ``deal_no`` of the match with ``seed`` (see :mod:`zole_arena.game.shuffle`).

        The dealer defaults to :func:`dealer_of` ``(deal_no)``; the forehand gets the first
        packet of cards.
        """
        if dealer is None:
            dealer = dealer_of(deal_no)
        (h0, h1, h2), talon = deal_from_deck(shuffled_deck(seed, deal_no))
        forehand = _NEXT[dealer]
        masks = [0, 0, 0]
        masks[forehand], masks[_NEXT[forehand]], masks[dealer] = h0, h1, h2
        state = cls.__new__(cls)
        state._setup(rules, tuple(masks), talon, dealer, pules, seed, deal_no)
        return state

    # -- reading the state ------------------------------------------------------------------

    @property
    def is_terminal(self) -> bool:
        """Whether the deal is over (``result`` is set)."""
        return self.phase is _DONE

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` holds now, strongest first."""
        return cards_of(self._hands[seat])

    def hand_mask(self, seat: int) -> int:
        """The mask of the cards ``seat`` holds now."""
        return self._hands[seat]

    @property
    def history(self) -> tuple[tuple[int, Action], ...]:
        """Every action applied so far with the seat that made it, in order.

        Derived from the bids, the buried cards and the tricks, which hold every action once.
        """
        moves: list[tuple[int, Action]] = list(self.bids)
        if self.buried:
            moves.append((self.soloist, Bury.of(*cards_of(self.buried))))  # type: ignore[arg-type]
        for leader, a, b, c, _ in self._tricks:
            moves.extend(
                ((leader, CARDS[a]), ((leader + 1) % 3, CARDS[b]), ((leader + 2) % 3, CARDS[c]))
            )
        moves.extend(((self._leader + i) % 3, CARDS[c]) for i, c in enumerate(self._trick))
        return tuple(moves)

    @property
    def action_count(self) -> int:
        """How many actions have been applied (bids, the bury, cards)."""
        return len(self.bids) + (1 if self.buried else 0) + 3 * len(self._tricks) + len(self._trick)

    @property
    def actions(self) -> tuple[Action, ...]:
        """Every action applied so far, in order."""
        return tuple(action for _, action in self.history)

    def trick_log(self) -> tuple[tuple[int, int, int, int, int], ...]:
        """The finished tricks as plain numbers: (leader, card, card, card, winner) each, the
        cards as card numbers in the order played. Cheaper than :attr:`tricks`.
        """
        return tuple(self._tricks)

    def current_trick_cards(self) -> tuple[int, ...]:
        """The card numbers played to the unfinished trick, in order."""
        return tuple(self._trick)

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """The finished tricks, in order."""
        return tuple(
            Trick(leader, (CARDS[a], CARDS[b], CARDS[c]), winner)
            for leader, a, b, c, winner in self._tricks
        )

    @property
    def current_trick(self) -> tuple[Card, ...]:
        """The cards played to the unfinished trick, in order."""
        return tuple(CARDS[c] for c in self._trick)

    @property
    def trick_leader(self) -> int:
        """The seat that leads (or led) the current trick."""
        return self._leader

    @property
    def tricks_won(self) -> tuple[int, int, int]:
        """Tricks taken so far by each seat."""
        won = self._won_tricks
        return (won[0], won[1], won[2])

    @property
    def points_won(self) -> tuple[int, int, int]:
        """Card points in the tricks each seat has taken so far."""
        won = self._won_points
        return (won[0], won[1], won[2])

    def legal_actions(self) -> Sequence[Action]:
        """What the seat to move may do, in canonical order; empty when the deal is over.

        Bids in rank order (pass first); every pair of the soloist's 10 cards to bury (a lazy
        :class:`BuryChoices` sequence, as its 45 pairs are rarely all needed); or the cards
        that follow the led category (every card when void, or when leading). Bids and cards
        come as tuples.
        """
        phase = self.phase
        if phase is _PLAYING:
            legal = self._legal  # cards_of(legal), inlined
            return _LOW_CARDS[legal & 0x1FFF] + _HIGH_CARDS[legal >> 13]
        if phase is _BIDDING:
            return self._bids_allowed
        if phase is _BURYING:
            return BuryChoices(self._hands[self.turn])  # type: ignore[index]
        return ()

    def legal_cards_mask(self) -> int:
        """During play, the mask of the cards the seat to move may play (0 otherwise)."""
        return self._legal if self.phase is _PLAYING else 0

    # -- changing the state -----------------------------------------------------------------

    def apply(self, action: Action) -> None:
        """Play ``action`` for the seat to move.

        Checking legality costs one mask test, so there is no separate unchecked path.

        :raises IllegalActionError: the action is of the wrong kind for the phase or breaks a
            rule; the message names the action, the seat and why.
        """
        if self.phase is not _PLAYING:
            self._apply_other(action)
            return
        # Playing a card is the engine's hottest path: it is written out here in one piece,
        # with plain ints (CPython's specialised subscripts and arithmetic handle them faster
        # than the Card subclass).
        is_card = action.__class__ is _CARD_TYPE
        bit, card = _BIT_AND_INT[action] if is_card else _NO_CARD  # type: ignore[index]
        if not self._legal & bit:
            raise self._illegal_play(action)
        seat: int = self.turn  # type: ignore[assignment]
        hands = self._hands
        hands[seat] ^= bit
        trick = self._trick
        trick.append(card)
        if len(trick) < 3:
            seat = _NEXT[seat]
            self.turn = seat
            hand = hands[seat]
            self._legal = (hand & _FOLLOW_MASK[trick[0]]) or hand
            return
        # The trick is complete: score it, and the winner leads the next one.
        a, b, c = trick
        trick.clear()
        index = (a * 26 + b) * 26 + c
        leader = self._leader
        winner = _SEAT_AFTER[leader][_TRICK_WINNER[index]]
        tricks = self._tricks
        tricks.append((leader, a, b, c, winner))
        self._won_tricks[winner] += 1
        self._won_points[winner] += _TRICK_POINTS[index]
        self._leader = self.turn = winner
        self._legal = hands[winner]
        if len(tricks) == 8:
            self._finish_play(ended_early=False)
        elif winner == self.soloist and self.contract is _SMALL_ZOLE:
            self._finish_play(ended_early=True)

    def _apply_other(self, action: Action) -> None:
        """``apply`` for bidding and burying."""
        phase = self.phase
        if phase is _BIDDING:
            if action not in self._bids_allowed:
                allowed = ", ".join(str(b) for b in self._bids_allowed)
                raise self._illegal(action, f"the bids allowed are {allowed}")
            self._bid(self.turn, action)  # type: ignore[arg-type]
        elif phase is _BURYING:
            if action.__class__ is not Bury:
                raise self._illegal(action, "the soloist must bury two cards")
            mask = action.mask
            if self._hands[self.turn] & mask != mask:  # type: ignore[index]
                raise self._illegal(action, "both buried cards must be in the hand")
            self._bury(self.turn, action)  # type: ignore[arg-type]
        else:
            raise IllegalActionError(f"cannot apply {action}: the deal is over")

    def _illegal_play(self, action: object) -> IllegalActionError:
        if action.__class__ is not _CARD_TYPE:
            return self._illegal(action, "it is time to play a card")
        if not self._hands[self.turn] >> action & 1:  # type: ignore[index]
            return self._illegal(action, "that card is not in the hand")
        led = CARDS[self._trick[0]]
        what = "trump" if led.is_trump else f"the led suit ({led.suit})"
        return self._illegal(action, f"must follow {what}: the hand holds some")

    def _illegal(self, action: object, why: str) -> IllegalActionError:
        where = f"deal {self.deal_no}, " if self.deal_no is not None else ""
        return IllegalActionError(
            f"illegal action {action} by seat {self.turn} ({where}{self.phase}): {why}"
        )

    def _start_play(self) -> None:
        self.phase = _PLAYING
        self.turn = self.forehand
        self._legal = self._hands[self.forehand]

    def _bid(self, seat: int, bid: Bid) -> None:
        self.bids.append((seat, bid))
        if bid is Bid.PASS:
            if len(self.bids) < 3:
                self.turn = _NEXT[seat]
                return
            if self.rules.all_pass is AllPass.PULE:
                self.contract = Contract.PULE
                self._finish_pule()
                return
            self.contract = Contract.TABLE
            self._start_play()
            return
        contract = CONTRACT_OF_BID[bid]
        self.contract = contract
        self.soloist = seat
        if contract is Contract.TAKE:
            self._hands[seat] |= self.talon
            self.phase = _BURYING
        else:
            self._start_play()

    def _bury(self, seat: int, bury: Bury) -> None:
        self._hands[seat] &= ~bury.mask
        self.buried = bury.mask
        self._start_play()

    def _finish_pule(self) -> None:
        pules, event = pules_after_all_pass(self.pules, 3)
        self.result = DealResult(
            contract=Contract.PULE,
            soloist=None,
            scores=(0, 0, 0),
            tricks=(0, 0, 0),
            points=(0, 0, 0),
            pules=pules,
            pule_event=event,
        )
        self.phase = _DONE
        self.turn = None
        self._legal = 0

    def _finish_play(self, ended_early: bool) -> None:
        t = self._won_tricks
        p = self._won_points
        tricks = (t[0], t[1], t[2])
        points = (p[0], p[1], p[2])
        soloist = self.soloist
        if soloist is None:
            losers = table_losers(self.rules, tricks, points)
            self.result = DealResult(
                _TABLE, None, score_table(self.rules, losers), tricks, points,
                None, None, None, losers, self.pules, None, False,
            )  # fmt: skip
        else:
            contract: Contract = self.contract  # type: ignore[assignment]
            soloist_points = points[soloist]
            if contract is _TAKE:
                soloist_points += points_of(self.buried)
            score = score_soloist(
                self.rules, contract, soloist, soloist_points, tricks[soloist], self.pules
            )
            s0, s1, s2 = score.scores
            self.result = DealResult(
                contract, soloist, (s0, s1, s2), tricks, points, score.band, soloist_points,
                tricks[soloist], (), score.pules, score.pule_event, ended_early,
            )  # fmt: skip
        self.phase = _DONE
        self.turn = None
        self._legal = 0

    # -- what a seat may know ---------------------------------------------------------------

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may know now: its own hand and all that is public (:class:`SeatView`)."""
        took = seat == self.soloist and self.contract is Contract.TAKE
        buried_known = took and self.phase is not _BURYING
        return SeatView(
            seat=seat,
            dealer=self.dealer,
            forehand=self.forehand,
            rules=self.rules.name,
            phase=self.phase,
            turn=self.turn,
            hand=cards_of(self._hands[seat]),
            bids=tuple(self.bids),
            contract=self.contract,
            soloist=self.soloist,
            talon=cards_of(self.talon) if took else None,
            buried=cards_of(self.buried) if buried_known else None,
            tricks=self.tricks,
            trick=self.current_trick,
            trick_leader=self._leader if self.phase is _PLAYING else None,
            tricks_won=self.tricks_won,
            pules=self.pules,
            legal_actions=tuple(self.legal_actions()) if self.turn == seat else (),
            result=self.result,
        )

    def copy(self) -> DealState:
        """An independent copy (for search): later actions on one do not touch the other."""
        other = DealState.__new__(DealState)
        for name in DealState.__slots__:
            value = getattr(self, name)
            if isinstance(value, list):
                value = list(value)
            setattr(other, name, value)
        return other

    def __repr__(self) -> str:
        return (
            f"<DealState deal={self.deal_no} phase={self.phase} turn={self.turn} "
            f"contract={self.contract} tricks={len(self._tricks)}>"
        )


def max_penalty(rules: Rules) -> int:
    """The largest amount per opponent that a legal deal can cost a player under ``rules``:
    the default penalty for forfeiting a deal, so that a fault never pays.
    """
    amounts = [rules.table_payment]
    tables = [rules.take]
    if rules.zole is not None and Contract.ZOLE in rules.contracts:
        tables.append(rules.zole)
    for table in tables:
        amounts.extend(-value for value in dataclasses.astuple(table))
    if rules.small_zole is not None and Contract.SMALL_ZOLE in rules.contracts:
        amounts.append(-rules.small_zole.loss)
    return max(amounts)


def forfeit_result(state: DealState, culprit: int, penalty: int) -> DealResult:
    """The result of a deal stopped because ``culprit`` forfeited it (a bot's fault).

    The culprit pays ``penalty`` to each other player (zero-sum); the pules stay as they were;
    tricks and points are those taken so far.
    """
    scores = [penalty, penalty, penalty]
    scores[culprit] = -2 * penalty
    return DealResult(
        contract=state.contract,
        soloist=state.soloist,
        scores=(scores[0], scores[1], scores[2]),
        tricks=state.tricks_won,
        points=state.points_won,
        pules=state.pules,
        forfeit=culprit,
    )
