#!/usr/bin/env python3
"""Hostile bot: tries to run script in whoever opens a report of its games. Its handshake
names it and its author in markup, and it answers every ``go`` with a line of markup (a
garbage answer, logged with its text), hoping a report pastes them into the page."""

from __future__ import annotations

import sys

NAME = '<img src=x onerror="document.title=1">'
AUTHOR = "</script><script>document.title='pwned'</script>"
ANSWER = "<script>document.title='pwned'</script><b id=injected>x</b>"


def main() -> None:
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "zole":
            print(f"id name {NAME}\nid author {AUTHOR}\nzoleok 1", flush=True)
        elif words[0] == "isready":
            print("readyok", flush=True)
        elif words[0] == "go":
            fields = dict(zip(words[1::2], words[2::2], strict=False))
            print(f"action {fields['id']} {ANSWER}", flush=True)
        elif words[0] == "quit":
            break


if __name__ == "__main__":
    main()
