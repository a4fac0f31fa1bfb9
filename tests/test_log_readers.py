"""Readers of logs against malformed, forged and gigantic logs: never a traceback.

Every reader — ``verify``, ``replay``, ``ratings``, ``match --resume``, ``tournament --resume`` —
is run as a user runs it (a real process) on each bad log, and must answer with an exit code
and one-line messages. ``verify`` streams: a gigabyte line is checked under an address-space
limit far below its size. A seeded fuzz of small edits to real logs runs the same readers in
this process, many times over.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import random
import re
import resource
import subprocess
from collections.abc import Callable, Iterator
from contextlib import redirect_stdout, suppress
from pathlib import Path
from typing import Any, Final

import pytest
import typer
from clihelp import PY, ok, zole

from zole_arena.arena.resume import resume_match
from zole_arena.arena.verify import verify_log
from zole_arena.cli.replay_cmd import replay_command
from zole_arena.errors import ZoleError
from zole_arena.events.resume import resume_tournament
from zole_arena.records.model import DealRecord, InvalidHeader, MatchHeader, OtherRecord
from zole_arena.records.reader import MAX_LINE_BYTES, RecordError, read_log
from zole_arena.records.writer import encode
from zole_arena.stats.ratings import read_logs

READERS = (
    ("verify",),
    ("replay",),
    ("ratings", "--bootstrap", "20"),
    ("match", "--resume"),
    ("tournament", "--resume"),
)
GIB = 1 << 30
#: The address space each reader gets for the gigabyte logs: a fifth of one line of them.
ADDRESS_SPACE = 200 << 20

Record = dict[str, Any]


def sha(line: bytes) -> str:
    return hashlib.sha256(line).hexdigest()


def rechain(records: list[Record]) -> bytes:
    out, prev = [], None
    for record in records:
        fixed = {"format": record.get("format"), "format_version": 2, "prev": prev}
        fixed.update({k: v for k, v in record.items() if k not in fixed})
        line = json.dumps(fixed, separators=(",", ":"), ensure_ascii=False).encode()
        out.append(line)
        prev = sha(line)
    return b"\n".join(out) + b"\n"


def run(*args: str, cwd: Path, limit: int | None = None) -> subprocess.CompletedProcess[str]:
    """The real command, with its address space limited to ``limit`` bytes if given."""

    def cap() -> None:
        if limit is not None:
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    return subprocess.run([PY, "-m", "zole_arena", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=300, check=False, preexec_fn=cap)  # fmt: skip


def assert_clean(proc: subprocess.CompletedProcess[str]) -> list[str]:
    """No traceback; every line on stderr one message (a warning, a note, or at most one
    error, last); the lines on stderr."""
    assert "Traceback" not in proc.stderr + proc.stdout, proc.stderr[-2000:]
    assert "MemoryError" not in proc.stderr, proc.stderr[-2000:]
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    for line in lines:
        assert line.startswith(("warning: ", "note: ", "error: ")), line[:300]
    errors = [line for line in lines if line.startswith("error: ")]
    assert len(errors) <= 1 and (not errors or lines[-1] == errors[0]), lines
    if proc.returncode != 0 and not proc.stdout.strip() and proc.args[3] != "verify":
        assert errors, (proc.returncode, lines)  # a failure says why
    return lines


def only_error(proc: subprocess.CompletedProcess[str], needle: str) -> None:
    """Exit 1 with exactly one line on stderr: the error, which names the problem."""
    lines = assert_clean(proc)
    assert proc.returncode == 1, (proc.returncode, proc.stderr)
    assert len(lines) == 1 and needle in lines[0], lines


@pytest.fixture(scope="module")
def match_log(tmp_path_factory: pytest.TempPathFactory) -> list[bytes]:
    """The lines of a real 3-deal match's log."""
    folder = tmp_path_factory.mktemp("match")
    ok(zole("match", "random", "rulebot", "rulebot", "--deals", "3", "--seed", "5",
            "--movetime", "500", "--log", "m.jsonl", cwd=folder))  # fmt: skip
    return (folder / "m.jsonl").read_bytes()[:-1].split(b"\n")


@pytest.fixture(scope="module")
def tournament_log(tmp_path_factory: pytest.TempPathFactory) -> list[bytes]:
    """The lines of a real tournament's log: one table of 2 deals."""
    folder = tmp_path_factory.mktemp("tournament")
    ok(zole("tournament", "random", "rulebot", "rulebot", "--no-duplicate", "--deals", "2",
            "--seed", "5", "--movetime", "500", "--log", "t.jsonl", cwd=folder))  # fmt: skip
    return (folder / "t.jsonl").read_bytes()[:-1].split(b"\n")


def _write(path: Path, *parts: bytes) -> Path:
    path.write_bytes(b"".join(parts))
    return path


# -- no log at all --------------------------------------------------------------------------------


def _deep(path: Path) -> None:
    _write(path, b"[" * 100_000, b"]" * 100_000, b"\n")


def _zeros(path: Path) -> None:
    with path.open("wb") as handle:  # a sparse gigabyte of NULs, no newline
        handle.truncate(GIB)


def _long_first_line(path: Path) -> None:
    _write(path, b'{"format":"zole-arena",', b"x" * (10 << 20), b"}\n")


@pytest.mark.parametrize("reader", READERS, ids=lambda r: " ".join(r[:2]))
@pytest.mark.parametrize(
    ("make", "said"),
    [
        (_deep, "not a zole-arena log (line 1 is not a zole-arena record)"),
        (_zeros, "not a zole-arena log (line 1 is longer than any record)"),
        (_long_first_line, "not a zole-arena log (line 1 is longer than any record)"),
    ],
    ids=["nested 100k deep", "1 GB of zeros", "10 MB first line"],
)
def test_a_file_that_is_no_log_is_one_line(
    tmp_path: Path, reader: tuple[str, ...], make: Callable[[Path], None], said: str
) -> None:
    make(tmp_path / "x.jsonl")
    # A gigabyte is refused by its first line, without being read: little memory, no time.
    proc = run(*reader, "x.jsonl", cwd=tmp_path, limit=ADDRESS_SPACE)
    only_error(proc, f"x.jsonl: {said}")


# -- logs with bad lines in them ------------------------------------------------------------------


def _nested_record(lines: list[bytes]) -> bytes:
    deep = b'{"format":"zole-arena","format_version":2,"x":' + b"[" * 100_000 + b"]" * 100_000
    return b"\n".join([*lines, deep + b"}"]) + b"\n"


LONG_LINE: Final = b'{"format":"zole-arena","moves":"' + b"x" * (10 << 20) + b'"}'


LONG_SKIPPED: Final = f"m.jsonl:3: a line of {len(LONG_LINE)} bytes, longer than any record"


def _ten_megabytes(lines: list[bytes]) -> bytes:
    long = LONG_LINE
    return b"\n".join([*lines[:2], long, *lines[2:]]) + b"\n"


def _wrong_types(lines: list[bytes]) -> bytes:
    records = [json.loads(line) for line in lines]
    records[0].update(settings="fast", players=7, seed="five", deals=[3])
    records[2]["result"] = "a win"  # a deal record of the wrong shape
    records[3]["hands"] = [["QC", "XX"], [], []]
    return rechain(records)


def _markup_names(lines: list[bytes]) -> bytes:
    return rechain([json.loads(line.replace(b'"rulebot', b'"[/x]rulebot')) for line in lines])


BAD_LOGS: list[tuple[Callable[[list[bytes]], bytes], dict[str, tuple[int, str]]]] = [
    (
        _nested_record,
        {
            "verify": (1, "m.jsonl:5: nested too deep to be a record: skipped"),
            "replay": (0, "m.jsonl:5: nested too deep to be a record: skipped"),
            "ratings": (0, "m.jsonl:5: nested too deep to be a record: skipped"),
            "match": (1, "the match is already complete (3 of 3 deals)"),
        },
    ),
    (
        _ten_megabytes,
        {
            "verify": (1, LONG_SKIPPED),
            "replay": (0, LONG_SKIPPED),
            "ratings": (0, LONG_SKIPPED),
            "match": (1, "the match is already complete (3 of 3 deals)"),
        },
    ),
    (
        _wrong_types,
        {
            "verify": (1, "m.jsonl:3: deal 2: result is 'a win', not an object: skipped"),
            "replay": (0, "m.jsonl:4: deal 3: hands is [['QC', 'XX'], [], []], not three lists"),
            "ratings": (0, "m.jsonl:1: match header: seed is 'five', not a whole number"),
            "match": (1, "m.jsonl: cannot resume: its match header is not valid: seed is 'five'"),
        },
    ),
    (
        _markup_names,
        {
            "verify": (0, ""),
            "replay": (0, ""),
            "ratings": (0, ""),
            "match": (1, "the match is already complete (3 of 3 deals)"),
        },
    ),
]


@pytest.mark.parametrize("reader", READERS, ids=lambda r: " ".join(r[:2]))
@pytest.mark.parametrize(("make", "expected"), BAD_LOGS, ids=[m.__name__[1:] for m, _ in BAD_LOGS])
def test_a_log_with_bad_lines_gets_one_line_answers(
    match_log: list[bytes],
    tmp_path: Path,
    reader: tuple[str, ...],
    make: Callable[[list[bytes]], bytes],
    expected: dict[str, tuple[int, str]],
) -> None:
    _write(tmp_path / "m.jsonl", make(match_log))
    proc = run(*reader, "m.jsonl", cwd=tmp_path)
    lines = assert_clean(proc)
    if reader[0] == "tournament":
        only_error(proc, "m.jsonl: not a tournament log; a match log continues with")
        return
    code, said = expected[reader[0]]
    assert proc.returncode == code, (proc.returncode, lines, proc.stdout[-500:])
    assert said in proc.stderr, lines
    if make is _markup_names and reader[0] in ("replay", "ratings"):
        assert "[/x]rulebot" in proc.stdout  # shown as it is, not taken for markup


def test_verify_lists_the_wrong_types_of_a_header(match_log: list[bytes], tmp_path: Path) -> None:
    _write(tmp_path / "m.jsonl", _wrong_types(match_log))
    proc = run("verify", "m.jsonl", cwd=tmp_path)
    assert_clean(proc)
    for said in (
        "m.jsonl: line 1: match header: seed is 'five', not a whole number from 0 to",
        "m.jsonl: line 1: match header: deals is [3], not a whole number from 1",
        "m.jsonl: line 1: match header: settings is 'fast', not an object",
        "m.jsonl: line 1: match header: players is 7, not a list of 3 or 4 bots",
        "m.jsonl: 1 of 1 deals verify — 1 bad header(s), 2 unreadable line(s)",
    ):
        assert said in proc.stdout, proc.stdout


def _tournament_wrong_types(lines: list[bytes]) -> bytes:
    records = [json.loads(line) for line in lines]
    records[0].update(entrants="everyone", tables=None, concurrency=-2)
    return rechain(records)


def test_a_tournament_header_of_wrong_types_is_one_line(
    tournament_log: list[bytes], tmp_path: Path
) -> None:
    _write(tmp_path / "t.jsonl", _tournament_wrong_types(tournament_log))
    proc = run("tournament", "--resume", "t.jsonl", cwd=tmp_path)
    only_error(proc, "t.jsonl: cannot resume: its tournament header is not valid: entrants is "
               "'everyone', not a list of at least 3 bots (and 2 more")  # fmt: skip
    for reader in READERS[:3]:
        assert_clean(run(*reader, "t.jsonl", cwd=tmp_path))


def test_resume_shows_names_from_a_log_as_they_are(tmp_path: Path) -> None:
    ok(zole("match", "random", "rulebot", "rulebot", "--deals", "2", "--log", "m.jsonl",
            cwd=tmp_path))  # fmt: skip
    lines = (tmp_path / "m.jsonl").read_bytes()[:-1].split(b"\n")
    (tmp_path / "m.jsonl").write_bytes(_markup_names(lines[:2]))  # the header and deal 1
    proc = ok(zole("match", "--resume", "m.jsonl", cwd=tmp_path))
    assert "[/x]rulebot" in proc.stdout
    ok(zole("verify", "m.jsonl", cwd=tmp_path))


def test_tournament_resume_shows_names_from_a_log_as_they_are(
    tournament_log: list[bytes], tmp_path: Path
) -> None:
    _write(tmp_path / "t.jsonl", _markup_names(tournament_log[:3]))  # tournament, table, deal 1
    proc = ok(zole("tournament", "--resume", "t.jsonl", "--bootstrap", "10", cwd=tmp_path))
    assert "[/x]rulebot" in proc.stdout
    ok(zole("verify", "t.jsonl", cwd=tmp_path))


# -- gigantic logs ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def gigabyte_log(match_log: list[bytes], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real log followed by a sparse gigabyte of NULs without a newline."""
    path = tmp_path_factory.mktemp("gigabyte") / "m.jsonl"
    with path.open("wb") as handle:
        handle.write(b"\n".join(match_log) + b"\n")
        handle.truncate(GIB)
    return path


@pytest.mark.parametrize("reader", READERS, ids=lambda r: " ".join(r[:2]))
def test_a_gigabyte_line_is_read_past_in_little_memory(
    gigabyte_log: Path, reader: tuple[str, ...]
) -> None:
    proc = run(*reader, gigabyte_log.name, cwd=gigabyte_log.parent, limit=ADDRESS_SPACE)
    lines = assert_clean(proc)
    with gigabyte_log.open("rb") as handle:
        head = b"".join(handle.readline() for _ in range(4))  # the match's 4 lines
    size = GIB - len(head)
    if reader[0] == "tournament":
        only_error(proc, "not a tournament log")
        return
    assert f"m.jsonl:5: a line of {size} bytes, longer than any record: skipped" in lines[0]
    if reader[0] == "verify":
        assert proc.returncode == 1
        assert "m.jsonl: 3 of 3 deals verify — 1 unreadable line(s)" in proc.stdout
    elif reader[0] == "match":
        assert lines[-1].endswith("the match is already complete (3 of 3 deals)")
    else:
        assert proc.returncode == 0, lines


def test_verify_streams_many_lines_in_little_memory(match_log: list[bytes], tmp_path: Path) -> None:
    # 1024 lines of 256 KiB each after a real log (a sparse file: NULs between newlines),
    # read under a limit of address space well below the file's size.
    path = tmp_path / "m.jsonl"
    step = 256 << 10
    with path.open("wb") as handle:
        handle.write(b"\n".join(match_log) + b"\n")
        start = handle.tell()
        for k in range(1, 1025):
            handle.seek(start + k * step - 1)
            handle.write(b"\n")
    limit = 100 << 20
    assert path.stat().st_size > 2.5 * limit
    proc = run("verify", "m.jsonl", cwd=tmp_path, limit=limit)
    lines = assert_clean(proc)
    assert proc.returncode == 1
    assert len(lines) == 1024 and all("not a zole-arena record: skipped" in w for w in lines)
    assert "m.jsonl: 3 of 3 deals verify — 1024 unreadable line(s)" in proc.stdout


def test_a_line_at_the_bound_is_read_and_one_past_it_is_not(tmp_path: Path) -> None:
    head = b'{"format":"zole-arena","format_version":2,"type":"note","match_id":"m","pad":"'
    at_bound = head + b"x" * (MAX_LINE_BYTES - len(head) - 2) + b'"}'
    assert len(at_bound) == MAX_LINE_BYTES
    over = head + b"x" * (MAX_LINE_BYTES - len(head) - 1) + b'"}'
    path = _write(tmp_path / "b.jsonl", at_bound, b"\n", over, b"\n")
    records, problems = read_log(path)
    assert [r.type for r in records] == ["note"]
    assert [(p.line, p.message) for p in problems] == [
        (2, f"a line of {MAX_LINE_BYTES + 1} bytes, longer than any record: skipped")
    ]


# -- a fuzz of small edits, in this process -------------------------------------------------------

WEIRD: list[Any] = [
    None, True, -1, 0, 3, 7, 2**70, 1.5, "", "x", "[/x]", "QC", "take", [], {}, [[[]]],
    [0, 1, 2], [1, 1, 1], ["QC", "QS", "QH"], {"common": -1, "personal": [5]},
    {"seat": 9}, "x" * 5000, [None] * 3, {"a": [[[[[[1]]]]]]},
]  # fmt: skip


def _paths(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every place in a record (keys and indices from the top)."""
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, (*path, index))


def _mutate(records: list[Record], rng: random.Random) -> None:
    record = rng.choice(records)
    places = [p for p in _paths(record) if p and p[0] not in ("format", "format_version", "prev")]
    place = rng.choice(places)
    parent = record
    for step in place[:-1]:
        parent = parent[step]
    if isinstance(parent, dict) and rng.random() < 0.2:
        del parent[place[-1]]
    else:
        parent[place[-1]] = json.loads(json.dumps(rng.choice(WEIRD)))


def _readers_in_process(path: Path) -> None:
    """Every reader on a log: only the errors a user error may give."""
    with suppress(RecordError):
        verify_log(str(path), lambda finding: None)
    with suppress(RecordError):
        read_logs([path])
    with suppress(ZoleError):
        resume_match(path)
    with suppress(ZoleError):
        resume_tournament(path)
    with suppress(typer.Exit, ZoleError), redirect_stdout(io.StringIO()):
        replay_command(path, None, None, None)


@pytest.mark.parametrize("which", ["match", "tournament"])
def test_small_edits_never_crash_a_reader(
    match_log: list[bytes], tournament_log: list[bytes], tmp_path: Path, which: str
) -> None:
    rng = random.Random(f"zole-{which}{os.environ.get('ZOLE_FUZZ_SEED', '')}")
    base = [json.loads(line) for line in (match_log if which == "match" else tournament_log)]
    path = tmp_path / "f.jsonl"
    for case in range(int(os.environ.get("ZOLE_FUZZ_CASES", "300"))):
        records: list[Record] = json.loads(json.dumps(base))
        for _ in range(rng.randint(1, 3)):
            _mutate(records, rng)
        data = rechain(records)
        if case % 10 == 0:  # and whole lines cut, doubled, dropped or with a byte changed
            lines = data.split(b"\n")
            k = rng.randrange(len(lines) - 1)
            choice = case // 10 % 4
            if choice == 0:
                lines[k] = lines[k][: rng.randrange(len(lines[k]) + 1)]
            elif choice == 1:
                lines.insert(k, lines[k])
            elif choice == 2:
                del lines[k]
            elif lines[k]:
                at = rng.randrange(len(lines[k]))
                lines[k] = lines[k][:at] + bytes([rng.randrange(256)]) + lines[k][at + 1 :]
            data = b"\n".join(lines)
        path.write_bytes(data)
        try:
            _readers_in_process(path)
        except Exception as exc:  # the case, to reproduce it
            raise AssertionError(
                f"case {case}: {type(exc).__name__}: {exc}\n{data[:3000]!r}"
            ) from exc


# -- the typed records a reader gives ------------------------------------------------------------


def _read_one(tmp_path: Path, record: Record) -> tuple[list[Any], list[str]]:
    path = _write(tmp_path / "one.jsonl", rechain([record]))
    records, problems = read_log(path)
    return records, [p.message for p in problems]


def test_keys_a_reader_does_not_know_are_left_out(match_log: list[bytes], tmp_path: Path) -> None:
    line = match_log[1]
    record = json.loads(line)
    record.update(later_key={"from": "a later version"})
    record["result"]["also"] = 1
    record["moves"][0]["note"] = "x"
    records, problems = _read_one(tmp_path, record)
    assert problems == [] and isinstance(records[0], DealRecord)
    # Written again, the record is the one the arena wrote: the unknown keys are gone.
    assert encode(records[0])[:-1] == re.sub(b'"prev":"[0-9a-f]{64}",', b"", line)


@pytest.mark.parametrize(
    ("edit", "said"),
    [
        (lambda r: r.update(prev=5), "prev is 5, not null or a hash: skipped"),
        (
            lambda r: r["moves"][0].update(request_id="x"),
            "deal 1: move 1: request_id is 'x', not null or a whole number: skipped",
        ),
        (
            lambda r: r["moves"][1].update(think_ms=True),
            "deal 1: move 2: think_ms is True, not null or a number: skipped",
        ),
        (
            lambda r: r["result"].update(band="splendid"),
            "deal 1: result.band is 'splendid', not null or one of all_tricks, high_loss, high_win",
        ),
        (
            lambda r: r.update(termination="abandoned"),
            "deal 1: termination is 'abandoned', not forfeit or normal: skipped",
        ),
        (
            lambda r: r["players"][2].update(version=3),
            "deal 1: player 3: version is 3, not text: skipped",
        ),
        (lambda r: r.update(format_version=True), "record format version True is not 1 or 2"),
    ],
    ids=["prev", "request_id", "think_ms", "band", "termination", "version", "version true"],
)
def test_a_deal_of_the_wrong_shape_is_one_problem(
    match_log: list[bytes], tmp_path: Path, edit: Callable[[Record], None], said: str
) -> None:
    record = json.loads(match_log[1])
    edit(record)
    line = json.dumps(record, separators=(",", ":")).encode()
    path = _write(tmp_path / "one.jsonl", match_log[0], b"\n", line, b"\n")
    records, problems = read_log(path)
    assert [type(r) for r in records] == [MatchHeader]
    assert len(problems) == 1 and problems[0].message.startswith(said), problems


def test_a_header_that_fails_its_checks_is_read_as_invalid(
    match_log: list[bytes], tmp_path: Path
) -> None:
    header = json.loads(match_log[0])
    header.update(seed=-1, isolation=5)
    header["players"][0]["author"] = ["me"]
    header["sprt"] = {"new": "a", "old": "b", "third": None, "elo0": 0, "elo1": "ten",
                      "alpha": 0.05, "beta": 0.05}  # fmt: skip
    records, problems = _read_one(tmp_path, header)
    assert problems == []
    (found,) = records
    assert isinstance(found, InvalidHeader) and found.type == "match"
    assert found.problems == (
        "seed is -1, not a whole number from 0 to 18446744073709551615",
        "players 1: author is ['me'], not text",
        "isolation is 5, not text",
        "sprt.elo1 is 'ten', not a number",
    )


def test_a_record_of_another_type_is_passed_by(match_log: list[bytes], tmp_path: Path) -> None:
    record = {"format": "zole-arena", "format_version": 2, "type": "note", "match_id": "m"}
    records, problems = _read_one(tmp_path, record)
    assert records == [OtherRecord("note", "m")] and problems == []
    logged = [json.loads(line) for line in match_log]
    _write(tmp_path / "later.jsonl", rechain([*logged[:2], record, *logged[2:]]))
    proc = ok(zole("verify", "later.jsonl", cwd=tmp_path))
    assert (
        "later.jsonl: line 3: a record of type 'note', which this version does not know: passed by"
        in (proc.stderr)
    )


def test_a_header_renamed_leaves_its_deals_without_one(
    match_log: list[bytes], tmp_path: Path
) -> None:
    """Red team 12: a header whose type is renamed was passed by, and its deals, checked
    against no header, verified."""
    logged = [json.loads(line) for line in match_log]
    logged[0]["type"] = "matchx"
    _write(tmp_path / "renamed.jsonl", rechain(logged))
    proc = zole("verify", "renamed.jsonl", cwd=tmp_path)
    assert proc.returncode == 1
    assert "renamed.jsonl:1: a record of type 'matchx' where a log's header is: skipped" in (
        proc.stderr
    )
    assert "deal 1: its match" in proc.stdout and "has no header before it" in proc.stdout
