"""Golden logs: logs written by earlier zole-arena versions (``tests/golden``) read, verify,
replay and rate exactly as they did when they were captured.

``tests/golden/expected.json`` holds what ``verify``, ``replay`` and ``ratings --json`` printed
for each golden log (exit code, stdout and stderr) with the zole-arena that wrote the format-2
logs, before the records became typed values; every case runs the real command again and must
print the same, byte for byte. ``python tests/test_golden_logs.py --write`` captures them anew
(only for a deliberate change of what the commands print: say why in the commit).

Each golden log is also read and written again, record by record: the writer must give back
every line's bytes (so the reader keeps all that a record holds, and the format is the same).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Final

import pytest

from zole_arena.records.model import FORMAT_VERSION
from zole_arena.records.reader import LogReader
from zole_arena.records.writer import LogWriter, encode, to_json

GOLDEN: Final = Path(__file__).resolve().parent / "golden"
EXPECTED: Final = GOLDEN / "expected.json"
LOGS: Final = sorted(path.name for path in GOLDEN.glob("format*.jsonl"))
#: Environment variables that change how rich lays out or colours the output.
_LAYOUT: Final = ("COLUMNS", "LINES", "FORCE_COLOR", "NO_COLOR", "TERM", "TTY_COMPATIBLE",
                  "TTY_INTERACTIVE")  # fmt: skip


def _cases() -> dict[str, list[str]]:
    """Each case's name and the command's arguments (run in the golden folder)."""
    cases: dict[str, list[str]] = {}
    for log in LOGS:
        cases[f"verify {log}"] = ["verify", log]
        cases[f"replay {log}"] = ["replay", log]
        cases[f"replay {log} --seat 1"] = ["replay", log, "--seat", "1"]
        cases[f"replay {log} --deal 2"] = ["replay", log, "--deal", "2"]
        cases[f"ratings {log} --json"] = ["ratings", log, "--json"]
        if "tournament" in log:
            cases[f"replay {log} --table 1"] = ["replay", log, "--table", "1"]
    cases["ratings all --json"] = ["ratings", *LOGS, "--json", "--bootstrap", "50"]
    return cases


CASES: Final = _cases()


def _run(args: list[str]) -> dict[str, object]:
    env = {key: value for key, value in os.environ.items() if key not in _LAYOUT}
    proc = subprocess.run([sys.executable, "-m", "zole_arena", *args], cwd=GOLDEN,
                          capture_output=True, text=True, timeout=300, check=False,
                          env=env)  # fmt: skip
    return {"code": proc.returncode, "stdout": proc.stdout, "stderr": proc.stderr}


def _expected() -> dict[str, dict[str, object]]:
    found: dict[str, dict[str, object]] = json.loads(EXPECTED.read_text("utf-8"))
    return found


def test_every_golden_log_has_its_captured_outputs() -> None:
    assert {"format1-match.jsonl", "format2-match.jsonl", "format2-sprt.jsonl",
            "format2-tournament.jsonl"} <= set(LOGS)  # fmt: skip
    assert set(_expected()) == set(CASES)


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_golden_log_reads_as_it_did(case: str) -> None:
    expected = _expected()[case]
    got = _run(CASES[case])
    assert got == expected, case
    if case.startswith("verify"):
        assert got["code"] == 0 and "deals verify — ok" in str(got["stdout"])


@pytest.mark.parametrize("log", LOGS)
def test_the_writer_writes_a_golden_log_back_byte_for_byte(log: str, tmp_path: Path) -> None:
    """Every line read and its record written again gives the line back: the reader keeps all
    the writer writes, and the writer writes the format as it was written then (the hash chain
    of a format-2 log included)."""
    original = (GOLDEN / log).read_bytes()
    entries = list(LogReader(GOLDEN / log))
    assert all(entry.problem is None for entry in entries)
    records = [entry.record for entry in entries if entry.record is not None]
    assert len(records) == original.count(b"\n")
    copy = tmp_path / log
    first = original[: original.index(b"\n") + 1]
    if entries[0].format_version == FORMAT_VERSION:
        copy.write_bytes(b"")
        rest = records
    else:  # the writer goes on in format 1 after a format-1 line
        copy.write_bytes(first)
        rest = records[1:]
        assert (
            encode(records[0])[len(b'{"format":"zole-arena","format_version":2,') :]
            == (first[len(b'{"format":"zole-arena","format_version":1,') :])
        )
    with LogWriter(copy) as writer:
        for record in rest:
            writer.write(record)
    assert copy.read_bytes() == original
    # What the worker messages carry: plain JSON values, no enum or other str subclass.
    assert all(_plain(to_json(record)) for record in records)


def _plain(value: object) -> bool:
    if isinstance(value, dict):
        return all(type(key) is str and _plain(item) for key, item in value.items())
    if isinstance(value, list):
        return all(_plain(item) for item in value)
    return value is None or type(value) in (str, int, float, bool)


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    captured = {case: _run(args) for case, args in sorted(CASES.items())}
    EXPECTED.write_text(json.dumps(captured, indent=1, ensure_ascii=False) + "\n", "utf-8")
    print(f"{len(captured)} cases written to {EXPECTED.name}")
