#!/usr/bin/env python3
"""An honest bot that needs a fixed amount of CPU time for each decision.

At each ``go`` it computes until its process has used ``--cpu-ms`` (150) milliseconds of CPU
time, then answers with a random legal action, and writes ``DECIDED cpu_ms=C wall_ms=W`` to
stderr. It computes nothing while it is not asked: whatever slows it down is its rivals'.
"""

from __future__ import annotations

import argparse
import random
import sys
import time


def main() -> None:
    args = argparse.ArgumentParser(description=__doc__)
    args.add_argument("--cpu-ms", type=float, default=150.0)
    need = args.parse_args().cpu_ms / 1000
    rng = random.Random()
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "zole":
            print("id name cpu\nzoleok 1", flush=True)
        elif words[0] == "isready":
            print("readyok", flush=True)
        elif words[0] == "go":
            wall, cpu = time.monotonic(), time.process_time()
            while time.process_time() - cpu < need:
                pass
            sys.stderr.write(f"DECIDED cpu_ms={(time.process_time() - cpu) * 1000:.0f} "
                             f"wall_ms={(time.monotonic() - wall) * 1000:.0f}\n")  # fmt: skip
            sys.stderr.flush()
            fields = dict(zip(words[1::2], words[2::2], strict=False))
            legal = fields["legal"].split(",")
            answer = " ".join(rng.sample(legal, 2)) if fields["phase"] == "bury" else (
                rng.choice(legal))  # fmt: skip
            print(f"action {fields['id']} {answer}", flush=True)
        elif words[0] == "quit":
            break


if __name__ == "__main__":
    main()
