#!/usr/bin/env python3
"""A bot that spends its game clock on purpose, written from the protocol page alone.

``python3 clock_bot.py MODE [FILE]``; every decision answers the first legal action, after
thinking (sleeping) for a time the mode chooses from the ``go`` line:

* ``share``: 80% of ``time`` (the arena's fair share of the clock): it must never flag;
* ``clock``: 60% of the clock it had at its first decision of the deal, far more than its
  share: the first decision is within the clock, the second is not (the clock, not the share,
  is the limit);
* ``burn``: 80% of ``time``, computing (CPU time, not sleep);
* ``instant``: no thinking at all.

Each ``go``'s ``time``, ``clock`` and ``inc`` fields (``-`` when absent) are appended to FILE
as ``go TIME CLOCK INC``, one line per request.
"""

from __future__ import annotations

import sys
import time


def fields(words: list[str]) -> dict[str, str]:
    return {words[i]: words[i + 1] for i in range(1, len(words) - 1, 2)}


def main() -> None:
    mode = sys.argv[1]
    notes = open(sys.argv[2], "a") if len(sys.argv) > 2 else None  # noqa: SIM115
    first_clock: int | None = None
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "zole":
            print(f"id name Clock-{mode}\nid author zole-arena tests\nzoleok 1", flush=True)
        elif words[0] == "newdeal":
            first_clock = None
        elif words[0] == "isready":
            print("readyok", flush=True)
        elif words[0] == "go":
            f = fields(words)
            if notes is not None:
                notes.write(f"go {f['time']} {f.get('clock', '-')} {f.get('inc', '-')}\n")
                notes.flush()
            if mode == "share":
                time.sleep(0.8 * int(f["time"]) / 1000)
            elif mode == "burn":
                until = time.monotonic() + 0.8 * int(f["time"]) / 1000
                while time.monotonic() < until:
                    pass
            elif mode == "clock":
                if first_clock is None:
                    first_clock = int(f.get("clock", f["time"]))
                time.sleep(0.6 * first_clock / 1000)
            legal = f["legal"].split(",")
            answer = " ".join(legal[:2]) if f["phase"] == "bury" else legal[0]
            print(f"action {f['id']} {answer}", flush=True)
        elif words[0] == "quit":
            break


if __name__ == "__main__":
    main()
