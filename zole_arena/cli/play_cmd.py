"""``zole-arena play``: a person plays Zole against two bots in the terminal."""

from __future__ import annotations

import datetime
import secrets
import signal
from pathlib import Path
from typing import Annotated

import typer

from zole_arena.arena.match import Match, stderr_path
from zole_arena.arena.settings import MatchSettings, unique_names
from zole_arena.cli.bots_cmd import SandboxOption, sandbox_setting
from zole_arena.cli.console import check_new_log, fail, out
from zole_arena.cli.rules_cmd import RulesOption
from zole_arena.game.rules import load_rules
from zole_arena.game.shuffle import MAX_SEED
from zole_arena.players.botproc import program_name
from zole_arena.players.bundled import parse_bot_arg
from zole_arena.players.human import HUMAN_COMMAND, HumanPlayer
from zole_arena.players.session import BotConfig


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
    rules: RulesOption = "wpt",
    seed: Annotated[int | None, typer.Option(help="Match seed; default: a random one.")] = None,
    deals: Annotated[int, typer.Option(help="Deals to play.")] = 3,
    movetime: Annotated[int, typer.Option(help="Milliseconds per bot decision.")] = 2000,
    log: Annotated[
        Path | None,
        typer.Option(help="The game log (default: play-YYYYMMDD-HHMMSS.jsonl here)."),
    ] = None,
    name: Annotated[str, typer.Option(help="Your name in the log.")] = "you",
    sandbox: SandboxOption = False,
) -> None:
    """Play Zole against two bots: you sit in seat 0, the deal passes to the left, every
    deal is logged (replay and verify it like any match). Ctrl-C ends the session."""
    signal.signal(signal.SIGINT, signal.default_int_handler)
    opponents = bots or ["rulebot", "rulebot"]
    if len(opponents) != 2:
        fail(f"give two opponents with --bots (twice), not {len(opponents)}")
    if deals < 1:
        fail("--deals must be at least 1")
    if movetime < 1:
        fail("--movetime must be positive")
    if seed is None:
        seed = secrets.randbelow(MAX_SEED + 1)
    elif not 0 <= seed <= MAX_SEED:
        fail(f"--seed must be from 0 to {MAX_SEED}")
    if log is None:
        stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
        log = Path(f"play-{stamp}.jsonl")
    check_new_log(log)
    isolation = sandbox_setting(sandbox)
    resolved = load_rules(rules)
    specs = [parse_bot_arg(b) for b in opponents]
    names = unique_names([name] + [s.name or program_name(s.argv) for s in specs])
    human = HumanPlayer()
    configs = [BotConfig.in_process(human, name=names[0], command=HUMAN_COMMAND)] + [
        BotConfig(
            command=spec.argv,
            name=bot_name,
            startup_ms=10_000,
            stderr_path=stderr_path(log, bot_name),
            sandbox=isolation,
        )
        for spec, bot_name in zip(specs, names[1:], strict=True)
    ]
    settings = MatchSettings(
        rules=resolved, seed=seed, deals=deals, movetime_ms=movetime, sandbox=isolation
    )
    match = Match(configs, settings, log)
    human.seat_names = lambda: [player.name for player in match.referee.seats]
    out.print(
        f"Zole ({resolved.name}) against {names[1]} and {names[2]}: {deals} "
        f"deal{'s' if deals != 1 else ''}, seed {seed}. Log: {log}. Ctrl-C ends the session."
    )
    summary = match.run()
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
    if summary.stopped == "interrupted":
        raise typer.Exit(130)
