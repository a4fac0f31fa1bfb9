"""``zole-arena warm``: every file a sandboxed bot may read is in memory afterwards, so that
no page is left for one bot to flip by reading it and another to time (docs/competitions.md).

Residency is read with ``mincore`` from this test's own process (outside any sandbox, where
the call is allowed), on a file whose pages the test first drops from memory.
"""

from __future__ import annotations

import ctypes
import json
import mmap
import os
import subprocess
import sys
from pathlib import Path

from zole_arena.isolation.sandbox import SYSTEM_DIRS, library_folder
from zole_arena.isolation.warm import bot_roots

libc = ctypes.CDLL(None, use_errno=True)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int,
                      ctypes.c_int, ctypes.c_long]  # fmt: skip
libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
libc.mincore.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_char_p]
SIZE = 8 * 1024 * 1024


def resident(path: Path) -> int:
    """How many of the file's pages are in memory."""
    fd = os.open(path, os.O_RDONLY)
    try:
        address = libc.mmap(None, SIZE, mmap.PROT_READ, mmap.MAP_SHARED, fd, 0)
        pages = SIZE // mmap.PAGESIZE
        vector = ctypes.create_string_buffer(pages)
        assert libc.mincore(address, SIZE, vector) == 0, os.strerror(ctypes.get_errno())
        libc.munmap(address, SIZE)
        return sum(byte & 1 for byte in vector.raw)
    finally:
        os.close(fd)


def cold_file(folder: Path) -> Path:
    path = folder / "book.bin"
    with open(path, "wb") as handle:
        handle.write(os.urandom(SIZE))
        handle.flush()
        os.fsync(handle.fileno())
    fd = os.open(path, os.O_RDONLY)
    os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    os.close(fd)
    return path


def test_warm_reads_every_page_of_the_given_folders(tmp_path: Path) -> None:
    entries = tmp_path / "entries" / "alice"
    entries.mkdir(parents=True)
    book = cold_file(entries)
    assert resident(book) < SIZE // mmap.PAGESIZE // 2  # dropped (some may come back)
    done = subprocess.run(
        [sys.executable, "-m", "zole_arena", "warm", "--no-system", "--json", str(entries)],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    assert str(entries.resolve()) in figures["roots"]
    assert library_folder() in figures["roots"]
    assert not any(root.startswith(SYSTEM_DIRS) for root in figures["roots"])  # --no-system
    assert figures["files"] >= 1 and figures["bytes"] >= SIZE
    assert resident(book) == SIZE // mmap.PAGESIZE  # every page, in memory


def test_warm_says_what_is_missing_in_one_line(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "zole_arena", "warm", str(tmp_path / "nowhere")],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [
        f"error: no such file or folder: {tmp_path / 'nowhere'}"
    ]


def test_the_roots_are_what_a_sandboxed_bot_may_read(tmp_path: Path) -> None:
    """The system's folders, the arena's library, each bot's own folder, --sandbox-read."""
    bot = tmp_path / "alice" / "bot.py"
    bot.parent.mkdir()
    bot.write_text("print('hi')\n")
    extra = tmp_path / "book"
    extra.mkdir()
    roots = bot_roots([[sys.executable, str(bot)]], str(tmp_path), [str(extra)])
    real = {os.path.realpath(d) for d in SYSTEM_DIRS if os.path.isdir(d)}
    assert real & set(roots) or any(r.startswith("/usr") for r in roots)
    assert str(bot.parent.resolve()) in roots and str(extra.resolve()) in roots
    assert library_folder() in roots
    assert not any(a != b and a.startswith(b + "/") for a in roots for b in roots)
