"""Before a tournament begins: every entrant started once with its options and stopped again,
side by side, so that a bot that cannot play at all stops the tournament before its log."""

from __future__ import annotations

import concurrent.futures
import dataclasses
import os
from collections.abc import Collection, Sequence
from pathlib import Path

from zole_arena.arena.settings import MatchSettings
from zole_arena.errors import BotError, printable
from zole_arena.events.schedule import Entrant, TournamentError
from zole_arena.players.session import BotSession
from zole_arena.protocol import plays_at, tables_said

__all__ = [
    "check_entrants",
]


def check_entrants(
    entrants: Sequence[Entrant],
    match: MatchSettings,
    sizes: Collection[int] = (3,),
) -> None:
    """Start every bot once, with its options, and stop it again: a tournament should not
    begin (and write a log) when one of its bots cannot play at all. The bots start side by
    side, so a field of slow starters costs the slowest start, not the sum.

    :param sizes: the table sizes the tournament seats bots at: a bot that says at its
        handshake that it does not play at one of them (``id tables 3``) is refused.
    :raises TournamentError: a bot cannot be started, does not complete the handshake, or
        rejects one of its options; the message names it and says why.
    """
    for entrant in entrants:
        if entrant.cwd is not None and not Path(entrant.cwd).is_dir():
            raise TournamentError(
                f"bot {entrant.name}: its folder {printable(str(entrant.cwd))} "
                "does not exist any more"
            )

    def start(entrant: Entrant) -> str | None:
        config = entrant.config(match)
        if config.sandbox is not None:  # the log is not made yet: nothing to hide there
            existing = tuple(p for p in config.sandbox.hidden if os.path.exists(p))
            config = dataclasses.replace(
                config, sandbox=dataclasses.replace(config.sandbox, hidden=existing)
            )
        try:
            session = BotSession(config)
        except BotError as exc:
            return f"bot {entrant.name} cannot play: {exc}"
        said = ",".join(map(str, tables_said(session.ids)))
        missing = [size for size in sorted(sizes) if not plays_at(session.ids, size)]
        session.quit()
        if missing:
            return (
                f"bot {entrant.name} plays only at tables of {said} (its 'id tables' line); "
                f"this tournament seats it at tables of {missing[0]}"
            )
        return None

    with concurrent.futures.ThreadPoolExecutor(max_workers=min(8, len(entrants))) as pool:
        problems = [p for p in pool.map(start, entrants) if p is not None]
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise TournamentError(f"{problems[0]}{more}; the tournament was not started")
