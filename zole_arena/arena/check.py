"""Conformance check of a bot against protocol v1 (``zole-arena check``), after fastchess's
``--compliance``.

The check drives one bot through numbered items — start and handshake, options, ping,
scripted decisions from every phase and contract of both presets, a restart in the middle of
a deal, a full deal of each preset with three copies of the bot, and ``quit`` — and reports
PASS or FAIL for each, with the offending line. The scripted decisions come from real deals
(fixed seeds), so what the bot is asked is what a match would ask.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Iterator
from typing import Final

from zole_arena.arena.referee import RESTART_KINDS, FaultPolicy, Referee
from zole_arena.errors import BotError, IllegalActionError, NotationError
from zole_arena.game.actions import Bid
from zole_arena.game.rules import AllPass, Rules, load_rules
from zole_arena.game.scoresheet import ScoreSheet
from zole_arena.game.scoring import NO_PULES, Pules
from zole_arena.game.state import DealState, Phase
from zole_arena.players.session import BotConfig, BotSession
from zole_arena.protocol import DealWriter, events_after, parse_answer, setoption_line

__all__ = ["CheckItem", "Scenario", "run_check", "scenarios"]

_OPTION_TYPES: Final = frozenset({"check", "spin", "combo", "string"})


@dataclasses.dataclass(frozen=True)
class CheckItem:
    """The outcome of one item of the check."""

    number: int
    name: str
    passed: bool
    detail: str
    line: str | None = None
    """The offending line from the bot, on a failure."""


@dataclasses.dataclass(frozen=True)
class Scenario:
    """A scripted decision: a deal brought to a point where the bot must act."""

    name: str
    state: DealState


def _rules_with(base: str, **changes: object) -> Rules:
    data = load_rules(base).to_dict()
    data.update(changes)
    return Rules.from_dict(data, source=f"{base} (check)")


def _first_state(
    rules: Rules,
    bids: tuple[Bid, ...],
    plays: int,
    want: Callable[[DealState], bool] = lambda _: True,
    pules: Pules = NO_PULES,
) -> DealState:
    """The first deal (seeds 1, 2, …) where the bids can be made and, after ``plays`` cards
    (first legal each, burying the first two cards), ``want`` holds.
    """
    for seed in range(1, 5000):
        state = DealState.from_seed(rules, seed, 1, pules=pules)
        for bid in bids:
            state.apply(bid)
        if state.phase is Phase.BURYING and plays >= 0:
            state.apply(state.legal_actions()[0])
        for _ in range(plays):
            if state.phase is not Phase.PLAYING:
                break
            state.apply(state.legal_actions()[0])
        if state.phase is not Phase.DONE and want(state):
            return state
    raise RuntimeError("no deal found for a check scenario")  # pragma: no cover


def _follow_constrained(state: DealState) -> bool:
    return bool(state.current_trick) and len(state.legal_actions()) < len(
        state.hand(state.turn)  # type: ignore[arg-type]
    )


def _void(state: DealState) -> bool:
    return bool(state.current_trick) and len(state.legal_actions()) == len(
        state.hand(state.turn)  # type: ignore[arg-type]
    )


def scenarios() -> list[Scenario]:
    """The scripted decisions of the check, for both presets and every contract."""
    wpt = load_rules("wpt")
    lzf = load_rules("lzf")
    small = _rules_with("lzf", contracts=["take", "zole", "small_zole"])
    lzf_table = _rules_with("lzf", all_pass=AllPass.TABLE.value)
    p, t, z, s = Bid.PASS, Bid.TAKE, Bid.ZOLE, Bid.SMALL_ZOLE
    return [
        Scenario("wpt bid as forehand", _first_state(wpt, (), -1)),
        Scenario("wpt bid after two passes", _first_state(wpt, (p, p), -1)),
        Scenario("wpt bury after taking the talon", _first_state(wpt, (t,), -1)),
        Scenario("wpt lead the first trick", _first_state(wpt, (p, t), 0)),
        Scenario("wpt follow the led category", _first_state(wpt, (t,), 1, _follow_constrained)),
        Scenario("wpt play when void", _first_state(wpt, (t,), 4, _void)),
        Scenario("wpt table game (all passed)", _first_state(wpt, (p, p, p), 4)),
        Scenario("lzf bid with zole offered", _first_state(lzf, (), -1)),
        Scenario("lzf zole: soloist plays", _first_state(lzf, (z,), 3)),
        Scenario("lzf zole: opponent plays", _first_state(lzf, (p, z), 1)),
        Scenario(
            "lzf take with pules standing",
            _first_state(lzf, (t,), 2, pules=Pules(common=2, personal=(1,))),
        ),
        Scenario("lzf bid with small zole offered", _first_state(small, (p,), -1)),
        Scenario(
            "lzf small zole: soloist plays",
            _first_state(small, (s,), 0, lambda st: st.turn == st.soloist),
        ),
        Scenario("lzf table game switch", _first_state(lzf_table, (p, p, p), 2)),
    ]


def _events(state: DealState) -> Iterator[str]:
    """The events a bot would have seen so far in this deal."""
    assert state.seed is not None and state.deal_no is not None
    replay = DealState.from_seed(state.rules, state.seed, state.deal_no, pules=state.pules)
    for seat, action in state.history:
        replay.apply(action)
        yield from events_after(replay, seat, action)


class _Checker:
    def __init__(
        self,
        config: BotConfig,
        time_ms: int,
        margin_ms: int,
        report: Callable[[CheckItem], None],
    ) -> None:
        self.config = config
        self.time_ms = time_ms
        self.margin_ms = margin_ms
        self.report = report
        self.items: list[CheckItem] = []
        self.request_id = 0
        self.last_fault: str | None = None
        """The kind of the last decision's fault (``timeout``, say), or None."""

    def item(self, name: str, passed: bool, detail: str, line: str | None = None) -> bool:
        item = CheckItem(len(self.items) + 1, name, passed, detail, line)
        self.items.append(item)
        self.report(item)
        return passed

    def decide(self, session: BotSession, scenario: Scenario, with_events: bool) -> bool:
        state = scenario.state
        seat: int = state.turn  # type: ignore[assignment]
        scores = (0, 0, 0)
        writer = DealWriter(state, 1, scores)
        try:
            if with_events:
                session.send(writer.newdeal(seat))
                for event in _events(state):
                    session.send(event)
            self.request_id += 1
            line = writer.go(self.request_id, self.time_ms)
            reply = session.request(line, self.request_id, self.time_ms, self.margin_ms)
        except BotError as exc:
            self.last_fault = exc.kind
            return self.item(scenario.name, False, f"{exc.kind}: {exc}", exc.line)
        try:
            action = parse_answer(reply.words, state.phase)
            trial = state.copy()
            trial.apply(action)
        except (NotationError, IllegalActionError) as exc:
            return self.item(scenario.name, False, f"not a legal answer: {exc}", reply.line)
        shown = " ".join(reply.words)
        return self.item(scenario.name, True, f"{shown} [{reply.elapsed_ms:.1f} ms]")

    def run(self) -> list[CheckItem]:
        started = time.monotonic()
        try:
            session = BotSession(dataclasses.replace(self.config, options={}))
        except BotError as exc:
            self.item("start and handshake", False, str(exc), exc.line)
            return self.items
        self._session = session
        try:
            self._with_session(session, started)
        finally:
            self._session.kill()
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
        all_scenarios = scenarios()
        for scenario in all_scenarios:
            self.last_fault = None
            if not self.decide(session, scenario, with_events=True) and (
                not session.running or self.last_fault in RESTART_KINDS
            ):
                # A bot that crashed, or hangs, or floods, is started again, as a match would,
                # so that each item is judged on its own (a hung bot would still be busy with
                # the last request, and fail every later one).
                try:
                    session = self._restarted(session)
                except BotError as exc:
                    self.item(f"restart after a {self.last_fault or 'crash'}", False, str(exc),
                              exc.line)  # fmt: skip
                    return
        self._restart(all_scenarios)
        for preset in ("wpt", "lzf"):
            self._full_deal(preset)
        self._quit(session)

    def _restarted(self, old: BotSession) -> BotSession:
        old.kill()
        fresh = BotSession(dataclasses.replace(self.config, options={}))
        self._session = fresh
        return fresh

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

    def _restart(self, all_scenarios: list[Scenario]) -> None:
        mid = next(s for s in all_scenarios if s.name == "wpt follow the led category")
        try:
            fresh = BotSession(dataclasses.replace(self.config, options={}))
        except BotError as exc:
            self.item("restart mid-deal", False, f"could not restart: {exc}", exc.line)
            return
        try:
            restarted = Scenario("restart mid-deal (a go with no history)", mid.state)
            self.decide(fresh, restarted, with_events=False)
        finally:
            fresh.kill()

    def _full_deal(self, preset: str) -> None:
        name = f"full {preset} deals with three copies of the bot"
        rules = load_rules(preset)
        config = dataclasses.replace(self.config, options={})
        referee = Referee(
            rules,
            [config, config, config],
            time_ms=self.time_ms,
            margin_ms=self.margin_ms,
            policy=FaultPolicy(max_faults=0),
        )
        try:
            referee.start()
            sheet = ScoreSheet(rules, seed=20261129)
            contracts = []
            for _ in range(3):
                outcome = referee.play_deal(sheet)
                contracts.append(str(outcome.result.contract))
                if outcome.faults:
                    fault = outcome.faults[0]
                    self.item(name, False, fault.describe(), fault.reply)
                    return
        except BotError as exc:
            self.item(name, False, f"{exc.kind}: {exc}", exc.line)
            return
        finally:
            referee.kill()
        self.item(name, True, f"3 deals: {', '.join(contracts)}; totals {sheet.totals}")

    def _quit(self, session: BotSession) -> None:
        try:
            session.send("quit")
        except BotError:
            self.item("quit", False, "the bot had already exited")
            return
        code = session.process.wait(1.0)
        if code is None:
            self.item("quit", False, "the bot did not exit within 1 s of 'quit' (killed)")
        else:
            self.item("quit", True, f"exited with code {code}")


def run_check(
    config: BotConfig,
    *,
    time_ms: int = 2000,
    margin_ms: int = 100,
    report: Callable[[CheckItem], None] = lambda item: None,
) -> list[CheckItem]:
    """Run every item of the check against the bot of ``config``; ``report`` is called as
    each item ends. A failed start ends the check at the first item.
    """
    return _Checker(config, time_ms, margin_ms, report).run()
