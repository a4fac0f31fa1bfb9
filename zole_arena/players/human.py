"""A person at the keyboard as a player: ``zole-arena play``.

:class:`HumanPlayer` is a :class:`~zole_arena.sdk.bot.Bot` that a match seats in the
arena's process (:meth:`BotConfig.in_process
<zole_arena.players.session.BotConfig.in_process>`): its hooks show a deal as a person wants
to follow it (the hand sorted with suit symbols, each card as it is played, who won each trick,
the scores after each deal), and its :meth:`~HumanPlayer.decide` asks for bids, burying and
cards, by name or by number, until the answer is legal. So a person plays through the arena's
own game loop, with the typed view of the deal (no protocol text in between), and the session
is logged like any match.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.console import Console
from rich.text import Text

from zole_arena.errors import NotationError
from zole_arena.game.actions import Action, Bid, Bury, Contract
from zole_arena.game.cards import Card
from zole_arena.game.state import Phase
from zole_arena.players.render import card_text, cards_text
from zole_arena.sdk.bot import Bot
from zole_arena.sdk.values import BidEvent, BotView, CardEvent, DealEnd, DealStart, Event

__all__ = ["HUMAN_COMMAND", "HumanPlayer"]

#: The command that stands for the person in a player list.
HUMAN_COMMAND = ("<human>",)

_BID_HELP = {
    "take": "take the talon and play alone",
    "zole": "play alone without the talon",
    "smallzole": "play alone without the talon and take no trick",
}


class HumanPlayer(Bot):
    """A person: requests become prompts, events become lines. No time limit."""

    name = "human"
    timed = False

    def __init__(
        self,
        console: Console | None = None,
        read: Callable[[str], str] = input,
    ) -> None:
        self.console = console or Console(highlight=False)
        self._read = read
        self._seat: int | None = None
        self._announced = False
        self.seat_names: Callable[[], Sequence[str]] = lambda: ("seat 0", "seat 1", "seat 2")
        """Names of the players by seat, for the current deal (set by the caller)."""

    # -- showing ----------------------------------------------------------------------------

    def _does(self, seat: int, verb: str) -> str:
        """``"you deal"`` or ``"rulebot deals"``."""
        if seat == self._seat:
            return f"you {verb}"
        return f"{self._who(seat)} {verb}s"

    def _who(self, seat: int) -> str:
        if seat == self._seat:
            return "you"
        names = self.seat_names()
        return names[seat] if seat < len(names) else f"seat {seat}"

    def on_newdeal(self, deal: DealStart) -> None:
        out = self.console
        self._seat = deal.seat
        self._announced = False
        out.print()
        out.rule(f"Deal {deal.deal_no}")
        standing = ", ".join(f"{self._who(seat)} {deal.scores[seat]:+d}" for seat in range(3))
        pules = ""
        if deal.pules.common or deal.pules.personal:
            owners = deal.pules.personal
            personal = (
                ", personal: " + ", ".join(self._who(seat) for seat in owners) if owners else ""
            )
            pules = f" Pules: {deal.pules.common} common{personal}."
        out.print(
            f"You are seat {deal.seat}; {self._does(deal.dealer, 'deal')} and "
            f"{self._does(deal.forehand, 'speak')} first. Rules: {deal.rules}. "
            f"Scores: {standing}.{pules}"
        )
        self._show_hand("Your hand", deal.hand)

    def on_event(self, event: Event) -> None:
        out = self.console
        if isinstance(event, BidEvent):
            out.print(f"{self._who(event.seat)}: {event.bid}")
        elif isinstance(event, CardEvent):
            seat = event.seat
            text = Text("You play " if seat == self._seat else f"{self._who(seat)} plays ")
            text.append_text(card_text(event.card))
            out.print(text)
        else:
            out.print(f"  → {self._who(event.winner)} won the trick ({event.points} points)\n")

    def on_result(self, end: DealEnd) -> None:
        out = self.console
        contract, soloist = end.contract, end.soloist
        if contract is Contract.PULE:
            what = "All passed: a common pule is written."
        elif contract is Contract.TABLE:
            what = "All passed: table game."
        elif soloist is not None:
            what = f"{self._who(soloist)} played {contract}"
            if end.soloist_points is not None:
                what += f" and made {end.soloist_points} points"
            what += f": {end.band.words}." if end.band is not None else "."
            what = what[0].upper() + what[1:]
        else:
            what = "The deal was stopped."
        if end.forfeit is not None:
            what += f" {self._who(end.forfeit)} forfeited the deal (a fault)."
        out.print(Text(what, style="bold"))
        for seat in range(3):
            out.print(
                f"  {self._who(seat):<12} {end.scores[seat]:+4d}   total {end.totals[seat]:+5d}"
            )

    def _show_hand(self, title: str, hand: Sequence[Card], numbered: bool = False) -> None:
        text = Text(f"{title}: ")
        for index, card in enumerate(sorted(hand)):
            if index:
                text.append("  ")
            if numbered:
                text.append(f"{index + 1}:")
            text.append_text(card_text(card))
        self.console.print(text)

    # -- asking -----------------------------------------------------------------------------

    def _prompt(self, text: str) -> str:
        try:
            return self._read(text).strip()
        except EOFError:
            raise KeyboardInterrupt from None

    def decide(self, view: BotView) -> Action:
        """Ask until the answer is legal."""
        if view.phase is Phase.BIDDING:
            return self._ask_bid(view)
        if view.phase is Phase.BURYING:
            return self._ask_bury(view)
        return self._ask_card(view)

    def _ask_bid(self, view: BotView) -> Bid:
        bids = {str(bid): bid for bid in view.legal_actions if isinstance(bid, Bid)}
        legal = list(bids)
        choices = "  ".join(
            f"{i + 1}:{bid}" + (f" ({_BID_HELP[bid]})" if bid in _BID_HELP else "")
            for i, bid in enumerate(legal)
        )
        self.console.print(f"Your bid — {choices}")
        while True:
            answer = self._prompt("bid> ").lower()
            if answer.isdigit() and 1 <= int(answer) <= len(legal):
                return bids[legal[int(answer) - 1]]
            if answer in bids:
                return bids[answer]
            if not answer:
                self.console.print(f"Type {' or '.join(legal)}, or its number.")
                continue
            self.console.print(
                f"[red]'{answer}' is not a bid you can make here:[/] type "
                f"{' or '.join(legal)}, or its number"
            )

    def _ask_bury(self, view: BotView) -> Bury:
        hand = sorted(view.hand)
        talon = view.talon or ()
        text = Text("You took the talon: ")
        text.append_text(cards_text(talon))
        self.console.print(text)
        self._show_hand("Your 10 cards", hand, numbered=True)
        self.console.print("Bury two cards: their names or numbers, e.g. '9H KS' or '3 7'.")
        while True:
            words = self._prompt("bury> ").replace(",", " ").split()
            try:
                picked = [self._pick(word, hand) for word in words]
            except ValueError as exc:
                self.console.print(f"[red]{exc}[/]")
                continue
            if len(picked) != 2 or picked[0] == picked[1]:
                self.console.print("[red]Name exactly two different cards of your hand.[/]")
                continue
            text = Text("You bury ")
            text.append_text(cards_text(picked, " and "))
            self.console.print(text)
            return Bury.of(picked[0], picked[1])

    def _ask_card(self, view: BotView) -> Card:
        hand = sorted(view.hand)
        legal = sorted(card for card in view.legal_actions if isinstance(card, Card))
        leader = view.trick_leader if view.trick_leader is not None else view.forehand
        trick = [((leader + i) % 3, card) for i, card in enumerate(view.trick)]
        contract, soloist = view.contract, view.soloist
        if not self._announced:  # the person's first card of the deal: say what is played
            self._announced = True
            if contract is Contract.TABLE:
                self.console.print("All passed: table game — take as few tricks as you can.")
            elif soloist is not None:
                if soloist == self._seat:
                    self.console.print(f"You are the soloist ({contract}).")
                else:
                    self.console.print(f"{self._who(soloist)} is the soloist ({contract}).")
        if trick:
            text = Text("On the table: ")
            for index, (seat, card) in enumerate(trick):
                if index:
                    text.append(", ")
                text.append(f"{self._who(seat)} ")
                text.append_text(card_text(card))
            self.console.print(text)
        else:
            self.console.print("You lead.")
        self._show_hand("Your hand", hand)
        text = Text("You may play: ")
        for index, card in enumerate(legal):
            if index:
                text.append("  ")
            text.append(f"{index + 1}:")
            text.append_text(card_text(card))
        self.console.print(text)
        led = "the led category"
        if trick:
            first = trick[0][1]
            led = (
                "trump"
                if first.is_trump
                else {"C": "clubs", "S": "spades", "H": "hearts"}[first.suit]
            )
        while True:
            answer = self._prompt("card> ")
            if not answer:
                self.console.print("Type a card (e.g. QC, 10D, 9♥) or its number.")
                continue
            try:
                return self._pick(answer, legal, hand, led)
            except ValueError as exc:
                self.console.print(f"[red]{exc}[/]")

    @staticmethod
    def _pick(
        word: str,
        choices: Sequence[Card],
        hand: Sequence[Card] | None = None,
        led: str = "the led category",
    ) -> Card:
        """A card by its number in ``choices`` or by its name.

        :raises ValueError: with what is wrong, for the person to try again.
        """
        if word.isdigit():
            number = int(word)
            if 1 <= number <= len(choices):
                return choices[number - 1]
            raise ValueError(f"there is no number {number}: choose 1 to {len(choices)}")
        try:
            card = Card.parse(word)
        except NotationError:
            raise ValueError(
                f"'{word}' is not a card: type a number, or a card like QC, 10D, 9H, Q♣"
            ) from None
        if card in choices:
            return card
        if hand is not None and card in hand:
            raise ValueError(f"you may not play {card.symbol()} now: you must follow {led} "
                             "(choose one of the cards listed)")  # fmt: skip
        raise ValueError(f"{card.symbol()} is not in your hand")
