"""Line I/O of a bot process: :meth:`BotProcess.exchange` (a request and its answer in one
call, the match's hottest path) against a real scripted bot over real pipes.

The bot (``SCRIPTED``) answers each line it reads by its first word, so a test can make it
write one whole line, two lines in one write, a line in two writes (the second only after the
arena sends ``more``), or exit. Nothing sleeps: where the arena must wait, a short deadline
bounds the wait.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator

import pytest

from zole_arena.errors import BotCrashedError, BotTimeoutError
from zole_arena.players.botproc import BotProcess
from zole_arena.players.session import BotConfig, BotSession

SCRIPTED = r"""
import sys
out = sys.stdout
for line in sys.stdin:
    word = line.split()[0]
    if word == "one":
        out.write("action 1 QC\n")
    elif word == "two":
        out.write("info depth 2\naction 2 9H\n")
    elif word == "half":
        out.write("action 3 ")
    elif word == "more":
        out.write("TD\n")
    elif word == "zole":
        out.write("zoleok 1\n")
    elif word == "isready":
        out.write("readyok\n")
    elif word == "bye":
        break
    out.flush()
"""


@pytest.fixture
def bot() -> Iterator[BotProcess]:
    process = BotProcess([sys.executable, "-c", SCRIPTED])
    yield process
    process.kill()


def soon(seconds: float = 5.0) -> float:
    return time.monotonic() + seconds


def test_one_whole_line_comes_back(bot: BotProcess) -> None:
    assert bot.exchange("one", soon()) == "action 1 QC"
    assert bot.exchange("one", soon()) == "action 1 QC"  # nothing is left over between


def test_two_lines_in_one_write_are_read_in_turn(bot: BotProcess) -> None:
    assert bot.exchange("two", soon()) == "info depth 2"
    assert bot.read_line(soon()) == "action 2 9H"  # kept from the same read
    assert bot.exchange("one", soon()) == "action 1 QC"


def test_a_line_in_two_writes_is_joined(bot: BotProcess) -> None:
    with pytest.raises(BotTimeoutError):
        bot.exchange("half", time.monotonic() + 0.2)  # only "action 3 " came
    assert bot.exchange("more", soon()) == "action 3 TD"
    assert bot.exchange("one", soon()) == "action 1 QC"


def test_a_bot_that_exits_is_a_crash(bot: BotProcess) -> None:
    with pytest.raises(BotCrashedError, match="exit code 0"):
        bot.exchange("bye", soon())


def test_session_request_skips_info_before_the_answer() -> None:
    session = BotSession(BotConfig(command=(sys.executable, "-c", SCRIPTED)))
    try:
        reply = session.request("two", 2, 2000, 100)
        assert reply.words == ("9H",)
        assert reply.line == "action 2 9H"
        assert session.notes[-1] == "info depth 2"
        assert reply.elapsed_ms > 0
        assert session.request("one", 1, 2000, 100).words == ("QC",)
    finally:
        session.kill()
