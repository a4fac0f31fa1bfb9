"""``--fixed-pace``: a bot's waits tell it nothing of how long the others thought.

Between a bot's answer and its next request the others decide, and a bot's think time follows
its cards (searchbot thinks longer with more trumps). A spy that times its waits reads the
others' hands from them; under ``--fixed-pace`` no request goes out before every decision
before it could have used the whole move time, and the waits are the pace's, whatever the
others held.
"""

from __future__ import annotations

import json
import statistics
from pathlib import Path

import pytest
from clihelp import PY, ok, one_line_error, zole

pytestmark = pytest.mark.long  # minutes long: run first (conftest.py)

TEMPO = Path(__file__).parent / "helper_bots" / "tempo_bot.py"
TRUMPS = frozenset(["QC", "QS", "QH", "QD", "JC", "JS", "JH", "JD", "AD", "TD", "KD", "9D", "8D",
                    "7D"])  # fmt: skip
MOVETIME = 100


def _play(tmp: Path, *extra: str) -> tuple[list[float], list[int], list[dict[str, object]]]:
    """A match of the spy, the tell and rulebot: in each deal the spy's mean wait while the two
    others played a card each (the tell's thinking, and rulebot's), the tell's trumps, and the
    deal records."""
    log = tmp / "m.jsonl"
    ok(zole("match", f"spy={PY} {TEMPO} spy", f"tell={PY} {TEMPO} tell --per-trump 10",
            "rulebot", "--deals", "16", "--seed", "5", "--movetime", str(MOVETIME), "--log",
            str(log), *extra, cwd=tmp, timeout=300))  # fmt: skip
    records = [json.loads(line) for line in log.read_text().splitlines()]
    deals = [r for r in records if r["type"] == "deal"]
    waits: dict[int, list[float]] = {}
    for line in (tmp / "m.jsonl.spy.stderr").read_text().splitlines():
        word, deal, ms, seats, bids = line.split()
        assert word == "WAIT"
        waits.setdefault(int(deal), [])
        played = seats.split(",")
        if len(played) == len(set(played)) == 2 and bids == "0":  # the two others, a card each
            waits[int(deal)].append(float(ms))
    mean_waits, trumps = [], []
    for deal in deals:
        if not waits.get(deal["deal"]):  # (the two others never played in turn)
            continue
        tell_seat = deal["seating"].index(1)  # player 1 is the tell
        mean_waits.append(statistics.fmean(waits[deal["deal"]]))
        trumps.append(sum(card in TRUMPS for card in deal["hands"][tell_seat]))
    return mean_waits, trumps, deals


def test_a_spy_reads_the_tell_s_trumps_from_its_waits_without_a_fixed_pace(tmp_path: Path) -> None:
    waits, trumps, _ = _play(tmp_path)
    assert statistics.correlation(waits, trumps) > 0.5, (waits, trumps)


def test_under_a_fixed_pace_the_spy_s_waits_say_nothing(tmp_path: Path) -> None:
    (tmp_path / "free").mkdir()
    (tmp_path / "paced").mkdir()
    free, _, _ = _play(tmp_path / "free")
    waits, trumps, deals = _play(tmp_path / "paced", "--fixed-pace")
    # The waits are the pace's (three move times, the spy's own and the others', less the spy's
    # own thinking): a millisecond or so apart from deal to deal, where the tell's trumps moved
    # them by tens without the pace; nothing left to correlate.
    assert statistics.stdev(waits) < statistics.stdev(free) / 4, (waits, free)
    assert abs(statistics.correlation(waits, trumps)) < 0.6, (waits, trumps)
    # Every deal took at least its decisions' whole move time.
    header = json.loads((tmp_path / "paced" / "m.jsonl").read_text().splitlines()[0])
    assert header["settings"]["fixed_pace"] is True
    for deal in deals:
        moves = deal["moves"]
        assert isinstance(moves, list) and all(m["think_ms"] < MOVETIME for m in moves)
    replay = ok(zole("verify", str(tmp_path / "paced" / "m.jsonl"), cwd=tmp_path))
    assert "16 of 16 deals verify" in replay.stdout


def test_a_fixed_pace_is_a_pace_of_the_move_time(tmp_path: Path) -> None:
    one_line_error(
        zole("match", "rulebot", "rulebot", "random", "--fixed-pace", "--tc", "5+0.1",
             cwd=tmp_path), "--fixed-pace paces by --movetime")  # fmt: skip
