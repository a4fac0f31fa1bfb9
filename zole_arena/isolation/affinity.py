"""Pinning the arena and its bots to CPUs (Linux).

A match's processes take turns: the arena writes a request and waits, one bot thinks and
answers, the arena goes on. Each turn wakes a sleeping process, and waking one on another CPU
can cost far more than the whole answer of a fast bot (on a virtual machine, ~50 µs against
~5 µs on the same CPU). Pinning the arena and its three bots to one CPU keeps every wake-up on
that CPU: fast C bots then play about twice as many deals per second (``docs/performance.md``).
Bots that think in several threads, or think while it is not their turn, lose by it.

Processes started after :func:`pin` inherit the pinning, so a caller pins itself before it
starts its bots (a match), or pins a worker process before the worker starts any (a
tournament, one CPU per worker).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator

from zole_arena.errors import ZoleError

__all__ = ["AffinityError", "allowed_cpus", "current_cpus", "pin", "placed"]


class AffinityError(ZoleError):
    """The CPU cannot be used, or this system cannot pin processes."""


def current_cpus() -> set[int] | None:
    """The CPUs this process may run on; None where the system cannot tell (not Linux)."""
    getter: Callable[[int], set[int]] | None = getattr(os, "sched_getaffinity", None)
    return set(getter(0)) if getter is not None else None


def allowed_cpus() -> list[int]:
    """The CPUs this process may run on, in order.

    :raises AffinityError: the system cannot tell (pinning is supported on Linux only).
    """
    cpus = current_cpus()
    if cpus is None:
        raise AffinityError("pinning to a CPU is supported on Linux only")
    return sorted(cpus)


@contextlib.contextmanager
def placed(cpus: set[int] | None) -> Iterator[None]:
    """Run this process (and the processes it starts meanwhile) on ``cpus`` for a while, then
    as before; None: leave it as it is."""
    before = current_cpus()
    if cpus is None or before is None:
        yield
        return
    os.sched_setaffinity(0, cpus)
    try:
        yield
    finally:
        os.sched_setaffinity(0, before)


def pin(cpu: int, pid: int = 0) -> None:
    """Run process ``pid`` (0: this one) on ``cpu`` only; the processes it starts from now on
    inherit that.

    :raises AffinityError: ``cpu`` is not one this process may use, or the system cannot pin.
    """
    allowed = allowed_cpus()
    if cpu not in allowed:
        listed = ",".join(str(c) for c in allowed)
        raise AffinityError(f"CPU {cpu} is not available: this process may use CPUs {listed}")
    setter: Callable[[int, set[int]], None] = os.sched_setaffinity
    try:
        setter(pid, {cpu})
    except ProcessLookupError:
        return  # the process has already ended: nothing to pin
    except OSError as exc:
        raise AffinityError(f"cannot pin to CPU {cpu}: {exc.strerror}") from None
