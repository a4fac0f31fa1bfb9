"""Bot processes: start, line I/O with deadlines, resource limits, and a kill that leaves nothing.

A bot is an untrusted program. :class:`BotProcess` starts it from an argument list (never
through a shell) in a new session, so that it and every process it starts share one process
group; caps its address space and CPU time; sends its stderr to a file of its own; reads its
stdout line by line with a deadline (no threads: ``select`` on the pipe); and on
:meth:`~BotProcess.close` or :meth:`~BotProcess.kill` kills the whole group and reaps every
process of it. On Linux the arena makes itself a *child subreaper*, so that a grandchild whose
parent died is handed to the arena, which reaps it, instead of lingering as a zombie.

This module knows nothing of the protocol's messages: see :mod:`zole_arena.session`.
"""

from __future__ import annotations

import contextlib
import ctypes
import dataclasses
import errno
import logging
import os
import re
import resource
import select
import shlex
import signal
import subprocess
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO, Final

from zole_arena.affinity import current_cpus
from zole_arena.errors import (
    BotCrashedError,
    BotFloodError,
    BotStallError,
    BotStartupError,
    BotTimeoutError,
)

__all__ = ["DEFAULT_LIMITS", "BotProcess", "Limits", "program_name", "split_command"]

LOGGER = logging.getLogger(__name__)

#: The longest line accepted from a bot, in bytes (without the line end).
MAX_LINE_BYTES: Final = 64 * 1024
_READ_SIZE: Final = 65536
#: While waiting for a line, how often to look whether the bot's process has exited (ms).
_EXIT_CHECK_MS: Final = 100.0
_PR_SET_CHILD_SUBREAPER: Final = 36
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


@dataclasses.dataclass(frozen=True)
class Limits:
    """Resource limits for a bot process; None means no limit."""

    memory_mb: int | None = 2048
    """Address space (``RLIMIT_AS``) in MiB."""
    cpu_seconds: int | None = 600
    """CPU time of the process (``RLIMIT_CPU``); past it the kernel kills the bot."""


DEFAULT_LIMITS: Final = Limits()


#: Programs that run a script: a bot run by one is named after its script, not after them.
_INTERPRETERS: Final = re.compile(
    r"^(python[0-9.]*|pypy[0-9.]*|node|nodejs|deno|bun|ruby|perl|php|java|dotnet|mono|lua"
    r"|luajit|julia|Rscript|bash|sh|dash|zsh|env|uv|pipenv|poetry)(\.exe)?$"
)
_SCRIPT_SUFFIXES: Final = (".py", ".js", ".mjs", ".rb", ".pl", ".php", ".jar", ".lua", ".jl",
                           ".R", ".sh", ".exe")  # fmt: skip


def program_name(argv: Sequence[str]) -> str:
    """A short name for a bot given only as a command: its program's file name, or, for a
    script run by an interpreter (``python3 bots/mine.py``, ``java -jar zb.jar``), the
    script's, without a script suffix (``mine``, ``zb``).

    >>> program_name(["/usr/bin/python3", "-u", "bots/mine.py", "--depth", "3"])
    'mine'
    >>> program_name(["./zolebot-1.2"])
    'zolebot-1.2'
    >>> program_name(["python3", "-m", "mybots.deep"]), program_name(["python3", "-c", "..."])
    ('deep', 'python3')
    """
    program = Path(argv[0]).name
    if _INTERPRETERS.match(program):
        for index, arg in enumerate(argv[1:], start=1):
            if arg == "-c":  # code on the command line: no better name than the interpreter
                break
            if arg == "-m" and index + 1 < len(argv):  # python -m package.bot
                return argv[index + 1].rpartition(".")[2]
            if not arg.startswith("-"):
                program = Path(arg).name
                break
    for suffix in _SCRIPT_SUFFIXES:
        if program.endswith(suffix) and len(program) > len(suffix):
            return program[: -len(suffix)]
    return program


def split_command(command: str | Sequence[str]) -> list[str]:
    """An argument list from a command line (split shell-style, never run by a shell).

    :raises BotStartupError: the command is empty or its quoting is broken.
    """
    if isinstance(command, str):
        try:
            argv = shlex.split(command)
        except ValueError as exc:
            raise BotStartupError(f"bad bot command {command!r}: {exc}") from None
    else:
        argv = list(command)
    if not argv:
        raise BotStartupError("empty bot command")
    return argv


_subreaper_done = False


def _become_subreaper() -> None:
    """Ask Linux to hand us the orphans of our bots, so that we can reap them."""
    global _subreaper_done
    if _subreaper_done:
        return
    _subreaper_done = True
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)


def _limit_resources(limits: Limits) -> None:  # runs in the child, before exec
    if limits.memory_mb is not None:
        size = limits.memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (size, size))
    if limits.cpu_seconds is not None:
        resource.setrlimit(resource.RLIMIT_CPU, (limits.cpu_seconds, limits.cpu_seconds + 5))


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
    ) -> None:
        """Start the program.

        :param command: a command line (split shell-style) or an argument list.
        :param stderr_path: the file that receives the bot's stderr (appended); None discards it.
        :raises BotStartupError: the program does not exist or cannot be run.
        """
        self.argv = split_command(command)
        self._spin = _spin_seconds()  # as placed when the bot starts (``match --cpu``: 0)
        self._buffer = bytearray()
        self._eof = False
        self._skipping = False
        self.returncode: int | None = None
        _become_subreaper()
        stderr: IO[bytes] | int
        if stderr_path is not None:
            try:
                Path(stderr_path).parent.mkdir(parents=True, exist_ok=True)
                stderr = open(stderr_path, "ab")  # noqa: SIM115 - the child keeps it open
            except OSError as exc:
                raise BotStartupError(
                    f"cannot write the bot's stderr file {stderr_path}: {exc.strerror or exc}"
                ) from None
            self.stderr_path: str | None = str(stderr_path)
            self._stderr_start = stderr.tell()
        else:
            # Kept in an anonymous temporary file, so that a crash can still say why.
            stderr = tempfile.TemporaryFile()  # noqa: SIM115 - closed in kill()
            self.stderr_path = None
            self._stderr_start = 0
        self._stderr_file: IO[bytes] | None = None if stderr_path is not None else stderr
        try:
            self._popen = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=stderr,
                cwd=cwd,
                env=dict(env) if env is not None else None,
                start_new_session=True,
                preexec_fn=lambda: _limit_resources(limits),
                bufsize=0,
                close_fds=True,
            )
        except FileNotFoundError:
            where = f" in {cwd}" if cwd is not None else ""
            raise BotStartupError(
                f"cannot start bot: no such program {self.argv[0]!r}{where} "
                "(check the command, or give a path)"
            ) from None
        except PermissionError:
            raise BotStartupError(
                f"cannot start bot: {self.argv[0]!r} is not executable (chmod +x it, or run it "
                "through its interpreter)"
            ) from None
        except (OSError, subprocess.SubprocessError) as exc:
            raise BotStartupError(f"cannot start bot {self.argv[0]!r}: {exc}") from None
        finally:
            if stderr_path is not None or not hasattr(self, "_popen"):
                stderr.close()  # the child has its own copy; a temporary file stays ours
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
        LOGGER.debug("started bot %s (pid %d)", self.argv, self.pid)

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

    def poll_line(self) -> str | None:
        """A line the bot has already written, or None, without waiting."""
        try:
            return self.read_line(time.monotonic())
        except BotTimeoutError:
            return None

    # -- ending -----------------------------------------------------------------------------

    def stderr_tail(self, lines: int = 3, limit: int = 600) -> str:
        """The last lines the bot wrote to its stderr (this process only), for messages."""
        try:
            if self._stderr_file is not None:
                self._stderr_file.seek(0)
                data = self._stderr_file.read()
            elif self.stderr_path is not None:
                with open(self.stderr_path, "rb") as handle:
                    handle.seek(self._stderr_start)
                    data = handle.read()
            else:
                return ""
        except (OSError, ValueError):
            return ""
        text = data.decode("utf-8", "replace").strip().splitlines()
        return " | ".join(line.strip() for line in text[-lines:])[-limit:]

    def _exit_text(self) -> str:
        code = self._popen.poll()
        if code is None:
            return ""
        self.returncode = code
        tail = self.stderr_tail()
        said = f"; its stderr ends: {tail}" if tail else ""
        if code < 0:
            with contextlib.suppress(ValueError):
                return f" (killed by {signal.Signals(-code).name}{said})"
        return f" (exit code {code}{said})"

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
        """End the bot: close its input, give it ``grace`` seconds to exit, then kill the whole
        process group. Safe to call more than once.
        """
        with contextlib.suppress(OSError):
            self._stdin.close()
        if grace > 0:
            self.wait(grace)
        self.kill()
        return self.returncode

    def kill(self) -> None:
        """Kill the bot's whole process group at once and reap every process of it."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pgid, signal.SIGKILL)
        with contextlib.suppress(OSError):
            self._stdin.close()
        with contextlib.suppress(OSError):
            self._popen.stdout.close()  # type: ignore[union-attr]
        self.returncode = self._popen.wait()
        self._reap_group()
        if self._stderr_file is not None:
            with contextlib.suppress(OSError):
                self._stderr_file.close()
            self._stderr_file = None

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

    def group_alive(self) -> bool:
        """Whether any process of the bot's group exists (a zombie counts)."""
        try:
            os.killpg(self.pgid, 0)
        except ProcessLookupError:
            return False
        except OSError as exc:
            return exc.errno == errno.EPERM
        return True

    def __enter__(self) -> BotProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.kill()
