"""The bundled bots and how a bot argument becomes a command.

Every command that takes a bot accepts a bundled bot's short name (``random``, ``rulebot``,
``cbot``, ``crandom``, ``searchbot``), a command line (split shell-style, never run by a
shell), and optionally a display name in front: ``NAME=COMMAND``. The C bots are compiled on
first use with the system's C compiler (``$CC``, else ``cc``) into the user's cache folder,
keyed by the source's hash, so an edited source is rebuilt and a built one is reused.
"""

from __future__ import annotations

import dataclasses
import difflib
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from importlib import resources
from pathlib import Path
from typing import Final

from zole_arena.errors import BotStartupError
from zole_arena.players.command import split_command

__all__ = [
    "BUNDLED",
    "BotSpec",
    "bundled_command",
    "c_compiler",
    "parse_bot_arg",
]


@dataclasses.dataclass(frozen=True)
class Bundled:
    """A bundled bot: its short name and what it is."""

    name: str
    description: str
    language: str


BUNDLED: Final = (
    Bundled("random", "plays a uniformly random legal action", "Python"),
    Bundled(
        "rulebot", "rule-based: bids on strong hands, buries well, plays with purpose", "Python"
    ),
    Bundled("cbot", "greedy rule-based bot written in C (built with cc on first use)", "C"),
    Bundled("crandom", "random legal actions, in 90 lines of C: the fastest bundled bot", "C"),
    Bundled(
        "searchbot",
        "the strongest: samples the hidden cards, solves each sample with open cards",
        "C",
    ),
)
#: The C bots: short name → source file in the bots' ``c`` folder.
_C_SOURCES: Final = {"cbot": "zolebot", "crandom": "crandom", "searchbot": "searchbot"}
_NAMES: Final = {b.name: b for b in BUNDLED}
_NAME_RE: Final = re.compile(r"^[A-Za-z0-9_.#+-]+$")


@dataclasses.dataclass(frozen=True)
class BotSpec:
    """A bot as given on the command line, resolved to an argument list."""

    name: str | None
    """The display name: given with ``NAME=``, or the bundled bot's name; None takes the
    name the bot gives itself."""
    argv: tuple[str, ...]


def _bots_dir() -> Path:
    return Path(str(resources.files("zole_arena_bots")))


def cache_dir() -> Path:
    """Where built bots are kept: ``$XDG_CACHE_HOME/zole-arena`` or ``~/.cache/zole-arena``."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "zole-arena"


def c_compiler() -> str | None:
    """The C compiler to use (``$CC`` or ``cc``/``gcc``/``clang``), or None."""
    for candidate in (os.environ.get("CC"), "cc", "gcc", "clang"):
        if candidate and shutil.which(candidate):
            return candidate
    return None


def build_c_program(source: Path, stem: str, defines: tuple[str, ...] = ()) -> Path:
    """Compile one C file into the cache (once per source content); the executable's path.

    ``defines`` are preprocessor symbols (``-D``) for a variant build; they are part of the key.

    :raises BotStartupError: no C compiler, or the build failed.
    """
    flags = [f"-D{d}" for d in defines]
    data = source.read_bytes()
    digest = hashlib.sha256(data + "".join(f"\0{f}" for f in flags).encode()).hexdigest()[:16]
    target = cache_dir() / f"{stem}-{digest}"
    if target.exists():
        return target
    compiler = c_compiler()
    if compiler is None:
        raise BotStartupError(
            f"{stem} is written in C and needs a C compiler: install gcc (or set CC)"
        )
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{stem}-", dir=target.parent)
    os.close(fd)
    try:
        proc = subprocess.run(
            [compiler, "-std=c99", "-O2", *flags, "-o", tmp, str(source)],
            capture_output=True,
            text=True,
            check=False,
        )
        if proc.returncode != 0:
            first = (proc.stderr.strip().splitlines() or ["no message"])[0]
            raise BotStartupError(f"building {source.name} with {compiler} failed: {first}")
        os.chmod(tmp, 0o755)
        os.replace(tmp, target)  # atomic: a concurrent build of the same source is harmless
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return target


def c_source(name: str) -> Path:
    """The C source file of a bundled C bot (``searchbot``: ``searchbot.c``).

    :raises KeyError: no bundled C bot of that name.
    """
    return _bots_dir() / "c" / f"{_C_SOURCES[name]}.c"


def bundled_command(name: str) -> tuple[str, ...]:
    """The argument list of a bundled bot, building it first if it is compiled.

    :raises KeyError: no bundled bot of that name.
    :raises BotStartupError: the bot needs a build that failed.
    """
    if name not in _NAMES:
        raise KeyError(name)
    folder = _bots_dir()
    if name == "random":
        return (sys.executable, str(folder / "random_bot.py"))
    if name == "rulebot":
        return (sys.executable, str(folder / "rule_bot.py"))
    source = _C_SOURCES[name]
    return (str(build_c_program(folder / "c" / f"{source}.c", source)),)


def describe_command(name: str) -> str:
    """The command behind a bundled bot's name, for people (without building anything)."""
    folder = _bots_dir()
    if name == "random":
        return f"{sys.executable} {folder / 'random_bot.py'}"
    if name == "rulebot":
        return f"{sys.executable} {folder / 'rule_bot.py'}"
    source = _C_SOURCES[name]
    return f"{cache_dir()}/{source}-<hash>  (built from {folder / 'c' / (source + '.c')})"


def parse_bot_arg(text: str) -> BotSpec:
    """Resolve a bot argument: ``NAME=COMMAND``, a bundled name, or a command line.

    :raises BotStartupError: an empty command, bad quoting, or a bad display name.
    """
    name: str | None = None
    command = text
    head, sep, rest = text.partition("=")
    if sep and head and " " not in head and "/" not in head:
        if not _NAME_RE.match(head):
            raise BotStartupError(f"bad bot name {head!r}: use letters, digits and _ . # + - only")
        name, command = head, rest
    command = command.strip()
    if command in _NAMES:
        return BotSpec(name or command, bundled_command(command))
    argv = tuple(split_command(command))
    if len(argv) == 1 and "/" not in argv[0] and shutil.which(argv[0]) is None:
        close = difflib.get_close_matches(argv[0], list(_NAMES), n=1)
        hint = f"did you mean {close[0]!r}? " if close else ""
        raise BotStartupError(
            f"no bundled bot or program {argv[0]!r} ({hint}'zole-arena bots' lists the "
            "bundled bots; give a path or a command line for your own)"
        )
    return BotSpec(name, argv)
