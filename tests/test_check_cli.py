"""``zole-arena check`` through the real command line, against good and bad bots.

Each case runs ``python -m zole_arena check COMMAND`` as a user would (a real process with a
time limit) and reads its PASS/FAIL lines. The runs are independent, so a module fixture starts
them all at once, a few at a time, and each test checks one run: the exit code, the item that
must FAIL (with its detail and the offending line), no traceback, and that no process of the bad
bot — nor a child of it — outlived the command (the fault bots write their pids to the file
named by ``$ZOLE_BOT_FAULT_PIDS``).

Bots that never answer in time fail every decision item, so they are checked with a shorter
``--movetime`` (their items fail whatever the time); the others use ``--movetime 300``.

The tracker bot (``helper_bots/tracker_bot.py``) keeps the deal from the event stream and exits
with an error on any line a match would not send it: it passes ``check``, and plays a match.
``no_read.py`` is not run here: ``check`` has no option for the ping time, and a bot that stops
reading costs two 5-second ping stalls (``test_faults.py`` covers it).
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import re
import shlex
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from prochelp import group_gone, marked_processes

from zole_arena.arena.check import check_matches
from zole_arena.game.actions import Contract
from zole_arena.game.rules import AllPass
from zole_arena.game.scoring import Pules
from zole_arena.game.state import DealState, Phase

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
FAULT_BOTS = TESTS / "fault_bots"
TRACKER_BOT = TESTS / "helper_bots" / "tracker_bot.py"
RUN_TIMEOUT_S = 60
PARALLEL_RUNS = 4
FAST = ("--movetime", "300")
#: For bots that never answer in time: the decision items fail whatever the time.
NEVER_IN_TIME = ("--movetime", "50", "--timemargin", "0")


@dataclasses.dataclass(frozen=True)
class Item:
    number: int
    passed: bool
    text: str
    """``name: detail``."""
    offending: str | None


@dataclasses.dataclass
class Run:
    proc: subprocess.CompletedProcess[str]
    seconds: float
    pidfile: Path
    marker: str

    @property
    def items(self) -> dict[int, Item]:
        items: dict[int, Item] = {}
        last: int | None = None
        for line in self.proc.stdout.splitlines():
            item = re.match(r"^(PASS|FAIL) +(\d+) (.*)$", line)
            if item:
                last = int(item[2])
                items[last] = Item(last, item[1] == "PASS", item[3], None)
                continue
            offending = re.match(r"^ +offending line: (.*)$", line)
            if offending and last is not None:
                items[last] = dataclasses.replace(items[last], offending=offending[1])
        return items

    def item(self, number: int, name: str) -> Item:
        item = self.items[number]
        assert item.text.startswith(f"{name}: "), item
        return item

    def failed(self) -> list[int]:
        return [n for n, item in self.items.items() if not item.passed]


@dataclasses.dataclass(frozen=True)
class Case:
    id: str
    bot: str
    """A fault bot's name, ``tracker``, or a whole command (``random``, a missing program)."""
    args: tuple[str, ...] = ()
    options: tuple[str, ...] = FAST

    def command(self) -> str:
        path = TRACKER_BOT if self.bot == "tracker" else FAULT_BOTS / f"{self.bot}.py"
        if not path.exists():
            return self.bot
        return shlex.join([sys.executable, str(path), *self.args])


CASES = [
    Case("random", "random"),
    Case("tracker", "tracker"),
    Case("exit_at_start", "exit_at_start"),
    Case("slow_start_over_limit", "slow_start", ("5",), (*FAST, "--startup-ms", "500")),
    Case("missing_program", "/nonexistent/zole-bot --level 3"),
    Case("crash_mid_deal", "crash_mid_deal", ("1",)),
    Case("hangs_once", "hangs_once", ("5",)),
    Case("memory_hog", "memory_hog", options=(*FAST, "--max-memory-mb", "32")),
    Case("never_answers", "never_answers", options=NEVER_IN_TIME),
    Case("wrong_id", "wrong_id", options=NEVER_IN_TIME),
    Case("late_answer", "late_answer", options=NEVER_IN_TIME),
    Case("child_then_dies", "child_then_dies", options=NEVER_IN_TIME),
    Case("garbage", "garbage"),
    Case("illegal_card", "illegal_card"),
    Case("huge_line", "huge_line"),
    Case("endless_output", "endless_output", ("2000",)),  # long lines: 1 MiB in ~520 lines
    Case("ignores_quit", "ignores_quit"),
]


def run_check(case: Case, pidfile: Path) -> Run:
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "COLUMNS": "200",
        "NO_COLOR": "1",
        "ZOLE_BOT_FAULT_PIDS": str(pidfile),
        # Every process the run starts inherits this: see marked_processes().
        "ZOLE_TEST_RUN": marker(case),
    }
    start = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-m", "zole_arena", "check", case.command(), *case.options],
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT_S,
        env=env,
        cwd=ROOT,
        check=False,
    )
    return Run(proc, time.monotonic() - start, pidfile, marker(case))


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Run]:
    """Every case's run of ``zole-arena check``, a few at a time."""
    folder = tmp_path_factory.mktemp("check")
    with ThreadPoolExecutor(max_workers=PARALLEL_RUNS) as pool:
        futures = {
            case.id: pool.submit(run_check, case, folder / f"{case.id}.pids") for case in CASES
        }
        return {name: future.result() for name, future in futures.items()}


RUN_ID = uuid.uuid4().hex


def marker(case: Case) -> str:
    return f"{RUN_ID}-{case.id}"


def pid_gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    with contextlib.suppress(OSError):  # alive (still the sleeping child?) or a zombie
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        return b"time.sleep(600)" not in cmdline and cmdline != b""
    return True


def reported(run: Run) -> Iterator[tuple[str, int]]:
    if run.pidfile.exists():
        for line in run.pidfile.read_text().splitlines():
            role, pid = line.split()
            yield role, int(pid)


def check_run(run: Run, code: int) -> None:
    """The exit code; no traceback; nothing of the bot left (not even a zombie)."""
    output = run.proc.stdout + run.proc.stderr
    assert "Traceback" not in output, output
    assert run.proc.returncode == code, output
    assert run.proc.stdout.startswith("checking "), output
    left = [f"process {pid}" for pid in marked_processes(run.marker)]
    left += [
        f"{role} {pid}" for role, pid in reported(run) if role == "bot" and not group_gone(pid)
    ]
    left += [
        f"{role} {pid}" for role, pid in reported(run) if role == "child" and not pid_gone(pid)
    ]
    assert not left, f"left behind: {left}"


# -- the cases --------------------------------------------------------------------------------


def _all_pass(name: str) -> Callable[[Run], None]:
    def expect(run: Run) -> None:
        check_run(run, 0)
        items = run.items
        assert len(items) >= 20 and all(item.passed for item in items.values())
        assert f"all {len(items)} items passed" in run.proc.stdout
        first = run.item(1, "start and handshake")
        assert first.text.startswith(f"start and handshake: {name!r}")
        # Every decision item plays its deal to the end, and so does every copy of the bot.
        for number in range(4, len(items) - 3):
            assert "to the deal's end (" in items[number].text or (
                "the deal ended (" in items[number].text
            ), items[number]
        # The last deals are played under a game clock (go ... clock C inc I), not flagged.
        clocked = items[len(items) - 1]
        assert re.match(r"full wpt deals .*, under a game clock of [\d.]+\+[\d.]+ s: 3 deals",
                        clocked.text), clocked  # fmt: skip
        assert re.search(r"the least left on a clock \d+ ms$", clocked.text), clocked
        quit_item = run.item(len(items), "quit")
        assert re.search(r": \d+ copies of the bot, each within 1 s; .* code 0$", quit_item.text)
        if name == "Tracker":  # it notes its starts and quits: every copy was told to quit
            notes = list(reported(run))
            started = {pid for role, pid in notes if role == "bot"}
            assert started == {pid for role, pid in notes if role == "quit"}
            assert len(started) >= 9 + 9  # its own copies, and three full deals' three each

    return expect


def _start_failure(needle: str) -> Callable[[Run], None]:
    def expect(run: Run) -> None:
        check_run(run, 1)
        item = run.item(1, "start and handshake")
        assert not item.passed and needle in item.text
        assert list(run.items) == [1]  # nothing more can be checked
        assert "1 of 1 items failed" in run.proc.stdout

    return expect


def _decision_failure(needle: str, offending: str | None = None) -> Callable[[Run], None]:
    """Handshake, options and ping pass; the first decision (item 4) fails."""

    def expect(run: Run) -> None:
        check_run(run, 1)
        for number, name in (
            (1, "start and handshake"),
            (2, "options"),
            (3, "ping (isready → readyok)"),
        ):
            assert run.item(number, name).passed
        item = run.item(4, "wpt bid as forehand")
        assert not item.passed and needle in item.text, item
        if offending is None:
            assert item.offending is None
        else:
            assert item.offending is not None and re.match(offending, item.offending), item
        failed = run.failed()
        assert f"{len(failed)} of {len(run.items)} items failed" in run.proc.stdout

    return expect


def _never_in_time(run: Run) -> None:
    """Every decision item fails on a timeout: a late or wrong answer is never taken."""
    _decision_failure("timeout: no answer to request 1 within 50 ms")(run)
    items = run.items
    decisions = [items[n] for n in range(4, len(items) - 2)]  # up to the full deals
    assert len(decisions) >= 14
    assert all(not item.passed and "timeout:" in item.text for item in decisions), decisions


def _illegal_card(run: Run) -> None:
    check_run(run, 1)
    for number in (1, 2, 3):
        assert run.items[number].passed, run.items[number]
    # It bids legally (pass), but the deal is played on: the table game, which it leads.
    item = run.item(4, "wpt bid as forehand")
    assert not item.passed
    assert "answer 2 of the deal (playing): not a legal answer: illegal action" in item.text
    assert "not in the hand" in item.text
    assert item.offending is not None and re.fullmatch(
        r"'action 2 [AKQJT987][CSHD]'", item.offending
    )
    # Under lzf everyone passes: a pule is written and the deal ends with no card played.
    pule = run.item(12, "lzf bid with zole offered")
    assert pule.passed and re.search(r": pass \[[\d.]+ ms\]; the deal ended \(pule\)$", pule.text)


def _ignores_quit(run: Run) -> None:
    check_run(run, 1)
    items = run.items
    assert run.failed() == [len(items)]
    item = run.item(len(items), "quit")
    assert "did not exit within 1 s of 'quit' (killed)" in item.text
    assert f"1 of {len(items)} items failed" in run.proc.stdout


def _child_then_dies(run: Run) -> None:
    _decision_failure("wpt bid as forehand")(run)
    assert len([pid for role, pid in reported(run) if role == "child"]) >= 2  # restarts


def _hangs_once(run: Run) -> None:
    # The hung bot is restarted, as after a crash: only its own item fails, not every later
    # one (the old copy would still be busy with that request).
    check_run(run, 1)
    failed = run.failed()
    assert failed == [4], run.proc.stdout  # its 5th go is in the first deal
    assert "answer 5 of the deal (playing): timeout: no answer to request 5" in run.items[4].text
    assert f"1 of {len(run.items)} items failed" in run.proc.stdout
    assert len([pid for role, pid in reported(run) if role == "bot"]) >= 2  # restarted


EXPECT: dict[str, Callable[[Run], None]] = {
    "random": _all_pass("Random"),
    "tracker": _all_pass("Tracker"),
    "exit_at_start": _start_failure("the bot ended during the handshake"),
    "slow_start_over_limit": _start_failure(
        "the bot wrote nothing within the startup time of 500 ms"
    ),
    "missing_program": _start_failure("cannot start bot: no such program '/nonexistent/zole-bot'"),
    "crash_mid_deal": _decision_failure("crash: the bot closed its output"),
    "hangs_once": _hangs_once,
    "memory_hog": _decision_failure("crash: the bot closed its output"),
    "never_answers": _never_in_time,
    "wrong_id": _never_in_time,
    "late_answer": _never_in_time,
    "child_then_dies": _child_then_dies,
    "garbage": _decision_failure("not a legal answer: not a bid: 'banana'", r"^'action 1 banana'$"),
    "illegal_card": _illegal_card,
    "huge_line": _decision_failure(
        "flood: the bot sent a line of over 65,536 bytes", r"^'action 1 X{50}"
    ),
    "endless_output": _decision_failure(
        "flood: more than 10,000 lines", r"^'info still thinking \d+ x+'$"
    ),
    "ignores_quit": _ignores_quit,
}


@pytest.mark.parametrize("case", [case.id for case in CASES])
def test_check(runs: dict[str, Run], case: str) -> None:
    run = runs[case]
    assert run.seconds < RUN_TIMEOUT_S
    EXPECT[case](run)


def test_check_after_a_flood_blames_each_item_on_its_own_line(runs: dict[str, Run]) -> None:
    items = runs["huge_line"].items
    assert items[4].offending is not None and items[4].offending.startswith("'action 1 X")
    assert items[5].offending is None or items[5].offending.startswith("'action 2 ")


def test_every_fault_bot_is_checked_but_two() -> None:
    bots = {path.stem for path in FAULT_BOTS.glob("*.py") if not path.stem.startswith("_")}
    # no_read: see the module's docstring; cpu_hog: check has no option for the CPU limit
    # (600 s), so it would only time out like never_answers.
    assert bots - {case.bot for case in CASES} == {"no_read", "cpu_hog"}


# -- the tracker bot: check passes it exactly as a match does ---------------------------------


def _tracker() -> list[str]:
    return [sys.executable, str(TRACKER_BOT)]


def test_the_tracker_plays_a_match_with_the_rules_switches(tmp_path: Path) -> None:
    """The bot that passes ``check`` plays a match: lzf with small zole, pules standing and
    being cleared, and the table game of a second rules file; no fault in either."""
    for name, text in (
        ("small.toml", 'preset = "lzf"\ncontracts = ["take", "zole", "small_zole"]\n'),
        ("table.toml", 'preset = "lzf"\nall_pass = "table"\n'),
    ):
        rules = tmp_path / name
        rules.write_text(text)
        proc = subprocess.run(
            [sys.executable, "-m", "zole_arena", "match", shlex.join(_tracker()),
             shlex.join(_tracker()), "random", "--deals", "60", "--seed", "5",
             "--rules", str(rules), "--json"],
            capture_output=True, text=True, timeout=RUN_TIMEOUT_S, cwd=tmp_path, check=False,
        )  # fmt: skip
        assert proc.returncode == 0, proc.stdout + proc.stderr
        summary = json.loads(proc.stdout)
        assert summary["deals"] == 60 and summary["faults"] == [], summary["faults"]
        assert all(player["faults"] == 0 for player in summary["players"])


@pytest.mark.parametrize(
    ("stream", "why"),
    [
        # A card the bot was never dealt, for its own seat (what check used to send).
        ("newdeal deal 1 seat 0 dealer 2 forehand 0 rules wpt hand QC,QS,QH,QD,JC,JS,JH,JD "
         "scores 0,0,0 commonpules 0 personalpules - contracts take allpass table\n"
         "bid 0 pass\nbid 1 pass\nbid 2 pass\ncard 0 AD\ncard 1 TD\ncard 2 KD\ntrick 0 25\n"
         "go id 1 time 500 phase play deal 1 seat 0 dealer 2 forehand 0 rules wpt "
         "hand QC,QS,QH,QD,JC,JS,JH scores 0,0,0 commonpules 0 personalpules - bids "
         "pass,pass,pass contract table soloist - talon - buried - played AD,TD,KD winners 0 "
         "legal QC\n", "played ['AD']"),
        # A second deal with no result for the first.
        ("newdeal deal 1 seat 0 dealer 2 forehand 0 rules wpt hand QC,QS,QH,QD,JC,JS,JH,JD "
         "scores 0,0,0 commonpules 0 personalpules - contracts take allpass table\n"
         "newdeal deal 2 seat 1 dealer 0 forehand 1 rules wpt hand QC,QS,QH,QD,JC,JS,JH,JD "
         "scores 0,0,0 commonpules 0 personalpules - contracts take allpass table\n",
         "no result for the last one"),
        # Events of a deal it was never told of (a restart told only the latest events).
        ("card 1 TD\n", "no newdeal before it"),
    ],
    ids=["card-never-held", "no-result-between-deals", "no-newdeal"],
)  # fmt: skip
def test_the_tracker_fails_loudly_on_a_stream_no_match_sends(stream: str, why: str) -> None:
    proc = subprocess.run(
        _tracker(), input=f"zole 1\n{stream}quit\n", capture_output=True, text=True,
        timeout=RUN_TIMEOUT_S, check=False,
    )  # fmt: skip
    assert proc.returncode == 2, proc.stderr
    assert "tracker: inconsistent stream" in proc.stderr and why in proc.stderr, proc.stderr


def test_the_check_asks_for_the_decisions_its_items_name() -> None:
    """Each match's deals are numbered on from its first, every position is reached by legal
    moves from its seed's deal, and it is the decision the item names."""
    matches = check_matches()
    assert [m.rules.preset for m in matches] == ["wpt", "lzf", "lzf"]
    assert matches[1].pules == Pules(2, (1,)) and sum(matches[1].totals) == 0
    assert matches[2].rules.all_pass is AllPass.TABLE
    assert Contract.SMALL_ZOLE in matches[2].rules.contracts
    by_name = {}
    for match in matches:
        numbers = [s.state.deal_no for s in match.scenarios]
        assert numbers == list(range(numbers[0], numbers[0] + len(numbers)))
        for scenario in match.scenarios:
            state = scenario.state
            assert state.seed is not None and state.deal_no is not None
            replay = DealState.from_seed(match.rules, state.seed, state.deal_no)
            for _, action in state.history:
                replay.apply(action)  # legal, or this raises
            assert replay.turn == scenario.seat and replay.phase is state.phase
            by_name[scenario.name] = scenario
    phases = {name: s.state.phase for name, s in by_name.items()}
    assert phases["wpt bury after taking the talon"] is Phase.BURYING
    assert [n for n, p in phases.items() if p is Phase.BIDDING] == [
        "wpt bid as forehand", "wpt bid after two passes", "lzf bid with zole offered",
        "lzf bid with small zole offered",
    ]  # fmt: skip
    follow = by_name["wpt follow the led category"].state
    assert 0 < len(follow.legal_actions()) < len(follow.hand(follow.turn))  # type: ignore[arg-type]
    void = by_name["wpt play when void"].state
    assert void.current_trick and len(void.legal_actions()) == len(void.hand(void.turn))  # type: ignore[arg-type]
    assert by_name["wpt table game (all passed)"].state.contract is Contract.TABLE
    assert by_name["lzf table game switch (all passed)"].state.contract is Contract.TABLE
    for name in ("lzf zole: soloist plays", "lzf small zole: soloist plays"):
        assert by_name[name].state.turn == by_name[name].state.soloist
    opponent = by_name["lzf zole: opponent plays"].state
    assert opponent.contract is Contract.ZOLE and opponent.turn != opponent.soloist
    # A decision that follows from the bot's own moves is asked of a copy joining mid-deal.
    joining = {name for name, s in by_name.items() if s.joins}
    assert joining == {
        "wpt bury after taking the talon", "wpt lead the first trick",
        "wpt table game (all passed)", "lzf zole: soloist plays",
        "lzf small zole: soloist plays", "lzf table game switch (all passed)",
    }  # fmt: skip


@pytest.mark.parametrize("sandbox", [False, True], ids=["plain", "sandboxed"])
def test_the_protocol_pages_smallest_bot_passes_check(tmp_path: Path, sandbox: bool) -> None:
    """The standard-library bot of protocol/README.md §9, as printed there, passes ``check``."""
    page = (ROOT / "protocol" / "README.md").read_text()
    section = page[page.index("## 9. Writing a bot") :]
    start = section.index("```python\n") + len("```python\n")
    bot = tmp_path / "first_legal.py"
    bot.write_text(section[start : section.index("```", start)])
    proc = subprocess.run(
        [sys.executable, "-m", "zole_arena", "check", shlex.join([sys.executable, str(bot)]),
         *FAST, *(["--sandbox"] if sandbox else [])],
        capture_output=True, text=True, timeout=RUN_TIMEOUT_S, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.strip().splitlines()[-1].startswith("all "), proc.stdout
