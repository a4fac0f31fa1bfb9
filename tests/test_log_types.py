"""A number of the wrong type anywhere in a crafted log is a finding, never a traceback.

Every whole number of a real log (a table of four's header, deals and settle; a tournament's
header and its tables' headers) is written in turn as ``4.0`` (its own value as a float),
``"4"`` and ``true``, the log chained anew as a forger would, and every reader — ``verify``,
``standings``, ``ratings``, ``report``, ``replay`` — must end with its one-line message or read
the log, and raise nothing else (``4.0 == 4`` in Python, so a check that compares a value
with a number and not its type lets a float through to code that multiplies by it).
"""

from __future__ import annotations

import copy
import json
import math
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer.main
import typer.testing
from clihelp import ok, rechained, zole
from typer.testing import CliRunner

from zole_arena.cli.main import app

pytestmark = pytest.mark.long  # minutes long: run first (conftest.py)

#: The readers, with the arguments that keep them fast.
READERS = (
    ("verify",),
    ("standings", "--bootstrap", "10"),
    ("ratings", "--bootstrap", "10"),
    ("report", "-o", "{dir}/page.html", "--bootstrap", "10"),
    ("replay",),
)


def _numbers(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """The paths of a record's numbers (of each list's first three items)."""
    if isinstance(value, bool):
        return
    if isinstance(value, int | float):
        yield path
    elif isinstance(value, dict):
        for key, item in value.items():
            if key != "prev":
                yield from _numbers(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value[:3]):
            yield from _numbers(item, (*path, index))


def _set(record: dict[str, Any], path: tuple[Any, ...], value: Any) -> None:
    for key in path[:-1]:
        record = record[key]
    record[path[-1]] = value


def _get(record: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        record = record[key]
    return record


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[dict[str, Any]]]:
    folder = tmp_path_factory.mktemp("typed")
    ok(zole("match", "rulebot", "random", "rulebot", "random", "--deals", "2", "--seed", "3",
            "--log", "four.jsonl", cwd=folder))  # fmt: skip
    ok(zole("tournament", "rulebot", "random", "rulebot", "--deals", "1", "--seed", "3",
            "--no-sandbox", "--log", "t.jsonl", cwd=folder))  # fmt: skip
    return {
        name: [json.loads(line) for line in (folder / f"{name}.jsonl").read_text().splitlines()]
        for name in ("four", "t")
    }


@pytest.mark.parametrize("log", ["four", "t"])
def test_every_number_of_the_wrong_type_gets_a_message(
    logs: dict[str, list[dict[str, Any]]], log: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    records = logs[log]
    runner = CliRunner()
    # the command is built once, not again at each of the thousand-odd invocations (0.1 s each)
    command = typer.main.get_command(app)
    monkeypatch.setattr(typer.testing, "_get_command", lambda _app: command)
    crafted = tmp_path / "x.jsonl"
    tried = 0
    broken = []
    shapes = set()
    for line, record in enumerate(records):
        for path in _numbers(record):
            # One number of each place in each kind of record: list items and later deals are
            # read by the same code as the first.
            shape = (record["type"], *(k if isinstance(k, str) else "#" for k in path))
            if shape in shapes:
                continue
            shapes.add(shape)
            value = _get(record, path)
            for wrong in (float(value), str(value), True) if isinstance(value, int) else ("4",):
                changed = copy.deepcopy(records)
                _set(changed[line], path, wrong)
                crafted.write_text(rechained(changed))
                for reader in READERS:
                    args = [reader[0], str(crafted), *(a.format(dir=tmp_path) for a in reader[1:])]
                    result = runner.invoke(app, args)
                    tried += 1
                    if result.exception is not None and not isinstance(
                        result.exception, SystemExit
                    ):
                        what = f"{type(result.exception).__name__}: {result.exception}"
                        broken.append(f"line {line} {path} = {wrong!r}: {reader[0]}: {what}")
    assert tried > 300
    assert not broken, "\n".join(broken[:20])


@pytest.mark.parametrize("constant", [math.nan, math.inf, -math.inf])
def test_nan_and_infinity_are_not_json_and_no_reader_takes_them(
    logs: dict[str, list[dict[str, Any]]], constant: float, tmp_path: Path
) -> None:
    """Python's json writes and reads ``NaN`` and ``Infinity``, which JSON has not: a think
    time written so must be a damaged line to every reader, not a figure (``nan`` ms)."""
    records = copy.deepcopy(logs["four"])
    deal = next(r for r in records if r["type"] == "deal")
    deal["moves"][0]["think_ms"] = constant
    crafted = tmp_path / "x.jsonl"
    crafted.write_text(rechained(records))
    assert ("NaN" if math.isnan(constant) else "Infinity") in crafted.read_text()
    verified = zole("verify", str(crafted), cwd=tmp_path)
    assert verified.returncode == 1 and "1 unreadable line" in verified.stdout
    runner = CliRunner()
    for reader in READERS[1:]:
        args = [reader[0], str(crafted), *(a.format(dir=tmp_path) for a in reader[1:])]
        result = runner.invoke(app, args)
        assert result.exception is None or isinstance(result.exception, SystemExit), reader
        assert not re.search(r"\b(nan|inf)\b", result.output.lower()), (reader, result.output)
