"""Bot processes: start, line I/O with deadlines, resource limits, and a kill that leaves nothing.

A bot is an untrusted program. :class:`BotProcess` starts it from an argument list (never
through a shell) in a new session; limits its memory (in a control group of its own where the
machine has them, else each process's private writable memory) and CPU time; gives
it a parent-death signal, so that it dies with the arena even after ``kill -9``; copies its
stderr to a file of its own, up to a size limit (:mod:`zole_arena.players.stderrcap`); reads its
stdout line by line with a deadline (``poll`` on the pipe); and on :meth:`~BotProcess.close` or
:meth:`~BotProcess.kill` kills every process it started and reaps them.

With a :class:`~zole_arena.isolation.sandbox.Sandbox` the bot runs under bubblewrap in namespaces
of its
own, inside a control group (:mod:`zole_arena.isolation.cgroups`) where the machine allows one, so
that its memory, process count and CPU time are limited for all its processes together, and stopping
it kills the namespace and the group: nothing it started survives.

Unsandboxed, "every process it started" is found from the process table: the bot's process
group, its descendants whatever group or session they moved to (frozen with ``SIGSTOP`` while
they are found, so that none can fork away meanwhile), and the *orphans* handed to the arena: on
Linux the arena makes itself a child subreaper, so that a process whose parent died (a double
fork) becomes the arena's child instead of init's; a child of the arena that the arena did not
start as a bot, in another session than the arena's (every bot starts a session of its own,
and no process can join another session), is such an orphan and is killed when any bot is
stopped.

This module knows nothing of the protocol's messages: see :mod:`zole_arena.players.session`.
"""

from __future__ import annotations

import contextlib
import logging
import os
import select
import signal
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Final

from zole_arena.errors import (
    BotCrashedError,
    BotFloodError,
    BotStallError,
    BotStartupError,
    BotTimeoutError,
)
from zole_arena.isolation.affinity import current_cpus
from zole_arena.isolation.cgroups import BotCgroup, CgroupError, Layout
from zole_arena.isolation.cgroups import probe as probe_cgroups
from zole_arena.isolation.environment import bot_environment
from zole_arena.isolation.sandbox import Sandbox, SandboxUnavailable, bwrap_argv, check_available
from zole_arena.isolation.seccomp import filter_fd
from zole_arena.players.botgroup import BotGroup, SlotGroup
from zole_arena.players.command import (
    _check_program,
    _no_such_program,
    _not_executable,
    split_command,
)
from zole_arena.players.limits import DEFAULT_LIMITS, Limits
from zole_arena.players.proctree import (
    _CHILDREN_LOCK,
    _OWN_CHILDREN,
    _child_setup,
    _kill_tree,
    _reap_orphans,
    _signals_held,
    become_subreaper,
)
from zole_arena.players.stderrcap import StderrCopy

__all__ = [
    "BotProcess",
    "LOGGER",
    "MAX_LINE_BYTES",
    "SPIN_SECONDS",
]


LOGGER = logging.getLogger(__name__)


#: The longest line accepted from a bot, in bytes (without the line end).
MAX_LINE_BYTES: Final = 64 * 1024


_READ_SIZE: Final = 65536


#: While waiting for a line, how often to look whether the bot's process has exited (ms).
_EXIT_CHECK_MS: Final = 100.0


#: How long a read keeps looking for a bot's answer, yielding the CPU between looks, before
#: it sleeps in ``poll`` (seconds). On a virtual machine, waking a sleeping process on another
#: CPU can take 50 µs, several times a fast bot's whole answer: staying awake that long saves
#: the arena its own wake-up. 150 µs covers the wake-up of a bot written in Python and its
#: answer (matches of the bundled Python bots: ~200 deals/s with 50 µs, ~270 with 150; the C
#: bots gain nothing more). The look is bounded, so a slow bot costs the arena at most this
#: much CPU per decision (0.15% of a 100 ms move), and each try yields first, so a bot waiting
#: for the arena's CPU gets it at once. An arena pinned to one CPU does not look at all
#: (:func:`_spin_seconds`): its bot cannot answer until the arena sleeps.
SPIN_SECONDS: Final = 150e-6


def _spin_seconds() -> float:
    """:data:`SPIN_SECONDS`, or 0 when this process may run on one CPU only."""
    cpus = current_cpus()
    return 0.0 if cpus is not None and len(cpus) == 1 else SPIN_SECONDS


def _memory_group(memory_mb: int) -> BotCgroup | None:
    """A control group holding an unsandboxed bot's memory to ``memory_mb`` MiB; None where
    the machine has none (the bot then gets ``RLIMIT_DATA``: :func:`_child_setup`)."""
    if probe_cgroups().layout is Layout.NONE:
        return None
    try:
        return BotCgroup(memory_mb=memory_mb, processes=None, memory_only=True)
    except CgroupError as exc:
        LOGGER.debug("no memory group for an unsandboxed bot: %s", exc)
        return None


def _says_memory(text: str) -> bool:
    """Whether a bot's last words speak of running out of memory (a runtime's own message
    when ``RLIMIT_DATA`` refused it more)."""
    lowered = text.lower()
    return any(word in lowered for word in ("memory", "alloc", "enomem"))


class BotProcess:
    """One running bot program with line I/O on its stdin and stdout."""

    def __init__(
        self,
        command: str | Sequence[str],
        *,
        cwd: str | os.PathLike[str] | None = None,
        env: Mapping[str, str] | None = None,
        stderr_path: str | os.PathLike[str] | None = None,
        limits: Limits = DEFAULT_LIMITS,
        sandbox: Sandbox | None = None,
        group: SlotGroup | None = None,
        on_stderr: Callable[[list[str]], None] | None = None,
    ) -> None:
        """Start the program.

        :param env: variables to add to the environment every bot gets, sandboxed or not
            (:func:`~zole_arena.isolation.environment.bot_environment`).
        :param stderr_path: the file that receives the bot's stderr (appended, up to
            ``limits.stderr_bytes``); None keeps only its last lines, for messages.
        :param sandbox: run the bot in this sandbox; None: as an ordinary process.
        :param group: this process's part of its bot's group (:class:`SlotGroup`: its share of
            the bot's limits at the table, which its other processes share the rest of);
            None: a sandboxed bot gets a group of its own. Unsandboxed bots have none.
        :param on_stderr: called with the lines the bot writes on its stderr, as they come
            (from the stderr reader's thread: a transcript's).
        :raises BotStartupError: the program does not exist or cannot be run, or the sandbox
            cannot be built.
        """
        self.argv = split_command(command)
        self.sandbox = sandbox
        self._spin = _spin_seconds()  # as placed when the bot starts (``match --cpu``: 0)
        self._buffer = bytearray()
        self._eof = False
        self._skipping = False
        self.returncode: int | None = None
        self.group: SlotGroup | None = None
        """The control group of the whole bot, and its CPU allowance (sandboxed bots)."""
        self._owns_group = False
        self._oom_before = 0
        self._memory: BotCgroup | None = None
        """An unsandboxed bot's memory group (where the machine has control groups)."""
        self.stderr_path: str | None = str(stderr_path) if stderr_path is not None else None
        become_subreaper()
        where = os.fspath(cwd) if cwd is not None else os.getcwd()
        argv = self.argv
        run_env = bot_environment(env, sandboxed=False, memory_mb=limits.memory_mb)
        run_env.setdefault("PWD", where)  # as a sandbox sets it
        if sandbox is not None:
            _check_program(self.argv[0], where, run_env)  # bubblewrap's own words say less
            grouped = probe_cgroups().layout is not Layout.NONE
            argv = bwrap_argv(check_available(), self.argv, cwd=where, sandbox=sandbox,
                              env=env or {},
                              processes=None if grouped else limits.processes,
                              memory_mb=limits.memory_mb if group is None
                              else group.memory_mb)  # fmt: skip
            run_env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin")}  # bubblewrap's own
            if group is not None and group.limit_hit is not None:
                raise BotStartupError(f"killed: {group.limit_hit}")
            if group is None:
                try:
                    group, self._owns_group = BotGroup(limits).slot(0), True
                except CgroupError as exc:
                    raise BotStartupError(f"cannot limit the sandboxed bot: {exc}") from None
            self.group = group
            self._oom_before = group.oom_kills()
        if sandbox is None and limits.memory_mb is not None:
            self._memory = _memory_group(limits.memory_mb)
            self._oom_before = self._memory.oom_kills() if self._memory is not None else 0
        read_end, write_end = os.pipe()
        try:
            if self.stderr_path is not None:
                Path(self.stderr_path).parent.mkdir(parents=True, exist_ok=True)
            self._stderr = StderrCopy(read_end, self.stderr_path, limits.stderr_bytes, on_stderr)
        except OSError as exc:
            os.close(read_end)
            os.close(write_end)
            self._drop_cgroup()
            raise BotStartupError(
                f"cannot write the bot's stderr file {stderr_path}: {exc.strerror or exc}"
            ) from None
        cgroup, parent = self._grouped_memory(), os.getpid()
        keep: tuple[int, ...] = ()
        if sandbox is not None:  # the system-call filter, read by bubblewrap at its start
            try:
                keep = (filter_fd(),)
            except SandboxUnavailable:
                self._abandon()
                raise
            argv = [argv[0], "--seccomp", str(keep[0]), *argv[1:]]
        try:
            # Ctrl-C or a stop request (SIGTERM) waits until the bot is started and
            # registered: raised inside the fork's hooks it would be lost, half reported.
            with _CHILDREN_LOCK, _signals_held():
                self._popen = subprocess.Popen(
                    argv,
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=write_end,
                    cwd=cwd if sandbox is None else None,
                    env=run_env,
                    start_new_session=True,
                    preexec_fn=lambda: _child_setup(limits, cgroup, parent),
                    bufsize=0,
                    close_fds=True,
                    pass_fds=keep,
                )
                _OWN_CHILDREN.add(self._popen.pid)
        except FileNotFoundError:
            self._abandon()
            raise _no_such_program(self.argv[0], cwd) from None
        except PermissionError:
            self._abandon()
            raise _not_executable(self.argv[0]) from None
        except (OSError, subprocess.SubprocessError) as exc:
            self._abandon()
            raise BotStartupError(f"cannot start bot {self.argv[0]!r}: {exc}") from None
        finally:
            os.close(write_end)  # the child has its own copies
            for fd in keep:
                os.close(fd)
        self.pid = self._popen.pid
        self.pgid = self.pid  # a new session: the bot leads its own process group
        assert self._popen.stdin is not None and self._popen.stdout is not None
        self._stdin = self._popen.stdin
        self._stdin_fd = self._stdin.fileno()
        self._stdout_fd = self._popen.stdout.fileno()
        os.set_blocking(self._stdin_fd, False)
        os.set_blocking(self._stdout_fd, False)
        self._poll = select.poll()
        self._poll.register(self._stdout_fd, select.POLLIN)
        self._limits = limits
        LOGGER.debug("started bot %s (pid %d)", self.argv, self.pid)

    def _abandon(self) -> None:
        """Undo a start that failed: the stderr copy and the control group."""
        self._stderr.close()
        self._drop_cgroup()

    def _drop_cgroup(self) -> None:
        if self.group is not None and self._owns_group:
            self.group.bot.close()
        if self._memory is not None:
            self._memory.remove()

    # -- writing --------------------------------------------------------------------------

    def send(self, line: str, timeout: float = 5.0) -> None:
        """Write one line to the bot.

        A bot that does not read its input fills the pipe; the arena then waits up to
        ``timeout`` seconds for room rather than blocking for ever.

        :raises BotCrashedError: the bot has closed its input (it exited).
        :raises BotStallError: the bot has not read its input for ``timeout`` seconds.
        """
        data = (line + "\n").encode("ascii", "replace")
        try:
            written = os.write(self._stdin_fd, data)
        except BlockingIOError:
            written = 0
        except (BrokenPipeError, OSError, ValueError):
            raise BotCrashedError(f"the bot has exited{self._exit_text()}") from None
        if written < len(data):  # the pipe is full: wait for room for the rest
            self._send_rest(memoryview(data)[written:], timeout)

    def _send_rest(self, data: memoryview, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while data:
            try:
                written = os.write(self._stdin_fd, data)
            except BlockingIOError:
                remaining = deadline - time.monotonic()
                if remaining <= 0 or not select.select([], [self._stdin_fd], [], remaining)[1]:
                    raise BotStallError("the bot does not read its input") from None
                continue
            except (BrokenPipeError, OSError, ValueError):
                raise BotCrashedError(f"the bot has exited{self._exit_text()}") from None
            data = data[written:]

    # -- reading --------------------------------------------------------------------------

    def exchange(self, line: str, deadline: float) -> str:
        """:meth:`send` ``line``, then :meth:`read_line` until ``deadline``.

        One call for a request and its answer, a match's hottest path: when nothing is left
        over from earlier reads and the answer is already whole in the pipe (on one CPU the
        woken bot usually answers before the write returns), it costs one write and one read.

        :raises: what :meth:`send` and :meth:`read_line` raise.
        """
        self.send(line)
        if self._buffer or self._skipping or self._eof:
            return self.read_line(deadline)
        try:
            chunk = os.read(self._stdout_fd, _READ_SIZE)
        except BlockingIOError:  # not yet: wait for it as usual
            return self.read_line(deadline)
        end = chunk.find(b"\n")
        if end == len(chunk) - 1 and end <= MAX_LINE_BYTES:  # exactly one whole line
            return chunk[:end].decode("ascii", "replace").rstrip("\r")
        if chunk:
            self._buffer += chunk
        else:
            self._eof = True
        return self.read_line(deadline)

    def read_line(self, deadline: float) -> str:
        """The next line from the bot (without the line end), waiting until ``deadline``
        (a :func:`time.monotonic` value).

        :raises BotTimeoutError: no full line by the deadline.
        :raises BotCrashedError: the bot closed its output (exited) first.
        :raises BotFloodError: a line longer than :data:`MAX_LINE_BYTES`.
        """
        buffer = self._buffer
        while True:
            end = buffer.find(b"\n")
            if end >= 0:
                raw = bytes(buffer[:end])
                del buffer[: end + 1]
                if self._skipping:  # the rest of an over-long line
                    self._skipping = False
                    continue
                if len(raw) > MAX_LINE_BYTES:
                    raise BotFloodError(
                        f"the bot sent a line of {len(raw):,} bytes",
                        line=raw[:80].decode("ascii", "replace") + "…",
                    )
                return raw.decode("ascii", "replace").rstrip("\r")
            if len(buffer) > MAX_LINE_BYTES:
                start = bytes(buffer[:80]).decode("ascii", "replace") + "…"
                skipping = self._skipping
                buffer.clear()  # drop it, and the rest of it when it comes
                self._skipping = True
                if not skipping:
                    raise BotFloodError(
                        f"the bot sent a line of over {MAX_LINE_BYTES:,} bytes", line=start
                    )
            if self._eof:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    self._popen.wait(0.5)  # closing its output is usually exiting: say how
                raise BotCrashedError(f"the bot closed its output{self._exit_text()}")
            self._fill(deadline)

    def _fill(self, deadline: float) -> None:
        """Read what the bot has written, waiting for it until the deadline.

        What is already there is read at once: a fast bot has often answered by the time the
        request's write returns (on one CPU, the woken bot runs before the arena does).
        Otherwise the arena looks again for up to :data:`SPIN_SECONDS` (not at all when it may
        use one CPU only), yielding its CPU between looks, and only then sleeps in ``poll``.
        The sleep is cut into slices so that a bot that exits while a child of it still holds
        its output open is seen to have crashed, not taken for a slow one.
        """
        chunk = self._read_soon(min(time.monotonic() + self._spin, deadline))
        if chunk is None:
            remaining_ms = (deadline - time.monotonic()) * 1000
            if not self._poll.poll(max(0.0, min(remaining_ms, _EXIT_CHECK_MS))):
                if self._popen.poll() is not None:
                    raise BotCrashedError(f"the bot has exited{self._exit_text()}")
                if remaining_ms <= _EXIT_CHECK_MS:
                    raise BotTimeoutError("no answer in time")
                return
            try:
                chunk = os.read(self._stdout_fd, _READ_SIZE)
            except BlockingIOError:  # woken without data (a signal): the caller loops
                return
        if chunk:
            self._buffer += chunk
        else:
            self._eof = True

    def _read_soon(self, until: float) -> bytes | None:
        """What the bot has written, looking until ``until`` without sleeping; None if
        nothing came by then."""
        while True:
            try:
                return os.read(self._stdout_fd, _READ_SIZE)
            except BlockingIOError:
                if time.monotonic() >= until:
                    return None
            os.sched_yield()

    def stale_lines(self) -> list[str]:
        """Take the whole lines the bot has written and the arena has not read yet, without
        waiting: called before a request is written, so that nothing written before it (a late
        answer, or a line forged into the bot's output by another process) can pass for the
        answer to it. A line still being written is dropped too, whatever comes to end it."""
        buffer = self._buffer
        if not buffer and not self._poll.poll(0):  # the usual case: nothing (one system call)
            return []
        with contextlib.suppress(BlockingIOError, OSError):
            chunk = os.read(self._stdout_fd, _READ_SIZE)
            if chunk:
                buffer += chunk
            else:
                self._eof = True
        lines: list[str] = []
        while (end := buffer.find(b"\n")) >= 0:
            if self._skipping:  # the rest of an over-long or early line
                self._skipping = False
            else:
                lines.append(bytes(buffer[: min(end, 200)]).decode("ascii", "replace"))
            del buffer[: end + 1]
        if buffer:
            lines.append(bytes(buffer[:200]).decode("ascii", "replace"))
            buffer.clear()
            self._skipping = True
        return lines

    # -- limits of the whole bot -----------------------------------------------------------

    def check(self) -> None:
        """Between deals: make sure the whole bot is within its CPU allowance
        (:meth:`BotGroup.enforce`: a watchdog also checks it while the bot runs).

        :raises BotCrashedError: the bot is past its allowance, and was killed.
        """
        if self.group is not None:
            self.group.enforce()

    # -- ending -----------------------------------------------------------------------------

    def stderr_tail(self, lines: int = 3, limit: int = 600) -> str:
        """The last lines the bot wrote to its stderr, for messages."""
        text = self._stderr.tail().strip().splitlines()
        return " | ".join(line.strip() for line in text[-lines:])[-limit:]

    def _exit_text(self) -> str:
        code = self._popen.poll()
        if code is None:
            return ""
        self.returncode = code
        tail = self.stderr_tail()
        said = f"; its stderr ends: {tail}" if tail else ""
        if self.group is not None and self.group.limit_hit is not None:
            said = f"; {self.group.limit_hit}{said}"
        elif self.group is not None and self.group.oom_kills() > self._oom_before:
            said = f"; out of memory: {self.group.describe_memory()}{said}"
        elif self._memory is not None and self._memory.oom_kills() > self._oom_before:
            said = f"; out of memory: over the limit of {self._limits.memory_mb} MiB{said}"
        elif self._grouped_memory() is None and _says_memory(tail):
            said = f"; memory is limited to {self._limits.memory_mb} MiB per process{said}"
        if code < 0:
            with contextlib.suppress(ValueError):
                return f" (killed by {signal.Signals(-code).name}{said})"
        return f" (exit code {code}{said})"

    def _grouped_memory(self) -> BotCgroup | None:
        """The control group that holds the bot's memory (None: ``RLIMIT_DATA`` does)."""
        return self.group.cgroup if self.group is not None else self._memory

    @property
    def running(self) -> bool:
        """Whether the bot's main process is still alive."""
        return self._popen.poll() is None

    def wait(self, timeout: float) -> int | None:
        """Wait up to ``timeout`` seconds for the bot to exit; its exit code, or None."""
        try:
            self.returncode = self._popen.wait(timeout)
        except subprocess.TimeoutExpired:
            return None
        return self.returncode

    def close(self, grace: float = 1.0) -> int | None:
        """End the bot: close its input, give it ``grace`` seconds to exit, then kill every
        process it started. Safe to call more than once.
        """
        with contextlib.suppress(OSError):
            self._stdin.close()
        if grace > 0:
            self.wait(grace)
        self.kill()
        return self.returncode

    def kill(self) -> None:
        """Kill every process of the bot at once and reap them. Safe to call more than once.

        In a sandbox, killing bubblewrap ends the bot's PID namespace, and the control group's
        processes are killed too. Unsandboxed: the process group, every descendant (frozen
        first, so that none forks away), and the orphans bots left to this subreaper.
        """
        if self.returncode is None or self._popen.returncode is None:
            if self.sandbox is None:
                _kill_tree(self.pid)
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.pgid, signal.SIGKILL)  # a sandbox's namespace dies with it
            if self.group is not None and self._owns_group:
                self.group.bot.kill()
        with contextlib.suppress(OSError):
            self._stdin.close()
        with contextlib.suppress(OSError):
            self._popen.stdout.close()  # type: ignore[union-attr]
        self.returncode = self._popen.wait()
        _OWN_CHILDREN.discard(self.pid)
        self._reap_group()
        _reap_orphans()
        self._stderr.close()
        self._drop_cgroup()

    def _reap_group(self) -> None:
        """Reap the group's other processes, which the subreaper made our children."""
        deadline = time.monotonic() + 2.0
        while time.monotonic() < deadline:
            try:
                pid, _ = os.waitpid(-self.pgid, os.WNOHANG)
            except ChildProcessError:
                pid = 0
            if pid:
                continue
            try:
                os.killpg(self.pgid, 0)
            except ProcessLookupError:
                return  # nothing of the group is left, not even a zombie
            except PermissionError:
                return
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.pgid, signal.SIGKILL)
            time.sleep(0.005)  # a killed process is being handed to us; try again
        LOGGER.warning("bot process group %d did not go away", self.pgid)

    def __enter__(self) -> BotProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.kill()
