#!/usr/bin/env python3
"""Hostile bot: dodges a per-process memory limit by sharing the work among children.

At start, before the handshake, it starts ``--children`` (8) children that each allocate
``--mib`` (200) MiB and write to every page of it (so that the memory is really used, not
merely reserved), then hold it. Each tells the bot on a pipe whether it got its memory; a
child that fails or is killed (a memory cgroup's OOM killer takes the children first: they
raise their ``oom_score_adj``) counts as not. With every child answered, the bot reports
``memory-family`` — SUCCEEDED when the children together held more than ``--over`` MiB (the
limit the test set) at once — lets them go and plays.
"""

from __future__ import annotations

import contextlib
import os
import select
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hostile

PAGE = 4096
WAIT_S = 30.0


def child(mib: int, answer: int, release: int) -> None:
    with contextlib.suppress(OSError), open("/proc/self/oom_score_adj", "w") as handle:
        handle.write("1000")
    try:
        size = mib * 1024 * 1024
        block = bytearray(size)
        block[::PAGE] = b"\x01" * len(range(0, size, PAGE))  # touch every page
    except MemoryError:
        os.write(answer, b"no MemoryError\n")
        os._exit(1)
    os.write(answer, b"ok\n")
    os.read(release, 1)  # hold the memory until the bot lets go (or dies)
    os._exit(0)


def attack(children: int, mib: int, over: int) -> None:
    release_r, release_w = os.pipe()
    answers: dict[int, int] = {}
    pids = []
    for _ in range(children):
        read_end, write_end = os.pipe()
        try:
            pid = os.fork()
        except OSError as exc:
            hostile.note(f"fork: {hostile.why(exc)}")
            os.close(read_end)
            os.close(write_end)
            break
        if pid == 0:
            os.close(read_end)
            os.close(release_w)
            child(mib, write_end, release_r)
        os.close(write_end)
        answers[read_end] = pid
        pids.append(pid)
    os.close(release_r)
    got = 0
    said: list[str] = []
    deadline = time.monotonic() + WAIT_S
    while answers and time.monotonic() < deadline:
        ready, _, _ = select.select(list(answers), [], [], deadline - time.monotonic())
        for fd in ready:
            text = os.read(fd, 100).decode().strip() or "killed"
            said.append(text)
            got += text == "ok"
            os.close(fd)
            del answers[fd]
    held = got * mib
    hostile.report(
        "memory-family",
        held > over,
        f"{got} of {children} children held {mib} MiB each at once ({held} MiB, limit {over} "
        f"MiB; answers: {','.join(sorted(set(said)))})",
    )
    os.close(release_w)
    for pid in pids:
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
