"""The check's runner: a bot driven through the catalogue's items, each passed or failed
(what is sent, and when a fresh copy of the bot joins: the package's docstring,
:mod:`zole_arena.arena.check`)."""

from __future__ import annotations

import contextlib
import dataclasses
import os
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Final

from zole_arena.arena.check.catalogue import (
    FOUR_DEALS,
    FOUR_PLAYING,
    FOUR_RULES,
    FOUR_SEED,
    FOUR_SITTING,
    CheckMatch,
    Scenario,
    check_matches,
)
from zole_arena.arena.referee import MARGIN_MS, MOVETIME_MS, DealOutcome, FaultPolicy, Referee
from zole_arena.errors import BotError, IllegalActionError, NotationError
from zole_arena.game.clock import MAX_CLOCK_MS, TimeControl
from zole_arena.game.rules import load_rules
from zole_arena.game.scoresheet import ScoreSheet
from zole_arena.game.scoring import Pules
from zole_arena.game.state import DealResult, DealState, forfeit_result, max_penalty
from zole_arena.game.table import TableSheet
from zole_arena.players.session import BotConfig, BotSession
from zole_arena.protocol import (
    QUIT,
    DealWriter,
    events_after,
    parse_answer,
    plays_at,
    result_event,
    setoption_line,
    tables_said,
)

__all__ = ["CheckItem", "run_check"]

#: How many lines of its transcript a failed item shows.
TRANSCRIPT_LINES: Final = 12
#: The most of a transcript read for one failed item (bytes): its last lines are in it.
MAX_TRANSCRIPT_READ: Final = 256 * 1024
#: How many of a bot's lines that are no protocol message the check shows.
STRAY_SHOWN: Final = 5

_OPTION_TYPES: Final = frozenset({"check", "spin", "combo", "string"})
#: How long a bot has to exit after ``quit``.
QUIT_GRACE_S: Final = 1.0


@dataclasses.dataclass(frozen=True)
class CheckItem:
    """The outcome of one item of the check."""

    number: int
    name: str
    passed: bool
    detail: str
    line: str | None = None
    """The offending line from the bot, on a failure."""
    transcript: tuple[str, ...] = ()
    """On a failure, the end of the item's transcript: the last lines between the arena and
    the bot (:mod:`~zole_arena.players.transcript`), oldest first."""
    skipped: bool = False
    """The item does not apply to the bot (the table-of-four items, for a bot that plays only
    at tables of three): not run, and no failure (``passed`` is true)."""


@dataclasses.dataclass(frozen=True)
class _Problem:
    """Something that fails an item, noted when it happened: the item's detail, the offending
    line, and the end of the transcript then."""

    detail: str
    line: str | None
    transcript: tuple[str, ...]


class _Failed(Exception):
    """A decision of the bot failed: the item's detail and the offending line."""

    def __init__(self, detail: str, line: str | None, kind: str) -> None:
        self.detail = detail
        self.line = line
        self.kind = kind


class _Checker:
    def __init__(
        self,
        config: BotConfig,
        time_ms: int,
        margin_ms: int,
        report: Callable[[CheckItem], None],
    ) -> None:
        self._own_transcript: str | None = None
        if config.transcript is None:  # failed items show the end of theirs anyway
            handle, self._own_transcript = tempfile.mkstemp(prefix="zole-check-", suffix=".txt")
            os.close(handle)
            config = dataclasses.replace(config, transcript=self._own_transcript)
        if config.sandbox is not None and config.transcript is not None:
            # The transcript holds every copy's hand: no sandboxed copy may read it.
            hidden = (*config.sandbox.hidden, os.path.abspath(config.transcript))
            config = dataclasses.replace(
                config, sandbox=dataclasses.replace(config.sandbox, hidden=hidden)
            )
        self.config = dataclasses.replace(config, options={})
        self._mark = 0
        """Where the transcript stood when the item under way began (bytes)."""
        self.stray_lines = 0
        """Lines the bot wrote on its stdout that were no protocol message, in all copies."""
        self.stray_examples: list[str] = []
        """The first few of them."""
        self.time_ms = time_ms
        self.margin_ms = margin_ms
        self.report = report
        self.items: list[CheckItem] = []
        self.request_id = 0
        self.session: BotSession | None = None
        """The copy of the bot that plays the next deal."""
        self.retired: list[tuple[BotSession, float]] = []
        """Copies sent ``quit``, with the time by which they must have exited."""

    def item(
        self,
        name: str,
        passed: bool,
        detail: str,
        line: str | None = None,
        *,
        skipped: bool = False,
        transcript: tuple[str, ...] | None = None,
    ) -> bool:
        """Report an item (``transcript``: a failure's, when not the end of the transcript
        now)."""
        shown = () if passed else transcript or self._transcript_since_mark()
        item = CheckItem(len(self.items) + 1, name, passed, detail, line, shown, skipped)
        self.items.append(item)
        self.report(item)
        self._mark = self._transcript_size()
        return passed

    def _transcript_size(self) -> int:
        assert self.config.transcript is not None
        with contextlib.suppress(OSError):
            return os.path.getsize(self.config.transcript)
        return 0

    def _transcript_since_mark(self, lines: int = TRANSCRIPT_LINES) -> tuple[str, ...]:
        """The last lines of the transcript written since the item began."""
        assert self.config.transcript is not None
        start = max(self._mark, self._transcript_size() - MAX_TRANSCRIPT_READ)  # a long item's end
        try:
            with open(self.config.transcript, "rb") as file:
                file.seek(start)
                text = file.read()
        except OSError:
            return ()
        kept = text.decode("utf-8", "replace").splitlines()
        return tuple(kept[-lines:])

    def _count_stray(self, session: BotSession) -> None:
        """Count the lines the copy wrote that were no protocol message (once per copy)."""
        self.stray_lines += session.take_stray()
        for example in session.stray_examples:
            if len(self.stray_examples) < STRAY_SHOWN and example not in self.stray_examples:
                self.stray_examples.append(example)

    def _start(self) -> BotSession:
        session = BotSession(self.config)
        self._copies.append(session)
        return session

    def run(self) -> list[CheckItem]:
        self._copies: list[BotSession] = []
        started = time.monotonic()
        try:
            try:
                self.session = self._start()
            except BotError as exc:
                self.item("start and handshake", False, str(exc), exc.line)
                return self.items
            try:
                self._with_session(self.session, started)
            finally:
                if self.session is not None:
                    self.session.kill()
                for session, _ in self.retired:
                    session.kill()
                for session in self._copies:
                    self._count_stray(session)
        finally:
            if self._own_transcript is not None:
                with contextlib.suppress(OSError):
                    os.unlink(self._own_transcript)
        return self.items

    def _with_session(self, session: BotSession, started: float) -> None:
        elapsed = (time.monotonic() - started) * 1000
        if "name" not in session.ids:
            self.item("start and handshake", False, "the bot gave no 'id name'")
        else:
            self.item(
                "start and handshake",
                True,
                f"{session.ids['name']!r} by {session.ids.get('author', '?')!r}, "
                f"version {session.ids.get('version', '?')!r} [{elapsed:.0f} ms]",
            )
        self._options(session)
        try:
            ms = session.ping()
            self.item("ping (isready → readyok)", True, f"[{ms:.1f} ms]")
        except BotError as exc:
            self.item("ping (isready → readyok)", False, f"{exc.kind}: {exc}", exc.line)
            return
        for index, match in enumerate(check_matches()):
            if index:  # each rule set is a match of its own, with processes of its own
                self._retire()
            if not self._match(match):
                return
        self._table_of_four(session.ids)
        for preset in ("wpt", "lzf"):
            self._full_deal(preset)
        # A clock of ten times the time per decision: its fair shares are about that time
        # (at most the longest clock there is).
        base, inc = (min(ms, MAX_CLOCK_MS) for ms in (10 * self.time_ms, self.time_ms // 20))
        self._full_deal("wpt", TimeControl(base, inc))
        self._quit()

    def _options(self, session: BotSession) -> None:
        bad = []
        for option in session.options.values():
            if option.type not in _OPTION_TYPES:
                bad.append(f"{option.name}: unknown type {option.type!r}")
                continue
            try:
                option.check_value(option.default)
            except ValueError as exc:
                bad.append(f"default does not fit: {exc}")
        if bad:
            self.item("options", False, "; ".join(bad))
            return
        try:
            for option in session.options.values():
                if option.type != "string":
                    session.send(setoption_line(option.name, option.default))
            ms = session.ping()
        except BotError as exc:
            self.item("options", False, f"{exc.kind}: {exc}", exc.line)
            return
        names = ", ".join(session.options) or "none declared"
        self.item("options", True, f"{names}; set to defaults, readyok [{ms:.1f} ms]")

    # -- copies of the bot ------------------------------------------------------------------

    def _retire(self) -> None:
        """End the running copy (between deals) with ``quit``; whether it exits in time is
        judged by the last item."""
        if self.session is not None:
            self.session.send_quit()
            self.retired.append((self.session, time.monotonic() + QUIT_GRACE_S))
            self.session = None

    def _fresh(self) -> BotSession:
        """A fresh copy of the bot, started and through its handshake.

        :raises BotError: it could not be started.
        """
        self.session = self._start()
        return self.session

    # -- the decisions ----------------------------------------------------------------------

    def _match(self, match: CheckMatch) -> bool:
        """Play the deals of ``match``; False when the bot could not be started again (the
        check ends there)."""
        totals = list(match.totals)
        pules = match.pules
        for scenario in match.scenarios:
            if scenario.joins:
                self._retire()
            if self.session is None:
                try:
                    self._fresh()
                except BotError as exc:
                    self.item(scenario.title, False, f"a fresh copy did not start: {exc}",
                              exc.line)  # fmt: skip
                    return False
            assert self.session is not None
            result, failed = self._deal(self.session, scenario, tuple(totals), pules)
            for seat in range(3):
                totals[seat] += result.scores[seat]
            pules = result.pules
            if failed is not None:
                # As a match does with a bot that faults: it is stopped, and started again.
                self.session.kill()
                self.session = None
                try:
                    self._fresh()
                except BotError as exc:
                    self.item(f"restart after a {failed}", False, str(exc), exc.line)
                    return False
        return True

    def _deal(
        self, session: BotSession, scenario: Scenario, totals: tuple[int, ...], pules: Pules
    ) -> tuple[DealResult, str | None]:
        """Play the scenario's deal with the bot in its seat, to the end or to the bot's first
        failure; report the item. The deal's result, and the kind of the failure if any."""
        position = scenario.state
        rules = position.rules
        seat = scenario.seat
        assert position.seed is not None and position.deal_no is not None
        deal_no = position.deal_no
        deal = DealState.from_seed(rules, position.seed, deal_no, pules=pules)
        writer = DealWriter(deal, deal_no, totals)
        pending = [writer.newdeal(seat)]
        for mover, action in position.history:
            deal.apply(action)
            pending += events_after(deal, mover, action)
        answers: list[str] = []
        first_ms = 0.0
        try:
            while deal.result is None:
                mover = deal.turn  # type: ignore[assignment]
                if mover == seat:
                    words, ms = self._decide(session, deal, writer, pending, len(answers))
                    pending = []
                    answers.append(" ".join(words))
                    first_ms = first_ms or ms
                    applied = deal.history[-1][1]
                else:
                    applied = deal.legal_actions()[0]
                    deal.apply(applied)
                pending += events_after(deal, mover, applied)
            result = deal.result
            totals_after = [t + s for t, s in zip(totals, result.scores, strict=True)]
            try:
                session.send_lines([*pending, result_event(result, deal_no, totals_after)])
            except BotError as exc:
                raise _Failed(f"at the deal's result: {exc.kind}: {exc}", exc.line,
                              exc.kind) from None  # fmt: skip
        except _Failed as failure:
            self.item(scenario.title, False, failure.detail, failure.line)
            return forfeit_result(deal, seat, max_penalty(rules)), failure.kind
        more = len(answers) - 1
        then = f"; {more} more to the deal's end" if more else "; the deal ended"
        self.item(scenario.title, True,
                  f"{answers[0]} [{first_ms:.1f} ms]{then} ({result.contract})")  # fmt: skip
        return result, None

    def _decide(
        self,
        session: BotSession,
        deal: DealState,
        writer: DealWriter,
        events: list[str],
        answered: int,
    ) -> tuple[tuple[str, ...], float]:
        """Ask the bot for the decision at hand (``events`` go with the request) and apply its
        answer: its words and the time it took.

        :raises _Failed: no answer, or not a legal one.
        """
        where = "" if not answered else f"answer {answered + 1} of the deal ({deal.phase}): "
        self.request_id += 1
        line = writer.go(self.request_id, self.time_ms)
        try:
            reply = session.request(line, self.request_id, self.time_ms, self.margin_ms, events)
        except BotError as exc:
            raise _Failed(f"{where}{exc.kind}: {exc}", exc.line, exc.kind) from None
        try:
            deal.apply(parse_answer(reply.words, deal.phase))
        except (NotationError, IllegalActionError) as exc:
            kind = "garbage" if isinstance(exc, NotationError) else "illegal"
            raise _Failed(f"{where}not a legal answer: {exc}", reply.line, kind) from None
        return reply.words, reply.elapsed_ms

    # -- a table of four ---------------------------------------------------------------------

    def _table_of_four(self, ids: Mapping[str, str]) -> None:
        """The table-of-four items: :data:`FOUR_DEALS` deals between four copies of the bot,
        played by the referee as a match at four plays them; skipped for a bot that plays
        only at tables of three (``ids``: its handshake's)."""
        if not plays_at(ids, 4):
            said = ",".join(map(str, tables_said(ids)))
            why = (f"skipped: the bot plays only at tables of {said} (its handshake's "
                   f"'id tables {said}'), and no match seats it at four")  # fmt: skip
            self.item(FOUR_PLAYING, True, why, skipped=True)
            self.item(FOUR_SITTING, True, why, skipped=True)
            return
        rules = load_rules(FOUR_RULES)
        referee = Referee(
            rules,
            [self.config] * 4,
            time_ms=self.time_ms,
            margin_ms=self.margin_ms,
            policy=FaultPolicy(max_faults=FOUR_DEALS),  # every deal is played, faults or not
        )
        sheet = TableSheet(rules, FOUR_SEED, 4)
        outcomes: list[DealOutcome] = []
        playing: list[_Problem] = []
        sitting: list[_Problem] = []
        readyok_ms: list[float] = []
        try:
            referee.start()
            for _ in range(FOUR_DEALS):
                outcome = referee.play_deal(sheet)
                self.stray_lines += sum(outcome.stray)
                if outcome.faults:
                    fault = outcome.faults[0]
                    playing.append(self._problem(fault.describe(), fault.reply))
                    if outcomes:  # the deal the last deal's sitter plays next
                        sat = outcomes[-1]
                        assert sat.table is not None
                        sitting.append(self._problem(
                            f"deal {outcome.deal_no}, the first after table seat "
                            f"{sat.table[0].seating.sitting_out} sat deal {sat.deal_no} out, "
                            f"ended at a fault: {fault.describe()}",
                            fault.reply,
                        ))  # fmt: skip
                outcomes.append(outcome)
                problem = self._ping_sitter(referee, outcome, readyok_ms)
                if problem is not None:
                    sitting.append(problem)
        except BotError as exc:
            self.item(FOUR_PLAYING, False, f"{exc.kind}: {exc}", exc.line)
            self.item(FOUR_SITTING, False, f"not reached: the copies did not start ({exc})")
            return
        finally:
            for player in referee.players:  # the last lines of those who did not play last
                if player.session is not None:
                    self.stray_lines += player.session.take_stray()
            referee.close(grace_ms=int(QUIT_GRACE_S * 1000))
        if playing:
            self._report_problems(FOUR_PLAYING, playing, f" ({len(playing)} of {FOUR_DEALS} "
                                  "deals ended at a fault)")  # fmt: skip
        else:
            contracts = ", ".join(str(outcome.result.contract) for outcome in outcomes)
            self.item(FOUR_PLAYING, True,
                      f"{FOUR_DEALS} deals, each copy playing three, all played to the "
                      f"deal's end ({contracts}); table totals {sheet.totals}")  # fmt: skip
        if sitting:
            more = f" (and {len(sitting) - 1} more)" if len(sitting) > 1 else ""
            self._report_problems(FOUR_SITTING, sitting, more)
            return
        later = ", ".join(str(outcome.result.contract) for outcome in outcomes[1:])
        self.item(FOUR_SITTING, True,
                  f"each of the {FOUR_DEALS} copies sat a deal out, was told 'sitout' and "
                  f"answered isready with readyok [at most {max(readyok_ms):.1f} ms]; those "
                  f"who sat out deals 1–{FOUR_DEALS - 1} then played the next to the deal's "
                  f"end ({later})")  # fmt: skip

    def _problem(self, detail: str, line: str | None) -> _Problem:
        """What went wrong just now, with the end of the transcript as it stands (an item
        reported later would show only what came after it)."""
        return _Problem(detail, line, self._transcript_since_mark())

    def _report_problems(self, name: str, problems: Sequence[_Problem], more: str) -> None:
        """Report the item ``name`` failed at the first of ``problems`` (``more``: how many
        others there were, in words), with the transcript of its moment."""
        first = problems[0]
        self.item(name, False, f"{first.detail}{more}", first.line, transcript=first.transcript)

    def _ping_sitter(
        self, referee: Referee, outcome: DealOutcome, readyok_ms: list[float]
    ) -> _Problem | None:
        """Ask the copy that sat ``outcome``'s deal out, told ``sitout`` at its end, for
        ``readyok`` (the time goes to ``readyok_ms``); what went wrong, if anything. A copy
        that fails is stopped: the referee starts a fresh one for the next deal it plays."""
        assert outcome.table is not None
        context, _ = outcome.table
        seat = context.seating.sitting_out
        assert seat is not None
        player = referee.players[seat]  # player i sits at table seat i
        where = f"table seat {seat}, which sat deal {outcome.deal_no} out"
        session = player.session
        if session is None:  # stopped at a fault, or it could not be told 'sitout'
            earlier = next((f for f in reversed(referee.faults) if f.player == seat), None)
            if earlier is not None:
                return self._problem(f"{where}, was not running to be told 'sitout' (stopped "
                                     f"at its fault: {earlier.describe()})", None)  # fmt: skip
            return self._problem(f"{where}, had exited before it could be told 'sitout'", None)
        try:
            readyok_ms.append(session.ping())
        except BotError as exc:
            problem = self._problem(f"{where}: after 'sitout', isready: {exc.kind}: {exc}",
                                    exc.line)  # fmt: skip
            session.kill()
            player.session = None
            return problem
        return None

    # -- full deals and quit ----------------------------------------------------------------

    def _full_deal(self, preset: str, tc: TimeControl | None = None) -> None:
        """Three deals between three copies of the bot (under ``tc``: with a game clock, whose
        ``go`` lines end with ``clock C inc I``)."""
        name = f"full {preset} deals with three copies of the bot"
        if tc is not None:
            name += f", under a game clock of {tc} s"
        rules = load_rules(preset)
        referee = Referee(
            rules,
            [self.config, self.config, self.config],
            time_ms=self.time_ms,
            margin_ms=self.margin_ms,
            policy=FaultPolicy(max_faults=0),
            tc=tc,
        )
        clocks: list[int] = []
        try:
            referee.start()
            sheet = ScoreSheet(rules, seed=20261129)
            contracts = []
            for _ in range(3):
                outcome = referee.play_deal(sheet)
                self.stray_lines += sum(outcome.stray)
                contracts.append(str(outcome.result.contract))
                clocks += [m.clock_ms for m in outcome.moves if m.clock_ms is not None]
                if outcome.faults:
                    fault = outcome.faults[0]
                    self.item(name, False, fault.describe(), fault.reply)
                    return
        except BotError as exc:
            self.item(name, False, f"{exc.kind}: {exc}", exc.line)
            return
        finally:
            referee.close(grace_ms=int(QUIT_GRACE_S * 1000))
        low = f"; the least left on a clock {min(clocks)} ms" if clocks else ""
        self.item(name, True, f"3 deals: {', '.join(contracts)}; totals {sheet.totals}{low}")

    def _quit(self) -> None:
        """Send the last copy ``quit``, and judge every copy sent it: each must exit within
        :data:`QUIT_GRACE_S`."""
        session = self.session
        assert session is not None  # the last deal's copy, or a fresh one after a failure
        try:
            session.send(QUIT)
        except BotError:
            self.item("quit", False, "the bot had already exited")
            return
        self.retired.append((session, time.monotonic() + QUIT_GRACE_S))
        self.session = None
        late = 0
        code: int | None = None
        for copy, deadline in self.retired:
            code = copy.process.wait(max(0.0, deadline - time.monotonic()))
            if code is None:
                late += 1
            copy.kill()
        copies = len(self.retired)
        self.retired = []
        if late:
            self.item("quit", False, f"{late} of {copies} copies of the bot did not exit "
                      "within 1 s of 'quit' (killed)")  # fmt: skip
        else:
            self.item("quit", True, f"{copies} copies of the bot, each within 1 s; the last "
                      f"exited with code {code}")  # fmt: skip


def run_check(
    config: BotConfig,
    *,
    time_ms: int = MOVETIME_MS,
    margin_ms: int = MARGIN_MS,
    report: Callable[[CheckItem], None] = lambda item: None,
    warn: Callable[[str], None] = lambda text: None,
) -> list[CheckItem]:
    """Run every item of the check against the bot of ``config`` (without its options: the
    check sets each to its default); ``report`` is called as each item ends, ``warn`` with
    each warning at the end (lines on the bot's stdout that are no protocol message: not a
    failure, but a bot's debugging output in the wrong place, which a later line could make
    an answer). A failed start ends the check at the first item. Each failed item carries
    the end of its transcript (:attr:`CheckItem.transcript`), with ``config.transcript`` or
    without.
    """
    checker = _Checker(config, time_ms, margin_ms, report)
    items = checker.run()
    if checker.stray_lines:
        n = checker.stray_lines
        shown = ", ".join(repr(line) for line in checker.stray_examples)
        warn(
            f"the bot wrote {n:,} line{'s' if n != 1 else ''} on its stdout that "
            f"{'are' if n != 1 else 'is'} no protocol message (ignored; a match counts them "
            f"in its log and results); the first: {shown}. Debugging output belongs on stderr."
        )
    return items
