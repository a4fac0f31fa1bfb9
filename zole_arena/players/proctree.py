"""A bot's processes as a tree: set up in the child before exec, found through /proc, and
killed to the last descendant — including orphans handed to the arena as subreaper."""

from __future__ import annotations

import contextlib
import ctypes
import os
import resource
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Final

from zole_arena.isolation.cgroups import BotCgroup
from zole_arena.players.limits import Limits

__all__ = [
    "become_subreaper",
    "children_of",
    "register_child",
]


_PR_SET_PDEATHSIG: Final = 1


_PR_SET_CHILD_SUBREAPER: Final = 36


_subreaper_done = False


def become_subreaper() -> None:
    """Ask Linux to hand this process the orphans of its descendants (a bot's, a browser's), so
    that it can reap them; once."""
    global _subreaper_done
    if _subreaper_done:
        return
    _subreaper_done = True
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)


_libc: ctypes.CDLL | None = None


def _prctl() -> Callable[..., int] | None:
    global _libc
    if _libc is None:
        with contextlib.suppress(OSError):
            _libc = ctypes.CDLL(None, use_errno=True)
    return getattr(_libc, "prctl", None) if _libc is not None else None


_HELD_SIGNALS: Final = {signal.SIGINT, signal.SIGTERM}


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """Hold Ctrl-C and SIGTERM (in the main thread) while the block runs; they are delivered
    after it."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _child_setup(limits: Limits, cgroup: BotCgroup | None, parent: int) -> None:
    """Runs in the bot's process between ``fork`` and ``exec``: join the bot's control group,
    die with the arena, set the per-process limits.

    Memory is limited by the control group where there is one (it counts the pages the bot's
    processes really use); without one, by ``RLIMIT_DATA`` on each process: the private
    writable memory it has mapped, which a runtime's reservations of address space (a JVM's
    heap and class space, Go's and .NET's arenas, all mapped without access until used) do
    not count in. ``RLIMIT_AS`` would count them, and stops a JVM with default flags before
    it runs a line."""
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD_SIGNALS)  # held by the arena meanwhile
    if cgroup is not None:
        cgroup.join()
    prctl = _prctl()
    if prctl is not None:
        # The parent-death signal: when the arena (the thread that started the bot) dies,
        # even of kill -9, the kernel kills the bot.
        prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != parent:  # the arena died before the signal was set
            os._exit(1)
    if limits.memory_mb is not None and cgroup is None:
        size = limits.memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_DATA, (size, size))
    if limits.cpu_seconds is not None:
        cpu = limits.cpu_seconds + limits.thinking_s
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 5))


#: The children this process started on purpose (bots, a tournament's workers): any other
#: child is an orphan of a bot's, handed to us as the subreaper.
_OWN_CHILDREN: set[int] = set()


#: Held while a bot is started and its pid registered, and while orphans are looked for: a
#: bot being started in another thread is never taken for an orphan.
_CHILDREN_LOCK: Final = threading.Lock()


def register_child(pid: int) -> None:
    """Tell the bot handling that ``pid``, a child this process started in a session of its
    own, is not a bot's orphan to kill (children in this process's session never are)."""
    _OWN_CHILDREN.add(pid)


_HAS_CHILDREN_FILES: Final = os.path.exists(f"/proc/self/task/{os.getpid()}/children")


def _children_by_scan(pid: int) -> list[int]:
    """The children of ``pid`` from every process's ``stat`` (kernels without the
    ``children`` files)."""
    found: list[int] = []
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            with contextlib.suppress(OSError, ValueError, IndexError):
                with open(f"/proc/{entry.name}/stat", "rb") as handle:
                    fields = handle.read().rsplit(b")", 1)[1].split()
                if int(fields[1]) == pid:
                    found.append(int(entry.name))
    return found


def children_of(pid: int) -> list[int]:
    """The children of process ``pid`` (every thread's), from /proc."""
    if not _HAS_CHILDREN_FILES:
        return _children_by_scan(pid)
    found: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for tid in tasks:
        with (
            contextlib.suppress(OSError, ValueError),
            open(f"/proc/{pid}/task/{tid}/children", "rb") as handle,
        ):
            found.extend(int(word) for word in handle.read().split())
    return found


def _descendants(pid: int) -> list[int]:
    """Every process below ``pid``, children first."""
    found: list[int] = []
    todo = children_of(pid)
    while todo:
        child = todo.pop()
        if child not in found:
            found.append(child)
            todo.extend(children_of(child))
    return found


def _signal_all(pids: Sequence[int], signum: int) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signum)


def _kill_tree(pid: int) -> None:
    """Kill ``pid`` and every process below it, whatever group or session they moved to:
    stop them all first (a stopped process cannot fork), until no new one turns up."""
    stopped: list[int] = []
    for _ in range(100):
        fresh = [p for p in [pid, *_descendants(pid)] if p not in stopped]
        if not fresh:
            break
        _signal_all(fresh, signal.SIGSTOP)
        stopped += fresh
    _signal_all(stopped, signal.SIGKILL)


def _session(pid: int) -> int | None:
    try:
        return os.getsid(pid)
    except OSError:
        return None


def _reap_orphans() -> None:
    """Kill and reap the orphans of bots: processes whose parents died (a double fork),
    handed to this subreaper.

    An orphan is a child of this process in another session than this process's, that it did
    not start as a bot (:func:`register_child`): every bot starts in a session of its own, and
    no process can join another session, so whatever a bot starts stays out of the arena's
    session — while the children a program embedding the arena starts itself stay in it."""
    me, mine = os.getpid(), _session(0)
    for _ in range(100):
        with _CHILDREN_LOCK:
            orphans = [
                p
                for p in children_of(me)
                if p not in _OWN_CHILDREN and _session(p) not in (mine, None)
            ]
        if not orphans:
            return
        for orphan in orphans:
            _kill_tree(orphan)
        for orphan in orphans:
            with contextlib.suppress(ChildProcessError):
                os.waitpid(orphan, 0)
