"""A person at the keyboard as a player: ``zole-arena play``.

:class:`HumanSession` stands in the referee's place of a bot session. It reads the same
protocol lines a bot would get — the events and each ``go`` request — shows them as a person
wants to follow a deal (the hand sorted with suit symbols, each card as it is played, who won
each trick, the scores after each deal), and asks for bids, burying and cards, by name or by
number, until the answer is legal. So a person plays through the arena's own game loop, and the
session is logged like any match.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from rich.console import Console
from rich.text import Text

from zole_arena.errors import NotationError
from zole_arena.game.cards import Card
from zole_arena.players.render import card_text, cards_text
from zole_arena.players.session import Reply

__all__ = ["HUMAN_COMMAND", "HumanSession"]

#: The command that stands for the person in a player list.
HUMAN_COMMAND = ("<human>",)

_BID_HELP = {
    "take": "take the talon and play alone",
    "zole": "play alone without the talon",
    "smallzole": "play alone without the talon and take no trick",
}


_BANDS = {
    "all_tricks": "all the tricks",
    "high_win": "a win with 91 or more",
    "win": "a win",
    "loss": "a loss",
    "high_loss": "a loss with 30 or less",
    "no_tricks": "a loss without a trick",
}


def _fields(words: Sequence[str]) -> dict[str, str]:
    return dict(zip(words[1::2], words[2::2], strict=False))


def _cards(text: str) -> list[Card]:
    return [] if text in ("", "-") else [Card.parse(c) for c in text.split(",")]


class HumanSession:
    """The referee's view of a person: requests become prompts, events become lines."""

    def __init__(
        self,
        name: str = "you",
        console: Console | None = None,
        read: Callable[[str], str] = input,
    ) -> None:
        self._name = name
        self.console = console or Console(highlight=False)
        self._read = read
        self._seat: int | None = None
        self._announced = False
        self.seat_names: Callable[[], Sequence[str]] = lambda: ("seat 0", "seat 1", "seat 2")
        """Names of the players by seat, for the current deal (set by the caller)."""

    @property
    def name(self) -> str:
        return self._name

    def identity(self) -> dict[str, str | Sequence[str]]:
        """A person's identity, as records keep it."""
        return {"name": self._name, "id_name": "human", "author": "", "version": "",
                "command": list(HUMAN_COMMAND)}  # fmt: skip

    # -- what the referee calls -------------------------------------------------------------

    def ping(self, timeout_ms: int | None = None) -> float:
        return 0.0

    def idle_seconds(self) -> float:
        return 0.0

    def check_limits(self) -> None:
        """A person has no limits to check."""

    def send_lines(self, lines: Sequence[str]) -> None:
        for line in lines:
            self._show_event(line)

    def send_quit(self) -> None:
        pass

    def finish_quit(self, deadline: float) -> int | None:
        return 0

    def kill(self) -> None:
        pass

    def request(
        self,
        line: str,
        request_id: int,
        time_ms: int,
        margin_ms: int,
        events: Sequence[str] = (),
    ) -> Reply:
        """Show what happened, then ask until the answer is legal (no time limit)."""
        start = time.monotonic()
        for event in events:
            self._show_event(event)
        go = _fields(line.split())
        answer = self._ask(go)
        elapsed = (time.monotonic() - start) * 1000
        return Reply(request_id, tuple(answer.split()), f"action {request_id} {answer}", elapsed)

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

    def _show_event(self, line: str) -> None:
        words = line.split()
        if not words:
            return
        head = words[0]
        out = self.console
        if head == "newdeal":
            f = _fields(words)
            self._seat = int(f["seat"])
            self._announced = False
            out.print()
            out.rule(f"Deal {f['deal']}")
            scores = f["scores"].split(",")
            standing = ", ".join(f"{self._who(seat)} {int(scores[seat]):+d}" for seat in range(3))
            pules = ""
            if f.get("commonpules", "0") != "0" or f.get("personalpules", "-") != "-":
                owners = f.get("personalpules", "-")
                personal = (
                    ", personal: " + ", ".join(self._who(int(s)) for s in owners.split(","))
                    if owners != "-"
                    else ""
                )
                pules = f" Pules: {f.get('commonpules', '0')} common{personal}."
            out.print(
                f"You are seat {f['seat']}; {self._does(int(f['dealer']), 'deal')} and "
                f"{self._does(int(f['forehand']), 'speak')} first. Rules: {f['rules']}. "
                f"Scores: {standing}.{pules}"
            )
            self._show_hand("Your hand", _cards(f["hand"]))
        elif head == "bid" and len(words) >= 3:
            out.print(f"{self._who(int(words[1]))}: {words[2]}")
        elif head == "card" and len(words) >= 3:
            seat = int(words[1])
            text = Text("You play " if seat == self._seat else f"{self._who(seat)} plays ")
            text.append_text(card_text(Card.parse(words[2])))
            out.print(text)
        elif head == "trick" and len(words) >= 3:
            out.print(f"  → {self._who(int(words[1]))} won the trick ({words[2]} points)\n")
        elif head == "result":
            self._show_result(_fields(words))

    def _show_result(self, f: dict[str, str]) -> None:
        out = self.console
        contract = f.get("contract", "-")
        soloist = f.get("soloist", "-")
        if contract == "pule":
            what = "All passed: a common pule is written."
        elif contract == "table":
            what = "All passed: table game."
        elif soloist != "-":
            points = f.get("soloistpoints", "-")
            what = f"{self._who(int(soloist))} played {contract}"
            if points != "-":
                what += f" and made {points} points"
            band = f.get("band", "-")
            what += f": {_BANDS.get(band, band)}." if band != "-" else "."
            what = what[0].upper() + what[1:]
        else:
            what = "The deal was stopped."
        if f.get("forfeit", "-") != "-":
            what += f" {self._who(int(f['forfeit']))} forfeited the deal (a fault)."
        scores = f.get("scores", "0,0,0").split(",")
        totals = f.get("totals", "0,0,0").split(",")
        out.print(Text(what, style="bold"))
        for seat in range(3):
            out.print(
                f"  {self._who(seat):<12} {int(scores[seat]):+4d}   total {int(totals[seat]):+5d}"
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

    def _current_trick(self, go: dict[str, str]) -> list[tuple[int, Card]]:
        played = _cards(go.get("played", "-"))
        winners = (
            [] if go.get("winners", "-") == "-" else [int(w) for w in go["winners"].split(",")]
        )
        done = 3 * len(winners)
        leader = winners[-1] if winners else int(go.get("forehand", "0"))
        return [((leader + i) % 3, card) for i, card in enumerate(played[done:])]

    # -- asking -----------------------------------------------------------------------------

    def _prompt(self, text: str) -> str:
        try:
            return self._read(text).strip()
        except EOFError:
            raise KeyboardInterrupt from None

    def _ask(self, go: dict[str, str]) -> str:
        phase = go.get("phase")
        if phase == "bid":
            return self._ask_bid(go)
        if phase == "bury":
            return self._ask_bury(go)
        return self._ask_card(go)

    def _ask_bid(self, go: dict[str, str]) -> str:
        legal = go["legal"].split(",")
        choices = "  ".join(
            f"{i + 1}:{bid}" + (f" ({_BID_HELP[bid]})" if bid in _BID_HELP else "")
            for i, bid in enumerate(legal)
        )
        self.console.print(f"Your bid — {choices}")
        while True:
            answer = self._prompt("bid> ").lower()
            if answer.isdigit() and 1 <= int(answer) <= len(legal):
                return legal[int(answer) - 1]
            if answer in legal:
                return answer
            if not answer:
                self.console.print(f"Type {' or '.join(legal)}, or its number.")
                continue
            self.console.print(
                f"[red]'{answer}' is not a bid you can make here:[/] type "
                f"{' or '.join(legal)}, or its number"
            )

    def _ask_bury(self, go: dict[str, str]) -> str:
        hand = sorted(_cards(go["hand"]))
        talon = _cards(go.get("talon", "-"))
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
            return f"{picked[0]} {picked[1]}"

    def _ask_card(self, go: dict[str, str]) -> str:
        hand = sorted(_cards(go["hand"]))
        legal = sorted(_cards(go["legal"]))
        trick = self._current_trick(go)
        contract = go.get("contract", "-")
        soloist = go.get("soloist", "-")
        if not self._announced:  # the person's first card of the deal: say what is played
            self._announced = True
            if contract == "table":
                self.console.print("All passed: table game — take as few tricks as you can.")
            elif soloist != "-":
                if int(soloist) == self._seat:
                    self.console.print(f"You are the soloist ({contract}).")
                else:
                    self.console.print(f"{self._who(int(soloist))} is the soloist ({contract}).")
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
                card = self._pick(answer, legal, hand, led)
            except ValueError as exc:
                self.console.print(f"[red]{exc}[/]")
                continue
            return str(card)

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
