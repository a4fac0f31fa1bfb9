"""The report's **Fair play** section: what ``zole-arena fairplay`` found in the report's deals.

``zole-arena fairplay LOG`` screens every bot of a log for card choices that depend on cards
it could not see (is its card best in the true deal more often than in deals drawn from what
it saw? ``docs/fairplay.md``) and caches the log's screen beside it, in ``LOG.fairplay.jsonl``.
As with the open-card analysis beside a log, the report reads that file by itself, so that a
flag and the deals behind it are one click apart: the section gives each bot's verdict and
statistic over the report's screened deals, the pairs and repeats flagged, and each bot's five
decisions that weigh most, each a link to the deal viewer at its card.

The figures are the library's, not worked out again here: :func:`~zole_arena.analysis.
fairplay.screen_logs` with ``solve=False`` (the cache files alone: no solver started, nothing
written) and :func:`~zole_arena.analysis.fairplay_stats.fairplay_report` with the command's
default thresholds. Only deals the report counts (verified, not read twice) are screened
here, matched by the SHA-256 of their log line, so the section and the rest of the page speak
of the same deals.

The file is read as untrusted: ``screen_logs`` keeps only lines made on this machine (marked
with the user's key) that fit a deal of the log; the lines it leaves out, and a file that
cannot be read at all, are a line each among the report's problems, never an error. Every
text from a log the section shows (bot names, match labels, cards) goes through
:mod:`~zole_arena.report.html`, escaped for where it goes, as the rest of the page's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from zole_arena.analysis.fairplay import DealScreen, LoggedDeal, fairplay_path, screen_logs
from zole_arena.analysis.fairplay_stats import (
    FairplayReport,
    PlayerScreen,
    Thresholds,
    fairplay_report,
    set_aside,
)
from zole_arena.errors import ZoleError
from zole_arena.records.model import DealRecord
from zole_arena.report.html import cell, deal_href, plural, table, text, wide
from zole_arena.report.model import FairplaySection, ReportData, WeightyDecision
from zole_arena.report.words import action_text, move_places, place_step

__all__ = ["WEIGHTY", "fairplay_html", "read_fairplay"]

#: Each bot's decisions that weigh most: this many, of the largest excess.
WEIGHTY = 5
#: The logs left to screen are named up to this many in the section's note.
_NAMED_LOGS = 5


def _lines(file: Path) -> int:
    """How many lines ``file`` holds (a last one without its newline counts too)."""
    count = 0
    last = b"\n"
    with open(file, "rb") as handle:
        while chunk := handle.read(1 << 20):
            count += chunk.count(b"\n")
            last = chunk[-1:]
    return count + (last != b"\n")


def _screens_of(
    log: Path, first: int, count: int, shas: Sequence[str]
) -> tuple[str | None, dict[int, DealScreen], list[str]]:
    """The fair-play file beside ``log`` (None: there is none), the screen it holds of each of
    the report's deals ``first`` to ``first + count`` (by index, those it holds one of), and
    what could not be used, a line each."""
    file = fairplay_path(log)
    try:
        if not file.exists():
            return None, {}, []
        if not file.is_file():
            return None, {}, [f"{file}: not a regular file, so not read as a fair-play screen"]
        run = screen_logs([log], solve=False)
        lines = _lines(file)
    except (ZoleError, OSError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        return None, {}, [f"{file}: {why} (the fair-play screen is left out of the report)"]
    held = {deal.screen.deal_sha256: deal.screen for deal in run.deals}
    found = {n: held[shas[n]] for n in range(first, first + count) if shas[n] in held}
    problems = []
    unused = lines - len(run.deals)
    if unused > 0:
        problems.append(
            f"{file}: {plural(unused, 'line')} that {'is' if unused == 1 else 'are'} no "
            "fair-play screen of a deal of the log made here (cut off, crafted, copied from "
            "another machine, or of another version) skipped; zole-arena fairplay "
            f"{log} screens again what is missing"
        )
    return str(file), found, problems


def _weighty(
    deals: Sequence[DealRecord], screens: Mapping[int, DealScreen]
) -> dict[str, tuple[WeightyDecision, ...]]:
    """Each bot's :data:`WEIGHTY` decisions of the largest excess, the earlier first among
    equals."""
    found: dict[str, list[WeightyDecision]] = {}
    for n in sorted(screens):
        names = deals[n].names
        for decision in screens[n].decisions:
            if not decision.bid and 0 <= decision.seat < len(names):
                found.setdefault(names[decision.seat], []).append(
                    WeightyDecision(n, decision.move, decision.seat, decision.excess)
                )
    return {
        name: tuple(sorted(items, key=lambda d: (-d.excess, d.deal, d.move))[:WEIGHTY])
        for name, items in found.items()
    }


def read_fairplay(
    logs: Sequence[tuple[str, int]],
    deals: Sequence[DealRecord],
    shas: Sequence[str],
) -> tuple[FairplaySection | None, list[str]]:
    """The fair-play section of a report (None: no log has a fair-play file beside it that
    could be read) and the problems of those files, a line each.

    :param logs: each log's path and how many of the report's deals it gave, in the order of
        the report's ``deals`` (``shas``: the SHA-256 of each one's log line). The thresholds
    are ``zole-arena fairplay``'s defaults.
    """
    screens: dict[int, DealScreen] = {}
    files: list[str] = []
    unscreened: list[str] = []
    problems: list[str] = []
    first = 0
    for path, count in logs:
        file, found, trouble = (
            _screens_of(Path(path), first, count, shas) if count else (None, {}, [])
        )
        problems += trouble
        if file is not None:
            files.append(file)
        for n, screen in found.items():
            screens.setdefault(n, screen)
        if len(found) < count and path not in unscreened:
            unscreened.append(path)
        first += count
    if not files:
        return None, problems
    ordered = [LoggedDeal(deals[n], screens[n]) for n in sorted(screens)]
    section = FairplaySection(
        fairplay_report(ordered, Thresholds()),
        len(screens),
        len(deals),
        tuple(files),
        tuple(unscreened),
        frozenset(name for n, deal in enumerate(deals) if n not in screens for name in deal.names),
        _weighty(deals, screens),
    )
    return section, problems


# -- the page -------------------------------------------------------------------------------


def _p(p: float) -> str:
    """A p-value as ``zole-arena fairplay`` prints it."""
    return f"{p:.2g}" if p >= 1e-4 else f"{p:.0e}"


def _signed(value: float) -> str:
    """A signed figure with a true minus, as the page writes scores."""
    return f"{value:+.3f}".replace("-", "\u2212")


def verdict(player: PlayerScreen, complete: bool = True) -> str:
    """A bot's verdict in words: ``flagged``; ``too few`` (too few deals or decisions to
    judge); ``not flagged``, or ``incomplete`` when some of its deals have no screen (not
    ``complete``): not flagged on the others is no clearance of those."""
    if player.flagged:
        return "flagged"
    if not player.estimate.usable:
        return "too few"
    return "not flagged" if complete else "incomplete"


def _bot_link(name: str, places: Mapping[str, int]) -> str:
    place = places.get(name)
    shown = text(name)
    return shown if place is None else f'<a href="#bot-{place}">{shown}</a>'


def _players(section: FairplaySection, places: Mapping[str, int]) -> str:
    findings = section.findings
    t = findings.thresholds
    headings = [
        ("bot", ""),
        ("verdict", f"flagged: the cards' mean excess above {t.allowance:g}, or the bids' above "
         f"{t.bid_allowance:g}, at p < {t.alpha / 2:g} each; too few: "
         "too few deals or decisions to judge; incomplete: not flagged on its screened deals, "
         "but some of its deals have no screen"),
        ("excess", "mean excess: how much more often its cards are best in the true deal than "
         "in deals drawn from what it saw (about 0 for a bot that knows only what it may)"),
        ("SE", "standard error of the mean excess, clustered by deal"),
        ("z", f"(excess − {t.allowance:g}) / SE"),
        ("p", "one-sided p-value"),
        ("decisions", "its cards screened"),
        ("deals", "deals with a card of it screened"),
        ("true deal", "the share of its screened cards best in the true deal"),
        ("drawn deals", "the mean share of drawn deals in which they were best"),
        ("bids", "its bids screened: is each best for its own contract in the true deal more "
         "often than in the drawn deals?"),
        ("bid excess", "the mean excess of its bids"),
        ("bid z", f"(bid excess − {t.bid_allowance:g}) / SE"),
    ]  # fmt: skip
    rows = []
    for p in findings.players:
        e = p.estimate
        word = verdict(p, p.name not in section.unscreened_bots)
        cells = [
            cell(_bot_link(p.name, places), p.name, "name"),
            cell(f"<b>{word}</b>" if p.flagged else word, word, "bad verdict" if p.flagged
                 else "verdict"),
            cell(_signed(e.mean), e.mean), cell(f"{e.se:.3f}", e.se),
            cell(f"{p.z:+.2f}".replace("-", "\u2212"), p.z), cell(_p(p.p_value), p.p_value),
            cell(f"{e.decisions:,}", e.decisions), cell(f"{e.deals:,}", e.deals),
            cell(f"{p.best_in_truth:.3f}", p.best_in_truth),
            cell(f"{p.best_in_samples:.3f}", p.best_in_samples),
            cell(f"{p.bids.decisions:,}", p.bids.decisions),
            cell(_signed(p.bids.mean), p.bids.mean),
            cell(f"{p.bids_z:+.2f}".replace("-", "\u2212"), p.bids_z),
        ]  # fmt: skip
        rows.append(f"<tr>{''.join(cells)}</tr>")
    notes = "".join(
        f"<p class='note fairplay-aside'>{text(sentence)}.</p>" for sentence in set_aside(findings)
    )
    return wide(table("sortable fairplay", headings, rows)) + notes


def _tests(findings: FairplayReport) -> str:
    """The pairs and the repeats flagged, or how many were tested."""
    pairs = [r for r in findings.pairs if r.flagged]
    repeats = [r for r in findings.repeats if r.flagged]
    parts = []
    if pairs:
        rows = [
            f"<tr><td class='name'>{text(r.seen_by)}</td><td class='name'>{text(r.player)}</td>"
            f"<td>{r.seen.decisions:,}</td><td>{_signed(r.seen.mean)}</td>"
            f"<td>{r.elsewhere.decisions:,}</td><td>{_signed(r.elsewhere.mean)}</td>"
            f"<td>{r.z:+.2f}</td><td>{_p(r.p_value)}</td></tr>"
            for r in pairs
        ]
        headings = [("seen by", "the bot that played the same cards at another table"),
                    ("bot", ""), ("seen: decisions", ""), ("excess", ""),
                    ("elsewhere: decisions", ""), ("excess", ""), ("z", ""), ("p", "")]  # fmt: skip
        parts.append(
            "<h3>Pairs flagged</h3><p class='note'>The second bot's excess on the deals whose "
            f"cards the first played too, against its excess elsewhere ({findings.pair_tests:,} "
            f"tested)</p>{wide(table('fairplay-pairs', headings, rows))}"
        )
    else:
        parts.append(f"<p id='fairplay-pairs'>No pair flagged ({findings.pair_tests:,} tested)</p>")
    if repeats:
        rows = [
            f"<tr><td class='name'>{text(r.name)}</td><td>{r.first.decisions:,}</td>"
            f"<td>{_signed(r.first.mean)}</td><td>{r.later.decisions:,}</td>"
            f"<td>{_signed(r.later.mean)}</td><td>{r.z:+.2f}</td><td>{_p(r.p_value)}</td></tr>"
            for r in repeats
        ]
        headings = [("bot", ""), ("first: decisions", ""), ("excess", ""),
                    ("later: decisions", ""), ("excess", ""), ("z", ""), ("p", "")]  # fmt: skip
        parts.append(
            "<h3>Repeats flagged</h3><p class='note'>A bot's excess when it met the same cards "
            f"again, against its first meetings ({findings.repeat_tests:,} tested)</p>"
            f"{wide(table('fairplay-repeats', headings, rows))}"
        )
    elif findings.repeats:
        parts.append(
            f"<p id='fairplay-repeats'>No repeat flagged ({findings.repeat_tests:,} tested)</p>"
        )
    return "".join(parts)


def _weighty_item(data: ReportData, decision: WeightyDecision) -> str:
    record = data.deals[decision.deal]
    where = data.tables[data.deal_tables[decision.deal]].label
    step = None
    card = ""
    if 0 <= decision.move < len(record.moves):
        kind, k = move_places(record)[decision.move]
        step = place_step(kind, k) if kind == "play" else None
        card = f" played {text(action_text(record.moves[decision.move].action))}"
    at = "" if step is None else f", step {step}"
    return (
        f'<li><a href="{deal_href(record.match_id, record.deal, step)}" class="dealref weighty"'
        f' data-deal="{decision.deal + 1}" data-step="{step or ""}">deal {decision.deal + 1}'
        f"{at}</a> ({text(where)}, deal {record.deal}, seat {decision.seat}):{card}, excess "
        f"<b>{_signed(decision.excess)}</b></li>"
    )


def _weighty_lists(data: ReportData, section: FairplaySection, places: Mapping[str, int]) -> str:
    parts = []
    for player in section.findings.players:
        items = section.weighty.get(player.name, ())
        listed = "".join(_weighty_item(data, decision) for decision in items)
        parts.append(
            f'<div class="fairplay-bot" data-bot="{text(player.name)}"><h4>'
            f"{_bot_link(player.name, places)}: its {plural(len(items), 'decision')} that weigh"
            f'{"s" if len(items) == 1 else ""} most</h4><ol class="weighty">{listed}</ol></div>'
        )
    return (
        "<h3>The decisions that weigh most</h3><p class='note'>Each bot's screened cards of the "
        "largest excess: best in the true deal where few of the deals drawn from what it saw "
        "make them best (or the reverse, below 0). Click one to see its deal at that card.</p>"
        + "".join(parts)
    )


def _coverage(section: FairplaySection) -> str:
    """How many of the report's deals were screened, and how to screen the rest."""
    shown = (
        f"<b>{section.screened:,} of the report's {section.deals:,} deals screened</b> "
        f"(read from {', '.join(f'<code>{text(f)}</code>' for f in section.files)})"
    )
    if section.unscreened_logs:
        logs = section.unscreened_logs
        named = " ".join(text(log) for log in logs[:_NAMED_LOGS])
        more = f" … ({len(logs):,} logs)" if len(logs) > _NAMED_LOGS else ""
        shown += (
            f"; the others have no screen: <code>zole-arena fairplay {named}{more}</code> "
            "screens them, and a report made again shows them; until then a bot that played "
            "one of them is not judged on it, and not cleared (<b>incomplete</b>)"
        )
    return shown


def fairplay_html(data: ReportData) -> str:
    """The report's fair-play section (empty: no fair-play file beside any log)."""
    section = data.fairplay
    if section is None:
        return ""
    findings = section.findings
    places = {bot.name: place for place, bot in enumerate(data.bots, 1)}
    t = findings.thresholds
    intro = (
        '<p class="note" id="fairplay-note">Is a bot\'s card best in the true deal more often '
        "than in deals drawn from what it saw? (<code>zole-arena fairplay</code>, see "
        f"docs/fairplay.md) {_coverage(section)}. Flagged: a mean excess of its cards above "
        f"{t.allowance:g}, or of its bids above {t.bid_allowance:g}, at p &lt; {t.alpha / 2:g} "
        "each (the command's defaults); too few: too few deals or decisions "
        "to judge. A flag is evidence, not a verdict: look at the deals.</p>"
    )
    if not section.screened:
        body = ""
    elif not findings.players:
        body = "<p>No card of the screened deals was a decision to screen.</p>"
    else:
        body = _players(section, places) + _tests(findings) + _weighty_lists(data, section, places)
    return f'<section id="fairplay"><h2>Fair play</h2>{intro}{body}</section>'
