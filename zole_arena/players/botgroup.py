"""One bot's processes at a table, under one set of limits, with its CPU time watched as it runs.

A sandboxed duplicate match starts a process of each bot for each seating (no process may meet
the same cards twice), so a bot may have six processes alive at once, and more while one is
restarted. Limits set per process would hold six times over: a :class:`BotGroup` is one
control group (:class:`~zole_arena.isolation.cgroups.BotCgroup`) for the whole bot at the
table, with its CPU share and CPU time, and inside it a group for each of its processes at
once (:class:`SlotGroup`, one per seating slot), which the process joins.

The whole bot's memory and its processes and threads are **shared out evenly** among its
slots: in a duplicate match each seating's process may use a sixth of ``--max-memory-mb``. A
limit the slots shared would be a counter one slot fills and another reads (a process that
holds 40 threads tells a later seating a number, exactly, by how many threads it can still
make): the slots' limits add up to the bot's, so the bot's own limit is never the one that
binds, and no slot learns anything of another. The CPU is shared, as a share of a busy CPU
(one weight for the whole bot) and as an allowance of CPU time. Tables played at once are
separate matches: each has groups of its own, so a bot at two tables at once has two sets of
limits (and two shares).

The CPU allowance (:attr:`~zole_arena.players.limits.Limits.cpu_seconds`) is CPU time on top of
the wall time the bot has spent deciding (in all its processes). A watchdog thread reads every
group's CPU time each :data:`WATCH_SECONDS` and kills a group past its allowance at once, with
all its processes: a bot that computes while its rivals think is stopped when it passes its
allowance, not at the end of the deal. The time of the decision under way counts as spent
deciding up to the moment it is read.
"""

from __future__ import annotations

import contextlib
import threading
import time
import weakref
from typing import Final

from zole_arena.errors import BotCrashedError
from zole_arena.isolation.cgroups import BotCgroup, CgroupError, Layout
from zole_arena.isolation.cgroups import probe as probe_cgroups
from zole_arena.players.limits import Limits

__all__ = ["WATCH_SECONDS", "BotGroup", "SlotGroup"]

#: How often the watchdog reads the groups' CPU time (seconds): a bot past its allowance is
#: stopped within this much of passing it (a read of one small file per bot each time).
WATCH_SECONDS: Final = 0.05


class BotGroup:
    """The control group of one bot at one table, the groups of its processes inside it, and
    the time they have spent deciding.

    :raises CgroupError: the machine has groups but this one cannot be made.
    """

    def __init__(self, limits: Limits, slots: int = 1) -> None:
        """:param slots: how many processes of the bot may be alive at once (six in a
        sandboxed duplicate match, one per seating): its memory and process limits are
        shared out among them."""
        self.limits = limits
        self.slots = max(1, slots)
        self.cgroup: BotCgroup | None = None
        """None where the machine has no control groups (limits then hold per process)."""
        if probe_cgroups().layout is not Layout.NONE:
            self.cgroup = BotCgroup(memory_mb=limits.memory_mb, processes=limits.processes)
        self._slots: dict[int, SlotGroup] = {}
        self.thought_s = 0.0
        """Wall time spent deciding by all the bot's processes, decisions under way excepted."""
        self._deciding_since: float | None = None
        self.limit_hit: str | None = None
        """Why the group was killed for its CPU allowance, once it has been."""
        self._lock = threading.Lock()
        if self.cgroup is not None and limits.cpu_seconds is not None:
            _WATCHDOG.watch(self)

    def slot(self, index: int) -> SlotGroup:
        """The group of the bot's process in slot ``index`` (made when first asked for, and
        joined again by a process restarted in the same slot).

        :raises CgroupError: it cannot be made.
        """
        if index not in self._slots:
            part = None
            memory, processes = self.limits.memory_mb, self.limits.processes
            memory_mb = None if memory is None else max(1, memory // self.slots)
            if self.cgroup is not None:
                part = BotCgroup(
                    memory_mb=memory_mb,
                    processes=None if processes is None else max(1, processes // self.slots),
                    parent=self.cgroup,
                )
            self._slots[index] = SlotGroup(self, part, memory_mb)
        return self._slots[index]

    # -- the time it decides -----------------------------------------------------------------

    def deciding(self) -> None:
        """A process of the bot was asked to decide: its wall time counts from now."""
        self._deciding_since = time.monotonic()

    def decided(self) -> None:
        """The decision under way is over (answered, timed out or failed)."""
        since, self._deciding_since = self._deciding_since, None
        if since is not None:
            self.thought_s += time.monotonic() - since

    def thought_now(self) -> float:
        """Wall time spent deciding so far, the decision under way included."""
        since = self._deciding_since
        return self.thought_s + (time.monotonic() - since if since is not None else 0.0)

    # -- limits ------------------------------------------------------------------------------

    def over_allowance(self) -> str | None:
        """Why the bot is past its CPU allowance now (None: it is not, or nothing tells)."""
        limit = self.limits.cpu_seconds
        if self.cgroup is None or limit is None:
            return None
        thought = self.thought_now()
        used = self.cgroup.cpu_seconds()
        if used is None or used <= limit + thought:
            return None
        return (
            f"the bot's processes used {used:.1f} s of CPU time, over its allowance of "
            f"{limit} s beyond the {thought:.1f} s it spent deciding"
        )

    def enforce(self) -> None:
        """Kill every process of the bot if it is past its CPU allowance (the watchdog's
        check, also made between deals).

        :raises BotCrashedError: it is past it (now or earlier).
        """
        with self._lock:
            if self.limit_hit is None:
                self.limit_hit = self.over_allowance()
                if self.limit_hit is not None:
                    self.kill()
        if self.limit_hit is not None:
            raise BotCrashedError(f"killed: {self.limit_hit}")

    def kill(self) -> None:
        """Kill every process of the bot, in every slot."""
        for part in self._slots.values():
            if part.cgroup is not None:
                part.cgroup.kill()
        if self.cgroup is not None:
            self.cgroup.kill()

    def close(self) -> None:
        """Kill whatever is left of the bot and remove its groups. Safe to call twice."""
        _WATCHDOG.forget(self)
        self.kill()
        for part in self._slots.values():
            if part.cgroup is not None:
                part.cgroup.remove()
                part.cgroup = None
        if self.cgroup is not None:
            self.cgroup.remove()
            self.cgroup = None


class SlotGroup:
    """What one process of a bot joins: its slot's control group, inside the bot's; it answers
    for the whole bot's CPU allowance and decision time."""

    def __init__(self, bot: BotGroup, cgroup: BotCgroup | None, memory_mb: int | None) -> None:
        self.bot = bot
        self.cgroup = cgroup
        """The slot's group (None without control groups)."""
        self.memory_mb = memory_mb
        """The slot's share of the bot's memory limit, in MiB."""

    def describe_memory(self) -> str:
        """The slot's memory limit, for a message about running out of it."""
        whole = self.bot.limits.memory_mb
        if self.bot.slots == 1:
            return f"over the whole bot's limit of {whole} MiB"
        return (
            f"over its process's share of the bot's limit, {self.memory_mb} of {whole} MiB "
            f"(the bot's {self.bot.slots} processes at the table share it evenly)"
        )

    @property
    def limit_hit(self) -> str | None:
        """Why the whole bot was killed for its CPU allowance, if it was."""
        return self.bot.limit_hit

    def deciding(self) -> None:
        """:meth:`BotGroup.deciding`."""
        self.bot.deciding()

    def decided(self) -> None:
        """:meth:`BotGroup.decided`."""
        self.bot.decided()

    def enforce(self) -> None:
        """:meth:`BotGroup.enforce`."""
        self.bot.enforce()

    def oom_kills(self) -> int:
        """How often the kernel has killed a process of this slot for memory."""
        return self.cgroup.oom_kills() if self.cgroup is not None else 0


class _Watchdog:
    """One thread per arena process that enforces every group's CPU allowance while it runs."""

    def __init__(self) -> None:
        self._groups: weakref.WeakSet[BotGroup] = weakref.WeakSet()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    def watch(self, group: BotGroup) -> None:
        with self._lock:
            self._groups.add(group)
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(
                    target=self._run, name="zole-arena cpu watchdog", daemon=True
                )
                self._thread.start()

    def forget(self, group: BotGroup) -> None:
        with self._lock:
            self._groups.discard(group)

    def _run(self) -> None:
        while True:
            time.sleep(WATCH_SECONDS)  # a period, not a synchronisation
            with self._lock:
                groups = list(self._groups)
                if not groups:
                    self._thread = None
                    return
            for group in groups:
                with contextlib.suppress(BotCrashedError, OSError, CgroupError):
                    group.enforce()


_WATCHDOG: Final = _Watchdog()
