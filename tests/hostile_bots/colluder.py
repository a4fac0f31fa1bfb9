#!/usr/bin/env python3
"""A colluding entrant: two processes of one author at tables of the same cards.

It relays to searchbot's oracle build (as ``bots/ceiling_bot.py`` does). ``write``: at each
deal's end it appends the deal it saw to a shared file (every seat's played cards; the rest
is the talon or the bury). ``read``: at each new deal it looks its own hand up there and, when
found, appends every hand to each ``go``, so that it plays knowing every card. Usage::

    colluder.py write|read SHARED_FILE PROJECT_ROOT

What ``zole-arena fairplay`` must flag as a pair (``tests/test_fairplay_screen.py``).
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO

sys.path.insert(0, sys.argv[3])

from zole_arena.catalogue.bundled import build_c_program
from zole_arena.game.cards import ALL_CARDS_MASK, cards, mask_of, names_of


def relay(source: IO[str]) -> None:
    """Copies the search's answers to the arena."""
    for line in source:
        sys.stdout.write(line)
        sys.stdout.flush()


def told(shared: Path, seat: int, hand: int) -> str:
    """The ``oracle…`` fields for ``hand`` if the other process wrote its deal, else ""."""
    if not shared.exists():
        return ""
    for entry in shared.read_text().splitlines():
        hands, rest = json.loads(entry)
        for j in range(3):
            if hand & ~(hands[j] | rest) == 0:  # my cards were that seat's (and the talon's)
                mine = [hands[(s - seat + j) % 3] for s in range(3)]
                extra = "".join(f" oracle{s} {names_of(mine[s])}" for s in range(3))
                return extra + f" oracletalon {names_of(rest)}"
    return ""


def main() -> None:
    role, shared, root = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
    program = build_c_program(
        root / "bots" / "c" / "searchbot.c", "searchbot-ceiling", defines=("SEARCHBOT_ORACLE",)
    )
    search = subprocess.Popen(
        [str(program)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
    )
    assert search.stdin is not None and search.stdout is not None
    threading.Thread(target=relay, args=(search.stdout,), daemon=True).start()
    played, extra = [0, 0, 0], ""
    for line in sys.stdin:
        words = line.split()
        if words[:1] == ["newdeal"]:
            fields = dict(zip(words[1::2], words[2::2], strict=False))
            hand = mask_of(cards(fields["hand"].replace(",", " ")))
            played, extra = [0, 0, 0], ""
            if role == "read":
                extra = told(shared, int(fields["seat"]), hand)
        elif words[:1] == ["card"]:
            played[int(words[1])] |= mask_of(cards(words[2]))
        elif words[:1] == ["result"] and role == "write":
            if all(m.bit_count() == 8 for m in played):
                rest = ALL_CARDS_MASK & ~(played[0] | played[1] | played[2])
                with open(shared, "a") as out:
                    out.write(json.dumps([played, rest]) + "\n")
        elif words[:1] == ["go"] and extra:
            line = line.rstrip("\n") + extra + "\n"
        search.stdin.write(line)
        search.stdin.flush()
        if words[:1] == ["quit"]:
            break
    search.stdin.close()
    search.wait()


if __name__ == "__main__":
    main()
