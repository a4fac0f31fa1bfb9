#!/usr/bin/env python3
"""Fault bot: answers a ``go`` with one line of over 1 MiB (a ``flood``)."""

from __future__ import annotations

import _faultbot

HUGE = 1024 * 1024


def main() -> None:
    _faultbot.report_pid()
    _faultbot.serve("HugeLine", lambda fields: f"action {fields['id']} " + "X" * HUGE)


if __name__ == "__main__":
    main()
