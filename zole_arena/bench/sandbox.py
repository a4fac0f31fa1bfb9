"""What the sandbox costs: a bot's start and a decision's round trip, with and without it.

A sandbox is built when a bot starts (namespaces, mounts, a control group), and after that
the bot's pipes are plain pipes: the sandbox should cost start time, not round trips. This
benchmark measures both in one run, for the bundled Python bot and (with a C compiler) the C
bot: starts alternate between plain and sandboxed, and so do decisions, sent to a plain and a
sandboxed copy of the bot that run side by side; medians are reported.
"""

from __future__ import annotations

import dataclasses
import statistics
import time

from zole_arena.bench.engine import _benchmark_state
from zole_arena.catalogue.bundled import bundled_command, c_compiler
from zole_arena.game.rules import load_rules
from zole_arena.isolation.cgroups import probe
from zole_arena.isolation.sandbox import Sandbox, check_available
from zole_arena.players.session import BotConfig, BotSession
from zole_arena.protocol import DealWriter, parse_answer

__all__ = ["SandboxBenchRow", "run_sandbox_bench"]


@dataclasses.dataclass(frozen=True)
class SandboxBenchRow:
    """One bot's figures (medians)."""

    bot: str
    starts: int
    decisions: int
    start_ms: float
    """Start and handshake of the plain bot."""
    sandboxed_start_ms: float
    decision_us: float
    """A decision through the arena (request written, answer read), plain."""
    sandboxed_decision_us: float

    def to_dict(self) -> dict[str, object]:
        """JSON-ready figures."""
        return dataclasses.asdict(self)


def _start_ms(config: BotConfig) -> float:
    started = time.perf_counter()
    session = BotSession(config)
    elapsed = time.perf_counter() - started
    session.quit()
    return elapsed * 1000


def run_sandbox_bench(starts: int = 10, decisions: int = 1000) -> list[SandboxBenchRow]:
    """Measure each bundled benchmark bot's start and decision, plain and sandboxed.

    :raises SandboxUnavailable: bubblewrap cannot build a sandbox here.
    """
    check_available()
    probe()  # once, outside the timings
    bots = ["random", *(["crandom"] if c_compiler() is not None else [])]
    rules = load_rules("wpt")
    state = _benchmark_state(rules)
    rows = []
    for bot in bots:
        plain = BotConfig(command=bundled_command(bot))
        boxed = dataclasses.replace(plain, sandbox=Sandbox())
        _start_ms(boxed)  # the first start builds caches (the C bot, the interpreter's files)
        plain_starts, boxed_starts = [], []
        for _ in range(starts):
            plain_starts.append(_start_ms(plain))
            boxed_starts.append(_start_ms(boxed))
        sessions = [BotSession(plain), BotSession(boxed)]
        times: list[list[float]] = [[], []]
        try:
            writer = DealWriter(state, 1, (0, 0, 0))
            for request_id in range(1, decisions + 1):
                for index, session in enumerate(sessions):
                    line = writer.go(request_id, 2000)
                    started = time.perf_counter()
                    reply = session.request(line, request_id, 2000, 100)
                    times[index].append(time.perf_counter() - started)
                    parse_answer(reply.words, state.phase)
        finally:
            for session in sessions:
                session.quit()
        rows.append(
            SandboxBenchRow(
                bot=bot,
                starts=starts,
                decisions=decisions,
                start_ms=statistics.median(plain_starts),
                sandboxed_start_ms=statistics.median(boxed_starts),
                decision_us=statistics.median(times[0]) * 1e6,
                sandboxed_decision_us=statistics.median(times[1]) * 1e6,
            )
        )
    return rows
