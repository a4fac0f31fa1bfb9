#!/usr/bin/env python3
"""A research bot that sees every card: searchbot's own search, told every hand.

It measures the **ceiling of searchbot's method**: how much a bot that samples deals and solves
them with open cards could gain if its samples were always the true deal. It is searchbot built
with ``-DSEARCHBOT_ORACLE`` (in the user's cache, on first use, like the bundled C bots), behind
this relay, which recomputes each deal's cards from the match's seed (the arena's shuffle is
public: ``zole_arena.game.shuffle``) and appends every seat's hand and the talon to each ``go``
line. Only a take's bury stays hidden from its defenders, as from any player.

It cheats by design, so it works only where the seed is known and nothing stops a bot from
using it: give it the match's seed, and play it unsandboxed (``--no-sandbox``)::

    zole-arena match "ceiling=python3 bots/ceiling_bot.py --seed 2026" rulebot rulebot \\
        --duplicate --deals 200 --rules lzf --seed 2026 --no-sandbox

The figures it gave are in ``c/SEARCHBOT.md`` ("The ceiling: the same search with open cards").

``--told PERCENT`` (default 100) tells it the hands in only that share of its deals, decided
per deal from the seed and the deal's number (reproducibly); in the others it plays as
searchbot does. A bot that cheats now and then is what ``zole-arena fairplay`` must catch
(``docs/fairplay.md`` measures how many deals that takes)::

    zole-arena match "ceiling=python3 bots/ceiling_bot.py --seed 7 --told 30" searchbot rulebot \
        --deals 240 --seed 7 --no-sandbox
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO

try:  # the library as installed, else the one this bot came with (a clone, PYTHONPATH)
    import zole_arena  # noqa: F401
except ImportError:
    sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from zole_arena.catalogue.bundled import build_c_program
from zole_arena.errors import NotationError
from zole_arena.game.cards import mask_of, names_of
from zole_arena.game.state import DealState
from zole_arena.sdk.notation import parse_newdeal

#: Deal numbers of the seed tried when the newdeal's own number is not the seed's (a duplicate
#: match numbers every seating's deal).
SEARCH_DEALS = 5000


class Oracle:
    """Finds a deal's cards from the seed and the seat's own hand."""

    def __init__(self, seed: int, told: int = 100) -> None:
        self.seed = seed
        self.told = told
        """The percentage of deals told (see :meth:`tells`)."""

    def tells(self, deal_no: int) -> bool:
        """Whether the deal numbered ``deal_no`` is told: a hash of the seed and the number
        below ``told`` percent, so that a rerun tells the same deals."""
        if self.told >= 100:
            return True
        digest = hashlib.sha256(f"ceiling-told:{self.seed}:{deal_no}".encode()).digest()
        return int.from_bytes(digest[:8], "big") % 10_000 < self.told * 100

    def fields(self, words: list[str]) -> str:
        """The ``oracle…`` fields for the deal a ``newdeal`` begins ("" if it is not found)."""
        try:
            deal = parse_newdeal(words)
        except NotationError:
            return ""
        if not self.tells(deal.deal_no):
            return ""
        mine = mask_of(deal.hand)
        for number in (deal.deal_no, *range(SEARCH_DEALS)):
            state = DealState.from_seed(deal.ruleset, self.seed, number, deal.dealer)
            if mask_of(state.hand(deal.seat)) == mine:
                hands = " ".join(f"oracle{s} {names_of(mask_of(state.hand(s)))}" for s in range(3))
                return f" {hands} oracletalon {names_of(state.talon)}"
        return ""


def _deal_number(words: list[str]) -> int:
    """The ``deal`` field of a ``newdeal`` line (0 when it has none)."""
    fields = dict(zip(words[1::2], words[2::2], strict=False))
    value = fields.get("deal", "0")
    return int(value) if value.isdigit() else 0


def relay(source: IO[str], sink: IO[str]) -> None:
    """Copies the search process's answers to the arena, line by line."""
    for line in source:
        sink.write(line)
        sink.flush()


def _arguments(argv: list[str]) -> tuple[int, int] | None:
    """The seed and the told percentage of the command line, or None when it is not
    ``--seed N [--told PERCENT]`` (in either order)."""
    if len(argv) not in (2, 4):
        return None
    values = dict(zip(argv[::2], argv[1::2], strict=True))
    if len(values) * 2 != len(argv) or not set(values) <= {"--seed", "--told"}:
        return None
    if "--seed" not in values or not all(v.isdigit() for v in values.values()):
        return None
    told = int(values.get("--told", "100"))
    return (int(values["--seed"]), told) if told <= 100 else None


def main(argv: list[str]) -> int:
    parsed = _arguments(argv)
    if parsed is None:
        print(
            "usage: ceiling_bot.py --seed N [--told PERCENT]  (the match's seed; the share of "
            "deals told, default 100)",
            file=sys.stderr,
        )
        return 2
    oracle = Oracle(*parsed)
    source = Path(__file__).resolve().parent / "c" / "searchbot.c"
    program = build_c_program(source, "searchbot-ceiling", defines=("SEARCHBOT_ORACLE",))
    search = subprocess.Popen(
        [str(program)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
    )
    assert search.stdin is not None and search.stdout is not None
    answers = threading.Thread(target=relay, args=(search.stdout, sys.stdout), daemon=True)
    answers.start()
    extra = ""
    for line in sys.stdin:
        tokens = line.split()
        if tokens[:1] == ["newdeal"]:
            extra = oracle.fields(tokens)
            if not extra and oracle.tells(_deal_number(tokens)):
                print("ceiling: this deal is not one of the seed's; playing blind", file=sys.stderr)
        elif tokens[:1] == ["go"] and extra:
            line = line.rstrip("\n") + extra + "\n"
        try:
            search.stdin.write(line)
            search.stdin.flush()
        except BrokenPipeError:
            print("ceiling: the search process has ended", file=sys.stderr)
            return 1
        if tokens[:1] == ["quit"]:
            break
    search.stdin.close()
    search.wait()
    answers.join()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
