"""The root of the ``zole-arena`` command: global options, commands, and error handling.

A :class:`~zole_arena.errors.ZoleError` (bad rules file, bad notation, …) becomes a one-line
message on stderr and exit code 1; typer's own usage errors exit with 2. Any other exception is
a bug in zole-arena and shows its traceback.
"""

from __future__ import annotations

from typing import Annotated, Any, Final

import typer
from rich.markup import escape

from zole_arena import __version__
from zole_arena.cli.analyze_cmd import analyze_command
from zole_arena.cli.bench_cmd import bench_command
from zole_arena.cli.bots_cmd import bots_command, check_command
from zole_arena.cli.console import err, stop_for_broken_pipe
from zole_arena.cli.fairplay_cmd import fairplay_command
from zole_arena.cli.match_cmd import match_command
from zole_arena.cli.newbot_cmd import new_bot_command
from zole_arena.cli.play_cmd import play_command
from zole_arena.cli.ratings_cmd import ratings_command
from zole_arena.cli.replay_cmd import replay_command, verify_command
from zole_arena.cli.report_cmd import report_command
from zole_arena.cli.rules_cmd import rules_command
from zole_arena.cli.sprt_cmd import sprt_command
from zole_arena.cli.standings_cmd import standings_command
from zole_arena.cli.tournament_cmd import tournament_command
from zole_arena.cli.warm_cmd import warm_command
from zole_arena.errors import ZoleError

app = typer.Typer(
    name="zole-arena",
    help="Run bot competitions in Zole, the Latvian three-player card game.",
    no_args_is_help=True,
    rich_markup_mode=None,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        print(f"zole-arena {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version."),
    ] = False,
) -> None:
    """Run bot competitions in Zole, the Latvian three-player card game."""


app.command("rules")(rules_command)
app.command("bench")(bench_command)
app.command("bots")(bots_command)
app.command("check")(check_command)
app.command("new-bot")(new_bot_command)
app.command("match")(match_command)
app.command("replay")(replay_command)
app.command("standings")(standings_command)
app.command("report")(report_command)
app.command("verify")(verify_command)
app.command("tournament")(tournament_command)
app.command("ratings")(ratings_command)
app.command("analyze")(analyze_command)
app.command("fairplay")(fairplay_command)
app.command("sprt")(sprt_command)
app.command("play")(play_command)
app.command("warm")(warm_command)


#: typer's usage error (its own copy of click's), found from the public class derived from it:
#: typer's parser raises it for an unknown option or an extra argument.
UsageError: Final[type[Exception]] = typer.BadParameter.__mro__[1]
#: What every error of typer's parser derives from (it knows how to show itself).
ParserError: Final[type[Exception]] = UsageError.__mro__[1]

#: The commands whose arguments are bots' command lines.
_BOT_COMMANDS: Final = frozenset({"check", "match", "sprt", "tournament"})
#: What a usage error of theirs adds when the shell may have split a bot's command line.
QUOTE_HINT: Final = (
    "hint: a bot's command line is one argument: quote it, as in "
    'zole-arena check "java -cp build Bot" (or NAME="COMMAND")'
)


def _split_command_hint(exc: Any) -> str | None:
    """The hint to quote a bot's command, when a usage error of a bot command looks like the
    shell split one (an option the command does not have, ``-cp``; an extra argument)."""
    ctx = getattr(exc, "ctx", None)
    command = ctx.command.name if ctx is not None else None
    if command not in _BOT_COMMANDS:
        return None
    message = str(getattr(exc, "message", ""))
    if message.startswith("No such option") or "unexpected extra argument" in message:
        return QUOTE_HINT
    return None


def main() -> None:
    """Entry point of the ``zole-arena`` console script."""
    try:
        code = app(standalone_mode=False)
    except ParserError as exc:  # a usage error, shown as typer shows it, with our hint
        shown: Any = exc
        shown.show()
        hint = _split_command_hint(exc) if isinstance(exc, UsageError) else None
        if hint is not None:
            err.print(hint, highlight=False, markup=False)
        raise SystemExit(shown.exit_code) from None
    except typer.Abort:
        err.print("aborted")
        raise SystemExit(1) from None
    except ZoleError as exc:
        err.print(f"[bold red]error:[/] {escape(str(exc))}", highlight=False)
        raise SystemExit(1) from None
    except KeyboardInterrupt:
        err.print("interrupted")
        raise SystemExit(130) from None
    except BrokenPipeError:  # print_json's reader went away
        stop_for_broken_pipe()
    if isinstance(code, int) and code:
        raise SystemExit(code)
