#!/usr/bin/env python3
"""Hostile bot: plays random legal actions, and at its first decision writes into the channel
between its tournament worker (its parent process) and the tournament.

``ipc_injector.py MODE [ARG]``, where MODE is what it writes:

- ``pickle MARKER``: a :mod:`multiprocessing.connection` frame (a 4-byte length, then a pickle)
  whose unpickling creates the file MARKER, and a newline: what would have run code in the
  tournament process when workers sent pickles.
- ``forge``: a deal record of its own table made to pass every check a single message can:
  the table's match id, the number, block and seating of the deal due next, its players, a
  real deal's result copied from the log (which it finds on the command line of the
  tournament, its worker's parent), and ``"finished": "forged-by-ipc-injector"``. It is the
  first decision of the table's first deal, so the forged deal 1 comes before the worker's.
- ``other-table``: the same record, said to be of table 1 (not the table its worker plays).
- ``unknown-kind``: ``{"kind":"exec","code":"..."}``.
- ``huge``: five MiB of ``x`` without a newline.

It finds the channel's descriptor on its parent's command line (``python -P -m
zole_arena.events.worker FD``) and first tries to open ``/proc/<parent>/fd/FD``, which
works for a pipe but not for a socket (ENXIO); then takes the descriptor with ``pidfd_getfd``,
which needs the right to trace the worker (root, or Yama's ``ptrace_scope`` 0 for the same
user). It says on stderr what it did: ``cannot open ...``, then ``injecting MODE`` before it writes
(and ``injected MODE`` after, if it is not stopped first) or ``unreachable: ...``.
"""

from __future__ import annotations

import ctypes
import json
import os
import pickle
import random
import struct
import sys
from pathlib import Path

SYS_PIDFD_GETFD = 438  # the same number on every architecture


class _CreatesMarker:
    """Unpickling this calls ``open(MARKER, "w")``: the file appears."""

    def __init__(self, marker: str) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[object, tuple[str, str]]:
        return (open, (self.marker, "w"))


def say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def channel_fd(worker: int) -> int:
    argv = Path(f"/proc/{worker}/cmdline").read_bytes().split(b"\0")
    return int(argv[argv.index(b"zole_arena.events.worker") + 1])


def reach(worker: int, fd: int) -> int | None:
    """A descriptor of the worker's channel in this process, or None."""
    path = f"/proc/{worker}/fd/{fd}"
    say(f"the channel is {os.readlink(path)}")
    try:
        return os.open(path, os.O_WRONLY)
    except OSError as exc:
        say(f"cannot open {path}: {exc}")
    libc = ctypes.CDLL(None, use_errno=True)
    try:
        pidfd = os.pidfd_open(worker)
    except OSError as exc:
        say(f"unreachable: pidfd_open: {exc}")
        return None
    got = libc.syscall(SYS_PIDFD_GETFD, pidfd, fd, 0)
    if got < 0:
        say(f"unreachable: pidfd_getfd: {os.strerror(ctypes.get_errno())}")
        return None
    say("got it with pidfd_getfd")
    return int(got)


def tournament_log() -> Path:
    """The tournament's log: ``--log`` on the command line of the worker's parent, from
    that process's current folder."""
    worker_stat = Path(f"/proc/{os.getppid()}/stat").read_text()
    tournament = int(worker_stat.rsplit(")", 1)[1].split()[1])
    argv = Path(f"/proc/{tournament}/cmdline").read_bytes().decode().split("\0")
    log = Path(argv[argv.index("--log") + 1])
    return log if log.is_absolute() else Path(os.readlink(f"/proc/{tournament}/cwd")) / log


def forged_line(table_of_record: int | None) -> bytes:
    """A deal record of this bot's table, as the worker would send it."""
    log = tournament_log()
    records = [json.loads(line) for line in log.read_text().splitlines()]
    header = records[0]
    # Its table: the first one it sits at (the one being played when it first decides).
    mine = next(i for i, e in enumerate(header["entrants"]) if e["name"] == "injector")
    table = next(n for n, seats in enumerate(header["tables"], start=1) if mine in seats)
    names = [header["entrants"][i]["name"] for i in header["tables"][table - 1]]
    template = next(r for r in records if r["type"] == "deal")
    record = dict(template)
    record.update(
        match_id=f"{header['tournament_id']}-t{table}",
        deal=1,
        block=1,
        seating=[0, 1, 2],
        players=[{"name": name} for name in names],
        finished="forged-by-ipc-injector",
    )
    message = {"kind": "record", "table": table_of_record or table, "record": record}
    return (json.dumps(message, separators=(",", ":")) + "\n").encode()


def payload(mode: str, arg: str | None) -> bytes:
    if mode == "pickle":
        assert arg is not None
        frame = pickle.dumps(_CreatesMarker(arg))
        return struct.pack("!i", len(frame)) + frame + b"\n"
    if mode == "forge":
        return forged_line(None)
    if mode == "other-table":
        return forged_line(1)
    if mode == "unknown-kind":
        return b'{"kind":"exec","code":"import os; os.system(\'touch /tmp/owned\')"}\n'
    if mode == "huge":
        return b"x" * (5 * 1024 * 1024)
    raise SystemExit(f"unknown mode {mode}")


def inject(mode: str, arg: str | None) -> None:
    worker = os.getppid()
    try:
        fd = reach(worker, channel_fd(worker))
    except (OSError, ValueError, IndexError) as exc:  # sandboxed: the parent is the sandbox's
        say(f"unreachable: no worker to be found ({exc})")
        return
    if fd is None:
        return
    # Said first: the tournament may stop this bot as soon as the line is in.
    say(f"injecting {mode}")
    data = memoryview(payload(mode, arg))
    while data:
        data = data[os.write(fd, data) :]
    os.close(fd)
    say(f"injected {mode}")


def main() -> None:
    mode = sys.argv[1]
    arg = sys.argv[2] if len(sys.argv) > 2 else None
    rng = random.Random()
    injected = False
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "zole":
            print("id name IpcInjector\nid author zole-arena tests\nzoleok 1", flush=True)
        elif words[0] == "isready":
            print("readyok", flush=True)
        elif words[0] == "go":
            if not injected:
                injected = True
                inject(mode, arg)
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
