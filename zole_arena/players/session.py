"""A bot session: the protocol dialogue over a :class:`~zole_arena.players.botproc.BotProcess`.

:class:`BotSession` does the handshake under the startup time limit, sets options, pings,
sends events and decision requests, and waits for the answer that echoes the open request's id,
under the decision's time limit plus a margin. Along the way it records the bot's ``info``
lines and any line it ignored, and enforces the flood limits. Faults surface as
:class:`~zole_arena.errors.BotError` subclasses; what to do about them (forfeit, restart,
disqualify) is the referee's business.
"""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import logging
import os
import time
from collections.abc import Mapping, Sequence
from typing import Final, NamedTuple, Protocol

from zole_arena.errors import (
    BotCrashedError,
    BotError,
    BotFloodError,
    BotStallError,
    BotStartupError,
    BotTimeoutError,
    printable,
)
from zole_arena.isolation.sandbox import Sandbox
from zole_arena.players.botgroup import SlotGroup
from zole_arena.players.botproc import BotProcess
from zole_arena.players.command import program_name
from zole_arena.players.limits import DEFAULT_LIMITS, Limits
from zole_arena.players.transcript import Transcript
from zole_arena.protocol import (
    ISREADY,
    PROTOCOL_VERSION,
    QUIT,
    ZOLE,
    ActionReply,
    BotLine,
    IdLine,
    InfoLine,
    OptionDecl,
    ReadyOk,
    UnknownLine,
    ZoleOk,
    parse_bot_line,
    setoption_line,
)
from zole_arena.sdk.bot import Bot

__all__ = ["IN_PROCESS", "BotConfig", "BotSession", "PlayerSession", "Reply"]

LOGGER = logging.getLogger(__name__)

#: Lines (of any kind) a bot may send while one request is open.
MAX_LINES_PER_REQUEST: Final = 10_000
#: Bytes a bot may send while one request is open.
MAX_BYTES_PER_REQUEST: Final = 1024 * 1024
#: Diagnostics kept in memory per session (older ones are dropped).
MAX_KEPT_NOTES: Final = 1000
#: How many lines that are no protocol message a session keeps, to show (it counts them all).
STRAY_EXAMPLES: Final = 5
#: The program a record names for a bot seated in the arena's process (no program at all).
IN_PROCESS: Final = "<python>"


@dataclasses.dataclass(frozen=True)
class BotConfig:
    """How to start and talk to one bot."""

    command: str | tuple[str, ...]
    """A command line (split shell-style, never run by a shell) or an argument list."""
    name: str | None = None
    """Display name; None takes the name the bot gives in the handshake."""
    cwd: str | None = None
    env: Mapping[str, str] | None = None
    """Variables added to the environment every bot starts with, sandboxed or not (the
    arena's ``PATH``, locale and ``ZOLE_BOT_*`` variables, a ``HOME``:
    :func:`~zole_arena.isolation.environment.bot_environment`); None: that alone."""
    options: Mapping[str, str] = dataclasses.field(default_factory=dict)
    """Values for options the bot declares (``setoption``)."""
    startup_ms: int = 10_000
    ping_ms: int = 5_000
    limits: Limits = DEFAULT_LIMITS
    stderr_path: str | None = None
    """File for the bot's stderr (appended); None discards it."""
    transcript: str | None = None
    """File for a transcript of every protocol line, with times and the bot's name (appended:
    :mod:`~zole_arena.players.transcript`); None: none."""
    sandbox: Sandbox | None = None
    """Run the bot in this sandbox (:mod:`zole_arena.isolation.sandbox`); None: an ordinary
    process."""
    group: SlotGroup | None = dataclasses.field(default=None, compare=False, repr=False)
    """The process's part of the bot's limits at the table (a sandboxed duplicate match runs
    one process per seating: :class:`~zole_arena.players.botgroup.BotGroup`); None: a
    sandboxed process gets a group of its own. The referee sets it."""
    bot: Bot | None = None
    """A Python :class:`~zole_arena.sdk.bot.Bot` seated in the arena's own process
    (:mod:`zole_arena.players.inproc`): no process, no pipe, no text. ``command`` is then only
    what the records name it by; of the process settings only ``stderr_path`` applies (an
    exception's traceback goes there)."""

    @classmethod
    def in_process(
        cls,
        bot: Bot,
        *,
        name: str | None = None,
        options: Mapping[str, str] | None = None,
        stderr_path: str | None = None,
        command: tuple[str, ...] | None = None,
    ) -> BotConfig:
        """Seat ``bot`` itself, in the arena's process; the records name it
        ``<python> module.Class`` (or ``command``), and by the bot's ``name`` unless ``name``
        is given. ``options`` are set as ``setoption`` would, checked against the bot's
        declared options."""
        if command is None:
            kind = type(bot)
            command = (IN_PROCESS, f"{kind.__module__}.{kind.__qualname__}")
        return cls(
            command=command,
            name=name,
            options=dict(options or {}),
            stderr_path=stderr_path,
            bot=bot,
        )


class Reply(NamedTuple):
    """The bot's answer to a decision request."""

    request_id: int
    words: tuple[str, ...]
    line: str
    elapsed_ms: float
    """From writing the request to reading the answer."""


class PlayerSession(Protocol):
    """What the referee needs of a player: a bot process (:class:`BotSession`) or a person at
    the keyboard (:class:`zole_arena.players.human.HumanSession`)."""

    @property
    def name(self) -> str: ...

    def identity(self) -> dict[str, str | Sequence[str]]: ...

    def ping(self, timeout_ms: int | None = None) -> float: ...

    def idle_seconds(self) -> float: ...

    def check_limits(self) -> None: ...

    def take_stray(self) -> int: ...

    def request(
        self,
        line: str,
        request_id: int,
        time_ms: int,
        margin_ms: int,
        events: Sequence[str] = (),
    ) -> Reply: ...

    def send_lines(self, lines: Sequence[str]) -> None: ...

    def send_quit(self) -> None: ...

    def finish_quit(self, deadline: float) -> int | None: ...

    def kill(self) -> None: ...


class BotSession:
    """The arena's side of the dialogue with one bot process."""

    def __init__(self, config: BotConfig) -> None:
        """Start the bot and do the handshake.

        :raises BotStartupError: the program cannot be started, exits, or does not send
            ``zoleok`` within ``config.startup_ms``; or an option value does not fit.
        """
        self.config = config
        self.ids: dict[str, str] = {}
        self.options: dict[str, OptionDecl] = {}
        self.notes: list[str] = []
        """``info`` lines and ignored lines, newest last (at most :data:`MAX_KEPT_NOTES`)."""
        self.requests = 0
        self.stray_lines = 0
        """Lines the bot wrote on its stdout that are no protocol message (debugging output
        in the wrong place, usually): ignored, and counted."""
        self._stray_taken = 0
        self.stray_examples: list[str] = []
        """The first few of them (:data:`STRAY_EXAMPLES`)."""
        self._log: Transcript | None = None
        self._last_heard = time.monotonic()
        if config.transcript is not None:
            try:
                self._log = Transcript(config.transcript)
            except OSError as exc:
                raise BotStartupError(
                    f"cannot write the transcript {config.transcript}: {exc.strerror or exc}"
                ) from None
        try:
            self.process = BotProcess(
                config.command,
                cwd=config.cwd,
                env=config.env,
                stderr_path=config.stderr_path,
                limits=config.limits,
                sandbox=config.sandbox,
                group=config.group,
                on_stderr=self._log.write_stderr if self._log is not None else None,
            )
        except BaseException:
            self._close_log()
            raise
        if self._log is not None:
            label = config.name or program_name(self.process.argv)
            self._log.who = f"{printable(label)[:60]}[{self.process.pid}]"
        try:
            self._handshake()
            self._set_options(config.options)
        except BotError as exc:
            self.kill()
            if isinstance(exc, BotStartupError):
                raise
            raise BotStartupError(f"handshake failed: {exc}", line=exc.line) from None
        except BaseException:
            self.kill()
            raise

    @property
    def name(self) -> str:
        """The display name: the configured one, else the bot's ``id name``, else the program."""
        if self.config.name:
            return self.config.name
        return self.ids.get("name") or os.path.basename(self.process.argv[0])

    def _heard(self, line: str, message: BotLine | None) -> None:
        """Keep a line that answered nothing: an ``info`` line, a late answer, or a line
        that is no protocol message at all (counted: :attr:`stray_lines`)."""
        if isinstance(message, UnknownLine):
            self.stray_lines += 1
            if len(self.stray_examples) < STRAY_EXAMPLES:
                self.stray_examples.append(printable(line)[:120])
        if message is not None:
            self._note(line)

    def _note(self, text: str) -> None:
        self.notes.append(printable(text))
        if len(self.notes) > MAX_KEPT_NOTES:
            del self.notes[: len(self.notes) - MAX_KEPT_NOTES]

    def _send(self, line: str, timeout: float = 5.0) -> None:
        if self._log is not None:
            self._log.write(True, line.split("\n"))
        self.process.send(line, timeout)

    def _read(self, deadline: float) -> str:
        line = self.process.read_line(deadline)
        self._last_heard = time.monotonic()
        if self._log is not None:
            self._log.write(False, (line,))
        return line

    def _close_log(self) -> None:
        if self._log is not None:
            self._log.close()
            self._log = None

    def _handshake(self) -> None:
        deadline = time.monotonic() + self.config.startup_ms / 1000
        self._send(ZOLE)
        lines = 0
        size = 0
        recent: collections.deque[str] = collections.deque(maxlen=3)
        while True:
            try:
                line = self._read(deadline)
            except BotTimeoutError:
                raise BotStartupError(self._no_zoleok(recent)) from None
            except BotCrashedError as exc:
                said = f"; its stdout ends: {' | '.join(recent)}" if recent else ""
                raise BotStartupError(f"the bot ended during the handshake: {exc}{said}") from None
            lines += 1
            size += len(line) + 1
            recent.append(printable(line)[:200])
            if lines > MAX_LINES_PER_REQUEST or size > MAX_BYTES_PER_REQUEST:
                raise BotFloodError("more than 10,000 lines or 1 MiB during the handshake")
            if time.monotonic() > deadline:
                raise BotStartupError(self._no_zoleok(recent))
            message = parse_bot_line(line)
            if isinstance(message, ZoleOk):
                if message.version != PROTOCOL_VERSION:
                    raise BotStartupError(
                        f"the bot speaks protocol version {message.version}; "
                        f"this arena speaks {PROTOCOL_VERSION}",
                        line=line,
                    )
                return
            if isinstance(message, IdLine):
                self.ids[message.key] = printable(message.value)[:200]
            elif isinstance(message, OptionDecl):
                self.options[message.name] = message
            elif isinstance(message, InfoLine | UnknownLine):
                self._heard(line, message)

    def _no_zoleok(self, recent: Sequence[str]) -> str:
        """Why the handshake did not end in time: nothing written at all (output not
        flushed, usually), or lines but no ``zoleok``; and how to give more time."""
        ms = self.config.startup_ms
        more = f"a bot that needs longer to start gets it with --startup-ms (now {ms})"
        if not recent:
            return (
                f"the bot wrote nothing within the startup time of {ms} ms: is its output "
                "flushed after each line? (a program writing into a pipe keeps what it prints "
                f"in a buffer until it flushes); {more}"
            )
        return (
            f"no 'zoleok' within the startup time of {ms} ms; the bot's last line: "
            f"{recent[-1]!r}; {more}"
        )

    def _set_options(self, values: Mapping[str, str]) -> None:
        for name, value in values.items():
            declared = self.options.get(name)
            if declared is None:
                known = ", ".join(self.options) or "none"
                raise BotStartupError(f"the bot has no option {name!r} (its options: {known})")
            try:
                normal = declared.check_value(value)
            except ValueError as exc:
                raise BotStartupError(str(exc)) from None
            self._send(setoption_line(name, normal))
        self.ping()

    def send(self, line: str) -> None:
        """Send an event or any other line that needs no answer.

        :raises BotCrashedError: the bot has exited.
        """
        self._send(line)

    def send_lines(self, lines: Sequence[str]) -> None:
        """Send several lines in one write.

        :raises BotCrashedError: the bot has exited.
        """
        if lines:
            self._send("\n".join(lines))

    @property
    def running(self) -> bool:
        """Whether the bot's process is still alive."""
        return self.process.running

    def idle_seconds(self) -> float:
        """Seconds since the bot last sent a line."""
        return time.monotonic() - self._last_heard

    def ping(self, timeout_ms: int | None = None) -> float:
        """Send ``isready`` and wait for ``readyok``; the round trip in milliseconds.

        :raises BotStallError: no ``readyok`` within the ping time.
        :raises BotCrashedError: the bot exited.
        """
        limit = self.config.ping_ms if timeout_ms is None else timeout_ms
        start = time.monotonic()
        deadline = start + limit / 1000
        self._send(ISREADY)
        lines = 0
        size = 0
        while True:
            try:
                line = self._read(deadline)
            except BotTimeoutError:
                raise BotStallError(f"no 'readyok' within {limit} ms") from None
            if isinstance(parse_bot_line(line), ReadyOk):
                return (time.monotonic() - start) * 1000
            lines += 1
            size += len(line) + 1
            if lines > MAX_LINES_PER_REQUEST or size > MAX_BYTES_PER_REQUEST:
                raise BotFloodError("more than 10,000 lines or 1 MiB while waiting for 'readyok'")
            self._heard(line, parse_bot_line(line))
            if time.monotonic() > deadline:
                raise BotStallError(f"no 'readyok' within {limit} ms")

    def request(
        self,
        line: str,
        request_id: int,
        time_ms: int,
        margin_ms: int,
        events: Sequence[str] = (),
    ) -> Reply:
        """Send a ``go`` line (after ``events``, in the same write) and wait for the
        ``action`` that echoes ``request_id``.

        ``info`` lines, stray ``readyok`` and unknown lines are recorded and skipped; an
        ``action`` for another id is a late or wrong answer and is skipped too.

        :raises BotTimeoutError: no answer within ``time_ms + margin_ms``.
        :raises BotCrashedError: the bot exited first.
        :raises BotFloodError: too long a line or too much output for one request.
        """
        self.requests += 1
        if events:
            line = "\n".join([*events, line])
        start = time.monotonic()
        deadline = start + (time_ms + margin_ms) / 1000
        lines = 0
        size = 0
        expected = str(request_id)
        for stale in self.process.stale_lines():  # written before the request: no answer
            if self._log is not None:
                self._log.write(False, (stale,))
            self._heard(stale, parse_bot_line(stale))
        group = self.process.group
        if group is not None:
            group.deciding()
        try:
            if self._log is None:
                text = self.process.exchange(line, deadline)
                self._last_heard = time.monotonic()
            else:  # the debug log sees every line: no shortcut
                self._send(line)
                text = self._read(deadline)
            while True:
                words = text.split()
                if len(words) >= 2 and words[0] == "action" and words[1] == expected:
                    elapsed = (self._last_heard - start) * 1000  # when the line was read
                    return Reply(request_id, tuple(words[2:]), text, elapsed)
                message = parse_bot_line(text)
                if isinstance(message, ActionReply) and message.request_id == request_id:
                    elapsed = (self._last_heard - start) * 1000  # the id written as "+7"
                    return Reply(request_id, message.words, text, elapsed)
                lines += 1
                size += len(text) + 1
                if lines > MAX_LINES_PER_REQUEST or size > MAX_BYTES_PER_REQUEST:
                    raise BotFloodError(
                        f"more than {MAX_LINES_PER_REQUEST:,} lines or "
                        f"{MAX_BYTES_PER_REQUEST:,} bytes of output for request {request_id}",
                        line=text[:200],
                    )
                self._heard(text, message)
                if time.monotonic() > deadline:  # lines kept coming, but not the answer
                    raise BotTimeoutError(
                        f"no answer to request {request_id} within {time_ms} ms "
                        f"(+{margin_ms} ms margin)",
                        line=text[:200],
                    )
                text = self._read(deadline)
        except BotTimeoutError as exc:
            if exc.line is not None:
                raise
            raise BotTimeoutError(
                f"no answer to request {request_id} within {time_ms} ms (+{margin_ms} ms margin)"
            ) from None
        finally:
            if group is not None:
                group.decided()  # its decision time: what its CPU time may exceed its limit by

    def take_stray(self) -> int:
        """The lines that are no protocol message the bot wrote since the last call."""
        taken, self._stray_taken = self.stray_lines - self._stray_taken, self.stray_lines
        return taken

    def check_limits(self) -> None:
        """Between deals: is the whole bot within its limits (:meth:`BotProcess.check`)?

        :raises BotCrashedError: it is not, and was killed.
        """
        self.process.check()

    def quit(self, grace_ms: int = 1000) -> int | None:
        """Send ``quit``, give the bot ``grace_ms`` to exit, then kill whatever is left."""
        self.send_quit()
        return self.finish_quit(time.monotonic() + grace_ms / 1000)

    def send_quit(self) -> None:
        """Send ``quit`` without waiting (a bot whose input is full does not get it)."""
        with contextlib.suppress(BotError):  # it may have exited already
            self._send(QUIT, timeout=0.0)

    def finish_quit(self, deadline: float) -> int | None:
        """Wait until ``deadline`` for the bot to exit after ``quit``, then kill the rest."""
        code = self.process.close(grace=max(0.0, deadline - time.monotonic()))
        self._close_log()
        return code

    def kill(self) -> None:
        """Kill the bot's process group at once."""
        self.process.kill()
        self._close_log()

    def identity(self) -> dict[str, str | Sequence[str]]:
        """Name, author, version and command, as game records keep them."""
        return {
            "name": self.name,
            "id_name": self.ids.get("name", ""),
            "author": self.ids.get("author", ""),
            "version": self.ids.get("version", ""),
            "tables": self.ids.get("tables", ""),
            "command": list(self.process.argv),
        }
