"""Bots' stderr: copied to a file up to a size limit, then one marker line, then dropped.

A bot's stderr is a pipe, read by one background thread for all the bots of a process
(:class:`StderrCopy` registers with it): the thread sleeps in ``poll`` until a bot writes, so it
costs nothing while the bots are quiet, and the pipe never fills, so a chatty bot never blocks
on it. What goes past the limit is read and thrown away, so a flood fills no disk, but slowly:
one read of 64 KiB each :data:`THROTTLE_SECONDS`, so that a bot that floods its stderr costs
the arena's process (which no bot's CPU share or allowance counts) next to nothing, and waits
on its own full pipe instead. The last few KiB are kept in memory for the one-line message of
a crash.
"""

from __future__ import annotations

import contextlib
import os
import select
import threading
import time
from collections.abc import Callable
from typing import IO, Final

__all__ = ["DEFAULT_STDERR_BYTES", "THROTTLE_SECONDS", "StderrCopy"]

#: A bot's stderr file is cut at this size by default (10 MiB).
DEFAULT_STDERR_BYTES: Final = 10 * 1024 * 1024
_TAIL_BYTES: Final = 4096
_READ_SIZE: Final = 65536
#: Past its limit, a bot's stderr is read once each this many seconds (64 KiB at a time): a
#: flood is throttled to 640 KiB/s, at a cost to the arena of ten reads a second.
THROTTLE_SECONDS: Final = 0.1


def _marker(limit: int) -> bytes:
    return (
        f"\n[zole-arena: stderr limit of {limit:,} bytes reached; the rest of this bot's "
        "stderr is discarded]\n"
    ).encode()


class StderrCopy:
    """The reading end of one bot's stderr pipe and where its bytes go."""

    def __init__(
        self,
        fd: int,
        path: str | None,
        limit: int | None,
        on_lines: Callable[[list[str]], None] | None = None,
    ) -> None:
        """:param fd: the pipe's reading end (this object owns it from now on).
        :param path: the file to append the bytes to; None keeps only the tail.
        :param limit: the most bytes written to the file; None: no limit.
        :param on_lines: called (in the reading thread) with each batch of whole lines, those
            within the limit where there is a file, for the protocol transcript (which bounds
            what it takes of a bot: :data:`~zole_arena.players.transcript.MAX_FROM_BOT`); a
            line still unfinished when the pipe closes is passed too.

        :raises OSError: the file cannot be opened.
        """
        self.fd = fd
        self.limit = limit
        self.written = 0
        self.dropped = 0
        self._file: IO[bytes] | None = open(path, "ab") if path is not None else None  # noqa: SIM115
        self._tail = bytearray()
        self._on_lines = on_lines
        self._partial = bytearray()
        """The start of a line not ended yet (for ``on_lines``)."""
        self._lock = threading.Lock()
        self._closed = False
        self.due = 0.0
        """When the pipe may be read again (:func:`time.monotonic`; past the limit only)."""
        os.set_blocking(fd, False)
        _PUMP.add(self)

    def take(self) -> bool:
        """Read what is in the pipe now and copy it; False at end of file (the bot and every
        process that shares its stderr are gone)."""
        with self._lock:
            if self._closed:
                return False
            while True:
                try:
                    data = os.read(self.fd, _READ_SIZE)
                except BlockingIOError:
                    return True
                except OSError:
                    return False
                if not data:
                    return False
                self._keep(data)
                if self.dropped:  # past the limit: no more now
                    self.due = time.monotonic() + THROTTLE_SECONDS
                    return True

    def _keep(self, data: bytes) -> None:
        self._tail += data
        if len(self._tail) > _TAIL_BYTES:
            del self._tail[: len(self._tail) - _TAIL_BYTES]
        room = len(data) if self.limit is None else max(0, self.limit - self.written)
        part = data[:room]
        if self._on_lines is not None and part:
            self._pass_lines(part)
        if self._file is None:
            return
        try:
            if part:
                self._file.write(part)
                self.written += len(part)
            if len(part) < len(data):
                if self.dropped == 0 and self.limit is not None:
                    self._file.write(_marker(self.limit))
                self.dropped += len(data) - len(part)
            self._file.flush()
        except OSError:  # a full disk: the bot's stderr is not worth stopping the match for
            self.dropped += len(data) - len(part)

    def _pass_lines(self, data: bytes, final: bool = False) -> None:
        """Hand the whole lines in ``data`` (after what was left unfinished) to ``on_lines``."""
        assert self._on_lines is not None
        self._partial += data
        *lines, rest = bytes(self._partial).split(b"\n")
        if final and rest:
            lines.append(rest)
            rest = b""
        self._partial = bytearray(rest[:_READ_SIZE])
        if lines:
            with contextlib.suppress(Exception):  # a transcript's trouble is not the bot's
                self._on_lines([line.decode("utf-8", "replace").rstrip("\r") for line in lines])

    def tail(self) -> str:
        """The last bytes the bot wrote (up to 4 KiB), as text."""
        self.take()
        with self._lock:
            return self._tail.decode("utf-8", "replace")

    def close(self) -> None:
        """Copy what is left in the pipe now, then stop reading it and close the file."""
        self.take()
        _PUMP.remove(self)
        with self._lock:
            if self._closed:
                return
            self._closed = True
            if self._on_lines is not None and self._partial:
                self._pass_lines(b"", final=True)
            with contextlib.suppress(OSError):
                os.close(self.fd)
            if self._file is not None:
                with contextlib.suppress(OSError):
                    self._file.close()
                self._file = None


class _Pump:
    """The one thread that reads every registered bot's stderr, started when first needed."""

    def __init__(self) -> None:
        self._copies: dict[int, StderrCopy] = {}
        self._lock = threading.Lock()
        self._wake_r, self._wake_w = -1, -1
        self._thread: threading.Thread | None = None
        self._pid = -1

    def _ensure(self) -> None:
        if self._thread is not None and self._pid == os.getpid() and self._thread.is_alive():
            return
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        os.set_inheritable(self._wake_r, False)
        os.set_inheritable(self._wake_w, False)
        self._pid = os.getpid()
        self._thread = threading.Thread(target=self._run, name="zole-arena stderr", daemon=True)
        self._thread.start()

    def _wake(self) -> None:
        with contextlib.suppress(OSError):
            os.write(self._wake_w, b"x")

    def add(self, copy: StderrCopy) -> None:
        with self._lock:
            self._ensure()
            self._copies[copy.fd] = copy
        self._wake()

    def remove(self, copy: StderrCopy) -> None:
        with self._lock:
            if self._copies.get(copy.fd) is copy:
                del self._copies[copy.fd]
        self._wake()

    def _run(self) -> None:
        while True:
            with self._lock:
                copies = dict(self._copies)
                wake = self._wake_r
            poller = select.poll()
            poller.register(wake, select.POLLIN)
            now = time.monotonic()
            later = [copy.due for copy in copies.values() if copy.due > now]
            for fd, waiting in copies.items():
                if waiting.due <= now:
                    poller.register(fd, select.POLLIN)
            timeout = (min(later) - now) * 1000 if later else None
            for fd, _ in poller.poll(timeout):
                if fd == wake:
                    with contextlib.suppress(OSError):
                        os.read(wake, 4096)
                    continue
                copy = copies.get(fd)
                if copy is not None and not copy.take():
                    self.remove(copy)  # end of file: nothing more will come


_PUMP: Final = _Pump()
