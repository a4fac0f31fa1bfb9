#!/usr/bin/env python3
"""Fault bot: plays correctly, but at its Nth ``go`` stops answering (a ``timeout``) — once:
a restarted copy plays on correctly.

Usage: ``hangs_once.py [N]`` (default 5). "Once" is kept in a file beside
``$ZOLE_BOT_FAULT_PIDS`` (``….hung``), made when it hangs. Plays the first legal action otherwise.
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
    hang_at = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    marker = os.environ.get("ZOLE_BOT_FAULT_PIDS", "hangs_once") + ".hung"
    goes = 0
    hung = False
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "zole":
            print("id name HangsOnce\nid author zole-arena tests\nzoleok 1", flush=True)
        elif words[0] == "isready":
            print("readyok", flush=True)
        elif words[0] == "go":
            goes += 1
            if hung or (goes == hang_at and not os.path.exists(marker)):
                if not hung:
                    open(marker, "w").close()
                hung = True
                continue  # never answers again
            fields = dict(zip(words[1::2], words[2::2], strict=False))
            print(f"action {fields['id']} {answer(fields)}", flush=True)
        elif words[0] == "quit":
            break


if __name__ == "__main__":
    main()
