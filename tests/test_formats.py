"""The tournament's format rules as a library function (:func:`plan_event`): what the command
line's flags become, and the one line each clash gets — the same rules ``zole-arena
tournament`` applies (its tests play them; these pin the rules themselves)."""

from __future__ import annotations

import pytest

from zole_arena.events.formats import (
    DUPLICATE_SANDBOXED_NOTE,
    LZF_ROUND_DEALS,
    LZF_ROUNDS,
    FormatRequest,
    plan_event,
)
from zole_arena.events.schedule import TournamentError


def ask(**asked: object) -> FormatRequest:
    fields: dict[str, object] = {"format": None, "first_entrant": "a", "sandboxed": True}
    return FormatRequest(**(fields | asked))  # type: ignore[arg-type]


def test_sandboxed_bots_play_a_movement_as_long_as_the_blocks_they_replace() -> None:
    plan = plan_event(ask(default_blocks=10))
    assert (plan.format, plan.duplicate, plan.boards) == ("round-robin", False, "movement")
    assert plan.deals_per_table == 60 and plan.note is None
    assert plan_event(ask(deals=25)).deals_per_table == 25


def test_trusted_bots_play_duplicate_blocks_unless_told_otherwise() -> None:
    plan = plan_event(ask(sandboxed=False, default_blocks=10))
    assert (plan.duplicate, plan.boards, plan.deals_per_table) == (True, None, 10)
    assert plan_event(ask(sandboxed=False, movement=True)).boards == "movement"
    assert plan_event(ask(sandboxed=False, duplicate=False, deals=9)).boards == "own"


def test_a_sandboxed_event_that_repeats_deals_is_told_once_what_that_allows() -> None:
    plan = plan_event(ask(duplicate=True, blocks=2))
    assert plan.duplicate and plan.deals_per_table == 2
    assert plan.note == DUPLICATE_SANDBOXED_NOTE and "dentry cache" in plan.note
    assert plan_event(ask(movement=False)).boards == "own"


def test_the_gauntlet_s_bot_implies_the_format_and_the_format_its_bot() -> None:
    assert plan_event(ask(gauntlet="b")).format == "gauntlet"
    assert plan_event(ask(format="gauntlet")).gauntlet == "a"


def test_lzf_plays_rounds_of_deals_by_default() -> None:
    plan = plan_event(ask(format="lzf"))
    assert (plan.rounds, plan.deals_per_table) == (LZF_ROUNDS, LZF_ROUND_DEALS) == (7, 24)
    assert (plan.duplicate, plan.boards) == (False, None)
    assert plan_event(ask(format="lzf", rounds=3, deals=8)).deals_per_table == 8


@pytest.mark.parametrize(
    ("asked", "message"),
    [
        ({"format": "balanced", "gauntlet": "b"}, "--gauntlet is for --format gauntlet, not"),
        ({"format": "lzf", "blocks": 2}, "--format lzf plays --deals per round"),
        ({"format": "lzf", "duplicate": True}, "--format lzf plays no duplicate blocks"),
        ({"format": "lzf", "movement": True}, "--format lzf: every table of a round"),
        ({"rounds": 3}, "--rounds is for --format lzf, not round-robin"),
        ({"movement": True, "duplicate": True}, "give --movement or --duplicate, not both"),
        ({"blocks": 2, "deals": 5}, "give --blocks or --deals, not both"),
        ({"blocks": 2, "duplicate": False}, "--blocks is for duplicate tables"),
    ],
)
def test_each_clash_gets_one_line(asked: dict[str, object], message: str) -> None:
    with pytest.raises(TournamentError, match=message) as caught:
        plan_event(ask(**asked))
    assert "\n" not in str(caught.value)
