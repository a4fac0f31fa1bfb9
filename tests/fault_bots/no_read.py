#!/usr/bin/env python3
"""Fault bot: does the handshake and answers the first ``isready``, then never reads its input
again (it sleeps), while the arena goes on writing to it."""

from __future__ import annotations

import sys
import time

import _faultbot


def main() -> None:
    _faultbot.report_pid()
    while True:
        line = sys.stdin.readline()
        if not line:
            break  # input closed before the first isready
        words = line.split()
        if not words:
            continue
        if words[0] == "zole":
            print("id name NoRead\nid author zole-arena tests\nzoleok 1", flush=True)
        elif words[0] == "isready":
            print("readyok", flush=True)
            break
    while True:  # never read stdin again
        time.sleep(60)


if __name__ == "__main__":
    main()
