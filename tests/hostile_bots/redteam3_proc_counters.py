#!/usr/bin/env python3
"""Red team 3: the machine's counters in ``/proc`` as a channel between sandboxes.

Free memory, forks, the load, idle time, open files: ``/proc`` shows them for the whole
machine, so what one bot does (hold memory, fork, spin, open files) another sees. This bot
checks the channel against itself, at start: it reads every such file, then holds 64 MiB,
forks 20 children, opens 200 files and spins a moment, and reads them again. A file that
changed (to within what the rest of the machine could have done) carries bits.

    ATTACK proc_counters SUCCEEDED changed: <files>
    ATTACK proc_counters FAILED nothing changed (<files read>)
"""

from __future__ import annotations

import os
import time

from hostile import parser, play, report

FILES = ("meminfo", "stat", "loadavg", "uptime", "vmstat", "sys/fs/file-nr")


def read() -> dict[str, str]:
    found = {}
    for name in FILES:
        try:
            with open(f"/proc/{name}") as handle:
                found[name] = handle.read()
        except OSError:
            pass
    return found


def field(text: str, key: str) -> int | None:
    for line in text.splitlines():
        words = line.replace(":", " ").split()
        if words and words[0] == key and len(words) > 1:
            return int(words[1])
    return None


def main() -> None:
    parser("a bot that signals through the machine's counters").parse_known_args()
    before = read()
    held = bytearray(64 * 1024 * 1024)
    held[::4096] = b"\x01" * len(range(0, len(held), 4096))
    for _ in range(20):
        pid = os.fork()
        if pid == 0:
            os._exit(0)
        os.waitpid(pid, 0)
    files = [os.open("/etc/hostname", os.O_RDONLY) for _ in range(200)]
    end = time.process_time() + 0.2
    while time.process_time() < end:
        pass
    after = read()
    changed = []
    free_before, free_after = (field(t.get("meminfo", ""), "MemFree") for t in (before, after))
    if free_before is not None and free_after is not None and free_before - free_after > 32768:
        changed.append("meminfo")
    forks_before, forks_after = (field(t.get("stat", ""), "processes") for t in (before, after))
    if forks_before is not None and forks_after is not None and forks_after - forks_before >= 20:
        changed.append("stat")
    nr = [t.get("sys/fs/file-nr", "").split()[:1] for t in (before, after)]
    if nr[0] and nr[1] and int(nr[1][0]) - int(nr[0][0]) >= 150:
        changed.append("sys/fs/file-nr")
    if before.get("uptime") != after.get("uptime"):
        changed.append("uptime")
    if before.get("vmstat") != after.get("vmstat"):
        changed.append("vmstat")
    for fd in files:
        os.close(fd)
    del held
    if changed:
        report("proc_counters", True, "changed: " + ",".join(changed))
    else:
        report("proc_counters", False, f"nothing changed ({','.join(sorted(before))})")
    play("proc-counters")


if __name__ == "__main__":
    main()
