"""The calibration benchmark of the rating intervals (``scripts/rating_calibration.py``) runs
and prints what ``docs/ratings.md`` shows, on a few small tournaments."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "rating_calibration.py"
SEVEN = {"cbot", "rulebot", "crandom", "random", "weak", "timid", "bold"}


def test_a_balanced_calibration_keeps_its_tables_and_prints_every_table(tmp_path: Path) -> None:
    args = ["--design", "balanced7", "--runs", "3", "--blocks", "2", "--resamples", "20"]
    done = subprocess.run(
        [sys.executable, str(SCRIPT), *args, "--keep", str(tmp_path), "--compare"],
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "design balanced7: 3 tournaments of 84 deals (seeds 1001-1003)" in out
    for title in ("Elo, clusters", "Elo, each unit alone", "points per deal, clusters",
                  "points per deal, each unit alone"):  # fmt: skip
        section = out.split(title, 1)[1].split("\n\n", 1)[0]
        rows = [line.split() for line in section.splitlines()[2:]]
        assert {row[0] for row in rows} == SEVEN, section
        assert all(row[-1].endswith("%") for row in rows)
    assert "correlation of a bot's result in one block with the next" in out
    # Every run seats the same bots together: the tables of the first seed's schedule.
    tables = []
    for log in sorted(tmp_path.glob("balanced7-b2-s*.jsonl")):
        header = json.loads(log.read_text().splitlines()[0])
        names = [entrant["name"] for entrant in header["entrants"]]
        tables.append({frozenset(names[i] for i in table) for table in header["tables"]})
    assert len(tables) == 3 and tables[0] == tables[1] == tables[2]
    assert len(tables[0]) == 7
    # A second run reuses the kept logs: it plays nothing.
    again = subprocess.run(
        [sys.executable, str(SCRIPT), *args, "--keep", str(tmp_path)],
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert again.returncode == 0, again.stderr
    assert "played in 0 s" in again.stdout
    first = out.split("Elo, clusters", 1)[1].split("\n\n", 1)[0]
    assert again.stdout.split("Elo, clusters", 1)[1].split("\n\n", 1)[0] == first
