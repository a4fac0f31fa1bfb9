"""Every option of ``match``, ``sprt``, ``check``, ``play`` and ``tournament``, and every key
of a tournament's config file, declared once: name, type, default, bounds, unit, help text and
the commands that take it.

The command line makes its options from these declarations (:mod:`zole_arena.cli.options`),
:func:`zole_arena.options.config.read_config` checks a config file against them, and
:class:`~zole_arena.options.values.OptionValues` makes the settings of their values, so
that an option is added here (and where it takes effect) and reaches every command that takes
it and the config file, with one check and one message for a bad value.

The defaults of the settings are not written here but read from the values they fill — the
time and fault defaults from :class:`~zole_arena.arena.settings.MatchSettings` and
:class:`~zole_arena.arena.referee.FaultPolicy`, the limits from
:class:`~zole_arena.players.limits.Limits` — so that the library and the command line cannot
disagree (the tournament's format, concurrency and kept bots from
:class:`~zole_arena.events.settings.TournamentSettings`). Only what exists for the command line
alone (blocks, a command's own defaults) has its default here.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final, Generic, TypeVar, cast, get_args

from zole_arena.arena.referee import FaultPolicy, OnFault
from zole_arena.arena.settings import MatchSettings
from zole_arena.errors import ZoleError
from zole_arena.events.schedule import FORMATS
from zole_arena.events.settings import TournamentSettings
from zole_arena.game.clock import TimeControl
from zole_arena.game.rules import PRESETS
from zole_arena.game.shuffle import MAX_SEED
from zole_arena.players.limits import Limits
from zole_arena.records.kinds import MAX_DEALS

__all__ = [
    "OPTIONS",
    "Command",
    "Option",
    "OptionError",
    "options_of",
]

T_co = TypeVar("T_co", covariant=True)

#: Bytes in a MiB (``--max-memory-mb``, ``--max-stderr-mb``).
MIB: Final = 1024 * 1024


class OptionError(ZoleError, ValueError):
    """An option's value that cannot be used."""


class Command(enum.Enum):
    """The commands that take declared options. A tournament's config file takes those of
    ``tournament`` that are :attr:`Option.in_config`."""

    MATCH = "match"
    SPRT = "sprt"
    CHECK = "check"
    PLAY = "play"
    TOURNAMENT = "tournament"


MATCH: Final = Command.MATCH
SPRT: Final = Command.SPRT
CHECK: Final = Command.CHECK
PLAY: Final = Command.PLAY
TOURNAMENT: Final = Command.TOURNAMENT


_KIND_NAMES: Final[Mapping[type, str]] = {
    int: "a whole number",
    str: "a string",
    bool: "true or false",
    Path: "a path",
}


@dataclasses.dataclass(frozen=True, eq=False)
class Option(Generic[T_co]):
    """One option: ``--NAME`` on the command line, ``NAME`` (or with ``_`` for ``-``) in a
    config file. Options compare by identity, so that they can key mappings."""

    name: str
    """The flag without its dashes, and the config key: ``startup-ms``."""
    kind: type
    """The type of a value: ``int``, ``str``, ``bool`` or ``Path``; of each value if
    :attr:`many`."""
    default: T_co
    """The value when the option is not given (a command may have its own: :attr:`defaults`)."""
    help: str
    """One or two sentences for ``--help`` (the default is added from :attr:`default`)."""
    commands: frozenset[Command]
    """The commands that take it."""
    unit: str = ""
    """What a number counts (``ms``, ``MiB``, ``s``): the metavar of ``--help``."""
    least: int | None = None
    most: int | None = None
    """Bounds of a number, both included."""
    choices: tuple[str, ...] = ()
    """The values a string may take (with :attr:`or_file`, or a file's path)."""
    or_file: bool = False
    many: bool = False
    """Repeatable on the command line, a list in a config: the value is a tuple."""
    short: str | None = None
    """A short form of the flag: ``-r``."""
    in_config: bool = True
    """Whether a tournament's config file may set it."""
    path: bool = False
    """In a config file a relative path (each one, if :attr:`many`) is taken from the file's
    folder (but not one of the :attr:`choices`)."""
    default_text: str | None = None
    """What ``--help`` says for a default that is not a value (``a random one``)."""
    defaults: Mapping[Command, Any] = dataclasses.field(default_factory=dict)
    """Commands whose default differs from :attr:`default`."""
    helps: Mapping[Command, str] = dataclasses.field(default_factory=dict)
    """Commands whose help differs from :attr:`help`."""
    default_texts: Mapping[Command, str] = dataclasses.field(default_factory=dict)
    check: Callable[[Any], str | None] | None = None
    """A further check of a value (what is wrong, as :meth:`problem` says it; None: good)."""

    @property
    def flag(self) -> str:
        """``--startup-ms``."""
        return f"--{self.name}"

    @property
    def key(self) -> str:
        """The name as a Python identifier: ``startup_ms`` (also taken in a config file)."""
        return self.name.replace("-", "_")

    def default_in(self, command: Command) -> T_co:
        """The default of ``command``."""
        return cast(T_co, self.defaults.get(command, self.default))

    def help_in(self, command: Command) -> str:
        """The help of ``command``, without its default."""
        return self.helps.get(command, self.help)

    def shown_default(self, command: Command) -> str | None:
        """The default as ``--help`` shows it; None: none to show."""
        text = self.default_texts.get(command, self.default_text)
        if text is not None:
            return text
        default = self.default_in(command)
        if self.kind is bool:
            return self.name if default else f"no-{self.name}"
        if default is None or (self.many and not default):
            return None
        return str(default)

    def problem(self, value: object) -> str | None:
        """What is wrong with a value of the right type (out of bounds, not a choice): the
        message's end, after the option's name; None if it is good."""
        if value is None:
            return None
        if self.many and isinstance(value, tuple | list):
            return next((p for p in map(self.problem, value) if p is not None), None)
        if isinstance(value, int) and not isinstance(value, bool):
            if (
                self.least is not None
                and self.most is not None
                and not (self.least <= value <= self.most)
            ):
                return f"must be from {self.least} to {self.most}, not {value}"
            if self.least is not None and value < self.least:
                return f"must be at least {self.least}, not {value}"
            if self.most is not None and value > self.most:
                return f"must be at most {self.most}, not {value}"
        if self.choices and not self.or_file and value not in self.choices:
            return f"must be {either(self.choices)}, not {value!r}"
        if self.check is not None:
            return self.check(value)
        return None

    def from_config(self, value: object, key: str) -> T_co:
        """A config file's value, checked: the right type (a TOML integer for a number, a
        boolean for a switch, …) and :meth:`problem`-free.

        :raises OptionError: a one-line message naming ``key`` as the file wrote it.
        """
        wanted = _KIND_NAMES[self.kind]
        if self.many:
            wanted = f"a list of {'paths' if self.path else wanted.split(' ', 1)[1] + 's'}"
        if self.many and not isinstance(value, list):
            raise OptionError(f"{key} must be {wanted}, not {_shown(value)}")
        values = cast(list[object], value) if self.many else [value]
        for item in values:
            fits = (
                isinstance(item, str)
                if self.kind is Path
                else isinstance(item, self.kind) and (self.kind is bool) == isinstance(item, bool)
            )
            if not fits:
                raise OptionError(f"{key} must be {wanted}, not {_shown(value)}")
        checked: object = tuple(values) if self.many else value
        if self.kind is Path:
            checked = Path(cast(str, value))
        problem = self.problem(checked)
        if problem is not None:
            raise OptionError(f"{key} {problem}")
        return cast(T_co, checked)


def either(choices: Sequence[str]) -> str:
    """``a or b``; ``a, b or c``."""
    return " or ".join([", ".join(choices[:-1]), choices[-1]] if len(choices) > 2 else choices)


def _shown(value: object) -> str:
    """A config value as its file wrote it: ``true``, ``'3'``, ``[1, 2]``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value)


_EVERY: Final = frozenset(Command)
_MATCHES: Final = frozenset({MATCH, SPRT, TOURNAMENT})
"""The commands that play matches of bots (faults, stderr files and bot options)."""
_BOTS: Final = frozenset({MATCH, SPRT, CHECK, TOURNAMENT})
"""The commands whose bots get every time and limit option."""
_SEEDED: Final = frozenset({MATCH, SPRT, PLAY, TOURNAMENT})

# -- the declarations, in the order --help lists them ------------------------------------------

SEED: Final = Option[int | None](
    "seed", int, None, "Seed of the deals (0 to 2^64-1).", _SEEDED, unit="SEED", least=0,
    most=MAX_SEED, default_text="a random one",
    helps={TOURNAMENT: "Seed of the deals (0 to 2^64-1): of every table's, or of each board "
           "group's seed in a movement."},
)  # fmt: skip
RULES: Final = Option[str](
    "rules", str, PRESETS[0], "Rules: a preset or a TOML rules file naming a preset.", _SEEDED,
    choices=PRESETS, or_file=True, short="-r", path=True,
)  # fmt: skip
DEALS: Final = Option[int | None](
    "deals", int, None, "Deals to play.", frozenset({MATCH, PLAY, TOURNAMENT}), unit="N",
    least=1, most=MAX_DEALS, defaults={PLAY: 3},
    helps={
        MATCH: "Deals to play (instead of --games); with --duplicate each is played in all 6 "
        "seatings: 6 times as many.",
        TOURNAMENT: "Deals of the seed per table, instead of --blocks (with duplicate tables, "
        "each is played in all 6 seatings, as in 'match').",
    },
)  # fmt: skip
BLOCKS: Final = Option[int](
    "blocks", int, 10, "Duplicate blocks per table: each deals 1 hand in all 6 seatings.",
    frozenset({TOURNAMENT}), unit="N", least=1, most=MAX_DEALS,
)  # fmt: skip
DUPLICATE: Final = Option[bool](
    "duplicate", bool, MatchSettings.duplicate,
    "Play every deal in all 6 seatings of the three bots.", frozenset({MATCH, TOURNAMENT}),
    defaults={TOURNAMENT: True}, default_texts={TOURNAMENT: "with --no-sandbox"},
    helps={TOURNAMENT: "Play each deal in all 6 seatings of a table (every table the same "
           "deals; sandboxed bots then meet each deal six times: docs/competitions.md), or "
           "with --no-duplicate every table deals of its own.",
           },
)  # fmt: skip
MOVEMENT: Final = Option[bool](
    "movement", bool, False, "A movement of boards: tables with no bot in common play the "
    "same deals, each table every deal once, so that every hand is held by several bots and "
    "no bot meets the same cards twice (docs/competitions.md). The default for sandboxed "
    "bots; --no-sandbox tables play duplicate blocks unless this is given.",
    frozenset({TOURNAMENT}), default_text="for sandboxed bots",
)  # fmt: skip
MOVETIME: Final = Option[int](
    "movetime", int, MatchSettings.movetime_ms, "Milliseconds per decision.", _EVERY,
    unit="MS", least=1,
)  # fmt: skip


def _tc_problem(value: object) -> str | None:
    try:
        TimeControl.parse(str(value))
    except ValueError as exc:
        return f"is {value!r}: {str(exc).partition(': ')[2]}"
    return None


TC: Final = Option[str | None](
    "tc", str, None, "A game clock instead of --movetime: BASE+INC seconds, e.g. 10+0.1: each "
    "bot's clock starts each deal at BASE, runs while it decides and gains INC after each "
    "decision (docs/clocks.md).", frozenset({MATCH, SPRT, PLAY, TOURNAMENT}), unit="BASE+INC",
    default_text="none: --movetime", check=_tc_problem,
)  # fmt: skip
FIXED_PACE: Final = Option[bool](
    "fixed-pace", bool, MatchSettings.fixed_pace, "Send no request before every decision "
    "before it could have used its whole --movetime, so that how long a bot waits tells it "
    "nothing of how long the others thought (their cards): each deal then takes its "
    "decisions times --movetime (docs/competitions.md).",
    frozenset({MATCH, SPRT, TOURNAMENT}),
)  # fmt: skip
TIMEMARGIN: Final = Option[int](
    "timemargin", int, MatchSettings.margin_ms,
    "Milliseconds allowed on top of each decision's time.", _BOTS, unit="MS", least=0,
)  # fmt: skip
STARTUP_MS: Final = Option[int](
    "startup-ms", int, MatchSettings.startup_ms,
    "Milliseconds for a bot to start and finish the handshake.", _BOTS, unit="MS", least=1,
)  # fmt: skip
PING_MS: Final = Option[int](
    "ping-ms", int, MatchSettings.ping_ms,
    "Milliseconds for a bot to answer isready with readyok.", _BOTS, unit="MS", least=1,
)  # fmt: skip
ON_FAULT: Final = Option[str](
    "on-fault", str, FaultPolicy.on_fault,
    "forfeit: the culprit forfeits the deal; random: a random legal action is played for it.",
    _MATCHES, choices=get_args(OnFault),
)  # fmt: skip
FORFEIT_PENALTY: Final = Option[int | None](
    "forfeit-penalty", int, FaultPolicy.penalty, "What a forfeiting bot pays each opponent.",
    _MATCHES, unit="N", least=0, default_text="the rules' largest loss",
)  # fmt: skip
MAX_FAULTS: Final = Option[int](
    "max-faults", int, FaultPolicy.max_faults,
    "Faults a bot may make in a match before it is disqualified.", _MATCHES, unit="N", least=0,
    helps={TOURNAMENT: "Faults a bot may make at a table before it is disqualified there."},
)  # fmt: skip
MAX_MEMORY_MB: Final = Option[int](
    "max-memory-mb", int, Limits.memory_mb or 0,
    "Memory limit, MiB: the memory a bot uses (not the address space it reserves): of each "
    "bot process, and sandboxed of the whole bot at a table (shared out among its seatings' "
    "processes); 0: none.", _BOTS,
    unit="MIB", least=0,
)  # fmt: skip
MAX_CPU_S: Final = Option[int](
    "max-cpu-s", int, Limits.cpu_seconds or 0,
    "CPU-time limit, s, beyond the time a bot spends deciding: of each bot process, and "
    "sandboxed of the whole bot at a table, stopped as soon as it passes it; 0: none.", _BOTS,
    unit="S", least=0,
)  # fmt: skip
MAX_PROCESSES: Final = Option[int](
    "max-processes", int, Limits.processes or 0,
    "Sandboxed: processes and threads a bot may have at once, all together; 0: none.", _BOTS,
    unit="N", least=0,
)  # fmt: skip
MAX_STDERR_MB: Final = Option[int](
    "max-stderr-mb", int, (Limits.stderr_bytes or 0) // MIB,
    "A bot's stderr file is cut at this size (MiB), with a marker line; 0: no limit.",
    _MATCHES, unit="MIB", least=0,
)  # fmt: skip
SANDBOX: Final = Option[bool](
    "sandbox", bool, MatchSettings.sandbox is not None,
    "Run every bot in a bubblewrap sandbox: it sees no other process, no network, no file but "
    "the system's and its own program's (read-only) and a private /tmp; limits hold for the "
    "whole bot; nothing it starts outlives it (docs/competitions.md). --no-sandbox trusts the "
    "bots with your files, your processes and the log.", _EVERY, defaults={TOURNAMENT: True},
)  # fmt: skip
SANDBOX_READ: Final = Option[tuple[str, ...]](
    "sandbox-read", str, (), "Sandboxed: a further file or folder every bot may read "
    "(repeatable).", _BOTS, unit="PATH", many=True, path=True,
)  # fmt: skip
OPTION: Final = Option[tuple[str, ...]](
    "option", str, (), "A bot option, PLAYER:NAME=VALUE (repeatable).", _MATCHES,
    unit="WHO:NAME=VALUE", many=True, in_config=False,
    helps={
        SPRT: "A bot option, PLAYER:NAME=VALUE, PLAYER being new, old, third or a name "
        "(repeatable; copies get their original's options).",
        TOURNAMENT: "A bot option, BOT:NAME=VALUE (repeatable; over a config file's options "
        "of that bot).",
    },
)  # fmt: skip
LOG: Final = Option[Path | None](
    "log", Path, None, "Write the deals to this new file (a normal match log).", _SEEDED,
    unit="FILE", path=True,
    helps={
        MATCH: "Write the game records to this new file (continue one: --resume).",
        PLAY: "The game log.",
        TOURNAMENT: "The tournament's log (a new file; continue one: --resume).",
    },
    default_texts={
        PLAY: "play-YYYYMMDD-HHMMSS.jsonl here", TOURNAMENT: "tournament-<id>.jsonl here"
    },
)  # fmt: skip
TRANSCRIPT: Final = Option[Path | None](
    "transcript", Path, None, "Write every line between the arena and the bots, both ways, "
    "with the time and the bot's name, to this file (like cutechess-cli's -debug; emptied "
    "first).", _BOTS, unit="FILE", path=True, in_config=False,
    helps={CHECK: "Write every line between the arena and the bot, both ways, with the time, "
           "to this file (emptied first); failed items show its end anyway."},
)  # fmt: skip
CPU: Final = Option[int | None](
    "cpu", int, None, "Run the arena and its bots on this CPU only (Linux): every wake-up then "
    "stays on one CPU, up to 2x the deals per second with fast C bots on a virtual machine; "
    "bots that think in several threads lose by it.", frozenset({MATCH, SPRT}), unit="N",
    least=0, in_config=False,
)  # fmt: skip
FORMAT: Final = Option[str](
    "format", str, TournamentSettings.format,
    "round-robin: a table for every 3 bots; gauntlet: the "
    "gauntlet's bot against every pair of the others (--gauntlet alone implies it); balanced: "
    "fewer tables, every bot at about as many and every pair meeting about as often (--tables "
    "or --meetings); lzf: as the Latvian federation plays, rounds at tables of four (three "
    "where the field does not divide), big points, reseating by standings (--rounds; --deals "
    "per round, default 24).", frozenset({TOURNAMENT}), choices=FORMATS,
)  # fmt: skip
ROUNDS: Final = Option[int | None](
    "rounds", int, None, "The lzf format's rounds (rating tournaments play at least 7).",
    frozenset({TOURNAMENT}), unit="N", least=1, default_text="7 with --format lzf",
)  # fmt: skip
TABLES: Final = Option[int | None](
    "tables", int, None, "A balanced schedule of this many tables.", frozenset({TOURNAMENT}),
    unit="N", least=1, default_text="from --meetings",
)  # fmt: skip
MEETINGS: Final = Option[int | None](
    "meetings", int, None, "A balanced schedule in which every pair of bots meets this often "
    "(exactly, where such a design exists: with 1, for 7, 9, 13, 15, … bots).",
    frozenset({TOURNAMENT}), unit="N", least=1, default_text="1, unless --tables",
)  # fmt: skip
KEEP_BOTS: Final = Option[bool](
    "keep-bots", bool, TournamentSettings.keep_bots,
    "Keep each bot running from one table to the next its worker "
    "plays (restarted after a fault, or when its CPU time nears --max-cpu-s). Unsandboxed "
    "bots only: a sandboxed process never meets the same cards twice, and every table plays "
    "the same deals.", frozenset({TOURNAMENT}),
)  # fmt: skip
GAUNTLET: Final = Option[str | None](
    "gauntlet", str, None, "The gauntlet's bot (implies --format gauntlet).",
    frozenset({TOURNAMENT}), unit="NAME", default_text="the first bot",
)  # fmt: skip
CONCURRENCY: Final = Option[int](
    "concurrency", int, TournamentSettings.concurrency,
    "Tables played at once, each in a process of its own.",
    frozenset({TOURNAMENT}), unit="N", least=1,
)  # fmt: skip
AFFINITY: Final = Option[bool](
    "affinity", bool, False, "Pin each table's process and its bots to a CPU of its own (round "
    "robin over the CPUs this process may use; Linux): with fast C bots 1.2-1.7x the deals per "
    "second when CPUs are idle, about 1.1x when every CPU has a table; bots that think in "
    "several threads lose by it.", frozenset({TOURNAMENT}),
)  # fmt: skip

BACKEND: Final = Option[str](
    "backend", str, "local", "local: the tables' worker processes run on this machine; ray: "
    "each table is a task on a Ray cluster (the 'ray' extra; "
    "docs/distributed.md), --concurrency of them at once.", frozenset({TOURNAMENT}),
    choices=("local", "ray"),
)  # fmt: skip
RAY_ADDRESS: Final = Option[str | None](
    "ray-address", str, None, "The Ray cluster's address (HOST:PORT of its head) for --backend "
    "ray.", frozenset({TOURNAMENT}), unit="ADDRESS",
    default_text="$RAY_ADDRESS, else the cluster this machine is part of",
)  # fmt: skip

#: Every declared option, in the order ``--help`` lists them.
OPTIONS: Final[tuple[Option[Any], ...]] = (
    SEED, RULES, DEALS, BLOCKS, DUPLICATE, MOVEMENT, MOVETIME, TC, FIXED_PACE, TIMEMARGIN,
    STARTUP_MS, PING_MS, ON_FAULT, FORFEIT_PENALTY, MAX_FAULTS, MAX_MEMORY_MB, MAX_CPU_S,
    MAX_PROCESSES, MAX_STDERR_MB, SANDBOX, SANDBOX_READ, OPTION, LOG, TRANSCRIPT, CPU, FORMAT,
    ROUNDS, GAUNTLET, TABLES, MEETINGS, CONCURRENCY, AFFINITY, KEEP_BOTS, BACKEND, RAY_ADDRESS,
)  # fmt: skip


def options_of(command: Command) -> tuple[Option[Any], ...]:
    """The options ``command`` takes, in the order ``--help`` lists them."""
    return tuple(option for option in OPTIONS if command in option.commands)
