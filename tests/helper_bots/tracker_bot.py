#!/usr/bin/env python3
"""A bot that keeps the deal from the event stream and fails loudly when the stream is not one
a match sends.

It keeps its hand from ``newdeal`` and takes out its own cards as ``card`` events name them;
it keeps the bids, the cards played and the trick winners from the events, checks the order of
the players, each trick's points and the rules' fields against the legal bids; and it checks
every ``go`` against all it kept (hand, bids, played cards, winners, the deal's fields) and
every ``result`` against the tricks and the standing (``totals`` = ``newdeal``'s ``scores`` plus
this deal's; and, from one deal to the next of a process, the next deal's ``scores`` are these
``totals``: this bot is for plain matches; a ``newdeal`` of deal 1 begins a new match in the
same process, as at a tournament's next table when bots are kept). On any mismatch it writes
what it found to stderr and exits with code 2, which the arena sees as a crash. It answers
with a random legal action.

Usage: ``tracker_bot.py [--crash-at N MARKER]``: exit with code 3 at its Nth ``go`` instead of
answering, once (a file MARKER is made then; a copy started while it exists plays on). With
``$ZOLE_BOT_FAULT_PIDS`` set, it appends ``bot <pid>`` to that file when it starts and
``quit <pid>`` when it is told to quit.
"""

from __future__ import annotations

import os
import random
import sys
from collections.abc import Sequence

CANONICAL = "QC QS QH QD JC JS JH JD AD TD KD 9D 8D 7D AC TC KC 9C AS TS KS 9S AH TH KH 9H"
ORDER = {name: index for index, name in enumerate(CANONICAL.split())}
POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
DEAL_FIELDS = "deal seat dealer forehand rules scores commonpules personalpules".split()


class Inconsistent(Exception):
    pass


def fields_of(words: Sequence[str]) -> dict[str, str]:
    if len(words) % 2 != 1:
        raise Inconsistent(f"not key-value pairs: {' '.join(words)}")
    return dict(zip(words[1::2], words[2::2], strict=True))


def items(text: str) -> list[str]:
    return [] if text == "-" else text.split(",")


def expect(ok: bool, what: str) -> None:
    if not ok:
        raise Inconsistent(what)


class Tracker:
    def __init__(self) -> None:
        self.deal: dict[str, str] | None = None
        """The open deal's newdeal fields; None between deals."""
        self.last_totals: tuple[int, list[int]] | None = None
        """(deal number, totals) of the last result."""
        self.rng = random.Random(7)

    # -- events ---------------------------------------------------------------------------

    def newdeal(self, fields: dict[str, str]) -> None:
        expect(self.deal is None, "newdeal while a deal is open (no result for the last one)")
        number = int(fields["deal"])
        if number == 1:  # a new match (a tournament's next table): a new standing
            self.last_totals = None
        if self.last_totals is not None:
            last, totals = self.last_totals
            expect(number > last, f"deal {number} after deal {last}")
            if number == last + 1:
                key = "tablescores" if "tablesize" in fields else "scores"
                scores = [int(s) for s in items(fields[key])]
                expect(scores == totals, f"deal {number} {key} {scores}, last totals {totals}")
        hand = items(fields["hand"])
        expect(len(hand) == 8 and len(set(hand)) == 8, f"dealt hand {hand}")
        expect(hand == sorted(hand, key=ORDER.__getitem__), f"hand not strongest first: {hand}")
        contracts = items(fields.get("contracts", "-"))
        expect("take" in contracts, f"the rules' contracts {contracts}")
        expect(fields.get("allpass") in ("table", "pule"), f"allpass {fields.get('allpass')}")
        self.deal = fields
        self.seat = int(fields["seat"])
        self.forehand = int(fields["forehand"])
        self.dealt = hand
        self.bids: list[str] = []
        self.played: list[str] = []
        self.mine: list[str] = []
        """The cards this seat played, from the card events."""
        self.trick: list[tuple[int, str]] = []
        self.winners: list[int] = []
        self.points = [0, 0, 0]
        self.leader = self.forehand
        self.talon: list[str] = []
        """The talon, once a go shows it (to the soloist who took it)."""
        self.my_bury: list[str] | None = None

    def open(self, what: str) -> dict[str, str]:
        expect(self.deal is not None, f"{what} outside a deal (no newdeal before it)")
        assert self.deal is not None
        return self.deal

    def bid(self, seat: int, bid: str) -> None:
        deal = self.open("bid")
        expect(not self.played, "a bid after a card")
        expect(seat == (self.forehand + len(self.bids)) % 3, f"bid by seat {seat} out of turn")
        expect(bid in ["pass", *items(deal["contracts"])], f"bid {bid} not in the rules")
        self.bids.append(bid)

    def card(self, seat: int, card: str) -> None:
        self.open("card")
        expected = (self.leader + len(self.trick)) % 3
        expect(seat == expected, f"card by seat {seat}, seat {expected} was to play")
        expect(card not in self.played, f"{card} played twice")
        if seat == self.seat:  # checked against the hand at the next go (the talon's cards
            self.mine.append(card)  # are known from a go only)
        self.played.append(card)
        self.trick.append((seat, card))

    def trick_done(self, winner: int, points: int) -> None:
        self.open("trick")
        expect(len(self.trick) == 3, f"trick event after {len(self.trick)} cards")
        expect(winner in [seat for seat, _ in self.trick], f"trick won by seat {winner}")
        worth = sum(POINTS[card[0]] for _, card in self.trick)
        expect(points == worth, f"trick of {self.trick} worth {worth}, told {points}")
        self.winners.append(winner)
        self.points[winner] += points
        self.leader = winner
        self.trick = []

    def result(self, fields: dict[str, str]) -> None:
        deal = self.open("result")
        expect(fields["deal"] == deal["deal"], f"result of deal {fields['deal']}")
        expect(not self.trick or fields["forfeit"] != "-", "result in the middle of a trick")
        scores = [int(s) for s in items(fields["scores"])]
        totals = [int(s) for s in items(fields["totals"])]
        before = [int(s) for s in items(deal["scores"])]
        if "tablesize" in fields:  # the sitter pays too: the table's scores are zero-sum
            table = [int(s) for s in items(fields["tablescores"])]
            expect(sum(table) == 0, f"tablescores {table} are not zero-sum")
        else:
            expect(sum(scores) == 0, f"scores {scores} are not zero-sum")
        expect(totals == [b + s for b, s in zip(before, scores, strict=True)],
               f"totals {totals} are not {before} + {scores}")  # fmt: skip
        tricks = [self.winners.count(seat) for seat in range(3)]
        expect(items(fields["tricks"]) == [str(t) for t in tricks], f"tricks {fields['tricks']}")
        if fields["contract"] != "pule":
            expect(items(fields["points"]) == [str(p) for p in self.points],
                   f"points {fields['points']}, the tricks held {self.points}")  # fmt: skip
        if fields["forfeit"] == "-" and fields["contract"] == "pule":
            expect(self.bids == ["pass"] * 3 and deal["allpass"] == "pule", "a pule")
        if self.bids == ["pass"] * 3 and fields["forfeit"] == "-":
            want = {"pule": "pule", "table": "table"}[deal["allpass"]]
            expect(fields["contract"] == want, f"all passed: {fields['contract']} not {want}")
        if "tablesize" in fields:
            totals = [int(s) for s in items(fields["tabletotals"])]
        self.last_totals = (int(deal["deal"]), totals)
        self.deal = None

    # -- requests -------------------------------------------------------------------------

    def go(self, fields: dict[str, str]) -> str:
        deal = self.open("go")
        for key in DEAL_FIELDS:
            expect(fields[key] == deal[key], f"go {key} {fields[key]}, newdeal said {deal[key]}")
        expect(items(fields["bids"]) == self.bids, f"go bids {fields['bids']} not {self.bids}")
        expect(items(fields["played"]) == self.played, f"go played {fields['played']}")
        winners = [str(w) for w in self.winners]
        expect(items(fields["winners"]) == winners, f"go winners {fields['winners']}")
        if self.bids == ["pass"] * 3:
            expect(fields["contract"] == "table", f"all passed: contract {fields['contract']}")
        self.talon = items(fields["talon"])
        buried = items(fields["buried"])
        owned = [*self.dealt, *self.talon]
        expect(all(card in owned for card in self.mine), f"played {self.mine}, held {owned}")
        if self.my_bury is not None:
            expect(sorted(buried) == sorted(self.my_bury), f"go buried {buried}")
        hand = [c for c in owned if c not in buried and c not in self.mine]
        hand.sort(key=ORDER.__getitem__)
        expect(items(fields["hand"]) == hand, f"go hand {fields['hand']}, kept {hand}")
        legal = items(fields["legal"])
        expect(bool(legal), "no legal answer")
        if fields["phase"] == "bid":
            expect(legal == ["pass", *items(deal["contracts"])], f"legal bids {legal}")
            return self.rng.choice(legal)
        if fields["phase"] == "bury":
            expect(legal == hand and len(hand) == 10, f"bury from {legal}")
            self.my_bury = self.rng.sample(legal, 2)
            return " ".join(self.my_bury)
        expect(set(legal) <= set(hand), f"legal cards {legal} not in the hand {hand}")
        return self.rng.choice(legal)


def note(what: str) -> None:
    path = os.environ.get("ZOLE_BOT_FAULT_PIDS")
    if path:
        with open(path, "a") as file:
            file.write(f"{what} {os.getpid()}\n")


def main() -> None:
    note("bot")
    crash_at, marker = None, None
    if len(sys.argv) == 4 and sys.argv[1] == "--crash-at":
        crash_at, marker = int(sys.argv[2]), sys.argv[3]
    tracker = Tracker()
    goes = 0
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        head = words[0]
        try:
            if head == "zole":
                print("id name Tracker\nid author zole-arena tests\nzoleok 1", flush=True)
            elif head == "isready":
                print("readyok", flush=True)
            elif head == "newdeal":
                tracker.newdeal(fields_of(words))
            elif head == "bid":
                tracker.bid(int(words[1]), words[2])
            elif head == "card":
                tracker.card(int(words[1]), words[2])
            elif head == "trick":
                tracker.trick_done(int(words[1]), int(words[2]))
            elif head == "result":
                tracker.result(fields_of(words))
            elif head == "go":
                goes += 1
                if goes == crash_at and marker is not None and not os.path.exists(marker):
                    open(marker, "w").close()
                    sys.exit(3)
                fields = fields_of(words)
                print(f"action {fields['id']} {tracker.go(fields)}", flush=True)
            elif head == "quit":
                note("quit")
                return
        except (Inconsistent, KeyError, ValueError, IndexError) as exc:
            sys.stderr.write(f"tracker: inconsistent stream at {line.strip()!r}: {exc!r}\n")
            sys.stderr.flush()
            sys.exit(2)


if __name__ == "__main__":
    main()
