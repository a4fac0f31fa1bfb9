"""Writing a log: records as the bytes of their lines, appended whole and chained.

:func:`to_json` turns a record (:mod:`zole_arena.records.model`) into the JSON object of
``protocol/records.md``, in the format's order of keys, as :mod:`~zole_arena.records.schema`
declares them; :func:`encode` makes it a line. :class:`LogWriter` appends each line with a
single unbuffered write as the deal ends (synced to disk when the log is closed), so that a
crash can at worst truncate the last line, and cuts a write that fails part-way (a full disk)
back off, so that the log ends with its last whole record. Every line of a format-2 log names
the SHA-256 of the line before it (``prev``), so that an edited, removed or reordered record
shows, and the hash of the last line, the log's **digest**, pins the whole log.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import stat
from pathlib import Path
from typing import Any, Final

from zole_arena.records.model import (
    FORMAT,
    FORMAT_VERSION,
    DealRecord,
    Header,
    MatchHeader,
    SettleRecord,
)
from zole_arena.records.reader import RecordError, first_format_version, last_line_hash
from zole_arena.records.schema import DEAL, MATCH, SETTLE, TOURNAMENT

__all__ = [
    "LogWriter",
    "check_log_path",
    "encode",
    "is_regular_log",
    "to_json",
]


def to_json(record: Header | DealRecord | SettleRecord) -> dict[str, Any]:
    """A record as the JSON object of its line, plain JSON values all through (beginning with
    ``format`` and ``format_version``; :class:`LogWriter` adds ``prev`` after them as it writes
    the line)."""
    if isinstance(record, DealRecord):
        return DEAL.encode(record)
    if isinstance(record, SettleRecord):
        return SETTLE.encode(record)
    if isinstance(record, MatchHeader):
        return MATCH.encode(record)
    return TOURNAMENT.encode(record)


# Records are trees built here, never cyclic: the encoder's cycle check (a dict of the ids of
# every open container) would cost a sixth of the encoding.
_ENCODER: Final = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, check_circular=False)


def encode(record: Header | DealRecord | SettleRecord) -> bytes:
    """A record as the one line a log holds for it (compact JSON, UTF-8, ending in a newline),
    in format 2 without its ``prev``."""
    return (_ENCODER.encode(to_json(record)) + "\n").encode()


#: How every line :func:`encode` makes begins.
_ENCODED_START: Final = f'{{"format":"{FORMAT}","format_version":{FORMAT_VERSION},'.encode()
#: How a line of a format-1 log begins.
_VERSION_1_START: Final = f'{{"format":"{FORMAT}","format_version":1,'.encode()


def _sha256(data: bytes | memoryview) -> str:
    return hashlib.sha256(data).hexdigest()


def _open_log(path: Path) -> int:
    """Open ``path`` for appending, making its folder if missing; the file descriptor.

    :raises RecordError: the log cannot be written there (a one-line reason).
    """
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        return os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    except (FileExistsError, NotADirectoryError):
        raise RecordError(
            f"cannot write the log {path}: a part of {path.parent} is a file, not a folder"
        ) from None
    except IsADirectoryError:
        raise RecordError(f"cannot write the log {path}: it is a folder") from None
    except OSError as exc:
        raise RecordError(f"cannot write the log {path}: {exc.strerror or exc}") from None


def check_log_path(path: str | os.PathLike[str]) -> None:
    """Make sure a log can be written at ``path`` before anything is started: its folder is
    made if missing, and the file is opened for appending (and removed again if it is new).

    :raises RecordError: the log cannot be written there (a one-line reason).
    """
    target = Path(path)
    existed = target.exists()
    os.close(_open_log(target))
    if not existed:
        target.unlink(missing_ok=True)


def is_regular_log(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is (or would be created as) a regular file: not ``/dev/null``, a pipe
    or another device, beside which nothing (a bot's stderr file, say) should be written."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except FileNotFoundError:
        return True
    except OSError:
        return False


class LogWriter:
    """Appends records to a log file, one whole line per write, flushed and synced, each line
    (in a format-2 log) chained to the one before it by its ``prev`` hash.

    A write that fails (a full disk, a file-size limit) is cut back off the file, so that the
    log ends with its last whole record, and raises :class:`RecordError`; so does every
    write after it.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        """Open the log for appending (its folder is made if missing). An existing log is
        continued: a cut-short last line is ended, the last line is hashed for the next
        ``prev``, and a format-1 log goes on in format 1 (without the chain).

        :raises RecordError: the log cannot be written there.
        """
        self.path = Path(path)
        self._fd = _open_log(self.path)
        self._failed: str | None = None
        self.format_version = FORMAT_VERSION
        """The format the records are written in: 2, or 1 when continuing a format-1 log."""
        self._last: str | None = None
        """The SHA-256 (hex) of the file's last line, for the next record's ``prev``."""
        info = os.fstat(self._fd)
        self._regular = stat.S_ISREG(info.st_mode)
        if self._regular and info.st_size > 0:
            try:
                self._continue(info.st_size)
            except OSError as exc:
                os.close(self._fd)
                raise RecordError(
                    f"cannot continue the log {self.path}: {exc.strerror or exc}"
                ) from None

    def _continue(self, size: int) -> None:
        """Take up an existing log: end a line cut short by a crash (readers report it), so
        that the next record starts on a line of its own, hash the last line, and read the
        format of the first."""
        with open(self.path, "rb") as handle:
            handle.seek(size - 1)
            if handle.read(1) != b"\n":
                os.write(self._fd, b"\n")
                size += 1
            self._last = last_line_hash(handle, size)
            handle.seek(0)
            if first_format_version(handle) == 1:
                self.format_version = 1

    @property
    def digest(self) -> str | None:
        """The log's digest so far, ``sha256:<hex>`` of its last line (None: still empty)."""
        return None if self._last is None else f"sha256:{self._last}"

    def write(self, record: Header | DealRecord | SettleRecord) -> None:
        """Append one record as one line, in one unbuffered write: once this returns, the
        record survives the arena's crash or kill (it is in the operating system's hands).

        :raises RecordError: the line could not be written (the file is as it was before).
        """
        if self._failed is not None:
            raise RecordError(self._failed)
        line = self._chained(encode(record))
        start = os.lseek(self._fd, 0, os.SEEK_END) if self._regular else -1
        try:
            view = memoryview(line)
            while view:
                written = os.write(self._fd, view)
                if written == 0:
                    raise OSError(28, os.strerror(28))  # ENOSPC: nothing more goes in
                view = view[written:]
        except OSError as exc:
            self._failed = f"cannot write the log {self.path}: {exc.strerror or exc}"
            if not self._cut_back(start):
                self._failed += " (and a part of the record written could not be removed)"
            raise RecordError(self._failed) from None
        except BaseException:  # Ctrl-C between two parts of the line
            self._cut_back(start)
            raise
        self._last = _sha256(memoryview(line)[:-1])

    def _chained(self, data: bytes) -> bytes:
        """The line to write for a line of :func:`encode`: with ``prev`` (format 2), or as
        format 1 when continuing a format-1 log."""
        rest = memoryview(data)[len(_ENCODED_START) :]
        if self.format_version == 1:
            return _VERSION_1_START + rest
        prev = b"null" if self._last is None else b'"' + self._last.encode() + b'"'
        return b"".join((_ENCODED_START, b'"prev":', prev, b",", rest))

    def _cut_back(self, start: int) -> bool:
        """Remove what a failed write left of its line; whether the file is whole again."""
        if start < 0:
            return True  # not a file: nothing to cut (a pipe, /dev/null)
        try:
            os.ftruncate(self._fd, start)
        except OSError:
            return False
        return True

    def close(self) -> None:
        """Sync the file to disk and close it."""
        if self._fd >= 0:
            with contextlib.suppress(OSError):
                os.fsync(self._fd)
            os.close(self._fd)
            self._fd = -1

    def __enter__(self) -> LogWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
