#!/usr/bin/env python3
"""Fault bot: exits at once, before the handshake (a ``startup`` fault).

Like every fault bot, it first appends ``bot <pid>`` to the file named by ``$ZOLE_BOT_FAULT_PIDS``
(if set), so that tests can prove that nothing of it is left behind.
"""

from __future__ import annotations

import sys

import _faultbot

if __name__ == "__main__":
    _faultbot.report_pid()
    sys.exit(0)
