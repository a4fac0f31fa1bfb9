#!/usr/bin/env python3
"""Red team 3: a number from one seating process to the next, through the bot's process limit.

All the processes of a bot at a table are limited together; if they shared one count of
processes and threads, a seating process that holds *n* threads would tell every later one
*n*, exactly: the later one counts how many threads it can still start. At its first
``newdeal`` each process counts its headroom (threads started until the kernel refuses one,
then let go), says it, and then holds ``--hold`` (10) threads to the end:

    NOTE headroom <n>

With shares of their own, every seating's headroom is the same; with one shared count, each
later seating's is ``--hold`` smaller than the one before.
"""

from __future__ import annotations

import threading

from hostile import note, parser, play

threading.stack_size(64 * 1024)
held: list[threading.Thread] = []
stop = threading.Event()


def headroom() -> int:
    release = threading.Event()
    started: list[threading.Thread] = []
    while len(started) < 4096:
        thread = threading.Thread(target=release.wait, daemon=True)
        try:
            thread.start()
        except RuntimeError:  # "can't start new thread": the limit
            break
        started.append(thread)
    release.set()
    for thread in started:
        thread.join()
    return len(started)


def main() -> None:
    args = parser("a bot whose seatings count each other's threads")
    args.add_argument("--hold", type=int, default=10)
    hold = args.parse_known_args()[0].hold

    def on_line(words: list[str]) -> None:
        if words[0] == "newdeal" and not held:
            note(f"headroom {headroom()}")
            for _ in range(hold):
                thread = threading.Thread(target=stop.wait, daemon=True)
                thread.start()
                held.append(thread)

    play("thread-count", on_line=on_line)


if __name__ == "__main__":
    main()
