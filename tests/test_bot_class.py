"""The Python bot class (:mod:`zole_arena.sdk`): one Bot subclass played as a protocol
program and seated in the arena's process.

A bot on the class must pass ``zole-arena check`` as a program (plain and sandboxed); seated
in-process it must be told exactly what the program is told — every option, deal start, event,
view and result, as typed values — and so play the same moves on the same seed; its faults
in-process (an exception, garbage, an illegal action, a late answer on the clock) must be
recorded like a program's. The bundled RuleBot and RandomBot play the same moves either way.
Real processes, real pipes, real logs; nothing sleeps to synchronise (the slow bot's wait on
the clock is its misbehaviour).
"""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import random
import re
import shlex
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from clihelp import ok, one_line_error, zole
from zole_arena_bots.random_bot import RandomBot
from zole_arena_bots.rule_bot import RuleBot

from zole_arena.arena.match import Match
from zole_arena.arena.referee import FaultPolicy
from zole_arena.arena.settings import MatchSettings
from zole_arena.arena.summary import Summary
from zole_arena.catalogue.bundled import bundled_command
from zole_arena.errors import BotStartupError
from zole_arena.game.actions import Action, Bid, Bury
from zole_arena.game.cards import Card
from zole_arena.game.rules import AllPass, Rules, SmallZoleScores, load_rules
from zole_arena.game.scoring import Pules
from zole_arena.game.state import DealState, Phase
from zole_arena.players.inproc import DealContext, InProcessSession
from zole_arena.players.session import BotConfig
from zole_arena.protocol import DealWriter
from zole_arena.sdk.bot import Bot, handshake_lines
from zole_arena.sdk.notation import parse_go, parse_newdeal
from zole_arena.sdk.values import (
    BotView,
    CardEvent,
    DealEnd,
    DealStart,
    Event,
    Option,
    TrickEvent,
)

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
PY = sys.executable
RECORDER = TESTS / "helper_bots" / "recorder_bot.py"
LZF = load_rules("lzf")
WPT = load_rules("wpt")


def _module(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


recorder = _module(RECORDER)


def moves(log: Path) -> list[tuple[int, list[tuple[int, str]], int]]:
    """Every deal of a log: its number, its moves (seat and action), its faults."""
    deals = []
    for line in log.read_text().splitlines():
        record = json.loads(line)
        if record["type"] == "deal":
            played = [(move["seat"], move["action"]) for move in record["moves"]]
            deals.append((record["deal"], played, len(record["faults"])))
    return deals


def faults(log: Path) -> list[dict[str, object]]:
    return [
        fault
        for line in log.read_text().splitlines()
        for fault in json.loads(line).get("faults", [])
    ]


def play(
    configs: list[BotConfig], log: Path, deals: int, *, rules: Rules = WPT, **settings: Any
) -> Summary:
    """A match of ``deals`` deals of seed 7, with its log."""
    return Match(configs, MatchSettings(rules=rules, seed=7, deals=deals, **settings), log).run()


# -- a program ----------------------------------------------------------------------------------


@pytest.mark.parametrize("sandbox", [False, True], ids=["plain", "sandboxed"])
def test_a_bot_on_the_class_passes_check_as_a_program(tmp_path: Path, sandbox: bool) -> None:
    bot = tmp_path / "mybot.py"
    bot.write_text(RECORDER.read_text())  # outside the repository: the library must be found
    args = ["check", f"{PY} {bot} 5"] + (["--sandbox"] if sandbox else [])
    proc = ok(zole(*args, cwd=tmp_path))
    assert "FAIL" not in proc.stdout
    assert proc.stdout.strip().splitlines()[-1].startswith("all "), proc.stdout
    assert "passed" in proc.stdout


def test_the_handshake_declares_names_and_typed_options(tmp_path: Path) -> None:
    proc = ok(zole("check", f"{PY} {RECORDER} 5", cwd=tmp_path))
    assert "Recorder" in proc.stdout
    assert handshake_lines(recorder.RecorderBot(1)) == [
        "id name Recorder",
        "id author zole-arena tests",
        "id version 3",
        "option name Greed type spin default 3 min 0 max 9",
        "option name Loud type check default false",
        "option name Style type combo default calm var calm var wild",
        "option name Motto type string default hello",
        "zoleok 1",
    ]


# -- in-process: the same as a program ----------------------------------------------------------

OPTIONS = {"Greed": "7", "Loud": "true", "Style": "wild", "Motto": "two  words"}


def test_in_process_the_bot_is_told_and_plays_exactly_what_the_program_is(tmp_path: Path) -> None:
    """Three recorders as programs, then as objects, then mixed: the same calls, line for line
    (options, deal starts, events, views, results, quit), and the same moves."""
    files = [tmp_path / f"calls{seat}.txt" for seat in range(3)]
    programs = [
        BotConfig(command=(PY, str(RECORDER), str(seat), str(files[seat])), options=OPTIONS)
        for seat in range(3)
    ]
    play(programs, tmp_path / "programs.jsonl", 60, rules=LZF)
    told = [path.read_text().splitlines() for path in files]

    objects = [recorder.RecorderBot(seat) for seat in range(3)]
    seated = [BotConfig.in_process(bot, options=OPTIONS) for bot in objects]
    summary = play(seated, tmp_path / "objects.jsonl", 60, rules=LZF)
    assert summary.deals == 60 and summary.stopped is None

    mixed_object = recorder.RecorderBot(1)
    mixed = [programs[0], BotConfig.in_process(mixed_object, options=OPTIONS), programs[2]]
    for path in files:
        path.unlink()
    play(mixed, tmp_path / "mixed.jsonl", 60, rules=LZF)

    assert told[0][:4] == ["option Greed 7", "option Loud True", "option Style 'wild'",
                           "option Motto 'two  words'"]  # fmt: skip
    assert told[0][-1] == "quit"
    kinds = {line.split("(")[0] for lines in told for line in lines}
    assert {"DealStart", "BidEvent", "CardEvent", "TrickEvent", "DealEnd"} <= kinds
    assert any("'phase': <Phase.BURYING" in line for line in told[0] + told[1] + told[2])
    assert any("Contract.PULE" in line for line in told[0]), "lzf: a pule was written"
    for seat in range(3):
        assert objects[seat].calls == told[seat], f"seat {seat}: in-process told otherwise"
    assert mixed_object.calls == told[1]
    assert [path.read_text().splitlines() for path in (files[0], files[2])] == [told[0], told[2]]
    assert moves(tmp_path / "programs.jsonl") == moves(tmp_path / "objects.jsonl")
    assert moves(tmp_path / "programs.jsonl") == moves(tmp_path / "mixed.jsonl")
    for name in ("objects", "mixed"):
        ok(zole("verify", f"{name}.jsonl", cwd=tmp_path))


def test_rulebot_and_random_play_the_same_moves_in_process_as_programs(tmp_path: Path) -> None:
    rule = bundled_command("rulebot")
    random_program = bundled_command("random")
    options = {"Epsilon": "15", "Aggression": "70"}
    programs = [
        BotConfig(command=(*rule, "--seed", "3"), name="rule", options=options),
        BotConfig(command=(*rule, "--seed", "4"), name="rule#2"),
        BotConfig(command=(*random_program, "--seed", "5"), name="random"),
    ]

    def objects() -> list[BotConfig]:  # new objects for each match, as programs are new
        return [
            BotConfig.in_process(RuleBot(seed=3), name="rule", options=options),
            BotConfig.in_process(RuleBot(seed=4), name="rule#2"),
            BotConfig.in_process(RandomBot(seed=5), name="random"),
        ]

    small_zole = tmp_path / "smallzole.toml"
    small_zole.write_text('preset = "lzf"\ncontracts = ["take", "zole", "small_zole"]\n')
    for rules in (WPT, load_rules(small_zole)):
        play(programs, tmp_path / f"p-{rules.preset}.jsonl", 150, rules=rules)
        play(objects(), tmp_path / f"o-{rules.preset}.jsonl", 150, rules=rules)
        expected = moves(tmp_path / f"p-{rules.preset}.jsonl")
        assert moves(tmp_path / f"o-{rules.preset}.jsonl") == expected
        assert sum(len(played) for _, played, _ in expected) > 150 * 8
        assert not any(count for _, _, count in expected), "no faults"


def test_the_view_in_process_is_the_go_line_read_back() -> None:
    """Over random deals of both presets, pules standing: the view an in-process bot gets
    equals the one a program reads from the ``go`` line of the same request."""
    views: list[BotView] = []

    class Keeper(Bot):
        def decide(self, view: BotView) -> Action:
            views.append(view)
            return view.legal_actions[0]

    session = InProcessSession(BotConfig.in_process(Keeper()))
    checked = {phase: 0 for phase in Phase if phase is not Phase.DONE}
    for seed in range(1, 60):
        rules = (WPT, LZF)[seed % 2]
        pules = Pules(seed % 3, (seed % 3, 1)[: seed % 3]) if rules is LZF else Pules()
        state = DealState.from_seed(rules, seed, 1, pules=pules)
        context = DealContext(state, seed, (seed, -seed, 0), rules)
        writer = DealWriter(state, seed, (seed, -seed, 0))
        rng = random.Random(seed)
        while state.result is None:
            seat: int = state.turn  # type: ignore[assignment]
            session.decide(context, seat, 99, 2000, 100)
            request_id, read = parse_go(writer.go(99, 2000).split())
            assert request_id == 99
            assert read.deadline >= views[-1].deadline, "the clock runs on"
            read = dataclasses.replace(read, deadline=views[-1].deadline)
            assert read == views[-1], f"seed {seed}, {state.phase}"
            checked[state.phase] += 1
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
    assert all(count > 20 for count in checked.values()), checked


def test_a_program_sees_the_rules_switches_newdeal_spells_out() -> None:
    """A bot on the class, as a program, gets the rules of the match in its views — switches
    and amounts from ``newdeal``'s rules fields — not only the base preset's."""
    switched = Rules.from_dict({
        **LZF.to_dict(), "contracts": ["take", "zole", "small_zole"], "all_pass": "table",
        "table_loser": "points", "personal_pule_bonus": 3, "pules_take_only": True,
        "small_zole": {"win": 9, "loss": -11},
    })  # fmt: skip
    for rules in (WPT, LZF, switched):
        state = DealState.from_seed(rules, 3, 1)
        writer = DealWriter(state, 1, (0, 0, 0))
        start = parse_newdeal(writer.newdeal(0).split())
        _, view = parse_go(writer.go(7, 2000).split(), ruleset=start.ruleset)
        for seen in (start.ruleset, view.ruleset):
            same = dataclasses.replace(seen, source=rules.source, description=rules.description)
            assert same == rules, rules.name
    assert start.ruleset.small_zole == SmallZoleScores(9, -11)
    assert start.ruleset.all_pass is AllPass.TABLE


# -- faults in-process --------------------------------------------------------------------------


class Faulty(Bot):
    """Plays the first legal action, except at request ``when`` (counted from 1)."""

    def __init__(self, fault: str, when: int = 3) -> None:
        self.fault = fault
        self.when = when
        self.asked = 0

    def decide(self, view: BotView) -> Action:
        self.asked += 1
        if self.asked == self.when or (self.when == 0):
            if self.fault == "raise":
                raise ValueError("boom")
            if self.fault == "garbage":
                return "pass"  # type: ignore[return-value]
            if self.fault == "wrong kind":
                return Bid.PASS if view.phase is not Phase.BIDDING else Bury.parse("QC QS")
            if self.fault == "illegal":  # the right kind of answer, but not allowed
                held = [card for card in view.hand if card not in view.legal_actions]
                others = [card for card in map(Card, range(26)) if card not in view.hand]
                if view.phase is Phase.BURYING:
                    return Bury.of(others[0], others[1])
                return (held or others)[0] if view.phase is Phase.PLAYING else Bid.ZOLE
            if self.fault == "slow":  # busy on the clock past the time and the margin
                while time.monotonic() < view.deadline + 0.1:
                    pass
        return view.legal_actions[0]


def seated(bad: Bot, *, stderr: Path | None = None) -> list[BotConfig]:
    return [
        BotConfig.in_process(RandomBot(seed=1), name="one"),
        BotConfig.in_process(bad, name="bad", stderr_path=None if stderr is None else str(stderr)),
        BotConfig(command=(*bundled_command("random"), "--seed", "2"), name="two"),
    ]


@pytest.mark.parametrize(
    ("fault", "kind", "message"),
    [
        ("raise", "crash", "decide raised ValueError: boom"),
        ("garbage", "garbage", "decide returned 'pass', not a"),
        ("wrong kind", "garbage", "not a"),
        ("illegal", "illegal", "illegal action"),
        ("slow", "timeout", "no answer to request"),
    ],
)
def test_a_fault_in_process_is_recorded_and_forfeits_the_deal(
    tmp_path: Path, fault: str, kind: str, message: str
) -> None:
    log = tmp_path / "m.jsonl"
    stderr = tmp_path / "bad.stderr"
    bad = Faulty(fault)
    summary = play(seated(bad, stderr=stderr), log, 6, movetime_ms=40, margin_ms=20)
    assert summary.deals == 6 and summary.stopped is None
    (record,) = faults(log)
    assert record["kind"] == kind and record["bot"] == "bad" and record["player"] == 1
    assert message in str(record["message"]), record
    assert str(record["request"]).startswith("go id "), "the request as a program sees it"
    forfeited = [json.loads(line)["result"]["forfeit"] for line in log.read_text().splitlines()[1:]]
    assert forfeited.count(record["seat"]) == 1 and forfeited.count(None) == 5
    assert bad.asked > 6, "the bot plays on in the next deals"
    ok(zole("verify", str(log), cwd=tmp_path))
    if fault == "raise":
        assert "ValueError: boom" in stderr.read_text(), "the traceback is in the stderr file"
        assert "Traceback" in stderr.read_text()


def test_a_bot_in_process_that_always_raises_is_disqualified(tmp_path: Path) -> None:
    log = tmp_path / "m.jsonl"
    summary = play(seated(Faulty("raise", when=0)), log, 20, policy=FaultPolicy(max_faults=2))
    assert summary.stopped is not None and str(summary.stopped).startswith("disqualified: bad")
    assert summary.deals == 3
    assert [f["kind"] for f in faults(log)] == ["crash"] * 3


def test_random_substitution_after_an_in_process_fault(tmp_path: Path) -> None:
    log = tmp_path / "m.jsonl"
    policy = FaultPolicy(on_fault="random")
    summary = play(seated(Faulty("illegal")), log, 4, policy=policy)
    assert summary.deals == 4
    (record,) = faults(log)
    assert record["kind"] == "illegal"
    deals = [json.loads(line) for line in log.read_text().splitlines()[1:]]
    assert all(deal["result"]["forfeit"] is None for deal in deals)
    substituted = [move for deal in deals for move in deal["moves"] if move["request_id"] is None]
    assert len(substituted) == 1 and substituted[0]["seat"] == record["seat"]
    ok(zole("verify", str(log), cwd=tmp_path))


def test_an_untimed_bot_is_never_late(tmp_path: Path) -> None:
    class Slow(Faulty):
        timed = False

    log = tmp_path / "m.jsonl"
    summary = play(seated(Slow("slow")), log, 2, movetime_ms=20, margin_ms=10)
    assert summary.deals == 2 and not faults(log)


def test_in_process_options_are_checked_like_a_programs(tmp_path: Path) -> None:
    def start(options: dict[str, str]) -> str:
        bot = recorder.RecorderBot(1)
        configs = seated(bot)
        configs[1] = BotConfig.in_process(bot, options=options)
        with pytest.raises(BotStartupError) as caught:
            Match(configs, MatchSettings(rules=WPT, seed=1, deals=1)).run()
        return str(caught.value)

    assert "has no option 'Speed' (its options: Greed, Loud, Style, Motto)" in start({"Speed": "1"})
    assert "Greed takes 0 to 9, not 12" in start({"Greed": "12"})
    assert "Style takes one of calm, wild" in start({"Style": "odd"})
    bot = RuleBot()
    session = InProcessSession(BotConfig.in_process(bot, options={"aggression": "90"}))
    assert bot.aggression == 90 and session.name == "RuleBot"


def test_a_log_with_an_in_process_bot_cannot_be_resumed(tmp_path: Path) -> None:
    log = tmp_path / "m.jsonl"
    play(seated(RandomBot(seed=3)), log, 2)
    header = json.loads(log.read_text().splitlines()[0])
    assert header["players"][1]["command"] == ["<python>", "zole_arena_bots.random_bot.RandomBot"]
    assert header["players"][1]["id_name"] == "Random"
    one_line_error(zole("match", "--resume", str(log), cwd=tmp_path), "in-process")


# -- hooks and typed values ---------------------------------------------------------------------


def test_events_and_results_arrive_typed_and_in_order(tmp_path: Path) -> None:
    class Counter(Bot):
        """Counts each deal's tricks and their points from the events."""

        def __init__(self) -> None:
            self.deals: list[tuple[DealStart, list[int], DealEnd | None]] = []
            self.cards = 0
            self.late = 0

        def on_newdeal(self, deal: DealStart) -> None:
            self.deals.append((deal, [], None))

        def decide(self, view: BotView) -> Action:
            self.late += view.time_left() <= 0
            self.late += len(view.tricks) != len(self.deals[-1][1])
            return view.legal_actions[-1]

        def on_event(self, event: Event) -> None:
            if isinstance(event, CardEvent):
                self.cards += 1
            elif isinstance(event, TrickEvent):
                self.late += self.cards % 3 != 0  # a trick after its third card only
                self.deals[-1][1].append(event.points)

        def on_result(self, end: DealEnd) -> None:
            deal, tricks, _ = self.deals[-1]
            self.deals[-1] = (deal, tricks, end)

    bot = Counter()
    play(seated(bot), tmp_path / "m.jsonl", 5)
    records = [json.loads(line) for line in (tmp_path / "m.jsonl").read_text().splitlines()[1:]]
    assert bot.late == 0
    assert len(bot.deals) == len(records) == 5
    for (deal, tricks, end), record in zip(bot.deals, records, strict=True):
        assert end is not None and end.deal_no == deal.deal_no == record["deal"]
        assert deal.hand == tuple(Card.parse(c) for c in record["hands"][deal.seat])
        assert tricks == [trick["points"] for trick in record["tricks"]]
        assert list(end.totals) == record["totals"]
        assert list(end.points) == record["result"]["points"]
        assert (end.contract and str(end.contract)) == record["result"]["contract"]


def test_a_bot_without_decide_says_so() -> None:
    class Empty(Bot):
        pass

    assert Empty().name == "Empty"
    with pytest.raises(NotImplementedError, match="Empty must define decide"):
        Empty().decide(None)  # type: ignore[arg-type]


def test_option_values_are_typed() -> None:
    assert Option("Fast", True).value("FALSE") is False
    assert Option("Depth", 2, 1, 5).value("4") == 4
    with pytest.raises(ValueError, match="Depth takes 1 to 5, not 9"):
        Option("Depth", 2, 1, 5).value("9")
    assert Option("Book", "none", choices=("none", "wide")).value("wide") == "wide"


def test_the_kit_s_first_paths_name_the_same_objects() -> None:
    """Bots written on ``zole_arena.players.bot`` and ``players.bot_io`` keep working."""
    from zole_arena.players import bot as old_bot
    from zole_arena.players import bot_io as old_io
    from zole_arena.sdk import bot, notation, values

    kit = {**vars(values), **vars(notation), **vars(bot)}
    for old in (old_bot, old_io):
        assert old.__all__
        for name in old.__all__:
            assert getattr(old, name) is kit[name], name


def test_the_catalogue_s_first_path_names_the_same_objects() -> None:
    """Code that imports the bundled bots from ``zole_arena.players.bundled`` (the path
    ``docs/library-bots.md`` gave) keeps working now that they are the catalogue's."""
    from zole_arena.catalogue import bundled
    from zole_arena.players import bundled as old

    assert old.__all__ == bundled.__all__ and "bundled_command" in old.__all__
    for name in old.__all__:
        assert getattr(old, name) is getattr(bundled, name), name


def test_the_kit_loads_nothing_of_the_arena_s_process_stack() -> None:
    """A bot on the kit starts quickly: importing it starts no part of the arena."""
    probe = (
        "import sys, zole_arena.sdk; "
        "print(sorted(m for m in sys.modules if m.startswith('zole_arena.') and "
        "m.split('.')[1] not in ('sdk', 'game', 'errors', 'protocol')))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout
    assert loaded.strip() == "[]", loaded


# -- the guide and the benchmark ----------------------------------------------------------------

GUIDE = ROOT / "docs" / "library-bots.md"
BLOCK = re.compile(r"^```(\w+)\n(.*?)^```$", re.M | re.S)


def test_the_guides_examples_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every example of ``docs/library-bots.md``, in order: the Python ones in one namespace
    (one that opens with ``# NAME.py`` is also written to that file), and every
    ``zole-arena`` command of the shell ones, run for real."""
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, Any] = {"__name__": "guide"}
    ran = {"python": 0, "sh": 0}
    printed: list[str] = []
    namespace["print"] = lambda *args: printed.append(" ".join(str(a) for a in args))
    for kind, code in BLOCK.findall(GUIDE.read_text()):
        if kind == "python":
            first = code.splitlines()[0]
            if re.fullmatch(r"# \w+\.py", first):
                (tmp_path / first[2:]).write_text(code)
            exec(compile(code, f"{GUIDE.name} block {ran['python'] + 1}", "exec"), namespace)
        elif kind == "sh":
            for line in code.splitlines():
                words = shlex.split(line)
                if words and words[0] == "zole-arena":
                    ok(zole(*(w.replace("python3", PY) for w in words[1:]), cwd=tmp_path))
        ran[kind] = ran.get(kind, 0) + 1
    assert ran["python"] >= 4 and ran["sh"] >= 1, ran
    assert namespace["summary"].deals == 30
    assert len(namespace["counting"].results) == 30
    assert namespace["objects"] > namespace["programs"] > 0
    assert printed[-1].startswith("in-process: ")
    ok(zole("verify", "selfplay.jsonl", cwd=tmp_path))


def test_bench_match_measures_the_in_process_match(tmp_path: Path) -> None:
    data = json.loads(ok(zole("bench", "--match", "--deals", "30", "--json", cwd=tmp_path)).stdout)
    figures = data["in_process"]
    assert figures["deals"] == 30 and figures["decisions_per_deal"] >= 3
    assert (
        abs(figures["deals_per_second"] - 30 / figures["seconds"]) < 1e-9 * 30 / figures["seconds"]
    )
    placements = {p["placement"]: p for p in data["placements"]}
    assert set(figures["speedup"]) == set(placements)
    for name, speedup in figures["speedup"].items():
        expected = figures["deals_per_second"] / placements[name]["deals_per_second"]
        assert abs(speedup - expected) < 1e-9 * expected
    text = ok(zole("bench", "--match", "--deals", "10", "--no-pin", cwd=tmp_path)).stdout
    assert "in-process match" in text and "the free match's" in text


def test_a_tournament_worker_cannot_be_sent_a_bot_object() -> None:
    from zole_arena.events.plain import to_plain

    assert to_plain(BotConfig(command="rulebot"), "config")["bot"] is None
    with pytest.raises(TypeError, match=r"config\.bot: a RandomBot cannot be sent"):
        to_plain(BotConfig.in_process(RandomBot()), "config")
