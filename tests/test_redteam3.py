"""Red team, third round (issue 23): channels through the kernel's shared objects, a bot that
takes the CPU its rivals need, and limits that held per process instead of per bot.

Each test runs a hostile bot of ``tests/hostile_bots/redteam3_*.py`` in real sandboxed matches
or tournaments through the real command line (:mod:`hostilehelp`); where the oracle could be
wrong, the same bot is run where the attack must work (unsandboxed), to show that it does.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from hostilehelp import (
    TESTS,
    Run,
    bot_command,
    finished,
    parse_attacks,
    player,
    run_match,
    zole,
)

HELPER_BOTS = TESTS / "helper_bots"


def claims(attacks_text: str) -> list[str]:
    return [str(a) for a in parse_attacks(attacks_text) if a.succeeded]


def true_claims(run: Run, attack: str, name: str = "hostile") -> list[str]:
    """The attacker's claims of another seat's hand that the log shows right."""
    hands = {deal["deal"]: deal["hands"] for deal in run.deals()}
    right = []
    for found in run.outcomes(name).get(attack, []):
        claim = re.search(r"deal (\d+) .*?seat (\d+) hand (\S+)", found.detail)
        if not found.succeeded or claim is None:
            continue
        deal, seat, cards = int(claim[1]), int(claim[2]), claim[3].split(",")
        if deal in hands and sorted(hands[deal][seat]) == sorted(cards):
            right.append(f"deal {deal}: seat {seat} holds {','.join(cards)}")
    return right


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
