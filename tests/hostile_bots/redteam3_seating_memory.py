#!/usr/bin/env python3
"""Red team 3: hold more memory than the bot's limit, spread over its seating processes.

A sandboxed duplicate match starts a process of each bot for each seating of a block (six),
and keeps them all alive. With limits per process, each may hold ``--max-memory-mb``; together
six times as much. At its first ``newdeal`` each process allocates ``--mib`` (70) MiB, writes
to every page (so the memory is really used) and holds it to the end, saying so:

    NOTE holding <mib> MiB

The test sets ``--max-memory-mb`` to less than three processes' worth: the bot must be
stopped there, with a fault that says it ran out of memory.
"""

from __future__ import annotations

from hostile import note, parser, play

PAGE = 4096
held: list[bytearray] = []


def main() -> None:
    args = parser("a bot whose seating processes together hold too much memory")
    args.add_argument("--mib", type=int, default=70)
    mib = args.parse_known_args()[0].mib

    def on_line(words: list[str]) -> None:
        if words[0] == "newdeal" and not held:
            size = mib * 1024 * 1024
            block = bytearray(size)
            block[::PAGE] = b"\x01" * len(range(0, size, PAGE))  # every page, really used
            held.append(block)
            note(f"holding {mib} MiB")

    play("seating-memory", on_line=on_line)


if __name__ == "__main__":
    main()
