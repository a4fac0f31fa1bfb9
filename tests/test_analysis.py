"""``zole-arena analyze`` and the analysis library: values that follow from best play, an exact
loss on a hand-made deal, the cache, untrusted analysis files, interruption, ``replay
--analysis``; with real matches, real bots and the real compiled solver."""

from __future__ import annotations

import dataclasses
import json
import os
import resource
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from clihelp import ok, one_line_error, zole

from zole_arena.analysis.deal import analyse_deal, analysis_fits
from zole_arena.analysis.model import DealAnalysis, Phase, Role, Severity
from zole_arena.analysis.outcomes import band_scores, table_score
from zole_arena.analysis.run import log_deals
from zole_arena.analysis.solver import Solver
from zole_arena.analysis.store import read_analysis
from zole_arena.analysis.summary import summarise
from zole_arena.game.actions import Bury, Contract, parse_action
from zole_arena.game.cards import Card, cards_of
from zole_arena.game.rules import Rules
from zole_arena.game.state import DealState
from zole_arena.records.model import DealRecord, Move

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A real 24-deal match of three different bots (wpt: table games too) and its analysis,
    made by the command."""
    folder = tmp_path_factory.mktemp("analysis")
    log = folder / "m.jsonl"
    # random seeded too, so that the deals played (and their table games) are the same each run
    random_bot = f"random={sys.executable} {ROOT / 'bots' / 'random_bot.py'} --seed 3"
    ok(zole("match", "rulebot", "cbot", random_bot, "--deals", "24", "--rules", "wpt",
            "--seed", "11", "--log", str(log), cwd=folder))  # fmt: skip
    ok(zole("analyze", str(log), "--workers", "2", cwd=folder))
    return log, folder / "m.jsonl.analysis.jsonl"


@pytest.fixture(scope="module")
def played_lzf(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The same under lzf (zole, pules), analysed into a file named with -o."""
    folder = tmp_path_factory.mktemp("analysis-lzf")
    log = folder / "m.jsonl"
    ok(zole("match", "rulebot", "searchbot", "rulebot", "--deals", "18", "--rules", "lzf",
            "--seed", "5", "--movetime", "300", "--log", str(log), cwd=folder))  # fmt: skip
    out = folder / "an.jsonl"
    ok(zole("analyze", str(log), "-o", str(out), cwd=folder))
    return log, out


def _analyses(log: Path, path: Path) -> list[tuple[DealRecord, DealAnalysis]]:
    held = read_analysis(path)
    assert held.skipped == 0
    deals, _ = log_deals([log])
    return [(record, held.deals[sha]) for record, sha in deals]


def _best_play_score(state: DealState, seat: int, solver: Solver, context: str) -> int:
    """Play ``state`` to its end with every seat choosing a best card by the solver — in a
    soloist's deal the soloist his best, the defenders theirs; in the table game ``seat`` its
    best and the two others what is worst for ``seat`` (the paranoid value) — and return
    ``seat``'s score for the deal."""
    state = state.copy()
    while not state.is_terminal:
        legal = cards_of(state.legal_cards_mask())
        if state.soloist is None:
            raw = solver.values(f"{context}:t{seat}", state, legal, seat=seat)
            pick = max if state.turn == seat else min
            state.apply(legal[raw.index(pick(raw))])
        else:
            raw = solver.values(f"{context}:s{state.soloist}", state, legal)
            pick = min if state.turn == state.soloist else max  # a lower band is better
            state.apply(legal[raw.index(pick(raw))])
    assert state.result is not None
    return state.result.scores[seat]


@pytest.mark.parametrize("which", ["played", "played_lzf"])
def test_value_of_the_move_taken_is_what_best_play_from_there_scores(
    which: str, request: pytest.FixtureRequest
) -> None:
    log, path = request.getfixturevalue(which)
    checked = {Role.SOLOIST: 0, Role.DEFENDER: 0, Role.TABLE: 0}
    bury_checked = 0
    with Solver() as solver:
        for number, (record, analysis) in enumerate(_analyses(log, path)):
            assert analysis_fits(analysis, record)
            rules = Rules.from_dict(record.rules)
            state = DealState(rules, record.hands, record.talon, record.dealer,
                              record.pules_before)  # fmt: skip
            by_move = {d.move: d for d in analysis.decisions}
            for index, move in enumerate(record.moves):
                action = parse_action(move.action)
                state.apply(action)
                decision = by_move.get(index)
                if decision is None or decision.phase is Phase.BID:
                    continue
                # every third play decision, up to 8 of each role, and 4 buries: enough of
                # each kind, from every deal of the log, and quicker than all
                if decision.phase is Phase.BURY:
                    if bury_checked == 4:
                        continue
                    bury_checked += 1
                elif index % 3 or checked[decision.role] == 8:
                    continue
                else:
                    checked[decision.role] += 1
                score = _best_play_score(state, move.seat, solver, f"c{number}.{index}")
                assert score == decision.value, (record.deal, index, decision)
    assert all(count == 8 for count in checked.values()) or which == "played_lzf"
    assert bury_checked > 0


def test_every_decision_has_a_value_for_each_legal_action_and_losses_add_up(
    played: tuple[Path, Path],
) -> None:
    log, path = played
    phases: set[Phase] = set()
    for record, analysis in _analyses(log, path):
        rules = Rules.from_dict(record.rules)
        state = DealState(rules, record.hands, record.talon, record.dealer, record.pules_before)
        by_move = {d.move: d for d in analysis.decisions}
        for index, move in enumerate(record.moves):
            legal = state.legal_actions()
            decision = by_move.get(index)
            if len(legal) > 1 and move.request_id is not None:
                assert decision is not None, (record.deal, index)
                shown = [v.action for v in decision.values]
                if decision.phase is Phase.BURY:
                    assert shown == [str(b).removeprefix("bury ") for b in legal]
                else:
                    assert shown == [str(a) for a in legal]
                assert decision.loss == decision.best - decision.value >= 0
                phases.add(decision.phase)
            else:
                assert decision is None
            state.apply(parse_action(move.action))
    assert phases == {Phase.BID, Phase.BURY, Phase.PLAY}


def _take_scores(
    start: DealState, bidder: int, solver: Solver, context: str
) -> tuple[int, int, int]:
    """Each seat's score when ``bidder`` takes (the earlier bidders passing) and buries best:
    every pair solved on its own."""
    state = start.copy()
    order = [start.forehand, (start.forehand + 1) % 3, (start.forehand + 2) % 3]
    for seat in order:
        if seat == bidder:
            state.apply(parse_action("take"))
            break
        state.apply(parse_action("pass"))
    best = None
    for bury in state.legal_actions():
        after = state.copy()
        after.apply(bury)
        band = solver.values(context, after)[0]
        best = band if best is None else min(best, band)
    assert best is not None
    return band_scores(start.rules, Contract.TAKE, bidder, start.pules, best)


def test_bid_values_follow_the_later_bidders_best_words(played: tuple[Path, Path]) -> None:
    """A bid's value: take = the best bury's score; pass = what follows when each later bidder
    says his best word; all pass = each seat's paranoid table-game value."""
    log, path = played
    with Solver() as solver:
        for number, (record, analysis) in enumerate(_analyses(log, path)[:12]):
            rules = Rules.from_dict(record.rules)
            start = DealState(rules, record.hands, record.talon, record.dealer,
                              record.pules_before)  # fmt: skip
            order = [start.forehand, (start.forehand + 1) % 3, (start.forehand + 2) % 3]

            takes = [_take_scores(start, s, solver, f"b{number}:{s}") for s in order]
            table = start.copy()
            for _ in range(3):
                table.apply(parse_action("pass"))
            tables = [table_score(rules, solver.values(f"t{number}:{s}", table, seat=s)[0])
                      for s in range(3)]  # fmt: skip
            # the last bidder takes when that is strictly better for him than the table game
            last = order[2]
            third = takes[2] if takes[2][last] > tables[last] else None
            second = order[1]
            pass_second = third[second] if third else tables[second]
            # and the second when taking is strictly better for him than passing
            first = order[0]
            if takes[1][second] > pass_second:
                pass_first = takes[1][first]
            else:
                pass_first = third[first] if third else tables[first]
            bids = [d for d in analysis.decisions if d.phase is Phase.BID]
            for d in bids:
                values = {v.action: v.value for v in d.values}
                turn = order.index(d.seat)
                assert values["take"] == takes[turn][d.seat]
                if turn == 2:
                    assert values["pass"] == tables[d.seat]
                if turn == 1:
                    assert values["pass"] == pass_second
                if turn == 0:
                    assert values["pass"] == pass_first


def _ace_deal(template: DealRecord) -> DealRecord:
    """A hand-made deal (wpt; dealer seat 2, so seat 0 bids first and takes, burying J♥ 10♠):
    at the seventh trick seat 1, a defender void in hearts, must put a trump on K♥ Q♦ and
    holds A♦ and 9♦. The soloist has 36 card points in tricks and 12 buried: 48. With 9♦ he
    takes 7 more (K♥ 4 + Q♦ 3) = 55, and the last trick is the defenders' (A♦ beats K♠):
    55 is a loss, each defender +5. With A♦ he has 66, and 9♦ then wins the last trick for
    the defenders without points: 66 is a win, each defender −4. Throwing the ace away costs
    seat 1 exactly 5 − (−4) = 9 points."""
    hands = ("QD JS JH TD 7D TC KS AH", "QC QS JC AD 9D AC KC AS", "QH JD KD 8D 9C 9S KH 9H")
    moves = [(0, "take"), (0, "JH TS"), (0, "AH"), (1, "AS"), (2, "9H"), (0, "TD"), (1, "JC"),
             (2, "JD"), (1, "QC"), (2, "8D"), (0, "7D"), (1, "KC"), (2, "9C"), (0, "TC"),
             (0, "JS"), (1, "QS"), (2, "KD"), (1, "AC"), (2, "QH"), (0, "TH"), (2, "KH"),
             (0, "QD"), (1, "AD"), (0, "KS"), (1, "9D"), (2, "9S")]  # fmt: skip
    return dataclasses.replace(
        template,
        dealer=2,
        pules_before=template.pules_before.__class__(),
        hands=tuple(tuple(sorted(Card.parse(c) for c in h.split())) for h in hands),  # type: ignore[arg-type]
        talon=(Card.parse("TS"), Card.parse("TH")),
        moves=tuple(Move(seat, action, n, 1.0) for n, (seat, action) in enumerate(moves)),
    )


def test_a_thrown_away_ace_costs_exactly_what_it_does_by_hand(played: tuple[Path, Path]) -> None:
    log, _ = played
    template = next(record for record, _ in log_deals([log])[0])
    assert template.rules["preset"] == "wpt"
    record = _ace_deal(template)
    with Solver() as solver:
        analysis = analyse_deal(record, "0" * 64, solver, "ace")
    assert analysis.complete, analysis.note
    thrown = next(d for d in analysis.decisions if d.move == 22)
    assert (thrown.seat, thrown.role, thrown.action) == (1, Role.DEFENDER, "AD")
    assert {v.action: v.value for v in thrown.values} == {"AD": -4, "9D": 5}
    assert thrown.loss == 9
    assert analysis.thresholds.severity(thrown.loss) is Severity.MISTAKE
    # the seat-2 defender's cards at the same trick cost nothing: all were forced or equal
    assert record.moves[22].action == "AD"


def test_a_second_run_solves_nothing_and_gives_the_same_figures(
    played: tuple[Path, Path],
) -> None:
    log, path = played
    before = path.read_bytes()
    first = json.loads(ok(zole("analyze", str(log), "--json", cwd=log.parent)).stdout)
    again = ok(zole("analyze", str(log), cwd=log.parent))
    assert "(0 solved now)" in again.stderr
    assert path.read_bytes() == before
    assert first["deals"] == 24
    names = [b["name"] for b in first["bots"]]
    assert sorted(names) == ["cbot", "random", "rulebot"]
    figures = {b.name: b for b in summarise(a for _, a in _analyses(log, path))}
    for bot in first["bots"]:
        mine = figures[bot["name"]]
        assert bot["decisions"] == mine.decisions
        assert bot["per_decision"]["mean"] == pytest.approx(mine.per_decision.mean)
        assert bot["per_decision"]["low"] <= bot["per_decision"]["mean"]
        assert bot["counts"]["blunder"] == mine.counts[Severity.BLUNDER]
    text = again.stdout
    assert "per move" in text and "worst decisions" in text


def test_untrusted_analysis_lines_are_solved_again(
    played: tuple[Path, Path], tmp_path: Path
) -> None:
    log, path = played
    lines = path.read_text().splitlines()
    forged = json.loads(lines[0])
    for d in forged["decisions"]:  # claims every decision was perfect
        d["values"] = [[v[0], 0] for v in d["values"]]
        d["best"], d["loss"] = 0, 0
    wrong_deal = json.loads(lines[1])
    wrong_deal["deal_sha256"] = json.loads(lines[2])["deal_sha256"]  # another deal's key
    copy = tmp_path / "a.jsonl"
    copy.write_text("\n".join([json.dumps(forged), json.dumps(wrong_deal), "{not json",
                               *lines[3:]]) + "\n{\"type\":\"analysis\", \"cut")  # fmt: skip
    proc = ok(zole("analyze", str(log), "-o", str(copy), "--json", cwd=tmp_path))
    again = read_analysis(copy)
    original = read_analysis(path)
    # the forged line is a valid record, so it is kept in the file, but a later, solved
    # analysis of its deal replaces it: every deal's values are the true ones again
    for sha, analysis in original.deals.items():
        assert again.deals[sha] == analysis
    data = json.loads(proc.stdout)
    assert data["deals"] == 24


def test_bad_inputs_get_one_line(played: tuple[Path, Path], tmp_path: Path) -> None:
    log, _ = played
    one_line_error(zole("analyze", str(tmp_path / "none.jsonl"), cwd=tmp_path), "no such file")
    one_line_error(zole("analyze", str(log), "-o", str(log), cwd=tmp_path), "one of the logs")
    other_log = tmp_path / "other.jsonl"
    other_log.write_bytes(log.read_bytes())
    one_line_error(
        zole("analyze", str(log), "-o", str(other_log), cwd=tmp_path), "not an analysis file"
    )
    assert other_log.read_bytes() == log.read_bytes()
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    one_line_error(zole("analyze", str(log), "-o", str(notes), cwd=tmp_path), "not an analysis")
    assert notes.read_text() == "my notes\n"
    one_line_error(zole("analyze", str(tmp_path), cwd=tmp_path), "folder")
    garbage = tmp_path / "garbage.jsonl"
    garbage.write_text("hello\n")
    one_line_error(zole("analyze", str(garbage), cwd=tmp_path), "garbage.jsonl")
    proc = zole("analyze", str(log), "--workers", "0", cwd=tmp_path)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr


def test_an_interrupted_run_keeps_whole_lines_and_the_next_one_goes_on(
    played: tuple[Path, Path], tmp_path: Path
) -> None:
    log, _ = played
    out = tmp_path / "a.jsonl"
    proc = subprocess.Popen(
        [sys.executable, "-m", "zole_arena", "analyze", str(log), "-o", str(out), "--workers", "1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
    )
    # wait for the condition (the first deals in the file; polled, no blind sleep), then Ctrl-C
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if out.exists() and out.read_bytes().count(b"\n") >= 2:
            break
        select.select([], [], [], 0.01)
    proc.send_signal(signal.SIGINT)
    _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stderr
    assert "interrupted" in stderr and "Traceback" not in stderr
    data = out.read_bytes()
    assert data.endswith(b"\n")
    kept = read_analysis(out)
    assert kept.skipped == 0 and 2 <= len(kept.deals) < 24
    again = ok(zole("analyze", str(log), "-o", str(out), cwd=tmp_path))
    assert f"({24 - len(kept.deals)} solved now)" in again.stderr
    assert len(read_analysis(out).deals) == 24
    assert os.path.getsize(out) > len(data)


def test_a_file_that_cannot_grow_keeps_whole_lines_and_says_so(
    played: tuple[Path, Path], tmp_path: Path
) -> None:
    """Over a file-size limit (as on a full disk) the line the disk took part of is cut off
    again: one line of error, whole lines kept, and the next run goes on from them."""
    log, _ = played
    out = tmp_path / "a.jsonl"
    limit = 40_000  # a few deals' lines

    def small_files() -> None:  # Python ignores SIGXFSZ: a write past the limit fails
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    proc = subprocess.run(
        [sys.executable, "-m", "zole_arena", "analyze", str(log), "-o", str(out), "--workers",
         "1"], capture_output=True, text=True, cwd=tmp_path, timeout=300, check=False,
        preexec_fn=small_files,
    )  # fmt: skip
    one_line_error(proc, f"{out}: a short write (is the disk full?)")
    data = out.read_bytes()
    assert 0 < len(data) <= limit and data.endswith(b"\n")
    kept = read_analysis(out)
    assert kept.skipped == 0 and 1 <= len(kept.deals) < 24
    again = ok(zole("analyze", str(log), "-o", str(out), cwd=tmp_path))
    assert f"({24 - len(kept.deals)} solved now)" in again.stderr


def test_an_output_that_links_to_nothing_is_refused(
    played: tuple[Path, Path], tmp_path: Path
) -> None:
    log, _ = played
    (tmp_path / "out.jsonl").symlink_to(tmp_path / "elsewhere" / "made.jsonl")
    proc = zole("analyze", str(log), "-o", "out.jsonl", cwd=tmp_path)
    one_line_error(proc, "out.jsonl: a link to nothing")
    assert not (tmp_path / "elsewhere").exists()


def test_replay_marks_the_deals_losses(played: tuple[Path, Path], tmp_path: Path) -> None:
    log, path = played
    held = _analyses(log, path)
    record, analysis = max(held, key=lambda pair: max((d.loss for d in pair[1].decisions),
                                                     default=0))  # fmt: skip
    worst = max(analysis.decisions, key=lambda d: d.loss)
    assert worst.loss > 0
    text = ok(zole("replay", str(log), "--deal", str(record.deal), "--analysis",
                   cwd=log.parent)).stdout  # fmt: skip
    assert f"move {worst.move + 1} " in text
    assert f"loss {worst.loss}" in text
    mark = {Severity.INACCURACY: "?!", Severity.MISTAKE: "?", Severity.BLUNDER: "??"}
    assert mark[analysis.thresholds.severity(worst.loss)] in text
    # no analysis file: one line that says how to make one
    bare = tmp_path / "bare.jsonl"
    bare.write_bytes(log.read_bytes())
    one_line_error(zole("replay", str(bare), "--analysis", cwd=tmp_path), "zole-arena analyze")
    # a crafted analysis of another deal is not shown beside this one
    crafted = tmp_path / "crafted.jsonl"
    lines = path.read_text().splitlines()
    other = json.loads(lines[1])
    other["deal_sha256"] = json.loads(lines[0])["deal_sha256"]
    crafted.write_text(json.dumps(other) + "\n")
    proc = ok(zole("replay", str(log), "--deal", "1", "--analysis-file", str(crafted),
                   cwd=tmp_path))  # fmt: skip
    assert "do not fit" in proc.stderr
    assert "none for this deal" in proc.stdout


def test_bury_values_are_each_pairs_own(played_lzf: tuple[Path, Path]) -> None:
    """Every pair a soloist could bury is valued by solving the deal with that bury."""
    log, path = played_lzf
    with Solver() as solver:
        for number, (record, analysis) in enumerate(_analyses(log, path)[:12]):
            for d in analysis.decisions:
                if d.phase is not Phase.BURY:
                    continue
                rules = Rules.from_dict(record.rules)
                state = DealState(rules, record.hands, record.talon, record.dealer,
                                  record.pules_before)  # fmt: skip
                for move in record.moves[: d.move]:
                    state.apply(parse_action(move.action))
                for value in d.values[::7]:
                    after = state.copy()
                    after.apply(Bury.parse(value.action))
                    band = solver.values(f"x{number}", after)[0]
                    want = band_scores(rules, Contract.TAKE, d.seat, state.pules, band)[d.seat]
                    assert value.value == want
                return
    pytest.fail("no bury in the lzf match")


def test_a_tournament_of_the_bundled_bots_is_ordered_by_loss_as_by_rating(
    tmp_path: Path,
) -> None:
    """Four bundled bots in a duplicate round robin: random loses the most per decision and
    is rated last, searchbot loses the least and its play loses little; wherever the ratings
    separate two bots (intervals apart), the losses order them the same way."""
    log = tmp_path / "t.jsonl"
    ok(zole("tournament", "searchbot", "rulebot", "cbot", "random", "--blocks", "3",
            "--movetime", "150", "--no-sandbox", "--seed", "4", "--log", str(log),
            cwd=tmp_path, timeout=600))  # fmt: skip
    data = json.loads(ok(zole("analyze", str(log), "--json", cwd=tmp_path)).stdout)
    loss = {b["name"]: b for b in data["bots"]}
    ratings = json.loads(ok(zole("ratings", str(log), "--json", cwd=tmp_path)).stdout)["ratings"]
    elo = {r["name"]: r for r in ratings}
    by_loss = sorted(loss, key=lambda name: loss[name]["per_decision"]["mean"])
    by_elo = sorted(elo, key=lambda name: -elo[name]["elo"])
    assert by_loss[0] == "searchbot" and by_loss[-1] == "random", by_loss
    assert by_elo[-1] == "random", by_elo
    play = {name: b["by_phase"]["play"]["mean"] for name, b in loss.items()}
    assert play["searchbot"] == min(play.values()) and play["searchbot"] < 0.35, play
    for a in elo:
        for b in elo:
            if elo[a]["low"] > elo[b]["high"]:  # a rated clearly above b
                assert loss[a]["per_decision"]["mean"] < loss[b]["per_decision"]["mean"], (a, b)


def test_the_analysis_benchmark_prints_its_figures(tmp_path: Path) -> None:
    data = json.loads(ok(zole("bench", "--analysis", "--deals", "10", "--json",
                              cwd=tmp_path)).stdout)  # fmt: skip
    assert data["deals"] == 10 and data["one_worker_deals"] == 1
    assert data["decisions"] > 10 * 6  # every deal has its bids and cards
    assert data["seconds"] > 0 and data["ms_per_deal"] == pytest.approx(100 * data["seconds"])
    assert data["minutes_for_10000"] == pytest.approx(data["ms_per_deal"] / 6)
    one_line_error(zole("bench", "--analysis", "--deals", "3", cwd=tmp_path), "at least 10")
    one_line_error(zole("bench", "--analysis", "--report", cwd=tmp_path), "give one of")


def test_crafted_analyses_that_do_not_match_the_deal_do_not_fit(
    played: tuple[Path, Path],
) -> None:
    """A reader takes from an analysis file only the values: which decisions there are (no
    forced card, no move the arena made, none twice, none left out), their phase, role and
    legal actions, and the rules' swing must be the deal's own."""
    log, path = played
    record, analysis = next((r, a) for r, a in _analyses(log, path) if len(a.decisions) > 5)
    assert analysis_fits(analysis, record)
    d = analysis.decisions
    forged = [
        dataclasses.replace(analysis, decisions=d[:2] + d[3:]),  # one left out
        dataclasses.replace(analysis, decisions=(d[0], *d)),  # one twice
        dataclasses.replace(analysis, swing=1),
        dataclasses.replace(
            analysis, decisions=(dataclasses.replace(d[-1], phase=Phase.BID), *d[:-1])
        ),
        dataclasses.replace(
            analysis,
            decisions=(
                *d[:-1],
                dataclasses.replace(
                    d[-1], role=Role.SOLOIST if d[-1].role is not Role.SOLOIST else Role.DEFENDER
                ),
            ),
        ),
        dataclasses.replace(
            analysis,
            decisions=(
                *d[:-1],
                dataclasses.replace(d[-1], values=(*d[-1].values, d[-1].values[0])),
            ),
        ),
    ]
    for bad in forged:
        assert not analysis_fits(bad, record)
    # a forced move, or one the arena made, is no decision
    moves = list(record.moves)
    by_move = {x.move for x in d}
    forced = next(i for i in range(len(moves)) if i not in by_move)
    extra = dataclasses.replace(d[-1], move=forced, seat=moves[forced].seat)
    assert not analysis_fits(dataclasses.replace(analysis, decisions=(*d, extra)), record)
    arena = dataclasses.replace(
        record,
        moves=tuple(
            m._replace(request_id=None) if i == d[0].move else m for i, m in enumerate(moves)
        ),
    )
    assert not analysis_fits(analysis, arena)


def test_a_deal_with_an_illegal_move_is_analysed_up_to_it(played: tuple[Path, Path]) -> None:
    log, _ = played
    record = next(r for r, _ in log_deals([log])[0] if len(r.moves) > 10)
    moves = list(record.moves)
    last = moves[-1]
    moves[-2] = moves[-2]._replace(action=last.action)  # a card its seat does not hold
    crafted = dataclasses.replace(record, moves=tuple(moves))
    with Solver() as solver:
        analysis = analyse_deal(crafted, "1" * 64, solver, "illegal")
    assert not analysis.complete and "not a legal action" in analysis.note
    assert all(x.move < len(moves) - 2 for x in analysis.decisions)


def test_replay_shows_a_crafted_note_as_text(played: tuple[Path, Path], tmp_path: Path) -> None:
    log, path = played
    line = json.loads(path.read_text().splitlines()[0])
    line["complete"] = False
    line["note"] = "\x1b]8;;http://x\x07click\x1b]8;;\x07 \x1b[2J \u202e"
    line.pop("mac", None)
    crafted = tmp_path / "note.jsonl"
    crafted.write_text(json.dumps(line) + "\n")
    proc = ok(zole("replay", str(log), "--deal", str(line["deal"]), "--analysis-file",
                   str(crafted), cwd=tmp_path))  # fmt: skip
    assert "\x1b" not in proc.stdout and "\u202e" not in proc.stdout
    assert "click" in proc.stdout


def test_json_of_a_single_deal_has_no_nan(played: tuple[Path, Path], tmp_path: Path) -> None:
    log, _ = played
    one = tmp_path / "one.jsonl"
    lines = log.read_text().splitlines()
    one.write_text("\n".join(lines[:2]) + "\n")
    proc = ok(zole("analyze", str(one), "--json", cwd=tmp_path))
    assert "NaN" not in proc.stdout
    data = json.loads(proc.stdout)
    assert data["bots"][0]["per_decision"]["low"] is None
