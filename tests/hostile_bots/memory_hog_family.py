#!/usr/bin/env python3
"""Hostile bot: dodges a per-process memory limit by sharing the work among children.

At start, before the handshake, it starts ``--children`` (8) children that each allocate
``--mib`` (200) MiB, write to every page of it (so that the memory is really used, not merely
reserved) and hold it. Each tells the bot whether it got its memory; a child that fails or is
killed (a memory cgroup's OOM killer takes the children first: they raise their
``oom_score_adj``) counts as not. Once every child has answered, the bot asks those that got
their memory again whether they still hold it (a child killed to make room for a later one
cannot answer), and reports ``memory-family``: SUCCEEDED when the children together held more
than ``--over`` MiB (the limit the test set) at once. Then it lets them go and plays.
"""

from __future__ import annotations

import contextlib
import os
import select
import socket
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hostile

PAGE = 4096
WAIT_S = 30.0


def child(mib: int, line: socket.socket) -> None:
    with contextlib.suppress(OSError), open("/proc/self/oom_score_adj", "w") as handle:
        handle.write("1000")
    try:
        size = mib * 1024 * 1024
        block = bytearray(size)
        block[::PAGE] = b"\x01" * len(range(0, size, PAGE))  # write to every page
    except MemoryError:
        line.sendall(b"no MemoryError\n")
        os._exit(1)
    line.sendall(b"ok\n")
    while line.recv(100):  # "check": still here, memory and all; end of input: let go
        line.sendall(f"held {sum(block[::PAGE]) * PAGE // (1024 * 1024)}\n".encode())
    os._exit(0)


def answers(lines: dict[socket.socket, int]) -> dict[int, str]:
    """What each child says next (``killed`` if it closes its end first), by pid."""
    said: dict[int, str] = {}
    waiting = dict(lines)
    deadline = time.monotonic() + WAIT_S
    while waiting and time.monotonic() < deadline:
        ready, _, _ = select.select(list(waiting), [], [], deadline - time.monotonic())
        for line in ready:
            try:
                text = line.recv(100).decode().strip()
            except OSError:
                text = ""
            said[waiting.pop(line)] = text or "killed"
    return said


def attack(children: int, mib: int, over: int) -> None:
    lines: dict[socket.socket, int] = {}
    for _ in range(children):
        mine, theirs = socket.socketpair()
        try:
            pid = os.fork()
        except OSError as exc:
            hostile.note(f"fork: {hostile.why(exc)}")
            break
        if pid == 0:
            mine.close()
            for other in lines:
                other.close()
            child(mib, theirs)
        theirs.close()
        lines[mine] = pid
    first = answers(lines)
    got = {line: pid for line, pid in lines.items() if first.get(pid) == "ok"}
    for line in got:
        with contextlib.suppress(OSError):
            line.sendall(b"check\n")
    second = answers(got)
    holding = [pid for pid, text in second.items() if text.startswith("held")]
    held = len(holding) * mib
    hostile.report(
        "memory-family",
        held > over,
        f"{len(holding)} of {children} children held {mib} MiB each at once ({held} MiB, limit "
        f"{over} MiB; {len(got)} got it; answers: {','.join(sorted(set(first.values())))})",
    )
    for line in lines:
        line.close()
    for pid in lines.values():
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)


def main() -> None:
    args = hostile.parser(__doc__ or "")
    args.add_argument("--children", type=int, default=8)
    args.add_argument("--mib", type=int, default=200)
    args.add_argument("--over", type=int, default=1024)
    options, _ = args.parse_known_args()
    attack(options.children, options.mib, options.over)
    hostile.play("MemoryHogFamily")


if __name__ == "__main__":
    main()
