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


def report_pid(child: int) -> None:
    path = os.environ.get("ZOLE_BOT_FAULT_PIDS")
    if path:
        with open(path, "a") as file:
            file.write(f"bot {os.getpid()}\nchild {child}\n")


def main() -> None:
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    report_pid(child.pid)
    print(f"child {child.pid}", file=sys.stderr, flush=True)
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "zole":
            print(f"info child {child.pid}", flush=True)
            print("id name ChildThenDies\nid author zole-arena tests\nzoleok 1", flush=True)
        elif words[0] == "isready":
            print("readyok", flush=True)
        elif words[0] == "go":
            os._exit(4)  # no clean-up: the child is left running
        elif words[0] == "quit":
            break


if __name__ == "__main__":
    main()
