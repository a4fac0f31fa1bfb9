"""The result tables more than one command prints, in one place: a match's results, a
tournament's standings and head to head, an SPRT's decision, a rating's interval and LOS.

``match``, ``tournament`` and ``sprt`` print them as they end and ``standings`` prints the same
of a log, so that a log read back shows what the event showed; no command imports another.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from rich import box
from rich.markup import escape
from rich.table import Table

from zole_arena.arena.stop import StopReason
from zole_arena.arena.summary import Summary
from zole_arena.cli.console import (
    fit_names,
    out,
    print_stray_notes,
    time_caption,
)
from zole_arena.events.sprt import SprtResult
from zole_arena.events.standings import TournamentSummary
from zole_arena.events.state import TournamentState
from zole_arena.stats.ratings import (
    MIN_UNITS,
    NOT_ESTIMATED,
    PlayerRating,
    RatingList,
)

__all__ = [
    "interval_text",
    "los_text",
    "not_estimated_note",
    "print_final",
    "results_table",
    "sprt_report",
    "sprt_status",
    "standings_table",
    "summary_json",
]


def results_table(summary: Summary) -> Table:
    """The players' results, most points first; long names are shortened to fit the width,
    never so that two look the same."""
    names = [p.name for p in summary.players]
    table = fit_names(names, lambda shown: _results(summary, shown))
    assert isinstance(table, Table)
    return table


def _results(summary: Summary, shown: Mapping[str, str]) -> Table:
    ranked = sorted(summary.players, key=lambda s: -s.points)
    table = Table(
        title=f"Results after {summary.deals} of {summary.planned} deals",
        caption="per deal: points per deal ±95%; solo: deals as soloist/won; pts: points as "
        "soloist, as partner, and (with their number) in table games" + time_caption(ranked, shown),
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        collapse_padding=True,
    )
    for column in ("player", "points", "per deal", "solo", "solo pts", "partner pts",
                   "table (pts)", "faults"):  # fmt: skip
        table.add_column(column, justify="left" if column == "player" else "right")
    for p in ranked:
        interval = "" if math.isinf(p.interval) else f"±{p.interval:.2f}"
        won = f"{p.soloist_won}" if p.soloist else "–"
        table.add_row(
            escape(shown[p.name]),  # names may come from a log (--resume): never markup
            f"{p.points:+d}",
            f"{p.mean:+.2f}{interval}",
            f"{p.soloist}/{won}",
            f"{p.soloist_points:+d}",
            f"{p.partner_points:+d}",
            f"{p.table} ({p.table_points:+d})",
            str(p.faults),
        )
    return table


def sprt_status(result: SprtResult) -> str:
    return (
        f"LLR {result.llr:+.2f} [{result.settings.lower:+.2f}, {result.settings.upper:+.2f}]  "
        f"block {result.blocks}, {result.deals} deals  score {100 * result.score:.1f}% "
        f"(Elo {result.elo:+.0f})"
    )


def _verdict(result: SprtResult) -> str:
    s = result.settings
    if result.decision == "H1":
        return (
            f"H1 accepted: {result.new} is better than {result.old} "
            f"(Elo {s.elo1:+g} rather than {s.elo0:+g})"
        )
    if result.decision == "H0":
        return (
            f"H0 accepted: {result.new} is not {s.elo1:g} Elo better than {result.old} "
            f"(Elo {s.elo0:+g} rather than {s.elo1:+g})"
        )
    reason = None if result.stopped is None else result.stopped.reason
    if reason is StopReason.MAX_BLOCKS:
        why = f"no decision within --max-blocks {result.blocks}"
    elif reason is StopReason.INTERRUPTED:
        why = "interrupted before a decision"
    else:
        why = f"stopped before a decision ({result.stopped})"
    return f"{why}: {result.new} against {result.old}"


def sprt_report(result: SprtResult, digest: str | None, elapsed: float | None = None) -> None:
    """The test's end as the command prints it (``elapsed``: this run's wall time, if any)."""
    s = result.settings
    colour = {"H1": "green", "H0": "red"}.get(result.decision or "", "yellow")
    out.print(f"[bold {colour}]{escape(_verdict(result))}[/]", highlight=False)
    out.print(
        f"LLR {result.llr:+.3f} (H0 at {s.lower:+.3f}, H1 at {s.upper:+.3f}; "
        f"elo0 {s.elo0:g}, elo1 {s.elo1:g}, alpha {s.alpha:g}, beta {s.beta:g})",
        highlight=False,
    )
    # One block has no spread to estimate an interval from: say so, not "+186 … +186".
    interval, los = NOT_ESTIMATED, NOT_ESTIMATED
    if result.blocks >= MIN_UNITS:
        interval = f"{result.elo_low:+.0f} … {result.elo_high:+.0f}"
        los = f"{result.los:.1f}%"
    out.print(
        f"{result.blocks} blocks = {result.deals} deals ({result.games} games against "
        f"{escape(result.old)}); score {100 * result.score:.1f}%, Elo {result.elo:+.0f} "
        f"(95%: {interval}), LOS {los}",
        highlight=False,
    )
    for fault in result.faults:
        out.print(f"[red]fault[/] {escape(fault)}", highlight=False)
    timing = ""
    if elapsed is not None:
        rate = result.deals_played / elapsed if elapsed > 0 else 0.0
        timing = f" in {elapsed:.1f} s ({rate:.1f} deals/s)"
    out.print(
        f"played {result.deals_played} deals{timing}"
        + (f"; log: {escape(result.log)}" if result.log else ""),
        highlight=False,
    )
    if result.log and digest:  # what 'verify --digest' checks the log against
        out.print(f"log {result.log}  digest {digest}", highlight=False, markup=False)


def standings_table(summary: TournamentSummary, title: str, final: bool) -> Table:
    """The standings, strongest first; narrow enough for an 80-column terminal (long names
    are shortened, never so that two look the same)."""
    table = fit_names(summary.ranking(), lambda shown: _standings(summary, title, final, shown))
    assert isinstance(table, Table)
    return table


def _standings(
    summary: TournamentSummary, title: str, final: bool, shown: Mapping[str, str]
) -> Table:
    table = Table(title=title, box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True)
    rounds = summary.rounds
    big = {} if rounds is None else {e["name"]: e["big_points"] for e in rounds.to_dict(
        summary.standings.names)}  # fmt: skip
    los = final and rounds is None  # over the next bot: of a ranking by Elo only
    table.add_column("#", justify="right")
    table.add_column("bot", no_wrap=True)
    if rounds is not None:
        table.add_column("big", justify="right")
    table.add_column("elo", justify="right")
    if final:
        table.add_column("95%", justify="right", no_wrap=True)
    if los:
        table.add_column("LOS", justify="right")
    table.add_column("deals", justify="right")
    table.add_column("points", justify="right")
    table.add_column("per deal", justify="right", no_wrap=True)
    table.add_column("solo", justify="right")
    table.add_column("faults", justify="right")
    rating = {r.name: r for r in summary.ratings.ratings} if summary.ratings else {}
    elo = {} if rating else summary.standings.quick_elo()
    for rank, name in enumerate(summary.ranking(), start=1):
        p = summary.standings.players[name]
        interval = "" if math.isinf(p.interval) else f"±{p.interval:.1f}"
        row = [str(rank), escape(shown[name])]  # names may come from a log: never markup
        if rounds is not None:
            row.append(f"{big.get(name, 0):g}")
        if name in rating and summary.ratings:
            r = rating[name]
            row += [f"{r.elo:+.0f}", interval_text(r, "…")]
            row += [los_text(summary.ratings, r, 0)] if los else []
        else:
            row.append(f"{elo[name]:+.0f}" if name in elo else "–")
            row += [""] * (final + los)
        row += [
            str(p.deals),
            f"{p.points:+d}",
            f"{p.mean:+.2f}{interval}" if p.deals else "–",
            f"{p.soloist}/{p.soloist_won}",
            str(p.faults),
        ]
        table.add_row(*row)
    if final:
        note = not_estimated_note(summary.ratings) if summary.ratings else None
        ranked = (
            "ranked by big points, then points; big: big points (6/4/2/0 per table of four, "
            "6/3/0 of three); "
            if rounds is not None
            else ""
        )
        table.caption = (
            f"{ranked}95%: the Elo interval"
            + ("; LOS: likelihood of superiority over the next bot" if los else "")
            + "; per deal: points per deal ±95%; solo: deals as soloist/won"
            + time_caption([summary.standings.players[n] for n in summary.ranking()], shown)
            + (f"; {note}" if note else "")
        )
    return table


def _head_to_head_table(summary: TournamentSummary) -> Table | None:
    names = summary.ranking()
    h2h = summary.standings.head_to_head()
    if not h2h or len(names) > 12:
        return None
    table = fit_names(names, lambda shown: _head_to_head(summary, shown))
    assert isinstance(table, Table)
    return table


def _head_to_head(summary: TournamentSummary, shown: Mapping[str, str]) -> Table:
    names = summary.ranking()
    h2h = summary.standings.head_to_head()
    table = Table(title="Head to head: the row bot's score against the column bot, in % "
                  "(pairwise games as the ratings count them)", box=box.SIMPLE_HEAD)  # fmt: skip
    table.add_column("")
    for name in names:
        table.add_column(escape(shown[name]), justify="right", no_wrap=True)
    for a in names:
        cells = []
        for b in names:
            won, games = h2h.get(a, {}).get(b, (0.0, 0))
            cells.append("" if a == b or not games else f"{100 * won / games:.0f} ({games})")
        table.add_row(escape(shown[a]), *cells)
    return table


def summary_json(tournament: TournamentState, summary: TournamentSummary) -> dict[str, Any]:
    """What ``--json`` prints at the end: the summary with the tournament's id and format."""
    data = summary.to_dict()
    data["tournament_id"] = tournament.tournament_id
    data["format"] = tournament.settings.format
    return data


def print_final(summary: TournamentSummary) -> None:
    """The tables printed at the end: the standings, head to head, how Elo was computed."""
    out.print(standings_table(summary, f"Standings after {summary.deals} of "
                               f"{summary.planned} deals", final=True))  # fmt: skip
    h2h = _head_to_head_table(summary)
    if h2h is not None:
        out.print(h2h)
    if summary.ratings is not None:
        out.print(f"Elo: {summary.ratings.method}.", markup=False)
    print_stray_notes(summary.standings.players.values())


def interval_text(rating: PlayerRating, between: str = " … ") -> str:
    """A rating's 95 % interval as a table shows it, or :data:`NOT_ESTIMATED`."""
    if rating.low is None or rating.high is None:
        return NOT_ESTIMATED
    return f"{rating.low:+.0f}{between}{rating.high:+.0f}"


def los_text(ratings: RatingList, rating: PlayerRating, digits: int = 1) -> str:
    """The LOS of ``rating`` (one of ``ratings``) over the next player as a table shows it: a
    percentage, nothing for the last player, or :data:`NOT_ESTIMATED`."""
    if rating.los_next is not None:
        return f"{100 * rating.los_next:.{digits}f}%"
    return "" if rating is ratings.ratings[-1] else NOT_ESTIMATED


def not_estimated_note(ratings: RatingList) -> str | None:
    """What :data:`NOT_ESTIMATED` means, when a list shows it."""
    if all(rating.estimated for rating in ratings.ratings):
        return None
    return (
        f"{NOT_ESTIMATED}: not estimable from fewer than {MIN_UNITS} clusters (duplicate blocks, "
        "or deals, with the same cards at other tables) of the player"
    )
