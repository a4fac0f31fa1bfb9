#!/usr/bin/env python3
"""Fault bot: exits at once, before the handshake (a ``startup`` fault).

Like every fault bot, it first appends ``bot <pid>`` to the file named by ``$ZOLE_BOT_FAULT_PIDS``
(if set), so that tests can prove that nothing of it is left behind.
"""

from __future__ import annotations

import os
import sys


def report_pid() -> None:
    path = os.environ.get("ZOLE_BOT_FAULT_PIDS")
    if path:
        with open(path, "a") as file:
            file.write(f"bot {os.getpid()}\n")


if __name__ == "__main__":
    report_pid()
    sys.exit(0)
