#!/usr/bin/env python3
"""Red team: in a duplicate match a bot remembers the hands it held earlier in the block.

With ``--duplicate`` every deal of a block is dealt six times, the same cards to the same
seats, while the bots move between seats — and each bot stays one process for the whole
match. So by a block's third deal a bot has held the hand of another seat in that very deal
(and by then it has seen every other seat play all its cards): it knows, at ``newdeal``, before
a card is played, what other players hold. Nothing of the sandbox is needed, only memory.

At each ``newdeal`` it reports every other seat whose hand of this deal it has held itself::

    ATTACK duplicate_memory SUCCEEDED deal <n> seat <mine> knows seat <s> hand <cards>
    ATTACK duplicate_memory FAILED <why>        (once, at the end, if it never knew one)

The test compares the claims with the hands in the log.
"""

from __future__ import annotations

from hostile import fields_of, parser, play, report

#: The deals of one duplicate block (the six seatings of three bots).
BLOCK = 6
held: dict[tuple[int, int], str] = {}
"""(block, seat) -> the hand this bot was dealt there."""
claims = 0


def on_line(words: list[str]) -> None:
    global claims
    if words[0] != "newdeal":
        return
    fields = fields_of(words)
    deal, seat, hand = int(fields["deal"]), int(fields["seat"]), fields["hand"]
    block = (deal - 1) // BLOCK
    held[(block, seat)] = hand
    for other in range(3):
        known = held.get((block, other))
        if other != seat and known is not None:
            claims += 1
            report("duplicate_memory", True,
                   f"deal {deal} seat {seat} knows seat {other} hand {known}")  # fmt: skip


def on_eof() -> None:
    if not claims:
        report("duplicate_memory", False, "never held another seat's hand of a deal")


def main() -> None:
    parser("a bot that remembers duplicate deals").parse_known_args()
    play("duplicate-memory", on_line=on_line, on_eof=on_eof)


if __name__ == "__main__":
    main()
