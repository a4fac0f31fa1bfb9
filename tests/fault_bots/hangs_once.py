#!/usr/bin/env python3
"""Fault bot: plays correctly, but at its Nth ``go`` stops answering (a ``timeout``) — once:
a restarted copy plays on correctly.

Usage: ``hangs_once.py [N]`` (default 5). "Once" is kept in a file beside
``$ZOLE_BOT_FAULT_PIDS`` (``….hung``), made when it hangs. Plays the first legal action otherwise.
"""

from __future__ import annotations

import os
import sys

import _faultbot


def main() -> None:
    _faultbot.report_pid()
    hang_at = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    marker = os.environ.get("ZOLE_BOT_FAULT_PIDS", "hangs_once") + ".hung"
    goes = 0
    hung = False

    def go(fields: _faultbot.Fields) -> str | None:
        nonlocal goes, hung
        goes += 1
        if hung or (goes == hang_at and not os.path.exists(marker)):
            if not hung:
                open(marker, "w").close()
            hung = True
            return None  # never answers again
        return _faultbot.action(fields)

    _faultbot.serve("HangsOnce", go)


if __name__ == "__main__":
    main()
