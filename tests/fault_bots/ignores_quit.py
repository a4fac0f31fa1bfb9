#!/usr/bin/env python3
"""Fault bot: plays correctly, but ignores ``quit``, ignores SIGTERM, SIGINT and SIGHUP, and
sleeps on when its input is closed — only SIGKILL ends it."""

from __future__ import annotations

import signal
import time

import _faultbot


def main() -> None:
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGPIPE):
        signal.signal(sig, signal.SIG_IGN)
    _faultbot.report_pid()
    _faultbot.serve("IgnoresQuit", _faultbot.action, quits=False)  # "quit" is read on past
    while True:  # input closed: sleep on
        time.sleep(60)


if __name__ == "__main__":
    main()
