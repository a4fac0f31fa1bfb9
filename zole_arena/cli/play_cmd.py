"""``zole-arena play``: a person plays Zole against two bots in the terminal."""

from __future__ import annotations

import datetime
import signal
from pathlib import Path
from typing import Annotated

import typer

from zole_arena.arena.match import Match, stderr_path
from zole_arena.arena.settings import unique_names
from zole_arena.catalogue.bundled import parse_bot_arg
from zole_arena.cli.console import check_new_log, fail, out
from zole_arena.cli.options import sandbox_setting, takes_options
from zole_arena.options.registry import DEALS, LOG, PLAY, SANDBOX
from zole_arena.options.values import OptionValues
from zole_arena.players.command import program_name
from zole_arena.players.human import HUMAN_COMMAND, HumanPlayer
from zole_arena.players.session import BotConfig


@takes_options(PLAY)
def play_command(
    bots: Annotated[
        list[str] | None,
        typer.Option(
            "--bots",
            help="The two opponents (give --bots twice): bundled names or commands. "
            "Default: rulebot twice.",
            show_default=False,
        ),
    ] = None,
    *,
    values: OptionValues,
    name: Annotated[str, typer.Option(help="Your name in the log.")] = "you",
) -> None:
    """Play Zole against two bots: you sit in seat 0, the deal passes to the left, every
    deal is logged (replay and verify it like any match). Ctrl-C ends the session."""
    signal.signal(signal.SIGINT, signal.default_int_handler)
    opponents = bots or ["rulebot", "rulebot"]
    if len(opponents) != 2:
        fail(f"give two opponents with --bots (twice), not {len(opponents)}")
    log = values[LOG]
    if log is None:
        stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
        log = Path(f"play-{stamp}.jsonl")
    check_new_log(log)
    isolation = sandbox_setting(values[SANDBOX])
    deals = values[DEALS]
    assert deals is not None  # play's default is a number
    settings = values.match_settings(deals=deals, duplicate=False, sandbox=isolation)
    specs = [parse_bot_arg(b) for b in opponents]
    names = unique_names([name] + [s.name or program_name(s.argv) for s in specs])
    human = HumanPlayer()
    configs = [BotConfig.in_process(human, name=names[0], command=HUMAN_COMMAND)] + [
        values.bot_config(
            spec.argv, bot_name, stderr_path=stderr_path(log, bot_name), sandbox=isolation
        )
        for spec, bot_name in zip(specs, names[1:], strict=True)
    ]
    match = Match(configs, settings, log)
    human.seat_names = lambda: [player.name for player in match.referee.seats]
    out.print(
        f"Zole ({settings.rules.name}) against {names[1]} and {names[2]}: {deals} "
        f"deal{'s' if deals != 1 else ''}, seed {settings.seed}. Log: {log}. Ctrl-C ends the "
        "session."
    )
    try:
        summary = match.run()
    except KeyboardInterrupt:  # the bots are stopped and the log is complete by then
        summary = match.summary()
    out.print()
    played = f"{summary.deals} deal{'s' if summary.deals != 1 else ''}"
    if summary.stopped:
        out.print(f"Session ended ({summary.stopped}) after {played}.")
    out.print(f"Totals after {played}:")
    for player in sorted(summary.players, key=lambda p: -p.points):
        out.print(f"  {player.name:<12} {player.points:+5d}")
    if summary.deals:
        out.print(f"Replay it with: zole-arena replay {log}")
    else:
        out.print("No deal was finished, so there is nothing to replay.")
        if log.exists() and len(log.read_text().splitlines()) <= 1:
            log.unlink()  # only the header: no game to keep
    if summary.stopped is not None and summary.stopped.interrupted:
        raise typer.Exit(130)
