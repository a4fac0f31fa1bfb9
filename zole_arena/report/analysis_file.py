"""The open-card analysis beside a log (``LOG.analysis.jsonl``, made by ``zole-arena
analyze``), read for the deals the report counts from that log.

The file is read as untrusted, like the log: anyone can write one. Each deal gets the analysis
its file holds under the SHA-256 of the deal's log line only when that analysis fits the deal
(the same match, deal and players, each decision a move of the deal); what cannot be used —
lines that are no analysis record of this version, analyses that do not fit, a file that
cannot be read at all — becomes a problem of the log, never an error.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from zole_arena.analysis.deal import analysis_fits
from zole_arena.analysis.model import DealAnalysis
from zole_arena.analysis.store import AnalysisFileError, analysis_path, read_analysis
from zole_arena.records.model import DealRecord
from zole_arena.report.html import plural

__all__ = ["read_analyses"]


def read_analyses(
    log: Path, deals: Sequence[DealRecord], shas: Sequence[str]
) -> tuple[str | None, list[DealAnalysis | None], list[str]]:
    """The analysis file beside ``log`` (None: there is none), the analysis of each of
    ``deals`` (the report's deals from that log, ``shas`` the SHA-256 of each one's line; None
    where the file holds none that fits), and what could not be used, a line each."""
    found: list[DealAnalysis | None] = [None] * len(deals)
    file = analysis_path(log)
    try:
        if not file.exists():
            return None, found, []
        if not file.is_file():
            return (
                str(file),
                found,
                [f"{file}: not a regular file, so not read as the log's analysis"],
            )
        held = read_analysis(file)
    except AnalysisFileError as exc:
        return str(file), found, [f"{exc} (the analysis is left out of the report)"]
    except OSError as exc:  # a name too long, a loop of links: no file to read
        return str(file), found, [f"{file}: {exc.strerror or exc} (the analysis is left out)"]
    problems = []
    if held.skipped:
        problems.append(
            f"{file}: {plural(held.skipped, 'line')} that {'is' if held.skipped == 1 else 'are'}"
            " no analysis record (of this version) skipped"
        )
    unfit = 0
    for index, (record, sha) in enumerate(zip(deals, shas, strict=True)):
        analysis = held.deals.get(sha)
        if analysis is None:
            continue
        if analysis_fits(analysis, record):
            found[index] = analysis
        else:
            unfit += 1
    if unfit:
        problems.append(
            f"{file}: {plural(unfit, 'analysis', 'analyses')} that "
            + ("does not fit the deal of its" if unfit == 1 else "do not fit the deal of their")
            + " line (a crafted or foreign file?): left out of the report"
        )
    return str(file), found, problems
