"""The benchmark of how tables share deals (``scripts/movement_gain.py``): its score on equal
cards recovers known strengths, and a small run prints every row ``docs/competitions.md``
shows."""

from __future__ import annotations

import importlib.util
import random
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "movement_gain.py"


def script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("movement_gain", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_scoring_on_equal_cards_recovers_the_strengths_whatever_the_hands_are_worth() -> None:
    gain = script()
    strength = dict(zip(gain.ENTRIES, (1.0, 0.2, -1.5, 0.8, 0.0, -0.5), strict=True))
    rng = random.Random(5)
    holdings = []
    for hand in range(400):
        worth = rng.uniform(-20, 20)  # what the cards alone score: the same for both holders
        for _ in range(2):
            table = rng.sample(gain.ENTRIES, 3)
            design = [0.0] * len(gain.ENTRIES)
            for seat, who in enumerate(table):
                design[gain.ENTRIES.index(who)] += 1.0 if seat == 0 else -0.5
            score = worth + sum(d * strength[e] for d, e in zip(design, gain.ENTRIES, strict=True))
            holdings.append(((hand,), design, score))
    expected = (strength["rulebot"] + strength["rulebot#2"]) / 2 - (
        strength["cbot"] + strength["cbot#2"]
    ) / 2
    assert abs(gain.equal_cards_gap(holdings) - expected) < 1e-9


def test_a_small_run_prints_every_way_and_the_equal_cards_row() -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--seeds", "2", "--deals", "6"],
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "20 tables x 6 deals = 120 deals a run, 2 seeds a way" in out
    for way in ("movement", "duplicate", "own"):
        assert re.search(rf"^{way} +[\d.]+ +[\d,]+ +[\d.]+ +[\d,]+$", out, re.M), out
    assert re.search(r"^a movement scored on equal cards: [+-][\d.]+ points a deal", out, re.M)
