"""Reports people open: one self-contained HTML page per set of logs, with the standings, the
head-to-head table, the ratings over time, each bot's figures and a viewer of every deal;
with the open-card analysis of ``zole-arena analyze`` and the fair-play screen of
``zole-arena fairplay`` when their files are beside a log.

>>> from zole_arena.report import write_report
>>> write_report(["tournament.jsonl"], "report.html")  # doctest: +SKIP

:func:`collect` gathers the figures (:class:`ReportData`), :func:`render` makes the page.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Sequence
from pathlib import Path

from zole_arena.records.reader import RecordError
from zole_arena.report.collect import collect
from zole_arena.report.model import ReportData
from zole_arena.report.page import render

__all__ = ["ReportData", "collect", "render", "write_report"]


def write_report(
    logs: Sequence[str | os.PathLike[str]],
    path: str | os.PathLike[str],
    *,
    bootstrap: int = 200,
    title: str | None = None,
) -> Path:
    """Read ``logs`` and write their report to ``path`` (replaced whole, never half-written).

    :raises RecordError: a log is missing or not a zole-arena log, or the page cannot be
        written (no such folder, no permission, a full disk).
    """
    target = Path(path)
    folder = target.parent
    try:
        if target.is_dir():
            raise RecordError(f"cannot write the report to {target}: it is a folder")
        if not folder.is_dir():
            raise RecordError(f"cannot write the report to {target}: no folder {folder}")
    except OSError as exc:
        raise RecordError(f"cannot write the report to {target}: {exc.strerror or exc}") from None
    page = render(collect(logs, bootstrap=bootstrap), title=title)
    try:
        with tempfile.NamedTemporaryFile(
            "w", encoding="utf-8", dir=folder, prefix=f".{target.name}.", delete=False
        ) as handle:
            temporary = Path(handle.name)
            try:
                handle.write(page)
                handle.flush()
                os.fsync(handle.fileno())
                os.chmod(temporary, 0o644)  # a page to share, not a secret
                os.replace(temporary, target)
            except BaseException:
                temporary.unlink(missing_ok=True)
                raise
    except OSError as exc:
        raise RecordError(f"cannot write the report to {target}: {exc.strerror or exc}") from None
    return target
