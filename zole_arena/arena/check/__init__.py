"""Conformance check of a bot against protocol v1 (``zole-arena check``), after fastchess's
``--compliance``.

The check drives a bot through numbered items — start and handshake, options, ping, decisions
from every phase and contract of both presets and of ``lzf`` with its switches on, deals at a
table of four, a full deal of each preset with three copies of the bot, and ``quit`` — and
reports PASS, FAIL or SKIP for each, with the offending line.

Each decision item is a real deal: dealt from a seed, brought by legal moves to the decision
the item is about, and played on from there to its end, the bot playing its seat and the check
the other two (the first legal action each time). The bot is sent what a match sends that
seat: ``newdeal`` with the hand it was dealt, every event in order together with its next
request, ``result`` when the deal ends, and ``quit`` at the end. The items of each rule set
are the deals of one match, one after another, with the scores and pules carried on.

Some decisions follow from the bot's own earlier moves (burying follows a take, the table
game three passes, a soloist's play its bid). Those are asked of a fresh copy of the bot that
joins the deal there, as a match restarts a bot in the middle of a deal: it is told the deal
from its start, its predecessor's moves included; the copy before it has ended its last deal
and been sent ``quit``. After a failed decision the bot is stopped and a fresh copy plays on,
as a match stops a bot that faults and starts it again.

Two items seat four copies of the bot at a table of four (``lzf``, protocol §3 *At a table of
four*): four deals played by the real referee, the dealer sitting each out, so that each copy
plays three deals — ``newdeal`` and ``result`` with the table fields, which a three-player bot
ignores — and sits one out: it is told ``sitout`` and must then answer ``isready`` with
``readyok`` and play the next deal. A bot that said ``id tables 3`` at its handshake is seated
at no table of four by a match, so both items are skipped for it, not failed.
"""

from zole_arena.arena.check.catalogue import (
    FOUR_PLAYING,
    FOUR_SITTING,
    CheckMatch,
    Scenario,
    check_matches,
)
from zole_arena.arena.check.runner import CheckItem, run_check

__all__ = [
    "FOUR_PLAYING",
    "FOUR_SITTING",
    "CheckItem",
    "CheckMatch",
    "Scenario",
    "check_matches",
    "run_check",
]
