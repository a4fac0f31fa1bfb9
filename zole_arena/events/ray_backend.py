"""Tournament tables on a Ray cluster: ``tournament --backend ray [--ray-address ADDRESS]``.

The tournament itself does not change: its parent process hands tables to workers and writes
every record they send to the one log, checking each against what the table must send next
(:mod:`zole_arena.events.tournament`). With the Ray backend each worker is this module's
process, ``python -P -m zole_arena.events.ray_backend FD ADDRESS``: a Ray driver that plays
each table it is given as a Ray task somewhere on the cluster and passes the task's messages
on, unchanged, as they come.

The task (:func:`_table_task`) is a *streaming generator*: it plays the table deal by deal
(:func:`~zole_arena.events.workers.table_messages`) and yields each deal's records as the deal
ends, so that the parent logs deals while the table plays, as with local workers. When the
task's worker process or its node dies, the records it yielded are already here; the table
is submitted again with them (as a resumed table: its next deal is played next, elsewhere if
need be), so a lost node costs only its unfinished deals. Ray's own retries are off: a retry
would play the table again from its first deal.

Each Ray worker process keeps the unsandboxed bots it started for the next table it plays
(:class:`~zole_arena.players.pool.SessionPool`), as local workers do; its bots end with it
(every bot is started to die with the process that started it, and reads the end of its
input then). Every node needs zole-arena of the driver's version (a
task on a node with another refuses to play), and the bots' programs at the same paths (a
shared folder, or the same installation): see docs/distributed.md. The arena is not sent
with the tasks (Ray's ``py_modules``): a sandboxed Python bot imports the arena from where
the node has it installed, as on one machine.

Stopping: SIGTERM from the tournament cancels the running task (Ray raises
``KeyboardInterrupt`` in it, which stops a table as Ctrl-C stops a match); its last records
and its end come back, and the worker exits.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from types import FrameType
from typing import Any, Final

from zole_arena import __version__
from zole_arena.arena.stop import Stop, StopReason
from zole_arena.events.messages import (
    MAX_TASK_BYTES,
    LineReader,
    NoMoreTables,
    Ready,
    RecordMessage,
    TableDone,
    TableFailed,
    Task,
    WorkerExit,
    decode_parent_message,
    decode_worker_message,
    encode,
    one_line,
    send,
)
from zole_arena.events.plain import MessageError
from zole_arena.events.schedule import TournamentError
from zole_arena.events.workers import table_messages
from zole_arena.players.pool import SessionPool
from zole_arena.records.model import DealRecord

__all__ = [
    "RAY_MISSING",
    "cluster_problem",
    "main",
    "ray_available",
    "unreachable",
]

#: What to say when Ray is not installed.
RAY_MISSING: Final = (
    "the Ray backend needs Ray: pip install ray (or the arena's 'ray' extra, "
    "pip install '.[ray]' in its folder)"
)

#: Times a table is submitted again after its task was lost (a worker or node that died).
MAX_LOSSES: Final = 3

#: After a stop request, how long the cancelled task may take to send its last records.
_CANCEL_GRACE_S: Final = 10.0

#: How often the worker looks for a stop request while it waits for the next message.
_POLL_S: Final = 0.2

_POOL: SessionPool | None = None
"""The bots kept by this Ray worker process (the remote side)."""


def unreachable(address: str, timeout_s: float = 5.0) -> str | None:
    """Why a cluster's head cannot be reached at ``HOST:PORT`` (its port does not answer),
    or None: it answers, or the address is ``auto`` (Ray finds this machine's cluster).
    Ray itself waits minutes for a head that is not there."""
    if address == "auto":
        return None
    host, _, port = address.rpartition(":")
    if not host or not port.isdigit():
        return f"--ray-address {address!r} is not HOST:PORT"
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout_s):
            return None
    except OSError as exc:
        return (
            f"no Ray cluster answers at {address} ({exc.strerror or exc}); start one with "
            "'ray start --head' (docs/distributed.md)"
        )


#: Connects to a cluster and says how many nodes and CPUs it has (run in a process of its own,
#: so that the tournament's own process never becomes a Ray driver).
_PROBE: Final = (
    "import logging, sys, ray\n"
    "ray.init(address=sys.argv[1], logging_level=logging.ERROR, log_to_driver=False)\n"
    "nodes = [n for n in ray.nodes() if n['Alive']]\n"
    "print(len(nodes), int(sum(n['Resources'].get('CPU', 0) for n in nodes)))\n"
)


def cluster_problem(address: str, timeout_s: float = 40.0) -> tuple[str | None, str]:
    """Connect to the cluster once, as a tournament's workers will: (what is wrong, or None;
    the cluster for people, ``2 nodes, 4 CPUs``)."""
    problem = unreachable(address)
    if problem is not None:
        return problem, ""
    env = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0"}
    try:
        probe = subprocess.run([sys.executable, "-c", _PROBE, address], capture_output=True,
                               text=True, timeout=timeout_s, env=env)  # fmt: skip
    except subprocess.TimeoutExpired:
        return (
            f"no Ray cluster answered at {address} within {timeout_s:.0f} s (is it the head's "
            "port? 'ray status' on the head shows the address)"
        ), ""
    words = probe.stdout.split()
    if probe.returncode == 0 and len(words) == 2 and all(w.isdigit() for w in words):
        nodes, cpus = int(words[0]), int(words[1])
        return None, f"{nodes} node{'s' * (nodes != 1)}, {cpus} CPU{'s' * (cpus != 1)}"
    if address == "auto":
        return (
            "no Ray cluster on this machine: start one with 'ray start --head', or give "
            "--ray-address HOST:PORT"
        ), ""
    errors = [line for line in probe.stderr.splitlines() if "Error" in line or "error" in line]
    why = one_line(errors[-1] if errors else probe.stderr.strip()[-200:], 160)
    return f"cannot connect to a Ray cluster at {address} ({why})", ""


def ray_available() -> bool:
    """Whether Ray can be imported here."""
    try:
        import ray  # noqa: F401
    except ImportError:
        return False
    return True


# -- the remote side ------------------------------------------------------------------------


def _table_task(task_line: bytes, version: str) -> Iterator[bytes]:
    """The Ray task: play one table, yielding each worker message's line as it comes.

    :raises TournamentError: the node's zole-arena is not the driver's ``version``.
    """
    global _POOL
    if version != __version__:
        raise TournamentError(
            f"node {socket.gethostname()} has zole-arena {__version__}, the tournament "
            f"{version}: install the same version on every node"
        )
    task = decode_parent_message(task_line.rstrip(b"\n"))
    if not isinstance(task, Task):
        raise MessageError(f"a {task.KIND} message instead of a table")
    if _POOL is None:
        _POOL = SessionPool()
    for message in table_messages(task, _POOL):
        yield encode(message)


# -- the driver side (the tournament's worker process) --------------------------------------


@dataclasses.dataclass
class _Driver:
    """The tournament's worker on a Ray cluster: it connects, then plays tables as tasks."""

    fd: int
    address: str
    remote: Any = None
    """The table task as Ray knows it (once connected)."""
    stop_asked: bool = False
    sent: list[DealRecord] = dataclasses.field(default_factory=list)
    """The current table's deal records passed on so far (with those it was given)."""
    header_sent: bool = False
    """The current table's match header is passed on (or was in the log)."""

    def connect(self) -> str | None:
        """Connect to the cluster; what went wrong, or None."""
        try:
            import ray
        except ImportError:
            return RAY_MISSING
        problem = unreachable(self.address)
        if problem is not None:
            return problem
        try:
            ray.init(
                address=self.address,
                logging_level=logging.ERROR,
                log_to_driver=False,
                configure_logging=True,
            )
        except Exception as exc:  # ray raises ConnectionError, RuntimeError, ValueError, …
            return (
                f"cannot reach a Ray cluster at {self.address!r} ({one_line(str(exc), 160)}); "
                "start one with 'ray start --head' or give --ray-address"
            )
        self.remote = ray.remote(num_cpus=1, max_retries=0)(_table_task)
        return None

    def play(self, task: Task) -> bool:
        """Play a table on the cluster, passing its messages on; whether to ask for another
        (not after a stop request)."""
        import ray
        from ray.exceptions import RayTaskError, TaskCancelledError

        need = table_memory(task)
        if need is not None:
            nodes: list[dict[str, Any]] = ray.nodes()  # type: ignore[no-untyped-call]
            largest = max((node.get("Resources", {}).get("memory", 0.0) for node in nodes
                           if node.get("Alive")), default=0.0)  # fmt: skip
            if need > largest:
                send(self.fd, TableFailed(task.table, (
                    f"no node of the Ray cluster has the memory for this table's sandboxed "
                    f"bots: {need / 2**30:.1f} GiB (their --max-memory-mb together), "
                    f"{largest / 2**30:.1f} GiB at most; lower --max-memory-mb, or give "
                    "the nodes more ('ray start --memory')")))  # fmt: skip
                return True
        losses = 0
        current = task
        while True:
            options = {} if need is None else {"memory": need}
            generator = self.remote.options(**options).remote(encode(current), __version__)
            try:
                end = self._relay(generator, current)
            except TaskCancelledError:
                send(self.fd, TableDone(task.table, Stop(StopReason.INTERRUPTED)))
                return False
            except RayTaskError as exc:  # our own code failed there: say so, do not retry
                cause = exc.cause if exc.cause is not None else exc
                send(self.fd, TableFailed(task.table, f"on the Ray cluster: {cause}"))
                return True
            except ray.exceptions.RayError as exc:  # the worker or its node died
                why, detail = type(exc).__name__, one_line(str(exc), 200)
            else:
                if isinstance(end, TableDone):
                    return end.stopped is None or not end.stopped.interrupted
                if end is not None:  # TableFailed
                    return True
                why = detail = "it ended without its end"
            losses += 1
            if losses > MAX_LOSSES:
                send(self.fd, TableFailed(task.table, f"its Ray task was lost {losses} times "
                                          f"({detail})"))  # fmt: skip
                return True
            current = self._resumed(current)
            _say(
                f"table {task.table}: its Ray task was lost ({why}); it goes on from deal "
                f"{len(current.records) + 1} in a new task"
            )

    def _relay(self, generator: Any, task: Task) -> TableDone | TableFailed | None:
        """Pass the task's messages on as they come; its end message, or None if it ended
        without one. Records are also kept on the task given (to submit it again with them).

        :raises ray.exceptions.RayError: the task failed, was lost or was cancelled.
        """
        import ray

        self.sent = list(task.records)
        self.header_sent = task.started
        cancelled_at: float | None = None
        while True:
            if self.stop_asked and cancelled_at is None:
                ray.cancel(generator)
                cancelled_at = time.monotonic()
            if cancelled_at is not None and time.monotonic() - cancelled_at > _CANCEL_GRACE_S:
                from ray.exceptions import TaskCancelledError

                raise TaskCancelledError(None)
            ready, _ = ray.wait([generator], timeout=_POLL_S)
            if not ready:
                continue
            try:
                reference = next(generator)
            except StopIteration:
                return None
            line: bytes = ray.get(reference)
            message = decode_worker_message(line.rstrip(b"\n"))
            send(self.fd, message)
            if isinstance(message, RecordMessage):
                if isinstance(message.record, DealRecord):
                    self.sent.append(message.record)
                else:
                    self.header_sent = True
            elif isinstance(message, TableDone | TableFailed):
                return message

    def _resumed(self, task: Task) -> Task:
        """The task again, from the records already passed on."""
        return dataclasses.replace(task, started=self.header_sent, records=tuple(self.sent))


def table_memory(task: Task) -> int | None:
    """The memory a table's sandboxed bots may use together, in bytes, which its Ray task
    asks the scheduler for: tables then go only where the node has it, so that no bot can
    push a node past the memory at which Ray kills a task (its table would be played again
    from the deal under way: a bot would choose which deals to play twice). None: a bot is
    unsandboxed or has no memory limit (its memory is not the whole bot's)."""
    if task.settings.sandbox is None:
        return None
    total = 0
    for config in task.configs:
        if config.limits.memory_mb is None:
            return None
        total += config.limits.memory_mb * 2**20
    return total


def _say(text: str) -> None:
    """A line for the person running the tournament (the worker's stderr is the arena's)."""
    print(f"zole-arena: {text}", file=sys.stderr, flush=True)


def serve(fd: int, address: str) -> None:
    """The worker's life: connect, then ask for tables and play them until told there are
    no more (see :mod:`zole_arena.events.workers` for the local worker's)."""
    driver = _Driver(fd, address)

    def stop(signum: int, frame: FrameType | None) -> None:
        driver.stop_asked = True

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, stop)
    reader = LineReader(fd, MAX_TASK_BYTES)
    problem = driver.connect()
    signal.signal(signal.SIGTERM, stop)  # Ray's own handler (set on connecting) would exit
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        while not driver.stop_asked:
            send(fd, Ready())
            line = reader.next_line()
            if line is None:
                break
            task = decode_parent_message(line)
            if isinstance(task, NoMoreTables):
                break
            if problem is not None:
                send(fd, TableFailed(task.table, problem))
                break
            if not driver.play(task):
                break
    except (BrokenPipeError, ConnectionResetError):
        pass
    finally:
        with contextlib.suppress(OSError):
            send(fd, WorkerExit())
        os.close(fd)
        if problem is None:
            import ray

            with contextlib.suppress(Exception):
                ray.shutdown()


def main(argv: list[str]) -> int:
    """``python -m zole_arena.events.ray_backend FD ADDRESS`` (started by a tournament)."""
    if len(argv) != 2 or not argv[0].isdigit():
        print("usage: python -m zole_arena.events.ray_backend FD ADDRESS (started by a "
              "tournament)", file=sys.stderr)  # fmt: skip
        return 2
    fd = int(argv[0])
    try:
        os.set_inheritable(fd, False)
    except OSError:
        print("zole-arena ray worker: no socket on that descriptor", file=sys.stderr)
        return 2
    try:
        serve(fd, argv[1])
    except MessageError as exc:
        print(f"zole-arena ray worker: the tournament sent {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
