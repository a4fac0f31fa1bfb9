"""``zole-arena replay`` and ``zole-arena verify``: read game records back."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.text import Text

from zole_arena.analysis.deal import analysis_fits
from zole_arena.analysis.model import DealAnalysis, Decision, Severity
from zole_arena.analysis.run import log_deals
from zole_arena.analysis.store import analysis_path, read_analysis
from zole_arena.arena.replay import replay_record
from zole_arena.arena.verify import DIGEST_RE, Finding, Kind, verify_log
from zole_arena.cli.console import err, fail, out
from zole_arena.errors import ZoleError, printable
from zole_arena.game.actions import Contract
from zole_arena.game.cards import CARDS
from zole_arena.players.render import cards_text
from zole_arena.records.checks import short
from zole_arena.records.model import DealRecord, InvalidHeader, MatchHeader, SettleRecord
from zole_arena.records.reader import read_log

_SEAT_NAMES = "ABC"
#: The letter of the one who sits a deal out at a table of four (the dealer).
_SITTER = "D"
_BIDS = frozenset(("pass", "take", "zole", "smallzole"))


def _who(record: DealRecord, seat: int | None) -> str:
    if seat is None:
        return "nobody"
    return f"{_SEAT_NAMES[seat]} {record.players[seat].name}"


def _sitter_who(record: DealRecord) -> str:
    """The one who sat the deal out at a table of four, as :func:`_who` names a seat."""
    sitter = record.sitter
    return f"{_SITTER} {sitter[0] if sitter is not None else '?'}"


def _scores_text(record: DealRecord) -> str:
    """The deal's scores and the totals after it, by seat: at a table of four the table's,
    the one who sat out (D) too (the result's own scores are the deal engine's three-player
    figure, which the sitter's payment changes)."""
    letters, changes, after = list(_SEAT_NAMES), list(record.seat_scores), list(record.totals)
    table, sitter = record.table, record.sitter
    if table is not None and sitter is not None:
        letters.append(_SITTER)
        changes.append(sitter[1])
        after.append(table.totals[table.dealer])
    scores = ", ".join(f"{letter} {v:+d}" for letter, v in zip(letters, changes, strict=True))
    totals = ", ".join(f"{letter} {v:+d}" for letter, v in zip(letters, after, strict=True))
    return f"scores: {scores}   totals: {totals}"


def _seconds(ms: float) -> str:
    return f"{ms / 1000:.2f} s" if ms >= 1000 else f"{ms:.0f} ms" if ms >= 10 else f"{ms:.1f} ms"


def time_text(record: DealRecord, seat: int) -> str | None:
    """The time ``seat`` used in the deal: its think time over its decisions, the longest,
    and under a clock what was left on it; None: the log does not say."""
    decisions = [m for m in record.moves if m.seat == seat and m.request_id is not None]
    thinks = [m.think_ms for m in decisions if m.think_ms is not None]
    if not thinks:
        return None
    text = f"{_seconds(sum(thinks))} in {len(thinks)} decision{'s' if len(thinks) != 1 else ''}"
    text += f" (longest {_seconds(max(thinks))})"
    clocks = [m.clock_ms for m in record.moves if m.seat == seat and m.clock_ms is not None]
    if clocks:
        text += f", {_seconds(clocks[-1])} left on the clock"
    return text


_MARKS = {Severity.INACCURACY: "?!", Severity.MISTAKE: "?", Severity.BLUNDER: "??"}


def _card_moves(record: DealRecord) -> list[int]:
    """The indices in ``record.moves`` of the cards played, in order."""
    return [
        i
        for i, m in enumerate(record.moves)
        if m.action not in _BIDS and len(m.action.split()) == 1
    ]


def _mark(decision: Decision | None, analysis: DealAnalysis) -> str:
    if decision is None:
        return ""
    severity = analysis.thresholds.severity(decision.loss)
    return _MARKS.get(severity, "")


def _show_analysis(record: DealRecord, analysis: DealAnalysis, seat: int | None) -> None:
    """The deal's decisions that lost points with all cards open, and how much."""
    lost = [d for d in analysis.decisions if d.loss > 0 and (seat is None or d.seat == seat)]
    mine = [d for d in analysis.decisions if seat is None or d.seat == seat]
    head = f"  analysis: {len(mine)} decisions"
    head += ", none lost points with all cards open" if not lost else f", {len(lost)} lost points:"
    out.print(head, markup=False, highlight=False)
    for d in lost:
        best = " / ".join(d.best_actions[:3]) + (" / …" if len(d.best_actions) > 3 else "")
        mark = _mark(d, analysis)
        out.print(
            f"    move {d.move + 1} {_who(record, d.seat)} ({d.phase}): {d.action} "
            f"{d.value:+d}, best {best} {d.best:+d}: loss {d.loss} {mark}".rstrip(),
            markup=False,
            highlight=False,
        )
    if not analysis.complete and analysis.note:
        out.print(
            f"    (analysed up to where {printable(analysis.note)})", markup=False, highlight=False
        )


def render_deal(
    record: DealRecord,
    seat: int | None,
    table: int | None = None,
    times: bool = False,
    analysis: DealAnalysis | None = None,
    analysed: bool = False,
) -> None:
    """Print one deal the way a person follows it (``seat``: only what that seat saw;
    ``table``: the tournament table it was played at; ``times``: the time each seat used,
    shown anyway under a game clock; ``analysis``: mark the cards that lost points with all
    cards open and list such decisions; ``analysed``: analysis was asked for, so say when a
    deal has none)."""
    by_move = {d.move: d for d in analysis.decisions} if analysis is not None else {}
    card_moves = _card_moves(record)
    replayed = replay_record(record)
    state = replayed.state
    result = record.result
    head = Text(f"Table {table}, deal {record.deal}" if table else f"Deal {record.deal}",
                style="bold")  # fmt: skip
    if record.block != record.deal:
        head.append(f" (block {record.block})")
    # At a table of four the dealer sits the deal out (the deal's own dealer seat is C's).
    dealer = _who(record, record.dealer) if record.table is None else _sitter_who(record)
    head.append(f" — rules {record.rules.get('preset', '?')}, seed {record.seed}, "
                f"dealer {dealer}")  # fmt: skip
    if seat is not None:
        head.append(f" — as seen by seat {seat}, {_who(record, seat)}")
    out.print(head)
    soloist = result.soloist
    contract = result.contract
    took = contract is Contract.TAKE
    for s in range(3):
        if seat is not None and s != seat:
            continue
        line = Text(f"  {_who(record, s):<16} ")
        line.append_text(cards_text(sorted(record.hands[s])))
        out.print(line)
    if record.table is not None:
        out.print(f"  {_sitter_who(record)} sits out (dealer)", markup=False, highlight=False)
    bids = [m for m in record.moves if m.action in _BIDS]
    if bids:
        out.print("  bids: " + ", ".join(f"{_who(record, m.seat)} {m.action}" for m in bids),
                  markup=False)  # fmt: skip
    talon_seen = seat is None or (took and seat == soloist)
    if talon_seen:
        line = Text("  talon: ")
        line.append_text(cards_text(sorted(record.talon)))
        if contract in (Contract.ZOLE, Contract.SMALL_ZOLE, Contract.TABLE, Contract.PULE):
            line.append(" (not used)" if contract is not Contract.ZOLE else
                        " (to the opponents)")  # fmt: skip
        out.print(line)
        if record.buried:
            line = Text(f"  {_who(record, soloist)} buries: ")
            line.append_text(cards_text(sorted(record.buried)))
            out.print(line)
    elif took:
        out.print(
            f"  {_who(record, soloist)} takes the talon and buries two cards (hidden)", markup=False
        )
    for number, trick in enumerate(record.tricks, start=1):
        line = Text(f"  {number}. ")
        for index, card in enumerate(trick.cards):
            who = (trick.leader + index) % 3
            line.append(f"{_SEAT_NAMES[who]}:")
            line.append_text(cards_text([card]))
            place = 3 * (number - 1) + index
            if analysis is not None and place < len(card_moves) and (seat is None or who == seat):
                line.append(_mark(by_move.get(card_moves[place]), analysis), style="bold red")
            line.append("  ")
        line.append(f"→ {_SEAT_NAMES[trick.winner]} ({trick.points})")
        out.print(line)
    unfinished = state.current_trick_cards() if state is not None else ()
    if unfinished and state is not None and state.turn is not None:  # a fault stopped it
        line = Text(f"  {len(record.tricks) + 1}. ")
        leader = (state.turn - len(unfinished)) % 3
        for index, number in enumerate(unfinished):
            line.append(f"{_SEAT_NAMES[(leader + index) % 3]}:")
            line.append_text(cards_text([CARDS[number]]))
            line.append("  ")
        line.append("(unfinished)")
        out.print(line)
    summary = f"  {contract or '(none)'}"
    if soloist is not None:
        summary += f", soloist {_who(record, soloist)}"
        if result.soloist_points is not None:
            tricks = result.soloist_tricks
            band = "?" if result.band is None else result.band.words
            summary += (f": {result.soloist_points} points, "
                        f"{tricks} trick{'s' if tricks != 1 else ''} — {band}")  # fmt: skip
    if result.ended_early:
        summary += " (stopped at the soloist's first trick)"
    out.print(summary, markup=False)
    if record.culprit is not None:
        fault = record.culprit
        out.print(f"  [red]forfeit[/] by {escape(_who(record, fault.seat))}: "
                  f"{escape(fault.kind)}: {escape(fault.message)}",
                  highlight=False)  # fmt: skip
    out.print(f"  {_scores_text(record)}", markup=False)
    # At a table of four the pules are the table's (the deal itself is played with none).
    pule_event = result.pule_event if record.table is None else record.table.pule_event
    if pule_event:
        out.print(f"  pules: {pule_event}", markup=False)
    if times or any(m.clock_ms is not None for m in record.moves):
        used = [(s, time_text(record, s)) for s in range(3)]
        shown = [f"{_SEAT_NAMES[s]} {text}" for s, text in used if text is not None]
        if shown:
            out.print("  time: " + "; ".join(shown), markup=False)
    if state is not None and replayed.problems:
        problems = escape("; ".join(replayed.problems))
        out.print(f"  [red]does not verify:[/] {problems}", highlight=False)
    if analysis is not None:
        _show_analysis(record, analysis, seat)
    elif analysed:
        out.print("  analysis: none for this deal (run zole-arena analyze again)", markup=False)
    out.print()


def render_settle(settle: SettleRecord, names: Sequence[str]) -> None:
    """Print the end of a table's match with pules standing (``names``: its players', by the
    index the record uses; a player without one is shown by number)."""

    def name(player: int) -> str:
        return names[player] if 0 <= player < len(names) else f"player {player + 1}"

    owners: dict[int, int] = {}
    for owner in settle.pules.personal:
        owners[owner] = owners.get(owner, 0) + 1
    standing = []
    if settle.pules.common:
        standing.append(f"{settle.pules.common} common (lapsing)")
    if owners:
        personal = ", ".join(f"{count} of {name(owner)}" for owner, count in owners.items())
        standing.append(f"personal: {personal} (each costs its owner {settle.payment} to "
                        "each other player)")  # fmt: skip
    out.print(Text(f"Pules standing at the end (after deal {settle.after}): "
                   f"{'; '.join(standing) or 'none'}", style="bold"))  # fmt: skip
    scores = ", ".join(f"{name(p)} {v:+d}" for p, v in enumerate(settle.scores))
    totals = ", ".join(f"{name(p)} {v:+d}" for p, v in enumerate(settle.totals))
    out.print(f"  scores: {scores}   final totals: {totals}", markup=False, highlight=False)
    out.print()


def replay_command(
    log: Annotated[Path, typer.Argument(help="A game log (JSON Lines).")],
    deal: Annotated[int | None, typer.Option(help="Show only this deal (its number).")] = None,
    seat: Annotated[
        int | None, typer.Option(help="Show only what this seat (0, 1, 2) could see.")
    ] = None,
    table: Annotated[
        int | None, typer.Option(help="In a tournament's log: show only this table's deals.")
    ] = None,
    times: Annotated[
        bool,
        typer.Option(
            "--times", help="Show the time each seat used (always shown under a game clock)."
        ),
    ] = False,
    analysis: Annotated[
        bool,
        typer.Option(
            "--analysis",
            help="Mark the decisions that lost points with all cards open (?! ? ??) and list "
            "them, from the log's analysis file (zole-arena analyze LOG makes it).",
        ),
    ] = False,
    analysis_file: Annotated[
        Path | None,
        typer.Option(
            "--analysis-file",
            help="The analysis file to read (implies --analysis; default LOG.analysis.jsonl).",
        ),
    ] = None,
) -> None:
    """Show logged deals as a person follows them: hands, bids, talon, tricks, scores; with
    --analysis, where each player lost points with all cards open."""
    if seat is not None and seat not in (0, 1, 2):
        fail(f"--seat must be 0, 1 or 2, not {seat}")
    records, problems = read_log(log)
    for problem in problems:
        err.print(f"[yellow]warning:[/] {escape(problem.describe())}", highlight=False)
    # A header is shown and used only when it is valid ('verify' says what is wrong with it).
    for record in records:
        if isinstance(record, InvalidHeader):
            err.print(
                f"[yellow]warning:[/] {escape(str(log))}: {escape(record.type)} header of "
                f"{escape(short(record.match_id))}: {escape(record.problems[0])}: ignored",
                highlight=False,
            )
    # A tournament's log holds its tables' matches: each match header says its table.
    tables = {
        r.match_id: r.tournament.table
        for r in records
        if isinstance(r, MatchHeader) and r.tournament is not None
    }
    deals = [r for r in records if isinstance(r, DealRecord)]
    analyses = _analyses(log, deals, analysis_file) if analysis or analysis_file else None
    if table is not None:
        if not tables:
            fail(f"{log}: not a tournament's log, so it has no tables (leave out --table)")
        if table not in tables.values():
            fail(f"{log}: no table {table} (the log has tables 1 to {max(tables.values())})")
        deals = [r for r in deals if tables.get(r.match_id) == table]
    if deal is not None:
        numbers = [r.deal for r in deals]
        deals = [r for r in deals if r.deal == deal]
        if not deals:
            have = f"deals {numbers[0]} to {numbers[-1]}" if numbers else "no deals"
            fail(f"{log}: no deal {deal} (the log has {have})")
    if not deals:
        fail(f"{log}: the log has no finished deal yet")
    header = next((r for r in records if not isinstance(r, InvalidHeader)), None)
    if isinstance(header, MatchHeader) and deal is None:  # a valid header first
        four = " (a table of four: the dealer sits each deal out)" if len(header.names) == 4 else ""
        out.print(f"match {header.match_id}: {', '.join(header.names)}{four}; rules "
                  f"{header.rules.get('preset')}; seed {header.seed}",
                  markup=False)  # fmt: skip
    # Each match's settle record follows its last deal, and is shown after it.
    names = {r.match_id: r.names for r in records if isinstance(r, MatchHeader)}
    settles = {(r.match_id, r.after): r for r in records if isinstance(r, SettleRecord)}
    for record in deals:
        found = analyses.get(id(record)) if analyses is not None else None
        render_deal(record, seat, tables.get(record.match_id), times, found, analyses is not None)
        settle = settles.get((record.match_id, record.deal))
        if settle is not None:
            render_settle(settle, names.get(record.match_id, ()))


def _analyses(log: Path, deals: list[DealRecord], path: Path | None) -> dict[int, DealAnalysis]:
    """The analysis of each deal record (by ``id``) that the analysis file holds."""
    path = path if path is not None else analysis_path(log)
    if not path.is_file():
        fail(f"{path}: no such analysis file (zole-arena analyze {log} makes it)")
    try:
        held = read_analysis(path)
        lines, _ = log_deals([log])
    except ZoleError as exc:
        fail(str(exc))
    if held.skipped:
        err.print(
            f"[yellow]warning:[/] {escape(str(path))}: {held.skipped} lines that are no "
            "analysis record were left out",
            highlight=False,
        )
    if len(lines) != len(deals):  # the log changed between the two reads
        fail(f"{log}: the log changed while it was read; try again")
    found = {
        id(record): held.deals[sha]
        for record, (_, sha) in zip(deals, lines, strict=True)
        if sha in held.deals and analysis_fits(held.deals[sha], record)
    }
    unfit = sum(1 for r, (_, sha) in zip(deals, lines, strict=True) if sha in held.deals) - len(
        found
    )
    if unfit:
        err.print(
            f"[yellow]warning:[/] {escape(str(path))}: {unfit} analyses do not fit their deals "
            "(a crafted or foreign file?): left out",
            highlight=False,
        )
    return found


def _digest_option(text: str) -> str:
    """A digest as given (``sha256:<hex>``, or the hex alone, in either case), written as
    logs write it; a malformed one ends the command with a one-line error."""
    digest = text.strip().lower()
    if not digest.startswith("sha256:"):
        digest = f"sha256:{digest}"
    if not DIGEST_RE.fullmatch(digest):
        fail(f"--digest {text!r} is not a digest: write sha256: and 64 hex digits")
    return digest


def verify_command(
    logs: Annotated[list[Path], typer.Argument(help="Game logs to check.")],
    digest: Annotated[
        str | None,
        typer.Option(
            help="The log's digest as published when its match ended (sha256:…): the log "
            "must end with the very line it names (one log only).",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Re-play every logged deal through the rules engine; list each record whose moves are
    illegal or whose logged result disagrees, each impossible header, and where the log's hash
    chain breaks; print each log's digest. Exits 1 if anything is wrong.
    """
    if digest is not None and len(logs) != 1:
        fail(f"--digest checks one log, not {len(logs)}")
    wanted = None if digest is None else _digest_option(digest)
    failed = False
    for path in logs:
        name = str(path)

        def show(finding: Finding, name: str = name) -> None:
            if finding.kind is Kind.LINE:  # as every reader of logs warns of a skipped line
                where = f"{name}:{finding.line}: {finding.message}"
                err.print(f"[yellow]warning:[/] {escape(where)}", highlight=False)
            elif finding.kind is Kind.NOTE:
                err.print(f"[yellow]note:[/] {escape(finding.describe(name))}", highlight=False)
            else:
                out.print(finding.describe(name), highlight=False, markup=False)

        try:
            report = verify_log(name, show, digest=wanted)
        except ZoleError as exc:  # not a log, or missing: say so, and go on with the others
            err.print(f"[bold red]error:[/] {escape(str(exc))}", highlight=False)
            failed = True
            continue
        good = report.deals - report.bad
        faults = []
        if report.bad:
            faults.append(f"{report.bad} bad")
        if report.bad_headers:
            faults.append(f"{report.bad_headers} bad header(s)")
        if report.bad_settles:
            faults.append(f"{report.bad_settles} bad or missing settle record(s)")
        if report.broken:
            faults.append(f"{report.broken} unreadable line(s)")
        if report.chain_breaks:
            faults.append("the hash chain breaks")
        if report.digest_differs:
            faults.append("not the digest given")
        status = f"[red]{', '.join(faults)}[/]" if faults else "[green]ok[/]"
        out.print(f"{escape(name)}: {good} of {report.deals} deals verify — {status}",
                  highlight=False)  # fmt: skip
        chain = (
            "" if report.format_version != 2 else " (format 2: the hash chain covers every line)"
        )
        if report.digest is not None:
            out.print(f"{name}: digest {report.digest}{chain}", highlight=False, markup=False)
        failed = failed or report.failed
    if failed:
        raise typer.Exit(1)
