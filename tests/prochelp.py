"""What tests ask of the process table: a bot's children, whether a process group is gone, and
which processes of a run are still alive (found by a marker in their environment)."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path


def child_pids(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    kids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path("/proc", entry, "stat").read_text()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            kids.append(int(entry))
    return kids


def group_gone(pgid: int) -> bool:
    """No process of the group exists, not even a zombie."""
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return True
    return False


def marked_processes(mark: str) -> list[int]:
    """Live processes whose environment carries ``ZOLE_TEST_RUN=mark``: everything a run
    started (the arena's workers, the bots and their children), wherever they were
    reparented."""
    needle = f"ZOLE_TEST_RUN={mark}".encode()
    found = []
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                if needle in Path(entry.path, "environ").read_bytes().split(b"\0"):
                    found.append(int(entry.name))
    return found
