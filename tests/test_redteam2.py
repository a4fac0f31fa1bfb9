"""Red team, second round (issue 11): attacks that get past the fixes of the first round.

Each test runs a bot of ``tests/hostile_bots/redteam2_*.py`` in a real sandboxed match through
the real command line (:mod:`hostilehelp`), and asserts what the sandbox should guarantee. They
fail until the hole each one shows is closed: the bot's docstring says how the attack works.
"""

from __future__ import annotations

from pathlib import Path

from hostilehelp import bot_command, finished, player, run_match, true_claims

# -- a competitor's link in a folder the arena binds ----------------------------------------


def test_a_folder_argument_that_links_out_shows_nothing_of_the_organizer(
    tmp_path: Path, mark: str
) -> None:
    """``python3 alice/bot.py --data alice/data``: the folder argument is bound by the path as
    written, and bubblewrap follows the competitor's link (``data -> ..``) — the organizer's
    folder, with the log of the match unmasked (the hidden paths are masked only at their own
    paths). In a duplicate block the log holds the very deal being played."""
    data = tmp_path / "alice" / "data"
    data.parent.mkdir()
    data.symlink_to("..")
    bot = bot_command("redteam2_linked_folder", mark, "--data", data)
    run = run_match(tmp_path, bot, "--duplicate", sandbox=True, deals=1)
    finished(run)
    assert len(run.deals()) == 6, run.describe()
    assert run.outcomes().get("linked_folder"), run.describe()
    assert not true_claims(run, "linked_folder"), true_claims(run, "linked_folder")


# -- two colluders talk through a per-user kernel count -------------------------------------


def test_two_sandboxed_bots_cannot_share_a_hand_through_the_pipe_quota(
    tmp_path: Path, mark: str
) -> None:
    """The kernel counts every real user's pipe pages across all namespaces; past the soft
    limit a new pipe is small. The sender pushes the count over and back with
    ``F_SETPIPE_SZ`` (which the seccomp filter allows), the receiver reads a new pipe's size:
    a bit every 10 ms, the ally's whole hand early in every deal."""
    receiver = bot_command("redteam2_pipe_quota", mark, "--role", "recv")
    sender = bot_command("redteam2_pipe_quota", mark, "--role", "send")
    run = run_match(
        tmp_path, receiver, sandbox=True, deals=3, others=(player("ally", sender), "random")
    )
    finished(run)
    assert run.outcomes().get("pipe_quota"), run.describe()
    assert not true_claims(run, "pipe_quota"), true_claims(run, "pipe_quota")


# -- a bot's processes remember a block in the page cache -----------------------------------


def test_the_processes_of_one_bot_cannot_pass_a_duplicate_hand_through_the_page_cache(
    tmp_path: Path, mark: str
) -> None:
    """A process per seating, but one page cache for the machine: each process marks its
    hand in pages of a system file (``POSIX_FADV_DONTNEED``, then one-byte reads) and reads
    what the block's earlier processes marked (``preadv2(RWF_NOWAIT)`` fails for a page not in
    memory) — the other seats' hands of the deal it is playing."""
    bot = bot_command("redteam2_page_cache", mark)
    run = run_match(tmp_path, bot, "--duplicate", sandbox=True, deals=1)
    finished(run)
    assert len(run.deals()) == 6, run.describe()
    assert run.outcomes().get("page_cache"), run.describe()
    assert not true_claims(run, "page_cache"), true_claims(run, "page_cache")
