"""Limits for a whole bot, all its processes together: a control group (Linux cgroups) per bot.

Resource limits (``setrlimit``) hold per process: a bot of eight processes may use eight times
the memory. A control group holds every process its first member starts, whatever they do
(``setsid``, double forks), so its limits are the whole bot's: memory (with swap), the number of
processes and threads, its share of a busy CPU (where the ``cpu`` controller is there: a bot's
hundred processes, each in a session of its own, weigh as one), and the CPU time used, which
the arena watches as it runs (:mod:`zole_arena.players.botgroup`). Killing the group kills every
process in it.

Two layouts exist. **cgroup v2** (one tree, ``/sys/fs/cgroup/cgroup.controllers``): the bot's
group is made under the arena's own group when that one hands the ``memory`` and ``pids``
controllers down to its children (systemd's delegation, or the root group when the arena runs as
root). **cgroup v1** (a tree per controller, ``/sys/fs/cgroup/memory`` …; also the *hybrid*
layout): a group is made in the ``memory``, ``pids`` and ``cpuacct`` trees, under the arena's
own group in each. Where neither can be written (an unprivileged user without delegation), no
group is made and :func:`probe` says why: the bot then has per-process limits only.

The bot joins its group in the child process, before ``exec``, so that nothing of it ever runs
outside (:meth:`BotCgroup.join`).
"""

from __future__ import annotations

import contextlib
import dataclasses
import enum
import errno
import itertools
import os
import signal
import time
from pathlib import Path
from typing import Final

__all__ = ["OFF_VARIABLE", "BotCgroup", "CgroupError", "Layout", "Probe", "probe"]

_ROOT: Final = Path("/sys/fs/cgroup")
#: The folder, under the arena's own group, that holds the bots' groups.
_PARENT_NAME: Final = "zole-arena"
_V1_CONTROLLERS: Final = ("memory", "pids", "cpuacct")
#: Controllers used where they are there: ``cpu`` gives each bot its own share of the CPUs.
_V1_OPTIONAL: Final = ("cpu",)
#: Every bot's CPU weight, the kernel's default (v1 ``cpu.shares``, v2 ``cpu.weight``): what
#: matters is that each bot is one group, weighed as one, however many processes it runs.
_CPU_SHARES: Final = 1024
_CPU_WEIGHT: Final = 100
_counter = itertools.count(1)
#: ``ZOLE_ARENA_CGROUPS=off`` in the arena's environment: make no groups (the limits then hold
#: per process), as on a machine that has none; for a machine whose groups misbehave.
OFF_VARIABLE: Final = "ZOLE_ARENA_CGROUPS"


class CgroupError(OSError):
    """A bot's control group could not be made or set."""


class Layout(enum.Enum):
    """Which cgroup hierarchy the bots' groups live in."""

    V2 = "cgroup v2"
    V1 = "cgroup v1"
    NONE = "none"


@dataclasses.dataclass(frozen=True)
class Probe:
    """What this machine offers for whole-bot limits."""

    layout: Layout
    parents: dict[str, Path]
    """Where bot groups are made, by controller: ``{"": folder}`` for v2, one folder for each
    v1 controller (``memory``, ``pids``, ``cpuacct``, and ``cpu`` where it is there); empty
    with :attr:`Layout.NONE`."""
    reason: str
    """Why there are no groups (empty when there are)."""
    cpu_shares: bool = False
    """Whether each bot's group gets a CPU share of its own (the ``cpu`` controller)."""

    def describe(self) -> str:
        """One line for a match header: which limits hold for the whole bot."""
        if self.layout is Layout.NONE:
            return f"per process, and processes counted in the bot's user namespace ({self.reason})"
        shares = ", a CPU share each" if self.cpu_shares else ""
        return f"whole bot ({self.layout.value}{shares})"


def _own_groups() -> dict[str, str]:
    """The arena's own group in each hierarchy: ``{"": path}`` for v2, controller names for
    v1 (from ``/proc/self/cgroup``)."""
    groups: dict[str, str] = {}
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/cgroup").read_text().splitlines():
            _, controllers, path = line.split(":", 2)
            for name in controllers.split(",") if controllers else [""]:
                groups[name] = path
    return groups


def _writable_parent(base: Path) -> Path:
    """``base/zole-arena``, made if missing.

    :raises OSError: it cannot be made or written.
    """
    parent = base / _PARENT_NAME
    with contextlib.suppress(FileExistsError):
        parent.mkdir()
    if not os.access(parent, os.W_OK):
        raise PermissionError(errno.EACCES, "not writable", str(parent))
    return parent


def _controllers(folder: Path, name: str = "cgroup.controllers") -> set[str]:
    return set((folder / name).read_text().split())


def _enable(folder: Path, wanted: set[str]) -> None:
    """Hand the ``wanted`` controllers down to ``folder``'s children.

    :raises OSError: they cannot be (not delegated; or, but in the root group, the folder
        holds processes: cgroup v2 lets only a group without processes hand them down).
    """
    missing = wanted - _controllers(folder, "cgroup.subtree_control")
    if missing:
        (folder / "cgroup.subtree_control").write_text(" ".join(f"+{c}" for c in missing))


def _probe_v2(own: str) -> tuple[Path, bool]:
    """The folder for the bots' groups in a cgroup v2 tree.

    In the root group (the arena runs as root on a machine or in a container of its own) it
    is ``/sys/fs/cgroup/zole-arena``. Elsewhere the arena's group must have been delegated to
    its user (``systemd-run --user --scope -p Delegate=yes``): the arena then moves itself into
    a leaf of that group, so that the group may hand its controllers down, and makes the bots'
    folder beside the leaf. The ``cpu`` controller is handed down too where it is delegated
    (the second value says whether it is).
    """
    wanted = {"memory", "pids"}
    base = _ROOT / own.lstrip("/")
    if "cpu" in _controllers(base):
        wanted.add("cpu")
    if not wanted <= _controllers(base):
        missing = " ".join(sorted(wanted - _controllers(base)))
        raise PermissionError(errno.EACCES, f"the controllers {missing} are not delegated here")
    if base != _ROOT and not wanted <= _controllers(base, "cgroup.subtree_control"):
        leaf = base / "zole-arena-self"
        with contextlib.suppress(FileExistsError):
            leaf.mkdir()
        (leaf / "cgroup.procs").write_text(str(os.getpid()))
    _enable(base, wanted)
    parent = _writable_parent(base)
    _enable(parent, wanted)
    return parent, "cpu" in wanted


_probed: Probe | None = None


def probe() -> Probe:
    """Find out (once per process) whether bots can get groups of their own, and where."""
    global _probed
    if _probed is not None:
        return _probed
    if os.environ.get(OFF_VARIABLE, "").lower() == "off":
        _probed = Probe(Layout.NONE, {}, f"turned off by {OFF_VARIABLE}=off")
        return _probed
    own = _own_groups()
    try:
        if (_ROOT / "cgroup.controllers").exists():  # pure v2
            parent, cpu = _probe_v2(own.get("", "/"))
            _probed = Probe(Layout.V2, {"": parent}, "", cpu_shares=cpu)
        elif all((_ROOT / name).is_dir() for name in _V1_CONTROLLERS):
            parents = {
                name: _writable_parent(_ROOT / name / own.get(name, "/").lstrip("/"))
                for name in _V1_CONTROLLERS
            }
            for name in _V1_OPTIONAL:
                with contextlib.suppress(OSError):
                    if (_ROOT / name).is_dir():
                        folder = _ROOT / name / own.get(name, "/").lstrip("/")
                        parents[name] = _writable_parent(folder)
            _probed = Probe(Layout.V1, parents, "", cpu_shares="cpu" in parents)
        else:
            _probed = Probe(Layout.NONE, {}, "this system has no memory and pids cgroups")
    except OSError as exc:
        why = exc.strerror or str(exc)
        _probed = Probe(Layout.NONE, {}, f"cgroups cannot be written here: {why}")
    if _probed.layout is not Layout.NONE:
        for parent in _probed.parents.values():
            _remove_stale(parent)
        if _probed.cpu_shares:
            _weigh_parent(_probed)
    return _probed


def _weigh_parent(found: Probe) -> None:
    """Give the folder of all the bots' groups the weight of one busy process per CPU: the
    bots together are not squeezed into one process's share by the machine's other work
    (each of which weighs one share), nor does the folder outweigh the arena's own processes
    by more than the machine has CPUs."""
    cpus = os.cpu_count() or 1
    with contextlib.suppress(OSError):
        if found.layout is Layout.V2:
            (found.parents[""] / "cpu.weight").write_text(str(min(10_000, _CPU_WEIGHT * cpus)))
        else:
            (found.parents["cpu"] / "cpu.shares").write_text(str(_CPU_SHARES * cpus))


def _started(pid: int) -> int | None:
    """When process ``pid`` started (clock ticks since boot; None: there is no such process).

    A pid alone does not name a process for long: pids are reused (after 32,768 of them on
    many machines, which a day of sandboxed matches passes), so a group's name carries both.
    """
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text.rpartition(")")[2].split()
    return int(fields[19]) if len(fields) > 19 and fields[19].isdigit() else None


def _owner_mark() -> str:
    """This process's mark in its groups' names: ``<pid>.<start>`` (see :func:`_started`)."""
    pid = os.getpid()
    return f"{pid}.{_started(pid) or 0}"


def _owner_alive(name: str) -> bool:
    """Whether the arena that made the group ``name`` (``<pid>.<start>-<n>``) is running."""
    owner = name.split("-", 1)[0]
    pid, _, start = owner.partition(".")
    if not pid.isdigit():
        return True  # not ours to remove
    started = _started(int(pid))
    if not start:  # the names of older versions: the pid only
        return started is not None
    return started is not None and start.isdigit() and started == int(start)


def _remove_tree(folder: Path) -> None:
    """Kill what is left in a group and its subgroups, and remove them, deepest first."""
    with contextlib.suppress(OSError):
        for entry in folder.iterdir():
            if entry.is_dir():
                _remove_tree(entry)
        with contextlib.suppress(OSError, ValueError):
            for pid in (folder / "cgroup.procs").read_text().split():
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(int(pid), signal.SIGKILL)
        folder.rmdir()


def _remove_stale(parent: Path) -> None:
    """Remove the groups of arenas that died without removing them (``kill -9``, a worker
    ended by its pool), with their subgroups and whatever runs in them still."""
    with contextlib.suppress(OSError):
        for entry in parent.iterdir():
            if entry.is_dir() and not _owner_alive(entry.name):
                _remove_tree(entry)


class BotCgroup:
    """The control group of one bot: made with its limits, joined by the bot's first process,
    read for CPU time, killed and removed at the end."""

    def __init__(
        self,
        *,
        memory_mb: int | None,
        processes: int | None,
        found: Probe | None = None,
        parent: BotCgroup | None = None,
        memory_only: bool = False,
    ) -> None:
        """Make the group and set its limits (and its CPU weight, where the machine has the
        ``cpu`` controller: one weight for all the bot's processes, so that a bot that runs
        many gets no more of a busy CPU than one that runs one).

        :param parent: make the group inside this one (a part of a bot: its limits hold
            inside the parent's, and the parent's CPU time counts it); it has no CPU weight of
            its own, so that its processes share the parent's.
        :param memory_only: a group for the memory limit alone (an unsandboxed bot's process):
            with cgroup v1 it is made in the ``memory`` tree only, and it gets no CPU weight,
            so that the process is scheduled as any other of the user's.
        :raises CgroupError: the machine has no usable groups, or one cannot be made.
        """
        found = found or probe()
        if found.layout is Layout.NONE:
            raise CgroupError(errno.ENOTSUP, found.reason)
        self.layout = found.layout
        name = f"{_owner_mark()}-{next(_counter)}"
        bases: dict[str, Path] = found.parents if parent is None else parent.dirs
        if memory_only and self.layout is Layout.V1:
            bases = {"memory": bases["memory"]}
        self.dirs: dict[str, Path] = {key: base / name for key, base in bases.items()}
        """The group's folder in each controller's tree (``""`` for v2's one tree)."""
        try:
            if parent is not None and self.layout is Layout.V2:
                wanted = {"memory", "pids"} | ({"cpu"} if found.cpu_shares else set())
                _enable(parent.dirs[""], wanted)  # a parent of no processes may hand them down
            for path in self.paths:
                path.mkdir()
            if memory_mb is not None:
                size = str(memory_mb * 1024 * 1024)
                if self.layout is Layout.V2:
                    self._write("memory.max", size)
                    self._write("memory.swap.max", "0", optional=True)
                else:
                    self._write("memory.limit_in_bytes", size)
                    self._write("memory.memsw.limit_in_bytes", size, optional=True)
            if processes is not None:
                self._write("pids.max", str(processes))
            if found.cpu_shares and parent is None and not memory_only:
                if self.layout is Layout.V2:
                    self._write("cpu.weight", str(_CPU_WEIGHT), optional=True)
                else:
                    self._write("cpu.shares", str(_CPU_SHARES), optional=True)
        except OSError as exc:
            self.remove()
            why = f"cannot set up a bot's cgroup: {exc}"
            raise CgroupError(exc.errno or errno.EIO, why) from None
        self._procs = [str(path / "cgroup.procs") for path in self.paths]

    @property
    def paths(self) -> tuple[Path, ...]:
        """The group's folders, one per tree."""
        return tuple(self.dirs.values())

    def _file(self, name: str) -> Path | None:
        """The group's file ``name`` (``memory.max``), in its controller's tree; None if the
        kernel does not have it."""
        folder = self.dirs.get("" if self.layout is Layout.V2 else name.split(".", 1)[0])
        if folder is None or not (folder / name).exists():
            return None
        return folder / name

    def _write(self, name: str, value: str, optional: bool = False) -> None:
        target = self._file(name)
        if target is None:
            if optional:
                return
            raise CgroupError(errno.ENOENT, f"no {name} in the bot's cgroup")
        try:
            target.write_text(value)
        except OSError:
            if not optional:
                raise

    def join(self) -> None:
        """Move the calling process into the group (run in the child before ``exec``)."""
        for procs in self._procs:
            fd = os.open(procs, os.O_WRONLY)
            try:
                os.write(fd, b"0")
            finally:
                os.close(fd)

    def pids(self) -> list[int]:
        """Every process in the group."""
        found: set[int] = set()
        for path in self.paths:
            with contextlib.suppress(OSError):
                found.update(int(p) for p in (path / "cgroup.procs").read_text().split())
        return sorted(found)

    def cpu_seconds(self) -> float | None:
        """CPU time used by all the bot's processes so far, living and dead."""
        with contextlib.suppress(OSError, ValueError):
            if self.layout is Layout.V2:
                for line in (self.dirs[""] / "cpu.stat").read_text().splitlines():
                    key, _, value = line.partition(" ")
                    if key == "usage_usec":
                        return int(value) / 1e6
            else:
                usage = self._file("cpuacct.usage")
                if usage is not None:
                    return int(usage.read_text()) / 1e9
        return None

    def oom_kills(self) -> int:
        """How often the kernel killed a process of the bot for memory."""
        with contextlib.suppress(OSError, ValueError):
            if self.layout is Layout.V2:
                for line in (self.dirs[""] / "memory.events").read_text().splitlines():
                    key, _, value = line.partition(" ")
                    if key == "oom_kill":
                        return int(value)
            else:
                control = self._file("memory.oom_control")
                if control is not None:
                    for line in control.read_text().splitlines():
                        key, _, value = line.partition(" ")
                        if key == "oom_kill":
                            return int(value)
        return 0

    def kill(self) -> None:
        """Kill every process in the group, including the ones it starts meanwhile."""
        if self.layout is Layout.V2:
            with contextlib.suppress(OSError):
                (self.dirs[""] / "cgroup.kill").write_text("1")
        for _ in range(1000):  # each round kills what the last one missed (a fork bomb)
            pids = self.pids()
            if not pids:
                return
            for pid in pids:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)

    def remove(self) -> None:
        """Kill what is left and remove the group (a group empties as its processes are
        reaped: this waits up to two seconds for that)."""
        deadline = time.monotonic() + 2.0
        for path in self.paths:
            while path.exists():
                try:
                    path.rmdir()
                except OSError as exc:
                    if exc.errno != errno.EBUSY or time.monotonic() > deadline:
                        break
                    self.kill()
                    time.sleep(0.002)  # the killed processes are being reaped
