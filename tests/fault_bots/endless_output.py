#!/usr/bin/env python3
"""Fault bot: after a ``go``, writes ``info`` lines for ever and never answers (a ``flood``).

Usage: ``endless_output.py [PAD]``: each line is ``info still thinking <n>``, padded with PAD
more characters (default 0: short lines, so the 10,000-line limit trips first; with a PAD of a
few hundred or more, the 1 MiB limit trips first).
"""

from __future__ import annotations

import itertools
import os
import sys


def report_pid() -> None:
    path = os.environ.get("ZOLE_BOT_FAULT_PIDS")
    if path:
        with open(path, "a") as file:
            file.write(f"bot {os.getpid()}\n")


def main() -> None:
    report_pid()
    pad = " " + "x" * int(sys.argv[1]) if len(sys.argv) > 1 and int(sys.argv[1]) > 0 else ""
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "zole":
            print("id name EndlessOutput\nid author zole-arena tests\nzoleok 1", flush=True)
        elif words[0] == "isready":
            print("readyok", flush=True)
        elif words[0] == "go":
            for n in itertools.count(0, 100):  # 100 lines a write, to flood fast
                sys.stdout.write("".join(f"info still thinking {n + i}{pad}\n" for i in range(100)))
                sys.stdout.flush()
        elif words[0] == "quit":
            break


if __name__ == "__main__":
    main()
