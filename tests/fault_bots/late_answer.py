#!/usr/bin/env python3
"""Fault bot: answers every ``go`` correctly but too late, then goes on reading.

It sleeps the request's ``time`` plus EXTRA seconds (``late_answer.py [EXTRA]``, default 0.3)
before each answer, so the answer to one request arrives while the arena waits for the next.
"""

from __future__ import annotations

import sys
import time

import _faultbot


def main() -> None:
    _faultbot.report_pid()
    extra = float(sys.argv[1]) if len(sys.argv) > 1 else 0.3

    def late(fields: _faultbot.Fields) -> str:
        time.sleep(int(fields["time"]) / 1000 + extra)
        return _faultbot.action(fields)

    _faultbot.serve("LateAnswer", late)


if __name__ == "__main__":
    main()
