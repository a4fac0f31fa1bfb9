"""A report as one self-contained HTML page: its tables drawn here, its deal viewer drawn by
the page's own script from the data :mod:`~zole_arena.report.payload` embeds.

Nothing in the page asks for the network: the styles and the script are inside it, the chart
is inline SVG, and a Content-Security-Policy forbids every fetch (``default-src 'none'``), so
a report opened from disk, or mailed, shows the same everywhere and tells no one it was read.
"""

from __future__ import annotations

import base64
import datetime
import hashlib
import importlib.resources
from collections.abc import Iterable, Sequence
from html import escape

from zole_arena import __version__
from zole_arena.game.actions import Contract
from zole_arena.records.model import Fault
from zole_arena.report.chart import ratings_chart
from zole_arena.report.collect import SOLO_CONTRACTS, BotFigures, ReportData
from zole_arena.report.payload import payload, script_json
from zole_arena.stats.ratings import NOT_ESTIMATED, PlayerRating

__all__ = ["render"]

_CONTRACT_WORDS = {
    Contract.TAKE: "take",
    Contract.ZOLE: "zole",
    Contract.SMALL_ZOLE: "small zole",
}


def _policy(script: str) -> str:
    """The page's Content-Security-Policy: it may run its one script (named by its hash, so
    that no markup a log smuggled in could run) and its own styles, and fetch nothing."""
    digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii")
    return (
        f"default-src 'none'; script-src 'sha256-{digest}'; style-src 'unsafe-inline'; "
        "img-src data:; base-uri 'none'; form-action 'none'"
    )


def _asset(name: str) -> str:
    return (
        importlib.resources.files("zole_arena.report")
        .joinpath("assets", name)
        .read_text(encoding="utf-8")
    )


def _cell(text: str, sort: float | str | None = None, cls: str = "") -> str:
    """A table cell; ``sort`` is what the column sorts by (numbers as numbers)."""
    attributes = ""
    if sort is not None:
        attributes += f' data-sort="{escape(str(sort))}"'
    if cls:
        attributes += f' class="{cls}"'
    return f"<td{attributes}>{text}</td>"


def _signed(value: float | None) -> str:
    """An Elo for people: whole and signed (never ``-0``), or n/a."""
    if value is None:
        return NOT_ESTIMATED
    return f"{round(value):+d}" if round(value) else "0"


def _interval(rating: PlayerRating | None) -> str:
    if rating is None or rating.low is None or rating.high is None:
        return NOT_ESTIMATED
    return f"{_signed(rating.low)} … {_signed(rating.high)}"


def _table(cls: str, headings: Iterable[tuple[str, str]], rows: Iterable[str]) -> str:
    """A table with ``(heading, tooltip)`` column headings and ready-made rows."""
    head = "".join(
        f'<th title="{escape(tip)}">{escape(text)}</th>' if tip else f"<th>{escape(text)}</th>"
        for text, tip in headings
    )
    return (
        f'<table class="{cls}"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>'
    )


def _standings(data: ReportData, contracts: Sequence[Contract]) -> str:
    rated = {rating.name: rating for rating in data.ratings.ratings} if data.ratings else {}
    headings = [
        ("#", "place: by Elo, then by points per deal"),
        ("bot", ""),
        ("Elo", "Bradley-Terry fit of every deal's pairwise games, average 0"),
        ("95% interval", "bootstrap over duplicate blocks (or deals)"),
        ("LOS", "likelihood of superiority over the next bot down"),
        ("deals", ""),
        ("points", ""),
        ("per deal", "points per deal"),
        ("± 95%", "half-width of the 95% interval of the points per deal"),
        *((f"{_CONTRACT_WORDS[c]} won/played", f"as soloist in {c.value}") for c in contracts),
        ("table games lost/played", "galdiņš"),
        ("faults", ""),
    ]
    rows = []
    for place, bot in enumerate(data.bots, 1):
        stats = bot.stats
        rating = rated.get(bot.name)
        interval = stats.interval
        cells = [
            _cell(str(place), place),
            _cell(f'<a href="#bot-{place}">{escape(bot.name)}</a>', bot.name, "name"),
            _cell(_signed(rating.elo if rating else None), rating.elo if rating else ""),
            _cell(_interval(rating), rating.low if rating and rating.low is not None else ""),
            _cell(
                NOT_ESTIMATED if rating is None or rating.los_next is None
                else f"{100 * rating.los_next:.1f}%",
                rating.los_next if rating and rating.los_next is not None else "",
            ),
            _cell(f"{stats.deals:,}", stats.deals),
            _cell(f"{stats.points:+,}", stats.points),
            _cell(f"{stats.mean:+.3f}", stats.mean),
            _cell(NOT_ESTIMATED if interval == float("inf") else f"{interval:.3f}",
                  "" if interval == float("inf") else interval),
        ]  # fmt: skip
        for contract in contracts:
            played, won = bot.solo[contract]
            cells.append(_cell(f"{won}/{played}", won / played if played else ""))
        cells.append(_cell(f"{bot.table_lost}/{stats.table}", stats.table))
        cells.append(_cell(str(stats.faults), stats.faults, "bad" if stats.faults else ""))
        rows.append(f"<tr>{''.join(cells)}</tr>")
    return _table("sortable standings", headings, rows)


def _crosstable(data: ReportData) -> str:
    names = [bot.name for bot in data.bots]
    headings = [("", ""), *((f"{n + 1}", name) for n, name in enumerate(names))]
    rows = []
    for n, name in enumerate(names):
        cells = [f'<th class="name">{n + 1}. {escape(name)}</th>']
        for other in names:
            pair = data.pairs.get((name, other))
            if other == name:
                cells.append('<td class="self"></td>')
            elif pair is None:
                cells.append("<td></td>")
            else:
                elo = pair.elo
                shown = ("+∞" if pair.fraction > 0.5 else "−∞") if elo is None else _signed(elo)
                tone = "good" if pair.fraction > 0.5 else "bad" if pair.fraction < 0.5 else ""
                cells.append(
                    f'<td class="{tone}" title="{escape(name)} against {escape(other)}: '
                    f'{pair.score:g} of {pair.games:,} pairwise games">'
                    f"{100 * pair.fraction:.1f}%<br><small>{shown} Elo</small></td>"
                )
        rows.append(f"<tr>{''.join(cells)}</tr>")
    return _table("crosstable", headings, rows)


def _ms(value: float | None) -> str:
    return NOT_ESTIMATED if value is None else f"{value:,.1f} ms"


def _fault_line(deal: int, fault: Fault) -> str:
    return (
        f'<li><a href="#deal={deal + 1}" class="dealref">deal {deal + 1}</a> '
        f"(seat {fault.seat}): <b>{escape(fault.kind.value)}</b> {escape(fault.message)}</li>"
    )


def _bot_card(place: int, bot: BotFigures) -> str:
    think = bot.think
    identities = "".join(
        "<li>"
        + escape(
            " · ".join(
                part for part in (
                    identity.id_name and f"id {identity.id_name}",
                    identity.author and f"by {identity.author}",
                    identity.version and f"version {identity.version}",
                ) if part
            ) or "no id given"
        )
        + (f" — <code>{escape(' '.join(identity.command))}</code>" if identity.command else "")
        + "</li>"
        for identity in bot.identities
    )  # fmt: skip
    shown = bot.faults[:200]
    faults = "".join(_fault_line(deal, fault) for deal, fault in shown)
    more = f"<p>… and {len(bot.faults) - len(shown):,} more.</p>" if len(bot.faults) > 200 else ""
    return (
        f'<section class="bot" id="bot-{place}"><h3>{place}. {escape(bot.name)}</h3>'
        f"<dl><dt>identity</dt><dd><ul>{identities}</ul></dd>"
        f"<dt>think time</dt><dd>median {_ms(think.median)}, 95th percentile {_ms(think.p95)}, "
        f"maximum {_ms(think.max)} over {think.moves:,} decisions</dd>"
        f"<dt>faults</dt><dd>"
        + (f"<ul>{faults}</ul>{more}" if faults else "none")
        + "</dd></dl></section>"
    )


def _logs(data: ReportData) -> str:
    rows = [
        f"<tr><td>{escape(log.path)}</td><td>{log.kind}</td><td>{escape(log.rules)}</td>"
        f"<td>{log.deals:,}</td><td><code>{escape(log.digest or '')}</code></td></tr>"
        for log in data.logs
    ]
    return _table(
        "logs", [("log", ""), ("kind", ""), ("rules", ""), ("deals", ""), ("digest", "")], rows
    )


def render(data: ReportData, *, title: str | None = None) -> str:
    """The report's HTML page."""
    name = title or (data.logs[0].path if len(data.logs) == 1 else f"{len(data.logs)} logs")
    played = {deal.result.contract for deal in data.deals}
    contracts = [c for c in SOLO_CONTRACTS if c in played or c is not Contract.SMALL_ZOLE]
    chart = ratings_chart(data.history)
    method = data.ratings.method if data.ratings else ""
    chart_text = (
        f"{chart}<p class='note'>{escape(method)}; bands of the chart: "
        f"{data.history[0].bootstrap} resamples per point before the last, which is the "
        "standings' own.</p>"
        if chart
        else "<p>Not enough deals to rate.</p>"
    )
    warnings = ""
    if data.warnings:
        shown = "".join(f"<li>{escape(w)}</li>" for w in data.warnings[:100])
        more = len(data.warnings) - 100
        warnings = (
            f'<section id="warnings"><h2>Problems in the logs</h2><ul>{shown}</ul>'
            + (f"<p>… and {more:,} more (see <code>verify</code>).</p>" if more > 0 else "")
            + "</section>"
        )
    generated = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    bots = "".join(_bot_card(place, bot) for place, bot in enumerate(data.bots, 1))
    script = _asset("report.js")
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{_policy(script)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="zole-arena {escape(__version__)}">
<title>Zole report: {escape(name)}</title>
<style>{_asset("report.css")}</style></head>
<body>
<header><h1>Zole report</h1><p class="sub">{len(data.deals):,} deals · {len(data.bots)} bots ·
made {generated} by zole-arena {escape(__version__)}</p>
<nav><a href="#standings">standings</a><a href="#crosstable">crosstable</a>
<a href="#chart">ratings over time</a><a href="#bots">bots</a><a href="#deals">deals</a></nav>
</header>
<main>
<section id="logs">{_logs(data)}</section>
<section id="standings"><h2>Standings</h2>
<p class="note">Click a heading to sort. n/a: cannot be estimated (fewer than two units).</p>
{_standings(data, contracts)}</section>
<section id="crosstable"><h2>Head to head</h2>
<p class="note">Each cell: the row bot's score against the column bot over their pairwise
games (each deal is a game for every two of its players, won by the one who scored more),
and the Elo difference that score means.</p>{_crosstable(data)}</section>
<section id="chart"><h2>Ratings over time</h2>{chart_text}</section>
<section id="bots"><h2>Bots</h2>{bots}</section>
<section id="deals"><h2>Deals</h2>
<div id="filters"></div><div id="dealist"></div><div id="viewer" hidden></div>
<noscript>The deal viewer needs JavaScript.</noscript></section>
{warnings}
</main>
<script type="application/json" id="report-data">{script_json(payload(data))}</script>
<script>{script}</script>
</body></html>
"""
