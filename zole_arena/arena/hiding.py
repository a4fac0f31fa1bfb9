"""What a sandboxed match hides from its bots, even where it lies in a folder a bot may read:
the log, the stderr files, and the other bots' programs."""

from __future__ import annotations

import contextlib
import dataclasses
import os
from collections.abc import Sequence
from pathlib import Path

from zole_arena.isolation.sandbox import Sandbox, readable_paths
from zole_arena.players.command import split_command
from zole_arena.players.session import BotConfig

__all__ = ["make_hidden", "remove_empty", "seal"]


def _special(path: Path) -> bool:
    """A path under /dev or /proc (``--log /dev/null``): nothing to make or hide there."""
    return path.is_absolute() and path.parts[1:2] in (("dev",), ("proc",))


def seal(configs: list[BotConfig], sandbox: Sandbox | None, log: Path | None) -> list[BotConfig]:
    """The players' configurations with the match's sandbox, each hiding the log, the stderr
    files and the other bots' programs (its own program stays visible)."""
    if sandbox is None:
        return configs
    shared = [*sandbox.hidden]
    if log is not None and not _special(log):
        shared.append(str(log.absolute()))
    shared += [c.stderr_path for c in configs if c.stderr_path is not None]
    shared += [c.transcript for c in configs if c.transcript is not None]
    programs = []
    for config in configs:
        argv = split_command(config.command)
        programs.append(readable_paths(argv, config.cwd or os.getcwd())[1])
    sealed = []
    for index, config in enumerate(configs):
        others = [p for i, own in enumerate(programs) if i != index for p in own]
        hidden = tuple(dict.fromkeys([*shared, *others]))
        sealed.append(
            dataclasses.replace(config, sandbox=dataclasses.replace(sandbox, hidden=hidden))
        )
    return sealed


def make_hidden(configs: Sequence[BotConfig]) -> list[Path]:
    """Make the files the sandboxes hide that do not exist yet (the log, the stderr files):
    a file made after a sandbox was built inside a folder the bot may read would be visible
    to it. The files it made, so that a failed start can remove them again."""
    made: list[Path] = []
    for config in configs:
        for text in config.sandbox.hidden if config.sandbox is not None else ():
            path = Path(text)
            if not path.exists() and path.parent.is_dir() and not _special(path):
                with contextlib.suppress(OSError):
                    path.touch()
                    made.append(path)
    return made


def remove_empty(paths: Sequence[Path]) -> None:
    """Remove those of the files :func:`make_hidden` made that are still empty."""
    for path in paths:
        with contextlib.suppress(OSError):
            if path.stat().st_size == 0:
                path.unlink()
