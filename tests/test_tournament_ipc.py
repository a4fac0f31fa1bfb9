"""The channel between a tournament and its workers: JSON lines that nothing can turn into code.

The messages round-trip; every kind of bad line is a :class:`MessageError`, never another
exception; a real worker process refuses a bad task with one line; and real tournaments with the
hostile bot ``tests/hostile_bots/ipc_injector.py`` at a table, which writes into its worker's
channel (a pickle that would create a file, a forged record, a record of another table, an
unknown kind, a line too long), stop with one line and keep their log whole and unforged.

The forged record is the hard case: it is a copy of a real deal with the right match id, deal
number, block, seating and players, written before the worker's own deal 1, so no check of the
line alone can tell it from the worker's. The tournament checks each record against what the
table must send next and writes a record only when the worker's next message confirms it: the
worker's real deal 1 then comes where deal 2 was due, the tournament stops, and the forged record
(held, not written) never reaches the log. A stop, not a silent rejection, because from then on
the tournament cannot tell which of the worker's messages are the worker's.
"""

from __future__ import annotations

import dataclasses
import json
import os
import socket
import subprocess
import sys
import types
import typing
import uuid
from pathlib import Path
from typing import Any

import pytest
from clihelp import ok, one_line_error
from clihelp import zole as run_zole
from prochelp import marked_processes

from zole_arena.arena.referee import FaultPolicy
from zole_arena.arena.settings import MatchSettings
from zole_arena.arena.stop import Disqualification, Stop, StopReason
from zole_arena.events.messages import (
    MAX_MESSAGE_BYTES,
    LineReader,
    NoMoreTables,
    Ready,
    RecordMessage,
    TableDone,
    TableFailed,
    Task,
    WorkerExit,
    decode_parent_message,
    decode_worker_message,
    encode,
)
from zole_arena.events.plain import MessageError, from_plain, to_plain
from zole_arena.events.table_checks import check_stop
from zole_arena.game.rules import load_rules
from zole_arena.players.limits import Limits
from zole_arena.players.session import BotConfig
from zole_arena.records.model import DealRecord, MatchHeader, TableOf
from zole_arena.records.reader import read_log

TESTS = Path(__file__).resolve().parent
#: Records of a real tournament (its first table's header and deals) to send in messages.
GOLDEN = read_log(TESTS / "golden" / "format2-tournament.jsonl")[0]
HEADER = next(r for r in GOLDEN if isinstance(r, MatchHeader))
DEALS = [r for r in GOLDEN if isinstance(r, DealRecord) and r.match_id == HEADER.match_id]
INJECTOR = TESTS / "hostile_bots" / "ipc_injector.py"
PY = sys.executable
FAST = ("--movetime", "1000")


# -- messages -----------------------------------------------------------------------------------


def _sample(kind: Any, name: str) -> Any:
    """A value of type ``kind`` unlike any default, for a field with no value in the test."""
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin in (typing.Union, types.UnionType):
        return _sample(next(a for a in args if a is not type(None)), name)
    if origin is typing.Literal:
        return args[-1]
    if origin is tuple:
        return (
            (_sample(args[0], name),)
            if args[-1] is Ellipsis
            else tuple(_sample(a, name) for a in args)
        )
    if origin in (dict, typing.get_origin(typing.Mapping[str, str])):
        return {"k": _sample(args[1], name)}
    if kind is bool:
        return True
    if kind is int:
        return 12345
    if kind is float:
        return 1.5
    if kind is str:
        return f"sample-{name}"
    if kind is Path:
        return Path(f"/sample/{name}")
    if dataclasses.is_dataclass(kind):
        return _filled(kind, {})
    raise AssertionError(f"no sample value for {name}: {kind!r}; give one in the test")


def _filled(cls: Any, values: dict[str, Any]) -> Any:
    """An instance of ``cls`` with ``values``, and a sample in every other field, so that a
    field added later is carried too, or this test says it is not."""
    hints = typing.get_type_hints(cls)
    fields = [f for f in dataclasses.fields(cls) if f.init]
    given = {f.name: values[f.name] if f.name in values else _sample(hints[f.name], f.name)
             for f in fields}  # fmt: skip
    return cls(**given)


def _task(paced: bool = False) -> Task:
    """A task with a sample in every field; ``paced``: at a fixed pace (then with no game
    clock, which a fixed pace cannot have), else with a clock."""
    limits = _filled(Limits, {"memory_mb": 512, "cpu_seconds": None})
    config = _filled(
        BotConfig,
        {
            "command": ("python3", "-u", "bot.py", "--depth", "3"),
            "name": "mine",
            "cwd": "/srv/bots",
            "env": {"PATH": "/usr/bin", "ZOLE": "ä ∞"},
            "options": {"Aggression": "90"},
            "startup_ms": 777,
            "ping_ms": 888,
            "limits": limits,
            "stderr_path": "/tmp/x.stderr",
            "log_path": None,
            "bot": None,  # a Python object seated in-process: no worker can be sent one
            "group": None,  # a live control group: a worker's referee makes its own
        },
    )
    shell = dataclasses.replace(config, command="rulebot --fast", env=None, name=None)
    policy = _filled(FaultPolicy, {"on_fault": "random", "penalty": 12, "max_faults": 7})
    settings = _filled(
        MatchSettings,
        {
            "rules": load_rules("lzf"),
            "seed": 2**63 + 5,
            "deals": 3,
            "duplicate": True,
            "movetime_ms": 1500,
            "margin_ms": 20,
            "startup_ms": 999,
            "ping_ms": 444,
            "policy": policy,
            "limits": limits,
            **({"fixed_pace": True, "tc": None} if paced else {"fixed_pace": False}),
        },
    )
    return Task(
        table=3,
        match_id="abc-t3",
        configs=(config, shell, config),
        settings=settings,
        part_of=TableOf("abc", 3),
        started=True,
        records=tuple(DEALS[:2]),
    )


@pytest.mark.parametrize(
    "message",
    [
        Ready(),
        RecordMessage(2, HEADER),
        RecordMessage(2, DEALS[0]),
        TableDone(4, None),
        TableDone(4, Stop(StopReason.DISQUALIFIED, (Disqualification("x", 4, 3),))),
        TableDone(4, Stop(StopReason.INTERRUPTED)),
        TableFailed(1, "bot cheat cannot play: it ended during the handshake"),
        WorkerExit(),
        NoMoreTables(),
        _task(),
        _task(paced=True),
    ],
    ids=lambda m: type(m).__name__,
)
def test_every_message_round_trips_as_one_line_of_json(message: Any) -> None:
    line = encode(message)
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    data = json.loads(line)
    assert data["kind"] == message.KIND
    decode = decode_parent_message if isinstance(message, Task | NoMoreTables) else (
        decode_worker_message
    )  # fmt: skip
    assert decode(line[:-1]) == message


def test_a_done_message_says_why_as_the_table_stops_and_as_people_read_it() -> None:
    stop = Stop(StopReason.DISQUALIFIED, (Disqualification("x", 4, 3),))
    data = json.loads(encode(TableDone(4, stop)))
    assert data["stopped"]["reason"] == "disqualified"
    assert data["stopped"]["disqualified"] == [{"name": "x", "faults": 4, "limit": 3}]
    assert str(stop) == "disqualified: x (4 faults, more than the limit of 3)"
    names = ("x", "y", "z")
    check_stop(stop, names)
    check_stop(Stop(StopReason.INTERRUPTED), names)
    # What a table never stops for, or a bot that is not at it, is a forgery: refused.
    for forged in [
        Stop(StopReason.DISQUALIFIED, (Disqualification("\x1b[2Jroot", 4, 3),)),
        Stop(StopReason.DISQUALIFIED),
        Stop(StopReason.INTERRUPTED, (Disqualification("x", 4, 3),)),
        Stop(StopReason.ERROR, message="disk full"),
        Stop(StopReason.MAX_BLOCKS),
        Stop(StopReason.UNFINISHED, unfinished=2),
    ]:
        with pytest.raises(MessageError, match="a done message that stops for"):
            check_stop(forged, names)


def test_a_task_carries_every_setting_as_plain_data() -> None:
    task = _task()
    back = decode_parent_message(encode(task)[:-1])
    assert isinstance(back, Task)
    assert back.configs == task.configs
    assert back.configs[0].command == ("python3", "-u", "bot.py", "--depth", "3")
    assert back.configs[1].command == "rulebot --fast"
    assert back.settings == task.settings
    assert back.settings.rules.source == "lzf"
    assert back.settings.rules.bids == task.settings.rules.bids
    assert back.settings.seed == 2**63 + 5
    assert back.part_of == TableOf("abc", 3)
    assert back.records == task.records and len(back.records) == 2
    # Plain data all the way down: nothing but JSON types in what goes over the socket.
    plain = to_plain(task.settings)
    assert json.loads(json.dumps(plain)) == plain


def _edit(**changes: Any) -> Any:
    return lambda record: record.update(changes)


@pytest.mark.parametrize(
    ("record", "edit", "needle"),
    [
        (DEALS[0], _edit(format_version=1), "a record not of format version 2"),
        (DEALS[0], _edit(format="other"), "a record that does not start with format"),
        (
            DEALS[0],
            _edit(hands=[["QC", "XX"], [], []]),
            "a record that cannot be read (deal 1: hands is",
        ),
        (DEALS[0], _edit(type="note"), 'a "note" record, not a match header or a deal'),
        (HEADER, _edit(seed=-1), "a match header that is not valid (seed is -1"),
        (HEADER, _edit(players=[]), "a match header that is not valid (players has 0 bots"),
    ],
    ids=["format 1", "no format", "bad hands", "unknown type", "bad seed", "no players"],
)
def test_a_record_from_a_worker_is_read_as_a_log_is(record: Any, edit: Any, needle: str) -> None:
    data = json.loads(encode(RecordMessage(1, record)))
    edit(data["record"])
    with pytest.raises(MessageError) as caught:
        decode_worker_message(json.dumps(data).encode())
    assert needle in str(caught.value)


def test_to_plain_names_a_field_it_cannot_carry() -> None:
    @dataclasses.dataclass(frozen=True)
    class Odd:
        when: complex

    with pytest.raises(TypeError, match=r"settings\.when: a complex cannot be sent"):
        to_plain(Odd(1j), "settings")


@pytest.mark.parametrize(
    ("kind", "data", "needle"),
    [
        (
            Limits,
            {
                "memory_mb": "512",
                "cpu_seconds": None,
                "thinking_s": 0,
                "processes": 1,
                "stderr_bytes": 1,
            },
            "v.memory_mb: an int was due",
        ),
        (Limits, {"memory_mb": True, "cpu_seconds": None}, "memory_mb"),
        (
            Limits,
            {"memory_mb": 1},
            "the keys memory_mb, cpu_seconds, thinking_s, processes, stderr_bytes",
        ),
        (Limits, {"memory_mb": 1, "cpu_seconds": 1, "run": "rm -rf /"}, "were due"),
        (FaultPolicy, {"on_fault": "explode", "penalty": None, "max_faults": 3}, "not one of"),
        (tuple[str, ...], ["a", 1], "[1]: a str was due"),
        (tuple[str, ...], "abc", "a list was due"),
        (dict[str, str], {"a": ["b"]}, "v.a: a str was due"),
        (MatchSettings, [], "an object was due"),
    ],
)
def test_from_plain_takes_only_the_declared_types(kind: Any, data: Any, needle: str) -> None:
    with pytest.raises(MessageError) as caught:
        from_plain(kind, data, "v")
    assert needle in str(caught.value)


@pytest.mark.parametrize(
    "line",
    [
        b"",
        b"not json",
        b"\x80\x04\x95\x1f\x00\x00\x00",  # the start of a pickle
        b"\xff\xfe{}",
        b"[1, 2]",
        b'"ready"',
        b"{}",
        b'{"kind": "pickle"}',
        b'{"kind": ["ready"]}',
        b'{"kind": "ready", "then": "exec"}',
        b'{"kind": "record", "table": 1}',
        b'{"kind": "record", "table": true, "record": {}}',
        b'{"kind": "record", "table": 0, "record": {}}',
        b'{"kind": "record", "table": "1", "record": {}}',
        b'{"kind": "record", "table": 1, "record": [1]}',
        b'{"kind": "done", "table": 1, "stopped": 5}',
        b'{"kind": "done", "table": 1, "stopped": "interrupted"}',
        b'{"kind": "done", "table": 1, "stopped": {"reason": "bored", "disqualified": [], '
        b'"message": "", "unfinished": 0}}',
        b'{"kind": "error", "table": 1, "message": null}',
        b'{"kind": "record", "table": 1, "record": {"x": NaN}}',
        b'{"kind": "record", "table": 1, "record": {"x": -Infinity}}',
        b'{"kind": "record", "table": 1, "record": {"x": "\\ud800"}}',
        b'{"kind": "record", "table": 1, "record": {"x": ' + b"9" * 5000 + b"}}",
        b"[" * 100_000 + b"]" * 100_000,
        b'{"kind": "task", "table": 1}',  # a parent's kind, from a worker
    ],
)
def test_a_bad_line_from_a_worker_is_a_message_error(line: bytes) -> None:
    with pytest.raises(MessageError):
        decode_worker_message(line)


def test_a_bad_task_is_a_message_error() -> None:
    data = json.loads(encode(_task()))
    data["configs"][0]["limits"]["memory_mb"] = {"__reduce__": "os.system"}
    with pytest.raises(MessageError, match=r"configs\[0\]\.limits\.memory_mb"):
        decode_parent_message(json.dumps(data).encode())
    with pytest.raises(MessageError, match="unknown kind"):
        decode_parent_message(encode(Ready())[:-1])


def test_the_line_reader_bounds_lines_and_keeps_what_is_cut_short() -> None:
    read_end, write_end = os.pipe()
    try:
        reader = LineReader(read_end, 10)
        os.write(write_end, b"one\ntw")
        assert reader.read() == [b"one"]
        os.write(write_end, b"o\nthree\n")
        assert reader.read() == [b"two", b"three"]
        os.write(write_end, b"0123456789\n")
        assert reader.next_line() == b"0123456789"  # exactly the bound
        os.write(write_end, b"last")
        os.close(write_end)
        write_end = -1
        assert reader.next_line() is None
        assert reader.eof and reader.partial == b"last"
    finally:
        os.close(read_end)
        if write_end >= 0:
            os.close(write_end)
    read_end, write_end = os.pipe()
    try:
        reader = LineReader(read_end, 10)
        os.write(write_end, b"01234567890")  # one more than the bound, no newline yet
        with pytest.raises(MessageError, match="longer than 10 bytes"):
            reader.read()
        reader = LineReader(read_end, 10)
        os.write(write_end, b"\n" + b"x" * 11 + b"\n")
        with pytest.raises(MessageError, match="longer than 10 bytes"):
            reader.read()
    finally:
        os.close(read_end)
        os.close(write_end)
    assert MAX_MESSAGE_BYTES == 4 * 1024 * 1024


# -- a real worker process ------------------------------------------------------------------------


def _worker() -> tuple[socket.socket, subprocess.Popen[bytes]]:
    ours, theirs = socket.socketpair()
    with theirs:
        fd = theirs.fileno()
        process = subprocess.Popen(
            [PY, "-P", "-m", "zole_arena.events.worker", str(fd)],
            pass_fds=[fd],
            stderr=subprocess.PIPE,
        )
    return ours, process


def test_a_worker_asks_for_a_table_and_goes_when_there_is_none() -> None:
    ours, process = _worker()
    with ours:
        reader = LineReader(ours.fileno(), MAX_MESSAGE_BYTES)
        assert decode_worker_message(reader.next_line() or b"") == Ready()
        ours.sendall(encode(NoMoreTables()))
        assert decode_worker_message(reader.next_line() or b"") == WorkerExit()
        assert reader.next_line() is None
    _, stderr = process.communicate(timeout=30)
    assert process.returncode == 0 and stderr == b""


@pytest.mark.parametrize(
    "line",
    [b"\x80\x04K\x01.\n", b'{"kind":"task","table":1}\n', b'{"kind":"ready"}\n'],
    ids=["pickle", "incomplete", "wrong-kind"],
)
def test_a_worker_refuses_a_bad_task_with_one_line(line: bytes) -> None:
    ours, process = _worker()
    with ours:
        reader = LineReader(ours.fileno(), MAX_MESSAGE_BYTES)
        assert decode_worker_message(reader.next_line() or b"") == Ready()
        ours.sendall(line)
        _, stderr = process.communicate(timeout=30)
    assert process.returncode == 2
    said = stderr.decode().splitlines()
    assert len(said) == 1
    assert said[0].startswith("zole-arena tournament worker: the tournament sent")


def test_a_worker_started_wrong_says_how_to_start_it() -> None:
    proc = subprocess.run(
        [PY, "-P", "-m", "zole_arena.events.worker", "999"],
        capture_output=True, text=True, timeout=30, check=False,
    )  # fmt: skip
    assert proc.returncode == 2 and proc.stderr.startswith("usage:")


# -- hostile bots in real tournaments -------------------------------------------------------------


def _tournament(
    tmp_path: Path, *injector: str, sandbox: bool = False
) -> tuple[subprocess.CompletedProcess[str], str]:
    """A round-robin of three rulebots and the injector (4th: its first table is table 2, so
    that table 1's records are in the log when it acts), one table at a time; what the
    injector said on stderr. Unsandboxed unless asked: what is tested is the channel's own
    defence (a sandboxed bot cannot even see its worker)."""
    mark = uuid.uuid4().hex
    env = dict(os.environ, ZOLE_TEST_RUN=mark)
    bot = f"injector={PY} {INJECTOR} {' '.join(injector)}"
    proc = run_zole(
        "tournament", "rulebot", "rulebot", "rulebot", bot, "--blocks", "1", "--seed", "9",
        "--log", "t.jsonl", "--concurrency", "1", *FAST,
        *(() if sandbox else ("--no-sandbox",)), cwd=tmp_path, timeout=120, env=env,
    )  # fmt: skip
    assert marked_processes(mark) == []  # no worker, no bot left behind
    said = (tmp_path / "t.jsonl.stderr" / "table-2.injector.stderr").read_text()
    if not sandbox:
        assert "the channel is socket:" in said, said
        # A socket cannot be opened through /proc (a pipe could, by any process of the user).
        assert "cannot open /proc/" in said and "No such device or address" in said, said
    return proc, said


def _check_log(tmp_path: Path) -> list[dict[str, Any]]:
    """The log is whole (every line a record), verifies, and holds no forged record."""
    text = (tmp_path / "t.jsonl").read_text()
    assert "forged-by-ipc-injector" not in text
    records = [json.loads(line) for line in text.splitlines()]
    ok(run_zole("verify", "t.jsonl", cwd=tmp_path))
    return records


def _unreachable(proc: subprocess.CompletedProcess[str], said: str, tmp_path: Path) -> bool:
    """Without the right to trace its worker the bot cannot reach the channel at all: then the
    tournament must simply finish."""
    if "unreachable:" not in said:
        return False
    ok(proc)
    assert len([r for r in _check_log(tmp_path) if r["type"] == "deal"]) == 4 * 6
    return True


def test_a_pickle_written_into_the_channel_is_never_unpickled(tmp_path: Path) -> None:
    marker = tmp_path / "unpickled"
    proc, said = _tournament(tmp_path, "pickle", str(marker))
    assert not marker.exists()
    if _unreachable(proc, said, tmp_path):
        return
    assert "injecting pickle" in said
    one_line_error(
        proc, "table 2 (rulebot, rulebot#2, injector)", "its worker process sent a line that is "
        "not JSON", "the tournament stopped", "--resume t.jsonl",
    )  # fmt: skip
    records = _check_log(tmp_path)
    # Table 1 was played to its end before the injector's first table.
    table_1 = [r for r in records if r.get("match_id", "").endswith("-t1")]
    assert [r.get("deal") for r in table_1] == [None, 1, 2, 3, 4, 5, 6]
    assert not marker.exists()


def test_a_forged_record_never_reaches_the_log(tmp_path: Path) -> None:
    proc, said = _tournament(tmp_path, "forge")
    if _unreachable(proc, said, tmp_path):
        return
    assert "injecting forge" in said
    # The forged deal 1 passed every check of its own; the worker's real deal 1 then came where
    # deal 2 was due.
    one_line_error(
        proc, "table 2 (rulebot, rulebot#2, injector)", "sent deal 1 where deal 2 was due",
        "--resume t.jsonl",
    )  # fmt: skip
    records = _check_log(tmp_path)
    table_2 = [r for r in records if r.get("match_id", "").endswith("-t2")]
    assert [r["type"] for r in table_2] == ["match"]  # its header; no deal, forged or real


@pytest.mark.parametrize(
    ("mode", "needle"),
    [
        ("other-table", "sent a record message of table 1 (it plays table 2)"),
        ("unknown-kind", 'sent a message of unknown kind "exec"'),
        ("huge", f"sent a line longer than {MAX_MESSAGE_BYTES} bytes"),
    ],
)
def test_other_writes_into_the_channel_stop_the_tournament(
    tmp_path: Path, mode: str, needle: str
) -> None:
    proc, said = _tournament(tmp_path, mode)
    if _unreachable(proc, said, tmp_path):
        return
    # The tournament may stop the bot as soon as its line is in (its five MiB still going in).
    assert f"injecting {mode}" in said
    one_line_error(proc, "table 2 (rulebot, rulebot#2, injector)", needle, "--resume t.jsonl")
    records = _check_log(tmp_path)
    assert not [r for r in records if r.get("match_id", "").endswith("-t2") and r["type"] == "deal"]


def test_a_sandboxed_injector_cannot_even_find_its_worker(tmp_path: Path) -> None:
    # A tournament's default: in its own PID namespace the bot's parent is the sandbox's init,
    # and no worker, no channel, no tournament process is there to be found.
    marker = tmp_path / "pickled"
    proc, said = _tournament(tmp_path, "pickle", str(marker), sandbox=True)
    ok(proc)
    assert "unreachable" in said and "injecting" not in said, said
    assert not marker.exists()
    _check_log(tmp_path)
