"""Warming the page cache: every file the bots may read, in memory before they start.

The page cache is the machine's, shared by every sandbox, and it outlives processes. A page
of a file that nobody has read since the machine started comes from the disk (some 85 µs
here); once read it comes from memory (1 µs). So a bot's process can *write* a bit by reading
a page, and any later process *read* it by timing its own read: the seating process of a
duplicate block that plays a deal first leaves its hand in the pages of some large system
file, and the bot's later seatings of the same deal read it (a red team measured 11,000 to
26,000 bits a second, without an error). The sandbox refuses every call that evicts or
inspects a page without reading it (``posix_fadvise``, ``mincore``, ``madvise`` paging out,
``preadv2``'s ``RWF_NOWAIT``): a page, once in memory, stays there for the bots.

:func:`warm` closes the channel by reading every file a bot may read into memory before the
bots start: then no page is left to flip. It costs the size of those files in memory (the
system's folders are most of it: 6 GB on the development machine) and, the first time after
the machine starts, the time to read them from the disk (40 s there); after that, a pass
over files already in memory takes a few seconds.
"""

from __future__ import annotations

import dataclasses
import os
import stat
import sys
import time
from collections.abc import Iterable, Sequence

from zole_arena.isolation.sandbox import SYSTEM_DIRS, library_folder, readable_paths

__all__ = ["WarmResult", "bot_roots", "warm"]

_CHUNK = 1024 * 1024


@dataclasses.dataclass(frozen=True)
class WarmResult:
    """What a warming pass read."""

    roots: tuple[str, ...]
    files: int
    bytes: int
    seconds: float
    unreadable: int
    """Files that could not be opened or read (no bot can read them either, as a rule)."""


def bot_roots(
    commands: Iterable[Sequence[str]],
    cwd: str,
    readable: Iterable[str] = (),
    *,
    system: bool = True,
) -> list[str]:
    """The files and folders sandboxed bots started as ``commands`` in ``cwd`` may read: the
    system's folders (unless ``system`` is false), each bot's own (:func:`readable_paths`),
    the arena's library and the installation it runs from (a bot started as ``python3`` with
    the arena's virtual environment first on ``PATH`` reads it), and ``readable``
    (``--sandbox-read``)."""
    roots: list[str] = [d for d in SYSTEM_DIRS if system and os.path.isdir(d)]
    roots.append(library_folder())
    roots += [sys.prefix, sys.base_prefix] if system else []
    for argv in commands:
        binds, _ = readable_paths(argv, cwd)
        roots += binds
    roots += [os.path.abspath(path) for path in readable]
    real = sorted({os.path.realpath(root) for root in roots if os.path.exists(root)})
    # A root inside another is read with it.
    return [r for r in real if not any(r != o and r.startswith(o.rstrip("/") + "/") for o in real)]


def warm(roots: Iterable[str]) -> WarmResult:
    """Read every regular file under ``roots`` (not following symbolic links, not leaving
    their file systems) once, into the page cache."""
    roots = tuple(roots)
    buffer = bytearray(_CHUNK)
    files = size = unreadable = 0
    start = time.monotonic()
    for root in roots:
        for path in _files(root):
            try:
                fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY)
            except OSError:
                unreadable += 1
                continue
            try:
                if not stat.S_ISREG(os.fstat(fd).st_mode):
                    continue
                with open(fd, "rb", buffering=0, closefd=False) as handle:
                    while (count := handle.readinto(buffer)) is not None and count > 0:
                        size += count
                files += 1
            except OSError:
                unreadable += 1
            finally:
                os.close(fd)
    return WarmResult(roots, files, size, time.monotonic() - start, unreadable)


def _files(root: str) -> Iterable[str]:
    """Every regular file under ``root`` (or ``root`` itself), on ``root``'s file system."""
    try:
        info = os.lstat(root)
    except OSError:
        return
    if stat.S_ISREG(info.st_mode):
        yield root
        return
    if not stat.S_ISDIR(info.st_mode):
        return
    device = info.st_dev
    for folder, subfolders, names in os.walk(root, followlinks=False):
        kept = []
        for name in subfolders:
            try:
                if os.lstat(os.path.join(folder, name)).st_dev == device:
                    kept.append(name)
            except OSError:
                pass
        subfolders[:] = kept
        for name in names:
            path = os.path.join(folder, name)
            try:
                if stat.S_ISREG(os.lstat(path).st_mode):
                    yield path
            except OSError:
                pass
