"""``zole-arena fairplay``: bots that see hidden cards are flagged, honest ones are not.

Real matches and real ``fairplay`` processes: the ceiling bot told every hand (in every deal:
told them in 30% of its deals it needs thousands of deals to be flagged, docs/fairplay.md, too
many for a test), an honest field, and a pair of colluders (``hostile_bots/colluder.py``:
``spyA`` writes each deal it saw to a shared file, ``spyB``, at another table of the same
cards, reads it and plays knowing every hand), and a bot that knows the hands for its bids
only (``helper_bots/bid_cheat_bot.py``: rulebot's cards, and a take exactly when it wins).
The logs are made once for the module, and screened once each.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from clihelp import PY, ok, one_line_error, rechained, zole, zoles

pytestmark = pytest.mark.long  # minutes long: run first (conftest.py)

ROOT = Path(__file__).resolve().parent.parent
CEILING = ROOT / "bots" / "ceiling_bot.py"
COLLUDER = ROOT / "tests" / "hostile_bots" / "colluder.py"
BID_CHEAT = ROOT / "tests" / "helper_bots" / "bid_cheat_bot.py"


def _players(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {p["name"]: p for p in data["players"]}


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The module's logs: ``told`` (the ceiling bot, told every hand, 120 deals), ``honest``
    (150), ``bids`` (the bid cheater, 120), and the colluders' two matches of the same 150
    deals (``spy_a`` first). The cheaters' matches give a long move time with bots that do not
    search by time (cbot, rulebot), so that they cost only what the cheater solves, and a
    loaded machine never cuts its solving short (at 20 ms a colluder weakened so under a busy
    CI run was not flagged)."""
    folder = tmp_path_factory.mktemp("fairplay")
    shared = folder / "shared.jsonl"
    names = ("told", "honest", "bids", "spy_a", "spy_b")
    found = {name: folder / f"{name}.jsonl" for name in names}
    fast, solving = ("--movetime", "20"), ("--movetime", "2000")
    ceiling = f"ceiling={PY} {CEILING} --seed 41 --told 100"
    for proc in zoles(
        ("match", ceiling, "cbot", "rulebot", "--deals", "120", "--seed", "41",
         "--no-sandbox", "--log", str(found["told"]), *solving),
        ("match", f"cheat={PY} {BID_CHEAT} 44", "rulebot", "cbot", "--deals", "120", "--seed",
         "44", "--no-sandbox", "--log", str(found["bids"]), *solving),
        ("match", "searchbot", "cbot", "rulebot", "--deals", "150", "--seed", "42",
         "--log", str(found["honest"]), *fast),
        ("match", f"spyA={PY} {COLLUDER} write {shared} {ROOT}", "searchbot", "rulebot", "--deals",
         "150", "--seed", "43", "--no-sandbox", "--log", str(found["spy_a"]), *fast),
        cwd=folder,
        timeout=300,
    ):  # fmt: skip
        ok(proc)
    ok(zole("match", f"spyB={PY} {COLLUDER} read {shared} {ROOT}", "cbot", "rulebot", "--deals",
            "150", "--seed", "43", "--no-sandbox", "--log", str(found["spy_b"]), *solving,
            cwd=folder, timeout=300))  # fmt: skip
    return found


@pytest.fixture(scope="module")
def told(logs: dict[str, Path]) -> dict[str, Any]:
    result: dict[str, Any] = json.loads(
        ok(
            zole("fairplay", str(logs["told"]), "--json", cwd=logs["told"].parent, timeout=300)
        ).stdout
    )
    return result


def test_the_ceiling_bot_told_every_hand_is_flagged(told: dict[str, Any]) -> None:
    players = _players(told)
    assert players["ceiling"]["flagged"], players
    assert players["ceiling"]["p_value"] < told["alpha"]
    # its tablemates sat only with it: screened without its deals, nothing is left to judge
    for name in ("cbot", "rulebot"):
        assert not players[name]["flagged"] and not players[name]["judged"], players
        assert players[name]["set_aside"] == ["ceiling"] and players[name]["decisions"] == 0
    assert players["ceiling"]["set_aside"] == []


def test_json_shape_and_a_second_run_screens_nothing(
    told: dict[str, Any], logs: dict[str, Path]
) -> None:
    for p in told["players"]:
        assert {"name", "flagged", "excess", "se", "p_value", "decisions", "deals"} <= set(p)
        assert isinstance(p["flagged"], bool) and 0 <= p["p_value"] <= 1
        bids = p["bids"]
        assert {"excess", "se", "z", "p_value", "decisions", "deals", "judged"} <= set(bids)
        assert 0 <= bids["p_value"] <= 1
    ceiling = _players(told)["ceiling"]
    assert ceiling["decisions"] > 250  # tricks 1-7 of some 120 deals
    assert 30 < ceiling["bids"]["decisions"] <= 120
    assert isinstance(told["pairs"], list) and isinstance(told["repeats"], list)
    assert told["deals"] == 120 and told["screened_now"] == 120
    again = json.loads(ok(zole("fairplay", str(logs["told"]), "--json", cwd=logs["told"].parent))
                       .stdout)  # fmt: skip
    assert again["screened_now"] == 0
    assert again["players"] == told["players"]
    text = ok(zole("fairplay", str(logs["told"]), cwd=logs["told"].parent)).stdout
    assert "FLAGGED" in text and "ceiling" in text and "no pair flagged" in text
    assert "cbot, rulebot: screened without the deals of ceiling (flagged)" in text


def test_a_bot_that_knows_the_hands_only_for_its_bids_is_flagged_by_its_bids(
    logs: dict[str, Path],
) -> None:
    data = json.loads(ok(zole("fairplay", str(logs["bids"]), "--json",
                              cwd=logs["bids"].parent, timeout=300)).stdout)  # fmt: skip
    players = _players(data)
    cheat = players["cheat"]
    assert cheat["flagged"], players
    assert cheat["bids"]["p_value"] < data["alpha"] / 2 and cheat["bids"]["excess"] > 0.1
    assert cheat["p_value"] > data["alpha"] / 2  # its cards are rulebot's: they tell nothing
    assert not players["rulebot"]["flagged"] and not players["cbot"]["flagged"], players


def test_a_second_cheater_is_flagged_on_the_deals_without_the_first(
    logs: dict[str, Path], told: dict[str, Any]
) -> None:
    """The step-down: the ceiling bot flagged, the others are screened again without its
    deals, and the bid cheater (of another match) is flagged there too; its tablemates, who
    sat with one of them in every deal, are judged on none. (Both logs were screened before:
    nothing is screened again.)"""
    data = json.loads(ok(zole("fairplay", str(logs["told"]), str(logs["bids"]), "--json",
                              cwd=logs["told"].parent, timeout=300)).stdout)  # fmt: skip
    assert data["screened_now"] == 0
    players = _players(data)
    assert players["ceiling"]["flagged"] and players["cheat"]["flagged"], players
    first, second = sorted(("ceiling", "cheat"), key=lambda n: len(players[n]["set_aside"]))
    assert players[first]["set_aside"] == [] and players[second]["set_aside"] == [first]
    for name in ("cbot", "rulebot"):
        assert not players[name]["flagged"] and players[name]["decisions"] == 0, players
        assert players[name]["set_aside"] == [first, second]


def test_an_honest_field_is_not_flagged(logs: dict[str, Path]) -> None:
    data = json.loads(ok(zole("fairplay", str(logs["honest"]), "--json",
                              cwd=logs["honest"].parent, timeout=300)).stdout)  # fmt: skip
    players = _players(data)
    assert set(players) == {"searchbot", "cbot", "rulebot"}
    assert not any(p["flagged"] for p in players.values()), players
    assert all(p["decisions"] > 200 for p in players.values())  # tricks 2-7 of 150 deals


def test_the_same_cards_played_again_are_no_new_evidence(
    logs: dict[str, Path], tmp_path: Path
) -> None:
    """The honest match and a copy of it under another match id (a rerun of the same seed, or
    a duplicate event's seatings): screened together, each bot's excess rests on the same
    deals, clustered by the cards, so its z is the one the match gives alone (counted as new
    deals, the copy raised an honest cbot from z +2.0 to +2.9, flagged: red team 11)."""
    records = [json.loads(line) for line in logs["honest"].read_text().splitlines()]
    for record in records:
        if "match_id" in record:
            record["match_id"] = "copy0000000a"
    copy = tmp_path / "copy.jsonl"
    copy.write_text(rechained(records))
    alone = _players(json.loads(ok(zole("fairplay", str(logs["honest"]), "--json",
                                        cwd=tmp_path, timeout=300)).stdout))  # fmt: skip
    both = _players(json.loads(ok(zole("fairplay", str(logs["honest"]), str(copy), "--json",
                                       cwd=tmp_path, timeout=600)).stdout))  # fmt: skip
    # The copy's drawn deals are its own (their seed is the line's hash): a decision every
    # deal values alike in one may not be in the other, and z moves by their noise (0.7 seen),
    # so what is checked is what z rests on: twice the decisions, on the same deals.
    for name, one in alone.items():
        assert one["deals"] <= both[name]["deals"] < 1.1 * one["deals"], (name, both[name], one)
        assert 1.8 * one["decisions"] < both[name]["decisions"] < 2.2 * one["decisions"]


def test_two_entries_of_one_author_at_tables_of_the_same_cards_are_flagged_as_a_pair(
    logs: dict[str, Path],
) -> None:
    data = json.loads(ok(zole("fairplay", str(logs["spy_a"]), str(logs["spy_b"]), "--json",
                              cwd=logs["spy_a"].parent, timeout=600)).stdout)  # fmt: skip
    # spyB played only deals spyA had written: its excess there is tested against the allowance
    flagged = [(p["seen_by"], p["name"]) for p in data["pairs"] if p["flagged"]]
    assert ("spyA", "spyB") in flagged, data["pairs"][:3]
    # the honest bots met the same cards again in the second match: no repeat is flagged
    assert data["repeats"] and not any(r["flagged"] for r in data["repeats"]), data["repeats"]


def test_bad_inputs_get_one_line(logs: dict[str, Path], tmp_path: Path) -> None:
    one_line_error(zole("fairplay", str(tmp_path / "none.jsonl"), cwd=tmp_path), "no such file")
    one_line_error(zole("fairplay", str(tmp_path), cwd=tmp_path), "folder")
    garbage = tmp_path / "garbage.jsonl"
    garbage.write_text("this is no log\n")
    one_line_error(zole("fairplay", str(garbage), cwd=tmp_path), "garbage.jsonl")
    huge = tmp_path / "huge.jsonl"
    huge.write_bytes(b'{"type":"match"' + b" " * (2 << 20) + b"}\n")
    one_line_error(zole("fairplay", str(huge), cwd=tmp_path), "huge.jsonl")
    header_only = tmp_path / "header.jsonl"
    header_only.write_text(logs["honest"].read_text().splitlines()[0] + "\n")
    one_line_error(zole("fairplay", str(header_only), cwd=tmp_path), "no decisions to screen")
    lines = logs["honest"].read_text().splitlines()
    forged = tmp_path / "forged.jsonl"  # every deal's moves cut off: nothing left to screen
    records = [json.loads(line) for line in lines[:6]]
    for record in records[1:]:
        record["moves"] = []
    forged.write_text("".join(json.dumps(r) + "\n" for r in records))
    one_line_error(zole("fairplay", str(forged), cwd=tmp_path), "no decisions to screen")
    proc = zole("fairplay", str(logs["honest"]), "--samples", "0", cwd=tmp_path)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
