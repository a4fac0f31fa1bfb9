#!/usr/bin/env python3
"""A rule-based Zole bot: a readable example of a bot that plays sensibly (protocol v1).

Every ``go`` request carries the whole view of the deal, so the bot keeps no state between
requests: it rebuilds the tricks from ``forehand``, ``winners`` and ``played`` and decides from
a few rules of thumb.

* **Bidding**: a point count of the hand (trumps, high trumps, plain aces, voids) against a
  threshold that the ``Aggression`` option moves; zole only with a very strong hand, small zole
  only with a hand that cannot take a trick.
* **Burying**: keep the trumps; bury the plain points that would be lost (a lone ten or
  king), preferring to void a suit (the buried points count for the soloist).
* **Play**: the soloist draws trumps, then cashes winners; the defenders give points to a
  partner who wins the trick and beat the soloist as cheaply as they can; in the table game and
  the small zole the bot ducks.

The ``Epsilon`` option (percent) makes the bot play a uniformly random legal action instead, to
build weaker variants. Standard library only; run it as ``python3 rule_bot.py [--seed N]``.
"""

from __future__ import annotations

import contextlib
import random
import sys
from dataclasses import dataclass, field
from itertools import combinations
from typing import Final

# -- cards ---------------------------------------------------------------------------------------

#: The 26 cards strongest first: the 14 trumps, then clubs, spades, hearts (A T K 9 each).
CARD_ORDER: Final = (
    "QC QS QH QD JC JS JH JD AD TD KD 9D 8D 7D AC TC KC 9C AS TS KS 9S AH TH KH 9H".split()
)
#: A card's place in CARD_ORDER: lower is stronger within its category.
STRENGTH: Final = {card: index for index, card in enumerate(CARD_ORDER)}
TRUMPS: Final = frozenset(CARD_ORDER[:14])
PLAIN_SUITS: Final = ("C", "S", "H")
RANK_POINTS: Final = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
POINTS: Final = {card: RANK_POINTS[card[0]] for card in CARD_ORDER}
#: Queens and jacks: the trumps that win tricks but carry few points.
HIGH_TRUMPS: Final = frozenset(CARD_ORDER[:8])
QUEENS: Final = frozenset(CARD_ORDER[:4])
TRUMP = "T"
"""The category of the trumps (the plain suits' categories are their suit letters)."""
NEVER_WINS: Final = 100

#: Bidding weights of the trumps (see :func:`hand_strength`): a trump's power to win tricks;
#: the diamond ace and ten also bring their points.
TRUMP_WEIGHTS: Final = {
    "QC": 2.3, "QS": 2.2, "QH": 2.0, "QD": 1.8, "JC": 1.6, "JS": 1.5, "JH": 1.4,
    "JD": 1.3, "AD": 1.8, "TD": 1.6, "KD": 1.15, "9D": 1.0, "8D": 1.0, "7D": 1.0,
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


def normalize(text: str) -> str:
    """A card in canonical notation (``10d`` -> ``TD``); text that is no card is unchanged."""
    card = text.strip().upper()
    card = "T" + card[2:] if card.startswith("10") else card
    return card if card in STRENGTH else text


def category(card: str) -> str:
    """What a card follows as: ``T`` for the trumps (every queen, jack and diamond), else its
    plain suit letter.
    """
    return TRUMP if card in TRUMPS else card[1]


def trick_key(card: str, led: str) -> int:
    """Lower beats higher: trumps by strength, then the led suit, other cards never win."""
    if card in TRUMPS or category(card) == led:
        return STRENGTH[card]
    return NEVER_WINS


def beats(card: str, other: str, led: str) -> bool:
    """Whether ``card`` beats ``other`` in a trick whose led category is ``led``."""
    return trick_key(card, led) < trick_key(other, led)


def winning_index(cards: list[str]) -> int:
    """The position (0, 1, 2) of the card that wins so far in a trick's cards."""
    led = category(cards[0])
    keys = [trick_key(card, led) for card in cards]
    return keys.index(min(keys))


def points(cards: list[str] | tuple[str, ...] | set[str]) -> int:
    """Card points of some cards."""
    return sum(POINTS[card] for card in cards)


def weakest(cards: list[str]) -> str:
    """The weakest card: the one with the highest place in CARD_ORDER."""
    return max(cards, key=STRENGTH.__getitem__)


def strongest(cards: list[str]) -> str:
    """The strongest card: the one with the lowest place in CARD_ORDER."""
    return min(cards, key=STRENGTH.__getitem__)


def of_category(cards: list[str] | tuple[str, ...], cat: str) -> list[str]:
    """The cards of one category, strongest first."""
    return sorted((card for card in cards if category(card) == cat), key=STRENGTH.__getitem__)


# -- the view of a deal --------------------------------------------------------------------------


@dataclass
class Trick:
    """A trick, finished or not: who led it and the cards in the order played."""

    leader: int
    cards: list[str]

    def seat_of(self, index: int) -> int:
        """The seat that played ``cards[index]``."""
        return (self.leader + index) % 3

    @property
    def led(self) -> str:
        """The led category."""
        return category(self.cards[0])

    def winner(self) -> int:
        """The seat whose card wins so far."""
        return self.seat_of(winning_index(self.cards))


@dataclass
class View:
    """What one ``go`` request tells: the seat's hand and everything public, plus what follows
    from it (the tricks, the current trick, known voids, the cards still out).
    """

    phase: str
    seat: int
    forehand: int
    rules: str
    hand: list[str]
    legal: list[str]
    bids: list[str]
    contract: str
    soloist: int | None
    buried: list[str]
    played: list[str]
    winners: list[int]
    tricks: list[Trick] = field(default_factory=list)
    current: Trick = field(default_factory=lambda: Trick(0, []))
    voids: list[set[str]] = field(default_factory=lambda: [set(), set(), set()])

    @classmethod
    def parse(cls, fields: dict[str, str]) -> View:
        """Build a view from the fields of a ``go`` line."""
        soloist = fields.get("soloist", "-")
        view = cls(
            phase=fields.get("phase", ""),
            seat=int(fields.get("seat", "0")),
            forehand=int(fields.get("forehand", "0")),
            rules=fields.get("rules", "wpt").split("+")[0],
            hand=card_list(fields.get("hand", "-")),
            legal=[normalize(item) for item in item_list(fields.get("legal", "-"))],
            bids=item_list(fields.get("bids", "-")),
            contract=fields.get("contract", "-"),
            soloist=int(soloist) if soloist.isdigit() else None,
            buried=card_list(fields.get("buried", "-")),
            played=card_list(fields.get("played", "-")),
            winners=[int(seat) for seat in item_list(fields.get("winners", "-"))],
        )
        view.rebuild_tricks()
        return view

    def rebuild_tricks(self) -> None:
        """Split ``played`` into tricks: trick 1 is led by the forehand, trick k + 1 by the
        winner of trick k; note every seat that did not follow the led category as void in it.
        """
        leader = self.forehand
        for number, winner in enumerate(self.winners):
            self.tricks.append(Trick(leader, self.played[3 * number : 3 * number + 3]))
            leader = winner
        self.current = Trick(leader, self.played[3 * len(self.winners) :])
        for trick in [*self.tricks, self.current]:
            for index, card in enumerate(trick.cards[1:], start=1):
                if category(card) != trick.led:
                    self.voids[trick.seat_of(index)].add(trick.led)

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

    def unseen(self) -> set[str]:
        """Cards this seat has not seen: in the others' hands, buried, or in an unused talon."""
        return set(CARD_ORDER) - set(self.hand) - set(self.played) - set(self.buried)

    def can_beat(self, card: str, led: str, seats: list[int]) -> bool:
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
        trumps_higher = any(other in TRUMPS for other in higher)
        return trumps_higher and any(led in self.voids[s] or short for s in may_trump)

    def opponents_may_hold_trumps(self) -> bool:
        """Whether a seat against this one may still hold a trump."""
        foes = [s for s in range(3) if not self.is_friend(s)]
        if not any(TRUMP not in self.voids[s] for s in foes):
            return False
        return any(card in TRUMPS for card in self.unseen())


def item_list(value: str) -> list[str]:
    """The items of a protocol list (``-`` is empty)."""
    return [] if value in ("-", "") else [item for item in value.split(",") if item]


def card_list(value: str) -> list[str]:
    """A protocol list of cards in canonical notation."""
    return [normalize(item) for item in item_list(value)]


# -- bidding -------------------------------------------------------------------------------------


def hand_strength(hand: list[str]) -> float:
    """A point count of an 8-card hand for playing alone (about 8.5–9 is a take).

    Each trump counts by :data:`TRUMP_WEIGHTS` (a queen about 2, a low diamond 1); a plain ace
    counts 1 in a short suit (it wins before the suit is ruffed) and 0.7 in a longer one; a
    lone ten 0.3 (its points will be buried); each void 0.2.
    """
    score = sum(TRUMP_WEIGHTS[card] for card in hand if card in TRUMPS)
    for suit in PLAIN_SUITS:
        cards = of_category(hand, suit)
        ranks = {card[0] for card in cards}
        if not cards:
            score += VOID_WEIGHT
        elif "A" in ranks:
            score += ACE_SHORT_WEIGHT if len(cards) <= 2 else ACE_LONG_WEIGHT
        elif ranks == {"T"}:
            score += LONE_TEN_WEIGHT
    return score


def can_lose_every_trick(hand: list[str]) -> bool:
    """Whether a hand is safe for a small zole: in every category it holds only the lowest
    cards, with no gap (``7D``, ``8D 7D``, ``9H``, ``KH 9H``, ``TH KH 9H``), so that it can
    always play under whatever is led. Voids are safe too.
    """
    for cat in (TRUMP, *PLAIN_SUITS):
        mine = of_category(hand, cat)
        everything = of_category(CARD_ORDER, cat)
        if mine and mine != everything[len(everything) - len(mine) :]:
            return False
    return True


def choose_bid(view: View, aggression: int) -> str:
    """The bid: zole, take, small zole or pass, whichever is offered and fits the hand."""
    strength = hand_strength(view.hand)
    shift = (aggression - 50) / 50 * AGGRESSION_SPAN
    trumps = [card for card in view.hand if card in TRUMPS]
    queens = [card for card in trumps if card in QUEENS]
    if "zole" in view.legal and (
        (len(trumps) >= ZOLE_TRUMPS and len(queens) >= ZOLE_QUEENS)
        or strength >= ZOLE_THRESHOLD - shift
    ):
        return "zole"
    take_threshold = TAKE_THRESHOLD.get(view.rules, TAKE_THRESHOLD["wpt"])
    if "take" in view.legal and strength >= take_threshold - shift:
        return "take"
    if "smallzole" in view.legal and can_lose_every_trick(view.hand):
        return "smallzole"
    return "pass" if "pass" in view.legal else view.legal[0]


# -- burying -------------------------------------------------------------------------------------


def keep_value(hand: list[str]) -> float:
    """What the soloist expects from the plain cards of an 8-card hand, in card points.

    An ace wins its 11 and more; a ten behind its ace wins too, a ten or king without the ace
    is likely lost to the defenders; every plain card is a possible loser; a void lets the
    trumps ruff.
    """
    value = 0.0
    for suit in PLAIN_SUITS:
        cards = of_category(hand, suit)
        ranks = {card[0] for card in cards}
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


def bury_value(hand: list[str], pair: tuple[str, str]) -> float:
    """How good burying ``pair`` is: the buried points (they count for the soloist) plus what
    the remaining hand is worth; burying a trump costs its strength.
    """
    rest = [card for card in hand if card not in pair]
    cost = sum(10.0 + TRUMP_WEIGHTS[card] * 5 for card in pair if card in TRUMPS)
    return points(pair) + keep_value(rest) - cost


def choose_bury(view: View) -> tuple[str, str]:
    """The two cards to bury: the pair with the best :func:`bury_value`."""
    hand = [card for card in view.legal if card in STRENGTH] or view.hand
    pairs = list(combinations(hand, 2))
    best = max(pairs, key=lambda pair: bury_value(hand, pair))
    return best[0], best[1]


# -- play ----------------------------------------------------------------------------------------


def discard_key(card: str) -> tuple[int, int, int]:
    """Sort key for the card to throw away first: fewest points, plain before trump, weakest."""
    return (POINTS[card], 1 if card in TRUMPS else 0, -STRENGTH[card])


def lowest(cards: list[str]) -> str:
    """The card that costs least to give away."""
    return min(cards, key=discard_key)


def smear(cards: list[str]) -> str:
    """The card to give to a partner who wins: most points, sparing queens and jacks."""
    spare = [card for card in cards if card not in HIGH_TRUMPS] or cards
    return max(spare, key=lambda card: (POINTS[card], STRENGTH[card]))


def winning_cards(view: View) -> list[str]:
    """The legal cards that would win the current trick as it stands."""
    trick = view.current
    if not trick.cards:
        return list(view.legal)
    best = trick.cards[winning_index(trick.cards)]
    return [card for card in view.legal if beats(card, best, trick.led)]


def safe_winners(view: View, cards: list[str], led: str) -> list[str]:
    """Of ``cards``, those no opponent still to play can beat."""
    foes = [seat for seat in view.still_to_play() if not view.is_friend(seat)]
    return [card for card in cards if not view.can_beat(card, led, foes)]


def play_card(view: View) -> str:
    """The card to play, by contract and role."""
    if view.contract == "table":
        return duck(view)
    if view.contract == "smallzole":
        return duck(view) if view.is_soloist else push_soloist(view)
    if not view.current.cards:
        return soloist_lead(view) if view.is_soloist else defender_lead(view)
    return follow(view)


def soloist_lead(view: View) -> str:
    """The soloist's lead: draw trumps with the top trump, cash sure winners once the
    defenders are out of trumps, else lead low.
    """
    legal = view.legal
    trumps = of_category(legal, TRUMP)
    foes = [seat for seat in range(3) if seat != view.seat]
    if trumps and view.opponents_may_hold_trumps():
        top = trumps[0]
        if not view.can_beat(top, TRUMP, foes):
            return top
        low = [card for card in trumps if card not in ("AD", "TD")]
        if len(trumps) >= 3 and low:
            return weakest(low)
    sure = [card for card in legal if not view.can_beat(card, category(card), foes)]
    if sure:
        return max(sure, key=lambda card: (card not in TRUMPS, POINTS[card]))
    plain = [card for card in legal if card not in TRUMPS]
    return lowest(plain or legal)


def defender_lead(view: View) -> str:
    """A defender's lead: cash a plain winner in a suit the soloist still follows, else lead
    a low plain card (the partner may win it), else the lowest card.
    """
    legal = view.legal
    soloist = view.soloist if view.soloist is not None else (view.seat + 1) % 3
    others = [seat for seat in range(3) if seat != view.seat]
    for card in sorted(legal, key=lambda c: -POINTS[c]):
        if card in TRUMPS or category(card) in view.voids[soloist]:
            continue
        if not view.can_beat(card, category(card), others):
            return card
    plain = [card for card in legal if card not in TRUMPS]
    return lowest(plain or legal)


def follow(view: View) -> str:
    """Play second or third in a trick of a soloist's game (take or zole)."""
    trick = view.current
    winner = trick.winner()
    wins = winning_cards(view)
    last = len(trick.cards) == 2
    if view.is_friend(winner) and winner != view.seat:
        # The partner wins so far: give points if he keeps the trick.
        best = trick.cards[winning_index(trick.cards)]
        foes_after = [s for s in view.still_to_play() if not view.is_friend(s)]
        if last or not view.can_beat(best, trick.led, foes_after):
            return smear(view.legal)
        safe = safe_winners(view, wins, trick.led)
        if safe:
            return weakest(safe)
        return lowest(view.legal)
    if wins:
        if last:
            return weakest(wins)
        safe = safe_winners(view, wins, trick.led)
        if safe:
            return weakest(safe)
    return lowest(view.legal)


def duck(view: View) -> str:
    """Avoid tricks (table game, small zole soloist): play the highest card that still loses,
    else, when every card wins, the one that keeps the best chance of being beaten (or, last
    in the trick, the most dangerous one).
    """
    trick = view.current
    legal = view.legal
    if not trick.cards:
        return lead_low(view)
    wins = set(winning_cards(view))
    losers = [card for card in legal if card not in wins]
    if losers:
        return max(losers, key=danger)
    if len(trick.cards) == 2:
        return max(legal, key=danger)
    return weakest(legal)


def danger(card: str) -> tuple[int, int]:
    """How likely a card is to win a trick later (higher is more dangerous), then its points."""
    if card in TRUMPS:
        return (40 - STRENGTH[card], POINTS[card])
    rank_danger = {"A": 20, "T": 15, "K": 10, "9": 5}
    return (rank_danger.get(card[0], 0), POINTS[card])


def lead_low(view: View) -> str:
    """A lead that should lose: the weakest card of a category where the others still hold
    higher cards, preferring plain suits that they can follow.
    """
    others = [seat for seat in range(3) if seat != view.seat]
    out = view.unseen()

    def risk(card: str) -> tuple[int, int, int]:
        cat = category(card)
        higher = [c for c in out if category(c) == cat and STRENGTH[c] < STRENGTH[card]]
        followers = [s for s in others if cat not in view.voids[s]]
        return (0 if higher and followers else 1, -len(higher), POINTS[card])

    return min(view.legal, key=risk)


def push_soloist(view: View) -> str:
    """A small zole defender: never take the trick from the soloist, lead low so he must win."""
    trick = view.current
    legal = view.legal
    if not trick.cards:
        soloist = view.soloist if view.soloist is not None else -1
        followed = [c for c in legal if soloist < 0 or category(c) not in view.voids[soloist]]
        return weakest(followed or legal)
    if trick.winner() == view.soloist:
        losers = [card for card in legal if card not in winning_cards(view)]
        return max(losers, key=danger) if losers else weakest(legal)
    return weakest(legal)


# -- decisions -----------------------------------------------------------------------------------


@dataclass
class Settings:
    """The bot's options and its random source."""

    aggression: int = 50
    epsilon: int = 0
    rng: random.Random = field(default_factory=random.Random)


def fallback(fields: dict[str, str]) -> str:
    """The first legal answer (the first two cards while burying): used if anything fails."""
    legal = item_list(fields.get("legal", "-"))
    if fields.get("phase") == "bury":
        return " ".join(legal[:2])
    return legal[0] if legal else "pass"


def random_answer(fields: dict[str, str], rng: random.Random) -> str:
    """A uniformly random legal answer."""
    legal = item_list(fields.get("legal", "-"))
    if fields.get("phase") == "bury":
        return " ".join(rng.sample(legal, 2))
    return rng.choice(legal)


def decide(fields: dict[str, str], settings: Settings) -> str:
    """The answer to a ``go`` request (without ``action <id>``); always a legal answer."""
    try:
        if settings.epsilon > 0 and settings.rng.random() * 100 < settings.epsilon:
            return random_answer(fields, settings.rng)
        view = View.parse(fields)
        if view.phase == "bid":
            answer = choose_bid(view, settings.aggression)
            return answer if answer in view.legal else fallback(fields)
        if view.phase == "bury":
            first, second = choose_bury(view)
            ok = first != second and {first, second} <= set(view.legal)
            return f"{first} {second}" if ok else fallback(fields)
        card = play_card(view)
        return card if card in view.legal else fallback(fields)
    except Exception as exc:  # a bot must never crash: report and play the first legal item
        print(f"rule_bot: {type(exc).__name__}: {exc}", file=sys.stderr, flush=True)
        return fallback(fields)


def set_option(words: list[str], settings: Settings) -> None:
    """Apply ``setoption name <name> value <value>`` (unknown names and bad values ignored)."""
    if "name" not in words or "value" not in words:
        return
    name = " ".join(words[words.index("name") + 1 : words.index("value")]).lower()
    value = " ".join(words[words.index("value") + 1 :])
    try:
        number = max(0, min(100, int(value)))
    except ValueError:
        return
    if name == "aggression":
        settings.aggression = number
    elif name == "epsilon":
        settings.epsilon = number


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


#: The fields of a ``go`` request that the bot reads.
GO_FIELDS: Final = frozenset(
    "id time phase deal seat dealer forehand rules hand scores commonpules personalpules "
    "bids contract soloist talon buried played winners legal".split()
)


def parse_fields(tokens: list[str]) -> dict[str, str]:
    """The fields of a ``go`` line as a dict. A known field name takes the next token as its
    value; any other token (an unknown field's name or value, a stray ``-``) is skipped, so
    one odd token cannot shift the pairs after it.
    """
    fields: dict[str, str] = {}
    index = 0
    while index < len(tokens):
        if tokens[index] in GO_FIELDS and index + 1 < len(tokens):
            fields[tokens[index]] = tokens[index + 1]
            index += 2
        else:
            index += 1
    return fields


HANDSHAKE: Final = (
    "id name RuleBot",
    "id author zole-arena",
    "id version 1",
    "option name Aggression type spin default 50 min 0 max 100",
    "option name Epsilon type spin default 0 min 0 max 100",
    "zoleok 1",
)


def main() -> None:
    """Run the bot; leave quietly if the arena closes the pipes or interrupts it."""
    with contextlib.suppress(BrokenPipeError, KeyboardInterrupt):
        serve(Settings(rng=random.Random(parse_seed(sys.argv[1:]))))


def serve(settings: Settings) -> None:
    """Read the arena's messages on stdin and answer on stdout until ``quit`` or end of input."""
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        command = words[0]
        if command == "zole":
            print("\n".join(HANDSHAKE), flush=True)
        elif command == "isready":
            print("readyok", flush=True)
        elif command == "setoption":
            set_option(words, settings)
        elif command == "go":
            fields = parse_fields(words[1:])
            if "id" in fields:
                print(f"action {fields['id']} {decide(fields, settings)}", flush=True)
        elif command == "quit":
            break


if __name__ == "__main__":
    main()
