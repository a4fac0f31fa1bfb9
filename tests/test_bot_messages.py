"""What a bot author sees when a bot goes wrong, and what the arena lets them see: messages
that say what happened (a start that ends, output never flushed, debugging lines on stdout, a
command the shell split), the protocol transcript (``--transcript``), one environment for
plain and sandboxed bots, and memory limits that count memory used, not address space.

Every bot here is a real process on real pipes, started by the real command.
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

import pytest
from clihelp import PLAYS_FIRST_LEGAL, ok, together, zole, zoles

from zole_arena.isolation.cgroups import Layout
from zole_arena.isolation.cgroups import probe as probe_cgroups
from zole_arena.players import transcript as transcript_module
from zole_arena.players.session import BotConfig, BotSession
from zole_arena.records.model import DealRecord
from zole_arena.records.reader import read_log

TESTS = Path(__file__).parent
WIRE = TESTS / "helper_bots" / "wire_bot.py"
RESERVE = TESTS / "helper_bots" / "reserve_bot.py"
HOG = TESTS / "fault_bots" / "memory_hog.py"
PY = sys.executable
FAST = ("--movetime", "300")


def wire(*args: str) -> str:
    return " ".join([PY, str(WIRE), *args])


# -- start-up ------------------------------------------------------------------------------------


@pytest.mark.parametrize("sandboxed", [False, True], ids=["plain", "sandboxed"])
def test_unflushed_and_flushed_bots_fare_alike_plain_and_sandboxed(
    tmp_path: Path, sandboxed: bool
) -> None:
    """The organizer's ``PYTHONUNBUFFERED`` reaches no bot, sandboxed or not: an unflushed bot
    fails both ways with a message that asks about flushing and names ``--startup-ms``; a
    flushed one passes both ways."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}  # would hide the missing flush if passed on
    flags = ["--sandbox"] if sandboxed else []
    done, flushed = zoles(["check", *flags, *FAST, "--startup-ms", "1500",
                           wire("-", "--unflushed")],
                          ["check", *flags, *FAST, wire("-")], cwd=tmp_path, env=env)  # fmt: skip
    assert done.returncode == 1
    first = done.stdout.splitlines()[1]
    assert first == (
        "FAIL  1 start and handshake: the bot wrote nothing within the startup time of 1500 ms: "
        "is its output flushed after each line? (a program writing into a pipe keeps what it "
        "prints in a buffer until it flushes); a bot that needs longer to start gets it with "
        "--startup-ms (now 1500)"
    )
    # The transcript's end shows the arena's 'zole 1' and no answer.
    assert "the transcript's end" in done.stdout
    assert "]: zole 1" in done.stdout.splitlines()[3]
    assert flushed.returncode == 0, flushed.stdout
    assert "all 23 items passed" in flushed.stdout


def test_a_bot_that_ends_at_its_start_shows_its_last_stdout_and_stderr(tmp_path: Path) -> None:
    done = zole("check", *FAST, wire("-", "--dies-at-start"), cwd=tmp_path)
    assert done.returncode == 1
    line = done.stdout.splitlines()[1]
    assert line.startswith("FAIL  1 start and handshake: the bot ended during the handshake: ")
    assert "exit code 3" in line
    assert "its stderr ends: Traceback: the book is missing" in line
    assert line.endswith("; its stdout ends: fatal: cannot load the opening book")
    # The item's transcript shows both, each where it came from (stdout <, stderr #).
    shown = done.stdout.splitlines()[3:]
    assert any("<wire_bot[" in s and s.endswith(": fatal: cannot load the opening book")
               for s in shown), shown  # fmt: skip
    assert any("#wire_bot[" in s and s.endswith(": Traceback: the book is missing")
               for s in shown), shown  # fmt: skip


def test_a_bot_command_the_shell_split_gets_a_hint_to_quote_it(tmp_path: Path) -> None:
    hint = (
        "hint: a bot's command line is one argument: quote it, as in "
        'zole-arena check "java -cp build Bot" (or NAME="COMMAND")'
    )
    *split, counted, other = zoles(
        ["check", "java", "-cp", "build", "Bot"],
        ["check", PY, str(WIRE)],
        ["match", "rulebot", "random", PY, "-u", str(WIRE)],
        ["match", "rulebot", "random", "rulebot", PY, str(WIRE)],
        ["rules", "--bogus"],  # not a bot command: no hint
        cwd=tmp_path,
    )
    for done in split:
        assert done.returncode == 2, done.stderr
        assert done.stderr.rstrip().splitlines()[-1] == hint
        assert "Traceback" not in done.stderr
    assert counted.returncode == 1
    assert counted.stderr.strip() == (
        "error: a match needs 3 bots, or 4 at a table of four, not 5 (or none for a demo) (a "
        "bot's command line with spaces is one argument: quote it)"
    )
    assert other.returncode == 2 and "hint" not in other.stderr


# -- lines that are no protocol ------------------------------------------------------------------


def test_check_warns_of_debugging_lines_on_stdout_and_shows_the_first(tmp_path: Path) -> None:
    done, clean = map(ok, zoles(["check", *FAST, wire("-", "--chatty")],
                                ["check", *FAST, wire("-")], cwd=tmp_path))  # fmt: skip
    warning = [line for line in done.stdout.splitlines() if line.startswith("WARNING")]
    assert len(warning) == 1
    assert warning[0].startswith("WARNING the bot wrote ")
    assert "lines on its stdout that are no protocol message" in warning[0]
    assert "the first: 'thinking about bid in deal 1', " in warning[0]
    assert warning[0].endswith("Debugging output belongs on stderr.")
    assert "WARNING" not in clean.stdout


def test_a_match_counts_each_bots_stray_lines_in_its_log_and_results(tmp_path: Path) -> None:
    log = tmp_path / "m.jsonl"
    quiet = tmp_path / "q.jsonl"
    done, _ = map(ok, zoles(["match", f"chatty={wire('-', '--chatty')}", "rulebot", "random",
                             "--deals", "6", "--log", str(log), "--json"],
                            ["match", "rulebot", "random", "cbot", "--deals", "3", "--log",
                             str(quiet)], cwd=tmp_path))  # fmt: skip
    players = {p["name"]: p for p in json.loads(done.stdout)["players"]}
    decisions = players["chatty"]["time"]["decisions"]
    assert players["chatty"]["stray_lines"] == decisions > 0  # one line before each answer
    assert players["rulebot"]["stray_lines"] == players["random"]["stray_lines"] == 0
    records = [r for r in read_log(log)[0] if isinstance(r, DealRecord)]
    per_deal = [r.stray[r.names.index("chatty")] for r in records]
    assert sum(per_deal) == decisions and all(n > 0 for n in per_deal)
    text = log.read_text()
    assert '"stray":[' in text
    ok(zole("verify", str(log), cwd=tmp_path))
    # A log of bots that wrote none has no such key (three-player logs as before).
    assert '"stray"' not in quiet.read_text()


def test_verify_refuses_a_forged_stray_count(tmp_path: Path) -> None:
    log = tmp_path / "m.jsonl"
    ok(zole("match", f"chatty={wire('-', '--chatty')}", "rulebot", "random", "--deals", "3",
            "--log", str(log), cwd=tmp_path))  # fmt: skip
    lines = log.read_text().splitlines()
    index = next(i for i, line in enumerate(lines) if '"stray":[' in line)
    forged = json.loads(lines[index])
    forged["stray"] = [-1, "x", 2]
    lines[index] = json.dumps(forged)
    log.write_text("\n".join(lines) + "\n")
    done = zole("verify", str(log), cwd=tmp_path)
    assert done.returncode != 0
    assert "stray is [-1, 'x', 2], not three whole numbers from 0 to 10^9" in done.stdout + (
        done.stderr
    )


# -- the transcript ------------------------------------------------------------------------------


def _transcript(path: Path) -> list[tuple[str, str, str]]:
    """(who, direction, line) of each line of a transcript, in order."""
    rows = []
    lines = path.read_text().splitlines()
    assert lines[0].startswith("# zole-arena protocol transcript")
    for line in lines[1:]:
        date, clock, rest = line.split(" ", 2)
        assert len(date) == 10 and len(clock) == 15, line  # 2026-12-02 14:33:01.123456
        head, _, text = rest.partition(": ")
        rows.append((head[1:], head[0], text))
    return rows


def test_match_transcript_holds_every_line_both_ways_in_order(tmp_path: Path) -> None:
    record = tmp_path / "wire.txt"
    transcript = tmp_path / "t.txt"
    ok(zole("match", f"wire={wire(str(record), '--chatty')}", "rulebot", "cbot", "--deals",
            "6", "--transcript", str(transcript), cwd=tmp_path))  # fmt: skip
    rows = _transcript(transcript)
    who = {w for w, _, _ in rows}
    assert len(who) == 3 and {w.split("[")[0] for w in who} == {"wire", "rulebot", "cbot"}
    wire_rows = [(d, t) for w, d, t in rows if w.startswith("wire[")]
    # What the bot itself read and wrote, in its order, is the transcript's, line for line.
    told = [(line[0], line[2:]) for line in record.read_text().splitlines()]
    assert [(">" if d == ">" else "<", t) for d, t in wire_rows] == told
    assert wire_rows[0] == (">", "zole 1") and wire_rows[-1] == (">", "quit")
    assert sum(1 for _, t in wire_rows if t.startswith("go id ")) == 6 * 0 + len(
        [t for d, t in wire_rows if d == "<" and t.startswith("action ")]
    )
    for name in ("rulebot", "cbot"):
        mine = [(d, t) for w, d, t in rows if w.startswith(f"{name}[")]
        assert mine[0] == (">", "zole 1") and mine[-1] == (">", "quit")
        assert any(d == "<" and t.startswith("action ") for d, t in mine)


def test_transcripts_of_a_tournament_and_an_sprt_gather_every_process(tmp_path: Path) -> None:
    transcript = tmp_path / "t.txt"
    ok(zole("tournament", "rulebot", "random", "crandom", "cbot", "--deals", "3",
            "--concurrency", "2", "--no-sandbox", "--log", str(tmp_path / "t.jsonl"),
            "--transcript", str(transcript), cwd=tmp_path))  # fmt: skip
    rows = _transcript(transcript)
    processes: dict[str, list[tuple[str, str]]] = {}
    for who, direction, text in rows:
        processes.setdefault(who, []).append((direction, text))
    assert {w.split("[")[0] for w in processes} == {"rulebot", "random", "crandom", "cbot"}
    for lines in processes.values():  # whole lines, each process's in its order
        assert lines[0] == (">", "zole 1")
    sprt = tmp_path / "s.txt"
    undecided = zole("sprt", "rulebot", "random", "--max-blocks", "1", "--transcript",
                     str(sprt), cwd=tmp_path)  # fmt: skip
    assert undecided.returncode == 5, undecided.stderr  # no decision in one block
    names = {w.split("[")[0] for w, _, _ in _transcript(sprt)}
    assert {"rulebot", "random"} <= names


def test_a_transcript_shows_a_bots_control_characters_as_question_marks(tmp_path: Path) -> None:
    bot = tmp_path / "escape_bot.py"
    bot.write_text(
        "import sys\n"
        "for line in sys.stdin:\n"
        "    if line.startswith('zole'):\n"
        "        print('\\x1b[2Jid name \\x1b]0;owned\\x07E', flush=True)\n"
        "        print('\\u202eevil\\u200bname', file=sys.stderr, flush=True)\n"
        "        print('zoleok 1', flush=True)\n"
        "    elif line.startswith('isready'):\n"
        "        print('readyok', flush=True)\n" + PLAYS_FIRST_LEGAL
    )
    transcript = tmp_path / "t.txt"
    zole("check", *FAST, f"{PY} {bot}", "--transcript", str(transcript), cwd=tmp_path)
    text = transcript.read_text()
    assert "\x1b" not in text and "\x07" not in text
    assert "?[2Jid name ?]0;owned?E" in text
    assert "\u202e" not in text and "\u200b" not in text  # stderr: reordering, invisible
    assert "?evil?name" in text


def test_an_unwritable_transcript_is_one_line(tmp_path: Path) -> None:
    done = zole("check", "random", "--transcript", str(tmp_path / "no" / "such" / "t.txt"),
                cwd=tmp_path)  # fmt: skip
    assert done.returncode == 1
    assert done.stderr.strip().startswith("error: --transcript ")
    assert "No such file or directory" in done.stderr and len(done.stderr.splitlines()) == 1


# -- memory ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("flags", "env", "says"),
    [
        ([], {}, "out of memory: over the limit of 64 MiB"),
        (["--sandbox"], {}, "out of memory: over the whole bot's limit of 64 MiB"),
        ([], {"ZOLE_ARENA_CGROUPS": "off"}, "memory is limited to 64 MiB per process"),
        (["--sandbox"], {"ZOLE_ARENA_CGROUPS": "off"}, "memory is limited to 64 MiB per process"),
    ],
    ids=["plain", "sandboxed", "plain-no-cgroups", "sandboxed-no-cgroups"],
)
def test_a_bot_that_uses_more_memory_than_its_limit_is_stopped_and_told_so(
    tmp_path: Path, flags: list[str], env: dict[str, str], says: str
) -> None:
    if not env and probe_cgroups().layout is Layout.NONE:
        assert not os.environ.get("CI"), "CI runs as root, with control groups"
        pytest.skip("this machine has no control groups for the arena")
    done = zole("match", f"hog={PY} {HOG}", "rulebot", "random", "--deals", "1",
                "--max-memory-mb", "64", "--movetime", "5000", *flags, "--json",
                cwd=tmp_path, env={**os.environ, **env})  # fmt: skip
    summary = json.loads(done.stdout)
    faults = summary["faults"]
    assert len(faults) == 1 and "hog (seat 0) crash:" in faults[0], faults
    assert says in faults[0]


@pytest.mark.parametrize("flags", [[], ["--sandbox"]], ids=["plain", "sandboxed"])
@pytest.mark.parametrize("cgroups", ["on", "off"])
def test_address_space_reserved_and_never_used_is_not_memory(
    tmp_path: Path, flags: list[str], cgroups: str
) -> None:
    """A bot that reserves 16 GiB at its start, as runtimes reserve their heaps, passes
    ``check`` under the default 2 GiB limit (an address-space limit stopped it at once)."""
    env = {**os.environ, "ZOLE_ARENA_CGROUPS": cgroups}
    done = zole("check", *flags, *FAST, f"{PY} {RESERVE}", cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stdout
    assert "all 23 items passed" in done.stdout


# -- the environment -----------------------------------------------------------------------------


def test_plain_and_sandboxed_bots_get_the_same_environment(tmp_path: Path) -> None:
    """One rule both ways: the arena's PATH, locale and ZOLE_BOT_* variables, a HOME, the JVM's
    options; nothing else of the organizer's (a secret, one named ZOLE_… too,
    PYTHONUNBUFFERED)."""
    bot = tmp_path / "env_bot.py"
    bot.write_text(
        "import json, os, sys\n"
        "for line in sys.stdin:\n"
        "    if line.startswith('zole'):\n"
        "        print('id name Env', flush=True)\n"
        "        print('info ' + json.dumps(sorted(os.environ)), flush=True)\n"
        "        print('zoleok 1', flush=True)\n"
        "    elif line.startswith('isready'):\n"
        "        print('readyok', flush=True)\n" + PLAYS_FIRST_LEGAL
    )
    env = {**os.environ, "ORGANIZER_SECRET": "s3cret", "ZOLE_ORGANIZER_TOKEN": "s3cret",
           "PYTHONUNBUFFERED": "1", "ZOLE_BOT_DEPTH": "3", "LANG": "C.UTF-8"}  # fmt: skip

    def seen(*flags: str) -> set[str]:
        """The names of the environment a copy of the bot saw, checked with ``flags``."""
        transcript = tmp_path / f"t{len(flags)}.txt"
        zole("check", *flags, *FAST, f"{PY} {bot}", "--transcript", str(transcript),
             cwd=tmp_path, env=env)  # fmt: skip
        info = next(t for _, d, t in _transcript(transcript) if d == "<" and t.startswith("info"))
        return set(json.loads(info[5:]))

    plain, sandboxed = together(seen, lambda: seen("--sandbox"))
    assert plain == sandboxed, plain ^ sandboxed
    assert {"PATH", "HOME", "TMPDIR", "LANG", "ZOLE_BOT_DEPTH", "JAVA_TOOL_OPTIONS"} <= plain
    assert not {"ORGANIZER_SECRET", "ZOLE_ORGANIZER_TOKEN", "PYTHONUNBUFFERED"} & plain


def test_a_flooding_bot_fills_no_disk_through_the_transcript(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past :data:`MAX_FROM_BOT` of a bot's lines (made small here) the transcript takes no more
    of them, and says so once; the arena's own lines go on."""
    monkeypatch.setattr(transcript_module, "MAX_FROM_BOT", 20_000)
    bot = tmp_path / "flood_bot.py"
    bot.write_text(
        "import sys\n"
        "for line in sys.stdin:\n"
        "    if line.startswith('zole'):\n"
        "        print('id name Flood\\nzoleok 1', flush=True)\n"
        "    elif line.startswith('isready'):\n"
        "        print('\\n'.join(['\\u4e00' * 100] * 300), flush=True)\n"
        "        print('readyok', flush=True)\n"
    )
    path = tmp_path / "t.txt"
    session = BotSession(BotConfig(command=(PY, str(bot)), transcript=str(path)))
    try:
        for _ in range(3):
            session.ping()
    finally:
        session.kill()
    text = path.read_text()
    from_bot = [line for line in text.splitlines() if " <Flood[" in line or " <flood_bot[" in line]
    assert sum(len(line.encode()) + 1 for line in from_bot) < 20_000 + 1_000  # one line over
    notes = [line for line in text.splitlines() if " !" in line]
    assert len(notes) == 1 and "the rest of this bot's lines is left out" in notes[0]
    assert text.count(": isready") == 4  # the arena's own lines: the handshake's and three


# -- what the red team found ---------------------------------------------------------------------


def test_check_sandbox_hides_its_transcript_from_the_bot(tmp_path: Path) -> None:
    """The transcript holds every copy's hand: a sandboxed copy that looks for it beside its
    program (where the organizer put it) cannot read it."""
    bot = tmp_path / "peek_bot.py"
    bot.write_text(
        "import os, sys\n"
        "here = os.path.dirname(os.path.abspath(__file__))\n"
        "for line in sys.stdin:\n"
        "    if line.startswith('zole'):\n"
        "        try:\n"
        "            text = open(os.path.join(here, 't.txt')).read()\n"
        "            print('PEEK read', len(text), file=sys.stderr, flush=True)\n"
        "        except OSError as exc:\n"
        "            print('PEEK refused', exc.errno, file=sys.stderr, flush=True)\n"
        "        print('id name Peek\\nzoleok 1', flush=True)\n"
        "    elif line.startswith('isready'):\n"
        "        print('readyok', flush=True)\n" + PLAYS_FIRST_LEGAL
    )
    transcript = tmp_path / "t.txt"
    zole("check", "--sandbox", *FAST, f"{PY} {bot}", "--transcript", str(transcript),
         cwd=tmp_path)  # fmt: skip
    peeks = [t for _, d, t in _transcript(transcript) if d == "#" and t.startswith("PEEK")]
    assert peeks and all(t.startswith("PEEK refused") for t in peeks), peeks


def test_a_transcript_never_overwrites_a_file_that_is_not_one(tmp_path: Path) -> None:
    precious = tmp_path / "results.jsonl"
    precious.write_text('{"a": "log"}\n')
    (tmp_path / "d").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "d")  # the same file by another path
    again = tmp_path / "t.txt"  # a transcript may be written over by the next run
    done, same, linked, first = zoles(
        ["check", "random", "--transcript", str(precious)],
        ["match", "random", "random", "random", "--log", str(tmp_path / "m.jsonl"),
         "--transcript", str(tmp_path / "m.jsonl")],
        ["match", "random", "random", "random", "--log", str(tmp_path / "d" / "m.jsonl"),
         "--transcript", str(tmp_path / "link" / "m.jsonl")],
        ["check", "crandom", *FAST, "--transcript", str(again)],
        cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 1 and precious.read_text() == '{"a": "log"}\n'
    assert done.stderr.strip() == (
        f"error: --transcript {precious}: the file holds something other than a transcript: "
        "give a new name"
    )
    assert same.returncode == 1 and "it is the log too" in same.stderr
    assert not (tmp_path / "m.jsonl").exists()
    assert linked.returncode == 1 and "it is the log too" in linked.stderr
    ok(first)
    ok(zole("check", "crandom", *FAST, "--transcript", str(again), cwd=tmp_path))
    assert again.read_text().count("# zole-arena protocol transcript") == 1


def test_standings_warn_of_every_record_they_leave_out(tmp_path: Path) -> None:
    log = tmp_path / "m.jsonl"
    ok(zole("match", "rulebot", "random", "cbot", "--deals", "3", "--log", str(log),
            cwd=tmp_path))  # fmt: skip
    lines = log.read_text().splitlines()
    forged = json.loads(lines[-1])  # the last deal: the standings stop before it
    forged["stray"] = [-1, 0, 0]
    lines[-1] = json.dumps(forged)
    log.write_text("\n".join(lines) + "\n")
    done = zole("standings", str(log), cwd=tmp_path)
    assert done.returncode == 0
    assert "Results after 2 of 3 deals" in done.stdout
    warnings = [w for w in done.stderr.splitlines() if w.startswith("warning:")]
    assert len(warnings) == 1 and f"{log}:4: " in warnings[0], warnings
    assert "stray is [-1, 0, 0]" in warnings[0]


def test_a_fault_record_keeps_a_bounded_part_of_a_huge_answer(tmp_path: Path) -> None:
    """Faults of 64 KiB answers, many in one deal (``--on-fault random``), make no deal record
    longer than a log line may be: the reply and the message are cut, their length said."""
    bot = tmp_path / "garbage_bot.py"
    bot.write_text(
        "import sys\n"
        "for line in sys.stdin:\n"
        "    w = line.split()\n"
        "    if w and w[0] == 'zole':\n"
        "        print('id name G\\nzoleok 1', flush=True)\n"
        "    elif w and w[0] == 'isready':\n"
        "        print('readyok', flush=True)\n"
        "    elif w and w[0] == 'go':\n"
        "        print('action', w[2], 'X' * 65000, flush=True)\n"
        "    elif w and w[0] == 'quit':\n"
        "        break\n"
    )
    log = tmp_path / "g.jsonl"
    ok(zole("match", f"g={PY} {bot}", "rulebot", "random", "--deals", "3", "--on-fault",
            "random", "--max-faults", "1000", "--log", str(log), cwd=tmp_path))  # fmt: skip
    longest = max(len(line) for line in log.read_bytes().splitlines())
    assert longest < 200_000, longest
    faults = [f for r in read_log(log)[0] if isinstance(r, DealRecord) for f in r.faults]
    assert len(faults) >= 8
    for fault in faults:
        assert fault.reply is not None and len(fault.reply) < 1100
        assert re.search(r"X… \(65,0\d\d characters\)$", fault.reply), fault.reply[-40:]
        assert len(fault.message) < 1100
    ok(zole("verify", str(log), cwd=tmp_path))


def test_invisible_characters_of_a_bot_are_shown_as_question_marks(tmp_path: Path) -> None:
    done = zole("check", *FAST, wire("-", "--dies-at-start"), cwd=tmp_path)
    assert done.returncode == 1
    bot = tmp_path / "zw_bot.py"
    bot.write_text(
        "import sys\n"
        "print('fatal:\\u200bzero\\u2064width\\U000e0001tag\\u00adsoft', file=sys.stderr)\n"
        "sys.exit(2)\n"
    )
    done = zole("check", *FAST, f"{PY} {bot}", cwd=tmp_path)
    line = done.stdout.splitlines()[1]
    assert "fatal:?zero?width?tag?soft" in line, line


def test_a_transcript_stops_growing_at_its_size_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """However many processes share it, a transcript stops at :data:`MAX_FILE` (made small
    here): each process notes once that it stopped, and plays on."""
    monkeypatch.setattr(transcript_module, "MAX_FILE", 3000)
    path = tmp_path / "t.txt"
    sessions = [BotSession(BotConfig(command=(PY, str(WIRE)), transcript=str(path)))
                for _ in range(2)]  # fmt: skip
    try:
        for _ in range(20):
            for session in sessions:
                assert session.ping() >= 0  # the bots play on
    finally:
        for session in sessions:
            session.kill()
    text = path.read_text()
    notes = [line for line in text.splitlines() if "the transcript is full" in line]
    assert len(notes) == 2, notes
    assert len(text.encode()) < 3000 + 2 * 400
