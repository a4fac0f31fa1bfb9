"""Tests of ratings over time: the order of the units, the checkpoints of
:func:`~zole_arena.stats.ratings.ratings_over_time`, and ``zole-arena ratings --plot`` end to end on
logs of real matches, including the one-line errors (no matplotlib, nowhere to write).

The logs come from real matches through the real command line, every random bot seeded, so
every figure checked here is the same on every run.
"""

from __future__ import annotations

import dataclasses
import datetime
import os
import struct
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from clihelp import ok, one_line_error, zole

from zole_arena.records.model import DealRecord
from zole_arena.records.reader import read_log
from zole_arena.stats.ratings import (
    RatingError,
    Unit,
    chronological,
    rate,
    ratings_over_time,
    read_logs,
    units_from_records,
)

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
RANDOM_BOT = ROOT / "bots" / "random_bot.py"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
GOLDEN = ROOT / "tests" / "golden" / "format2-match.jsonl"


@dataclass
class Logs:
    folder: Path
    plain: Path
    """``rulebot`` against two seeded random bots: 30 plain deals."""
    duplicate: Path
    """The same three: 5 duplicate blocks (30 deals), played after the plain match."""


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> Logs:
    folder = tmp_path_factory.mktemp("ratings_plot")
    bots = ("rulebot", f"random={PY} {RANDOM_BOT} --seed 3", f"lazy={PY} {RANDOM_BOT} --seed 4")
    ok(zole("match", *bots, "--deals", "30", "--seed", "1", "--log", "plain.jsonl", cwd=folder))
    ok(zole("match", *bots, "--duplicate", "--deals", "5", "--seed", "2",
            "--log", "duplicate.jsonl", cwd=folder))  # fmt: skip
    return Logs(folder, folder / "plain.jsonl", folder / "duplicate.jsonl")


def png_size(path: Path) -> tuple[int, int]:
    """The width and height of a PNG file, from its IHDR chunk (after the signature)."""
    data = path.read_bytes()
    assert data[:8] == PNG_SIGNATURE, data[:8]
    assert data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


# -- the order of the units and the checkpoints --------------------------------------------------


def at(second: int) -> datetime.datetime:
    return datetime.datetime(2026, 1, 1, 12, 0, second, tzinfo=datetime.UTC)


def test_units_are_ordered_by_finish_time_then_by_the_order_read() -> None:
    a = Unit("m", 1, {"A": 1, "B": -1}, finished=at(30), sequence=1)
    b = Unit("m", 2, {"A": 1, "B": -1}, finished=at(10), sequence=2)
    c = Unit("n", 1, {"A": 1, "B": -1}, finished=at(10), sequence=0)
    assert chronological([a, b, c]) == [c, b, a]
    # Without a time for every unit, the order the records were read in.
    d = Unit("n", 2, {"A": 1, "B": -1}, sequence=3)
    assert chronological([d, a, b, c]) == [c, a, b, d]


def test_deal_records_give_units_their_finish_times() -> None:
    real = next(r for r in read_log(GOLDEN)[0] if isinstance(r, DealRecord))

    def deal(match_id: str, finished: str | None) -> DealRecord:
        when = None if finished is None else datetime.datetime.fromisoformat(finished)
        return dataclasses.replace(real, match_id=match_id, deal=1, block=1, finished=when)

    late = deal("b", "2026-01-01T12:00:10+00:00")
    early = deal("a", "2026-01-01T12:00:05Z")
    naive = deal("c", "2026-01-01T12:00:07")  # no zone: UTC
    units = units_from_records([late, early, naive]).units
    assert [unit.match_id for unit in chronological(units)] == ["a", "c", "b"]
    assert {unit.match_id: unit.finished for unit in units}["c"] == at(7)
    # One record without a time: the order the records were read in.
    units = units_from_records([late, early, deal("c", None)]).units
    assert [unit.match_id for unit in chronological(units)] == ["b", "a", "c"]


def test_log_records_give_units_their_finish_times(logs: Logs) -> None:
    data = read_logs([logs.plain, logs.duplicate])
    assert all(unit.finished is not None for unit in data.units)
    ordered = chronological(data.units)
    plain = next(unit.match_id for unit in data.units if unit.size == 1)
    assert {unit.match_id for unit in ordered[:30]} == {plain}
    assert [unit.size for unit in ordered] == [1] * 30 + [6] * 5
    times = [unit.finished for unit in ordered if unit.finished is not None]
    assert times == sorted(times) and len(times) == len(ordered)


def test_checkpoints_grow_in_order_and_end_with_the_full_list(logs: Logs) -> None:
    data = read_logs([logs.plain, logs.duplicate])
    checkpoints = ratings_over_time(data.units, points=8, bootstrap=20, seed=1)
    deals = [checkpoint.deals for checkpoint in checkpoints]
    assert deals == sorted(set(deals)) and len(deals) == 8
    assert deals[-1] == 60 and deals[0] >= 60 / 8
    # The plain deals come first: the first checkpoints hold only plain deals.
    assert checkpoints[0].units == deals[0]
    full = rate(data.units, bootstrap=20, seed=1)
    assert [(r.name, r.elo) for r in checkpoints[-1].ratings] == [
        (r.name, r.elo) for r in full.ratings
    ]
    assert checkpoints[-1].ratings[0].name == "rulebot"
    for checkpoint in checkpoints:
        assert checkpoint.bootstrap == 20
        for rating in checkpoint.ratings:
            assert rating.low <= rating.elo <= rating.high


def test_fewer_units_than_points_and_bad_points() -> None:
    units = [Unit("m", n, {"A": 1, "B": -1}, sequence=n) for n in range(3)]
    assert [c.deals for c in ratings_over_time(units, points=20, bootstrap=10)] == [1, 2, 3]
    # A checkpoint with a single player so far is left out.
    late = [Unit("m", 0, {"A": 0}, sequence=0), *units]
    assert [c.deals for c in ratings_over_time(late, points=4, bootstrap=10)] == [2, 3, 4]
    with pytest.raises(RatingError, match="at least 1 point"):
        ratings_over_time(units, points=0)
    with pytest.raises(RatingError, match="no finished deals"):
        ratings_over_time([])


def test_an_anchor_who_comes_late_starts_the_chart(logs: Logs) -> None:
    units = [Unit("m", 0, {"A": 1, "B": -1}, sequence=0)] + [
        Unit("m", n, {"A": 1, "C": -1}, sequence=n) for n in range(1, 4)
    ]
    checkpoints = ratings_over_time(units, points=4, anchor=("C", 100.0), bootstrap=10)
    assert [c.deals for c in checkpoints] == [2, 3, 4]
    assert all({r.name: r.elo for r in c.ratings}["C"] == 100.0 for c in checkpoints)


# -- the command line ----------------------------------------------------------------------------


def test_plot_writes_a_png_and_leaves_the_table_as_it_was(logs: Logs) -> None:
    args = ("ratings", "plain.jsonl", "duplicate.jsonl", "--bootstrap", "20")
    table = ok(zole(*args, cwd=logs.folder)).stdout
    proc = ok(zole(*args, "--plot", "chart.png", "--points", "6", cwd=logs.folder))
    assert proc.stdout == table
    assert "6 checkpoints" in proc.stderr and "chart.png" in proc.stderr
    assert png_size(logs.folder / "chart.png") == (1200, 720)
    # Other formats by the file's suffix.
    ok(zole(*args, "--plot", "chart.svg", "--plot-bootstrap", "10", cwd=logs.folder))
    assert b"<svg" in (logs.folder / "chart.svg").read_bytes()[:500]


@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (["--plot", "nowhere/chart.png"], ["no folder nowhere"]),
        (["--plot", "."], ["."]),
        (["--plot", "chart.xyz"], ["chart.xyz", ".png"]),
        (["--plot", "chart"], ["chart", ".png"]),
        (["--plot", "c.png", "--points", "0"], ["--points", "at least 1"]),
        (["--plot", "c.png", "--plot-bootstrap", "5"], ["--plot-bootstrap", "at least 10"]),
    ],
)
def test_a_bad_plot_is_a_one_line_error(logs: Logs, args: list[str], needles: list[str]) -> None:
    proc = zole("ratings", "plain.jsonl", *args, cwd=logs.folder)
    one_line_error(proc, *needles)
    assert proc.stdout == ""  # checked before any rating is printed


def test_a_folder_that_cannot_be_written_is_a_one_line_error(logs: Logs, tmp_path: Path) -> None:
    if os.geteuid() != 0:
        # Caught before any work: the folder is not writable.
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        proc = zole("ratings", str(logs.plain), "--plot", str(locked / "c.png"), cwd=tmp_path)
        one_line_error(proc, "permission denied")
        assert proc.stdout == ""
    # Root may write to any folder, but not create files in /sys: the write itself fails.
    if not Path("/sys").is_dir():
        pytest.skip("no /sys on this system")
    proc = zole("ratings", str(logs.plain), "--bootstrap", "10", "--plot", "/sys/c.png",
                cwd=tmp_path)  # fmt: skip
    one_line_error(proc, "cannot write the chart to /sys/c.png")
    assert proc.returncode == 1


def test_without_matplotlib_plot_says_how_to_install_it(logs: Logs, tmp_path: Path) -> None:
    """A ``matplotlib`` package that fails to import, first on the path, stands for a Python
    without matplotlib: the table alone still works, --plot is a one-line error."""
    fake = tmp_path / "fake" / "matplotlib"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("raise ImportError(\"No module named 'matplotlib'\")\n")
    env = {**os.environ, "PYTHONPATH": str(fake.parent)}
    ok(zole("ratings", "plain.jsonl", "--bootstrap", "10", cwd=logs.folder, env=env))
    proc = zole("ratings", "plain.jsonl", "--plot", "x.png", cwd=logs.folder, env=env)
    assert proc.returncode == 1
    one_line_error(proc, "matplotlib", "pip install 'zole-arena[plot]'")
    assert not (logs.folder / "x.png").exists()
