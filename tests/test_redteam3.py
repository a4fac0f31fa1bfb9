"""Red team, third round (issue 23): channels through the kernel's shared objects, a bot that
takes the CPU its rivals need, and limits that held per process instead of per bot.

Each test runs a hostile bot of ``tests/hostile_bots/redteam3_*.py`` in real sandboxed matches
or tournaments through the real command line (:mod:`hostilehelp`); where the oracle could be
wrong, the same bot is run where the attack must work (unsandboxed), to show that it does.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hostilehelp import (
    TESTS,
    bot_command,
    finished,
    parse_attacks,
    player,
    run_match,
    true_claims,
    verify,
    zole,
)

HELPER_BOTS = TESTS / "helper_bots"


def claims(attacks_text: str) -> list[str]:
    return [str(a) for a in parse_attacks(attacks_text) if a.succeeded]


# -- futexes ---------------------------------------------------------------------------------


def test_the_futex_channel_works_between_unsandboxed_processes(tmp_path: Path, mark: str) -> None:
    """The oracle: two colluding processes without the sandbox learn each other's whole hand
    through futexes keyed by the C library's file (so the sandboxed tests below would see it)."""
    bot = bot_command("redteam3_futex", mark, "--block", "1")
    run = run_match(tmp_path, bot, sandbox=False, deals=3, others=(player("ally", bot), "random"))
    finished(run)
    assert len(true_claims(run, "futex_channel")) >= 3, run.describe()


def test_no_futex_channel_between_a_bots_own_seatings_or_colluders(
    tmp_path: Path, mark: str
) -> None:
    """A sandboxed duplicate match: each of a bot's six seating processes of a block publishes
    its hand on futexes and probes the others' — its own earlier seatings and its ally's at the
    same table. Nothing is learnt: a shared futex never sleeps and its wake finds nobody."""
    bot = bot_command("redteam3_futex", mark)
    run = run_match(tmp_path, bot, "--duplicate", sandbox=True, deals=1,
                    others=(player("ally", bot), "random"))  # fmt: skip
    finished(run)
    assert len(run.deals()) == 6, run.describe()
    for name in ("hostile", "ally"):
        outcomes = run.outcomes(name).get("futex_channel", [])
        assert outcomes, run.describe()
        assert not [str(a) for a in outcomes if a.succeeded], run.stderr(name)
        assert all("refused" in a.detail for a in outcomes)  # it did try to park its cards
    assert not run.faults(), run.faults()  # the bots that use futexes this way play on


def test_no_futex_channel_between_tables_played_at_once(tmp_path: Path, mark: str) -> None:
    """A default (sandboxed) tournament of two such bots and two honest ones, two tables at
    once: the tables play the same deals at the same time, and no process learns a card."""
    bot = bot_command("redteam3_futex", mark)
    config = tmp_path / "event.toml"
    config.write_text(
        f'deals = 1\nconcurrency = 2\nlog = "t.jsonl"\n'
        f'[[bots]]\nname = "hostile"\ncommand = {json.dumps(bot)}\n'
        f'[[bots]]\nname = "ally"\ncommand = {json.dumps(bot)}\n'
        '[[bots]]\ncommand = "random"\n[[bots]]\ncommand = "rulebot"\n'
    )
    done = zole(tmp_path, "tournament", "--config", str(config), timeout=180)
    assert done.returncode == 0, done.stdout + done.stderr
    files = sorted((tmp_path / "t.jsonl.stderr").glob("table-*.*.stderr"))
    hostile = [f for f in files if f.name.split(".")[1] in ("hostile", "ally")]
    assert len(hostile) == 6, files  # 4 tables, 3 with each of the two
    texts = [f.read_text() for f in hostile]
    assert all(parse_attacks(text) for text in texts)
    assert not [c for text in texts for c in claims(text)]


def test_threads_and_process_shared_locks_still_work_sandboxed(tmp_path: Path) -> None:
    """What the futex rules leave working: a sandboxed bot that counts under a contended
    ``threading.Lock`` (private futexes), a contended ``multiprocessing.Lock`` (a
    process-shared semaphore: shared futexes, whose waiters now spin) and a
    ``multiprocessing.Pool`` reaches every total, at every decision, without a fault."""
    workers = [sys.executable, str(HELPER_BOTS / "workers_bot.py")]
    run = run_match(tmp_path, workers, "--duplicate", sandbox=True, deals=1)
    finished(run)
    lines = [line for line in run.stderr().splitlines() if line.startswith("WORKED")]
    assert len(lines) >= 6, run.describe()  # at least one decision a deal
    assert set(lines) == {"WORKED threads=8000 processes=8000 pool=2500"}, set(lines)
    assert not run.faults(), run.faults()


# -- the CPU and memory of a whole bot -------------------------------------------------------


def test_a_cpu_hog_with_setsid_children_does_not_starve_honest_bots(
    tmp_path: Path, mark: str
) -> None:
    """A bot whose 16 children each start a session of their own and spin, at a table with
    two honest bots that need 150 ms of CPU for every decision at ``--movetime 1000``: each
    bot is one CPU share however many processes it runs, so the honest bots answer in time."""
    hog = bot_command("redteam3_cpu_hog", mark)
    honest = [sys.executable, str(HELPER_BOTS / "cpu_bot.py"), "--cpu-ms", "150"]
    run = run_match(tmp_path, hog, "--movetime", "1000", sandbox=True, deals=1,
                    others=(player("honest1", honest), player("honest2", honest)))  # fmt: skip
    finished(run)
    assert "spinning 16 children" in run.stderr(), run.stderr()
    assert not run.faults(), run.faults()
    for name in ("honest1", "honest2"):
        decided = re.findall(r"DECIDED cpu_ms=(\d+) wall_ms=(\d+)", run.stderr(name))
        assert decided, run.describe()
        assert all(int(cpu) >= 150 for cpu, _ in decided)  # they really computed


def test_a_bot_past_its_cpu_allowance_is_stopped_when_it_passes_it(
    tmp_path: Path, mark: str
) -> None:
    """``--max-cpu-s 1``: the hog's children pass one second of CPU beyond its thinking time
    in the first deal, while the honest bots think; it is killed then (within a watchdog
    period of passing it), not when the deal ends, and the honest bots are not touched."""
    hog = bot_command("redteam3_cpu_hog", mark)
    honest = [sys.executable, str(HELPER_BOTS / "cpu_bot.py"), "--cpu-ms", "150"]
    honest_pair = (player("honest1", honest), player("honest2", honest))
    run = run_match(tmp_path, hog, "--movetime", "1000", "--max-cpu-s", "1", sandbox=True,
                    deals=1, others=honest_pair)  # fmt: skip
    finished(run)
    faults = run.faults()
    assert faults and {f["player"] for f in faults} == {0}, faults
    first = faults[0]
    assert first["deal_no"] == 1, first  # the only deal: never "between deals"
    used = re.search(r"used ([\d.]+) s of CPU time, over its allowance of 1 s beyond the "
                     r"([\d.]+) s it spent deciding", first["message"])  # fmt: skip
    assert used, first["message"]
    assert float(used[1]) < 1 + float(used[2]) + 0.5, first["message"]


def test_a_bots_seating_processes_hold_no_more_than_its_memory_limit(
    tmp_path: Path, mark: str
) -> None:
    """A sandboxed duplicate match keeps six processes of each bot, one per seating; each of
    these holds 70 MiB. Under ``--max-memory-mb 200`` (each seating's share: 33 MiB) the bot
    is stopped, with a message that says so (with per-process limits all six held 420 MiB
    at once)."""
    bot = bot_command("redteam3_seating_memory", mark, "--mib", "70")
    run = run_match(tmp_path, bot, "--duplicate", "--max-memory-mb", "200", sandbox=True,
                    deals=2)  # fmt: skip
    assert run.proc.returncode in (0, 3), run.describe()  # 3: disqualified, as it should be
    assert "Traceback" not in run.proc.stderr, run.describe()
    assert verify(run.log).returncode == 0
    faults = run.faults()
    assert faults and {f["player"] for f in faults} == {0}, faults
    assert any("share of the bot's limit, 33 of 200 MiB" in f["message"] for f in faults), faults
    assert run.stderr().count("holding 70 MiB") < 6 + len(faults), run.stderr()


# -- the machine's counters ------------------------------------------------------------------


def test_the_machines_counters_in_proc_carry_nothing_out_of_a_sandbox(
    tmp_path: Path, mark: str
) -> None:
    """A bot holds memory, forks, opens files and spins, and reads ``/proc`` before and after:
    unsandboxed every counter moves (the oracle); sandboxed none does (fixed texts)."""
    bot = bot_command("redteam3_proc_counters", mark)
    (tmp_path / "plain").mkdir()
    (tmp_path / "boxed").mkdir()
    plain = run_match(tmp_path / "plain", bot, sandbox=False, deals=1)
    finished(plain)
    moved = plain.outcomes()["proc_counters"]
    assert moved[0].succeeded and "stat" in moved[0].detail, moved  # forks only ever grow
    boxed = run_match(tmp_path / "boxed", bot, sandbox=True, deals=1)
    finished(boxed)
    outcome = boxed.outcomes()["proc_counters"]
    assert not outcome[0].succeeded, outcome
    assert "meminfo" in outcome[0].detail  # the files were there to read


def test_a_jvm_bot_that_thinks_in_threads_works_sandboxed(tmp_path: Path) -> None:
    """A JVM's threads lock with private futexes (its monitors, its pool, its atomics): a
    Java bot whose four pool threads count under a contended monitor at every decision plays
    a sandboxed duplicate block, six JVMs of it in one group, without a fault. (A JVM needs a
    heap size under the default memory limit: ``-Xmx``.)"""
    javac = shutil.which("javac")
    if javac is None:
        assert not os.environ.get("CI"), "CI installs a JDK (.ci/run)"
        pytest.skip("no JDK here")
    classes = tmp_path / "classes"
    subprocess.run([javac, "-d", str(classes), str(HELPER_BOTS / "ThreadsBot.java")],
                   check=True, timeout=120)  # fmt: skip
    java = ["java", "-Xmx64m", "-XX:+UseSerialGC", "-cp", str(classes), "ThreadsBot"]
    run = run_match(tmp_path, java, "--duplicate", sandbox=True, deals=1)
    finished(run)
    lines = [line for line in run.stderr().splitlines() if line.startswith("WORKED")]
    assert len(lines) >= 6, run.describe()
    assert set(lines) == {"WORKED synchronized=80000 atomic=80000"}, set(lines)
    assert not run.faults(), run.faults()


def test_a_bots_seating_processes_cannot_count_each_others_threads(
    tmp_path: Path, mark: str
) -> None:
    """The red team's channel of round 3: with one process count for the whole bot, a seating
    process that held 40 threads told the later ones its number (whole hands, exactly). Each
    seating has its share of the bot's limit: all six count the same headroom, whatever the
    earlier ones hold."""
    bot = bot_command("redteam3_thread_count", mark, "--hold", "10")
    run = run_match(tmp_path, bot, "--duplicate", sandbox=True, deals=1)
    finished(run)
    rooms = [int(n) for n in re.findall(r"NOTE headroom (\d+)", run.stderr())]
    assert len(rooms) == 6, run.describe()
    assert max(rooms) - min(rooms) <= 1, rooms
    assert 20 <= min(rooms) <= 256 // 6, rooms  # a sixth of --max-processes, less its own


def test_a_stderr_flood_past_its_cap_is_throttled(tmp_path: Path, mark: str) -> None:
    """Past ``--max-stderr-mb`` the arena reads a bot's stderr 64 KiB at a time, ten times a
    second, and drops it: the flooder waits on its own full pipe instead of making the arena
    read gigabytes for it (its CPU is the arena's: no bot's share or allowance counts it)."""
    count = tmp_path / "count"
    bot = bot_command("redteam3_stderr_flood", mark, "--count-file", count)
    started = time.monotonic()
    run = run_match(tmp_path, bot, "--max-stderr-mb", "1", sandbox=False, deals=20)
    elapsed = time.monotonic() - started
    finished(run)
    taken = int(count.read_text())
    # 1 MiB to the file, then at most 640 KiB a second (and a pipe's buffer): a bound, with
    # room, not a timing; without the throttle the arena takes hundreds of MiB a second.
    assert taken < (1 + 1 + 2 * elapsed) * 2**20, (taken, elapsed)
    assert run.stderr_path().stat().st_size < 2 * 2**20


# -- names the arena writes are names its readers accept ---------------------------------------


def test_a_config_name_with_control_characters_is_refused(tmp_path: Path) -> None:
    config = tmp_path / "event.toml"
    config.write_text(
        'deals = 1\n[[bots]]\nname = "evil\\u001b[2J"\ncommand = "random"\n'
        '[[bots]]\ncommand = "random"\n[[bots]]\ncommand = "rulebot"\n'
    )
    done = zole(tmp_path, "tournament", "--config", str(config))
    assert done.returncode != 0, done.stdout + done.stderr
    assert "bot 1's name" in done.stderr and "\x1b" not in done.stderr + done.stdout
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr


def test_a_program_whose_file_name_has_escapes_gets_a_printable_name(tmp_path: Path) -> None:
    """A bot given only as a command is named after its program's file name: one with a
    control character in it is shown with ``?``, and the log it writes verifies."""
    folder = tmp_path / "arena"
    folder.mkdir()
    program = folder / "bot\x1b[2J.py"
    program.write_text((TESTS.parent / "bots" / "random_bot.py").read_text())
    log = folder / "m.jsonl"
    done = zole(tmp_path, "match", f"{sys.executable} '{program}'", "random", "rulebot",
                "--deals", "1", "--log", str(log))  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "\x1b" not in done.stdout + done.stderr
    header = json.loads(log.read_text().splitlines()[0])
    assert header["players"][0]["name"] == "bot?[2J"
    assert verify(log).returncode == 0
