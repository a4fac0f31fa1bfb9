"""The loop every fault bot shares: a well-behaved bot's handshake, ``isready`` and ``quit``,
with each bot's fault in its answer to ``go`` (or in what it does before the handshake).

Not a bot: the fault bots beside it import it (the folder of a bot's script is on its
``sys.path``, and a sandbox binds it). Every fault bot first appends ``bot <pid>`` to the file
named by ``$ZOLE_BOT_FAULT_PIDS`` (if set), so that tests can prove nothing of it is left.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable

Fields = dict[str, str]


def report_pid(*children: int) -> None:
    """Append ``bot <pid>`` (and ``child <pid>`` for each of ``children``) to the pid file."""
    path = os.environ.get("ZOLE_BOT_FAULT_PIDS")
    if path:
        with open(path, "a") as file:
            file.write(f"bot {os.getpid()}\n" + "".join(f"child {c}\n" for c in children))


def first_legal(fields: Fields) -> str:
    """The first legal action (a bury: the first two legal cards)."""
    legal = fields["legal"].split(",")
    return " ".join(legal[:2]) if fields["phase"] == "bury" else legal[0]


def action(fields: Fields) -> str:
    """The answer of a bot that plays correctly: the first legal action."""
    return f"action {fields['id']} {first_legal(fields)}"


def serve(
    name: str,
    on_go: Callable[[Fields], str | None],
    *,
    on_zole: Callable[[], None] | None = None,
    quits: bool = True,
) -> None:
    """Read the arena's lines until ``quit`` (or, with ``quits`` false, until the input
    closes): the handshake as ``name`` (after ``on_zole``), ``readyok``, and for each ``go``
    the line ``on_go`` returns for its fields (None: no answer)."""
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "zole":
            if on_zole is not None:
                on_zole()
            print(f"id name {name}\nid author zole-arena tests\nzoleok 1", flush=True)
        elif words[0] == "isready":
            print("readyok", flush=True)
        elif words[0] == "go":
            answer = on_go(dict(zip(words[1::2], words[2::2], strict=False)))
            if answer is not None:
                sys.stdout.write(answer + "\n")
                sys.stdout.flush()
        elif words[0] == "quit" and quits:
            break
