#!/usr/bin/env python3
"""Fault bot: bids ``pass`` and buries legally, but plays a card it does not hold (``illegal``).

The card is a real Zole card, well formed, that is neither in its hand nor played yet — so it
is never among ``legal``.
"""

from __future__ import annotations

import _faultbot

DECK = "QC QS QH QD JC JS JH JD AD TD KD 9D 8D 7D AC TC KC 9C AS TS KS 9S AH TH KH 9H".split()


def answer(fields: dict[str, str]) -> str:
    legal = fields["legal"].split(",")
    if fields["phase"] == "bid":
        return "pass" if "pass" in legal else legal[0]
    if fields["phase"] == "bury":
        return " ".join(legal[:2])
    seen = set(fields["hand"].split(",")) | set(fields["played"].split(","))
    return next(card for card in DECK if card not in seen)


def main() -> None:
    _faultbot.report_pid()
    _faultbot.serve("IllegalCard", lambda fields: f"action {fields['id']} {answer(fields)}")


if __name__ == "__main__":
    main()
