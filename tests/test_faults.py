"""Fault tests: real misbehaving bots (``tests/fault_bots/``) against the real referee.

Every test runs real processes over real pipes (no mocks): a bad bot and two copies of
``bots/random_bot.py`` at one table, with small time limits. The tests check the error policy of
``protocol/README.md`` §6 — the fault is recorded with its culprit, kind, request and offending
line; the culprit forfeits the deal with the zero-sum penalty; it is restarted for the next deal;
it is disqualified past the fault limit; ``on_fault="random"`` plays on — and, after every test,
that nothing is left running: no process group of any bot (not even a zombie), no grandchild,
no child of this process.

Nothing here sleeps to synchronise: the bots' own sleeps are their misbehaviour, and the arena's
deadlines bound every wait. A SIGALRM guard fails any test that runs longer than
:data:`TEST_LIMIT_S`.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from prochelp import group_gone

from zole_arena.arena.match import Match
from zole_arena.arena.referee import DealOutcome, Fault, FaultPolicy, Referee
from zole_arena.arena.settings import MatchSettings
from zole_arena.arena.stop import Disqualification, StopReason
from zole_arena.errors import (
    BotCrashedError,
    BotFloodError,
    BotStallError,
    BotStartupError,
    BotTimeoutError,
    FaultKind,
    SandboxUnavailable,
)
from zole_arena.game.actions import Bid
from zole_arena.game.rules import Rules, load_rules
from zole_arena.game.scoresheet import ScoreSheet
from zole_arena.game.scoring import Pules
from zole_arena.game.state import DealState, Phase, max_penalty
from zole_arena.isolation.cgroups import Layout
from zole_arena.isolation.cgroups import probe as probe_cgroups
from zole_arena.players.limits import Limits
from zole_arena.players.session import BotConfig, BotSession
from zole_arena.protocol import DealWriter, parse_answer

TESTS = Path(__file__).resolve().parent
FAULT_BOTS = TESTS / "fault_bots"
RANDOM_BOT = TESTS.parent / "bots" / "random_bot.py"
TRACKER_BOT = TESTS / "helper_bots" / "tracker_bot.py"
WPT = load_rules("wpt")
LZF = load_rules("lzf")
TIME_MS = 300
MARGIN_MS = 100
STARTUP_MS = 2000
#: The hard limit on one test's run time (SIGALRM).
TEST_LIMIT_S = 20
#: Kinds of fault after which the library stops the culprit at once.
STOPPED_AT_ONCE = frozenset({"startup", "crash", "timeout", "stall", "flood"})


def test_the_fault_kinds_are_the_ones_records_document() -> None:
    text = (TESTS.parent / "protocol" / "records.md").read_text()
    documented = text.split("`kind` is ", 1)[1].split(";", 1)[0]
    assert [kind.value for kind in FaultKind] == [
        word.strip("`, ") for word in documented.replace(" or ", ", ").split(", ")
    ]
    errors = (BotStartupError, BotCrashedError, BotTimeoutError, BotStallError, BotFloodError)
    assert [error.kind for error in errors] == [
        FaultKind.STARTUP, FaultKind.CRASH, FaultKind.TIMEOUT, FaultKind.STALL, FaultKind.FLOOD,
    ]  # fmt: skip
    assert SandboxUnavailable.kind is FaultKind.STARTUP
    assert set(FaultKind) >= STOPPED_AT_ONCE


# -- guards -----------------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def time_guard() -> Iterator[None]:
    """Fail the test (instead of hanging the suite) if it runs over TEST_LIMIT_S."""

    def expired(signum: int, frame: object) -> None:
        raise TimeoutError(f"test ran over {TEST_LIMIT_S} s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, TEST_LIMIT_S)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def sleeper_gone(pid: int) -> bool:
    """The grandchild ``python -c "import time; time.sleep(600)"`` of that pid is gone."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    with contextlib.suppress(OSError):  # alive, or a zombie: is it still our sleeper?
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        return b"time.sleep(600)" not in cmdline and cmdline != b""
    return True


def our_children() -> list[str]:
    """Every process whose parent is this one (zombies included), as ``pid (name) state``.

    The arena makes itself a child subreaper, so an orphaned grandchild of a bot shows up here.
    """
    me = str(os.getpid())
    found = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            stat = Path(entry.path, "stat").read_text()
        except OSError:
            continue
        name = stat[stat.index("(") : stat.rindex(")") + 1]
        state, ppid = stat[stat.rindex(")") + 1 :].split()[:2]
        if ppid == me:
            found.append(f"{entry.name} {name} {state}")
    return found


class Procs:
    """The processes of one test: bot configs that report their pids, tables, and the final
    proof that nothing is left."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.pgids: set[int] = set()
        self.pidfiles: list[Path] = []
        self.referees: list[Referee] = []
        self.sessions: list[BotSession] = []

    def fault_bot(self, name: str, *args: str, **changes: Any) -> BotConfig:
        """A bad bot from tests/fault_bots that appends its pid (and a child's) to a file."""
        pidfile = self.tmp / f"{name}-{len(self.pidfiles)}.pids"
        self.pidfiles.append(pidfile)
        settings: dict[str, Any] = {
            "name": name,
            "env": {**os.environ, "ZOLE_BOT_FAULT_PIDS": str(pidfile)},
            "startup_ms": STARTUP_MS,
            "stderr_path": str(self.tmp / f"{name}.stderr"),
        }
        settings.update(changes)
        command = (sys.executable, str(FAULT_BOTS / f"{name}.py"), *args)
        return BotConfig(command=command, **settings)

    def _reported(self, config: BotConfig, role: str) -> list[int]:
        assert config.env is not None
        path = Path(config.env["ZOLE_BOT_FAULT_PIDS"])
        if not path.exists():
            return []
        pids = []
        for line in path.read_text().splitlines():
            what, pid = line.split()
            if what == role:
                pids.append(int(pid))
        return pids

    def started(self, config: BotConfig) -> list[int]:
        """The pids of the bot processes started from ``config``, in order."""
        return self._reported(config, "bot")

    def grandchildren(self, config: BotConfig) -> list[int]:
        """The pids of the children that bots started from ``config`` started."""
        return self._reported(config, "child")

    def table(
        self,
        configs: Sequence[BotConfig],
        rules: Rules = WPT,
        seed: int = 11,
        **referee_options: Any,
    ) -> Table:
        table = Table(self, configs, rules, seed, **referee_options)
        self.referees.append(table.referee)
        return table

    def session(self, config: BotConfig) -> BotSession:
        session = BotSession(config)
        self.sessions.append(session)
        self.pgids.add(session.process.pgid)
        return session

    def leftovers(self) -> list[str]:
        """What is still there of every process the test started."""
        grandchildren: set[int] = set()
        for path in self.pidfiles:
            if path.exists():
                for line in path.read_text().splitlines():
                    what, pid = line.split()
                    (self.pgids.add if what == "bot" else grandchildren.add)(int(pid))
        left = [f"process group {pgid}" for pgid in sorted(self.pgids) if not group_gone(pgid)]
        left += [f"grandchild {pid}" for pid in sorted(grandchildren) if not sleeper_gone(pid)]
        left += [f"child {text}" for text in our_children()]
        return left

    def clean_up(self) -> None:
        """After a failure: kill whatever is left, so that the next test starts clean."""
        for referee in self.referees:
            referee.kill()
        for session in self.sessions:
            session.kill()
        for pgid in self.pgids:
            with contextlib.suppress(OSError):
                os.killpg(pgid, signal.SIGKILL)
        for text in our_children():
            pid = int(text.split()[0])
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)


@pytest.fixture
def procs(tmp_path: Path) -> Iterator[Procs]:
    """Yields a :class:`Procs`; afterwards proves that no process of the test is left."""
    tracker = Procs(tmp_path)
    try:
        yield tracker
    finally:
        left = tracker.leftovers()
        if left:
            tracker.clean_up()
            pytest.fail(f"processes left behind: {', '.join(left)}")


class Table:
    """A referee and a score sheet; notes every bot's process group as deals are played."""

    def __init__(
        self,
        procs: Procs,
        configs: Sequence[BotConfig],
        rules: Rules,
        seed: int,
        **referee_options: Any,
    ) -> None:
        self.procs = procs
        options: dict[str, Any] = {"time_ms": TIME_MS, "margin_ms": MARGIN_MS}
        options.update(referee_options)
        referee_class = options.pop("referee_class", Referee)
        self.referee: Referee = referee_class(rules, configs, **options)
        self.sheet = ScoreSheet(rules, seed=seed)

    def snapshot(self) -> None:
        for seat in self.referee.seats:
            if seat.session is not None:
                self.procs.pgids.add(seat.session.process.pgid)

    def start(self) -> None:
        try:
            self.referee.start()
        finally:
            self.snapshot()

    def play(self) -> DealOutcome:
        self.snapshot()
        try:
            return self.referee.play_deal(self.sheet)
        finally:
            self.snapshot()

    def close(self) -> float:
        """Quit every bot; the seconds it took."""
        self.snapshot()
        start = time.monotonic()
        self.referee.close()
        return time.monotonic() - start

    def __enter__(self) -> Table:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# -- helpers ----------------------------------------------------------------------------------


def random_bot(seed: int) -> BotConfig:
    return BotConfig(
        command=(sys.executable, str(RANDOM_BOT), "--seed", str(seed)),
        name=f"random{seed}",
        startup_ms=STARTUP_MS,
    )


def seated(bad: BotConfig, seat: int) -> list[BotConfig]:
    """The bad bot at ``seat``, copies of the random bot at the other two."""
    configs = [random_bot(1), random_bot(2), random_bot(3)]
    configs[seat] = bad
    return configs


def go_fields(line: str) -> dict[str, str]:
    words = line.split()
    assert words[0] == "go", line
    return dict(zip(words[1::2], words[2::2], strict=True))


def forfeit_scores(culprit: int, penalty: int) -> tuple[int, int, int]:
    scores = [penalty, penalty, penalty]
    scores[culprit] = -2 * penalty
    return (scores[0], scores[1], scores[2])


def check_forfeit(
    outcome: DealOutcome, bad: BotConfig, seat: int, kind: str, deal_no: int, penalty: int = 7
) -> Fault:
    """The deal was forfeited by ``seat`` for one fault of ``kind``; that fault."""
    assert outcome.deal_no == deal_no
    assert [(f.seat, f.kind) for f in outcome.faults] == [(seat, kind)], outcome.faults
    fault = outcome.faults[0]
    assert fault.deal_no == deal_no
    assert fault.bot == bad.name
    assert fault.message and "\n" not in fault.message
    assert outcome.forfeit == fault
    assert outcome.result.forfeit == seat
    assert outcome.result.scores == forfeit_scores(seat, penalty)
    assert sum(outcome.result.scores) == 0
    # Under the forfeit policy no action is ever played for a bot.
    assert all(move.request_id is not None for move in outcome.moves)
    if kind in ("startup", "stall"):
        assert fault.request is None  # faulted before any decision request of the deal
    else:
        assert fault.request is not None and fault.request.startswith("go id ")
        request = go_fields(fault.request)
        assert (request["deal"], request["seat"]) == (str(deal_no), str(seat))
        # The faulted request was never taken as answered.
        assert int(request["id"]) not in {move.request_id for move in outcome.moves}
    return fault


# -- the default policy: forfeit, restart, for every kind of fault ----------------------------

# bot, its arguments, culprit seat, fault kind, BotConfig changes
POLICY_CASES = [
    ("exit_at_start", (), 0, "startup", {}),
    ("slow_start", ("5",), 1, "startup", {"startup_ms": 500}),
    ("crash_mid_deal", ("3",), 2, "crash", {}),
    # 32 MiB: filled within the move time (first touches of pages are slow on some machines)
    ("memory_hog", (), 0, "crash", {"limits": Limits(memory_mb=32)}),
    ("never_answers", (), 1, "timeout", {}),
    ("late_answer", (), 2, "timeout", {}),
    ("wrong_id", (), 0, "timeout", {}),
    ("no_read", (), 1, "timeout", {}),
    ("garbage", (), 2, "garbage", {}),
    ("illegal_card", (), 0, "illegal", {}),
    ("huge_line", (), 1, "flood", {}),
    ("endless_output", (), 2, "flood", {}),  # short lines: over 10,000 of them
    ("endless_output", ("2000",), 0, "flood", {}),  # long lines: over 1 MiB
]


@pytest.mark.parametrize(
    ("name", "args", "seat", "kind", "changes"),
    POLICY_CASES,
    ids=["-".join([case[0], *case[1]]) for case in POLICY_CASES],
)
def test_fault_forfeits_deal_and_bot_is_restarted(
    procs: Procs,
    name: str,
    args: tuple[str, ...],
    seat: int,
    kind: str,
    changes: dict[str, Any],
) -> None:
    bad = procs.fault_bot(name, *args, **changes)
    penalty = max_penalty(WPT)
    assert penalty == 7
    with procs.table(seated(bad, seat)) as table:
        faults = []
        others: dict[int, int] = {}
        for deal_no in (1, 2):
            outcome = table.play()
            fault = check_forfeit(outcome, bad, seat, kind, deal_no, penalty)
            faults.append(fault)
            if kind in STOPPED_AT_ONCE:
                assert table.referee.seats[seat].session is None  # stopped
            if name == "crash_mid_deal":  # the (restarted) bot played its first two moves
                assert [m.seat for m in outcome.moves].count(seat) == 2
            reply = fault.reply
            request_id = go_fields(fault.request)["id"] if fault.request else None
            if fault.request:
                assert go_fields(fault.request)["time"] == str(TIME_MS)
            if kind == "garbage":
                assert reply == f"action {request_id} banana"
                assert "banana" in fault.message
            elif kind == "illegal":
                assert fault.request is not None and reply is not None
                request = go_fields(fault.request)
                head, answer_id, card = reply.split()
                assert (head, answer_id, request["phase"]) == ("action", request_id, "play")
                assert card not in request["legal"].split(",")
                assert card not in request["hand"].split(",")
                assert "not in the hand" in fault.message
            elif name == "huge_line":
                assert reply is not None and reply.startswith(f"action {request_id} XXXX")
                assert len(reply) < 200  # recorded shortened, not a MiB of it
            elif name == "endless_output":
                assert "more than 10,000 lines or 1,048,576 bytes" in fault.message
                assert reply is not None and reply.startswith("info still thinking ")
                line_no = int(reply.split()[3])  # the bot numbers its lines from 0
                if args:  # lines of about 2 KB: the 1 MiB limit, at about the 520th line
                    assert 500 < line_no < 540 and len(reply) == 200
                else:  # the 10,001st line
                    assert reply == "info still thinking 10000"
            else:
                assert reply is None
            if kind == "timeout":
                assert f"within {TIME_MS} ms" in fault.message
            if kind != "startup":  # (a failed start forfeits before later seats start)
                running = {
                    other: session.process.pid
                    for other in range(3)
                    if other != seat and (session := table.referee.seats[other].session)
                }
                assert len(running) == 2
                # The other bots are never stopped: the same processes play both deals.
                assert others in ({}, running)
                others = running
        assert table.referee.faults == faults
        assert table.sheet.totals == [2 * s for s in forfeit_scores(seat, penalty)]
        assert table.referee.disqualified == []  # 2 faults, limit 3
    if kind in STOPPED_AT_ONCE:
        # Restarted for deal 2: a new process each deal.
        pids = procs.started(bad)
        assert len(pids) == 2 and pids[0] != pids[1]
    if name == "memory_hog":
        if probe_cgroups().layout is Layout.NONE:  # RLIMIT_DATA: the runtime's own words
            assert "MemoryError" in Path(bad.stderr_path or "").read_text()
            assert "memory is limited to 32 MiB per process" in faults[0].message
        else:  # the bot's control group: killed by the kernel, and the message says why
            assert "out of memory: over the limit of 32 MiB" in faults[0].message


@pytest.mark.parametrize("name", ["garbage", "illegal_card"])
def test_garbage_or_illegal_culprit_is_stopped_and_restarted(procs: Procs, name: str) -> None:
    bad = procs.fault_bot(name)
    with procs.table(seated(bad, 1)) as table:
        check_forfeit(table.play(), bad, 1, "garbage" if name == "garbage" else "illegal", 1)
        first = procs.started(bad)
        assert len(first) == 1
        assert group_gone(first[0]), "the culprit was not stopped after its fault"
        table.play()
        pids = procs.started(bad)
        assert len(pids) == 2 and pids[0] != pids[1]


def test_forfeit_penalty_follows_rules_and_policy_and_pules_stand(procs: Procs) -> None:
    lzf_bot = procs.fault_bot("crash_mid_deal", "1")
    with procs.table(seated(lzf_bot, 1), rules=LZF) as table:
        pules = Pules(common=2, personal=(0,))
        table.sheet.pules = pules
        outcome = table.play()
        assert max_penalty(LZF) == 8
        check_forfeit(outcome, lzf_bot, 1, "crash", 1, penalty=8)
        assert outcome.result.scores == (8, -16, 8)
        assert outcome.result.pules == pules and table.sheet.pules == pules  # unchanged
    wpt_bot = procs.fault_bot("crash_mid_deal", "1")
    with procs.table(seated(wpt_bot, 2), policy=FaultPolicy(penalty=3)) as table:
        check_forfeit(table.play(), wpt_bot, 2, "crash", 1, penalty=3)
        assert table.sheet.totals == [3, 3, -6]


# -- disqualification --------------------------------------------------------------------------


def test_disqualified_after_more_than_max_faults(procs: Procs) -> None:
    bad = procs.fault_bot("crash_mid_deal", "1")
    seen: list[Fault] = []
    with procs.table(
        seated(bad, 0), policy=FaultPolicy(max_faults=1), on_fault=seen.append
    ) as table:
        played = []
        for _ in range(6):  # a match of up to 6 deals that stops at a disqualification
            played.append(table.play())
            if table.referee.disqualified:
                break
        assert len(played) == 2
        assert table.referee.disqualified == [0]
        for deal_no, outcome in enumerate(played, start=1):
            check_forfeit(outcome, bad, 0, "crash", deal_no)
        assert seen == table.referee.faults and len(seen) == 2  # the on_fault callback
        assert table.sheet.totals == [-28, 14, 14]  # what was played stands
    assert len(set(procs.started(bad))) == 2


def test_match_stops_when_a_bot_is_disqualified(procs: Procs) -> None:
    bad = procs.fault_bot("crash_mid_deal", "1")
    settings = MatchSettings(
        rules=WPT,
        seed=11,
        deals=6,
        movetime_ms=TIME_MS,
        margin_ms=MARGIN_MS,
        startup_ms=STARTUP_MS,
        policy=FaultPolicy(max_faults=1),
    )
    match = Match([random_bot(1), bad, random_bot(2)], settings)
    try:
        summary = match.run()
    finally:
        match.referee.kill()  # a no-op when run() closed every bot, as it must
    assert summary.deals == 2  # of 6: the match ended at the disqualification
    assert summary.stopped is not None and summary.stopped.reason is StopReason.DISQUALIFIED
    assert summary.stopped.disqualified == (Disqualification("crash_mid_deal", 2, 1),)
    assert str(summary.stopped) == (
        "disqualified: crash_mid_deal (2 faults, more than the limit of 1)"
    )
    assert match.referee.disqualified == [1]
    assert len(summary.fault_lines) == 2
    assert [sum(sheet.totals) for sheet in match.sheets] == [0] * 6
    assert match.sheets[0].totals == [14, -28, 14]  # what was played stands
    assert len(set(procs.started(bad))) == 2


# -- on_fault="random" -------------------------------------------------------------------------


def test_on_fault_random_plays_a_random_legal_action_and_records_the_fault(procs: Procs) -> None:
    bad = procs.fault_bot("illegal_card")
    policy = FaultPolicy(on_fault="random", max_faults=50)
    with procs.table(seated(bad, 1), policy=policy) as table:
        outcome = table.play()
        result = outcome.result
        assert result.forfeit is None and outcome.forfeit is None
        assert outcome.state.result == result  # the deal was played to its end
        assert sum(result.scores) == 0
        substituted = [m for m in outcome.moves if m.request_id is None]
        assert len(substituted) == len(outcome.faults) == 8  # every card of seat 1
        assert {m.seat for m in substituted} == {1}
        assert sum(result.tricks) == 8
        for fault in outcome.faults:
            assert (fault.seat, fault.kind) == (1, "illegal")
            assert fault.request is not None and fault.reply is not None
            assert fault.reply.startswith(f"action {go_fields(fault.request)['id']} ")
        # The substitutes were legal: the deal replays through the rules engine from scratch.
        replay = ScoreSheet(WPT, seed=11).next_deal()
        for _, action in outcome.state.history:
            replay.apply(action)
        assert replay.result == result
        assert table.referee.disqualified == []
    assert len(procs.started(bad)) == 1  # not restarted within the deal


def test_on_fault_random_restarts_a_crashed_bot_within_the_deal(procs: Procs) -> None:
    bad = procs.fault_bot("crash_mid_deal", "2")
    policy = FaultPolicy(on_fault="random", max_faults=50)
    with procs.table(seated(bad, 2), policy=policy) as table:
        outcome = table.play()
        assert outcome.result.forfeit is None
        assert outcome.state.result == outcome.result
        crashes = outcome.faults
        assert crashes and all((f.seat, f.kind) == (2, "crash") for f in crashes)
        substituted = [m for m in outcome.moves if m.request_id is None]
        assert len(substituted) == len(crashes) and {m.seat for m in substituted} == {2}
        answered = [m for m in outcome.moves if m.seat == 2 and m.request_id is not None]
        assert answered  # each restarted process answered its first go
    pids = procs.started(bad)
    assert len(pids) >= len(crashes) and len(set(pids)) == len(pids)


def test_a_bot_restarted_mid_deal_hears_the_deal_from_its_start(
    procs: Procs, tmp_path: Path
) -> None:
    """Under ``on_fault="random"`` a crashed bot is restarted within the deal: the new process
    is told ``newdeal`` and every event of the deal so far (its predecessor's moves and the one
    played for it) before its first ``go``. The tracker bot checks every line against what it
    kept from the stream, and would crash again on a partial one."""
    stderr = tmp_path / "tracker.stderr"
    tracker = BotConfig(
        command=(sys.executable, str(TRACKER_BOT), "--crash-at", "4", str(tmp_path / "crashed")),
        name="tracker",
        startup_ms=STARTUP_MS,
        stderr_path=str(stderr),
    )
    policy = FaultPolicy(on_fault="random", max_faults=50)
    with procs.table(seated(tracker, 1), policy=policy) as table:
        outcome = table.play()
        assert [(f.seat, f.kind) for f in outcome.faults] == [(1, "crash")], stderr.read_text()
        own = [m for m in outcome.moves if m.seat == 1]
        substituted = next(i for i, m in enumerate(own) if m.request_id is None)
        assert substituted == 3  # its 4th decision was played for it
        assert own[substituted + 1 :] and all(m.request_id is not None for m in own[4:])
        assert outcome.state.result == outcome.result
        second = table.play()  # and the new process goes on into the next deal
        assert second.faults == []
    assert "inconsistent" not in stderr.read_text()


def test_on_fault_random_disqualified_bot_forfeits(procs: Procs) -> None:
    bad = procs.fault_bot("garbage")
    policy = FaultPolicy(on_fault="random", max_faults=1)
    with procs.table(seated(bad, 0), policy=policy) as table:
        outcome = table.play()
        assert [(f.seat, f.kind) for f in outcome.faults] == [(0, "garbage"), (0, "garbage")]
        assert [m.seat for m in outcome.moves if m.request_id is None] == [0]  # 1st fault only
        assert outcome.result.forfeit == 0
        assert outcome.result.scores == (-14, 7, 7)
        assert table.referee.disqualified == [0]


# -- late and wrong answers --------------------------------------------------------------------


def _requests() -> list[DealState]:
    """Three real decision points: a bid, a card to play, another card."""
    first = DealState.from_seed(WPT, 5, 1)
    second = first.copy()
    second.apply(Bid.PASS)
    second.apply(Bid.TAKE)
    second.apply(second.legal_actions()[0])  # bury
    third = second.copy()
    third.apply(third.legal_actions()[0])
    assert (first.phase, second.phase, third.phase) == (Phase.BIDDING, Phase.PLAYING, Phase.PLAYING)
    return [first, second, third]


def _go(state: DealState, request_id: int) -> str:
    return DealWriter(state, 1, (0, 0, 0)).go(request_id, TIME_MS)


def _stale(session: BotSession) -> list[str]:
    """The ids of the ``action`` lines the session skipped (and recorded)."""
    return [note.split()[1] for note in session.notes if note.startswith("action ")]


def test_late_answer_is_never_taken_for_the_next_request(procs: Procs) -> None:
    # The bot answers each request 0.3 s after its time is up (here: 0.6 s after reading it).
    session = procs.session(procs.fault_bot("late_answer", "0.3"))
    try:
        bid, play, next_play = _requests()
        session.send(DealWriter(bid, 1, (0, 0, 0)).newdeal(0))
        with pytest.raises(BotTimeoutError, match="no answer to request 1 within 300 ms"):
            session.request(_go(bid, 1), 1, TIME_MS, MARGIN_MS)  # times out at 0.4 s
        assert _stale(session) == []
        # Request 2 asks for a card. The answer to request 1 ("action 1 pass", about 0.6 s)
        # arrives while it is open: it must be skipped, never taken as a card or a bid.
        try:
            reply = session.request(_go(play, 2), 2, TIME_MS, margin_ms=300)
        except BotTimeoutError:
            pass  # its own answer comes at about 1.2 s, after its deadline (about 1.0 s)
        else:  # (only if this process was slow: then it is its own answer)
            assert reply.request_id == 2 and reply.line.startswith("action 2 ")
        assert _stale(session) == ["1"]
        # Given time enough, request 3 gets its own answer (a legal card), not request 2's.
        reply = session.request(_go(next_play, 3), 3, TIME_MS, margin_ms=1500)
        assert reply.request_id == 3 and reply.line.startswith("action 3 ")
        next_play.copy().apply(parse_answer(reply.words, next_play.phase))
        assert _stale(session) in (["1"], ["1", "2"])
    finally:
        session.quit()


def test_wrong_id_is_ignored_recorded_and_times_out(procs: Procs) -> None:
    session = procs.session(procs.fault_bot("wrong_id"))
    try:
        state = _requests()[0]
        start = time.monotonic()
        with pytest.raises(BotTimeoutError, match="no answer to request 7 within 300 ms"):
            session.request(_go(state, 7), 7, TIME_MS, MARGIN_MS)
        assert time.monotonic() - start >= (TIME_MS + MARGIN_MS) / 1000
        assert any(note.startswith("action 1007 ") for note in session.notes)
    finally:
        session.quit()


# -- start-up ----------------------------------------------------------------------------------


def test_slow_start_within_the_startup_limit_plays_normally(procs: Procs) -> None:
    bad = procs.fault_bot("slow_start", "0.5")  # STARTUP_MS is 2000
    with procs.table(seated(bad, 1)) as table:
        outcome = table.play()
        assert outcome.faults == [] and outcome.result.forfeit is None
        assert outcome.state.result == outcome.result
        assert any(m.seat == 1 for m in outcome.moves)
        assert table.referee.names()[1] == "slow_start"
    assert len(procs.started(bad)) == 1


@pytest.mark.parametrize(
    "command",
    [
        "/nonexistent/zole-bot --level 3",
        "no-such-zole-bot-program",
        "'unclosed quote",
        "",
    ],
)
def test_missing_or_bad_command_is_a_one_line_startup_error(procs: Procs, command: str) -> None:
    with pytest.raises(BotStartupError) as caught:
        BotSession(BotConfig(command=command))
    message = str(caught.value)
    assert message and "\n" not in message
    assert caught.value.kind == "startup"
    if command.startswith("/nonexistent") or command.startswith("no-such"):
        assert "no such program" in message and command.split()[0] in message


def test_not_executable_command_is_a_one_line_startup_error(procs: Procs, tmp_path: Path) -> None:
    script = tmp_path / "bot.py"
    script.write_text("print('zoleok 1')\n")
    script.chmod(0o644)
    with pytest.raises(BotStartupError, match="not executable") as caught:
        BotSession(BotConfig(command=str(script)))
    assert "\n" not in str(caught.value)


def test_missing_command_at_the_table(procs: Procs) -> None:
    missing = BotConfig(command="/nonexistent/zole-bot", name="ghost", startup_ms=STARTUP_MS)
    with procs.table(seated(missing, 1)) as table:
        with pytest.raises(BotStartupError, match="no such program"):
            table.start()  # a match cannot begin without it
        outcome = table.play()  # a deal records it as a fault instead
        fault = check_forfeit(outcome, missing, 1, "startup", 1)
        assert "no such program '/nonexistent/zole-bot'" in fault.message


def test_cpu_limit_kills_a_bot_that_computes_for_ever(procs: Procs) -> None:
    bad = procs.fault_bot("cpu_hog", limits=Limits(memory_mb=None, cpu_seconds=1))
    with procs.table(seated(bad, 0), time_ms=8000) as table:
        start = time.monotonic()
        outcome = table.play()
        elapsed = time.monotonic() - start
        fault = check_forfeit(outcome, bad, 0, "crash", 1)
        assert elapsed < 6.0  # killed after 1 s of CPU time, long before its 8 s were up
        assert fault.request is not None


# -- children, quitting, stalls ----------------------------------------------------------------


def test_child_of_a_crashed_bot_does_not_survive(procs: Procs) -> None:
    bad = procs.fault_bot("child_then_dies")
    with procs.table(seated(bad, 1)) as table:
        table.start()
        session = table.referee.seats[1].session
        assert session is not None
        notes = [n for n in session.notes if n.startswith("info child ")]
        assert len(notes) == 1
        grandchild = int(notes[0].split()[2])
        assert procs.grandchildren(bad) == [grandchild]
        assert not sleeper_gone(grandchild)  # it runs while the bot runs
        bot_pgid = session.process.pgid
        outcome = table.play()
        fault = outcome.faults[0]
        assert (fault.seat, outcome.result.forfeit) == (1, 1)
        assert fault.kind in ("crash", "timeout")  # see the xfail test below
        # Stopped with the culprit, before the next deal or the end of the match.
        assert group_gone(bot_pgid)
        assert sleeper_gone(grandchild)
        table.play()  # restarted: a new bot with a new child, which dies with it too
        assert len(procs.grandchildren(bad)) == 2
    for pid in procs.grandchildren(bad):
        assert sleeper_gone(pid)


def test_crash_with_a_child_holding_the_pipe_is_a_crash(procs: Procs) -> None:
    bad = procs.fault_bot("child_then_dies")
    with procs.table(seated(bad, 0)) as table:
        outcome = table.play()
        check_forfeit(outcome, bad, 0, "crash", 1)


def test_ignores_quit_is_killed_by_close_within_a_bounded_time(procs: Procs) -> None:
    bad = procs.fault_bot("ignores_quit")
    table = procs.table(seated(bad, 0))
    try:
        outcome = table.play()
        assert outcome.faults == [] and outcome.result.forfeit is None
        session = table.referee.seats[0].session
        assert session is not None and session.process.running
    finally:
        elapsed = table.close()
    assert elapsed < 3.0  # 1 s of grace for the bot, then SIGKILL
    assert group_gone(session.process.pgid)
    assert session.process.returncode == -signal.SIGKILL


def test_ignores_quit_session_quit_kills_it(procs: Procs) -> None:
    session = procs.session(procs.fault_bot("ignores_quit"))
    assert session.ping() >= 0
    start = time.monotonic()
    code = session.quit(grace_ms=300)
    assert time.monotonic() - start < 2.0
    assert code == -signal.SIGKILL  # only SIGKILL ends it
    assert group_gone(session.process.pgid)


class PingingReferee(Referee):
    """Pings every running bot before every deal (the default pings only idle ones)."""

    PING_AFTER_IDLE_S = 0.0  # type: ignore[misc]  # a test setting of a Final constant


def test_bot_that_stops_reading_stalls_on_ping(procs: Procs) -> None:
    crasher = procs.fault_bot("crash_mid_deal", "1")
    deaf = procs.fault_bot("no_read", ping_ms=300)
    configs = [crasher, deaf, random_bot(3)]
    with procs.table(configs, referee_class=PingingReferee) as table:
        first = table.play()  # seat 0 leads and crashes: no_read never had to decide
        check_forfeit(first, crasher, 0, "crash", 1)
        second = table.play()  # before deal 2 the arena pings no_read
        fault = check_forfeit(second, deaf, 1, "stall", 2)
        assert "no 'readyok' within 300 ms" in fault.message
        assert table.referee.seats[1].session is None
    assert len(procs.started(deaf)) == 1


def test_bot_that_stops_reading_stalls_when_its_input_is_full(procs: Procs) -> None:
    session = procs.session(procs.fault_bot("no_read"))
    try:
        event = "info " + "x" * 200
        start = time.monotonic()
        with pytest.raises(BotStallError, match="does not read its input"):
            for _ in range(100_000):  # a pipe holds 64 KiB, at most 1 MiB
                session.process.send(event, timeout=0.3)
        assert time.monotonic() - start < 5.0
    finally:
        session.kill()
    assert group_gone(session.process.pgid)
