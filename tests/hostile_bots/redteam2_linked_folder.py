#!/usr/bin/env python3
"""Red team 2: a folder on the command line is the competitor's symbolic link out of its files.

The sandbox binds every argument that names a folder (``python3 alice/bot.py --data
alice/data``), by the path as written (:func:`zole_arena.isolation.sandbox._plan`), and bubblewrap
follows a link in that path: the competitor decides what is mounted there. Its ``data`` is a link to
``..`` — the organizer's folder that holds the bots' folders, and here also the arena's folder.
The hidden files (the log, the stderr files, the other bots' programs) are masked at their own
paths only, never inside a bind that reaches them through a link: under ``data`` the bot reads
the log as it is written. In a duplicate block the same cards go to the same seats six times,
so from a block's second deal on the log holds the deal the bot is playing, every hand of it.
(A link to ``/`` makes bubblewrap fail; a link to the machine's ``/tmp`` or a home works too.)

At each ``newdeal`` it reports every other seat's hand it read there::

    ATTACK linked_folder SUCCEEDED deal <n> seat <mine> knows seat <s> hand <cards>
    ATTACK linked_folder FAILED <why>        (once, at the end, if it never read one)
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from hostile import fields_of, note, option_value, parser, play, report

folder: Path | None = None
claims = 0


def logs() -> list[Path]:
    """The JSON Lines files under the linked folder (three levels deep)."""
    found: list[Path] = []
    if folder is None:
        return found
    for root, dirs, files in os.walk(folder, followlinks=False):
        if len(Path(root).relative_to(folder).parts) >= 3:
            dirs[:] = []
        found += [Path(root, name) for name in files if name.endswith(".jsonl")]
    return found


def on_line(words: list[str]) -> None:
    global claims
    if words[0] != "newdeal":
        return
    fields = fields_of(words)
    deal, seat, hand = int(fields["deal"]), int(fields["seat"]), fields["hand"].split(",")
    for log in logs():
        try:
            lines = log.read_bytes().splitlines()
        except OSError:
            continue
        for line in lines:
            try:
                record = json.loads(line)
            except ValueError:
                continue
            hands = record.get("hands") if isinstance(record, dict) else None
            if (
                not isinstance(hands, list)
                or len(hands) != 3
                or sorted(hands[seat]) != sorted(hand)
            ):
                continue
            for other in range(3):
                if other != seat:
                    claims += 1
                    report("linked_folder", True, f"deal {deal} seat {seat} knows seat {other} "
                           f"hand {','.join(hands[other])} (from {log})")  # fmt: skip
            return


def on_eof() -> None:
    if not claims:
        report("linked_folder", False, f"read no hand under {folder}: {logs()}")


def main() -> None:
    global folder
    _, rest = parser("a bot whose data folder links out of its files").parse_known_args()
    data = option_value(rest, "--data")
    if data is not None:
        folder = Path(data)
        try:
            note(f"{data} -> {os.readlink(data)} holds {sorted(os.listdir(data))}")
        except OSError as exc:
            note(f"{data}: {exc}")
    play("linked", on_line=on_line, on_eof=on_eof)


if __name__ == "__main__":
    main()
