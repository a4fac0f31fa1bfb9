"""The declared options (:mod:`zole_arena.options.registry`) as typer options: a command takes
them with :func:`takes_options`, each checked as it is parsed, with its default in ``--help``.

A bad value ends the command with one line naming the flag and exit code 1, as every bad value
does (typer's own ``min``/``max`` and choices would make it a usage error: four lines and exit
code 2, kept for a command line that cannot be parsed at all).
"""

from __future__ import annotations

import functools
import inspect
import os
import typing
from collections.abc import Callable
from typing import Annotated, Any

import typer

from zole_arena.cli.console import fail
from zole_arena.game.rules import PRESETS
from zole_arena.isolation.sandbox import Sandbox, SandboxUnavailable, check_available
from zole_arena.options.registry import LOG, Command, Option, options_of
from zole_arena.options.values import OptionValues
from zole_arena.players.transcript import start_transcript

__all__ = [
    "RulesOption",
    "help_text",
    "sandbox_setting",
    "takes_options",
    "typer_option",
]

CommandFunction = Callable[..., None]

#: ``--rules`` of the commands that take a rule set and nothing else of the declared options
#: (``rules``, ``bench``).
RulesOption = Annotated[
    str,
    typer.Option(
        "--rules",
        "-r",
        help="Rules: a preset or a TOML rules file naming a preset.",
        metavar="|".join((*PRESETS, "FILE")),
    ),
]
_CONTEXT = "_typer_context"


def help_text(option: Option[Any], command: Command) -> str:
    """The option's help in ``command``, with the default it shows (if any)."""
    shown = option.shown_default(command)
    return option.help_in(command) + (f"  [default: {shown}]" if shown is not None else "")


def _metavar(option: Option[Any]) -> str | None:
    if option.choices:
        return "|".join(option.choices) + ("|FILE" if option.or_file else "")
    return option.unit or None


def _checker(option: Option[Any]) -> Callable[[Any], Any]:
    def check(value: Any) -> Any:
        problem = option.problem(value)
        if problem is not None:
            fail(f"{option.flag} {problem}")
        return value

    return check


def typer_option(option: Option[Any], command: Command) -> Any:
    """The typer option of ``option`` in ``command`` (an ``Annotated`` metadata)."""
    names = [f"{option.flag}/--no-{option.name}" if option.kind is bool else option.flag]
    if option.short is not None:
        names.append(option.short)
    return typer.Option(
        *names,
        help=help_text(option, command),
        show_default=False,
        metavar=_metavar(option),
        callback=_checker(option),
    )


def _parameter(option: Option[Any], command: Command) -> inspect.Parameter:
    kind: Any = option.kind
    default = option.default_in(command)
    if option.many:
        python_type, default = list[kind] | None, None  # typer's repeatable options are lists
    elif default is None:
        python_type = kind | None
    else:
        python_type = kind
    annotated: Any = Annotated
    return inspect.Parameter(
        option.key,
        inspect.Parameter.KEYWORD_ONLY,
        default=default,
        annotation=annotated[python_type, typer_option(option, command)],
    )


def takes_options(command: Command) -> Callable[[CommandFunction], CommandFunction]:
    """Give a command function the declared options of ``command``, in place of its keyword
    parameter ``values`` (where ``--help`` lists them); it is called with their values as an
    :class:`~zole_arena.options.values.OptionValues`, which knows the ones given on the
    command line."""
    declared = options_of(command)

    def decorate(func: CommandFunction) -> CommandFunction:
        hints = typing.get_type_hints(func, include_extras=True)
        # typer hands the command its context here: it knows where each value came from.
        context_parameter = inspect.Parameter(
            _CONTEXT, inspect.Parameter.KEYWORD_ONLY, annotation=typer.Context
        )
        parameters: list[inspect.Parameter] = []
        for parameter in inspect.signature(func).parameters.values():
            if parameter.name == "values":
                parameters += [_parameter(option, command) for option in declared]
                parameters.append(context_parameter)
            else:
                parameters.append(parameter.replace(annotation=hints[parameter.name]))

        @functools.wraps(func)
        def run(**kwargs: Any) -> None:
            context: typer.Context = kwargs.pop(_CONTEXT)
            given: dict[Option[Any], object] = {}
            for option in declared:
                value = kwargs.pop(option.key)
                source = context.get_parameter_source(option.key)
                if source is not None and source.name == "COMMANDLINE":
                    given[option] = tuple(value) if option.many else value
            func(**kwargs, values=OptionValues(command, given))

        run.__signature__ = inspect.Signature(parameters, return_annotation=None)  # type: ignore[attr-defined]
        run.__annotations__ = {p.name: p.annotation for p in parameters}
        return run

    return decorate


def sandbox_setting(enabled: bool, readable: tuple[str, ...] = ()) -> Sandbox | None:
    """The sandbox the options ask for, after checking that bubblewrap works here; a machine
    where it cannot ends the command with one line saying what to do."""
    if not enabled:
        if readable:
            fail("--sandbox-read goes with --sandbox")
        return None
    for path in readable:
        if not os.path.exists(path):
            fail(f"--sandbox-read {path}: no such file or folder")
    try:
        check_available()
    except SandboxUnavailable as exc:
        fail(str(exc))
    return Sandbox(readable=tuple(os.path.abspath(path) for path in readable))


def start_transcript_file(values: OptionValues) -> str | None:
    """Make (or empty) the ``--transcript`` file and write its first line; its absolute path,
    or None without the option. A file that cannot be written ends the command with one line.
    """
    path = values.transcript()
    if path is not None:
        log = values[LOG] if values.takes(LOG) else None
        if log is not None and os.path.realpath(log) == os.path.realpath(path):
            fail(f"--transcript {path}: it is the log too: give each a file of its own")
        try:
            start_transcript(path)
        except OSError as exc:
            fail(f"--transcript {path}: {exc.strerror or exc}")
    return path
