"""Rules-engine benchmark: random legal full deals per second on one core.

Each deal is dealt by the reproducible shuffle, bid, buried, played to the end and scored by the
real engine through its public API (:meth:`DealState.legal_actions` and the validating
:meth:`DealState.apply`), with every action drawn at random from the legal ones. Nothing is
skipped or simplified: this is the cost the arena pays per deal before talking to any bot.

Timings on a shared machine are noisy, so the deals are played in rounds and the report gives
the best round (the least disturbed, as ``timeit`` does) and the median.
"""

from __future__ import annotations

import dataclasses
import os
import random
import statistics
import subprocess
import sys
import time
from importlib import resources
from pathlib import Path

from zole_arena.game.rules import Rules
from zole_arena.game.state import DealState

__all__ = [
    "BenchResult",
    "ProtocolBenchResult",
    "run_bench",
    "fastest_bot",
    "raw_round_trip",
    "run_protocol_bench",
]


@dataclasses.dataclass(frozen=True)
class BenchResult:
    """Figures of one benchmark run."""

    rules: str
    deals: int
    rounds: int
    deals_per_second: float
    """Of the best round."""
    median_deals_per_second: float
    actions_per_deal: float
    seconds: float
    """Wall time of all rounds."""

    def to_dict(self) -> dict[str, object]:
        """The figures as JSON-ready data."""
        return dataclasses.asdict(self)


def _play_round(rules: Rules, seed: int, first: int, count: int, rng: random.Random) -> int:
    """Play ``count`` random deals; return the number of actions applied."""
    # getrandbits(32) % n picks each of n ≤ 45 choices with a bias below 1e-8, and costs half
    # of int(random() * n) (whose int() call would be a noticeable share of a deal).
    bits = rng.getrandbits
    actions = 0
    for deal_no in range(first, first + count):
        state = DealState.from_seed(rules, seed, deal_no)
        legal_actions = state.legal_actions
        apply = state.apply
        legal = legal_actions()
        while legal:  # empty once the deal is over
            apply(legal[bits(32) % len(legal)])
            legal = legal_actions()
        actions += state.action_count
    return actions


def run_bench(rules: Rules, deals: int = 50_000, rounds: int = 5, seed: int = 1) -> BenchResult:
    """Play ``deals`` random deals in ``rounds`` equal rounds and time each round."""
    rounds = max(1, min(rounds, deals))
    per_round = max(1, deals // rounds)
    rng = random.Random(seed)
    rates: list[float] = []
    actions = 0
    started = time.perf_counter()
    for index in range(rounds):
        t0 = time.perf_counter()
        actions += _play_round(rules, seed, 1 + index * per_round, per_round, rng)
        rates.append(per_round / (time.perf_counter() - t0))
    total = per_round * rounds
    return BenchResult(
        rules=rules.name,
        deals=total,
        rounds=rounds,
        deals_per_second=max(rates),
        median_deals_per_second=statistics.median(rates),
        actions_per_deal=actions / total,
        seconds=time.perf_counter() - started,
    )


@dataclasses.dataclass(frozen=True)
class ProtocolBenchResult:
    """Round trips of one decision, measured in the same run (medians, in microseconds)."""

    bot: str
    language: str
    decisions: int
    line_bytes: int
    raw_echo_us: float
    """A line of the request's length through a pipe to a minimal echo program and back."""
    raw_bot_us: float
    """The request line written straight to the bot and its answer read back, by minimal
    code: the pipe plus the bot's own work."""
    arena_us: float
    """A decision through the arena: the seat's view, the ``go`` line, the session's
    request with deadline, parsing and checking the answer."""

    @property
    def arena_vs_raw(self) -> float:
        """Arena decision / raw echo round trip (target: at most 3)."""
        return self.arena_us / self.raw_echo_us

    @property
    def overhead_vs_raw(self) -> float:
        """The arena's own cost (arena − raw bot) / raw echo round trip (target: at most 2)."""
        return (self.arena_us - self.raw_bot_us) / self.raw_echo_us

    def to_dict(self) -> dict[str, object]:
        """The figures as JSON-ready data."""
        data = dataclasses.asdict(self)
        data["arena_vs_raw"] = self.arena_vs_raw
        data["overhead_vs_raw"] = self.overhead_vs_raw
        return data


def raw_round_trip(stdin_fd: int, stdout_fd: int, line: bytes) -> float:
    """Write one line, block until a whole line comes back; seconds."""
    start = time.perf_counter()
    os.write(stdin_fd, line)
    data = b""
    while not data.endswith(b"\n"):
        data += os.read(stdout_fd, 65536)
    return time.perf_counter() - start


def _benchmark_state(rules: Rules) -> DealState:
    """A mid-deal decision: a take game a few cards in, the bot to play."""
    state = DealState.from_seed(rules, 1, 1)
    state.apply(state.legal_actions()[1])  # the forehand takes
    state.apply(state.legal_actions()[0])
    for _ in range(4):
        state.apply(state.legal_actions()[0])
    return state


def fastest_bot() -> tuple[str, str, list[str]]:
    """The fastest bundled bot, its language, and an echo program in that language:
    ``crandom`` and a C echo with a C compiler, else ``random`` and a Python echo."""
    from zole_arena.catalogue.bundled import build_c_program, c_compiler

    folder = bundled_bots_dir()
    if c_compiler() is not None:
        return "crandom", "C", [str(build_c_program(folder / "c" / "echo.c", "echo"))]
    return "random", "Python", [sys.executable, str(folder / "echo.py")]


def run_protocol_bench(decisions: int = 2000) -> ProtocolBenchResult:
    """Measure a decision through the arena against raw pipe round trips, in one run.

    The bot is the fastest bundled bot: ``crandom`` (C) when a C compiler is available, with a C
    echo program; otherwise ``random`` (Python) with a Python echo program. The three
    measurements take turns, one round trip each in a random order, and medians are reported.
    """
    from zole_arena.catalogue.bundled import bundled_command
    from zole_arena.game.rules import load_rules
    from zole_arena.players.session import BotConfig, BotSession
    from zole_arena.protocol import DealWriter, parse_answer

    bot, language, echo_argv = fastest_bot()
    rules = load_rules("wpt")
    state = _benchmark_state(rules)
    session = BotSession(BotConfig(command=bundled_command(bot)))
    echo = subprocess.Popen(echo_argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
    try:
        assert echo.stdin is not None and echo.stdout is not None
        bot_in, bot_out = session.process._stdin_fd, session.process._stdout_fd
        sample = DealWriter(state, 1, (0, 0, 0)).go(1, 2000)
        echo_line = ("x" * len(sample) + "\n").encode()
        arena: list[float] = []
        raw_bot: list[float] = []
        raw_echo: list[float] = []
        request_id = 0
        writer = DealWriter(state, 1, (0, 0, 0))
        echo_in, echo_out = echo.stdin.fileno(), echo.stdout.fileno()
        # The three measurements take turns, one round trip each, so that the machine's
        # changing speed (on a virtual machine, how fast a sleeping process is woken varies
        # from moment to moment) touches all three alike.
        order_rng = random.Random(7)

        def measure_echo() -> None:
            raw_echo.append(raw_round_trip(echo_in, echo_out, echo_line))

        def measure_raw_bot() -> None:
            nonlocal request_id
            request_id += 1
            line = writer.go(request_id, 2000)
            os.set_blocking(bot_out, True)
            raw_bot.append(raw_round_trip(bot_in, bot_out, (line + "\n").encode()))
            os.set_blocking(bot_out, False)

        def measure_arena() -> None:
            nonlocal request_id, writer
            request_id += 1
            # What the referee does per decision (Referee._turn): a DealWriter per deal writes
            # the request, the session sends it and reads the echoing answer, the answer is
            # parsed and checked (apply's check is this mask test). A deal has about 25
            # decisions, so a new writer is made every 25.
            start = time.perf_counter()
            if request_id % 50 == 0:
                writer = DealWriter(state, 1, (0, 0, 0))
            line = writer.go(request_id, 2000)
            reply = session.request(line, request_id, 2000, 100)
            action = parse_answer(reply.words, state.phase)
            if not state.legal_cards_mask() >> action & 1:  # type: ignore[operator]
                raise RuntimeError(f"the benchmark bot answered an illegal {action}")
            arena.append(time.perf_counter() - start)

        steps = [measure_echo, measure_raw_bot, measure_arena]
        for _ in range(decisions):
            # In a random order each time: what ran just before changes how fast a process
            # is woken, and no measurement should always come first or last.
            order_rng.shuffle(steps)
            for step in steps:
                step()
    finally:
        session.quit()
        echo.kill()
        echo.wait()
    return ProtocolBenchResult(
        bot=bot,
        language=language,
        decisions=len(arena),
        line_bytes=len(sample) + 1,
        raw_echo_us=statistics.median(raw_echo) * 1e6,
        raw_bot_us=statistics.median(raw_bot) * 1e6,
        arena_us=statistics.median(arena) * 1e6,
    )


def bundled_bots_dir() -> Path:
    """The folder of the bundled bots (the ``zole_arena_bots`` package)."""
    return Path(str(resources.files("zole_arena_bots")))
