"""A bot's command line: split without a shell, named for people, its program checked before it
starts."""

from __future__ import annotations

import os
import re
import shlex
import shutil
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Final

from zole_arena.errors import (
    BotStartupError,
)

__all__ = [
    "program_name",
    "split_command",
]


#: Programs that run a script: a bot run by one is named after its script, not after them.
_INTERPRETERS: Final = re.compile(
    r"^(python[0-9.]*|pypy[0-9.]*|node|nodejs|deno|bun|ruby|perl|php|java|dotnet|mono|lua"
    r"|luajit|julia|Rscript|bash|sh|dash|zsh|env|uv|pipenv|poetry)(\.exe)?$"
)


_SCRIPT_SUFFIXES: Final = (".py", ".js", ".mjs", ".rb", ".pl", ".php", ".jar", ".lua", ".jl",
                           ".R", ".sh", ".exe")  # fmt: skip


#: An interpreter's options whose value is the next argument (Java's class and module paths).
_VALUED_OPTIONS: Final = frozenset({"-cp", "-classpath", "--class-path", "-p", "--module-path"})


def program_name(argv: Sequence[str]) -> str:
    """A short name for a bot given only as a command: its program's file name, or, for a
    script run by an interpreter (``python3 bots/mine.py``, ``java -jar zb.jar``), the
    script's, without a script suffix (``mine``, ``zb``). A character that does not show as
    itself (a control character in a file name) is shown as ``?``: a name is printable.

    >>> program_name(["/usr/bin/python3", "-u", "bots/mine.py", "--depth", "3"])
    'mine'
    >>> program_name(["./zolebot-1.2"])
    'zolebot-1.2'
    >>> program_name(["python3", "-m", "mybots.deep"]), program_name(["python3", "-c", "..."])
    ('deep', 'python3')
    >>> program_name(["java", "-cp", "build", "Bot"]), program_name(["mono", "Bot.exe"])
    ('Bot', 'Bot')
    >>> program_name(["./bot\\x1b[2J"])
    'bot?[2J'
    """
    name = _program_name(argv)
    return "".join(c if c.isprintable() else "?" for c in name) or "?"


def _program_name(argv: Sequence[str]) -> str:
    """:func:`program_name`, as the file names give it."""
    program = Path(argv[0]).name
    if _INTERPRETERS.match(program):
        skip = False
        for index, arg in enumerate(argv[1:], start=1):
            if skip:  # the value of an option: a class path, not the program
                skip = False
                continue
            if arg == "-c":  # code on the command line: no better name than the interpreter
                break
            if arg == "-m" and index + 1 < len(argv):  # python -m package.bot
                return argv[index + 1].rpartition(".")[2]
            if arg in _VALUED_OPTIONS:
                skip = True
                continue
            if not arg.startswith("-"):  # a script, or a Java class (``java -cp build Bot``)
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


def _no_such_program(program: str, cwd: str | os.PathLike[str] | None) -> BotStartupError:
    place = f" in {os.fspath(cwd)}" if cwd is not None else ""
    return BotStartupError(
        f"cannot start bot: no such program {program!r}{place} (check the command, or give a path)"
    )


def _not_executable(program: str) -> BotStartupError:
    return BotStartupError(
        f"cannot start bot: {program!r} is not executable (chmod +x it, or run it through its "
        "interpreter)"
    )


def _check_program(program: str, cwd: str, env: Mapping[str, str] | None) -> None:
    """Say, as an unsandboxed start would, that the program is missing or not executable.

    :raises BotStartupError: it is.
    """
    path_var = (env or os.environ).get("PATH", os.defpath)
    found = (os.path.join(cwd, program) if "/" in program else
             shutil.which(program, mode=os.F_OK, path=path_var))  # fmt: skip
    if found is None or not os.path.exists(found):
        raise _no_such_program(program, cwd)
    if os.path.isdir(found) or not os.access(found, os.X_OK):
        raise _not_executable(program)
