#!/usr/bin/env python3
"""A protocol bot that writes down every line it reads and writes, for the transcript's test,
and misbehaves on request, for the tests of the arena's messages.

``wire_bot.py [RECORD] [--unflushed] [--chatty] [--dies-at-start]``:

* RECORD (``-``: none): a file to append ``> line`` for each line read and ``< line`` for each
  line written, in order;
* ``--unflushed``: print without flushing, as a program writing into a pipe does unless told
  (Python buffers it; ``PYTHONUNBUFFERED`` in its environment would hide that);
* ``--chatty``: before each answer, a line of debugging output on stdout (no protocol message);
* ``--dies-at-start``: write a line on stdout and one on stderr, then exit 3 before the
  handshake ends, as a runtime that cannot start does.

It plays the first legal action (the first two cards when burying).
"""

from __future__ import annotations

import sys

ARGS = sys.argv[1:]
RECORD = ARGS[0] if ARGS and not ARGS[0].startswith("--") and ARGS[0] != "-" else None
FLUSH = "--unflushed" not in ARGS
CHATTY = "--chatty" in ARGS


def note(mark: str, line: str) -> None:
    if RECORD is not None:
        with open(RECORD, "a", encoding="utf-8") as file:
            file.write(f"{mark} {line}\n")


def say(line: str) -> None:
    note("<", line)
    print(line, flush=FLUSH)


def main() -> None:
    if "--dies-at-start" in ARGS:
        print("fatal: cannot load the opening book", flush=True)
        print("Traceback: the book is missing", file=sys.stderr, flush=True)
        sys.exit(3)
    for raw in sys.stdin:
        line = raw.rstrip("\n")
        note(">", line)
        words = line.split()
        if not words:
            continue
        if words[0] == "zole":
            say("id name Wire")
            say("id author zole-arena tests")
            say("zoleok 1")
        elif words[0] == "isready":
            say("readyok")
        elif words[0] == "go":
            fields = dict(zip(words[1::2], words[2::2], strict=False))
            legal = fields["legal"].split(",")
            if CHATTY:
                say(f"thinking about {fields['phase']} in deal {fields['deal']}")
            answer = " ".join(legal[:2]) if fields["phase"] == "bury" else legal[0]
            say(f"action {fields['id']} {answer}")
        elif words[0] == "quit":
            break


if __name__ == "__main__":
    main()
