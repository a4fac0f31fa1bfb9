#!/usr/bin/env python3
"""A working bot (random legal moves) that reports what it can see and do, for the sandbox
tests: each finding is one ``FACT name value`` line on its stderr (the tests read the bot's
stderr file).

Options: ``--read PATH`` (repeatable: can it read PATH?), ``--write PATH`` (repeatable: can it
create a file there?), ``--fill-tmp MB`` (how much it can write into /tmp), ``--burn N`` (at
its first decision, start N children that use CPU until killed), ``--stderr-mb N`` (write N MiB
to stderr at start), ``--controls`` (send terminal escape sequences in its name, an info line
and its stderr, then exit at its first decision), ``--ahead`` (after each answer, also write an
answer for the next request id, as if it could guess it).
"""

from __future__ import annotations

import argparse
import os
import random
import socket
import sys


def fact(name: str, value: object) -> None:
    sys.stderr.write(f"FACT {name} {value}\n")
    sys.stderr.flush()


def facts(args: argparse.Namespace) -> None:
    fact("pids", ",".join(sorted((p for p in os.listdir("/proc") if p.isdigit()), key=int)))
    fact("uid", os.getuid())
    fact("env", ",".join(sorted(os.environ)))
    fact("home", os.environ.get("HOME"))
    fact("hostname", socket.gethostname())
    for path in args.read:
        try:
            with open(path, "rb") as handle:
                data = handle.read(64)
            fact("read", f"{path} {'yes' if data else 'empty'}")
        except OSError as exc:
            fact("read", f"{path} no {exc.errno}")
    for path in args.write:
        try:
            with open(path, "w") as handle:
                handle.write("planted\n")
            fact("write", f"{path} yes")
        except OSError as exc:
            fact("write", f"{path} no {exc.errno}")
    if args.fill_tmp:
        written = 0
        try:
            with open("/tmp/fill", "wb") as handle:
                block = b"x" * (1 << 20)
                for _ in range(args.fill_tmp):
                    handle.write(block)
                    handle.flush()
                    written += 1
        except OSError:
            pass
        fact("tmp_mb", written)
    try:
        socket.create_connection(("1.1.1.1", 53), timeout=2).close()
        fact("network", "yes")
    except OSError:
        fact("network", "no")


def burn(count: int) -> None:
    for _ in range(count):
        if os.fork() == 0:
            while True:
                pass


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--read", action="append", default=[])
    parser.add_argument("--write", action="append", default=[])
    parser.add_argument("--fill-tmp", type=int, default=0)
    parser.add_argument("--burn", type=int, default=0)
    parser.add_argument("--stderr-mb", type=int, default=0)
    parser.add_argument("--controls", action="store_true")
    parser.add_argument("--ahead", action="store_true")
    args = parser.parse_args()
    facts(args)
    if args.stderr_mb:
        chunk = "e" * 1023 + "\n"
        for _ in range(args.stderr_mb * 1024):
            sys.stderr.write(chunk)
        sys.stderr.flush()
    rng = random.Random(1)
    burnt = False
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "zole":
            name = "Probe\x1b]0;owned\x07\x1b[2J" if args.controls else "Probe"
            print(f"id name {name}\nzoleok 1", flush=True)
        elif words[0] == "isready":
            print("readyok", flush=True)
        elif words[0] == "go":
            if args.controls:
                print("info string \x1b[31mred\x1b[0m", flush=True)
                sys.stderr.write("dying \x1b[2J\x1b]0;title\x07 now\n")
                sys.stderr.flush()
                sys.exit(3)
            if args.burn and not burnt:
                burnt = True
                burn(args.burn)
            fields = dict(zip(words[1::2], words[2::2], strict=False))
            legal = fields["legal"].split(",")
            if fields["phase"] == "bury":
                answer = " ".join(rng.sample(legal, 2))
            else:
                answer = rng.choice(legal)
            ahead = f"\naction {int(fields['id']) + 1} AHEAD" if args.ahead else ""
            # One write: the early line is there before the arena writes the next request.
            print(f"action {fields['id']} {answer}{ahead}", flush=True)
        elif words[0] == "quit":
            break


if __name__ == "__main__":
    main()
