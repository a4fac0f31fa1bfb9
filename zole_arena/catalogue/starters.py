"""Starter bots: a small, complete bot in each of several languages, for a bot author to copy
and make stronger (``zole-arena new-bot LANGUAGE FOLDER``).

Each lies in the bots' ``starters/<key>`` folder with its sources, a ``README.md`` and a
``starter.toml`` that says how to build and run it::

    language = "Java"
    build = "javac -d build Bot.java"   # "" when there is nothing to build
    run = "java -cp build Bot"          # from inside the bot's folder, after the build
    needs = ["javac", "java"]           # the programs the build and the run use
    debian = ["default-jdk-headless"]   # Debian's packages that bring them

Every starter plays the same sensible strategy, keeps the deal's state from the messages, and
passes ``zole-arena check`` plain and sandboxed under the default limits (the tests build and
check each one).
"""

from __future__ import annotations

import dataclasses
import os
import shutil
import tomllib
from importlib import resources
from pathlib import Path
from typing import Final

from zole_arena.errors import ZoleError

__all__ = ["ALIASES", "Starter", "StarterError", "copy_starter", "find_starter", "starters"]

#: Other names the languages go by.
ALIASES: Final = {"js": "javascript", "node": "javascript", "c#": "csharp", "cs": "csharp",
                  "py": "python", "golang": "go", "rs": "rust"}  # fmt: skip
#: What a copy leaves out: what a build or an interpreter made in the bots' folder.
_LEFT_OUT: Final = ("__pycache__", "target", "build", "bin", "obj", "bot", "Bot.exe", "*.pyc")


class StarterError(ZoleError):
    """No such starter, or it cannot be copied there."""


@dataclasses.dataclass(frozen=True)
class Starter:
    """One starter bot: its language and how to build and run it."""

    key: str
    """Its short name, the folder's: ``java``, ``csharp``."""
    language: str
    """The language's name: ``Java``, ``C#``."""
    build: str
    """The command that builds it, from inside its folder ("" when there is nothing to)."""
    run: str
    """The command that runs it, from inside its folder: what the arena is given."""
    needs: tuple[str, ...]
    """The programs the build and the run use."""
    debian: tuple[str, ...]
    """Debian's packages that bring them."""
    folder: Path

    @property
    def missing(self) -> tuple[str, ...]:
        """The programs it needs that this machine does not have (on ``PATH``)."""
        return tuple(p for p in self.needs if shutil.which(p) is None)

    @property
    def files(self) -> tuple[str, ...]:
        """Its files, relative to its folder (build outputs left out)."""
        found = []
        for path in sorted(self.folder.rglob("*")):
            relative = path.relative_to(self.folder)
            if path.is_file() and not any(relative.match(p) or p in relative.parts
                                          for p in _LEFT_OUT):  # fmt: skip
                found.append(str(relative))
        return tuple(found)


def _root() -> Path:
    return Path(str(resources.files("zole_arena_bots"))) / "starters"


def starters() -> tuple[Starter, ...]:
    """Every starter, by its key."""
    found = []
    for toml in sorted(_root().glob("*/starter.toml")):
        data = tomllib.loads(toml.read_text(encoding="utf-8"))
        found.append(
            Starter(
                key=toml.parent.name,
                language=str(data["language"]),
                build=str(data.get("build", "")),
                run=str(data["run"]),
                needs=tuple(data.get("needs", ())),
                debian=tuple(data.get("debian", ())),
                folder=toml.parent,
            )
        )
    return tuple(found)


def find_starter(language: str) -> Starter:
    """The starter of ``language`` (its key, its name or an alias; any case).

    :raises StarterError: there is none.
    """
    wanted = language.strip().lower()
    wanted = ALIASES.get(wanted, wanted)
    every = starters()
    for starter in every:
        if wanted in (starter.key, starter.language.lower()):
            return starter
    known = ", ".join(s.key for s in every)
    raise StarterError(f"no starter bot in {language!r}: there are {known}")


def copy_starter(starter: Starter, folder: str | os.PathLike[str], name: str) -> list[Path]:
    """Copy the starter's files into ``folder`` (made; it must not exist, or be empty), its
    ``id name`` made ``name``. The files written.

    :raises StarterError: the folder holds files already, or cannot be written.
    """
    target = Path(folder)
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise StarterError(f"{target} exists and is not an empty folder: choose a new one")
    placeholder = f"starter-{starter.key}"
    written = []
    try:
        for relative in starter.files:
            source = starter.folder / relative
            destination = target / relative
            destination.parent.mkdir(parents=True, exist_ok=True)
            data = source.read_bytes()
            if relative != "starter.toml":
                data = data.replace(placeholder.encode(), name.encode())
            destination.write_bytes(data)
            shutil.copymode(source, destination)
            written.append(destination)
    except OSError as exc:
        raise StarterError(f"cannot write {target}: {exc.strerror or exc}") from None
    return written
