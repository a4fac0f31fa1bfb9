"""A tournament's TOML config file: read, checked key by key, with paths taken from its folder."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

from zole_arena.events.schedule import TournamentError
from zole_arena.game.rules import PRESETS

__all__ = [
    "read_config",
]


def read_config(path: str | Path) -> dict[str, Any]:
    """A tournament's TOML config, checked key by key (paths made relative to its folder).

    Keys: ``bots`` (a list of tables with ``command``, and optional ``name`` and ``options``),
    ``format``, ``gauntlet``, ``blocks``, ``deals``, ``duplicate``, ``rules``, ``seed``,
    ``movetime``, ``timemargin``, ``startup_ms``, ``ping_ms``, ``on_fault``,
    ``forfeit_penalty``, ``max_faults``, ``max_memory_mb``, ``max_cpu_s``, ``max_processes``,
    ``max_stderr_mb``, ``sandbox``, ``sandbox_read`` (paths from the config's folder),
    ``concurrency``, ``affinity``, ``log`` (a ``-`` in a key
    may be written ``_``, and the other way round). A relative ``log`` or ``rules`` file, and
    a bot ``command`` whose program is a relative path (``./mybot``), are taken from the
    config's folder.

    :raises TournamentError: the file cannot be read, is not TOML, or has a bad key or value.
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
    kinds: dict[str, tuple[type, ...]] = {
        "bots": (list,),
        "format": (str,),
        "gauntlet": (str,),
        "blocks": (int,),
        "deals": (int,),
        "duplicate": (bool,),
        "rules": (str,),
        "seed": (int,),
        "movetime": (int,),
        "timemargin": (int,),
        "startup_ms": (int,),
        "ping_ms": (int,),
        "on_fault": (str,),
        "forfeit_penalty": (int,),
        "max_faults": (int,),
        "max_memory_mb": (int,),
        "max_cpu_s": (int,),
        "concurrency": (int,),
        "affinity": (bool,),
        "log": (str,),
        "sandbox": (bool,),
        "sandbox_read": (list,),
        "max_processes": (int,),
        "max_stderr_mb": (int,),
    }
    kind_names = {str: "a string", int: "a whole number", bool: "true or false", list: "a list"}
    folder = Path(path).parent
    config: dict[str, Any] = {}
    for given_key, value in data.items():
        key = given_key.replace("-", "_")  # max-faults as on the command line, or max_faults
        if key not in kinds:
            raise TournamentError(
                f"config {where}: unknown key {given_key!r} (keys: {', '.join(kinds)})"
            )
        if not isinstance(value, kinds[key]) or (
            isinstance(value, bool) and bool not in kinds[key]
        ):
            raise TournamentError(
                f"config {where}: {given_key} must be {kind_names[kinds[key][0]]}, not "
                f"{json.dumps(value) if isinstance(value, bool) else repr(value)}"
            )
        config[key] = value
    readable = config.get("sandbox_read")
    if readable is not None:
        if not all(isinstance(path, str) for path in readable):
            raise TournamentError(f"config {where}: sandbox-read must be a list of paths")
        config["sandbox_read"] = [
            str(Path(p).expanduser() if Path(p).expanduser().is_absolute() else folder / p)
            for p in readable
        ]
    for key in ("log", "rules"):
        value = config.get(key)
        if value is None or (key == "rules" and value in PRESETS):
            continue
        candidate = Path(value).expanduser()
        config[key] = str(candidate if candidate.is_absolute() else folder / candidate)
    bots = []
    for number, bot in enumerate(config.get("bots", []), start=1):
        if not isinstance(bot, dict) or "command" not in bot:
            raise TournamentError(
                f"config {where}: bot {number} needs a command, e.g. "
                '[[bots]] name = "mine" command = "./mybot"'
            )
        unknown = set(bot) - {"name", "command", "options"}
        if unknown:
            raise TournamentError(
                f"config {where}: bot {number} has unknown key(s) {', '.join(sorted(unknown))} "
                "(keys: name, command, options)"
            )
        command = bot["command"]
        if isinstance(command, list) and all(isinstance(c, str) for c in command) and command:
            argv = list(command)
        elif isinstance(command, str) and command.strip():
            argv = [command]
        else:
            raise TournamentError(
                f"config {where}: bot {number}'s command must be a string or a list of strings"
            )
        options = bot.get("options", {})
        if not isinstance(options, dict):
            raise TournamentError(f"config {where}: bot {number}'s options must be a table")
        name = bot.get("name")
        if name is not None and not isinstance(name, str):
            raise TournamentError(f"config {where}: bot {number}'s name must be a string")
        bots.append(
            {
                "name": name,
                "command": argv,
                "options": {str(k): str(v) for k, v in options.items()},
            }
        )
    config["bots"] = bots
    config["folder"] = str(folder)
    return config
