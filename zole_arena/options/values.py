"""The values of a command's options — given on the command line, set by a tournament's
config file, or declared defaults (:mod:`zole_arena.options.registry`) — and the settings they
make: a match's settings, its fault policy, a bot's limits and how to start it; and the one
parse of a bot's options (``--option WHO:NAME=VALUE`` and a config's ``options`` tables)."""

from __future__ import annotations

import enum
import secrets
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar, cast

from zole_arena.arena.referee import FaultPolicy
from zole_arena.arena.settings import MatchSettings
from zole_arena.game.clock import TimeControl
from zole_arena.game.rules import load_rules
from zole_arena.game.shuffle import MAX_SEED
from zole_arena.isolation.sandbox import Sandbox
from zole_arena.options.registry import (
    BLOCKS,
    DEALS,
    FIXED_PACE,
    FORFEIT_PENALTY,
    FORMAT,
    GAUNTLET,
    MAX_CPU_S,
    MAX_FAULTS,
    MAX_MEMORY_MB,
    MAX_PROCESSES,
    MAX_STDERR_MB,
    MIB,
    MOVETIME,
    ON_FAULT,
    OPTIONS,
    PING_MS,
    RULES,
    SEED,
    STARTUP_MS,
    TC,
    TIMEMARGIN,
    TRANSCRIPT,
    Command,
    Option,
    OptionError,
)
from zole_arena.players.limits import Limits
from zole_arena.players.session import BotConfig

__all__ = [
    "OptionValues",
    "Source",
    "assign_bot_options",
    "bot_option",
    "parse_bot_option",
]

T = TypeVar("T")


class Source(enum.Enum):
    """Where an option's value came from; the command line overrides a config file."""

    DEFAULT = "default"
    CONFIG = "config"
    COMMAND_LINE = "command line"


class OptionValues:
    """The values of a command's options: given on the command line, else set by a config
    file, else the command's default — and the settings they make."""

    def __init__(
        self,
        command: Command,
        command_line: Mapping[Option[Any], object] | None = None,
        config: Mapping[Option[Any], object] | None = None,
    ) -> None:
        self.command = command
        self._given = dict(command_line or {})
        self._config = dict(config or {})
        for option in (*self._given, *self._config):
            if command not in option.commands:
                raise ValueError(f"{command.value} takes no {option.flag}")

    def with_config(self, config: Mapping[Option[Any], object]) -> OptionValues:
        """These values over a config file's. An option given on the command line overrides
        the file's; giving one of ``--blocks`` and ``--deals`` drops both from the file (they
        are one choice), and so does giving ``--format`` or ``--gauntlet``, or ``--movetime``
        or ``--tc``."""
        dropped = set(self._given)
        for pair in ((BLOCKS, DEALS), (FORMAT, GAUNTLET), (MOVETIME, TC)):
            if any(option in self._given for option in pair):
                dropped.update(pair)
        kept = {option: value for option, value in config.items() if option not in dropped}
        return OptionValues(self.command, self._given, kept)

    def takes(self, option: Option[Any]) -> bool:
        """Whether the command takes ``option``."""
        return self.command in option.commands

    def __getitem__(self, option: Option[T]) -> T:
        """The option's value; an option the command does not take has its plain default."""
        if option in self._given:
            return cast(T, self._given[option])
        if option in self._config:
            return cast(T, self._config[option])
        return option.default_in(self.command) if self.takes(option) else option.default

    def source(self, option: Option[Any]) -> Source:
        """Where the option's value came from."""
        if option in self._given:
            return Source.COMMAND_LINE
        return Source.CONFIG if option in self._config else Source.DEFAULT

    @property
    def given(self) -> list[Option[Any]]:
        """The options given on the command line, in declaration order."""
        return [option for option in OPTIONS if option in self._given]

    # -- what they make ------------------------------------------------------------------------

    def seed(self) -> int:
        """The seed given, or a new random one at each call."""
        seed = self[SEED]
        return secrets.randbelow(MAX_SEED + 1) if seed is None else seed

    def fault_policy(self) -> FaultPolicy:
        """What the referee does with a bot's fault."""
        on_fault = self[ON_FAULT]
        return FaultPolicy(
            on_fault="random" if on_fault == "random" else "forfeit",
            penalty=self[FORFEIT_PENALTY],
            max_faults=self[MAX_FAULTS],
        )

    def time_control(self) -> TimeControl | None:
        """The game clock (``--tc``), or None: ``--movetime`` for each decision.

        :raises OptionError: both given, on the command line or in a config file.
        """
        text = self[TC]
        if text is None:
            return None
        if self.source(MOVETIME) is not Source.DEFAULT:
            where = "in the config file" if self.source(TC) is Source.CONFIG else "together"
            raise OptionError(
                f"--tc and --movetime are two ways to give the time: give one, not both {where}"
            )
        return TimeControl.parse(text)

    def fixed_pace(self) -> bool:
        """Whether to pace every request by the move time (``--fixed-pace``).

        :raises OptionError: with a game clock (``--tc``): it paces by ``--movetime``.
        """
        if self[FIXED_PACE] and self[TC] is not None:
            raise OptionError("--fixed-pace paces by --movetime: give it without --tc")
        return bool(self[FIXED_PACE])

    def limits(self) -> Limits:
        """What each bot may use (0 on the command line: no limit)."""
        return Limits(
            memory_mb=self[MAX_MEMORY_MB] or None,
            cpu_seconds=self[MAX_CPU_S] or None,
            processes=self[MAX_PROCESSES] or None,
            stderr_bytes=self[MAX_STDERR_MB] * MIB or None,
        )

    def bot_config(
        self,
        command: str | tuple[str, ...],
        name: str | None,
        *,
        options: Mapping[str, str] | None = None,
        stderr_path: str | None = None,
        sandbox: Sandbox | None = None,
    ) -> BotConfig:
        """How to start a bot with these times and limits."""
        return BotConfig(
            command=command,
            name=name,
            options=dict(options or {}),
            startup_ms=self[STARTUP_MS],
            ping_ms=self[PING_MS],
            limits=self.limits(),
            stderr_path=stderr_path,
            sandbox=sandbox,
            transcript=self.transcript(),
        )

    def transcript(self) -> str | None:
        """The transcript file (``--transcript``) as an absolute path, or None."""
        path = self[TRANSCRIPT]
        return None if path is None else str(Path(path).absolute())

    def match_settings(
        self, *, deals: int, duplicate: bool, sandbox: Sandbox | None, seed: int | None = None
    ) -> MatchSettings:
        """A match's settings with these rules, times, fault policy and limits; ``seed``:
        the one to play (default: :meth:`seed`).

        :raises RulesError: the rules are neither a preset nor a good rules file.
        """
        return MatchSettings(
            rules=load_rules(self[RULES]),
            seed=self.seed() if seed is None else seed,
            deals=deals,
            duplicate=duplicate,
            movetime_ms=self[MOVETIME],
            tc=self.time_control(),
            fixed_pace=self.fixed_pace(),
            margin_ms=self[TIMEMARGIN],
            startup_ms=self[STARTUP_MS],
            ping_ms=self[PING_MS],
            policy=self.fault_policy(),
            limits=self.limits(),
            sandbox=sandbox,
        )


# -- bot options -----------------------------------------------------------------------------------


def bot_option(name: str, value: object) -> tuple[str, str]:
    """A bot option's name and value as ``setoption`` sends them: a value from a config file
    may be a string, a whole number or true/false (sent as ``true`` or ``false``).

    :raises OptionError: an empty name, or a value of another type (the message's end, after
        whose option it is).
    """
    if not name.strip():
        raise OptionError("an option needs a name")
    if isinstance(value, bool):
        return name, "true" if value else "false"
    if isinstance(value, str | int | float):
        return name, str(value)
    raise OptionError(f"option {name} must be a string, a number or true/false, not {value!r}")


def parse_bot_option(text: str) -> tuple[str, str, str] | None:
    """``WHO:NAME=VALUE`` (``--option``) as (who, name, value); None if it is not written so."""
    who, colon, rest = text.partition(":")
    name, equals, value = rest.partition("=")
    if not colon or not equals or not name.strip():
        return None
    name, value = bot_option(name, value)
    return who, name, value


def assign_bot_options(
    texts: Sequence[str],
    names: Sequence[str],
    *,
    word: str = "player",
    aliases: Mapping[str, int] | None = None,
) -> list[dict[str, str]]:
    """``--option WHO:NAME=VALUE`` values, per bot (in the order of ``names``); WHO is a bot's
    display name or one of ``aliases`` (sprt's new, old, third).

    :raises OptionError: one written otherwise, or for a bot that is not there.
    """
    aliases = aliases or {}
    per_bot: list[dict[str, str]] = [{} for _ in names]
    for text in texts:
        parsed = parse_bot_option(text)
        if parsed is None:
            raise OptionError(
                f"bad --option {text!r}: write {word.upper()}:NAME=VALUE, e.g. "
                f"{names[0]}:Aggression=80"
            )
        who, name, value = parsed
        if who.lower() in aliases:
            index = aliases[who.lower()]
        elif who in names:
            index = list(names).index(who)
        else:
            known = ", ".join([*aliases, *names])
            raise OptionError(f"--option {text!r}: no {word} named {who!r} ({word}s: {known})")
        per_bot[index][name] = value
    return per_bot
