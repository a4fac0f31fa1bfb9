"""Match throughput benchmark: a match of the fastest bundled bot against what pipes allow.

Three copies of the fastest bundled bot (``crandom`` with a C compiler, else ``random``) play a
match with a game log, and three more copies play the same deals through a *bare loop*: the
least a correct arena must do in Python (the engine's ``go`` lines, one write and one read per
decision, the answer parsed and applied, the events and results sent), with no log, no
deadlines and no fault handling. Raw round trips of a request-sized line through a minimal echo
program are taken between the match's deals. The three are measured in one run, in
alternating chunks of deals, so that the machine's changing speed touches them alike.

What a sequential game can reach is ``1 / (decisions per deal × raw round trip)`` deals per
second; the target (issue 4) is that the match reaches half of it freely placed, and pinned to
one CPU stays within twice the bare loop's time.

How fast a sleeping process is woken decides the raw round trip, and it depends on where the
processes run. The benchmark therefore measures two *placements* side by side:

* ``free``: the operating system places the processes (what a user gets by default);
* ``pinned``: the arena, its bots and the echo run on one CPU (what ``match --cpu N`` does), so
  that every wake-up is a switch on the same CPU — the fastest raw round trip, and the hardest
  comparison.

The bots are started before the clock runs: the figures are of deals, not of start-up.

Beside the lanes, three Python bot objects (:class:`~zole_arena.sdk.bot.Bot`, random legal
actions) play the same deals seated in the arena's process, with the game log: no pipe and no
text, what a bot author's self-play gets.
"""

from __future__ import annotations

import dataclasses
import itertools
import os
import random
import statistics
import subprocess
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Final

from zole_arena.arena.match import Match
from zole_arena.arena.settings import MatchSettings
from zole_arena.bench.engine import fastest_bot, raw_round_trip
from zole_arena.catalogue.bundled import bundled_command
from zole_arena.errors import ZoleError
from zole_arena.game.actions import Action
from zole_arena.game.rules import Rules, load_rules
from zole_arena.game.state import DealState
from zole_arena.isolation.affinity import current_cpus, placed
from zole_arena.isolation.sandbox import Sandbox
from zole_arena.players.session import BotConfig
from zole_arena.protocol import DealWriter, events_after, parse_answer, result_event
from zole_arena.records.model import DealRecord
from zole_arena.records.reader import read_log
from zole_arena.sdk import Bot, BotView

__all__ = [
    "MATCH_TARGET_SHARE",
    "PINNED_TARGET_FACTOR",
    "InProcessFigures",
    "MatchBenchResult",
    "PlacementFigures",
    "run_match_bench",
]

#: The match throughput target freely placed (issue 4): at least this share of what raw round
#: trips allow.
MATCH_TARGET_SHARE: Final = 0.5
#: The target pinned to one CPU, where the raw round trip is a switch on one CPU that no Python
#: loop nears: the match within this factor of the bare loop's time.
PINNED_TARGET_FACTOR: Final = 2.0
#: Deals played by each of the match and the bare loop before the other takes its turn.
CHUNK_DEALS: Final = 25
#: Raw echo round trips taken after every :data:`ECHO_EVERY` deals of the match: often enough
#: to follow the machine's changing speed, seldom enough not to cool the match's caches.
ECHO_SAMPLES: Final = 5
ECHO_EVERY: Final = 5
_ECHO_LINE: Final = ("x" * 399 + "\n").encode()  # about a ``go`` request's length


@dataclasses.dataclass(frozen=True)
class PlacementFigures:
    """The figures of one placement of the processes."""

    placement: str
    """``free`` (the operating system places the processes) or ``pinned`` (all on one CPU)."""
    cpus: tuple[int, ...]
    """The CPUs the processes could run on."""
    deals: int
    match_seconds: float
    """The match's wall time, without the raw round trips taken between its deals."""
    bare_seconds: float
    """The bare loop's wall time for as many deals."""
    decisions_per_deal: float
    raw_echo_us: float
    """Median raw round trip of a request-sized line through the echo program."""
    raw_samples: int

    @property
    def deals_per_second(self) -> float:
        """Deals per second of the match (bots, engine, checks and log)."""
        return self.deals / self.match_seconds

    @property
    def bare_deals_per_second(self) -> float:
        """Deals per second of the bare loop."""
        return self.deals / self.bare_seconds

    @property
    def decision_us(self) -> float:
        """The match's wall time per decision, everything included."""
        return self.match_seconds * 1e6 / (self.deals * self.decisions_per_deal)

    @property
    def raw_deals_per_second(self) -> float:
        """What raw round trips allow: 1 / (decisions per deal × raw round trip)."""
        return 1e6 / (self.decisions_per_deal * self.raw_echo_us)

    @property
    def share_of_raw(self) -> float:
        """The match's deals per second over what raw round trips allow."""
        return self.deals_per_second / self.raw_deals_per_second

    @property
    def bare_share_of_raw(self) -> float:
        """The bare loop's deals per second over what raw round trips allow."""
        return self.bare_deals_per_second / self.raw_deals_per_second

    @property
    def share_of_bare(self) -> float:
        """The match's deals per second over the bare loop's."""
        return self.deals_per_second / self.bare_deals_per_second

    @property
    def target(self) -> str:
        """The placement's target, in words."""
        if self.placement == "pinned":
            return f"within {PINNED_TARGET_FACTOR:g}× of the bare loop"
        return f"at least {MATCH_TARGET_SHARE:.0%} of raw"

    @property
    def target_met(self) -> bool:
        """Whether the match meets its placement's target: freely placed,
        :data:`MATCH_TARGET_SHARE` of what raw round trips allow; pinned, within
        :data:`PINNED_TARGET_FACTOR` of the bare loop."""
        if self.placement == "pinned":
            return self.share_of_bare * PINNED_TARGET_FACTOR >= 1
        return self.share_of_raw >= MATCH_TARGET_SHARE

    def to_dict(self) -> dict[str, object]:
        """The figures as JSON-ready data."""
        data = dataclasses.asdict(self)
        data["cpus"] = list(self.cpus)
        for name in (
            "deals_per_second",
            "bare_deals_per_second",
            "decision_us",
            "raw_deals_per_second",
            "share_of_raw",
            "bare_share_of_raw",
            "share_of_bare",
            "target",
            "target_met",
        ):
            data[name] = getattr(self, name)
        return data


@dataclasses.dataclass(frozen=True)
class InProcessFigures:
    """The match of three Python bot objects seated in the arena's process."""

    deals: int
    seconds: float
    decisions_per_deal: float

    @property
    def deals_per_second(self) -> float:
        """Deals per second (bots, engine, checks and log)."""
        return self.deals / self.seconds

    @property
    def decision_us(self) -> float:
        """Wall time per decision, everything included."""
        return self.seconds * 1e6 / (self.deals * self.decisions_per_deal)

    def to_dict(self) -> dict[str, object]:
        """The figures as JSON-ready data."""
        data: dict[str, object] = dataclasses.asdict(self)
        data["deals_per_second"] = self.deals_per_second
        data["decision_us"] = self.decision_us
        return data


@dataclasses.dataclass(frozen=True)
class MatchBenchResult:
    """Match throughput against what raw pipe round trips allow, per placement, and the
    same match with the bots in the arena's process."""

    bot: str
    language: str
    deals: int
    placements: tuple[PlacementFigures, ...]
    in_process: InProcessFigures
    sandboxed: bool = False
    """Whether the match's bots ran sandboxed (the bare loop and the echo never are)."""

    def in_process_speedup(self, figures: PlacementFigures) -> float:
        """How many times the process match's deals per second the in-process match plays."""
        return self.in_process.deals_per_second / figures.deals_per_second

    def to_dict(self) -> dict[str, object]:
        """The figures as JSON-ready data."""
        in_process = self.in_process.to_dict()
        in_process["speedup"] = {
            figures.placement: self.in_process_speedup(figures) for figures in self.placements
        }
        return {
            "bot": self.bot,
            "language": self.language,
            "deals": self.deals,
            "sandboxed": self.sandboxed,
            "target_share": MATCH_TARGET_SHARE,
            "placements": [figures.to_dict() for figures in self.placements],
            "in_process": in_process,
        }


class _RandomBot(Bot):
    """Uniformly random legal actions, as a bot object."""

    name = "random"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def decide(self, view: BotView) -> Action:
        return self.rng.choice(view.legal_actions)


class _InProcessLane:
    """The match of three bot objects in the arena's process, played chunk by chunk."""

    def __init__(self, deals: int, log_path: str) -> None:
        self.deals = deals
        self.log_path = log_path
        self.seconds = 0.0
        self.played = 0
        configs = [BotConfig.in_process(_RandomBot(i), name=f"random#{i + 1}") for i in range(3)]
        settings = MatchSettings(rules=load_rules("wpt"), seed=1, deals=deals)
        self.match = Match(configs, settings, log_path)
        self.match.start()

    def chunk(self, count: int) -> None:
        until = min(self.deals, self.played + count)
        start = time.perf_counter()
        for _ in itertools.islice(self.match, until - self.played):
            pass
        self.seconds += time.perf_counter() - start
        if self.match.done != until:
            raise ZoleError(f"the in-process match stopped at deal {self.match.done}")
        self.played = until

    def figures(self) -> InProcessFigures:
        return InProcessFigures(self.played, self.seconds, _decisions(self.log_path) / self.played)

    def close(self) -> None:
        self.match.close()


def _decisions(log_path: str) -> int:
    """The bots' decisions in a log (not the actions played for faulted bots)."""
    records, _ = read_log(log_path)
    return sum(
        sum(1 for move in record.moves if move.request_id is not None)
        for record in records
        if isinstance(record, DealRecord)
    )


class _BareLoop:
    """The least a correct arena does per deal, in plain Python, with three bot processes.

    Pipes are blocking, lines are assumed whole and well-formed: this is a yardstick for the
    match, not an arena (a bot that misbehaves would hang it).
    """

    def __init__(self, argv: Sequence[str], rules: Rules, seed: int) -> None:
        self.rules = rules
        self.seed = seed
        self.bots = [
            subprocess.Popen(list(argv), stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
            for _ in range(3)
        ]
        self.fds: list[tuple[int, int]] = []
        for bot in self.bots:
            assert bot.stdin is not None and bot.stdout is not None
            self.fds.append((bot.stdin.fileno(), bot.stdout.fileno()))
        self.totals = [0, 0, 0]
        self.request_id = 0
        try:
            for stdin_fd, stdout_fd in self.fds:
                os.write(stdin_fd, b"zole 1\n")
                data = b""
                while b"zoleok" not in data:
                    chunk = os.read(stdout_fd, 65536)
                    if not chunk:
                        raise ZoleError("the benchmark bot ended during the handshake")
                    data += chunk
        except BaseException:
            self.close()
            raise

    def play(self, first: int, count: int) -> None:
        """Play deals ``first`` … ``first + count - 1``."""
        for deal_no in range(first, first + count):
            self._deal(deal_no)

    def _deal(self, deal_no: int) -> None:
        state = DealState.from_seed(self.rules, self.seed, deal_no)
        writer = DealWriter(state, deal_no, tuple(self.totals))
        pending = [[writer.newdeal(seat)] for seat in range(3)]
        while state.result is None:
            seat: int = state.turn  # type: ignore[assignment]
            self.request_id += 1
            lines = pending[seat]
            lines.append(writer.go(self.request_id, 2000))
            pending[seat] = []
            stdin_fd, stdout_fd = self.fds[seat]
            os.write(stdin_fd, ("\n".join(lines) + "\n").encode())
            data = os.read(stdout_fd, 65536)
            while not data.endswith(b"\n"):
                data += os.read(stdout_fd, 65536)
            words = data.decode().split()
            action = parse_answer(words[2:], state.phase)
            state.apply(action)
            events = events_after(state, seat, action)
            for queue in pending:
                queue.extend(events)
        result = state.result
        for seat in range(3):
            self.totals[seat] += result.scores[seat]
        last = result_event(result, deal_no, self.totals)
        for seat, (stdin_fd, _) in enumerate(self.fds):
            os.write(stdin_fd, ("\n".join([*pending[seat], last]) + "\n").encode())

    def close(self) -> None:
        for bot in self.bots:
            bot.kill()
            bot.wait()


class _Lane:
    """One placement's match, bare loop and echo program, played chunk by chunk."""

    def __init__(
        self,
        placement: str,
        cpus: set[int] | None,
        bot: str,
        echo_argv: Sequence[str],
        deals: int,
        log_path: str,
        sandbox: Sandbox | None = None,
    ) -> None:
        self.placement = placement
        self.cpus = cpus
        self.log_path = log_path
        self.match_seconds = 0.0
        self.bare_seconds = 0.0
        self.samples: list[float] = []
        self.deals = deals
        argv = bundled_command(bot)
        rules = load_rules("wpt")
        with placed(cpus):  # the processes started here inherit the placement
            self.echo = subprocess.Popen(
                list(echo_argv), stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0
            )
            configs = [BotConfig(command=argv, name=f"{bot}#{i + 1}") for i in range(3)]
            settings = MatchSettings(rules=rules, seed=1, deals=deals, sandbox=sandbox)
            self.match = Match(configs, settings, log_path)
            try:
                self.match.start()  # the bots, untimed
                self.bare = _BareLoop(argv, rules, seed=1)
            except BaseException:
                self.match.close()
                self.echo.kill()
                self.echo.wait()
                raise
        self.played = 0

    def chunk(self, count: int) -> None:
        """Play the next ``count`` deals of the match, then as many of the bare loop."""
        assert self.echo.stdin is not None and self.echo.stdout is not None
        echo_in, echo_out = self.echo.stdin.fileno(), self.echo.stdout.fileno()
        aside = 0.0

        until = min(self.deals, self.played + count)
        with placed(self.cpus):
            start = time.perf_counter()
            for report in itertools.islice(self.match, until - self.played):
                # Raw round trips between the deals see the machine as the match sees it;
                # their time is not counted as the match's.
                if report.number % ECHO_EVERY == 0:
                    t0 = time.perf_counter()
                    for _ in range(ECHO_SAMPLES):
                        self.samples.append(raw_round_trip(echo_in, echo_out, _ECHO_LINE))
                    aside += time.perf_counter() - t0
            self.match_seconds += time.perf_counter() - start - aside
            if self.match.done != until:
                raise ZoleError(
                    f"the benchmark match stopped at deal {self.match.done}: {self.match.stopped}"
                )
            start = time.perf_counter()
            self.bare.play(self.played + 1, until - self.played)
            self.bare_seconds += time.perf_counter() - start
        self.played = until

    def figures(self) -> PlacementFigures:
        """The placement's figures, once every deal is played."""
        decisions = _decisions(self.log_path)
        cpus = self.cpus if self.cpus is not None else current_cpus()
        return PlacementFigures(
            placement=self.placement,
            cpus=tuple(sorted(cpus or ())),
            deals=self.played,
            match_seconds=self.match_seconds,
            bare_seconds=self.bare_seconds,
            decisions_per_deal=decisions / max(1, self.played),
            raw_echo_us=statistics.median(self.samples) * 1e6,
            raw_samples=len(self.samples),
        )

    def close(self) -> None:
        self.match.close()
        self.bare.close()
        self.echo.kill()
        self.echo.wait()


def run_match_bench(
    deals: int = 1000, *, pinned: bool = True, sandbox: bool = False
) -> MatchBenchResult:
    """Play ``deals`` deals of a match and of the bare loop in each placement (``free``, and
    ``pinned`` to the first CPU this process may use when ``pinned`` is true and it may use
    more than one), in alternating chunks of :data:`CHUNK_DEALS`, with raw echo round trips
    between the match's deals; and as many deals of the in-process match, chunk by chunk
    among them.

    :param sandbox: the match's bots run sandboxed (bubblewrap, their control group, the
        system-call filter); the bare loop and the echo stay plain, so the figures show what
        the sandbox costs a decision.
    """
    bot, language, echo_argv = fastest_bot()
    cpus = current_cpus()
    placements: list[tuple[str, set[int] | None]] = [("free", None)]
    if pinned and cpus is not None and len(cpus) > 1:
        placements.append(("pinned", {min(cpus)}))
    order = random.Random(7)
    with tempfile.TemporaryDirectory() as tmp:
        lanes: list[_Lane | _InProcessLane] = []
        try:
            for index, (name, where) in enumerate(placements):
                log_path = str(Path(tmp) / f"bench-{index}.jsonl")
                lanes.append(_Lane(name, where, bot, echo_argv, deals, log_path,
                                   Sandbox() if sandbox else None))  # fmt: skip
            in_process = _InProcessLane(deals, str(Path(tmp) / "bench-in-process.jsonl"))
            lanes.append(in_process)
            while any(lane.played < deals for lane in lanes):
                # In a random order each time: no lane should always follow the other.
                for lane in order.sample(lanes, len(lanes)):
                    lane.chunk(CHUNK_DEALS)
        finally:
            for lane in lanes:
                lane.close()
        figures = tuple(lane.figures() for lane in lanes if isinstance(lane, _Lane))
        return MatchBenchResult(bot, language, deals, figures, in_process.figures(), sandbox)
