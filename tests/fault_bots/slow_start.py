#!/usr/bin/env python3
"""Fault bot: sleeps SECONDS (``slow_start.py SECONDS``, default 1) after ``zole 1`` before it
answers the handshake, then plays the first legal action like a correct bot."""

from __future__ import annotations

import sys
import time

import _faultbot


def main() -> None:
    _faultbot.report_pid()
    delay = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
    _faultbot.serve("SlowStart", _faultbot.action, on_zole=lambda: time.sleep(delay))


if __name__ == "__main__":
    main()
