#!/usr/bin/env python3
"""Fault bot: bids ``pass`` and buries legally, but plays a card it does not hold (``illegal``).

The card is a real Zole card, well formed, that is neither in its hand nor played yet — so it
is never among ``legal``.
"""

from __future__ import annotations

import os
import sys

DECK = "QC QS QH QD JC JS JH JD AD TD KD 9D 8D 7D AC TC KC 9C AS TS KS 9S AH TH KH 9H".split()


def report_pid() -> None:
    path = os.environ.get("ZOLE_BOT_FAULT_PIDS")
    if path:
        with open(path, "a") as file:
            file.write(f"bot {os.getpid()}\n")


def answer(fields: dict[str, str]) -> str:
    legal = fields["legal"].split(",")
    if fields["phase"] == "bid":
        return "pass" if "pass" in legal else legal[0]
    if fields["phase"] == "bury":
        return " ".join(legal[:2])
    seen = set(fields["hand"].split(",")) | set(fields["played"].split(","))
    return next(card for card in DECK if card not in seen)


def main() -> None:
    report_pid()
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "zole":
            print("id name IllegalCard\nid author zole-arena tests\nzoleok 1", flush=True)
        elif words[0] == "isready":
            print("readyok", flush=True)
        elif words[0] == "go":
            fields = dict(zip(words[1::2], words[2::2], strict=False))
            print(f"action {fields['id']} {answer(fields)}", flush=True)
        elif words[0] == "quit":
            break


if __name__ == "__main__":
    main()
