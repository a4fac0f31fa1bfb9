"""Protocol v1 text: parsing bot lines, reading answers, writing requests, and the examples."""

from __future__ import annotations

import contextlib
import random
import re
from pathlib import Path

import pytest

from zole_arena.errors import NotationError
from zole_arena.game.actions import Bid, Bury, Contract
from zole_arena.game.cards import CARDS, Card, cards_of
from zole_arena.game.rules import Rules, load_rules
from zole_arena.game.scoring import Pules
from zole_arena.game.state import DealState, Phase
from zole_arena.protocol.messages import (
    ActionReply,
    GoWriter,
    IdLine,
    InfoLine,
    OptionDecl,
    ReadyOk,
    UnknownLine,
    ZoleOk,
    format_go,
    format_newdeal,
    parse_answer,
    parse_bot_line,
)

EXAMPLES = Path(__file__).resolve().parent.parent / "protocol" / "examples"


def rules_variants() -> list[Rules]:
    lzf = load_rules("lzf")
    small = Rules.from_dict({**lzf.to_dict(), "contracts": ["take", "zole", "small_zole"]})
    table = Rules.from_dict({**lzf.to_dict(), "all_pass": "table"})
    return [load_rules("wpt"), lzf, small, table]


def test_parse_handshake_lines() -> None:
    assert parse_bot_line("id name Greedy Bot 2") == IdLine("name", "Greedy Bot 2")
    assert parse_bot_line("zoleok 1") == ZoleOk(1)
    assert parse_bot_line("zoleok") == ZoleOk(1)
    assert parse_bot_line("readyok") == ReadyOk()
    assert parse_bot_line("info depth 3 nodes 100") == InfoLine("depth 3 nodes 100")
    assert parse_bot_line("   ") is None
    assert parse_bot_line("bestmove e2e4") == UnknownLine("bestmove e2e4")


def test_parse_options() -> None:
    spin = parse_bot_line("option name Aggression type spin default 50 min 0 max 100")
    assert spin == OptionDecl("Aggression", "spin", "50", 0, 100)
    combo = parse_bot_line("option name Style type combo default Safe var Safe var Very Bold")
    assert isinstance(combo, OptionDecl)
    assert combo.choices == ("Safe", "Very Bold")
    assert combo.check_value("Very Bold") == "Very Bold"
    with pytest.raises(ValueError, match="one of Safe, Very Bold"):
        combo.check_value("Wild")
    assert isinstance(spin, OptionDecl)
    with pytest.raises(ValueError, match="0 to 100"):
        spin.check_value("101")
    with pytest.raises(ValueError, match="whole number"):
        spin.check_value("lots")
    check = OptionDecl("Log", "check", "false")
    assert check.check_value("TRUE") == "true"
    assert parse_bot_line("option type spin") == UnknownLine("option type spin")


def test_parse_action_lines() -> None:
    assert parse_bot_line("action 12 QC") == ActionReply(12, ("QC",))
    assert parse_bot_line("action 9 9S 9H") == ActionReply(9, ("9S", "9H"))
    assert parse_bot_line("action x QC") == ActionReply(None, ("QC",))


def test_parse_answer_by_phase() -> None:
    assert parse_answer(["10d"], Phase.PLAYING) == Card.parse("TD")
    assert parse_answer(["zole"], Phase.BIDDING) is Bid.ZOLE
    assert parse_answer(["9H", "QC"], Phase.BURYING) == Bury.parse("QC 9H")
    for words, phase in (
        (["banana"], Phase.PLAYING),
        (["QC", "QS"], Phase.PLAYING),
        (["QC"], Phase.BIDDING),
        (["QC"], Phase.BURYING),
        (["QC", "QC"], Phase.BURYING),
        ([], Phase.PLAYING),
    ):
        with pytest.raises(NotationError):
            parse_answer(words, phase)


def play_random(rules: Rules, seed: int) -> list[tuple[DealState, str, str]]:
    """Play a random deal; at each decision, the go line from the view and from the writer."""
    rng = random.Random(seed)
    pules = Pules(seed % 3, (1, 0)) if seed % 2 else Pules()
    state = DealState.from_seed(rules, seed, 1 + seed % 7, pules=pules)
    writer = GoWriter(state, 1 + seed % 7, rules.preset, (seed, -seed, 0))
    seen = []
    while state.result is None:
        view_line = format_go(seed, 900, state.view(state.turn), 1 + seed % 7, rules.preset,
                              (seed, -seed, 0))  # fmt: skip
        seen.append((state.copy(), view_line, writer.go(seed, 900)))
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return seen


@pytest.mark.parametrize("rules", rules_variants(), ids=lambda r: r.name + str(r.contracts))
def test_go_writer_equals_the_seat_view_form(rules: Rules) -> None:
    for seed in range(120):
        for _, from_view, from_writer in play_random(rules, seed):
            assert from_writer == from_view


def test_go_writer_newdeal_equals_the_seat_view_form() -> None:
    for rules in rules_variants():
        for seed in range(60):
            pules = Pules(seed % 3, (1, 0)) if seed % 2 else Pules()
            deal_no = 1 + seed % 7
            state = DealState.from_seed(rules, seed, deal_no, pules=pules)
            writer = GoWriter(state, deal_no, rules.preset, (seed, -seed, 0))
            for seat in range(3):
                from_view = format_newdeal(
                    state.view(seat), deal_no, rules.preset, (seed, -seed, 0)
                )
                assert writer.newdeal(seat) == from_view


def _card_tokens(line: str) -> set[int]:
    found = set()
    for token in re.split(r"[ ,]", line):
        with contextlib.suppress(NotationError):
            found.add(int(Card.parse(token)))
    return found


@pytest.mark.parametrize("rules", rules_variants(), ids=lambda r: r.name + str(r.contracts))
def test_go_lines_never_show_hidden_cards(rules: Rules) -> None:
    for seed in range(120):
        for state, line, _ in play_random(rules, seed):
            seat = state.turn
            assert seat is not None
            allowed = state.hand_mask(seat)
            for trick in state.trick_log():
                allowed |= (1 << trick[1]) | (1 << trick[2]) | (1 << trick[3])
            for card in state.current_trick_cards():
                allowed |= 1 << card
            if seat == state.soloist and state.contract is Contract.TAKE:
                allowed |= state.talon | state.buried
            shown = _card_tokens(line.split(" hand ", 1)[1])
            leaked = [str(CARDS[c]) for c in shown if not allowed >> c & 1]
            assert not leaked, f"seat {seat} was shown {leaked}: {line}"


def test_go_line_fields_are_key_value_pairs() -> None:
    state = DealState.from_seed(load_rules("lzf"), 3, 2)
    line = GoWriter(state, 2, "lzf", (1, -2, 1)).go(17, 1500)
    words = line.split()
    assert words[0] == "go"
    fields = dict(zip(words[1::2], words[2::2], strict=True))
    assert fields["id"] == "17"
    assert fields["time"] == "1500"
    assert fields["phase"] == "bid"
    assert fields["seat"] == str(state.turn) == fields["forehand"]
    assert fields["legal"] == "pass,take,zole"
    assert fields["scores"] == "1,-2,1"
    assert fields["hand"].split(",") == [str(c) for c in cards_of(state.hand_mask(state.turn))]


def _examples() -> list[Path]:
    return sorted(EXAMPLES.glob("*.md"))


def test_there_are_three_examples() -> None:
    assert [p.name for p in _examples()] == ["table-game.md", "take-game.md", "zole-game.md"]


@pytest.mark.parametrize("path", _examples(), ids=lambda p: p.name)
def test_example_transcripts_replay_exactly(path: Path) -> None:
    """Each example's requests are what the arena writes when the deal is replayed from its
    seed, and its result line is the engine's result."""
    text = path.read_text()
    found = re.search(r"rules `(\w+)`, match seed (\d+), deal (\d+)", text)
    assert found is not None
    rules = load_rules(found.group(1))
    seed, deal_no = int(found.group(2)), int(found.group(3))
    state = DealState.from_seed(rules, seed, deal_no)
    writer = GoWriter(state, deal_no, rules.preset, (0, 0, 0))
    lines = [line for line in text.splitlines() if line.startswith((">> ", "<< "))]
    requests = 0
    for index, line in enumerate(lines):
        direction, message = line[:2], line[3:]
        words = message.split()
        if direction == ">>" and words[0] == "go":
            fields = dict(zip(words[1::2], words[2::2], strict=True))
            assert message == writer.go(int(fields["id"]), int(fields["time"]))
            requests += 1
            if fields["phase"] == "bury":
                answer = lines[index + 1][3:].split()
                assert answer[:2] == ["action", fields["id"]]
                state.apply(Bury.parse(" ".join(answer[2:])))
        elif direction == ">>" and words[0] == "bid":
            state.apply(Bid.parse(words[2]))
        elif direction == ">>" and words[0] == "card":
            assert state.turn == int(words[1])
            state.apply(Card.parse(words[2]))
        elif direction == ">>" and words[0] == "result":
            fields = dict(zip(words[1::2], words[2::2], strict=True))
            assert state.result is not None
            assert fields["scores"] == ",".join(str(s) for s in state.result.scores)
            assert fields["contract"] == str(state.result.contract)
    assert requests >= 4
    assert state.result is not None


def test_spec_examples_are_well_formed() -> None:
    """Every go line in the specification is key-value pairs with the documented fields, and
    its legal answers are among its hand (or bids)."""
    spec = (EXAMPLES.parent / "README.md").read_text()
    lines = [line for line in spec.splitlines() if line.startswith("go id ")]
    assert len(lines) >= 3
    keys = (
        "id time phase deal seat dealer forehand rules hand scores commonpules personalpules "
        "bids contract soloist talon buried played winners legal"
    ).split()
    for line in lines:
        words = line.split()
        fields = dict(zip(words[1::2], words[2::2], strict=True))
        assert list(fields) == keys, line
        hand = fields["hand"].split(",")
        for answer in fields["legal"].split(","):
            assert answer in hand or answer in ("pass", "take", "zole", "smallzole"), line
