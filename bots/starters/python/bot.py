#!/usr/bin/env python3
"""starter-python: a small, stateful Zole bot for the zole-arena protocol, version 1.

It keeps the deal's state from the arena's messages (newdeal, bid, card, trick) and answers
every `go` with one of the answers in its `legal` field. Standard library only.

Where to make it stronger: look for the comments marked "STRONGER".
"""

import sys

# Cards as the arena writes them: rank then suit, QC TD 9H.
# Trumps, strongest first; then the plain suits (the arena uses A T K 9 in C, S, H).
TRUMPS = ["QC", "QS", "QH", "QD", "JC", "JS", "JH", "JD", "AD", "TD", "KD", "9D", "8D", "7D"]
PLAIN_RANKS = "ATK987"
PLAIN_SUITS = "CSH"
# One fixed order of all cards, strongest first: its index breaks every tie the same way.
ORDER = TRUMPS + [r + s for s in PLAIN_SUITS for r in PLAIN_RANKS]
POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}


def is_trump(c):
    return c in TRUMPS


def points(c):
    return POINTS.get(c[0], 0)


def power(c):
    """Higher is stronger (an unknown card is the weakest)."""
    return len(ORDER) - ORDER.index(c) if c in ORDER else 0


def category(c):
    """What a card follows: "T" for any trump, else its plain suit."""
    return "T" if is_trump(c) else c[1]


def beats(c, best, led):
    """Does card c beat the card `best` now winning a trick whose led category is `led`?"""
    if is_trump(c):
        return not is_trump(best) or power(c) > power(best)
    return not is_trump(best) and category(c) == led and power(c) > power(best)


def winning(trick):
    """The (seat, card) now winning a trick given as a list of (seat, card)."""
    led = category(trick[0][1])
    best = trick[0]
    for seat, c in trick[1:]:
        if beats(c, best[1], led):
            best = (seat, c)
    return best


def weakest(cards):
    return min(cards, key=power)


def strongest(cards):
    return max(cards, key=power)


class Deal:
    """Everything this seat has seen of the current deal."""

    def __init__(self, fields):
        self.seat = int(fields.get("seat", 0))
        self.allpass = fields.get("allpass", "table")  # table or pule
        self.hand = set(split_list(fields.get("hand", "-")))
        self.bids = []  # (seat, bid) in order
        self.contract = None  # take, zole, smallzole, table, pule; None while bidding
        self.soloist = None
        self.played = []  # every card played this deal, in order
        self.trick = []  # (seat, card) of the trick in progress
        self.buried = set()  # our buried cards, when we are a take soloist

    def on_bid(self, seat, bid):
        self.bids.append((seat, bid))
        if bid != "pass" and self.contract is None:
            self.contract, self.soloist = bid, seat
        elif len(self.bids) == 3 and self.contract is None:
            self.contract = self.allpass

    def on_card(self, seat, c):
        self.played.append(c)
        self.trick.append((seat, c))
        if seat == self.seat:
            self.hand.discard(c)

    def on_trick(self):
        self.trick = []

    def partner(self, seat):
        """True if `seat` plays on our side (never in a table game, never for the soloist)."""
        if self.contract not in ("take", "zole", "smallzole") or seat == self.seat:
            return False
        return self.soloist != self.seat and seat != self.soloist


def split_list(value):
    return [] if value in ("-", "") else value.split(",")


# ---------------------------------------------------------------- decisions


def decide_bid(deal, legal):
    trumps = [c for c in deal.hand if is_trump(c)]
    queens = [c for c in trumps if c[0] == "Q"]
    t, q = len(trumps), len(queens)
    # STRONGER: count sure tricks, aces and voids; weigh the score and the pules.
    if "zole" in legal and (t >= 7 or (t >= 6 and q >= 3)):
        return "zole"
    if "take" in legal and (t >= 6 or (t >= 5 and q >= 2)):
        return "take"
    return "pass" if "pass" in legal else legal[0]


def decide_bury(deal, legal):
    """Bury the two plain cards worth most (shorter suit first); low trumps fill in."""
    plain = [c for c in legal if not is_trump(c)]
    length = {s: sum(1 for c in plain if c[1] == s) for s in PLAIN_SUITS}
    plain.sort(key=lambda c: (-points(c), length[c[1]], -power(c)))
    trumps = sorted((c for c in legal if is_trump(c)), key=power)
    # STRONGER: keep an ace that wins a trick by itself; void a suit to ruff it later.
    return (plain + trumps)[:2]


def decide_lead(deal, legal):
    if deal.contract == "table":
        return weakest(legal)
    if deal.soloist == deal.seat:
        trumps = [c for c in legal if is_trump(c)]
        if trumps:
            top = strongest(trumps)
            out = [
                c
                for c in TRUMPS
                if c not in deal.played and c not in deal.hand and c not in deal.buried
            ]
            if all(power(top) > power(c) for c in out):
                return top  # it wins for sure
            return weakest(trumps)
        # STRONGER: lead a suit a defender is known to be void in only when it pays.
        return max(legal, key=lambda c: (points(c), power(c)))
    aces = [c for c in legal if c[0] == "A" and not is_trump(c)]
    if aces:
        return strongest(aces)
    # STRONGER: lead through the soloist into a suit the partner is void in.
    return min(legal, key=lambda c: (points(c), power(c)))


def decide_follow(deal, legal):
    led = category(deal.trick[0][1])
    win_seat, win_card = winning(deal.trick)
    winners = [c for c in legal if beats(c, win_card, led)]
    if deal.contract == "table":
        losers = [c for c in legal if c not in winners]
        # STRONGER: the third player sees the whole trick; an early player only guesses.
        return strongest(losers) if losers else weakest(legal)
    if deal.partner(win_seat) and len(deal.trick) == 2:
        # Our side wins and we play last: add as many points as we can.
        return max(legal, key=lambda c: (points(c), -power(c)))
    if winners:
        return min(winners, key=lambda c: (points(c), power(c)))
    # STRONGER: as second player, give points when the partner plays last and can win.
    return min(legal, key=lambda c: (points(c), power(c)))


def decide(deal, fields):
    legal = split_list(fields.get("legal", "-"))
    phase = fields.get("phase")
    if phase == "bid":
        return decide_bid(deal, legal)
    if phase == "bury":
        deal.hand = set(legal)  # our 8 cards and the talon
        bury = decide_bury(deal, legal)
        deal.buried = set(bury)
        deal.hand -= deal.buried
        return " ".join(bury)
    # Play. Trust `legal` over our own state: a restarted soloist did not see its talon.
    deal.hand |= set(legal)
    deal.buried |= set(split_list(fields.get("buried", "-")))
    deal.hand -= deal.buried
    if deal.contract is None and fields.get("contract", "-") != "-":
        deal.contract = fields["contract"]  # should not happen: the bids tell it
        deal.soloist = None if fields["soloist"] == "-" else int(fields["soloist"])
    choice = decide_follow(deal, legal) if deal.trick else decide_lead(deal, legal)
    return choice if choice in legal else legal[0]


# ---------------------------------------------------------------- protocol


def send(line):
    # Flush after every line: an answer left in the buffer is a timeout.
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def main():
    deal = None
    for line in sys.stdin:  # line by line until EOF
        words = line.split()
        if not words:
            continue
        cmd, args = words[0], words[1:]
        try:
            if cmd == "zole":
                send("id name starter-python")
                send("id author zole-arena starter")
                send("zoleok 1")
            elif cmd == "isready":
                send("readyok")
            elif cmd == "newdeal":
                # A new deal (deal 1 may start a new match): start over.
                deal = Deal(dict(zip(args[0::2], args[1::2])))
            elif cmd == "bid" and deal and len(args) >= 2:
                deal.on_bid(int(args[0]), args[1])
            elif cmd == "card" and deal and len(args) >= 2:
                deal.on_card(int(args[0]), args[1])
            elif cmd == "trick" and deal:
                deal.on_trick()
            elif cmd == "go":
                fields = dict(zip(args[0::2], args[1::2]))
                if deal is None:  # should not happen: newdeal comes first
                    deal = Deal(fields)
                send(f"action {fields['id']} {decide(deal, fields)}")
            elif cmd == "quit":
                break
            # Anything else (setoption, result, unknown lines) needs no answer.
        except Exception as error:  # never die on one odd line; say why on stderr
            print(f"starter-python: {error!r} on: {line.strip()}", file=sys.stderr)
            if cmd == "go":
                legal = split_list(fields.get("legal", "-"))
                answer = " ".join(legal[:2]) if fields.get("phase") == "bury" else legal[0]
                send(f"action {fields['id']} {answer}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
