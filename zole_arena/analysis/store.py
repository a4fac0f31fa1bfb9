"""Analysis files: one JSON line per analysed deal, keyed to its log line by SHA-256.

``zole-arena analyze`` writes them (by default ``LOG.analysis.jsonl`` beside the log) and
reads them back as a cache: a deal whose line hash and solver are already in the file is not
solved again. Every line is read as untrusted (a file may be crafted or cut off): a line that
is not a complete, well-formed record of this version is skipped and counted, never trusted.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import hmac
import json
import os
import re
import secrets
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, Final

from zole_arena.analysis.model import (
    ANALYSIS_VERSION,
    ActionValue,
    DealAnalysis,
    Decision,
    Phase,
    Role,
)
from zole_arena.catalogue.bundled import cache_dir
from zole_arena.errors import ZoleError

__all__ = [
    "AnalysisFile",
    "AnalysisFileError",
    "analysis_path",
    "deal_from_json",
    "deal_to_json",
    "local_key",
    "made_here",
    "read_analysis",
]

#: Longest line read (a deal has at most ~30 decisions of at most 45 actions).
MAX_LINE: Final = 1 << 20
_SHA_RE: Final = re.compile(r"^[0-9a-f]{64}$")
_TEXT_RE: Final = re.compile(r"^[A-Za-z0-9 ]{1,16}$")
#: Largest value a deal can be worth to a seat, with pule bonuses: far above any rules'.
_MAX_VALUE: Final = 10_000


class AnalysisFileError(ZoleError):
    """An analysis file that cannot be read or written."""


def analysis_path(log: Path) -> Path:
    """Where the analysis of ``log`` goes by default: ``LOG.analysis.jsonl`` beside it."""
    return log.with_name(log.name + ".analysis.jsonl")


def local_key() -> bytes:
    """This user's key for marking analysis lines as made here (created on first use, in
    the cache folder, readable by this user only). ``analyze`` reuses only lines it can
    verify with it: an analysis file from elsewhere is solved again, never trusted."""
    path = cache_dir() / "analysis.key"
    try:
        if not path.exists() and not path.is_symlink():
            return _new_key(path)
        return _read_key(path)
    except OSError as exc:
        raise AnalysisFileError(f"{path}: {exc.strerror}") from None


def _read_key(path: Path) -> bytes:
    if path.is_symlink() or not path.is_file():
        raise AnalysisFileError(f"{path}: not a regular file, so no key (remove it)")
    with open(path, "rb") as handle:
        key = handle.read(65)
    if not 32 <= len(key) <= 64:
        raise AnalysisFileError(f"{path}: not a key of 32 bytes (remove it: a new one is made)")
    return key


def _new_key(path: Path) -> bytes:
    key = secrets.token_bytes(32)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".analysis.key.", dir=path.parent)
        try:
            os.write(fd, key)
            os.fsync(fd)
        finally:
            os.close(fd)
        try:
            os.link(tmp, path)  # never replaces a key another process made first
        except FileExistsError:
            return _read_key(path)
        finally:
            os.unlink(tmp)
    except OSError as exc:
        raise AnalysisFileError(f"{path}: {exc.strerror}") from None
    return key


_MAC_TAIL: Final = re.compile(rb',"mac":"([0-9a-f]{64})"\}$')


def _mac(key: bytes, body: bytes) -> str:
    return hmac.new(key, body, hashlib.sha256).hexdigest()


def made_here(line: bytes, key: bytes) -> bool:
    """Whether an analysis line carries this user's mark (see :func:`local_key`)."""
    found = _MAC_TAIL.search(line)
    if found is None:
        return False
    body = line[: found.start()] + b"}"
    return hmac.compare_digest(found.group(1).decode(), _mac(key, body))


def deal_to_json(analysis: DealAnalysis, solver: str, key: bytes | None = None) -> str:
    """One analysis line (without its newline), marked with ``key`` when given."""
    data: dict[str, Any] = {
        "type": "analysis",
        "version": ANALYSIS_VERSION,
        "solver": solver,
        "deal_sha256": analysis.deal_sha256,
        "match_id": analysis.match_id,
        "deal": analysis.deal,
        "rules": analysis.rules,
        "swing": analysis.swing,
        "players": list(analysis.players),
        "complete": analysis.complete,
        "decisions": [
            {
                "move": d.move,
                "seat": d.seat,
                "phase": d.phase.value,
                "role": d.role.value,
                "action": d.action,
                "values": [[v.action, v.value] for v in d.values],
                "best": d.best,
                "loss": d.loss,
            }
            for d in analysis.decisions
        ],
    }
    if analysis.note:
        data["note"] = analysis.note
    text = json.dumps(data, ensure_ascii=True, separators=(",", ":"))
    if key is None:
        return text
    return f'{text[:-1]},"mac":"{_mac(key, text.encode())}"}}'


def _int(data: dict[str, Any], key: str, low: int, high: int) -> int:
    value = data.get(key)
    if type(value) is not int or not low <= value <= high:
        raise ValueError(f"{key} is not a number from {low} to {high}")
    return value


def _str(data: dict[str, Any], key: str, limit: int = 200) -> str:
    value = data.get(key)
    if not isinstance(value, str) or len(value) > limit:
        raise ValueError(f"{key} is not a text of at most {limit} characters")
    return value


def _decision(data: Any, players: tuple[str, str, str]) -> Decision:
    if not isinstance(data, dict):
        raise ValueError("a decision is not an object")
    seat = _int(data, "seat", 0, 2)
    values_data = data.get("values")
    if not isinstance(values_data, list) or not 2 <= len(values_data) <= 64:
        raise ValueError("a decision's values are not a list of 2 to 64 actions")
    values = []
    for item in values_data:
        if (
            not isinstance(item, list)
            or len(item) != 2
            or not isinstance(item[0], str)
            or not _TEXT_RE.match(item[0])
            or type(item[1]) is not int
            or abs(item[1]) > _MAX_VALUE
        ):
            raise ValueError("an action's value is not [action, number]")
        values.append(ActionValue(item[0], item[1]))
    action = _str(data, "action", 16)
    decision = Decision(
        move=_int(data, "move", 0, 200),
        seat=seat,
        player=players[seat],
        phase=Phase(_str(data, "phase", 8)),
        role=Role(_str(data, "role", 10)),
        action=action,
        values=tuple(values),
    )
    decision.value  # noqa: B018 - raises ValueError when the action taken has no value
    if data.get("best") != decision.best or data.get("loss") != decision.loss:
        raise ValueError("a decision's best or loss does not follow from its values")
    return decision


def deal_from_json(line: bytes | str, solver: str | None = None) -> DealAnalysis:
    """Read one analysis line.

    :raises ValueError: not a well-formed analysis record of this version (or, when
        ``solver`` is given, of another solver).
    """
    try:
        data = json.loads(line)
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as exc:
        raise ValueError(f"not JSON: {exc}") from None
    if not isinstance(data, dict) or data.get("type") != "analysis":
        raise ValueError("not an analysis record")
    if data.get("version") != ANALYSIS_VERSION:
        raise ValueError(f"an analysis of another version ({data.get('version')!r})")
    if solver is not None and data.get("solver") != solver:
        raise ValueError("made by another solver")
    sha = _str(data, "deal_sha256", 64)
    if not _SHA_RE.match(sha):
        raise ValueError("deal_sha256 is not a SHA-256")
    players_data = data.get("players")
    if (
        not isinstance(players_data, list)
        or len(players_data) != 3
        or not all(isinstance(p, str) and len(p) <= 200 for p in players_data)
    ):
        raise ValueError("players is not three names")
    players = (players_data[0], players_data[1], players_data[2])
    decisions_data = data.get("decisions")
    if not isinstance(decisions_data, list) or len(decisions_data) > 64:
        raise ValueError("decisions is not a list of at most 64")
    complete = data.get("complete")
    if not isinstance(complete, bool):
        raise ValueError("complete is not true or false")
    return DealAnalysis(
        deal_sha256=sha,
        match_id=_str(data, "match_id"),
        deal=_int(data, "deal", 0, 10**9),
        rules=_str(data, "rules", 16),
        swing=_int(data, "swing", 1, _MAX_VALUE),
        players=players,
        decisions=tuple(_decision(d, players) for d in decisions_data),
        complete=complete,
        note=_str(data, "note", 1000) if "note" in data else "",
    )


@dataclasses.dataclass
class AnalysisFile:
    """What an analysis file holds: the deals by line hash, and how many lines were skipped."""

    deals: dict[str, DealAnalysis]
    skipped: int = 0
    """Lines that were no usable record (cut off, crafted, another version or solver)."""
    ends_cleanly: bool = True
    """False when the file's last line has no newline (a run was cut off mid-line)."""


def _lines(path: Path) -> Iterator[tuple[bytes, bool]]:
    """Each line of the file with whether it was complete; a line over MAX_LINE is given
    as an empty incomplete one and skipped to its end."""
    with open(path, "rb") as handle:
        while True:
            raw = handle.readline(MAX_LINE + 1)
            if not raw:
                return
            if raw.endswith(b"\n"):
                yield raw[:-1], True
                continue
            if len(raw) <= MAX_LINE:
                yield raw, False  # the file's last line, cut off
                return
            while raw and not raw.endswith(b"\n"):
                raw = handle.readline(MAX_LINE + 1)
            yield b"", False


def read_analysis(path: Path, solver: str | None = None, key: bytes | None = None) -> AnalysisFile:
    """Read an analysis file (later lines of the same deal win); with ``key``, only the
    lines made here (:func:`made_here`), the others counted as skipped.

    :raises AnalysisFileError: the file cannot be opened, or is not an analysis file (its
        first line is something else entirely: a log, say).
    """
    result = AnalysisFile({})
    try:
        first = True
        for raw, complete in _lines(path):
            if not complete:
                result.ends_cleanly = False
            if not raw.strip():
                continue
            try:
                deal = deal_from_json(raw, solver)
            except ValueError:
                if first and not raw.lstrip().startswith(b'{"type":"analysis"'):
                    raise AnalysisFileError(
                        f"{path}: not an analysis file (zole-arena analyze writes one)"
                    ) from None
                result.skipped += 1
                if not complete:
                    result.ends_cleanly = False
                continue
            first = False
            if not complete:
                result.ends_cleanly = False
            if key is not None and not made_here(raw, key):
                result.skipped += 1
                continue
            result.deals[deal.deal_sha256] = deal
    except OSError as exc:
        raise AnalysisFileError(f"{path}: {exc.strerror}") from None
    return result


def append_lines(path: Path, lines: Iterable[str], ends_cleanly: bool = True) -> None:
    """Append whole lines to ``path`` with one write each (a line is never half-written by a
    crash between lines); a newline first when the file ended without one. A line the disk
    takes only part of (full, or over a size limit) is cut off again: the file keeps whole
    lines only."""
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        if not ends_cleanly:
            _write_whole(fd, path, b"\n")
        for line in lines:
            _write_whole(fd, path, (line + "\n").encode())
    finally:
        os.close(fd)


def _write_whole(fd: int, path: Path, data: bytes) -> None:
    start = os.fstat(fd).st_size
    try:
        if os.write(fd, data) == len(data):
            return
        why = "a short write (is the disk full?)"
    except OSError as exc:
        why = exc.strerror or "cannot write"
    with contextlib.suppress(OSError):
        os.ftruncate(fd, start)
    raise AnalysisFileError(f"{path}: {why}")
