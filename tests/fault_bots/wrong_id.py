#!/usr/bin/env python3
"""Fault bot: answers every ``go`` promptly and legally, but with the id plus 1000 (so: never
the open request's id, which makes a ``timeout``)."""

from __future__ import annotations

import os
import sys


def report_pid() -> None:
    path = os.environ.get("ZOLE_BOT_FAULT_PIDS")
    if path:
        with open(path, "a") as file:
            file.write(f"bot {os.getpid()}\n")


def answer(fields: dict[str, str]) -> str:
    legal = fields["legal"].split(",")
    return " ".join(legal[:2]) if fields["phase"] == "bury" else legal[0]


def main() -> None:
    report_pid()
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "zole":
            print("id name WrongId\nid author zole-arena tests\nzoleok 1", flush=True)
        elif words[0] == "isready":
            print("readyok", flush=True)
        elif words[0] == "go":
            fields = dict(zip(words[1::2], words[2::2], strict=False))
            print(f"action {int(fields['id']) + 1000} {answer(fields)}", flush=True)
        elif words[0] == "quit":
            break


if __name__ == "__main__":
    main()
