#!/usr/bin/env python3
"""Fault bot: starts a long-sleeping child process, then crashes (exit 4) at its first ``go``.

The child inherits the bot's pipes and process group; it must not outlive the arena. The bot
tells its child's pid in an ``info child <pid>`` line during the handshake, on stderr, and in
``$ZOLE_BOT_FAULT_PIDS`` (as ``child <pid>``).
"""

from __future__ import annotations

import os
import subprocess
import sys

import _faultbot


def main() -> None:
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    _faultbot.report_pid(child.pid)
    print(f"child {child.pid}", file=sys.stderr, flush=True)

    def crash(fields: _faultbot.Fields) -> str:
        os._exit(4)  # no clean-up: the child is left running

    _faultbot.serve(
        "ChildThenDies", crash, on_zole=lambda: print(f"info child {child.pid}", flush=True)
    )


if __name__ == "__main__":
    main()
