#!/usr/bin/env python3
"""Red team: a bot's processes pass whole deals to each other through the dentry cache.

The channel of ``docs/competitions.md`` (*Channels through the shared kernel that are left*):
looking up a name that does not exist leaves a *negative* dentry in the kernel, shared by every
sandbox on the machine, and a later lookup of the same name is faster (about 2 µs instead of
5). No sandbox closes it. This bot uses it to tell its own later processes every deal it saw:

* **Sending**, at each ``result``: for every hand of the deal whose dealt cards it knows (its
  own, and every seat's that played only its own cards: not the soloist, who took the talon),
  it writes the deal's map — for each of the 32 cards the deal seat that played it, or 3 for
  the talon and the buried cards — under a key made of that hand: one name looked up for each
  1 bit (five names a bit, for the timing's errors), and a presence pattern of 16 names, in
  each of four slots (a receiver's own look-ups spoil a slot before anything is sent there).
* **Receiving**, at each ``newdeal``: it times the lookups of its own hand's names. If the
  pattern is there, another process of this bot held the same cards in the same deal seat and
  wrote the map: the bot knows, before its first decision, what every other seat holds.

It reports each deal it knows::

    ATTACK dentry SUCCEEDED deal <n> seat <mine> knows <seat>:<cards> <seat>:<cards>

The test compares the claims with the hands in the log: under duplicate blocks (every seating
a process of its own) and when every table deals the same cards, they are right; under a
movement, and when every table deals its own, no process of the bot ever meets cards another
saw, and there is nothing to receive.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import statistics
import time

from hostile import fields_of, note, parser, play, report

SUITS = "DHSC"
CARDS = [rank + suit for suit in SUITS for rank in "AKQJT987"]
#: Names looked up per bit, and the presence pattern's names.
COPIES = 5
PATTERN = 16
#: Slots a map is written in (each receiver that finds nothing spoils one).
SLOTS = 4
FOLDER = "/usr/lib"

mark = "nomark"
deal: dict[str, str] = {}
hand: list[str] = []
seat = -1
played: dict[str, int] = {}
soloist: int | None = None


def lookup_ns(name: str) -> int:
    """How long looking up a name that does not exist takes."""
    start = time.perf_counter_ns()
    with contextlib.suppress(OSError):
        os.stat(name)
    return time.perf_counter_ns() - start


def key_of(cards: list[str], where: int) -> str:
    return hashlib.sha256((",".join(sorted(cards)) + f"/{where}").encode()).hexdigest()[:12]


def name(key: str, part: str, index: int) -> str:
    return f"{FOLDER}/.zc{mark}-{key}-{part}{index}"


def send(key: str, bits: list[int]) -> None:
    """Write a map under a key, in every slot (a receiver's look-ups spoil a slot: below)."""
    for slot in range(SLOTS):
        for index in range(0, PATTERN, 2):
            lookup_ns(name(key, f"s{slot}p", index))
        for bit_no, bit in enumerate(bits):
            if bit:
                for copy in range(COPIES):
                    lookup_ns(name(key, f"s{slot}b{bit_no}c", copy))


def threshold() -> float:
    """Between a miss and a hit of the dentry cache, measured now on fresh names."""
    fresh = [f"{FOLDER}/.zc{mark}-cal-{os.getpid()}-{time.monotonic_ns()}-{i}" for i in range(24)]
    slow = [lookup_ns(n) for n in fresh]
    fast = [lookup_ns(n) for n in fresh]
    return (statistics.median(slow) + statistics.median(fast)) / 2


def receive(key: str) -> list[int] | None:
    """The map written under a key, or None. Looking a name up leaves its entry, so a slot
    whose pattern a receiver looked at before anything was sent is spoilt (all fast): the
    next slot is tried."""
    limit = threshold()
    for slot in range(SLOTS):
        fast = [lookup_ns(name(key, f"s{slot}p", i)) < limit for i in range(PATTERN)]
        right = sum(1 for index, hit in enumerate(fast) if hit == (index % 2 == 0))
        if right >= PATTERN - 2:
            bits = []
            for bit_no in range(64):
                hits = sum(lookup_ns(name(key, f"s{slot}b{bit_no}c", c)) < limit
                           for c in range(COPIES))  # fmt: skip
                bits.append(1 if hits * 2 > COPIES else 0)
            return bits
        if sum(fast) < PATTERN - 2:  # mostly slow: nothing was ever sent here
            return None
    return None


def on_line(words: list[str]) -> None:
    global hand, seat, soloist
    first = words[0]
    if first == "zole":
        return
    if first == "newdeal":
        fields = fields_of(words)
        deal.clear()
        deal.update(fields)
        hand, seat = fields["hand"].split(","), int(fields["seat"])
        played.clear()
        soloist = None
        bits = receive(key_of(hand, seat))
        if bits is None:
            return
        owner = [bits[2 * i] * 2 + bits[2 * i + 1] for i in range(32)]
        known = [
            f"{other}:" + ",".join(c for c, o in zip(CARDS, owner, strict=True) if o == other)
            for other in range(3)
            if other != seat
        ]
        report("dentry", True, f"deal {fields['deal']} seat {seat} knows {' '.join(known)}")
    elif first == "card" and len(words) == 3:
        played[words[2]] = int(words[1])
    elif first == "result":
        fields = fields_of(words)
        if fields.get("soloist", "-").isdigit():
            soloist = int(fields["soloist"])
        owner = [played.get(card, 3) for card in CARDS]
        bits = [bit for o in owner for bit in (o >> 1, o & 1)]
        hands = {seat: hand}
        for other in range(3):
            if other != soloist:
                hands[other] = [c for c, o in zip(CARDS, owner, strict=True) if o == other]
        for where, cards in hands.items():
            if len(cards) == 8:
                send(key_of(cards, where), bits)
        note(f"sent deal {deal.get('deal')} under {len(hands)} hands")


def main() -> None:
    global mark
    args = parser("a bot whose processes share deals through the dentry cache")
    mark = args.parse_known_args()[0].mark
    play("dentry", on_line=on_line)


if __name__ == "__main__":
    main()
