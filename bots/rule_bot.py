#!/usr/bin/env python3
"""A rule-based Zole bot: a readable example of a bot that plays sensibly, written on the
library's :class:`~zole_arena.sdk.bot.Bot` class.

Every request carries the whole view of the deal, so the bot keeps no state between requests:
from the view's tricks it works out who is void in what and which cards are still out, and
decides from a few rules of thumb.

* **Bidding**: a point count of the hand (trumps, high trumps, plain aces, voids) against a
  threshold that the ``Aggression`` option moves; zole only with a very strong hand, small zole
  only with a hand that cannot take a trick.
* **Burying**: keep the trumps; bury the plain points that would be lost (a lone ten or
  king), preferring to void a suit (the buried points count for the soloist).
* **Play**: the soloist draws trumps, then cashes winners; the defenders give points to a
  partner who wins the trick and beat the soloist as cheaply as they can; in the table game and
  the small zole the bot ducks.

The ``Epsilon`` option (percent) makes the bot play a uniformly random legal action instead, to
build weaker variants. Run it as ``python3 rule_bot.py [--seed N]``, or seat ``RuleBot()`` in
a match in the arena's process.

Cards are the library's :class:`~zole_arena.game.cards.Card` values, numbered strongest first
(the 14 trumps, then clubs, spades, hearts: A T K 9 each), so a lower number is a stronger
card of its category.
"""

from __future__ import annotations

import os
import random
import sys
from dataclasses import dataclass, field
from itertools import combinations
from typing import Final

try:  # the library as installed, else the one this bot came with (a clone, PYTHONPATH)
    import zole_arena  # noqa: F401
except ImportError:
    sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from zole_arena.game.actions import Action, Bid, Bury, Contract
from zole_arena.game.cards import CARDS, CATEGORY, Card, Category
from zole_arena.game.state import Phase
from zole_arena.sdk import Bot, BotView, Option, OptionValue

# -- cards ---------------------------------------------------------------------------------------

TRUMP: Final = Category.TRUMP
PLAIN_SUITS: Final = (Category.CLUBS, Category.SPADES, Category.HEARTS)
#: A card's category, by its number.
CATEGORIES: Final = tuple(Category(CATEGORY[card]) for card in CARDS)
NEVER_WINS: Final = 100
#: The diamond ace and ten: trumps, but too rich in points to lead low.
RICH_TRUMPS: Final = frozenset({Card.parse("AD"), Card.parse("TD")})

#: Bidding weights of the trumps (see :func:`hand_strength`): a trump's power to win tricks;
#: the diamond ace and ten also bring their points.
TRUMP_WEIGHTS: Final = {
    Card.parse(name): weight
    for name, weight in {
        "QC": 2.3, "QS": 2.2, "QH": 2.0, "QD": 1.8, "JC": 1.6, "JS": 1.5, "JH": 1.4,
        "JD": 1.3, "AD": 1.8, "TD": 1.6, "KD": 1.15, "9D": 1.0, "8D": 1.0, "7D": 1.0,
    }.items()
}  # fmt: skip
#: Bidding weights of plain holdings: an ace in a suit of one or two cards, in a longer suit,
#: a lone ten (it will be buried), a void.
ACE_SHORT_WEIGHT: Final = 1.0
ACE_LONG_WEIGHT: Final = 0.7
LONE_TEN_WEIGHT: Final = 0.3
VOID_WEIGHT: Final = 0.2
#: Take when :func:`hand_strength` reaches this (at Aggression 50), per rules preset. The
#: weights and thresholds were fitted on simulated deals: the expected score of taking beats
#: that of passing from about here on (wpt pays +4/-5 a take, lzf +1/-2, with pules).
TAKE_THRESHOLD: Final = {"wpt": 8.75, "lzf": 9.25}
#: Play a zole from this strength on, or with 7+ trumps of which 3+ queens.
ZOLE_THRESHOLD: Final = 11.75
ZOLE_TRUMPS: Final = 7
ZOLE_QUEENS: Final = 3
#: How far Aggression 0 or 100 moves the thresholds (down when aggressive).
AGGRESSION_SPAN: Final = 1.5


def category(card: Card) -> Category:
    """What a card follows as: trump (every queen, jack and diamond) or its plain suit."""
    return CATEGORIES[card]


def is_high_trump(card: Card) -> bool:
    """Queens and jacks: the trumps that win tricks but carry few points."""
    return card < 8


def is_queen(card: Card) -> bool:
    return card < 4


def trick_key(card: Card, led: Category) -> int:
    """Lower beats higher: trumps by strength, then the led suit, other cards never win."""
    if card.is_trump or CATEGORIES[card] == led:
        return int(card)
    return NEVER_WINS


def beats(card: Card, other: Card, led: Category) -> bool:
    """Whether ``card`` beats ``other`` in a trick whose led category is ``led``."""
    return trick_key(card, led) < trick_key(other, led)


def winning_index(cards: list[Card]) -> int:
    """The position (0, 1, 2) of the card that wins so far in a trick's cards."""
    led = category(cards[0])
    keys = [trick_key(card, led) for card in cards]
    return keys.index(min(keys))


def points(cards: list[Card] | tuple[Card, ...] | set[Card]) -> int:
    """Card points of some cards."""
    return sum(card.points for card in cards)


def weakest(cards: list[Card]) -> Card:
    """The weakest card: the highest number."""
    return max(cards)


def strongest(cards: list[Card]) -> Card:
    """The strongest card: the lowest number."""
    return min(cards)


def of_category(cards: list[Card] | tuple[Card, ...], cat: Category) -> list[Card]:
    """The cards of one category, strongest first."""
    return sorted(card for card in cards if CATEGORIES[card] == cat)


# -- what the view tells -------------------------------------------------------------------------


@dataclass
class Trick:
    """A trick, finished or not: who led it and the cards in the order played."""

    leader: int
    cards: list[Card]

    def seat_of(self, index: int) -> int:
        """The seat that played ``cards[index]``."""
        return (self.leader + index) % 3

    @property
    def led(self) -> Category:
        """The led category."""
        return category(self.cards[0])

    def winner(self) -> int:
        """The seat whose card wins so far."""
        return self.seat_of(winning_index(self.cards))


@dataclass
class Position:
    """The seat's view of the deal in play, with what follows from it: the tricks, the
    current trick, who is known to be void in what, the cards still out."""

    seat: int
    rules: str
    hand: list[Card]
    legal: list[Card]
    contract: Contract | None
    soloist: int | None
    buried: list[Card]
    played: list[Card]
    tricks: list[Trick] = field(default_factory=list)
    current: Trick = field(default_factory=lambda: Trick(0, []))
    voids: list[set[Category]] = field(default_factory=lambda: [set(), set(), set()])

    @classmethod
    def of(cls, view: BotView) -> Position:
        """The position of a view; every seat that did not follow the led category of a
        trick is noted as void in it."""
        tricks = [Trick(trick.leader, list(trick.cards)) for trick in view.tricks]
        leader = view.trick_leader if view.trick_leader is not None else view.forehand
        position = cls(
            seat=view.seat,
            rules=view.rules,
            hand=list(view.hand),
            legal=[card for card in view.legal_actions if isinstance(card, Card)],
            contract=view.contract,
            soloist=view.soloist,
            buried=list(view.buried or ()),
            played=[card for trick in view.tricks for card in trick.cards] + list(view.trick),
            tricks=tricks,
            current=Trick(leader, list(view.trick)),
        )
        for trick in [*position.tricks, position.current]:
            for index, card in enumerate(trick.cards[1:], start=1):
                if category(card) != trick.led:
                    position.voids[trick.seat_of(index)].add(trick.led)
        return position

    # -- who is who --

    @property
    def is_soloist(self) -> bool:
        """Whether this seat plays alone against the two others."""
        return self.soloist == self.seat

    @property
    def partner(self) -> int | None:
        """The other defender, or None (for the soloist and in the table game)."""
        if self.soloist is None or self.is_soloist:
            return None
        return 3 - self.seat - self.soloist

    def is_friend(self, seat: int) -> bool:
        """Whether a trick won by ``seat`` is good for this seat."""
        return seat == self.seat or seat == self.partner

    def still_to_play(self) -> list[int]:
        """The seats that play after this seat in the current trick."""
        return [(self.seat + k) % 3 for k in range(1, 3 - len(self.current.cards))]

    # -- the cards still out --

    def unseen(self) -> set[Card]:
        """Cards this seat has not seen: in the others' hands, buried, or in an unused talon."""
        return set(CARDS) - set(self.hand) - set(self.played) - set(self.buried)

    def can_beat(self, card: Card, led: Category, seats: list[int]) -> bool:
        """Whether one of ``seats`` may hold a card that beats ``card`` in a trick of ``led``.

        A seat known to be void in the led category may still trump a plain suit; a seat known
        to be void in trumps cannot. When too few cards of a plain suit are out for everyone to
        follow, someone may trump.
        """
        if not seats:
            return False
        out = self.unseen()
        higher = [other for other in out if beats(other, card, led)]
        if not higher:
            return False
        followers = [seat for seat in seats if led not in self.voids[seat]]
        if any(category(other) == led for other in higher) and followers:
            return True
        if led == TRUMP:
            return False
        may_trump = [seat for seat in seats if TRUMP not in self.voids[seat]]
        short = len(of_category(sorted(out), led)) < len(seats)
        trumps_higher = any(other.is_trump for other in higher)
        return trumps_higher and any(led in self.voids[s] or short for s in may_trump)

    def opponents_may_hold_trumps(self) -> bool:
        """Whether a seat against this one may still hold a trump."""
        foes = [s for s in range(3) if not self.is_friend(s)]
        if not any(TRUMP not in self.voids[s] for s in foes):
            return False
        return any(card.is_trump for card in self.unseen())


# -- bidding -------------------------------------------------------------------------------------


def hand_strength(hand: list[Card] | tuple[Card, ...]) -> float:
    """A point count of an 8-card hand for playing alone (about 8.5–9 is a take).

    Each trump counts by :data:`TRUMP_WEIGHTS` (a queen about 2, a low diamond 1); a plain ace
    counts 1 in a short suit (it wins before the suit is ruffed) and 0.7 in a longer one; a
    lone ten 0.3 (its points will be buried); each void 0.2.
    """
    score = sum(TRUMP_WEIGHTS[card] for card in hand if card.is_trump)
    for suit in PLAIN_SUITS:
        cards = of_category(hand, suit)
        ranks = {card.rank for card in cards}
        if not cards:
            score += VOID_WEIGHT
        elif "A" in ranks:
            score += ACE_SHORT_WEIGHT if len(cards) <= 2 else ACE_LONG_WEIGHT
        elif ranks == {"T"}:
            score += LONE_TEN_WEIGHT
    return score


def can_lose_every_trick(hand: list[Card] | tuple[Card, ...]) -> bool:
    """Whether a hand is safe for a small zole: in every category it holds only the lowest
    cards, with no gap (``7D``, ``8D 7D``, ``9H``, ``KH 9H``, ``TH KH 9H``), so that it can
    always play under whatever is led. Voids are safe too.
    """
    for cat in (TRUMP, *PLAIN_SUITS):
        mine = of_category(hand, cat)
        everything = of_category(CARDS, cat)
        if mine and mine != everything[len(everything) - len(mine) :]:
            return False
    return True


def choose_bid(view: BotView, aggression: int) -> Bid:
    """The bid: zole, take, small zole or pass, whichever is offered and fits the hand."""
    legal = view.legal_actions
    strength = hand_strength(view.hand)
    shift = (aggression - 50) / 50 * AGGRESSION_SPAN
    trumps = [card for card in view.hand if card.is_trump]
    queens = [card for card in trumps if is_queen(card)]
    if Bid.ZOLE in legal and (
        (len(trumps) >= ZOLE_TRUMPS and len(queens) >= ZOLE_QUEENS)
        or strength >= ZOLE_THRESHOLD - shift
    ):
        return Bid.ZOLE
    take_threshold = TAKE_THRESHOLD.get(view.rules, TAKE_THRESHOLD["wpt"])
    if Bid.TAKE in legal and strength >= take_threshold - shift:
        return Bid.TAKE
    if Bid.SMALL_ZOLE in legal and can_lose_every_trick(view.hand):
        return Bid.SMALL_ZOLE
    return Bid.PASS


# -- burying -------------------------------------------------------------------------------------


def keep_value(hand: list[Card]) -> float:
    """What the soloist expects from the plain cards of an 8-card hand, in card points.

    An ace wins its 11 and more; a ten behind its ace wins too, a ten or king without the ace
    is likely lost to the defenders; every plain card is a possible loser; a void lets the
    trumps ruff.
    """
    value = 0.0
    for suit in PLAIN_SUITS:
        cards = of_category(hand, suit)
        ranks = {card.rank for card in cards}
        if not cards:
            value += 6.0
            continue
        value -= 3.0 * len(cards)
        if "A" in ranks:
            value += 20.0
        if "T" in ranks:
            value += 8.0 if "A" in ranks else -10.0
        if "K" in ranks and "A" not in ranks and "T" not in ranks:
            value -= 4.0
    return value


def bury_value(hand: list[Card], pair: tuple[Card, Card]) -> float:
    """How good burying ``pair`` is: the buried points (they count for the soloist) plus what
    the remaining hand is worth; burying a trump costs its strength.
    """
    rest = [card for card in hand if card not in pair]
    cost = sum(10.0 + TRUMP_WEIGHTS[card] * 5 for card in pair if card.is_trump)
    return points(pair) + keep_value(rest) - cost


def choose_bury(hand: list[Card]) -> Bury:
    """The two cards to bury: the pair with the best :func:`bury_value`."""
    best = max(combinations(hand, 2), key=lambda pair: bury_value(hand, pair))
    return Bury.of(best[0], best[1])


# -- play ----------------------------------------------------------------------------------------


def discard_key(card: Card) -> tuple[int, int, int]:
    """Sort key for the card to throw away first: fewest points, plain before trump, weakest."""
    return (card.points, 1 if card.is_trump else 0, -card)


def lowest(cards: list[Card]) -> Card:
    """The card that costs least to give away."""
    return min(cards, key=discard_key)


def smear(cards: list[Card]) -> Card:
    """The card to give to a partner who wins: most points, sparing queens and jacks."""
    spare = [card for card in cards if not is_high_trump(card)] or cards
    return max(spare, key=lambda card: (card.points, int(card)))


def winning_cards(pos: Position) -> list[Card]:
    """The legal cards that would win the current trick as it stands."""
    trick = pos.current
    if not trick.cards:
        return list(pos.legal)
    best = trick.cards[winning_index(trick.cards)]
    return [card for card in pos.legal if beats(card, best, trick.led)]


def safe_winners(pos: Position, cards: list[Card], led: Category) -> list[Card]:
    """Of ``cards``, those no opponent still to play can beat."""
    foes = [seat for seat in pos.still_to_play() if not pos.is_friend(seat)]
    return [card for card in cards if not pos.can_beat(card, led, foes)]


def play_card(pos: Position) -> Card:
    """The card to play, by contract and role."""
    if pos.contract is Contract.TABLE:
        return duck(pos)
    if pos.contract is Contract.SMALL_ZOLE:
        return duck(pos) if pos.is_soloist else push_soloist(pos)
    if not pos.current.cards:
        return soloist_lead(pos) if pos.is_soloist else defender_lead(pos)
    return follow(pos)


def soloist_lead(pos: Position) -> Card:
    """The soloist's lead: draw trumps with the top trump, cash sure winners once the
    defenders are out of trumps, else lead low.
    """
    legal = pos.legal
    trumps = of_category(legal, TRUMP)
    foes = [seat for seat in range(3) if seat != pos.seat]
    if trumps and pos.opponents_may_hold_trumps():
        top = trumps[0]
        if not pos.can_beat(top, TRUMP, foes):
            return top
        low = [card for card in trumps if card not in RICH_TRUMPS]
        if len(trumps) >= 3 and low:
            return weakest(low)
    sure = [card for card in legal if not pos.can_beat(card, category(card), foes)]
    if sure:
        return max(sure, key=lambda card: (not card.is_trump, card.points))
    plain = [card for card in legal if not card.is_trump]
    return lowest(plain or legal)


def defender_lead(pos: Position) -> Card:
    """A defender's lead: cash a plain winner in a suit the soloist still follows, else lead
    a low plain card (the partner may win it), else the lowest card.
    """
    legal = pos.legal
    soloist = pos.soloist if pos.soloist is not None else (pos.seat + 1) % 3
    others = [seat for seat in range(3) if seat != pos.seat]
    for card in sorted(legal, key=lambda c: -c.points):
        if card.is_trump or category(card) in pos.voids[soloist]:
            continue
        if not pos.can_beat(card, category(card), others):
            return card
    plain = [card for card in legal if not card.is_trump]
    return lowest(plain or legal)


def follow(pos: Position) -> Card:
    """Play second or third in a trick of a soloist's game (take or zole)."""
    trick = pos.current
    winner = trick.winner()
    wins = winning_cards(pos)
    last = len(trick.cards) == 2
    if pos.is_friend(winner) and winner != pos.seat:
        # The partner wins so far: give points if he keeps the trick.
        best = trick.cards[winning_index(trick.cards)]
        foes_after = [s for s in pos.still_to_play() if not pos.is_friend(s)]
        if last or not pos.can_beat(best, trick.led, foes_after):
            return smear(pos.legal)
        safe = safe_winners(pos, wins, trick.led)
        if safe:
            return weakest(safe)
        return lowest(pos.legal)
    if wins:
        if last:
            return weakest(wins)
        safe = safe_winners(pos, wins, trick.led)
        if safe:
            return weakest(safe)
    return lowest(pos.legal)


def duck(pos: Position) -> Card:
    """Avoid tricks (table game, small zole soloist): play the highest card that still loses,
    else, when every card wins, the one that keeps the best chance of being beaten (or, last
    in the trick, the most dangerous one).
    """
    trick = pos.current
    legal = pos.legal
    if not trick.cards:
        return lead_low(pos)
    wins = set(winning_cards(pos))
    losers = [card for card in legal if card not in wins]
    if losers:
        return max(losers, key=danger)
    if len(trick.cards) == 2:
        return max(legal, key=danger)
    return weakest(legal)


#: How likely a plain card of each rank is to win a trick later.
RANK_DANGER: Final = {"A": 20, "T": 15, "K": 10, "9": 5}


def danger(card: Card) -> tuple[int, int]:
    """How likely a card is to win a trick later (higher is more dangerous), then its points."""
    if card.is_trump:
        return (40 - card, card.points)
    return (RANK_DANGER.get(card.rank, 0), card.points)


def lead_low(pos: Position) -> Card:
    """A lead that should lose: the weakest card of a category where the others still hold
    higher cards, preferring plain suits that they can follow.
    """
    others = [seat for seat in range(3) if seat != pos.seat]
    out = pos.unseen()

    def risk(card: Card) -> tuple[int, int, int]:
        cat = category(card)
        higher = [c for c in out if category(c) == cat and c < card]
        followers = [s for s in others if cat not in pos.voids[s]]
        return (0 if higher and followers else 1, -len(higher), card.points)

    return min(pos.legal, key=risk)


def push_soloist(pos: Position) -> Card:
    """A small zole defender: never take the trick from the soloist, lead low so he must win."""
    trick = pos.current
    legal = pos.legal
    if not trick.cards:
        soloist = pos.soloist if pos.soloist is not None else -1
        followed = [c for c in legal if soloist < 0 or category(c) not in pos.voids[soloist]]
        return weakest(followed or legal)
    if trick.winner() == pos.soloist:
        losers = [card for card in legal if card not in winning_cards(pos)]
        return max(losers, key=danger) if losers else weakest(legal)
    return weakest(legal)


# -- the bot -------------------------------------------------------------------------------------


def fallback(view: BotView) -> Action:
    """The first legal answer (the first two cards while burying): used if anything fails."""
    if view.phase is Phase.BURYING:
        return Bury.of(view.hand[0], view.hand[1])
    return view.legal_actions[0] if view.legal_actions else Bid.PASS


def random_answer(view: BotView, rng: random.Random) -> Action:
    """A uniformly random legal answer."""
    if view.phase is Phase.BURYING:
        first, second = rng.sample(view.hand, 2)
        return Bury.of(first, second)
    return rng.choice(view.legal_actions)


class RuleBot(Bot):
    """The rule-based bot; ``seed`` seeds the random moves that ``Epsilon`` asks for."""

    name = "RuleBot"
    author = "zole-arena"
    version = "1"
    options = (Option("Aggression", 50, 0, 100), Option("Epsilon", 0, 0, 100))

    def __init__(self, seed: int | None = None) -> None:
        self.aggression = 50
        self.epsilon = 0
        self.seed = seed
        self.rng = random.Random(seed)

    def on_option(self, name: str, value: OptionValue) -> None:
        if name == "Aggression" and isinstance(value, int):
            self.aggression = value
        elif name == "Epsilon" and isinstance(value, int):
            self.epsilon = value

    def decide(self, view: BotView) -> Action:
        """Always a legal answer."""
        try:
            if self.seed is not None:
                self.rng = decision_rng(self.seed, view)
            if self.epsilon > 0 and self.rng.random() * 100 < self.epsilon:
                return random_answer(view, self.rng)
            if view.phase is Phase.BIDDING:
                bid = choose_bid(view, self.aggression)
                return bid if bid in view.legal_actions else fallback(view)
            if view.phase is Phase.BURYING:
                return choose_bury(list(view.hand))
            position = Position.of(view)
            card = play_card(position)
            return card if card in position.legal else fallback(view)
        except Exception as exc:  # a bot must never crash: report and play the first legal item
            print(f"rule_bot: {type(exc).__name__}: {exc}", file=sys.stderr, flush=True)
            return fallback(view)


def decision_rng(seed: int, view: BotView) -> random.Random:
    """The random source of one decision of a seeded bot: from the seed and where the decision
    is (the deal, the seat, its hand, the bids and cards so far), so that the bot's moves
    follow from its seed and the deal alone — a bot restarted (a resumed match, a fault) makes
    the moves it would have made."""
    where = (view.deal_no, view.seat, view.hand, len(view.bids), len(view.tricks), view.trick)
    return random.Random(f"{seed}/{where}")


def parse_seed(argv: list[str]) -> int | None:
    """The ``--seed N`` (or ``--seed=N``) argument, if any."""
    for index, arg in enumerate(argv):
        try:
            if arg == "--seed" and index + 1 < len(argv):
                return int(argv[index + 1])
            if arg.startswith("--seed="):
                return int(arg.split("=", 1)[1])
        except ValueError:
            return None
    return None


if __name__ == "__main__":
    RuleBot(parse_seed(sys.argv[1:])).run()
