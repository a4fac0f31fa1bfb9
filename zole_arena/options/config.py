"""A tournament's TOML config file: its bots, and the values it sets for the tournament's
options, checked against their declarations (:mod:`zole_arena.options.registry`), with paths
taken from the file's folder."""

from __future__ import annotations

import dataclasses
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from zole_arena.events.schedule import TournamentError
from zole_arena.options.registry import TOURNAMENT, Option, OptionError, options_of
from zole_arena.options.values import bot_option
from zole_arena.records.checks import name_problem

__all__ = [
    "ConfigBot",
    "TournamentConfig",
    "config_options",
    "read_config",
]

_BOT_KEYS: Final = ("name", "command", "options")


def config_options() -> dict[str, Option[Any]]:
    """The options a config file may set, by key (``max_faults``; the file may also write
    ``max-faults``)."""
    return {option.key: option for option in options_of(TOURNAMENT) if option.in_config}


@dataclasses.dataclass(frozen=True)
class ConfigBot:
    """A bot of a config file, as written there (its command not yet resolved)."""

    name: str | None
    command: tuple[str, ...]
    """One string (a bundled bot's name or a command line) or an argument list."""
    options: Mapping[str, str]


@dataclasses.dataclass(frozen=True)
class TournamentConfig:
    """A config file: its bots and the option values it sets (relative paths taken from its
    folder); the command line's options override these."""

    path: Path
    bots: tuple[ConfigBot, ...]
    values: Mapping[Option[Any], object]

    @property
    def folder(self) -> Path:
        """The file's folder, which its relative paths are taken from."""
        return self.path.parent


def _from_folder(path: str, folder: Path) -> str:
    candidate = Path(path).expanduser()
    return str(candidate if candidate.is_absolute() else folder / candidate)


def _bot(number: int, bot: object) -> ConfigBot:
    if not isinstance(bot, dict) or "command" not in bot:
        raise OptionError(
            f'bot {number} needs a command, e.g. [[bots]] name = "mine" command = "./mybot"'
        )
    unknown = set(bot) - set(_BOT_KEYS)
    if unknown:
        raise OptionError(
            f"bot {number} has unknown key(s) {', '.join(sorted(unknown))} "
            f"(keys: {', '.join(_BOT_KEYS)})"
        )
    command = bot["command"]
    if isinstance(command, list) and command and all(isinstance(c, str) for c in command):
        argv = tuple(command)
    elif isinstance(command, str) and command.strip():
        argv = (command,)
    else:
        raise OptionError(f"bot {number}'s command must be a string or a list of strings")
    name = bot.get("name")
    if name is not None and not isinstance(name, str):
        raise OptionError(f"bot {number}'s name must be a string")
    if name is not None and (problem := name_problem(name)) is not None:
        raise OptionError(f"bot {number}'s name: {problem}")
    options = bot.get("options", {})
    if not isinstance(options, dict):
        raise OptionError(f"bot {number}'s options must be a table")
    try:
        pairs = [bot_option(str(key), value) for key, value in options.items()]
    except OptionError as exc:
        raise OptionError(f"bot {number}'s {exc}") from None
    return ConfigBot(name, argv, dict(pairs))


def read_config(path: str | Path) -> TournamentConfig:
    """A tournament's TOML config, every key and value checked.

    Keys: ``bots`` (a list of tables with ``command``, and optional ``name`` and ``options``),
    and every option of ``zole-arena tournament`` but ``--option`` (a bot's go in its
    ``options``) — ``format``, ``blocks``, ``seed``, ``max-faults``, … (a ``-`` in a key may
    be written ``_``), with the types and bounds of the command line. A relative ``log``,
    ``rules`` file or ``sandbox-read`` path is taken from the config's folder.

    :raises TournamentError: the file cannot be read, is not TOML, or has a bad key or value
        (one line naming the file and the key).
    """
    where = str(path)
    try:
        data = tomllib.loads(Path(path).read_text("utf-8"))
    except FileNotFoundError:
        raise TournamentError(f"config {where}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise TournamentError(f"config {where}: cannot read it: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise TournamentError(f"config {where}: not valid TOML: {exc}") from None
    folder = Path(path).parent
    known = config_options()
    values: dict[Option[Any], object] = {}
    bots: tuple[ConfigBot, ...] = ()
    try:
        for given_key, value in data.items():
            key = given_key.replace("-", "_")  # max-faults as on the command line, or max_faults
            if key == "bots":
                if not isinstance(value, list):
                    raise OptionError(f"bots must be a list of tables, not {value!r}")
                bots = tuple(_bot(number, bot) for number, bot in enumerate(value, start=1))
                continue
            option = known.get(key)
            if option is None:
                keys = ", ".join(["bots", *known])
                raise OptionError(f"unknown key {given_key!r} (keys: {keys})")
            checked = option.from_config(value, given_key)
            if option.path:
                checked = _resolved(option, checked, folder)
            values[option] = checked
    except OptionError as exc:
        raise TournamentError(f"config {where}: {exc}") from None
    return TournamentConfig(Path(path), bots, values)


def _resolved(option: Option[Any], value: Any, folder: Path) -> Any:
    """A path option's value with its relative paths taken from ``folder``."""
    if option.many:
        return tuple(_from_folder(item, folder) for item in value)
    if value in option.choices:
        return value
    resolved = _from_folder(str(value), folder)
    return Path(resolved) if isinstance(value, Path) else resolved
