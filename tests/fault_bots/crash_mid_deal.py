#!/usr/bin/env python3
"""Fault bot: plays correctly, then exits with code 3 at its Nth ``go`` (a ``crash``).

Usage: ``crash_mid_deal.py [N]`` (default 3). Plays the first legal action otherwise.
"""

from __future__ import annotations

import sys

import _faultbot


def main() -> None:
    _faultbot.report_pid()
    crash_at = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    goes = 0

    def go(fields: _faultbot.Fields) -> str:
        nonlocal goes
        goes += 1
        if goes >= crash_at:
            sys.exit(3)
        return _faultbot.action(fields)

    _faultbot.serve("CrashMidDeal", go)


if __name__ == "__main__":
    main()
