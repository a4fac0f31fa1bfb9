"""The options declared once (``zole_arena.options.registry``) and everything made of them: the
``--help`` of every command that takes them, a tournament's config file, the settings they fill.

The help and the config are checked through the real command line (a process per command);
the declarations, the settings' defaults and the config reader in-process.
"""

from __future__ import annotations

import inspect
import json
import re
from pathlib import Path
from typing import Any

import pytest
from clihelp import ok, one_line_error, zole

from zole_arena.arena.check import run_check
from zole_arena.arena.referee import FaultPolicy, Referee
from zole_arena.arena.settings import MatchSettings
from zole_arena.events.schedule import TournamentError
from zole_arena.events.settings import TournamentSettings
from zole_arena.game.rules import load_rules
from zole_arena.game.shuffle import MAX_SEED
from zole_arena.options.config import config_options, read_config
from zole_arena.options.registry import (
    CONCURRENCY,
    MOVETIME,
    OPTIONS,
    PING_MS,
    SEED,
    STARTUP_MS,
    TIMEMARGIN,
    Command,
    Option,
    OptionError,
    options_of,
)
from zole_arena.options.values import (
    OptionValues,
    Source,
    assign_bot_options,
    parse_bot_option,
)
from zole_arena.players.limits import Limits
from zole_arena.players.session import BotConfig

_OPTION_LINE = re.compile(r"^  (?:-\w, )?(--[\w-]+)")


def _squashed(text: str) -> str:
    """Text without its white space: ``--help`` wraps lines anywhere."""
    return "".join(text.split())


def _help_entries(text: str) -> dict[str, str]:
    """The options of a ``--help`` text: each flag's whole entry, continuation lines joined."""
    entries: dict[str, str] = {}
    current: str | None = None
    for line in text.splitlines():
        match = _OPTION_LINE.match(line)
        if match:
            current = match.group(1)
            entries[current] = line
        elif current is not None and line.startswith("    "):
            entries[current] += " " + line
        else:
            current = None
    return entries


@pytest.fixture(scope="module")
def helps(tmp_path_factory: pytest.TempPathFactory) -> dict[Command, dict[str, str]]:
    folder = tmp_path_factory.mktemp("help")
    return {
        command: _help_entries(ok(zole(command.value, "--help", cwd=folder)).stdout)
        for command in Command
    }


@pytest.mark.parametrize("command", list(Command), ids=lambda c: c.value)
def test_every_declared_option_is_in_the_help_of_its_commands_with_its_default(
    helps: dict[Command, dict[str, str]], command: Command
) -> None:
    entries = helps[command]
    for option in OPTIONS:
        if command not in option.commands:
            assert option.flag not in entries, f"{command.value} should not take {option.flag}"
            continue
        assert option.flag in entries, f"{command.value} --help lacks {option.flag}"
        entry = _squashed(entries[option.flag])
        assert _squashed(option.help_in(command)) in entry
        shown = option.shown_default(command)
        if shown is None:
            assert "[default:" not in entry, entry
        else:
            assert entry.endswith(_squashed(f"[default: {shown}]")), entry


def test_the_help_shows_the_defaults_of_the_settings(
    helps: dict[Command, dict[str, str]],
) -> None:
    # The figures themselves, once: what a user reads is what the library does.
    match = {flag: _squashed(text) for flag, text in helps[Command.MATCH].items()}
    for flag, default in (
        ("--movetime", "2000"), ("--timemargin", "100"), ("--startup-ms", "10000"),
        ("--ping-ms", "5000"), ("--max-memory-mb", "2048"), ("--max-cpu-s", "600"),
        ("--max-processes", "256"), ("--max-stderr-mb", "10"), ("--max-faults", "3"),
        ("--on-fault", "forfeit"), ("--rules", "wpt"), ("--duplicate", "no-duplicate"),
        ("--sandbox", "no-sandbox"),
    ):  # fmt: skip
        assert match[flag].endswith(f"[default:{default}]"), (flag, match[flag])
    tournament = {flag: _squashed(text) for flag, text in helps[Command.TOURNAMENT].items()}
    for flag, default in (("--sandbox", "sandbox"), ("--duplicate", "with--no-sandbox"),
                          ("--blocks", "10"), ("--concurrency", "1")):  # fmt: skip
        assert tournament[flag].endswith(f"[default:{default}]"), (flag, tournament[flag])
    assert "overrides" in _squashed(helps[Command.TOURNAMENT]["--config"])


def test_the_defaults_of_the_settings_are_the_declared_ones() -> None:
    defaults = OptionValues(Command.MATCH)
    plain = MatchSettings(load_rules(), seed=1, deals=1)
    assert defaults.match_settings(deals=1, duplicate=False, sandbox=None, seed=1) == plain
    assert defaults.fault_policy() == FaultPolicy() == plain.policy
    assert defaults.limits() == Limits() == plain.limits
    assert (plain.movetime_ms, plain.margin_ms) == (MOVETIME.default, TIMEMARGIN.default)
    bot = BotConfig("x")
    assert (bot.startup_ms, bot.ping_ms) == (STARTUP_MS.default, PING_MS.default)
    assert defaults.bot_config("x", None) == BotConfig("x", options={})
    referee = inspect.signature(Referee).parameters
    check = inspect.signature(run_check).parameters
    assert referee["time_ms"].default == check["time_ms"].default == MOVETIME.default
    assert referee["margin_ms"].default == check["margin_ms"].default == TIMEMARGIN.default
    assert TournamentSettings.concurrency == CONCURRENCY.default


def test_the_declarations_are_whole() -> None:
    names = [option.name for option in OPTIONS]
    assert len(names) == len(set(names))
    for option in OPTIONS:
        assert option.commands, option.name
        assert option.help.endswith("."), option.name
        for command in (*option.defaults, *option.helps, *option.default_texts):
            assert command in option.commands, (option.name, command)
        for command in option.commands:
            default = option.default_in(command)
            assert option.problem(default) is None, (option.name, default)
    assert {option.key for option in options_of(Command.TOURNAMENT) if option.in_config} == set(
        config_options()
    )


def test_one_bounds_check_words_every_bad_value() -> None:
    assert MOVETIME.problem(0) == "must be at least 1, not 0"
    assert TIMEMARGIN.problem(-5) == "must be at least 0, not -5"
    assert SEED.problem(-1) == f"must be from 0 to {MAX_SEED}, not -1"
    assert SEED.problem(MAX_SEED + 1) is not None and SEED.problem(MAX_SEED) is None
    on_fault = next(o for o in OPTIONS if o.name == "on-fault")
    assert on_fault.problem("maybe") == "must be forfeit or random, not 'maybe'"
    with pytest.raises(TournamentError, match="concurrency must be at least 1, not 0"):
        TournamentSettings((), MatchSettings(load_rules(), 1, 1), concurrency=0)
    with pytest.raises(
        TournamentError, match="format must be round-robin, gauntlet, balanced or lzf"
    ):
        TournamentSettings((), MatchSettings(load_rules(), 1, 1), format="swiss")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("match", "random", "random", "random", "--seed", str(MAX_SEED + 1)),
         f"--seed must be from 0 to {MAX_SEED}, not {MAX_SEED + 1}"),
        (("sprt", "rulebot", "random", "--seed", "-1"), "--seed must be from 0 to"),
        (("play", "--seed", "-3"), "--seed must be from 0 to"),
        (("tournament", "random", "random", "rulebot", "--seed", "-2"), "--seed must be from"),
        (("play", "--movetime", "0"), "--movetime must be at least 1, not 0"),
        (("play", "--deals", "0"), "--deals must be from 1 to 1000000000, not 0"),
        (("sprt", "rulebot", "random", "--ping-ms", "0"), "--ping-ms must be at least 1, not 0"),
        (("check", "random", "--max-memory-mb", "-1"), "--max-memory-mb must be at least 0"),
        (("match", "random", "random", "random", "--max-stderr-mb", "-1"), "--max-stderr-mb"),
        (("tournament", "random", "random", "rulebot", "--format", "swiss"),
         "--format must be round-robin, gauntlet, balanced or lzf, not 'swiss'"),
        (("tournament", "random", "random", "rulebot", "--concurrency", "0"),
         "--concurrency must be at least 1, not 0"),
        (("sprt", "rulebot", "random", "--on-fault", "x"), "--on-fault must be forfeit or random"),
    ],
)  # fmt: skip
def test_a_bad_value_is_one_line_in_every_command(
    tmp_path: Path, args: tuple[str, ...], needle: str
) -> None:
    one_line_error(zole(*args, cwd=tmp_path), needle)
    assert list(tmp_path.iterdir()) == []  # nothing was started or written


# -- a tournament's config file ---------------------------------------------------------------


def _wrong_value(option: Option[Any]) -> tuple[str, str]:
    """A TOML value of the wrong type for ``option``, and what the message says it must be."""
    if option.many:
        return '"x"', "must be a list of paths, not 'x'"
    if option.kind is int:
        return '"3"', "must be a whole number, not '3'"
    if option.kind is bool:
        return "1", "must be true or false, not 1"
    if option.kind is Path:
        return "5", "must be a path, not 5"
    return "true", "must be a string, not true"


@pytest.mark.parametrize("key", sorted(config_options()))
def test_a_config_value_of_the_wrong_type_is_named(tmp_path: Path, key: str) -> None:
    option = config_options()[key]
    value, needle = _wrong_value(option)
    written = option.name  # as on the command line: max-faults (max_faults is taken too)
    (tmp_path / "t.toml").write_text(f"{written} = {value}\n")
    with pytest.raises(TournamentError) as caught:
        read_config(tmp_path / "t.toml")
    message = str(caught.value)
    assert message == f"config {tmp_path / 't.toml'}: {written} {needle}"


@pytest.mark.parametrize(
    "option",
    [o for o in config_options().values() if o.least is not None or (o.choices and not o.or_file)],
    ids=lambda o: o.name,
)
def test_a_config_value_out_of_bounds_is_named_as_on_the_command_line(
    tmp_path: Path, option: Option[Any]
) -> None:
    value: object = '"nonsense"' if option.choices else (option.least or 0) - 1
    (tmp_path / "t.toml").write_text(f"{option.name} = {value}\n")
    with pytest.raises(TournamentError) as caught:
        read_config(tmp_path / "t.toml")
    bad = "nonsense" if option.choices else (option.least or 0) - 1
    assert str(caught.value) == f"config {tmp_path / 't.toml'}: {option.name} {option.problem(bad)}"


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("movetime = 0\n", "config t.toml: movetime must be at least 1, not 0"),
        ("seed = -1\n", f"config t.toml: seed must be from 0 to {MAX_SEED}, not -1"),
        ("max_cpu_s = -1\n", "config t.toml: max_cpu_s must be at least 0, not -1"),
        ('on-fault = "sometimes"\n', "config t.toml: on-fault must be forfeit or random"),
        ('movetime = "fast"\n', "config t.toml: movetime must be a whole number, not 'fast'"),
        ("movetime = [1000]\n", "config t.toml: movetime must be a whole number, not [1000]"),
        ("turns = 3\n", "config t.toml: unknown key 'turns' (keys: bots, seed, rules, "),
        ('option = ["a:b=c"]\n', "config t.toml: unknown key 'option'"),
        ('[[bots]]\ncommand = "rulebot"\noptions = { Deep = [1] }\n',
         "config t.toml: bot 1's option Deep must be a string, a number or true/false"),
    ],
)  # fmt: skip
def test_a_bad_config_file_is_one_line_naming_the_key(
    tmp_path: Path, text: str, needle: str
) -> None:
    (tmp_path / "t.toml").write_text(text)
    one_line_error(zole("tournament", "--config", "t.toml", cwd=tmp_path), needle)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.toml"]


def test_a_config_file_is_read_into_typed_values(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "event.toml").write_text(
        'log = "out/e.jsonl"\nrules = "lzf"\nsandbox-read = ["data", "/abs"]\nmax_faults = 7\n'
        '[[bots]]\nname = "a"\ncommand = ["python3", "a.py"]\n'
        "options = { Aggression = 90, Fast = true, Style = \"calm\" }\n"
    )  # fmt: skip
    config = read_config(tmp_path / "sub" / "event.toml")
    by_name = {option.name: value for option, value in config.values.items()}
    assert by_name == {
        "log": tmp_path / "sub" / "out" / "e.jsonl",
        "rules": "lzf",  # a preset, not a file in the config's folder
        "sandbox-read": (str(tmp_path / "sub" / "data"), "/abs"),
        "max-faults": 7,
    }
    (bot,) = config.bots
    assert (bot.name, bot.command) == ("a", ("python3", "a.py"))
    # The same values a --option gives: setoption sends text, true/false for a switch.
    assert bot.options == {"Aggression": "90", "Fast": "true", "Style": "calm"}
    assert parse_bot_option("a:Aggression=90") == ("a", "Aggression", "90")
    assert parse_bot_option("a:=90") is None and parse_bot_option("a-Aggression=90") is None


def test_bot_options_are_assigned_by_name_or_role() -> None:
    assert assign_bot_options(["new:A=1", "rulebot:B=x=y"], ["rulebot", "cbot"],
                              aliases={"new": 1}) == [{"B": "x=y"}, {"A": "1"}]  # fmt: skip
    with pytest.raises(OptionError, match="no bot named 'x' \\(bots: a, b\\)"):
        assign_bot_options(["x:A=1"], ["a", "b"], word="bot")


def test_the_command_line_overrides_the_config_file_option_by_option(tmp_path: Path) -> None:
    (tmp_path / "c.toml").write_text(
        "deals = 4\nduplicate = false\nmovetime = 1500\nformat = 'gauntlet'\n"
    )
    config = read_config(tmp_path / "c.toml").values
    by_name = {option.name: option for option in OPTIONS}
    given = {by_name["blocks"]: 2, by_name["duplicate"]: True}
    values = OptionValues(Command.TOURNAMENT, given).with_config(config)
    assert values[by_name["blocks"]] == 2 and values[by_name["deals"]] is None  # one choice
    assert values[by_name["duplicate"]] is True
    assert values[MOVETIME] == 1500 and values.source(MOVETIME) is Source.CONFIG
    assert values[by_name["format"]] == "gauntlet"
    assert values.source(CONCURRENCY) is Source.DEFAULT and values.given == [
        by_name["blocks"], by_name["duplicate"]
    ]  # fmt: skip


CONFIG = (
    "deals = 4\nduplicate = false\nmovetime = 1500\nmax-faults = 5\nseed = 7\n"
    'rules = "lzf"\nsandbox = false\non_fault = "random"\n'
    '[[bots]]\ncommand = "rulebot"\n[[bots]]\ncommand = "random"\n'
    '[[bots]]\nname = "other"\ncommand = "rulebot"\noptions = { Aggression = 10 }\n'
)


def test_the_config_file_alone_sets_the_tournament(tmp_path: Path) -> None:
    (tmp_path / "t.toml").write_text(CONFIG)
    proc = ok(zole("tournament", "--config", "t.toml", "--log", "t.jsonl", "--json", cwd=tmp_path))
    assert json.loads(proc.stdout)["deals"] == 4
    header = json.loads((tmp_path / "t.jsonl").read_text().splitlines()[0])
    assert (header["duplicate"], header["deals"], header["seed"]) == (False, 4, 7)
    assert header["rules"]["preset"] == "lzf" and header["settings"]["sandbox"] is None
    settings = header["settings"]
    assert (settings["movetime_ms"], settings["max_faults"], settings["on_fault"]) == (
        1500, 5, "random"
    )  # fmt: skip
    assert {e["name"]: e["options"] for e in header["entrants"]}["other"] == {"Aggression": "10"}


def test_every_option_on_the_command_line_overrides_the_config_file(tmp_path: Path) -> None:
    (tmp_path / "t.toml").write_text(CONFIG)
    proc = ok(zole(
        "tournament", "--config", "t.toml", "--duplicate", "--blocks", "1", "--movetime", "900",
        "--max-faults", "1", "--seed", "8", "--rules", "wpt", "--on-fault", "forfeit",
        "--option", "other:Aggression=70", "--log", "t.jsonl", "--json", cwd=tmp_path,
    ))  # fmt: skip
    assert json.loads(proc.stdout)["deals"] == 6  # one duplicate block, not 4 plain deals
    header = json.loads((tmp_path / "t.jsonl").read_text().splitlines()[0])
    assert (header["duplicate"], header["deals"], header["seed"]) == (True, 1, 8)
    assert header["rules"]["preset"] == "wpt"
    settings = header["settings"]
    assert (settings["movetime_ms"], settings["max_faults"], settings["on_fault"]) == (
        900, 1, "forfeit"
    )  # fmt: skip
    assert settings["sandbox"] is None  # the file's, as nothing here said otherwise
    assert {e["name"]: e["options"] for e in header["entrants"]}["other"] == {"Aggression": "70"}


def test_resume_refuses_every_option_the_log_decides(tmp_path: Path) -> None:
    ok(zole("match", "random", "random", "random", "--deals", "1", "--log", "m.jsonl",
            cwd=tmp_path))  # fmt: skip
    line = one_line_error(zole("match", "--resume", "m.jsonl", "--movetime", "500",
                               "--max-faults", "2", cwd=tmp_path))  # fmt: skip
    assert line.endswith("--resume takes everything from the log: give no --movetime, --max-faults")
