#!/usr/bin/env python3
"""Two bots of the think-time tests (``tests/test_fixed_pace.py``), both playing first legal.

* ``tell``: thinks ``--per-trump`` milliseconds for every trump it was dealt, at every decision —
  the way a searching bot takes longer with a strong hand (searchbot's passes: 42 ms median
  with three trumps or fewer, 237 ms with five or more).
* ``spy``: times how long it waits from each of its answers to its next request (the others'
  thinking in between) and writes each wait on stderr with what happened in between,
  ``WAIT <deal> <ms> <other seats that played a card> <bids>``, for the test to set against the
  tell's hand.
"""

from __future__ import annotations

import argparse
import sys
import time

TRUMPS = frozenset(["QC", "QS", "QH", "QD", "JC", "JS", "JH", "JD", "AD", "TD", "KD", "9D", "8D",
                    "7D"])  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("role", choices=("tell", "spy"))
    parser.add_argument("--per-trump", type=float, default=10.0)
    args = parser.parse_args()
    answered: float | None = None
    deal = "0"
    dealt = 0
    seat = "-"
    cards: list[str] = []
    bids = 0
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "card" and words[1] != seat:  # (its own card's event comes later too)
            cards.append(words[1])
        bids += words[0] == "bid"
        if words[0] == "newdeal":
            fields = dict(zip(words[1::2], words[2::2], strict=False))
            dealt = sum(card in TRUMPS for card in fields["hand"].split(","))
            seat = fields["seat"]
        if words[0] == "zole":
            print(f"id name {args.role}", "zoleok 1", sep="\n", flush=True)
        elif words[0] == "isready":
            print("readyok", flush=True)
        elif words[0] == "go":
            now = time.monotonic()
            fields = dict(zip(words[1::2], words[2::2], strict=False))
            if args.role == "spy" and answered is not None and fields["deal"] == deal:
                wait = (now - answered) * 1000
                seats = ",".join(sorted(cards)) or "-"
                print(f"WAIT {deal} {wait:.3f} {seats} {bids}", file=sys.stderr, flush=True)
            deal = fields["deal"]
            if args.role == "tell":
                time.sleep(dealt * args.per_trump / 1000)
            legal = fields["legal"].split(",")
            print("action", fields["id"], *legal[: 2 if fields["phase"] == "bury" else 1],
                  flush=True)  # fmt: skip
            answered = time.monotonic()
            cards, bids = [], 0
        elif words[0] == "quit":
            break


if __name__ == "__main__":
    main()
