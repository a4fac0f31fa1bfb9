"""Rule presets and user rules files (zole-rules.md §3–5, rules.py)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from zole_arena.errors import RulesError, ZoleError
from zole_arena.game.actions import Bid, Contract
from zole_arena.game.rules import (
    PRESETS,
    AllPass,
    Rules,
    ScoreTable,
    SmallZoleScores,
    TableLoser,
    load_rules,
)


def write(tmp_path: Path, text: str, name: str = "house.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_presets_are_wpt_then_lzf() -> None:
    assert PRESETS == ("wpt", "lzf")
    assert load_rules() == load_rules("wpt")
    assert load_rules(None).preset == "wpt"


def test_wpt_preset() -> None:
    rules = load_rules("wpt")
    assert rules.preset == "wpt"
    assert rules.source == "wpt"
    assert rules.name == "wpt"
    assert rules.contracts == (Contract.TAKE,)
    assert rules.bids == (Bid.PASS, Bid.TAKE)
    assert rules.all_pass is AllPass.TABLE
    assert rules.table_loser is TableLoser.TRICKS_THEN_POINTS
    assert rules.table_payment == 2
    assert rules.deals_per_game == 3
    assert rules.take == ScoreTable(6, 5, 4, -5, -6, -7)
    assert rules.zole is None
    assert rules.small_zole is None


def test_lzf_preset() -> None:
    rules = load_rules("lzf")
    assert rules.preset == "lzf"
    assert rules.name == "lzf"
    assert rules.contracts == (Contract.TAKE, Contract.ZOLE)
    assert rules.bids == (Bid.PASS, Bid.TAKE, Bid.ZOLE)
    assert rules.all_pass is AllPass.PULE
    assert rules.table_loser is TableLoser.TRICKS_THEN_POINTS
    assert rules.common_pule_bonus == 1
    assert rules.personal_pule_bonus == 2
    assert rules.pules_take_only is False
    assert rules.take == ScoreTable(3, 2, 1, -2, -3, -4)
    assert rules.zole == ScoreTable(7, 6, 5, -6, -7, -8)
    assert rules.small_zole == SmallZoleScores(6, -7)


@pytest.mark.parametrize("preset", PRESETS)
def test_round_trip_through_plain_data(preset: str) -> None:
    rules = load_rules(preset)
    data = rules.to_dict()
    again = Rules.from_dict(data)
    assert again.source == "<data>"
    assert dataclasses.replace(again, source=rules.source) == rules
    assert again.bids == rules.bids
    # plain data survives JSON, as in game records
    assert Rules.from_dict(json.loads(json.dumps(data))).to_dict() == data
    assert Rules.from_dict(data, source="record.json").source == "record.json"


def test_round_trip_with_switches() -> None:
    data = {
        **load_rules("lzf").to_dict(),
        "contracts": ["take", "zole", "small_zole"],
        "all_pass": "table",
        "table_loser": "points",
        "personal_pule_bonus": 3,
        "pules_take_only": True,
    }
    rules = Rules.from_dict(data)
    assert rules.contracts == (Contract.TAKE, Contract.ZOLE, Contract.SMALL_ZOLE)
    assert rules.bids[-1] is Bid.SMALL_ZOLE
    assert rules.all_pass is AllPass.TABLE
    assert rules.table_loser is TableLoser.POINTS
    assert Rules.from_dict(rules.to_dict()) == rules
    written = rules.to_dict()
    assert Rules.from_dict(written).to_dict() == written
    # to_dict spells contracts as rules files do
    assert written["contracts"] == ["take", "zole", "small_zole"]
    assert {**written, "contracts": data["contracts"]} == data


def test_contract_order_is_canonical() -> None:
    data = {**load_rules("lzf").to_dict(), "contracts": ["small_zole", "zole", "take"]}
    assert Rules.from_dict(data).bids == (Bid.PASS, Bid.TAKE, Bid.ZOLE, Bid.SMALL_ZOLE)


def test_user_file_overrides_a_switch_and_a_table_value(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        'preset = "lzf"\n'
        'contracts = ["take", "zole", "small_zole"]\n'
        "personal_pule_bonus = 3\n"
        "\n"
        "[take]\n"
        "win = 2\n",
    )
    rules = load_rules(path)
    assert rules.preset == "lzf"
    assert rules.personal_pule_bonus == 3
    assert rules.contracts == (Contract.TAKE, Contract.ZOLE, Contract.SMALL_ZOLE)
    assert rules.take.win == 2
    # the other values of [take] come from the preset
    assert rules.take == ScoreTable(3, 2, 2, -2, -3, -4)
    assert rules.zole == load_rules("lzf").zole
    assert rules.source == str(path)
    assert rules.name == "lzf+house.toml"
    assert load_rules(str(path)) == rules


def test_user_file_on_wpt_with_table_game_switches(tmp_path: Path) -> None:
    path = write(tmp_path, 'preset = "wpt"\ntable_loser = "points"\ntable_payment = 3\n')
    rules = load_rules(path)
    assert rules.table_loser is TableLoser.POINTS
    assert rules.table_payment == 3
    assert rules.take == load_rules("wpt").take


def test_user_file_enables_zole_on_wpt_with_a_table(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        'preset = "wpt"\ncontracts = ["take", "zole"]\n'
        "[zole]\nall_tricks = 7\nhigh_win = 6\nwin = 5\n"
        "loss = -6\nhigh_loss = -7\nno_tricks = -8\n",
    )
    rules = load_rules(path)
    assert rules.bids == (Bid.PASS, Bid.TAKE, Bid.ZOLE)
    assert rules.zole == ScoreTable(7, 6, 5, -6, -7, -8)


#: (file text, words the one-line message must contain)
BAD_FILES = [
    pytest.param('preset = "lzf"\nbonus = 1\n', ["'bonus'", "unknown key"], id="unknown-key"),
    pytest.param('preset = "lzf"\n[take]\nwinn = 1\n', ["take.winn"], id="unknown-nested-key"),
    pytest.param(
        'preset = "lzf"\ntable_payment = "two"\n', ["table_payment", "'two'"], id="wrong-type"
    ),
    pytest.param('preset = "lzf"\ntable_payment = true\n', ["table_payment"], id="bool-for-int"),
    pytest.param('preset = "lzf"\n[take]\nwin = 1.5\n', ["take.win", "1.5"], id="float-in-table"),
    pytest.param('preset = "lzf"\npules_take_only = 1\n', ["pules_take_only"], id="int-for-bool"),
    pytest.param('preset = "lzf"\ntake = 3\n', ["take"], id="scalar-for-table"),
    pytest.param(
        'preset = "lzf"\nall_pass = "redeal"\n', ["all_pass", "'redeal'"], id="bad-all-pass"
    ),
    pytest.param(
        'preset = "lzf"\ntable_loser = "cards"\n', ["table_loser", "'cards'"], id="bad-loser"
    ),
    pytest.param('all_pass = "table"\n', ["preset"], id="missing-preset"),
    pytest.param('preset = "rondo"\n', ["preset", "'rondo'"], id="unknown-preset"),
    pytest.param('preset = "lzf"\nall_pass = \n', ["not valid TOML"], id="invalid-toml"),
    pytest.param('preset = "lzf\n', ["not valid TOML"], id="unterminated-string"),
    pytest.param(
        'preset = "wpt"\ncontracts = ["take", "zole"]\n', ["zole", "[zole]"], id="zole-no-table"
    ),
    pytest.param(
        'preset = "lzf"\ncontracts = ["take", "grand"]\n', ["contracts", "'grand'"], id="contract"
    ),
    pytest.param('preset = "lzf"\ncontracts = ["zole"]\n', ["take"], id="contracts-no-take"),
    pytest.param('preset = "lzf"\ncontracts = ["take", "take"]\n', ["twice"], id="contract-twice"),
    pytest.param('preset = "lzf"\ntable_payment = -1\n', ["table_payment"], id="negative"),
    pytest.param('preset = "lzf"\ndeals_per_game = 0\n', ["deals_per_game"], id="zero-deals"),
    # Scores of 10**12 and more are refused by every log reader: a match's would be skipped.
    pytest.param('preset = "wpt"\n[take]\nall_tricks = 10_000_000_000_000\n',
                 ["take.all_tricks", "from -1000 to 1000"], id="huge-amount"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "words"), BAD_FILES)
def test_bad_rules_files(tmp_path: Path, text: str, words: list[str]) -> None:
    path = write(tmp_path, text)
    with pytest.raises(RulesError) as info:
        load_rules(path)
    message = str(info.value)
    assert "\n" not in message
    for word in words:
        assert word in message, message
    assert isinstance(info.value, ZoleError)
    assert isinstance(info.value, ValueError)


def test_nonexistent_path(tmp_path: Path) -> None:
    missing = tmp_path / "nope.toml"
    with pytest.raises(RulesError) as info:
        load_rules(missing)
    assert "nope.toml" in str(info.value)
    assert "\n" not in str(info.value)


def test_unknown_preset_name() -> None:
    with pytest.raises(RulesError) as info:
        load_rules("rondo")
    assert "'rondo'" in str(info.value)
    assert "wpt" in str(info.value)


def test_unreadable_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_bytes(b'preset = "lzf"\ndescription = "\xff\xfe"\n')
    with pytest.raises(RulesError) as info:
        load_rules(path)
    assert "\n" not in str(info.value)


def test_directory_is_not_a_rules_file(tmp_path: Path) -> None:
    with pytest.raises(RulesError):
        load_rules(tmp_path)


def without(data: dict[str, Any], key: str) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k != key}


@pytest.mark.parametrize("key", ["preset", "contracts", "all_pass", "take", "table_payment"])
def test_from_dict_missing_key(key: str) -> None:
    data = without(load_rules("lzf").to_dict(), key)
    with pytest.raises(RulesError, match=repr(key)):
        Rules.from_dict(data)


def test_from_dict_missing_table_field() -> None:
    data = load_rules("lzf").to_dict()
    data["take"] = without(data["take"], "high_win")
    with pytest.raises(RulesError, match="high_win"):
        Rules.from_dict(data)


def test_from_dict_small_zole_without_table() -> None:
    data = without(load_rules("lzf").to_dict(), "small_zole")
    data["contracts"] = ["take", "small_zole"]
    with pytest.raises(RulesError, match="small_zole"):
        Rules.from_dict(data)
