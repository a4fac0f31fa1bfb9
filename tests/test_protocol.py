"""Protocol v1 text: parsing bot lines, reading and writing answers, every message the arena
writes (against field-by-field references), the rules fields of newdeal, and the examples."""

from __future__ import annotations

import contextlib
import random
import re
from pathlib import Path

import pytest

from zole_arena.errors import NotationError
from zole_arena.game.actions import Action, Bid, Bury, Contract
from zole_arena.game.cards import CARDS, POINTS, Card, cards_of
from zole_arena.game.rules import Rules, load_rules
from zole_arena.game.scoring import Pules
from zole_arena.game.state import DealResult, DealState, Phase, SeatView, forfeit_result
from zole_arena.protocol import (
    ISREADY,
    QUIT,
    ZOLE,
    ActionReply,
    DealWriter,
    IdLine,
    InfoLine,
    OptionDecl,
    ReadyOk,
    UnknownLine,
    ZoleOk,
    answer_text,
    bid_event,
    card_event,
    events_after,
    parse_answer,
    parse_bot_line,
    result_event,
    rules_fields,
    setoption_line,
    trick_event,
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


# -- the go and newdeal lines, against a slow reference built from the seat's view ----------


def _text(items: object) -> str:
    if items is None:
        return "-"
    return ",".join(str(item) for item in items) or "-"  # type: ignore[attr-defined]


def _view_fields(view: SeatView, deal_no: int, preset: str, scores: tuple[int, ...]) -> list[str]:
    return [
        "deal", str(deal_no), "seat", str(view.seat), "dealer", str(view.dealer),
        "forehand", str(view.forehand), "rules", preset, "hand", _text(view.hand),
        "scores", _text(scores), "commonpules", str(view.pules.common),
        "personalpules", _text(view.pules.personal),
    ]  # fmt: skip


def go_from_view(
    request_id: int, time_ms: int, view: SeatView, deal_no: int, preset: str,
    scores: tuple[int, ...],
) -> str:  # fmt: skip
    """The ``go`` line as the page describes it, field by field from the seat's view."""
    phase = {Phase.BIDDING: "bid", Phase.BURYING: "bury", Phase.PLAYING: "play"}[view.phase]
    legal = view.hand if view.phase is Phase.BURYING else view.legal_actions
    played = [card for trick in view.tricks for card in trick.cards] + list(view.trick)
    return " ".join([
        "go", "id", str(request_id), "time", str(time_ms), "phase", phase,
        *_view_fields(view, deal_no, preset, scores),
        "bids", _text([bid for _, bid in view.bids]),
        "contract", "-" if view.contract is None else str(view.contract),
        "soloist", "-" if view.soloist is None else str(view.soloist),
        "talon", _text(view.talon), "buried", _text(view.buried), "played", _text(played),
        "winners", _text([trick.winner for trick in view.tricks]), "legal", _text(legal),
    ])  # fmt: skip


def rules_from_dict(rules: Rules) -> list[str]:
    """The rules fields of ``newdeal``, from the rules' plain data (as records keep them)."""
    data = rules.to_dict()
    contracts = [name.replace("_", "") for name in data["contracts"]]

    def amounts(table: str) -> str:
        allowed = table.replace("_", "") in contracts
        return ",".join(str(v) for v in data[table].values()) if allowed else "-"

    return [
        "contracts", ",".join(contracts), "allpass", data["all_pass"],
        "tableloser", data["table_loser"], "tablepayment", str(data["table_payment"]),
        "dealspergame", str(data["deals_per_game"]),
        "commonpulebonus", str(data["common_pule_bonus"]),
        "personalpulebonus", str(data["personal_pule_bonus"]),
        "pulestakeonly", str(data["pules_take_only"]).lower(),
        "take", amounts("take"), "zole", amounts("zole"), "smallzole", amounts("small_zole"),
    ]  # fmt: skip


def newdeal_from_view(view: SeatView, rules: Rules, deal_no: int, scores: tuple[int, ...]) -> str:
    return " ".join(
        ["newdeal", *_view_fields(view, deal_no, rules.preset, scores), *rules_from_dict(rules)]
    )


def play_random(rules: Rules, seed: int) -> list[tuple[DealState, str, str]]:
    """Play a random deal; at each decision, the go line from the view and from the writer."""
    rng = random.Random(seed)
    pules = Pules(seed % 3, (1, 0)) if seed % 2 else Pules()
    state = DealState.from_seed(rules, seed, 1 + seed % 7, pules=pules)
    writer = DealWriter(state, 1 + seed % 7, (seed, -seed, 0))
    seen = []
    while state.result is None:
        view_line = go_from_view(seed, 900, state.view(state.turn), 1 + seed % 7, rules.preset,
                                 (seed, -seed, 0))  # fmt: skip
        seen.append((state.copy(), view_line, writer.go(seed, 900)))
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return seen


@pytest.mark.parametrize("rules", rules_variants(), ids=lambda r: r.name + str(r.contracts))
def test_deal_writer_go_equals_the_seat_view_form(rules: Rules) -> None:
    for seed in range(120):
        for _, from_view, from_writer in play_random(rules, seed):
            assert from_writer == from_view


def test_newdeal_equals_the_seat_view_form_with_the_rules() -> None:
    for rules in rules_variants():
        for seed in range(60):
            pules = Pules(seed % 3, (1, 0)) if seed % 2 else Pules()
            deal_no = 1 + seed % 7
            state = DealState.from_seed(rules, seed, deal_no, pules=pules)
            writer = DealWriter(state, deal_no, (seed, -seed, 0))
            for seat in range(3):
                from_view = newdeal_from_view(state.view(seat), rules, deal_no, (seed, -seed, 0))
                assert writer.newdeal(seat) == from_view


def test_newdeal_spells_out_the_rules_switches(tmp_path: Path) -> None:
    """A bot sees the switches, not only the preset: a rules file based on lzf with small zole,
    the table game, pules for take games only and a bonus of 3 says so in ``newdeal``."""
    path = tmp_path / "house.toml"
    path.write_text(
        'preset = "lzf"\ncontracts = ["take", "zole", "small_zole"]\nall_pass = "table"\n'
        'pules_take_only = true\npersonal_pule_bonus = 3\ntable_loser = "points"\n'
    )
    rules = load_rules(path)
    words = DealWriter(DealState.from_seed(rules, 5, 2), 2, (0, 0, 0)).newdeal(1).split()
    fields = dict(zip(words[1::2], words[2::2], strict=True))
    assert fields["rules"] == "lzf"
    assert fields["contracts"] == "take,zole,smallzole"
    assert fields["allpass"] == "table"
    assert fields["tableloser"] == "points"
    assert fields["pulestakeonly"] == "true"
    assert fields["personalpulebonus"] == "3"
    assert fields["commonpulebonus"] == "1"
    assert fields["tablepayment"] == "2" and fields["dealspergame"] == "3"
    assert fields["take"] == "3,2,1,-2,-3,-4"
    assert fields["zole"] == "7,6,5,-6,-7,-8"
    assert fields["smallzole"] == "6,-7"
    # The v1 fields come first and in their order: a bot that reads them by position still can.
    assert words[1:19:2] == (
        "deal seat dealer forehand rules hand scores commonpules personalpules".split()
    )


def test_rules_fields_of_the_presets() -> None:
    assert rules_fields(load_rules("wpt")) == (
        "contracts take allpass table tableloser tricks_then_points tablepayment 2 "
        "dealspergame 3 commonpulebonus 1 personalpulebonus 2 pulestakeonly false "
        "take 6,5,4,-5,-6,-7 zole - smallzole -"
    )
    # lzf keeps a small zole table, but the contract is off: its amounts are not shown.
    assert rules_fields(load_rules("lzf")) == (
        "contracts take,zole allpass pule tableloser tricks_then_points tablepayment 2 "
        "dealspergame 3 commonpulebonus 1 personalpulebonus 2 pulestakeonly false "
        "take 3,2,1,-2,-3,-4 zole 7,6,5,-6,-7,-8 smallzole -"
    )


# -- the other messages ------------------------------------------------------------------------


def test_fixed_messages_and_setoption() -> None:
    assert ZOLE == "zole 1"
    assert ISREADY == "isready"
    assert QUIT == "quit"
    assert setoption_line("Aggression", "70") == "setoption name Aggression value 70"
    assert setoption_line("Book File", "my book.bin") == (
        "setoption name Book File value my book.bin"
    )


def test_event_encoders() -> None:
    assert bid_event(2, Bid.SMALL_ZOLE) == "bid 2 smallzole"
    assert card_event(1, Card.parse("TD")) == "card 1 TD"
    qc, ah, td = (Card.parse(name) for name in ("QC", "AH", "TD"))
    assert trick_event((0, qc, ah, td, 2)) == "trick 2 24"


def _events_by_hand(state: DealState) -> list[str]:
    """Every event of a finished deal, from its history and tricks: the reference."""
    lines: list[str] = []
    cards = 0
    tricks = state.tricks
    for seat, action in state.history:
        if isinstance(action, Bid):
            lines.append(f"bid {seat} {action}")
        elif isinstance(action, Card):
            lines.append(f"card {seat} {action}")
            cards += 1
            if cards % 3 == 0:
                trick = tricks[cards // 3 - 1]
                lines.append(f"trick {trick.winner} {sum(POINTS[c] for c in trick.cards)}")
    return lines


@pytest.mark.parametrize("rules", rules_variants(), ids=lambda r: r.name + str(r.contracts))
def test_events_after_every_action_are_the_deals_events_in_order(rules: Rules) -> None:
    for seed in range(80):
        rng = random.Random(seed)
        state = DealState.from_seed(rules, seed, 1 + seed % 3)
        told: list[str] = []
        while state.result is None:
            seat: int = state.turn  # type: ignore[assignment]
            legal = state.legal_actions()
            action: Action = legal[rng.randrange(len(legal))]
            state.apply(action)
            told += events_after(state, seat, action)
        assert told == _events_by_hand(state)
        assert not any(line.startswith("bury") for line in told)  # a bury is never told


def test_result_event_of_a_played_and_of_a_forfeited_deal() -> None:
    state = DealState.from_seed(load_rules("wpt"), 1, 1)
    while state.result is None:
        state.apply(state.legal_actions()[0])
    result = state.result
    line = result_event(result, 4, (3, -6, 3))
    fields = dict(zip(line.split()[1::2], line.split()[2::2], strict=True))
    assert line.startswith("result deal 4 ")
    assert fields["contract"] == str(result.contract) and fields["totals"] == "3,-6,3"
    assert fields["scores"] == ",".join(str(s) for s in result.scores)
    assert fields["forfeit"] == "-"
    # A forfeit in the middle of the bidding: no contract, no soloist, the penalty.
    early = DealState.from_seed(load_rules("wpt"), 1, 1)
    early.apply(Bid.PASS)
    forfeited: DealResult = forfeit_result(early, 1, 7)
    assert result_event(forfeited, 2, (7, -14, 7)) == (
        "result deal 2 contract - soloist - scores 7,-14,7 totals 7,-14,7 tricks 0,0,0 "
        "points 0,0,0 soloistpoints - band - forfeit 1"
    )


def test_answer_text_is_what_parse_answer_reads_back() -> None:
    bury = Bury.parse("QC 9H")
    assert answer_text(bury) == "QC 9H"
    assert parse_answer(answer_text(bury).split(), Phase.BURYING) == bury
    for action in (Bid.PASS, Bid.ZOLE, *CARDS):
        phase = Phase.BIDDING if isinstance(action, Bid) else Phase.PLAYING
        assert parse_answer(answer_text(action).split(), phase) == action
    assert answer_text(Card.parse("10d")) == "TD"


def test_a_comma_separated_bury_is_not_taken() -> None:
    with pytest.raises(NotationError, match="expected two cards to bury"):
        parse_answer(["9S,9H"], Phase.BURYING)


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
    line = DealWriter(state, 2, (1, -2, 1)).go(17, 1500)
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
    writer = DealWriter(state, deal_no, (0, 0, 0))
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


def test_spec_documents_every_newdeal_field_and_its_example_is_real() -> None:
    """The page's ``newdeal`` table names every field the arena writes, and its example has
    them in the arena's order, with lzf's rules as the arena spells them."""
    spec = (EXAMPLES.parent / "README.md").read_text()
    written = DealWriter(DealState.from_seed(load_rules("lzf"), 1, 4), 4, (0, 0, 0)).newdeal(2)
    keys = written.split()[1::2]
    section = spec[spec.index("### `newdeal`") : spec.index("### `go`")]
    documented = set(re.findall(r"`(\w+)`", "".join(re.findall(r"^\| (.*?) \|", section, re.M))))
    assert set(keys) <= documented, set(keys) - documented
    example = re.search(r"Example: `(newdeal [^`]+)`", section)
    assert example is not None
    words = example.group(1).split()
    assert words[1::2] == keys
    assert " ".join(words[19:]) == rules_fields(load_rules("lzf"))
