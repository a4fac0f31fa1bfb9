"""Fair play (issue 11): real cheating bots against the real arena, sandboxed and not.

The bots of ``tests/hostile_bots/`` play legal moves and, at start and at their first
decision, attack: steal the seed, act for another bot through its pipes, kill the other bots,
rewrite the log, overwrite files, leave processes behind, hog memory and processes, flood their
stderr. Each reports every attempt on its stderr (``ATTACK <name> SUCCEEDED|FAILED ...``),
which the arena keeps in ``LOG.NAME.stderr``: those lines, the log, ``verify``, the files'
hashes and the process table (``/proc/*/cmdline``, searched for the test's marker) are the
oracle. Every match runs the real command line in a temporary folder, with ``HOME`` and the
cache there too (see :mod:`hostilehelp`), and a few deals only.

**The trust model.** Under ``--sandbox`` (bubblewrap) a bot sees only its own processes and
files: every attack must fail, the match must finish, only the attacker may be faulted, the
log must verify and nothing the bot started may survive it. Without a sandbox a bot runs as
the organizer's user, and some attacks cannot be stopped: it can read the seed (and so every
hand) and the organizer's environment, read and answer another bot's pipes, kill the other
bots or the arena, overwrite any file the organizer can, and spread its memory over many
processes. The unsandboxed tests assert that truth, so that it is known and shown; and they
assert what the arena stops even then: answers written ahead of their requests (random request
ids), processes that leave the bot's group, a stderr flood, edits of the log made without
recomputing its hash chain (caught by ``verify``), and a bot whose arena was killed with
``kill -9``.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import re
import shlex
import shutil
import signal
import subprocess
import sysconfig
from collections.abc import Callable
from pathlib import Path

import pytest
from hostilehelp import (
    ATTACKER,
    HOSTILE_BOTS,
    PY,
    ROOT,
    TIMEOUT,
    Run,
    arena_env,
    bot_command,
    digests,
    marked,
    match_args,
    player,
    roles,
    run_match,
    verify,
    wait_for,
    zole,
)

from zole_arena.catalogue.bundled import cache_dir
from zole_arena.isolation.cgroups import Layout
from zole_arena.isolation.cgroups import probe as probe_cgroups

#: The arena's default cap on a bot's stderr file, and what a marker line may add to it.
STDERR_CAP_MIB = 10
STDERR_SLACK = 64 * 1024
#: The whole-bot limits the sandboxed runs set.
MEMORY_LIMIT_MB = 600
PROCESS_LIMIT = 40
#: The bomb of the escaper, and every escape it tries.
BOMB = 255
ESCAPES = ("setsid", "setpgid", "double", "bomb")
#: A sandboxed escaper's process limit, above the bomb (the default, 128, would stop it).
ROOM_FOR_THE_BOMB = ("--max-processes", str(BOMB + 64))


def survivors(mark: str) -> dict[str, int]:
    """The roles of the marked processes still alive a moment after a run (up to a second:
    a process that was sent SIGKILL may take a few milliseconds to go)."""
    with contextlib.suppress(AssertionError):
        wait_for(lambda: not marked(mark), 1.0, "the marked processes to go")
    return roles(marked(mark), mark)


def contained(run: Run, mark: str, *, reports: bool = True) -> None:
    """The sandbox's promise for every attack: the match finished, every attempt failed, only
    the attacker was faulted (if anyone), the log verifies, nothing of the bot survived, and
    nothing was planted."""
    assert run.proc.returncode == 0, run.describe()
    assert "Traceback" not in run.proc.stderr, run.describe()
    attacks = run.attacks()
    if reports:
        assert attacks, f"the bot reported no attempt\n{run.describe()}"
    assert not [str(a) for a in attacks if a.succeeded], run.describe()
    assert run.faulted() <= {ATTACKER}, run.faults()
    checked = verify(run.log)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert not survivors(mark), survivors(mark)
    assert not planted(run.log.parent.parent), planted(run.log.parent.parent)


# -- the sandbox stops every attack ---------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Case:
    """A hostile bot in a sandboxed match, and what more to check."""

    bot: str
    args: Callable[[Path], list[str]] = lambda tmp: []
    options: tuple[str, ...] = ()
    others: Callable[[Path], tuple[str, ...]] = lambda tmp: ("random", "random")
    reports: bool = True
    """Whether the bot always lives to report (a flood's report may be past the cap)."""
    check: Callable[[Run, Path], None] = lambda run, tmp: None


def victim(tmp: Path) -> Path:
    """A copy of the random bot, the program of another player, for the planter to attack."""
    path = tmp / "victim" / "random_bot.py"
    if not path.exists():
        path.parent.mkdir(parents=True)
        shutil.copy(ROOT / "bots" / "random_bot.py", path)
    return path


def fake_build(tmp: Path) -> Path:
    """A file in the C bots' cache of the arena's environment (``XDG_CACHE_HOME`` in tmp)."""
    path = tmp / "xdg" / "zole-arena" / "zolebot-0123456789abcdef"
    if not path.exists():
        path.parent.mkdir(parents=True)
        path.write_bytes(b"\x7fELF built bot")
    return path


def real_files() -> list[Path]:
    """The real files the planter probes in a sandbox (it writes their first byte back, so a
    broken sandbox still leaves their content as it was): a bundled bot, the arena's code,
    the hostile bots themselves, and the C bots really built on this machine."""
    built = sorted(p for p in cache_dir().glob("*") if p.is_file())[:2]
    return [
        ROOT / "bots" / "random_bot.py",
        ROOT / "bots" / "c" / "zolebot.c",
        ROOT / "zole_arena" / "__init__.py",
        HOSTILE_BOTS / "planter.py",
        *built,
    ]


def real_folders() -> list[Path]:
    """Real folders the planter tries to create a file in (an unnamed one, dropped)."""
    return [ROOT / "bots", HOSTILE_BOTS, Path(sysconfig.get_paths()["purelib"])]


def planter_args(tmp: Path) -> list[str]:
    args = ["--confine", str(tmp)]
    for path in (victim(tmp), fake_build(tmp)):
        args += ["--target", str(path)]
    for path in (*real_files(), *real_folders()):
        args += ["--probe", str(path)]
    for folder in (tmp / "arena", tmp / "home"):
        args += ["--plant", str(folder)]
    return args


def planted(tmp: Path) -> list[Path]:
    """Files the planter planted anywhere the test looks (the arena's folder, HOME, and the
    real folders)."""
    folders = [tmp / "arena", tmp / "home", *real_folders()]
    return [p for folder in folders for p in folder.glob("zole-planted-*")]


def guarded(tmp: Path) -> list[Path]:
    """The files no sandboxed bot may change: the real ones and the planter's copies."""
    return [*real_files(), victim(tmp), fake_build(tmp)]


def thief_saw_nothing(run: Run, tmp: Path) -> None:
    text = run.stderr()
    assert str(run.seed) not in text, "the seed is in the thief's stderr"
    assert run.secret not in text, "the organizer's secret is in the thief's stderr"


def flood_capped(run: Run, tmp: Path) -> None:
    capped(run, STDERR_CAP_MIB)


def capped(run: Run, mib: int) -> None:
    path = run.stderr_path()
    size = path.stat().st_size
    assert size <= mib * 1024 * 1024 + STDERR_SLACK, f"{path} holds {size:,} bytes"
    with open(path, "rb") as handle:
        markers = [line for line in handle if b"stderr limit" in line]
    assert len(markers) == 1, markers[:3]


def memory_bounded(run: Run, tmp: Path) -> None:
    for attack in run.outcomes().get("memory-family", []):
        got = int(attack.detail.split()[0])
        assert got * 200 <= MEMORY_LIMIT_MB, attack


def processes_bounded(run: Run, tmp: Path) -> None:
    attack = run.outcomes()["process-count"][0]
    count = re.search(r"after (\d+) processes", attack.detail)
    assert count is not None and int(count.group(1)) < PROCESS_LIMIT, attack


def escapes_started(run: Run, tmp: Path) -> None:
    """The escapes were made (the sandbox does not forbid them: it outlives none of them).
    An escaped process reports its success itself if it is still alive a second after the
    bot died: sandboxed, none lives to (and the runs look for survivors in /proc too)."""
    notes = run.stderr()
    for role in ESCAPES:
        assert f"escape-{role}: started" in notes, notes


SANDBOX_CASES = [
    Case("seed_thief", check=thief_saw_nothing),
    Case("pipe_writer"),
    Case("sibling_killer", args=lambda tmp: ["--kill-arena"]),
    Case("log_rewriter"),
    Case(
        "planter",
        args=planter_args,
        others=lambda tmp: (player("victim", [PY, str(victim(tmp))]), "random"),
    ),
    # The bomb must fit the process limit, to show that all of it dies, not that it cannot be.
    Case("escaper", options=ROOM_FOR_THE_BOMB, reports=False, check=escapes_started),
    Case(
        "memory_hog_family",
        args=lambda tmp: ["--over", str(MEMORY_LIMIT_MB)],
        options=("--max-memory-mb", str(MEMORY_LIMIT_MB)),
        reports=False,  # the OOM killer may take the bot itself (its children go first)
        check=memory_bounded,
    ),
    Case(
        "process_counter",
        options=("--max-processes", str(PROCESS_LIMIT)),
        check=processes_bounded,
    ),
    Case("stderr_flood", reports=False, check=flood_capped),
]


@pytest.mark.parametrize("case", SANDBOX_CASES, ids=[case.bot for case in SANDBOX_CASES])
def test_sandbox_stops_the_attack(case: Case, tmp_path: Path, mark: str) -> None:
    """Sandboxed, each attack fails, the match finishes with the attacker faulted at most,
    the log verifies, nothing the bot started is left, and no file changed."""
    args = case.args(tmp_path)
    before = digests(guarded(tmp_path))
    run = run_match(
        tmp_path,
        bot_command(case.bot, mark, *args),
        *case.options,
        sandbox=True,
        others=case.others(tmp_path),
    )
    contained(run, mark, reports=case.reports)
    assert digests(before) == before, "a file changed"
    case.check(run, tmp_path)


# -- without a sandbox: what the arena stops anyway, and what it cannot ---------------------


def test_seed_thief_unsandboxed_reads_the_seed(tmp_path: Path, mark: str) -> None:
    """Trust model: unsandboxed, a bot reads the seed from the arena's command line and from
    the log, and so every hand of every deal, and the organizer's environment (from the
    arena's process: its own has none of the organizer's variables). Whatever seed
    it finds in the arena is the real one (the oracle does not cry wolf; a scan of every
    process's command line may also find other matches' seeds on this machine)."""
    run = run_match(tmp_path, bot_command("seed_thief", mark), sandbox=False)
    assert run.proc.returncode == 0, run.describe()
    outcomes = run.outcomes()
    for name in ("cmdline-start", "cmdline-go", "log-go"):
        [attack] = outcomes[name]
        assert attack.succeeded and f"seed={run.seed} " in attack.detail, attack
    for attack in run.attacks():
        if not attack.name.startswith(("cmdline-scan", "deal-hands")):
            for seed in re.findall(r"seed=(\d+)", attack.detail):
                assert int(seed) == run.seed, attack
    assert f"{run.seed}@" in outcomes["cmdline-scan-go"][0].detail
    hands = "|".join(",".join(hand) for hand in run.deals()[0]["hands"])
    dealt = [a.detail for a in outcomes["deal-hands"]]
    assert f"seed={run.seed} deal=1 hands={hands}" in dealt, dealt
    [attack] = outcomes["arena-environ-go"]  # the arena's process: readable, as its user's
    assert attack.succeeded and run.secret in attack.detail, attack
    # Its own environment no longer carries the organizer's: one rule, sandboxed or not.
    [attack] = outcomes["own-environ-go"]
    assert not attack.succeeded and run.secret not in attack.detail, attack


def test_seed_thief_unsandboxed_reads_a_random_seed_from_the_log(tmp_path: Path, mark: str) -> None:
    """Trust model: with no ``--seed`` on the command line, the log's header gives it away."""
    args, log, _ = match_args(tmp_path, bot_command("seed_thief", mark), sandbox=False)
    at = args.index("--seed")
    del args[at : at + 2]
    proc = zole(tmp_path, *args)
    assert proc.returncode == 0, proc.stderr
    run = Run(proc, log, 0, "")
    seed = run.records()[0]["seed"]
    outcomes = run.outcomes()
    assert not outcomes["cmdline-go"][0].succeeded
    [attack] = outcomes["log-go"]
    assert attack.succeeded and f"seed={seed} " in attack.detail, attack


def test_pipe_writer_unsandboxed(tmp_path: Path, mark: str) -> None:
    """Always: answers written into another bot's pipe ahead of its requests, for the ids a
    bot could predict, are not taken (request ids are random, and an answer that came before
    its request is dropped), so deal 1 has no fault.

    Trust model: unsandboxed, a bot that stops another and reads its input learns its hand
    and can answer its request for it (the victim forfeits deal 2). That race is the
    attacker's to win or lose (it waits for the victim's next request while playing on): when
    it wins, the victim is the one faulted."""
    run = run_match(tmp_path, bot_command("pipe_writer", mark), sandbox=False)
    assert run.proc.returncode == 0, run.describe()
    outcomes = run.outcomes()
    assert outcomes["open-pipes"][0].succeeded, outcomes
    [predicted] = outcomes["predict-ids"]
    assert not predicted.succeeded, predicted
    deals = run.deals()
    assert deals[0]["faults"] == [], deals[0]["faults"]
    stolen = outcomes.get("steal-stdin", [])
    if not any(a.succeeded for a in stolen):  # lost the race (or still waiting when it ended)
        assert not any(a.succeeded for a in outcomes.get("answer-for-sibling", [])), outcomes
        return
    [answered] = outcomes["answer-for-sibling"]
    assert answered.succeeded, answered
    [fault] = deals[1]["faults"]
    names = [p["name"] for p in run.records()[0]["players"]]
    assert names[fault["player"]] != ATTACKER and fault["kind"] == "garbage", fault


def test_sibling_killer_unsandboxed(tmp_path: Path, mark: str) -> None:
    """Trust model: unsandboxed, a bot can stop and kill the other bots (they are faulted
    for crashing, not the attacker) and stop the arena. The match still finishes, and its
    log verifies."""
    run = run_match(tmp_path, bot_command("sibling_killer", mark), sandbox=False)
    assert run.proc.returncode == 0, run.describe()
    outcomes = run.outcomes()
    assert [a.succeeded for a in outcomes["stop-sibling"]] == [True, True], outcomes
    assert [a.succeeded for a in outcomes["kill-sibling"]] == [True, True], outcomes
    assert outcomes["stop-arena"][0].succeeded, outcomes
    assert run.faulted() == {"random", "random#2"}, run.faults()
    assert {f["kind"] for f in run.faults()} == {"crash"}
    assert verify(run.log).returncode == 0


def test_sibling_killer_unsandboxed_kills_the_arena(tmp_path: Path, mark: str) -> None:
    """Trust model: unsandboxed, a bot can SIGKILL the arena itself.

    Always: the bot dies with it (the parent-death signal), before it can even report."""
    run = run_match(tmp_path, bot_command("sibling_killer", mark, "--kill-arena"), sandbox=False)
    assert run.proc.returncode == -signal.SIGKILL, run.describe()
    wait_for(lambda: not marked(mark), 5, "the bot to die with the arena")
    assert run.outcomes().get("kill-arena", []) == []


def test_log_rewriter_unsandboxed_is_caught_by_verify(tmp_path: Path, mark: str) -> None:
    """Trust model: unsandboxed, a bot can rewrite the log (here: deal 1 re-played in its
    favour with every total re-added, and one forged deal appended, both legal deals that a
    re-play alone cannot tell from real ones).

    Always: ``verify`` catches it (the log's hash chain). This bot does not recompute the
    chain; one that did (it can import zole_arena, or copy it) would pass ``verify`` alone, but
    not ``verify --digest`` with the digest the arena printed as the match ended, from its own
    memory, out of the bot's reach: that digest is what an organizer publishes."""
    run = run_match(tmp_path, bot_command("log_rewriter", mark), sandbox=False)
    assert run.proc.returncode == 0, run.describe()
    outcomes = run.outcomes()
    for name in ("rewrite-deal", "append-forged"):
        [attack] = outcomes[name]
        assert attack.succeeded, attack
    assert len(run.deals()) == 4, "the forged deal is not in the log"
    checked = verify(run.log)
    assert checked.returncode == 1, checked.stdout + checked.stderr
    printed = re.search(r"digest (sha256:[0-9a-f]{64})", run.proc.stdout)
    assert printed is not None, run.proc.stdout
    pinned = zole(tmp_path, "verify", str(run.log), "--digest", printed.group(1))
    assert pinned.returncode == 1 and "digest" in pinned.stdout + pinned.stderr


def test_planter_unsandboxed(tmp_path: Path, mark: str) -> None:
    """Trust model: unsandboxed, a bot can overwrite another bot's program and the built C
    bots (copies here), plant files in the arena's folder and in HOME, and could change the
    bundled bots, the arena's code and the venv (probed: written back unchanged)."""
    real = digests(real_files())
    run = run_match(
        tmp_path,
        bot_command("planter", mark, *planter_args(tmp_path)),
        sandbox=False,
        others=(player("victim", [PY, str(victim(tmp_path))]), "random"),
    )
    assert run.proc.returncode == 0, run.describe()
    outcomes = run.outcomes()
    assert [a.succeeded for a in outcomes["overwrite"]] == [True, True], outcomes["overwrite"]
    assert mark in victim(tmp_path).read_text()
    assert mark.encode() in fake_build(tmp_path).read_bytes()
    assert sorted(planted(tmp_path)) == sorted(
        folder / f"zole-planted-{mark}" for folder in (tmp_path / "arena", tmp_path / "home")
    )
    for name in ("bundled-bots", "arena-package", "venv", "c-cache"):
        assert outcomes[name] and all(a.succeeded for a in outcomes[name]), outcomes[name]
    assert digests(real) == real, "the probes changed a real file"


def test_escaper_unsandboxed_leaves_nothing(tmp_path: Path, mark: str) -> None:
    """Always: every process a bot started is gone when the bot is stopped, also one that
    called ``setsid`` or ``setpgid``, a double fork, and a fork bomb's 255 processes."""
    run = run_match(tmp_path, bot_command("escaper", mark), sandbox=False)
    assert run.proc.returncode == 0, run.describe()
    escapes_started(run, tmp_path)
    assert not survivors(mark), survivors(mark)


@pytest.mark.parametrize("limit_mib", [None, 1], ids=["default", "max-stderr-mb-1"])
def test_stderr_flood_unsandboxed_is_capped(
    limit_mib: int | None, tmp_path: Path, mark: str
) -> None:
    """Always: a bot's stderr file is capped (``--max-stderr-mb``, default 10 MiB) and then
    gets one marker line; the flooding bot plays on."""
    options = () if limit_mib is None else ("--max-stderr-mb", str(limit_mib))
    run = run_match(tmp_path, bot_command("stderr_flood", mark), *options, sandbox=False)
    assert run.proc.returncode == 0, run.describe()
    capped(run, limit_mib or STDERR_CAP_MIB)
    assert len(run.deals()) == 3


@pytest.mark.parametrize("cgroups", ["on", "off"])
def test_memory_hog_family_unsandboxed(tmp_path: Path, mark: str, cgroups: str) -> None:
    """Unsandboxed, a bot's process and the children it starts share a memory group where the
    machine has control groups: eight children of 200 MiB cannot all hold theirs under a 512
    MiB limit. Without groups (``ZOLE_ARENA_CGROUPS=off``; trust model) the limit bounds each
    process, not the bot: all eight get their memory."""
    if cgroups == "on" and probe_cgroups().layout is Layout.NONE:
        assert not os.environ.get("CI"), "CI runs as root, with control groups"
        pytest.skip("this machine has no control groups for the arena")
    run = run_match(
        tmp_path,
        bot_command("memory_hog_family", mark, "--over", "512"),
        "--max-memory-mb",
        "512",
        sandbox=False,
        env={"ZOLE_ARENA_CGROUPS": cgroups},
    )
    assert run.proc.returncode == 0, run.describe()
    [attack] = run.outcomes()["memory-family"]
    if cgroups == "off":
        assert attack.succeeded and attack.detail.startswith("8 of 8"), attack
    else:
        assert not attack.succeeded, attack
        held = int(attack.detail.split(" children held")[0].split(" of ")[0])
        assert held * 200 <= 512, attack


def test_process_counter_unsandboxed(tmp_path: Path, mark: str) -> None:
    """Trust model: unsandboxed, nothing bounds how many processes a bot starts (the arena
    runs as root here, which process limits do not bind); they are all gone after the match."""
    run = run_match(tmp_path, bot_command("process_counter", mark, "--cap", "100"), sandbox=False)
    assert run.proc.returncode == 0, run.describe()
    [attack] = run.outcomes()["process-count"]
    assert attack.succeeded, attack
    assert not survivors(mark), survivors(mark)


# -- kill -9 of the arena -------------------------------------------------------------------


def start_escaper_match(
    tmp: Path, mark: str, *bot_args: str, sandbox: bool
) -> subprocess.Popen[str]:
    """A long match of the escaper (which ignores the end of its input), running until the
    escaped processes all exist."""
    args, _, _ = match_args(
        tmp, bot_command("escaper", mark, "--ignore-eof", *bot_args), *ROOM_FOR_THE_BOMB,
        sandbox=sandbox, deals=10_000,
    )  # fmt: skip
    arena = subprocess.Popen(
        [PY, "-m", "zole_arena", *args],
        cwd=tmp / "arena",
        env=arena_env(tmp, "no-secret"),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )

    def ready() -> bool:
        if arena.poll() is not None:
            raise AssertionError(f"the arena ended first: {arena.stderr.read()}")  # type: ignore[union-attr]
        found = roles(marked(mark), mark)
        return found.get("bomb", 0) >= BOMB and all(found.get(r) for r in (*ESCAPES, "bot"))

    try:
        wait_for(ready, 30, "the escaped processes")
    except BaseException:
        arena.kill()
        arena.wait()
        raise
    return arena


def kill_arena(arena: subprocess.Popen[str]) -> None:
    arena.send_signal(signal.SIGKILL)
    assert arena.wait(TIMEOUT) == -signal.SIGKILL
    assert arena.stderr is not None
    arena.stderr.close()


def test_kill_9_of_a_sandboxed_arena_leaves_nothing(tmp_path: Path, mark: str) -> None:
    """Sandboxed, ``kill -9`` of the arena takes everything its bots started with it: the bot
    (which ignores the end of its input and clears its parent-death signal) and every
    escaped process."""
    arena = start_escaper_match(tmp_path, mark, "--clear-pdeathsig", sandbox=True)
    kill_arena(arena)
    try:
        wait_for(lambda: not marked(mark), 10, "every marked process to die")
    except AssertionError:
        raise AssertionError(f"survivors: {roles(marked(mark), mark)}") from None


def test_kill_9_of_an_arena_kills_its_bots(tmp_path: Path, mark: str) -> None:
    """Always: after ``kill -9`` of the arena, the bot's own process dies (its parent-death
    signal), even one that ignores the end of its input.

    Trust model: unsandboxed, the processes that left the bot's group may survive that (they
    are killed here by the test)."""
    arena = start_escaper_match(tmp_path, mark, sandbox=False)
    kill_arena(arena)
    try:
        wait_for(lambda: not roles(marked(mark), mark).get("bot"), 5, "the bot to die")
    except AssertionError:
        raise AssertionError(f"the bot survived: {roles(marked(mark), mark)}") from None


# -- the other commands ---------------------------------------------------------------------


def test_tournament_is_sandboxed_by_default(tmp_path: Path, mark: str) -> None:
    """A tournament sandboxes its bots unless told ``--no-sandbox``: the seed thief learns
    nothing by default, and (trust model) reads the seed with ``--no-sandbox``."""
    thief = player(ATTACKER, bot_command("seed_thief", mark))
    seed = int.from_bytes(os.urandom(7), "big")
    seen: dict[tuple[str, ...], str] = {}
    for sandbox_flag in ((), ("--no-sandbox",)):
        log = tmp_path / "arena" / f"t{len(seen)}.jsonl"
        proc = zole(
            tmp_path, "tournament", thief, "random", "random", "--deals", "2",
            "--no-duplicate", "--seed", str(seed), "--movetime", "3000", "--log", str(log),
            *sandbox_flag,
        )  # fmt: skip
        assert proc.returncode == 0, proc.stdout + proc.stderr
        text = (log.parent / f"{log.name}.stderr" / f"table-1.{ATTACKER}.stderr").read_text()
        seen[sandbox_flag] = text
    assert "SUCCEEDED" not in seen[()] and str(seed) not in seen[()], seen[()]
    assert f"ATTACK cmdline-go SUCCEEDED seed={seed} " in seen[("--no-sandbox",)]


def test_check_and_sprt_sandbox_their_bots(tmp_path: Path, mark: str) -> None:
    """``check --sandbox`` and ``sprt --sandbox`` run the bot sandboxed: the planter plants
    nothing in the arena's folder (unsandboxed it does: :func:`test_planter_unsandboxed`)."""
    planter = bot_command("planter", mark, "--plant", str(tmp_path / "arena"))
    checked = zole(tmp_path, "check", "--sandbox", shlex.join(planter))
    assert "Traceback" not in checked.stderr, checked.stderr
    assert "No such option" not in checked.stderr, checked.stderr
    assert not planted(tmp_path), (checked.stdout, checked.stderr)
    sprt = zole(
        tmp_path, "sprt", player("new", planter), "random", "--max-blocks", "1",
        "--movetime", "3000", "--log", str(tmp_path / "arena" / "s.jsonl"), "--sandbox",
    )  # fmt: skip
    assert sprt.returncode in (0, 4, 5), sprt.stdout + sprt.stderr
    assert not planted(tmp_path), (sprt.stdout, sprt.stderr)
