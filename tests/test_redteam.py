"""Red team (issue 11): attacks that get past the sandbox as it is built now.

Each test runs a bot of ``tests/hostile_bots/redteam_*.py`` in a real sandboxed match through
the real command line (:mod:`hostilehelp`), and asserts what the sandbox should guarantee. They
fail until the hole each one shows is closed: the bot's docstring says how the attack works.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

from hostilehelp import (
    HOSTILE_BOTS,
    PY,
    ROOT,
    TIMEOUT,
    Run,
    bot_command,
    finished,
    parse_attacks,
    player,
    run_match,
    zole,
)

# -- a competitor's Python interpreter runs outside the sandbox -----------------------------


def competitor_venv(folder: Path) -> Path:
    """A virtual environment as a competitor ships it with their bot, with a ``.pth`` file
    that imports the payload at every start of its interpreter; its ``python``."""
    venv = folder / "venv"
    subprocess.run([PY, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=TIMEOUT)
    (site,) = venv.glob("lib/python*/site-packages")
    shutil.copy(HOSTILE_BOTS / "redteam_venv_payload.py", site)
    (site / "zz_redteam.pth").write_text("import redteam_venv_payload\n")
    return venv / "bin" / "python"


def test_a_bots_interpreter_never_runs_outside_the_sandbox(tmp_path: Path, mark: str) -> None:
    """The arena runs ``PYTHON -c ...`` unsandboxed to find the interpreter's installation
    (``sandbox._python_layout``): the competitor's venv's ``.pth`` runs as the organizer, in
    the host's namespaces, and passes the arena's ``--seed`` to the sandboxed bot."""
    python = competitor_venv(tmp_path / "alice")
    bot = [str(python), str(HOSTILE_BOTS / "redteam_venv_escape.py"), "--mark", mark]
    run = run_match(tmp_path, bot, sandbox=True)
    finished(run)
    loot = sorted(tmp_path.glob("alice/venv/lib/python*/site-packages/redteam_loot/*"))
    assert not loot, f"the competitor's code ran outside the sandbox: {loot[0].read_text()}"
    outcomes = run.outcomes()
    assert outcomes.get("venv_escape"), run.describe()
    assert not run.succeeded(), run.describe()
    assert str(run.seed) not in run.stderr(), "the sandboxed bot learnt the seed"


# -- writing outside /tmp -------------------------------------------------------------------


def test_a_sandboxed_bot_writes_nowhere_but_its_tmp(tmp_path: Path, mark: str) -> None:
    """docs/competitions.md: "a private /tmp of 64 MiB, the only place it can write". But
    bubblewrap's /dev is a writable tmpfs of no size: the bot writes 96 MiB to /dev/shm (with
    no control group — an organizer who is not root — nothing bounds it at all)."""
    run = run_match(tmp_path, bot_command("redteam_devshm", mark), sandbox=True)
    finished(run)
    outcomes = run.outcomes()
    assert set(outcomes) == {"dev_write", "devshm_past_tmp_cap"}, run.describe()
    assert not run.succeeded(), [str(a) for a in run.succeeded()]


# -- two colluding bots talk through the kernel ---------------------------------------------


def hand_claims(run: Run, attack: str) -> list[tuple[int, int, list[str]]]:
    """(deal, seat, cards) of every ``... deal N [seat M knows] seat S hand CARDS`` claim."""
    claims = []
    for found in run.outcomes().get(attack, []):
        match = re.search(r"deal (\d+) .*?seat (\d+) hand (\S+)$", found.detail)
        if found.succeeded and match:
            claims.append((int(match[1]), int(match[2]), match[3].split(",")))
    return claims


def true_claims(run: Run, attack: str) -> list[str]:
    """The claims of another seat's hand that the log shows right."""
    hands = {deal["deal"]: deal["hands"] for deal in run.deals()}
    return [
        f"deal {deal}: seat {seat} holds {','.join(cards)}"
        for deal, seat, cards in hand_claims(run, attack)
        if deal in hands and sorted(hands[deal][seat]) == sorted(cards)
    ]


def test_two_sandboxed_bots_cannot_share_a_hand(tmp_path: Path, mark: str) -> None:
    """Two bots of one author at a table: the sender locks (``flock``) one read-only system
    file per card of its hand, the receiver tests the locks. Locks are the kernel's, across
    every namespace: the receiver knows its ally's hand before a card is played."""
    receiver = bot_command("redteam_flock_channel", mark, "--role", "recv")
    sender = bot_command("redteam_flock_channel", mark, "--role", "send")
    run = run_match(
        tmp_path, receiver, sandbox=True, deals=4, others=(player("ally", sender), "random")
    )
    finished(run)
    assert run.outcomes().get("flock_channel"), run.describe()
    assert not true_claims(run, "flock_channel"), true_claims(run, "flock_channel")


# -- duplicate deals and a bot's memory -----------------------------------------------------


def test_a_bot_never_knows_another_hand_in_a_duplicate_block(tmp_path: Path, mark: str) -> None:
    """With ``--duplicate`` the same cards go to the same seats six times while the bots
    change seats, each bot one process for the whole match: from a block's third deal on, a
    bot has held another seat's hand of that very deal. Sandbox or not, it knows it."""
    bot = bot_command("redteam_duplicate_memory", mark)
    run = run_match(tmp_path, bot, "--duplicate", sandbox=True, deals=1)
    finished(run)
    assert len(run.deals()) == 6, run.describe()
    assert run.outcomes().get("duplicate_memory"), run.describe()
    assert not true_claims(run, "duplicate_memory"), true_claims(run, "duplicate_memory")


def test_the_payload_does_nothing_where_it_cannot_write(tmp_path: Path) -> None:
    """The venv test's oracle is sound: the payload writes its loot only where it may (so a
    sandboxed start, whose venv is read-only, leaves none), and does write it outside."""
    python = competitor_venv(tmp_path / "alice")
    site = next(tmp_path.glob("alice/venv/lib/python*/site-packages"))
    subprocess.run([str(python), "-c", "pass"], check=True, timeout=TIMEOUT, cwd=ROOT)
    assert len(list((site / "redteam_loot").glob("*.txt"))) == 1
    shutil.rmtree(site / "redteam_loot")
    site.chmod(0o555)
    try:
        env = {**os.environ, "PATH": os.defpath}
        subprocess.run([str(python), "-c", "pass"], check=True, timeout=TIMEOUT, env=env)
        if os.geteuid() != 0:  # root writes anywhere: the sandbox's read-only mount stops it
            assert not (site / "redteam_loot").exists()
    finally:
        site.chmod(0o755)


def test_a_default_tournament_gives_no_bot_another_hand(tmp_path: Path, mark: str) -> None:
    """A default tournament (sandboxed: a movement) deals each of a table's deals once: the
    memory attack, which needs a deal met twice, has nothing to remember."""
    bot = bot_command("redteam_duplicate_memory", mark)
    config = tmp_path / "event.toml"
    config.write_text(
        f'deals = 6\nlog = "t.jsonl"\n[[bots]]\nname = "hostile"\ncommand = {json.dumps(bot)}\n'
        '[[bots]]\ncommand = "random"\n[[bots]]\ncommand = "rulebot"\n'
    )
    done = zole(tmp_path, "tournament", "--config", str(config))
    assert done.returncode == 0, done.stdout + done.stderr
    log = tmp_path / "t.jsonl"
    attacks = parse_attacks((tmp_path / "t.jsonl.stderr" / "table-1.hostile.stderr").read_text())
    hands = {}
    for line in log.read_text().splitlines():
        record = json.loads(line)
        if record.get("type") == "deal":
            hands[record["deal"]] = record["hands"]
    assert len(hands) == 6 and len({json.dumps(h) for h in hands.values()}) == 6
    right = []
    for attack in attacks:
        found = re.search(r"deal (\d+) .*?seat (\d+) hand (\S+)$", attack.detail)
        if attack.succeeded and found:
            deal, seat, cards = int(found[1]), int(found[2]), found[3].split(",")
            if sorted(hands[deal][seat]) == sorted(cards):
                right.append(attack.detail)
    assert attacks, "the bot reported nothing"
    assert not right, right
