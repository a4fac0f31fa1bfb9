"""Bot processes kept from one match to the next: a tournament worker's pool.

A tournament worker plays table after table; starting every bot afresh for each table costs a
Python bot some 75 ms, which dominates short tables. A :class:`SessionPool` hands a match the
bot it already started for an earlier table (everything a bot needs comes with ``newdeal``),
as :class:`KeptSession` objects: the match uses them as any session, and when it ends them
with ``quit`` they go back to the pool instead. A bot killed for a fault, or one that has
exited, is never handed out again, and neither is one whose CPU time so far would leave the
next table less than its per-process limit allows (``--max-cpu-s`` counts beyond the time a
table gives the bot to think): it is quit and a fresh one started.

Only unsandboxed bots are kept. A sandboxed process must never meet the same cards twice, and
every table of a tournament plays the same deals, so a sandboxed process can serve one table
(one seating of it) only; see ``docs/competitions.md``.
"""

from __future__ import annotations

import dataclasses
import os
import time
from collections.abc import Sequence

from zole_arena.errors import BotError
from zole_arena.players.session import BotConfig, BotSession, PlayerSession, Reply

__all__ = [
    "KeptSession",
    "SessionPool",
    "process_cpu_seconds",
]


def process_cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) a process has used so far, in seconds; 0.0 where the
    system does not say (no ``/proc``)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            fields = stat.read().rsplit(b")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    # After the command's closing parenthesis: state is field 3, utime 14 and stime 15.
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _key(config: BotConfig) -> str:
    """What makes two configs the same bot: everything but where its stderr and its dialogue
    go (a table's own files; a kept bot's stay in the first table's)."""
    return repr(dataclasses.replace(config, stderr_path=None, transcript=None))


class SessionPool:
    """Started bots, kept between matches: pass :meth:`start` as a match's ``start_session``
    and call :meth:`close` at the end.

    ::

        with SessionPool() as pool:
            for settings, configs in tables:
                Match(configs, settings, start_session=pool.start).run()
    """

    def __init__(self) -> None:
        self._idle: dict[str, list[BotSession]] = {}
        self.started = 0
        """Bot processes started (for figures and tests)."""
        self.reused = 0
        """Times a kept process was handed out again."""

    def start(self, config: BotConfig) -> PlayerSession:
        """A running bot for ``config``: an idle kept one that is fit, else a new one.

        :raises BotStartupError: a new bot cannot be started.
        """
        key = _key(config)
        idle = self._idle.get(key, [])
        while idle:
            session = idle.pop()
            if self._fit(session, config):
                self.reused += 1
                return KeptSession(self, key, session)
            session.quit()
        session = BotSession(config)
        self.started += 1
        return KeptSession(self, key, session)

    @staticmethod
    def _fit(session: BotSession, config: BotConfig) -> bool:
        """Whether a kept bot may play another match: alive, answering ``isready``, and with
        the CPU time its per-process limit gives beyond a match's thinking still unused."""
        if not session.running:
            return False
        if config.limits.cpu_seconds and (
            process_cpu_seconds(session.process.pid) >= config.limits.cpu_seconds
        ):
            return False
        try:
            session.ping()
        except BotError:
            return False
        return True

    def _release(self, key: str, session: BotSession) -> None:
        self._idle.setdefault(key, []).append(session)

    def close(self, grace_ms: int = 1000) -> None:
        """Quit every kept bot (``quit``, then a kill after ``grace_ms`` together)."""
        sessions = [s for idle in self._idle.values() for s in idle]
        self._idle.clear()
        for session in sessions:
            session.send_quit()
        deadline = time.monotonic() + grace_ms / 1000
        for session in sessions:
            session.finish_quit(deadline)

    def __enter__(self) -> SessionPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class KeptSession:
    """A pooled bot as a match sees it: a :class:`BotSession` whose ``quit`` returns it to
    its pool. A kill (a fault, Ctrl-C) is real: the process is gone and never handed out."""

    def __init__(self, pool: SessionPool, key: str, session: BotSession) -> None:
        self._pool = pool
        self._key = key
        self.session = session
        self._released = False

    @property
    def name(self) -> str:
        return self.session.name

    def identity(self) -> dict[str, str | Sequence[str]]:
        return self.session.identity()

    def ping(self, timeout_ms: int | None = None) -> float:
        return self.session.ping(timeout_ms)

    def idle_seconds(self) -> float:
        return self.session.idle_seconds()

    def check_limits(self) -> None:
        self.session.check_limits()

    def take_stray(self) -> int:
        return self.session.take_stray()

    def request(
        self,
        line: str,
        request_id: int,
        time_ms: int,
        margin_ms: int,
        events: Sequence[str] = (),
    ) -> Reply:
        return self.session.request(line, request_id, time_ms, margin_ms, events)

    def send_lines(self, lines: Sequence[str]) -> None:
        self.session.send_lines(lines)

    def send_quit(self) -> None:
        """The match is done with the bot: back to the pool (once), still running."""
        if not self._released:
            self._released = True
            self._pool._release(self._key, self.session)

    def finish_quit(self, deadline: float) -> int | None:
        return None

    def kill(self) -> None:
        self._released = True
        self.session.kill()
