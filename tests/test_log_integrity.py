"""Tamper-evident logs: the hash chain and the digest, what ``verify`` rejects, and logs that
cannot be written mid-match.

Forged logs are *rechained* (every ``prev`` recomputed, as a careful forger would) so that each
test sees the one check it is about fail, not the chain.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import resource
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from clihelp import PY, ok, one_line_error, zole

from zole_arena.stats.boards import group_seed

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).resolve().parent / "golden"
ILLEGAL_BOT = Path(__file__).resolve().parent / "fault_bots" / "illegal_card.py"
DIGEST = re.compile(r"^log (\S+)  digest (sha256:[0-9a-f]{64})$", re.M)

Record = dict[str, Any]


def sha(line: bytes) -> str:
    return hashlib.sha256(line).hexdigest()


def lines_of(path: Path) -> list[bytes]:
    """The log's lines, without their newlines (the file ends with one)."""
    data = path.read_bytes()
    assert data.endswith(b"\n")
    return data[:-1].split(b"\n")


def records_of(path: Path) -> list[Record]:
    return [json.loads(line) for line in lines_of(path)]


def compact(record: Record) -> bytes:
    """A record as the arena encodes it."""
    return json.dumps(record, separators=(",", ":"), ensure_ascii=False).encode()


def rechain(records: list[Record]) -> bytes:
    """The records as a format-2 log whose chain is whole: what a forger who knows the format
    would write."""
    out, prev = [], None
    for record in records:
        fixed = {"format": record["format"], "format_version": 2, "prev": prev}
        fixed.update({k: v for k, v in record.items() if k not in fixed})
        line = compact(fixed)
        out.append(line)
        prev = sha(line)
    return b"\n".join(out) + b"\n"


def copy(records: list[Record]) -> list[Record]:
    result: list[Record] = json.loads(json.dumps(records))
    return result


def digest_printed(stdout: str, log: str) -> str:
    found = dict(DIGEST.findall(stdout))
    assert log in found, stdout
    return found[log]


def verify(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    proc = zole("verify", *args, cwd=folder)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc


def problem_lines(proc: subprocess.CompletedProcess[str]) -> list[str]:
    """verify's lines about what is wrong (not its status and digest lines)."""
    return [
        line
        for line in proc.stdout.splitlines()
        if ": deal " in line or ": line " in line or ": digest:" in line
    ]


class Played:
    """A log a real match wrote, and what the command printed."""

    def __init__(self, folder: Path, name: str, stdout: str) -> None:
        self.folder = folder
        self.name = name
        self.log = folder / name
        self.stdout = stdout
        self.lines = lines_of(self.log)
        self.records = [json.loads(line) for line in self.lines]
        self.digest = digest_printed(stdout, name)


@pytest.fixture(scope="module")
def dup(tmp_path_factory: pytest.TempPathFactory) -> Played:
    """A duplicate match: 2 blocks of 6 deals (each seating's sheet has two deals)."""
    folder = tmp_path_factory.mktemp("dup")
    proc = ok(zole("match", "random", "rulebot", "rulebot", "--deals", "2", "--duplicate",
                   "--seed", "5", "--movetime", "500", "--log", "dup.jsonl",
                   cwd=folder))  # fmt: skip
    return Played(folder, "dup.jsonl", proc.stdout)


@pytest.fixture(scope="module")
def forfeits(tmp_path_factory: pytest.TempPathFactory) -> Played:
    """A match in which a bot plays an illegal card in every deal, and forfeits it."""
    folder = tmp_path_factory.mktemp("forfeits")
    proc = ok(zole("match", "rulebot", f"bad={PY} {ILLEGAL_BOT}", "random", "--deals", "2",
                   "--seed", "4", "--rules", "wpt", "--max-faults", "10", "--log", "f.jsonl",
                   cwd=folder))  # fmt: skip
    played = Played(folder, "f.jsonl", proc.stdout)
    assert all(r["termination"] == "forfeit" for r in played.records[1:])
    return played


@pytest.fixture(scope="module")
def tournament(tmp_path_factory: pytest.TempPathFactory) -> Played:
    """A tournament of one table and two deals."""
    folder = tmp_path_factory.mktemp("tournament")
    proc = ok(zole("tournament", "random", "rulebot", "rulebot", "--no-duplicate", "--deals",
                   "2", "--seed", "3", "--movetime", "500", "--log", "t.jsonl",
                   cwd=folder))  # fmt: skip
    return Played(folder, "t.jsonl", proc.stdout)


# -- the chain and the digest -------------------------------------------------------------------


def test_every_line_names_the_hash_of_the_line_before(dup: Played) -> None:
    assert len(dup.records) == 13
    assert dup.records[0]["prev"] is None
    for number in range(1, len(dup.lines)):
        assert dup.records[number]["format_version"] == 2
        assert dup.records[number]["prev"] == sha(dup.lines[number - 1]), number
    assert dup.digest == f"sha256:{sha(dup.lines[-1])}"
    proc = ok(verify(dup.folder, dup.name, "--digest", dup.digest))
    assert f"{dup.name}: 12 of 12 deals verify — ok" in proc.stdout
    assert f"{dup.name}: digest {dup.digest}" in proc.stdout
    # The digest is also accepted as the bare hex a shell's sha256sum prints.
    ok(verify(dup.folder, dup.name, "--digest", dup.digest.removeprefix("sha256:").upper()))


def test_the_digest_is_in_the_json_summaries(tmp_path: Path) -> None:
    proc = ok(zole("match", "random", "rulebot", "rulebot", "--deals", "1", "--log", "m.jsonl",
                   "--json", cwd=tmp_path))  # fmt: skip
    summary = json.loads(proc.stdout)
    assert summary["digest"] == f"sha256:{sha(lines_of(tmp_path / 'm.jsonl')[-1])}"
    proc = ok(zole("tournament", "random", "rulebot", "rulebot", "--no-duplicate", "--deals",
                   "1", "--log", "t.jsonl", "--json", cwd=tmp_path))  # fmt: skip
    summary = json.loads(proc.stdout)
    assert summary["digest"] == f"sha256:{sha(lines_of(tmp_path / 't.jsonl')[-1])}"
    proc = zole("sprt", "rulebot", "random", "--max-blocks", "1", "--log", "s.jsonl", "--json",
                cwd=tmp_path)  # fmt: skip
    assert proc.returncode == 5, proc.stderr  # no decision in one block
    summary = json.loads(proc.stdout)
    assert summary["digest"] == f"sha256:{sha(lines_of(tmp_path / 's.jsonl')[-1])}"
    ok(verify(tmp_path, "s.jsonl", "--digest", summary["digest"]))


def test_the_closing_lines_of_tournament_and_sprt_give_the_digest(
    tournament: Played, tmp_path: Path
) -> None:
    assert tournament.digest == f"sha256:{sha(tournament.lines[-1])}"
    ok(verify(tournament.folder, tournament.name, "--digest", tournament.digest))
    proc = zole("sprt", "rulebot", "random", "--max-blocks", "1", "--log", "s.jsonl",
                cwd=tmp_path)  # fmt: skip
    assert (
        digest_printed(proc.stdout, "s.jsonl")
        == f"sha256:{sha(lines_of(tmp_path / 's.jsonl')[-1])}"
    )


def test_the_hand_check_in_the_docs_works(dup: Played, tmp_path: Path) -> None:
    text = (ROOT / "protocol" / "records.md").read_text()
    snippet = re.search(r"```python\n(.*?)```", text, re.S)
    assert snippet is not None
    (tmp_path / "check.py").write_text(snippet.group(1))
    proc = subprocess.run([PY, "check.py", str(dup.log)], cwd=tmp_path, capture_output=True,
                          text=True, check=False)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == f"the chain is whole; digest {dup.digest}"
    edited = dup.lines[:]
    edited[3] = edited[3].replace(b'"think_ms":', b'"think_ms":1', 1)
    (tmp_path / "edited.jsonl").write_bytes(b"\n".join(edited) + b"\n")
    proc = subprocess.run([PY, "check.py", "edited.jsonl"], cwd=tmp_path, capture_output=True,
                          text=True, check=False)  # fmt: skip
    assert proc.returncode != 0 and "line 5: the chain breaks" in proc.stderr


def _edit_think_ms(line: bytes) -> bytes:
    """A change replay cannot see: a move's thinking time."""
    record = json.loads(line)
    record["moves"][0]["think_ms"] += 1.0
    return compact(record)


def _edit_middle(lines: list[bytes]) -> list[bytes]:
    lines[3] = _edit_think_ms(lines[3])
    return lines


def _delete(lines: list[bytes]) -> list[bytes]:
    del lines[3]
    return lines


def _reorder(lines: list[bytes]) -> list[bytes]:
    lines[3], lines[4] = lines[4], lines[3]
    return lines


def _insert(lines: list[bytes]) -> list[bytes]:
    lines.insert(4, lines[3])
    return lines


@pytest.mark.parametrize(
    ("edit", "line", "after"),
    [(_edit_middle, 5, 4), (_delete, 4, 3), (_reorder, 4, 3), (_insert, 5, 4)],
    ids=["edited middle record", "deleted record", "reordered pair", "inserted copy"],
)
def test_the_chain_shows_where_a_log_was_changed(
    dup: Played, tmp_path: Path, edit: Callable[[list[bytes]], list[bytes]], line: int, after: int
) -> None:
    changed = edit(dup.lines[:])
    (tmp_path / "e.jsonl").write_bytes(b"\n".join(changed) + b"\n")
    proc = verify(tmp_path, "e.jsonl")
    assert proc.returncode == 1
    expected = sha(changed[after - 1])
    chain = [p for p in problem_lines(proc) if "hash chain" in p]
    assert chain == [
        f"e.jsonl: line {line}: the hash chain breaks here: prev is "
        f"{json.loads(changed[line - 1])['prev']}, but line {after} hashes to {expected} "
        f"(line {after} was changed, or lines were removed, inserted or moved)"
    ], proc.stdout
    assert "the hash chain breaks" in proc.stdout.splitlines()[-2]  # the status line
    if edit is _edit_middle:
        assert problem_lines(proc) == chain  # nothing else shows it: the deal still verifies


def test_an_edited_last_record_fails_only_against_the_digest(dup: Played, tmp_path: Path) -> None:
    edited = dup.lines[:]
    edited[-1] = _edit_think_ms(edited[-1])
    (tmp_path / "e.jsonl").write_bytes(b"\n".join(edited) + b"\n")
    ok(verify(tmp_path, "e.jsonl"))  # the chain before it is whole
    proc = verify(tmp_path, "e.jsonl", "--digest", dup.digest)
    assert proc.returncode == 1
    assert problem_lines(proc) == [
        f"e.jsonl: digest: the log's is sha256:{sha(edited[-1])}, not {dup.digest} (the log "
        "was cut short or added to, or its last line changed)"
    ]
    assert "12 of 12 deals verify — not the digest given" in proc.stdout


def test_a_log_cut_short_or_rechained_fails_against_the_digest(dup: Played, tmp_path: Path) -> None:
    (tmp_path / "cut.jsonl").write_bytes(b"\n".join(dup.lines[:-1]) + b"\n")
    ok(verify(tmp_path, "cut.jsonl"))
    assert verify(tmp_path, "cut.jsonl", "--digest", dup.digest).returncode == 1
    # A forger who rewrites the whole chain passes the chain: only the digest catches it.
    forged = copy(dup.records)
    forged[3]["moves"][0]["think_ms"] += 1.0
    (tmp_path / "forged.jsonl").write_bytes(rechain(forged))
    ok(verify(tmp_path, "forged.jsonl"))
    proc = verify(tmp_path, "forged.jsonl", "--digest", dup.digest)
    assert proc.returncode == 1 and "not the digest given" in proc.stdout


def test_a_log_without_its_first_lines_is_only_a_part(dup: Played, tmp_path: Path) -> None:
    (tmp_path / "part.jsonl").write_bytes(b"\n".join(dup.lines[1:]) + b"\n")
    ok(verify(tmp_path, "part.jsonl"))  # deals on their own, as a part of a log may be checked
    proc = verify(tmp_path, "part.jsonl", "--digest", dup.digest)
    assert proc.returncode == 1
    assert "part.jsonl: digest: the log does not begin with its header: a part of it" in proc.stdout
    # A log that starts with a header must start the chain there.
    header = dup.lines[0].replace(b'"prev":null', b'"prev":"' + sha(b"x").encode() + b'"')
    (tmp_path / "later.jsonl").write_bytes(b"\n".join([header, *dup.lines[1:]]) + b"\n")
    proc = verify(tmp_path, "later.jsonl")
    assert proc.returncode == 1
    assert "later.jsonl: line 1: the hash chain breaks here" in proc.stdout
    assert "the first line of a log has prev null" in proc.stdout


def test_a_bad_digest_option_is_one_line(dup: Played) -> None:
    one_line_error(verify(dup.folder, dup.name, "--digest", "sha256:abc"), "is not a digest")
    one_line_error(verify(dup.folder, dup.name, dup.name, "--digest", dup.digest),
                   "--digest checks one log, not 2")  # fmt: skip


def test_resume_continues_the_chain_after_a_crash(dup: Played, tmp_path: Path) -> None:
    # As if the arena was killed while writing deal 4: its line is cut short.
    cut = b"\n".join(dup.lines[:4]) + b"\n" + dup.lines[4][:100]
    log = tmp_path / "c.jsonl"
    log.write_bytes(cut)
    proc = ok(zole("match", "--resume", "c.jsonl", cwd=tmp_path))
    lines = lines_of(log)
    assert lines[4] == dup.lines[4][:100]  # ended with a newline, and kept
    assert json.loads(lines[5])["prev"] == sha(lines[4])  # the chain goes through it
    digest = digest_printed(proc.stdout, "c.jsonl")
    proc = ok(verify(tmp_path, "c.jsonl", "--digest", digest))
    assert "12 of 12 deals verify — ok" in proc.stdout
    assert "c.jsonl:5: truncated record" in proc.stderr  # a warning, as before


@pytest.mark.parametrize("how", ["more after its end", "a number too long to read"])
def test_a_whole_record_made_unreadable_is_damage_not_a_cut(
    dup: Played, tmp_path: Path, how: str
) -> None:
    # Only a line cut short is what an arena stopped while writing leaves (a warning). A whole
    # record made unreadable otherwise, to hide a deal, fails verification.
    lines = list(dup.lines)
    last = len(lines) - 1
    if how == "more after its end":
        lines[last] += b"x"
    else:
        lines[last] = re.sub(rb'"deal":\d+', b'"deal":' + b"1" * 5001, lines[last], count=1)
    (tmp_path / "d.jsonl").write_bytes(b"\n".join(lines) + b"\n")
    proc = verify(tmp_path, "d.jsonl")
    assert proc.returncode == 1, proc.stdout
    assert "damaged record" in proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr


def _as_format_1(line: bytes) -> bytes:
    """A format-2 line as the arena wrote it before the chain (format 1, no prev)."""
    found = re.match(rb'\{"format":"zole-arena","format_version":2,"prev":(null|"[0-9a-f]{64}"),',
                     line)  # fmt: skip
    assert found is not None
    return b'{"format":"zole-arena","format_version":1,' + line[found.end() :]


def test_a_resumed_format_1_log_goes_on_in_format_1(dup: Played, tmp_path: Path) -> None:
    log = tmp_path / "old.jsonl"
    log.write_bytes(b"".join(_as_format_1(line) + b"\n" for line in dup.lines[:4]))
    proc = ok(zole("match", "--resume", "old.jsonl", cwd=tmp_path))
    records = records_of(log)
    assert len(records) == 13
    assert all(r["format_version"] == 1 and "prev" not in r for r in records)
    digest = digest_printed(proc.stdout, "old.jsonl")
    proc = ok(verify(tmp_path, "old.jsonl", "--digest", digest))
    assert "note: old.jsonl: format 1 (written before the hash chain): edits to this log " \
        "cannot be detected" in proc.stderr  # fmt: skip
    assert "12 of 12 deals verify — ok" in proc.stdout


def test_a_resumed_format_1_tournament_goes_on_in_format_1(
    tournament: Played, tmp_path: Path
) -> None:
    # The tournament's workers send format-2 lines: the one writer makes them format 1.
    log = tmp_path / "old.jsonl"
    log.write_bytes(b"".join(_as_format_1(line) + b"\n" for line in tournament.lines[:3]))
    proc = ok(zole("tournament", "--resume", "old.jsonl", "--bootstrap", "10", cwd=tmp_path))
    records = records_of(log)
    assert [r["type"] for r in records] == ["tournament", "match", "deal", "deal"]
    assert all(r["format_version"] == 1 and "prev" not in r for r in records)
    ok(verify(tmp_path, "old.jsonl", "--digest", digest_printed(proc.stdout, "old.jsonl")))


def test_a_format_2_record_in_a_format_1_log_breaks_the_chain(dup: Played, tmp_path: Path) -> None:
    mixed = [_as_format_1(line) for line in dup.lines[:4]] + dup.lines[4:]
    (tmp_path / "mixed.jsonl").write_bytes(b"\n".join(mixed) + b"\n")
    proc = verify(tmp_path, "mixed.jsonl")
    assert proc.returncode == 1
    assert "line 5: the hash chain breaks here: a format-2 record in a format-1 log" in proc.stdout


@pytest.mark.parametrize("golden", sorted(GOLDEN.glob("format1-*.jsonl")), ids=lambda p: p.name)
def test_logs_of_format_1_still_verify_replay_and_rate(golden: Path) -> None:
    assert all(r["format_version"] == 1 for r in records_of(golden))
    proc = ok(verify(golden.parent, golden.name))
    assert re.search(r": (\d+) of \1 deals verify — ok", proc.stdout), proc.stdout
    assert "format 1 (written before the hash chain)" in proc.stderr
    proc = ok(zole("replay", golden.name, cwd=golden.parent))
    assert "Deal 1" in proc.stdout or "Table 1, deal 1" in proc.stdout
    ok(zole("ratings", golden.name, "--bootstrap", "20", cwd=golden.parent))


# -- what verify rejects ------------------------------------------------------------------------


def _deal(records: list[Record], number: int) -> Record:
    return next(r for r in records if r.get("type") == "deal" and r["deal"] == number)


def _no_culprit(records: list[Record]) -> None:
    _deal(records, 1)["culprit"] = None


def _culprit_of_another_seat(records: list[Record]) -> None:
    record = _deal(records, 1)
    record["culprit"] = dict(record["culprit"], seat=(record["culprit"]["seat"] + 1) % 3)


def _culprit_not_a_fault(records: list[Record]) -> None:
    _deal(records, 2)["faults"] = []


def _fault_of_another_deal(records: list[Record]) -> None:
    record = _deal(records, 2)
    record["faults"][0]["deal_no"] = 7
    record["culprit"]["deal_no"] = 7


def _lower_penalty(records: list[Record]) -> None:
    records[0]["settings"]["penalty"] = 1


FORFEIT_FORGERIES = [
    (_no_culprit, "deal 1: forfeit: seat 1 forfeits, but the culprit is None"),
    (_culprit_of_another_seat, "deal 1: forfeit: seat 1 forfeits, but the culprit is {"),
    (_culprit_not_a_fault, "deal 2: culprit: not one of the deal's faults"),
    (_fault_of_another_deal, "deal 2: fault 1: of deal 7, not 2"),
    (
        _lower_penalty,
        "deal 1: forfeit: seat 1 pays 7 to each other seat, the match's penalty is 1",
    ),
]


def _culprit_without_forfeit(records: list[Record]) -> None:
    fault = {"deal_no": 1, "seat": 0, "player": 0, "bot": "random", "kind": "timeout",
             "message": "made up", "request": None, "reply": None}  # fmt: skip
    _deal(records, 1)["culprit"] = fault
    _deal(records, 1)["faults"] = [fault]


def _other_rules(records: list[Record]) -> None:
    _deal(records, 3)["rules"]["description"] = "house rules"


def _another_deal_of_the_seed(records: list[Record]) -> None:
    # Deal 8 (block 2 in the second seating) put where deal 2 (block 1) belongs.
    index = next(i for i, r in enumerate(records) if r.get("deal") == 2)
    records[index] = dict(_deal(records, 8), deal=2)


def _more_deals_than_the_header(records: list[Record]) -> None:
    records[0]["deals"] = 1


def _not_zero_sum(records: list[Record]) -> None:
    totals = _deal(records, 12)["totals"]
    totals[0] += 1


def _hand_out_of_order(records: list[Record]) -> None:
    hand = _deal(records, 1)["hands"][0]
    hand[0], hand[1] = hand[1], hand[0]


def _pules_from_nowhere(records: list[Record]) -> None:
    _deal(records, 7)["pules_before"] = {"common": 0, "personal": [0, 0]}


def _wrong_dealer(records: list[Record]) -> None:
    _deal(records, 1)["dealer"] = 0


def _ended_early(records: list[Record]) -> None:
    _deal(records, 4)["result"]["ended_early"] = True  # wpt has no small zole to end early


def _soloist_tricks(records: list[Record]) -> None:
    _deal(records, 5)["result"]["soloist_tricks"] = 9


def _another_program(records: list[Record]) -> None:
    _deal(records, 2)["players"][1]["command"] = ["/bin/evil"]


def _another_version(records: list[Record]) -> None:
    _deal(records, 3)["players"][0]["version"] = "9.9"


def _played_by_the_arena(records: list[Record]) -> None:
    _deal(records, 6)["moves"][0]["request_id"] = None  # and no fault to say why


DUP_FORGERIES = [
    (_culprit_without_forfeit, "deal 1: culprit: {"),
    (_other_rules, "deal 3: rules: the record's differ from its match header's in ['description']"),
    (_another_deal_of_the_seed, "deal 2: deal 2 of the match is block 1 in seating [0, 2, 1], "
                                "not block 2 in seating [0, 2, 1]"),
    (_more_deals_than_the_header, "deal 7: beyond the 6 deals of its match"),
    (_not_zero_sum, "deal 12: totals: ["),
    (_hand_out_of_order, "deal 1: hand 0: ["),
    (_pules_from_nowhere, "deal 7: pules_before: the log says {'common': 0, 'personal': [0, 0]}"),
    (_wrong_dealer, "deal 1: dealer: seat 0, but deal_no 1 is dealt by seat 2"),
    # Red team 12: the result's other fields, the players' identities and the request ids
    # were not checked (a report shows them as logged).
    (_ended_early, "deal 4: ended_early: the log says True, the rules give False"),
    (_soloist_tricks, "deal 5: soloist_tricks: the log says 9, the rules give "),
    (_another_program, "deal 2: players 2: command is ['/bin/evil'], its header's "),
    (_another_version, "deal 3: players 1: version is '9.9', its header's "),
    (_played_by_the_arena, "deal 6: moves: the arena played 1 for seat "),
]  # fmt: skip


def _check_forgery(played: Played, tmp_path: Path, forge: Callable[[list[Record]], None],
                   said: str) -> subprocess.CompletedProcess[str]:  # fmt: skip
    records = copy(played.records)
    forge(records)
    (tmp_path / "forged.jsonl").write_bytes(rechain(records))
    proc = verify(tmp_path, "forged.jsonl")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert f"forged.jsonl: {said}" in proc.stdout, proc.stdout
    assert "hash chain" not in proc.stdout.replace("the hash chain covers every line", "")
    return proc


@pytest.mark.parametrize(("forge", "said"), FORFEIT_FORGERIES,
                         ids=[f.__name__[1:] for f, _ in FORFEIT_FORGERIES])  # fmt: skip
def test_verify_rejects_a_forged_forfeit(
    forfeits: Played, tmp_path: Path, forge: Callable[[list[Record]], None], said: str
) -> None:
    _check_forgery(forfeits, tmp_path, forge, said)


@pytest.mark.parametrize(("forge", "said"), DUP_FORGERIES,
                         ids=[f.__name__[1:] for f, _ in DUP_FORGERIES])  # fmt: skip
def test_verify_rejects_a_forged_deal(
    dup: Played, tmp_path: Path, forge: Callable[[list[Record]], None], said: str
) -> None:
    proc = _check_forgery(dup, tmp_path, forge, said)
    if forge is _not_zero_sum:
        assert "are not zero-sum" in proc.stdout
    if forge is _hand_out_of_order:
        assert "is not strongest first" in proc.stdout
        assert problem_lines(proc) == [
            line for line in problem_lines(proc) if "strongest first" in line
        ]  # the cards are the seed's: only their order is wrong


def test_the_forged_logs_are_whole_before_the_forgery(dup: Played, forfeits: Played) -> None:
    # What the forgeries start from verifies: each test's failure is its forgery's.
    for played in (dup, forfeits):
        rechained = rechain(copy(played.records))
        assert rechained == played.log.read_bytes()


def _setting(key: str, value: object) -> Callable[[Record], None]:
    def edit(header: Record) -> None:
        header["settings"][key] = value

    return edit


def _key(key: str, value: object) -> Callable[[Record], None]:
    def edit(header: Record) -> None:
        header[key] = value

    return edit


def _drop_setting(header: Record) -> None:
    del header["settings"]["max_faults"]


def _two_players(header: Record) -> None:
    header["players"] = header["players"][:2]


def _same_names(header: Record) -> None:
    header["players"][2]["name"] = header["players"][1]["name"]


def _no_command(header: Record) -> None:
    header["players"][0]["command"] = ""


MATCH_HEADERS = [
    (_setting("movetime_ms", 0), "settings.movetime_ms is 0, not a whole number of milliseconds"),
    (_setting("movetime_ms", "fast"), "settings.movetime_ms is 'fast', not a whole number"),
    (_setting("margin_ms", -1), "settings.margin_ms is -1, not a whole number of milliseconds"),
    (_setting("startup_ms", 0), "settings.startup_ms is 0, not"),
    (_setting("ping_ms", -5), "settings.ping_ms is -5, not"),
    (_setting("on_fault", "explode"), "settings.on_fault is 'explode', not forfeit or random"),
    (_setting("penalty", -3), "settings.penalty is -3, not null or a whole number from 0"),
    (_setting("max_faults", -1), "settings.max_faults is -1, not a whole number from 0"),
    (_setting("memory_mb", 0), "settings.memory_mb is 0, not null or a whole number of MiB from 1"),
    (_setting("cpu_seconds", 2.5), "settings.cpu_seconds is 2.5, not null or a whole number"),
    (_drop_setting, "settings.max_faults is missing"),
    (_key("settings", []), "settings is [], not an object"),
    (_key("deals", 0), "deals is 0, not a whole number from 1"),
    (_key("deals", "12"), "deals is '12', not a whole number from 1"),
    (_key("deals", 10**9 + 1), "deals is 1000000001, not a whole number from 1 to 1,000,000,000"),
    (_key("seed", -1), "seed is -1, not a whole number from 0 to 18446744073709551615"),
    (_key("seed", 2**64), "seed is 18446744073709551616, not a whole number from 0 to"),
    (_key("duplicate", "yes"), "duplicate is 'yes', not true or false"),
    (_key("rules", ["wpt"]), "rules is ['wpt'], not an object"),
    (_key("rules", {"preset": "wpt"}), "rules: "),
    (_two_players, "players has 2 bots, not 3 or 4"),
    (_same_names, "players 3: the name 'rulebot' is taken by another bot"),
    (_no_command, "players 1: command is '', not an argument list"),
]  # fmt: skip


@pytest.mark.parametrize(("edit", "said"), MATCH_HEADERS, ids=[s for _, s in MATCH_HEADERS])
def test_an_impossible_match_header_is_rejected_by_verify_and_resume(
    dup: Played, tmp_path: Path, edit: Callable[[Record], None], said: str
) -> None:
    records = copy(dup.records[:4])
    edit(records[0])
    (tmp_path / "h.jsonl").write_bytes(rechain(records))
    proc = verify(tmp_path, "h.jsonl")
    assert proc.returncode == 1
    assert f"h.jsonl: line 1: match header: {said}" in proc.stdout, proc.stdout
    assert "1 bad header(s)" in proc.stdout
    line = one_line_error(zole("match", "--resume", "h.jsonl", cwd=tmp_path))
    assert "h.jsonl: cannot resume: its match header is not valid: " in line
    assert said in line, line
    line = one_line_error(zole("standings", "h.jsonl", cwd=tmp_path))
    assert f"h.jsonl: cannot read: its match header is not valid: {said}" in line, line
    assert lines_of(tmp_path / "h.jsonl") == rechain(records)[:-1].split(b"\n")  # not touched


def _tournament_key(key: str, value: object) -> Callable[[Record], None]:
    def edit(header: Record) -> None:
        header[key] = value

    return edit


TOURNAMENT_HEADERS = [
    (_tournament_key("concurrency", 0), "concurrency is 0, not a whole number from 1"),
    (_tournament_key("tournament_format", "swiss"),
     "tournament_format is 'swiss', not round-robin, gauntlet, balanced or lzf"),
    (_tournament_key("tables", [[0, 1, 1]]), "tables is [[0, 1, 1]], not lists of three entrants"),
    (_tournament_key("gauntlet", "nobody"), "gauntlet 'nobody' is not one of the entrants"),
    (_tournament_key("entrants", []), "entrants has 0 bots, not at least 3"),
    (_tournament_key("seed", "7"), "seed is '7', not a whole number"),
    # A reader's schedule is sized by deals: 10**18 ran a resume out of memory.
    (_tournament_key("deals", 10**18),
     "deals is 1000000000000000000, not a whole number from 1 to 1,000,000,000"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("edit", "said"), TOURNAMENT_HEADERS, ids=[s for _, s in TOURNAMENT_HEADERS]
)
def test_an_impossible_tournament_header_is_rejected_by_verify_and_resume(
    tournament: Played, tmp_path: Path, edit: Callable[[Record], None], said: str
) -> None:
    records = copy(tournament.records)
    edit(records[0])
    (tmp_path / "t.jsonl").write_bytes(rechain(records))
    proc = verify(tmp_path, "t.jsonl")
    assert proc.returncode == 1
    assert f"t.jsonl: line 1: tournament header: {said}" in proc.stdout, proc.stdout
    line = one_line_error(zole("tournament", "--resume", "t.jsonl", cwd=tmp_path))
    assert "t.jsonl: cannot resume: its tournament header is not valid: " in line
    assert said in line, line
    line = one_line_error(zole("standings", "t.jsonl", cwd=tmp_path))
    assert f"t.jsonl: cannot read: its tournament header is not valid: {said}" in line, line


def test_a_table_runs_its_tournaments_programs(tournament: Played, tmp_path: Path) -> None:
    """Red team 12: a table's header was checked by its players' names alone, so it could run
    another program under an entrant's name."""
    records = copy(tournament.records)
    table = next(r for r in records if r["type"] == "match")
    table["players"][0]["command"] = ["/bin/evil"]
    (tmp_path / "t.jsonl").write_bytes(rechain(records))
    proc = verify(tmp_path, "t.jsonl")
    assert proc.returncode == 1
    assert (
        "t.jsonl: line 2: match header: players 1: command is ['/bin/evil'], the tournament's "
        "random has [" in proc.stdout
    ), proc.stdout


def test_a_round_robins_tables_are_its_entrants(tournament: Played, tmp_path: Path) -> None:
    """Red team 12: verify took a round-robin header's tables as written (standings refused
    them): they are the ones its entrants give."""
    records = copy(tournament.records)
    records[0]["tables"] = [[0, 2, 1]]
    (tmp_path / "t.jsonl").write_bytes(rechain(records))
    proc = verify(tmp_path, "t.jsonl")
    assert proc.returncode == 1
    assert (
        "t.jsonl: line 1: tournament header: tables: table 1 is [0, 2, 1], its round-robin's "
        "[0, 1, 2]" in proc.stdout
    ), proc.stdout


def test_a_tournaments_log_holds_its_tables_alone(
    tournament: Played, dup: Played, tmp_path: Path
) -> None:
    """Red team 13: a plain match, or a second tournament, appended (rechained) to a
    tournament's log verified, while standings refused the log and ratings counted the extra
    deals."""
    second = copy(tournament.records)
    second[0]["match_id"] = second[0]["tournament_id"] = "b" * 12
    for name, extra, said in (
        ("m.jsonl", dup.records, "a match that is no table of the log's tournament"),
        ("t2.jsonl", second[:1], "a second tournament in one log"),
    ):
        (tmp_path / name).write_bytes(rechain(copy(tournament.records) + copy(extra)))
        proc = verify(tmp_path, name)
        assert proc.returncode == 1, proc.stdout
        line = len(tournament.records) + 1
        assert f"{name}: line {line}: " in proc.stdout and said in proc.stdout, proc.stdout
    refused = zole("standings", "m.jsonl", cwd=tmp_path)
    assert refused.returncode != 0 and "Traceback" not in refused.stderr
    # The tournament's own log still verifies.
    assert verify(tournament.folder, tournament.name).returncode == 0


def test_a_table_must_play_as_its_tournament_says(tournament: Played, tmp_path: Path) -> None:
    records = copy(tournament.records)
    table = next(r for r in records if r["type"] == "match")
    table["seed"] += 1
    for record in records:
        if record["type"] == "deal":
            record["seed"] += 1  # consistent with its table's header, but not the tournament's
    (tmp_path / "t.jsonl").write_bytes(rechain(records))
    proc = verify(tmp_path, "t.jsonl")
    assert proc.returncode == 1
    seed = group_seed(3, 0)
    assert (
        f"t.jsonl: line 2: match header: seed: {seed + 1} is not table 1's, {seed} (every table "
        "of its tournament deals its own)" in proc.stdout
    )


# -- a log that cannot be written -----------------------------------------------------------------


def _limit_file_size(size: int) -> Callable[[], None]:
    def limit() -> None:  # Python ignores SIGXFSZ: a write past the limit fails with EFBIG
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))

    return limit


def _run_limited(size: int, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([PY, "-m", "zole_arena", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=120, check=False,
                          preexec_fn=_limit_file_size(size))  # fmt: skip


def test_a_log_that_cannot_be_written_stops_the_match_in_one_line(tmp_path: Path) -> None:
    limit = 20_000  # the header and a few deals
    proc = _run_limited(limit, "match", "random", "rulebot", "rulebot", "--deals", "20",
                        "--seed", "3", "--log", "m.jsonl", cwd=tmp_path)  # fmt: skip
    line = one_line_error(proc, "error: cannot write the log m.jsonl: File too large: ")
    found = re.search(r"the match stopped after deal (\d+), and the log keeps every deal before "
                      r"it whole; continue with --resume m.jsonl once it can be written$",
                      line)  # fmt: skip
    assert found is not None, line
    done = int(found.group(1))
    log = tmp_path / "m.jsonl"
    data = log.read_bytes()
    assert len(data) <= limit and data.endswith(b"\n")  # no half line
    records = records_of(log)
    assert [r["deal"] for r in records[1:]] == list(range(1, done + 1)) and done >= 1
    ok(verify(tmp_path, "m.jsonl"))
    # Once it can be written, the match goes on from the log, and the chain with it.
    proc = ok(zole("match", "--resume", "m.jsonl", cwd=tmp_path))
    assert f"{done} of 20 deals already played" in proc.stdout
    ok(verify(tmp_path, "m.jsonl", "--digest", digest_printed(proc.stdout, "m.jsonl")))


def test_a_log_whose_header_cannot_be_written_is_one_line(tmp_path: Path) -> None:
    proc = _run_limited(300, "match", "random", "rulebot", "rulebot", "--deals", "2", "--log",
                        "m.jsonl", cwd=tmp_path)  # fmt: skip
    one_line_error(proc, "cannot write the log m.jsonl: File too large: the match did not start")
    assert (tmp_path / "m.jsonl").read_bytes() == b""  # the part of the header is cut off


def test_a_log_that_cannot_be_written_stops_the_tournament_in_one_line(tmp_path: Path) -> None:
    # One table at a time: a worker told to stop while it starts a table's bots may print an
    # "Exception ignored" from a fork hook (the worker's SIGTERM handling, not the log's).
    limit = 40_000
    proc = _run_limited(limit, "tournament", "random", "rulebot", "rulebot", "random",
                        "--blocks", "2", "--seed", "3", "--concurrency", "1", "--log", "t.jsonl",
                        cwd=tmp_path)  # fmt: skip
    one_line_error(proc, "error: cannot write the log t.jsonl: File too large; the tournament "
                   "stopped (finished deals are in t.jsonl; fix that and continue with "
                   "'zole-arena tournament --resume t.jsonl')")  # fmt: skip
    data = (tmp_path / "t.jsonl").read_bytes()
    assert len(data) <= limit and data.endswith(b"\n")
    deals = [r for r in records_of(tmp_path / "t.jsonl") if r["type"] == "deal"]
    assert 1 <= len(deals) < 48
    ok(verify(tmp_path, "t.jsonl"))
    proc = ok(zole("tournament", "--resume", "t.jsonl", cwd=tmp_path))
    proc = ok(verify(tmp_path, "t.jsonl", "--digest", digest_printed(proc.stdout, "t.jsonl")))
    assert "48 of 48 deals verify — ok" in proc.stdout


def test_a_log_that_is_not_a_file_gets_nothing_beside_it(tmp_path: Path) -> None:
    before = set(os.listdir("/dev"))
    proc = ok(zole("match", "random", "rulebot", "rulebot", "--deals", "2", "--log",
                   "/dev/null", cwd=tmp_path))  # fmt: skip
    assert "log /dev/null  digest sha256:" in proc.stdout
    ok(zole("tournament", "random", "rulebot", "rulebot", "--no-duplicate", "--deals", "1",
            "--log", "/dev/null", cwd=tmp_path))  # fmt: skip
    made = {name for name in set(os.listdir("/dev")) - before if name.startswith("null")}
    assert not made, made
    assert not list(tmp_path.iterdir())


def test_a_log_file_gets_the_bots_stderr_beside_it(tmp_path: Path) -> None:
    # What the test above must not see for /dev/null is there for a real file.
    ok(zole("match", "random", "rulebot", "rulebot", "--deals", "1", "--log", "m.jsonl",
            cwd=tmp_path))  # fmt: skip
    assert (tmp_path / "m.jsonl.rulebot.stderr").exists()


def _sprt_edited(tmp_path: Path, edit: Callable[[list[Record]], None]) -> str:
    records = [
        json.loads(line)
        for line in (GOLDEN / "format2-sprt.jsonl").read_bytes().split(b"\n")
        if line
    ]
    edit([r for r in records if r.get("type") == "match"])
    (tmp_path / "s.jsonl").write_bytes(rechain(records))
    proc = verify(tmp_path, "s.jsonl")
    assert proc.returncode == 1, proc.stdout
    return proc.stdout


def test_a_head_to_head_test_is_its_players_and_one_setting(tmp_path: Path) -> None:
    """Red team 13: a test's NEW or OLD renamed (standings then refused the log, or counted
    other games) and a second match with other bounds verified."""

    def rename(headers: list[Record]) -> None:
        for header in headers:
            header["sprt"]["new"] = "nobody"

    said = _sprt_edited(tmp_path, rename)
    assert "match header: sprt: the players " in said and "test of 'nobody' against" in said

    def bounds(headers: list[Record]) -> None:
        headers[1]["sprt"]["elo1"] = headers[1]["sprt"]["elo1"] + 5

    said = _sprt_edited(tmp_path, bounds)
    assert "sprt: not the test settings of the log's first match of the test" in said
