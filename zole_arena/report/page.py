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
import math
from collections.abc import Sequence

from zole_arena import __version__
from zole_arena.analysis.model import Severity
from zole_arena.analysis.summary import BotAnalysis, Estimate
from zole_arena.events.sprt import SprtResult
from zole_arena.game.actions import Contract
from zole_arena.records.model import Fault
from zole_arena.report.chart import elo_text, interval_text, ratings_chart
from zole_arena.report.fairplay_section import fairplay_html
from zole_arena.report.html import cell as _cell
from zole_arena.report.html import deal_href
from zole_arena.report.html import table as _table
from zole_arena.report.html import text as _text
from zole_arena.report.html import wide as _wide
from zole_arena.report.model import (
    SOLO_CONTRACTS,
    BotFigures,
    LogSummary,
    ReportData,
    Settlement,
    paid,
)
from zole_arena.report.payload import MARKS, payload, script_json
from zole_arena.report.words import action_text, best_text, move_places, place_step
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
    """The page's script or styles, kept beside this module as package data."""
    return importlib.resources.files("zole_arena.report").joinpath(name).read_text("utf-8")


def _signed(value: float | None) -> str:
    """An Elo for people, or n/a."""
    return NOT_ESTIMATED if value is None else elo_text(value)


def _interval(rating: PlayerRating | None) -> str:
    return NOT_ESTIMATED if rating is None else interval_text(rating)


#: Shown for a bot with no analysed decision.
NO_ANALYSIS = "–"


def _loss(estimate: Estimate | None) -> str:
    """An average loss for people (two decimals, as ``analyze`` prints it)."""
    return NO_ANALYSIS if estimate is None or estimate.count == 0 else f"{estimate.mean:.2f}"


def _half_width(estimate: Estimate) -> float | None:
    """The half-width of an estimate's 95% interval (None: fewer than two deals)."""
    if math.isnan(estimate.low) or math.isnan(estimate.high):
        return None
    return (estimate.high - estimate.low) / 2


def _analysed_text(data: ReportData) -> str:
    return f"{data.analysed:,} of the report's {len(data.deals):,} deals analysed"


def _loss_cells(analysis: BotAnalysis | None) -> list[str]:
    """The standings' open-card loss per decision and the half-width of its interval."""
    if analysis is None or analysis.per_decision.count == 0:
        return [_cell(NO_ANALYSIS, ""), _cell(NO_ANALYSIS, "")]
    estimate = analysis.per_decision
    half = _half_width(estimate)
    return [
        _cell(f"{estimate.mean:.2f}", estimate.mean, "loss"),
        _cell(NOT_ESTIMATED if half is None else f"{half:.2f}", "" if half is None else half),
    ]


def _standings(data: ReportData, contracts: Sequence[Contract], tables: bool) -> str:
    rated = {rating.name: rating for rating in data.ratings.ratings} if data.ratings else {}
    analysed = data.analysed > 0
    rounds = any(bot.big_points is not None for bot in data.bots)
    loss_tip = (
        "the points a decision gave away on average, with all cards open (zole-arena analyze; "
        f"lower is better), over the decisions of the {_analysed_text(data)}"
    )
    headings: list[tuple[str, str] | tuple[str, str, str]] = [
        ("#", "place: by Elo, then by points per deal"),
        ("bot", ""),
        *(
            (("big points", "the lzf rounds' big points: 6/4/2/0 a table of four by its points "
              "(6/3/0 of three), shared places split"),)
            if rounds
            else ()
        ),
        ("Elo", "Bradley-Terry fit of every deal's pairwise games, average 0"),
        ("95% interval", "bootstrap over the blocks (or deals) that share cards, at every table"),
        ("LOS", "likelihood of superiority over the next bot down"),
        ("deals", ""),
        ("points", ""),
        ("per deal", "points per deal"),
        ("± 95%", "half-width of the 95% interval of the points per deal"),
        *((f"{_CONTRACT_WORDS[c]} won/played", f"as soloist in {c.value}") for c in contracts),
        *((("table games lost/played", "galdiņš: sorts by games lost"),) if tables else ()),
        ("faults", ""),
        *(
            (
                ("open-card loss per decision", loss_tip, "loss"),
                ("± 95%", "half-width of the 95% interval of the open-card loss per decision "
                 "(over deals: a deal's decisions are not independent)"),
            )
            if analysed
            else ()
        ),
    ]  # fmt: skip
    rows = []
    for place, bot in enumerate(data.bots, 1):
        stats = bot.stats
        rating = rated.get(bot.name)
        interval = stats.interval
        cells = [
            _cell(str(place), place),
            _cell(f'<a href="#bot-{place}">{_text(bot.name)}</a>', bot.name, "name"),
            *(
                (_cell(f"{float(bot.big_points):g}" if bot.big_points is not None else "",
                       float(bot.big_points) if bot.big_points is not None else ""),)
                if rounds
                else ()
            ),
            _cell(_signed(rating.elo if rating else None), rating.elo if rating else ""),
            _cell(_interval(rating), rating.low if rating and rating.low is not None else ""),
            _cell(
                NOT_ESTIMATED if rating is None or rating.los_next is None
                else f"{100 * rating.los_next:.1f}%",
                rating.los_next if rating and rating.los_next is not None else "",
            ),
            _cell(f"{stats.deals:,}", stats.deals),
            _cell(f"{stats.points:+,}", stats.points),
            _cell(f"{stats.mean:+.3f}" if stats.deals else NOT_ESTIMATED,
                  stats.mean if stats.deals else ""),
            _cell(NOT_ESTIMATED if interval == float("inf") else f"{interval:.3f}",
                  "" if interval == float("inf") else interval),
        ]  # fmt: skip
        for contract in contracts:
            played, won = bot.solo[contract]
            cells.append(_cell(f"{won}/{played}", won / played if played else ""))
        if tables:
            cells.append(_cell(f"{bot.table_lost}/{stats.table}",
                               bot.table_lost / stats.table if stats.table else ""))  # fmt: skip
        cells.append(_cell(str(stats.faults), stats.faults, "bad" if stats.faults else ""))
        if analysed:
            cells += _loss_cells(data.analysis.get(bot.name))
        rows.append(f"<tr>{''.join(cells)}</tr>")
    return _wide(_table("sortable standings", headings, rows))


#: The head-to-head table is drawn for at most this many bots: it has a cell for every two of
#: them (a forged log may name a bot in every deal), and 200 bots already make 40,000 cells.
MAX_CROSSTABLE = 200


def _crosstable(data: ReportData) -> str:
    names = [bot.name for bot in data.bots]
    if len(names) > MAX_CROSSTABLE:
        return (
            f"<p>{len(names):,} bots: too many for a table of every two (at most "
            f"{MAX_CROSSTABLE}); the standings and each bot's figures are below.</p>"
        )
    headings = [("", ""), *((f"{n + 1}", name) for n, name in enumerate(names))]
    rows = []
    for n, name in enumerate(names):
        cells = [f'<th class="name">{n + 1}. {_text(name)}</th>']
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
                    f'<td class="{tone}" title="{_text(name)} against {_text(other)}: '
                    f'{pair.score:g} of {pair.games:,} pairwise games">'
                    f"{100 * pair.fraction:.1f}%<br><small>{shown} Elo</small></td>"
                )
        rows.append(f"<tr>{''.join(cells)}</tr>")
    return _wide(_table("crosstable", headings, rows))


def _ms(value: float | None) -> str:
    """A think time for people: µs below a millisecond (a C bot's), else ms."""
    if value is None:
        return NOT_ESTIMATED
    return f"{value * 1000:,.0f} µs" if value < 1 else f"{value:,.1f} ms"


def _fault_line(data: ReportData, deal: int, fault: Fault) -> str:
    record = data.deals[deal]
    where = data.tables[data.deal_tables[deal]].label
    return (
        f'<li><a href="{deal_href(record.match_id, record.deal)}" class="dealref">'
        f"deal {deal + 1}</a> ({_text(where)}, deal {record.deal}, seat {fault.seat}): "
        f"<b>{_text(fault.kind.value)}</b> {_text(fault.message)}</li>"
    )


#: The results by match are shown open up to this many matches, folded beyond.
_OPEN_MATCHES = 20
#: A bot's faults are listed open up to this many, folded beyond.
_OPEN_FAULTS = 10
#: At most this many of a bot's faults are listed.
_MAX_FAULTS = 200


#: Each bot's card lists this many of its decisions that lost the most with all cards open.
WORST = 5
_VERBS = {"bid": "bid", "bury": "buried", "play": "played"}
_WORDS = {
    Severity.INACCURACY: ("inaccuracy", "inaccuracies"),
    Severity.MISTAKE: ("mistake", "mistakes"),
    Severity.BLUNDER: ("blunder", "blunders"),
}


def _points(value: int) -> str:
    """A value in points, signed, with a true minus (as the deal viewer writes scores)."""
    return f"{value:+d}".replace("-", "\u2212")


def _worst(data: ReportData, name: str, count: int = WORST) -> list[str]:
    """The ``count`` decisions of bot ``name`` that lost the most points (earliest first
    among equals), each a list item linking to its deal at the step that shows it."""
    found = [
        (decision.loss, index, n)
        for index, analysis in enumerate(data.analyses)
        if analysis is not None
        for n, decision in enumerate(analysis.decisions)
        if decision.player == name and decision.loss > 0
    ]
    found.sort(key=lambda item: (-item[0], item[1], item[2]))
    items = []
    for _, index, n in found[:count]:
        analysis = data.analyses[index]
        assert analysis is not None
        decision = analysis.decisions[n]
        record = data.deals[index]
        kind, k = move_places(record)[decision.move]
        step = place_step(kind, k)
        severity = analysis.thresholds.severity(decision.loss)
        where = data.tables[data.deal_tables[index]].label
        items.append(
            f'<li><a href="{deal_href(record.match_id, record.deal, step)}" class="dealref worst"'
            f' data-deal="{index + 1}" data-step="{step}">deal {index + 1}, step {step}</a> '
            f"({_text(where)}, deal {record.deal}, seat {decision.seat}, {decision.role.value}):"
            f" {_VERBS[kind]} {_text(action_text(decision.action))} {_points(decision.value)},"
            f" best {_text(best_text(decision.best_actions))} {_points(decision.best)}: loss "
            f'{decision.loss} <b class="mark" title="{_WORDS[severity][0]}">{MARKS[severity]}</b>'
            "</li>"
        )
    return items


def _bot_analysis(data: ReportData, bot: BotFigures) -> str:
    """A bot's open-card analysis: its average losses, its ?! ? ??, its worst decisions."""
    summary = data.analysis.get(bot.name)
    if summary is None or summary.decisions == 0:
        return f"<dt>open-card analysis</dt><dd>no analysed decision ({_analysed_text(data)})</dd>"

    def estimate(e: Estimate) -> str:
        half = _half_width(e)
        return f"{e.mean:.2f}" + ("" if half is None else f" ± {half:.2f}")

    phases = ", ".join(f"{phase.value} {_loss(e)}" for phase, e in summary.by_phase.items())
    roles = ", ".join(f"{role.value} {_loss(e)}" for role, e in summary.by_role.items())
    counts = ", ".join(
        f'{summary.counts[severity]:,} <span class="mark">{mark}</span> '
        f"({_WORDS[severity][summary.counts[severity] != 1]})"
        for severity, mark in MARKS.items()
    )
    worst = _worst(data, bot.name)
    listed = (
        f"<details open><summary>its {len(worst)} worst decision{'s' if len(worst) != 1 else ''}"
        f'</summary><ol class="worst">{"".join(worst)}</ol></details>'
        if worst
        else "no decision of it lost points"
    )
    return (
        f'<dt>open-card analysis</dt><dd class="analysis"><p>loss per decision '
        f"<b>{estimate(summary.per_decision)}</b> over {summary.decisions:,} decisions (moves "
        f"with a choice) in "
        f"{summary.deals:,} deals (per deal {estimate(summary.per_deal)}); by phase: {phases};"
        f" by role: {roles}; {counts}</p>{listed}</dd>"
    )


def _bot_card(data: ReportData, place: int, bot: BotFigures) -> str:
    think = bot.think
    identities = "".join(
        "<li>"
        + _text(
            " · ".join(
                part for part in (
                    identity.id_name and f"id {identity.id_name}",
                    identity.author and f"by {identity.author}",
                    identity.version and f"version {identity.version}",
                ) if part
            ) or "no id given"
        )
        + (f" — <code>{_text(' '.join(identity.command))}</code>" if identity.command else "")
        + "</li>"
        for identity in bot.identities
    )  # fmt: skip
    shown = bot.faults[:_MAX_FAULTS]
    faults = "".join(_fault_line(data, deal, fault) for deal, fault in shown)
    more = (
        f"<p>… and {len(bot.faults) - len(shown):,} more (the deal list's filter shows them "
        "all).</p>" if len(bot.faults) > _MAX_FAULTS else ""
    )  # fmt: skip
    if faults:
        count = f"{len(bot.faults):,} fault{'s' if len(bot.faults) != 1 else ''}"
        opened = " open" if len(bot.faults) <= _OPEN_FAULTS else ""
        faults = f"<details{opened}><summary>{count}</summary><ul>{faults}</ul>{more}</details>"
    return (
        f'<section class="bot" id="bot-{place}"><h3>{place}. {_text(bot.name)}</h3>'
        f"<dl><dt>identity</dt><dd><ul>{identities}</ul></dd>"
        f"<dt>think time</dt><dd>median {_ms(think.median)}, 95th percentile {_ms(think.p95)}, "
        f"maximum {_ms(think.max)} over {think.moves:,} decisions</dd>"
        f"<dt>faults</dt><dd>"
        + (faults or "none")
        + "</dd>"
        + (_bot_analysis(data, bot) if data.analysed else "")
        + "</dl></section>"
    )


def _chain(log: LogSummary) -> str:
    if not log.hash_chain:
        return "format 1: no hash chain (edits cannot be detected)"
    line = log.chain_break
    if line is None:
        return (
            '<span class="good" title="no line was changed, removed or inserted since the one '
            "before it was written; that the log is the one the run wrote, only its digest "
            'shows: compare it with the one the run printed">hash chain intact</span>'
        )
    return (
        f'<span class="bad">hash chain broken: line {line - 1} was changed, or lines were '
        f"removed or inserted before line {line}; this digest vouches for nothing (run "
        "verify)</span>"
    )


def _deals_of_log(data: ReportData, number: int) -> str:
    """A log's deals, of those its headers plan, and those left out."""
    log = data.logs[number]
    planned = [t.planned for t in data.tables if t.log == number and t.planned is not None]
    text = f"{log.deals:,}"
    if planned and sum(planned) != log.deals:
        text += f" of {sum(planned):,} planned"
    if log.left_out:
        text += f'<br><span class="bad">{log.left_out:,} left out: wrong (see problems)</span>'
    if log.analysis is not None:
        text += (
            f'<br><span class="analysed" title="open-card analysis read from '
            f'{_text(log.analysis)}">{log.analysed:,} analysed</span>'
        )
    return text


def _logs(data: ReportData) -> str:
    rows = [
        f"<tr><td>{_text(log.path)}</td><td>{log.kind}</td><td>{_text(log.rules)}</td>"
        f'<td class="num">{_deals_of_log(data, n)}</td><td><code>{_text(log.digest or "")}'
        f"</code><br>{_chain(log)}</td></tr>"
        for n, log in enumerate(data.logs)
    ]
    headings = [("log", ""), ("kind", ""), ("rules", ""), ("deals", ""),
                ("digest", "what verify --digest checks")]  # fmt: skip
    return _wide(_table("logs", headings, rows))


def _settlement(settlement: Settlement) -> str:
    """A table of four's pules settled at the end, in words: whose personal pules stood, what
    they cost, and each player's change."""
    names = settlement.names
    size = len(names)
    owned: dict[int, int] = {}
    for owner in settlement.pules.personal:
        owned[owner] = owned.get(owner, 0) + 1

    def name(seat: int) -> str:
        return names[seat] if seat < size else f"table seat {seat}"

    each = settlement.payment * (size - 1)
    owners = "; ".join(
        f"{name(owner)} {count} pule{'s' if count != 1 else ''}, pays {count * each}"
        for owner, count in owned.items()
    )
    changes = ", ".join(
        f"{player} {score:+d}" if score else f"{player} 0"
        for player, score in zip(names, settlement.scores, strict=True)
    )
    return _text(
        f"pules settled at the end ({settlement.payment} a personal pule to each other "
        f"player): {owners or 'none'} \u2192 {changes}"
    )


def _matches(data: ReportData) -> str:
    """Each match's players with their points (at a table of four the one who sat a deal out
    was paid too, and the pules settled at the end count), and its deals played of those
    planned (the results by table of a tournament). Shown for several matches, or for a
    match whose pules were settled at the end (the line that says how)."""
    settled = {settlement.table: settlement for settlement in data.settlements}
    if len(data.tables) < 2 and not settled:
        return ""
    points: list[dict[str, int]] = [dict.fromkeys(table.players, 0) for table in data.tables]
    played = [0] * len(data.tables)
    for record, index in zip(data.deals, data.deal_tables, strict=True):
        played[index] += 1
        for name, score in paid(record):
            points[index][name] = points[index].get(name, 0) + score
    for settlement in data.settlements:
        for name, score in zip(settlement.names, settlement.scores, strict=True):
            points[settlement.table][name] = points[settlement.table].get(name, 0) + score
    several = len(data.logs) > 1
    rows = []
    for n, table in enumerate(data.tables):
        where = f"log {table.log + 1} · {table.label}" if several else table.label
        players = ", ".join(
            f"{_text(name)} {score:+d}" if score else f"{_text(name)} 0"
            for name, score in points[n].items()
        )
        planned = "?" if table.planned is None else f"{table.planned:,}"
        if n in settled:
            players += f'<br><span class="settle">{_settlement(settled[n])}</span>'
        rows.append(
            f'<tr><td data-sort="{n}">{_text(where)}</td><td>{players}</td>'
            f'<td class="num" data-sort="{played[n]}">{played[n]:,}/{planned}</td></tr>'
        )
    headings = [("match", ""), ("players and points", "in the order of its header"),
                ("deals", "played / planned")]  # fmt: skip
    shown = _wide(_table("sortable matches", headings, rows))
    if len(rows) > _OPEN_MATCHES:
        shown = f"<details><summary>{len(rows):,} matches</summary>{shown}</details>"
    return f'<section id="matches"><h2>Results by match</h2>{shown}</section>'


def _decision(test: SprtResult) -> str:
    if test.decision == "H1":
        return f"H1 accepted: {test.new} is {test.settings.elo1:g} Elo better than {test.old}"
    if test.decision == "H0":
        return f"H0 accepted: {test.new} is not {test.settings.elo1:g} Elo better than {test.old}"
    return f"no decision ({test.stopped or 'the log was cut off'})"


def _tests(data: ReportData) -> str:
    """Each head-to-head test's result, as ``sprt`` and ``standings`` give it."""
    parts = []
    for log in data.logs:
        test = log.sprt
        if test is None:
            continue
        copies = "" if test.third else (
            f"{test.new}#2 and {test.old}#2 are the second copies of each, seated in turn in "
            "the third seat; the standings list them apart."
        )  # fmt: skip
        settings = test.settings
        parts.append(
            f"<div class='test'><h3>{_text(test.new)} against {_text(test.old)}</h3>"
            f"<p><b>{_text(_decision(test))}</b></p>"
            f"<p>LLR {test.llr:+.3f} (H0 at {settings.lower:+.3f}, H1 at {settings.upper:+.3f}; "
            f"elo0 {settings.elo0:g}, elo1 {settings.elo1:g}, alpha {settings.alpha:g}, "
            f"beta {settings.beta:g})</p>"
            f"<p>{test.blocks:,} blocks = {test.deals:,} deals ({test.games:,} games against "
            f"{_text(test.old)}); score {100 * test.score:.1f}%, Elo {test.elo:+.0f} (95%: "
            f"{test.elo_low:+.0f} … {test.elo_high:+.0f}), LOS {test.los:.1f}%</p>"
            f"<p class='note'>{_text(copies)}</p></div>"
        )
    if not parts:
        return ""
    return '<section id="tests"><h2>Head-to-head test</h2>' + "".join(parts) + "</section>"


def _four_note(data: ReportData) -> str:
    """How the standings count tables of four, when the report has any."""
    if not any(record.table is not None for record in data.deals):
        return ""
    settled = (
        ", and the pules settled at the end of a match (see the results by match)"
        if data.settlements
        else ""
    )
    return (
        '<p class="note" id="four-note">At a table of four the dealer sits the deal out and '
        "pays or collects as an opponent of the soloist: a deal sat out counts in the deals "
        f"and the points (not in the roles){settled}, as <code>standings</code> counts them. "
        "The head to head and the ratings count only the three who played each deal.</p>"
    )


def _analysis_note(data: ReportData) -> str:
    """What the standings' open-card loss is, and over how many deals."""
    if not data.analysed:
        return ""
    return (
        f'<p class="note" id="analysis-note">Open-card loss per decision: the points each '
        "decision gave away on average, valued with all cards open and everyone playing best "
        "from there (<code>zole-arena analyze</code>; lower is better), over the "
        f"<b>{_analysed_text(data)}</b>; {NO_ANALYSIS}: no analysed decision. Not a measure "
        "of play under hidden cards: see docs/analysis.md.</p>"
    )


def render(data: ReportData, *, title: str | None = None) -> str:
    """The report's HTML page."""
    name = title or (data.logs[0].path if len(data.logs) == 1 else f"{len(data.logs)} logs")
    played = {deal.result.contract for deal in data.deals}
    contracts = [c for c in SOLO_CONTRACTS if c in played or c is Contract.TAKE]
    chart = ratings_chart(data.history)
    method = data.ratings.method if data.ratings else ""
    chart_text = (
        f"{chart}<p class='note'>{_text(method)}; bands of the chart: "
        f"{data.history[0].bootstrap} resamples per point before the last, which is the "
        "standings' own.</p>"
        if chart
        else "<p>Not enough deals to rate.</p>"
    )
    warnings = ""
    if data.warnings:
        shown = "".join(f"<li>{_text(w)}</li>" for w in data.warnings[:100])
        more = len(data.warnings) - 100
        warnings = (
            f'<section id="warnings" class="problems"><h2>Problems in the logs</h2><ul>{shown}</ul>'
            + (f"<p>… and {more:,} more (see <code>verify</code>).</p>" if more > 0 else "")
            + "</section>"
        )
    generated = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    bots = "".join(_bot_card(data, place, bot) for place, bot in enumerate(data.bots, 1))
    fairplay_link = '<a href="#fairplay">fair play</a>' if data.fairplay else ""
    problems_link = '<a href="#warnings" class="bad">problems</a>' if warnings else ""
    script = _asset("report.js")
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{_policy(script)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="zole-arena {_text(__version__)}">
<title>Zole report: {_text(name)}</title>
<style>{_asset("report.css")}</style></head>
<body>
<header><h1>{_text(title or "Zole report")}</h1>
<p class="sub">{len(data.deals):,} deals · {len(data.bots)} bots ·
made {generated} by zole-arena {_text(__version__)}</p>
<nav><a href="#standings">standings</a><a href="#crosstable">crosstable</a>
<a href="#chart">ratings over time</a><a href="#bots">bots</a>{fairplay_link}
<a href="#deals">deals</a>{problems_link}</nav>
</header>
<main>
<section id="logs">{_logs(data)}</section>
{warnings}
{_tests(data)}
<section id="standings"><h2>Standings</h2>
<p class="note">Click a heading to sort. n/a: cannot be estimated (fewer than two clusters).</p>
{_four_note(data)}{_analysis_note(data)}
{_standings(data, contracts, Contract.TABLE in played)}</section>
<section id="crosstable"><h2>Head to head</h2>
<p class="note">Each cell: the row bot's score against the column bot over their pairwise
games (each deal is a game for every two of its players, won by the one who scored more),
and the Elo difference that score means.</p>{_crosstable(data)}</section>
<section id="chart"><h2>Ratings over time</h2>{chart_text}</section>
{_matches(data)}
<section id="bots"><h2>Bots</h2>{bots}</section>
{fairplay_html(data)}
<section id="deals"><h2>Deals</h2>
<div id="filters"></div><p id="deal-notice" class="bad" hidden></p><div id="dealist"></div>
<div id="viewer" hidden></div>
<noscript>The deal viewer needs JavaScript.</noscript></section>
</main>
<script type="application/json" id="report-data">{script_json(payload(data))}</script>
<script>{script}</script>
</body></html>
"""
