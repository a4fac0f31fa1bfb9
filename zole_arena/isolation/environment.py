"""The environment every bot starts with, sandboxed or not: one rule, so that a bot that passes
``check`` passes ``check --sandbox`` too, and the organizer's variables (tokens, keys, a
``PYTHONUNBUFFERED`` that hides a bot's missing flush) reach no bot by accident.

A bot gets, and only gets:

* from the arena's environment, where set: :data:`KEPT` (the program search path, the locale,
  the time zone, pyenv's choice of interpreter) and every variable whose name begins with
  :data:`BOT_PREFIX` (``ZOLE_BOT_``: how an organizer hands every bot a setting; a prefix of
  its own, so that the arena's own settings, ``ZOLE_ARENA_…``, and an organizer's
  ``ZOLE_…`` secrets stay the organizer's);
* ``PWD``, its current folder;
* ``HOME`` and ``TMPDIR``: the bot's own writable place — ``/tmp`` in a sandbox (its private
  one), the arena's own ``HOME`` and ``TMPDIR`` (else ``/tmp``) outside;
* ``PYTHONDONTWRITEBYTECODE=1`` (a sandbox's files are read-only; outside, bots leave no
  ``__pycache__`` folders in the organizer's tree);
* ``JAVA_TOOL_OPTIONS`` for a JVM, which reads it whatever its command line: ``-XX:MaxRAM=
  <limit>m`` where the bot's process has a memory limit — a JVM sizes its heap from the memory
  it believes the machine has (a quarter of it at most), and in a sandbox it sees the whole
  machine's, not its limit (a container's JVM reads its control group; a sandbox shows it
  none); told the limit, it keeps its heap within it and collects garbage before the kernel
  would stop it — and ``-XX:-UsePerfData``: no performance-counter file, whose lock a sandbox
  refuses (the JVM would say so on stdout, amid the protocol, at every start). The JVM says
  on stderr that it picked the variable up; a bot's own ``-Xmx`` still wins;
* then the variables the bot's configuration sets (:attr:`BotConfig.env
  <zole_arena.players.session.BotConfig.env>`), which win.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Final

__all__ = ["BOT_PREFIX", "KEPT", "bot_environment"]

#: The arena's variables every bot gets, where set.
KEPT: Final = ("PATH", "LANG", "LC_ALL", "LC_CTYPE", "LC_NUMERIC", "TZ", "PYENV_VERSION")
#: Variables whose names begin with this pass to every bot.
BOT_PREFIX: Final = "ZOLE_BOT_"


def bot_environment(
    extra: Mapping[str, str] | None = None,
    *,
    sandboxed: bool,
    arena: Mapping[str, str] | None = None,
    memory_mb: int | None = None,
) -> dict[str, str]:
    """The environment a bot starts with (see the module's text).

    :param extra: the bot's configuration's own variables, added last.
    :param memory_mb: the memory limit of the bot's process (its share, where a bot's
        processes share one), for the runtimes that size themselves from it.
    :param arena: the arena's environment (default: this process's).
    """
    source = os.environ if arena is None else arena
    env = {name: source[name] for name in KEPT if name in source}
    env.update({k: v for k, v in source.items() if k.startswith(BOT_PREFIX)})
    if sandboxed:
        env.update({"HOME": "/tmp", "TMPDIR": "/tmp"})
    else:
        env["HOME"] = source.get("HOME") or "/tmp"
        env["TMPDIR"] = source.get("TMPDIR") or "/tmp"
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    java = ["-XX:-UsePerfData"]
    if memory_mb is not None:
        java.insert(0, f"-XX:MaxRAM={memory_mb}m")
    env["JAVA_TOOL_OPTIONS"] = " ".join(java)
    env.update(extra or {})
    return env
