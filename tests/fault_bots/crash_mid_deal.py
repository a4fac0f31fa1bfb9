#!/usr/bin/env python3
"""Fault bot: plays correctly, then exits with code 3 at its Nth ``go`` (a ``crash``).

Usage: ``crash_mid_deal.py [N]`` (default 3). Plays the first legal action otherwise.
"""

from __future__ import annotations

import os
import sys


def report_pid() -> None:
    path = os.environ.get("ZOLE_BOT_FAULT_PIDS")
    if path:
        with open(path, "a") as file:
            file.write(f"bot {os.getpid()}\n")


def answer(fields: dict[str, str]) -> str:
    legal = fields["legal"].split(",")
    return " ".join(legal[:2]) if fields["phase"] == "bury" else legal[0]


def main() -> None:
    report_pid()
    crash_at = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    goes = 0
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "zole":
            print("id name CrashMidDeal\nid author zole-arena tests\nzoleok 1", flush=True)
        elif words[0] == "isready":
            print("readyok", flush=True)
        elif words[0] == "go":
            goes += 1
            if goes >= crash_at:
                sys.exit(3)
            fields = dict(zip(words[1::2], words[2::2], strict=False))
            print(f"action {fields['id']} {answer(fields)}", flush=True)
        elif words[0] == "quit":
            break


if __name__ == "__main__":
    main()
