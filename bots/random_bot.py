#!/usr/bin/env python3
"""A Zole bot that plays a random legal action: the smallest complete example of protocol v1.

Stateless: every ``go`` request carries the whole view, so the bot only reads ``legal``.
Standard library only; run it as ``python3 random_bot.py [--seed N]``.
"""

from __future__ import annotations

import random
import sys


def main() -> None:
    rng = random.Random(int(sys.argv[2]) if sys.argv[1:2] == ["--seed"] else None)
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "zole":
            print("id name Random\nid author zole-arena\nid version 1\nzoleok 1", flush=True)
        elif words[0] == "isready":
            print("readyok", flush=True)
        elif words[0] == "go":
            fields = dict(zip(words[1::2], words[2::2], strict=False))
            legal = fields["legal"].split(",")
            if fields["phase"] == "bury":
                answer = " ".join(rng.sample(legal, 2))
            else:
                answer = rng.choice(legal)
            print(f"action {fields['id']} {answer}", flush=True)
        elif words[0] == "quit":
            break


if __name__ == "__main__":
    main()
