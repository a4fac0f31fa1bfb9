"""What a bot may use: memory, CPU time, processes, stderr — per process, or per bot where a
control group holds all its processes."""

from __future__ import annotations

import dataclasses
from typing import Final

from zole_arena.isolation.cgroups import probe as probe_cgroups
from zole_arena.players.stderrcap import DEFAULT_STDERR_BYTES

__all__ = [
    "DEFAULT_LIMITS",
    "Limits",
    "limits_in_force",
]


@dataclasses.dataclass(frozen=True)
class Limits:
    """Resource limits for a bot; None means no limit.

    Each holds for every process of the bot (``setrlimit``, or for memory a control group of
    the process's own where there is one); in a sandbox with a control group
    (:func:`limits_in_force`), memory, processes and CPU time hold for all of them together:
    all the processes of the bot at one table, whatever their number (a sandboxed duplicate
    match runs one per seating, and shares memory and processes out evenly among them:
    :class:`~zole_arena.players.botgroup.BotGroup`).
    The defaults are the command line's too (``--max-memory-mb`` and the others read them).
    """

    memory_mb: int | None = 2048
    """Memory in MiB: what the bot really uses, never the address space it reserves (a JVM,
    Go and .NET reserve gigabytes they never touch). Held by a control group where the
    machine has them: of the whole bot at the table when sandboxed (every process's ``/tmp``
    included), of each process when not; without groups, ``RLIMIT_DATA`` on each process (its
    private writable memory)."""
    cpu_seconds: int | None = 600
    """CPU time in seconds on top of the time the bot thinks in its turns: in a control group,
    of the whole bot at the table, beyond the wall time its processes have spent deciding so
    far, enforced as it is used (a watchdog kills the bot within 50 ms of passing it:
    :class:`~zole_arena.players.botgroup.BotGroup`); of each process (``RLIMIT_CPU``: past it
    the kernel kills it), beyond all the time its match may give it (:attr:`thinking_s`). So a
    bot that thinks only when asked is never stopped for it, and one that computes meanwhile —
    taking its rivals' CPU — is."""
    thinking_s: int = 0
    """The most time the bot's match may give it to decide, in all, in seconds (a match sets
    it: :meth:`~zole_arena.arena.settings.MatchSettings.thinking_seconds`): the per-process CPU
    limit is :attr:`cpu_seconds` plus this."""
    processes: int | None = 256
    """Processes and threads of the whole bot at once (a control group's ``pids.max``), shared
    out evenly among its seating processes like :attr:`memory_mb` (a JVM uses some 21, within
    a sixth of 256); without a control group it holds per bot process, counted in the bot's
    user namespace."""
    stderr_bytes: int | None = DEFAULT_STDERR_BYTES
    """The most of the bot's stderr kept in its file; the rest is read and dropped."""


def limits_in_force(sandboxed: bool) -> str:
    """One line saying how the limits hold for a bot, for the headers of matches."""
    if not sandboxed:
        return "per process (memory in a control group of each process's own, where there is one)"
    return probe_cgroups().describe()


DEFAULT_LIMITS: Final = Limits()
