"""The fair-play screen: card choices that depend on cards the bot could not see.

Chess sites screen games for engine use by how often a player finds the engine's move; a
hidden-card game allows a sharper question, the one ``docs/fairplay.md`` explains: **is the
card a bot chose optimal in the true deal more often than in deals it could not tell from the
true one?** At each screened decision (:class:`Screening`: a bot's own card in tricks 2–7,
leads in trick 2 only, with more than one legal card) the open-card solver of ``analyze``
gives the cards that are best for the mover in the true deal (the mover's score: a
soloist's, a defender's, the table game's paranoid value for the seat) and in ``samples``
deals drawn from what the bot saw (:mod:`~zole_arena.analysis.fairplay_sample`); the
decision's **excess**

    x = 1[choice best in the true deal] − mean over the samples of 1[choice best in it]

averages about zero for a bot that knows only what it may (the true deal is then one more draw
from the same deals), and above zero for one that knows the hidden cards. A decision at which
every deal, true and drawn, values every legal card alike has x = 0 whatever the bot knows and
is left out (which keeps the sum's expectation).

:func:`screen_logs` does it for every deal of the logs, on every core, with each log's results
cached in ``LOG.fairplay.jsonl`` beside it (marked with the user's analysis key, like
``analyze``'s file: a line made elsewhere is screened again). The statistics per bot, per
repeat and per pair are :mod:`~zole_arena.analysis.fairplay_stats`'.
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import json
import multiprocessing
import os
import random
import signal
from collections.abc import Callable, Collection, Iterator, Sequence
from pathlib import Path
from typing import Any, Final

from zole_arena.analysis.bids import own_contract_values
from zole_arena.analysis.fairplay_sample import BidModel, draw_deals, sampled_state, view_of
from zole_arena.analysis.outcomes import band_scores, table_score
from zole_arena.analysis.run import log_deals, solver_id
from zole_arena.analysis.solver import Solver, SolverError, solver_program
from zole_arena.analysis.store import AnalysisFileError, append_lines, local_key, made_here
from zole_arena.errors import ZoleError
from zole_arena.game.actions import Bid, Contract, parse_action
from zole_arena.game.cards import cards_of
from zole_arena.game.rules import Rules
from zole_arena.game.state import DealState
from zole_arena.game.values import Phase
from zole_arena.records.model import DealRecord
from zole_arena.records.reader import RecordError

__all__ = [
    "DealScreen",
    "FairplayError",
    "ScreenRun",
    "ScreenedDecision",
    "Screening",
    "fairplay_path",
    "screen_deal",
    "screen_logs",
]

#: Version of the screen's method and cache lines: lines of another version are screened again.
FAIRPLAY_VERSION: Final = 3
#: Most deals screened in one run (a log beyond it is refused, not half-read).
MAX_DEALS: Final = 200_000
#: Longest cache line read (a deal has at most some 20 screened decisions).
MAX_LINE: Final = 1 << 16


class FairplayError(ZoleError):
    """Logs that cannot be screened (none of their decisions qualifies, too many deals)."""


@dataclasses.dataclass(frozen=True, slots=True)
class Screening:
    """Which decisions are screened and how many deals are drawn for each.

    Tricks 2–7 by default. In the first trick a card decides least of a deal still to be
    played, and its excess spreads most while a clairvoyant bot's is smallest (the ceiling
    bot: +0.03 there, +0.07 to +0.08 in tricks 2–6): leaving it out raised the 30%-told bot's
    z from +1.2 to +2.4 (mean of 8 logs) and the honest bots' spread not at all
    (``docs/fairplay.md``). In the last trick every card is forced. Eight samples keep the
    noise of their mean small beside the true deal's indicator's own.
    """

    samples: int = 8
    first_trick: int = 2
    last_trick: int = 7
    last_lead: int = 2
    """Leads are screened up to this trick only: from the third trick on, honest bots lead
    by reading the play in ways the drawn deals do not (rulebot's leads there: +0.03 excess,
    its follows +0.002), while a clairvoyant bot gains as much following as leading."""
    bids: bool = True
    """Whether bids are screened too: is the bid best for its bidder's own contract (solved
    with open cards) in the true deal more often than in the drawn deals? A bot told the
    hands only for its bids kept 87% of a clairvoyant bot's gain (red team 10)."""
    bid_samples: int = 4
    """Deals drawn for each bid: a take is valued with its best bury, eleven times a card's
    search, and a bid's excess is large where there is one (a bid cheater: +0.29)."""

    def key(self) -> str:
        """The parameters as a cache line keeps them."""
        bids = f"b{self.bid_samples}" if self.bids else ""
        return f"k{self.samples}t{self.first_trick}-{self.last_trick}l{self.last_lead}{bids}"


@dataclasses.dataclass(frozen=True, slots=True)
class ScreenedDecision:
    """One screened card decision of a deal."""

    move: int
    """Its index in the deal record's ``moves``."""
    seat: int
    best_in_truth: bool
    """Whether the card played is among the best in the true deal."""
    best_in_samples: int
    """In how many of the drawn deals it is among the best."""
    samples: int
    """How many deals were drawn."""
    legal: int = 0
    """How many cards were legal."""
    best_in_truth_count: int = 0
    """How many legal cards are best in the true deal."""
    best_in_samples_count: int = 0
    """How many legal cards are best, summed over the drawn deals."""
    hits_mask: int = 0
    """Bit k set: the card played is among the best in drawn deal k."""
    bid: bool = False
    """A bid, not a card: "best" is then best for the bidder's own contract
    (:func:`~zole_arena.analysis.bids.own_contract_values`), and legal counts bids."""

    @property
    def excess(self) -> float:
        """x: best in truth (1 or 0) minus the share of drawn deals where it is best.

        The counts of best legal cards are kept beside it because a variant that subtracts what
        a card taken at random gains (best in truth / legal minus the same in the drawn deals)
        was measured and lost power: honest bots' spread grew more than a clairvoyant's mean
        (``docs/fairplay.md``)."""
        return float(self.best_in_truth) - self.best_in_samples / self.samples


@dataclasses.dataclass(frozen=True, slots=True)
class DealScreen:
    """The screened decisions of one deal record, keyed by the SHA-256 of its log line."""

    deal_sha256: str
    decisions: tuple[ScreenedDecision, ...]


def fairplay_path(log: Path) -> Path:
    """Where the screen of ``log`` is cached: ``LOG.fairplay.jsonl`` beside it."""
    return log.with_name(log.name + ".fairplay.jsonl")


# -- one deal -------------------------------------------------------------------------------


def _best(
    state: DealState, solver: Solver, context: str, seat: int, legal: Sequence[int]
) -> frozenset[int]:
    """The cards of ``legal`` best for ``seat`` to play now in ``state`` (all cards seen)."""
    raw = solver.values(context, state, legal)
    contract: Contract = state.contract  # type: ignore[assignment]
    if contract is Contract.TABLE:
        scores = [table_score(state.rules, v) for v in raw]
    else:
        soloist: int = state.soloist  # type: ignore[assignment]
        scores = [band_scores(state.rules, contract, soloist, state.pules, v)[seat] for v in raw]
    top = max(scores)
    return frozenset(c for c, s in zip(legal, scores, strict=True) if s == top)


def screen_deal(
    record: DealRecord,
    sha256: str,
    model: BidModel,
    solver: Solver,
    context: str,
    screening: Screening = Screening(),
) -> DealScreen:
    """The screened decisions of ``record``: each move of a bot (not the arena's) that plays a
    card in the screened tricks with more than one legal card. The record is followed through
    the rules engine and stops being screened at its first move the engine refuses. The deals
    drawn are the same on every run (their seed is the line's hash).

    :raises SolverError: the solver failed.
    """
    try:
        rules = Rules.from_dict(record.rules)
        state = DealState(rules, record.hands, record.talon, record.dealer, record.pules_before)
    except (KeyError, TypeError, ValueError, ZoleError):
        return DealScreen(sha256, ())
    rng = random.Random(f"fairplay:2:{sha256}")  # the cards' draws as version 2 drew them
    bid_rng = random.Random(f"fairplay-bids:{sha256}")  # apart: bids change no card's draws
    found: list[ScreenedDecision] = []
    for index, move in enumerate(record.moves):
        if state.turn != move.seat:
            break
        try:
            action = parse_action(move.action)
        except ZoleError:
            break
        if action not in state.legal_actions():
            break
        decision = None
        if move.request_id is None:
            pass  # the arena's move (a forfeit's), not the bot's
        elif state.phase is Phase.BIDDING and screening.bids and isinstance(action, Bid):
            decision = _screen_bid(
                state,
                solver,
                f"{context}.{index}",
                index,
                action,
                model,
                bid_rng,
                screening.bid_samples,
            )
        elif _screened(state, screening):
            card = int(action)  # type: ignore[arg-type]  # in play: a card
            decision = _screen_move(
                state, solver, f"{context}.{index}", index, card, model, rng, screening.samples
            )
        if decision is not None:
            found.append(decision)
        try:
            state.apply(action)
        except ZoleError:
            break
    return DealScreen(sha256, tuple(found))


def _screened(state: DealState, screening: Screening) -> bool:
    if state.phase is not Phase.PLAYING or state.contract not in _CONTRACTS:
        return False
    trick = len(state.trick_log()) + 1
    if not screening.first_trick <= trick <= screening.last_trick:
        return False
    if not state.current_trick_cards() and trick > screening.last_lead:
        return False
    return state.legal_cards_mask().bit_count() >= 2


_CONTRACTS: Final = frozenset({Contract.TAKE, Contract.ZOLE, Contract.SMALL_ZOLE, Contract.TABLE})


def _screen_move(
    state: DealState,
    solver: Solver,
    context: str,
    index: int,
    card: int,
    model: BidModel,
    rng: random.Random,
    samples: int,
) -> ScreenedDecision | None:
    """The decision of the seat to move in ``state`` to play ``card`` (None: nothing to tell,
    every deal valuing every legal card alike, or no deal consistent with what it saw)."""
    seat: int = state.turn  # type: ignore[assignment]
    legal = [int(c) for c in cards_of(state.legal_cards_mask())]

    def best(position: DealState, where: str) -> Collection[object]:
        return _best(position, solver, where, seat, legal)

    return _judge(state, context, index, card, len(legal), best, model, rng, samples)


def _screen_bid(
    state: DealState,
    solver: Solver,
    context: str,
    index: int,
    bid: Bid,
    model: BidModel,
    rng: random.Random,
    samples: int,
) -> ScreenedDecision | None:
    """The decision of the seat to bid in ``state`` to say ``bid``, by the values of its own
    contracts (None: every deal values every bid alike, or no deal is consistent)."""
    legal = state.rules.bids

    def best(position: DealState, where: str) -> Collection[object]:
        values = own_contract_values(position, solver, where)
        top = max(values.values())
        return [b for b in legal if values[b] == top]

    return _judge(state, context, index, bid, len(legal), best, model, rng, samples, bid=True)


def _judge(
    state: DealState,
    context: str,
    index: int,
    chosen: object,
    legal: int,
    best: Callable[[DealState, str], Collection[object]],
    model: BidModel,
    rng: random.Random,
    samples: int,
    *,
    bid: bool = False,
) -> ScreenedDecision | None:
    """The decision to say ``chosen`` (a card or a bid, one of ``legal`` choices) judged by
    ``best`` (the choices best in a position, all cards seen) in the true deal and in
    ``samples`` deals drawn from what the mover saw. None: every deal values every choice
    alike, or fewer deals than ``samples`` are consistent with what it saw."""
    seat: int = state.turn  # type: ignore[assignment]
    view = view_of(state, seat)
    drawn = draw_deals(state, view, model, samples, rng)
    states = [s for s in (sampled_state(state, view, d) for d in drawn) if s is not None]
    if len(states) < samples:
        return None
    telling = False
    hits = 0
    mask = 0
    sizes = 0
    for k, sample in enumerate(states):
        top = best(sample, f"{context}.{k}")
        if chosen in top:
            hits += 1
            mask |= 1 << k
        sizes += len(top)
        telling = telling or len(top) < legal
    truth = best(state, f"{context}.t")
    telling = telling or len(truth) < legal
    if not telling:
        return None
    return ScreenedDecision(
        index, seat, chosen in truth, hits, samples, legal, len(truth), sizes, mask, bid=bid
    )


# -- the cache --------------------------------------------------------------------------------


def _params(solver: str, screening: Screening, model: BidModel) -> str:
    return f"{solver}/{screening.key()}/{model.digest()}"


def _to_line(deal: DealScreen, params: str, key: bytes) -> str:
    data = {
        "type": "fairplay",
        "version": FAIRPLAY_VERSION,
        "params": params,
        "deal_sha256": deal.deal_sha256,
        "decisions": [
            [
                d.move,
                d.seat,
                int(d.best_in_truth),
                d.best_in_samples,
                d.samples,
                d.legal,
                d.best_in_truth_count,
                d.best_in_samples_count,
                d.hits_mask,
            ]
            for d in deal.decisions
        ],
    }
    text = json.dumps(data, separators=(",", ":"))
    mac = hmac.new(key, text.encode(), hashlib.sha256).hexdigest()  # as store.made_here reads
    return f'{text[:-1]},"mac":"{mac}"}}'


def _decision_of(item: Any, record: DealRecord) -> ScreenedDecision:
    if not isinstance(item, list) or len(item) != 9 or not all(type(v) is int for v in item):
        raise ValueError("not a decision")
    move, seat, truth, hits, samples, legal, truth_count, sample_count, mask = item
    if not 0 <= move < len(record.moves) or record.moves[move].seat != seat:
        raise ValueError("not a move of that seat")
    if truth not in (0, 1) or not 1 <= samples <= 1000 or not 0 <= hits <= samples:
        raise ValueError("counts out of range")
    if not 2 <= legal <= 8 or not max(1, truth) <= truth_count <= legal:
        raise ValueError("counts out of range")
    if not 0 <= mask < 1 << samples or mask.bit_count() != hits:
        raise ValueError("counts out of range")
    if not max(samples, hits) <= sample_count <= legal * samples:
        raise ValueError("counts out of range")
    try:
        bid = isinstance(parse_action(record.moves[move].action), Bid)
    except ZoleError:
        raise ValueError("not a move of the deal") from None
    return ScreenedDecision(
        move, seat, bool(truth), hits, samples, legal, truth_count, sample_count, mask, bid
    )


def _read_cache(
    path: Path, params: str, key: bytes, records: dict[str, DealRecord]
) -> tuple[dict[str, DealScreen], bool]:
    """The deals of the cache file at ``path`` made here with ``params`` and fitting a record
    of the log, and whether the file ends with a whole line."""
    known: dict[str, DealScreen] = {}
    ends_cleanly = True
    try:
        with open(path, "rb") as handle:
            while raw := handle.readline(MAX_LINE + 1):
                ends_cleanly = raw.endswith(b"\n")
                if not ends_cleanly:
                    if len(raw) > MAX_LINE:  # skip to the line's end
                        while raw and not raw.endswith(b"\n"):
                            raw = handle.readline(MAX_LINE + 1)
                        ends_cleanly = True
                    continue
                line = raw[:-1]
                if not made_here(line, key):
                    continue
                try:
                    data = json.loads(line)
                    if (
                        not isinstance(data, dict)
                        or data.get("type") != "fairplay"
                        or data.get("version") != FAIRPLAY_VERSION
                        or data.get("params") != params
                    ):
                        continue
                    sha = data.get("deal_sha256")
                    if not isinstance(sha, str):
                        continue
                    record = records.get(sha)
                    items = data.get("decisions")
                    if record is None or not isinstance(items, list) or len(items) > 64:
                        continue
                    decisions = tuple(_decision_of(item, record) for item in items)
                except (ValueError, RecursionError):
                    continue
                known[sha] = DealScreen(sha, decisions)
    except OSError as exc:
        raise AnalysisFileError(f"{path}: {exc.strerror}") from None
    return known, ends_cleanly


# -- logs on every core -----------------------------------------------------------------------


@dataclasses.dataclass(frozen=True, slots=True)
class LoggedDeal:
    """A deal of the logs, in the logs' order, with its screen."""

    record: DealRecord
    screen: DealScreen


@dataclasses.dataclass
class ScreenRun:
    """What :func:`screen_logs` did."""

    deals: list[LoggedDeal]
    """Every deal of the logs in their order (a log given twice counted once)."""
    solved: int
    """Deals screened now (the others came from the cache files)."""
    skipped_lines: int
    """Log lines that were no usable record."""
    unscreened: int = 0
    """Deals of the logs neither in a cache file nor screened now (a run that did not solve)."""


_worker_solver: Solver | None = None


def _start_worker(program: str) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's (it stops the pool)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
    global _worker_solver
    _worker_solver = Solver(Path(program))


Item = tuple[int, DealRecord, str, BidModel, Screening]


def _work(group: list[Item]) -> list[DealScreen]:
    assert _worker_solver is not None
    return _screen_group(_worker_solver, group, f"f{os.getpid()}.")


def _screen_group(solver: Solver, group: list[Item], prefix: str) -> list[DealScreen]:
    try:
        return [
            screen_deal(record, sha, model, solver, f"{prefix}{n}", screening)
            for n, record, sha, model, screening in group
        ]
    finally:
        solver.forget()


def _groups(todo: list[Item], count: int) -> list[list[Item]]:
    """The deals in groups of a few, so that the workers share the work evenly and the
    progress moves: a deal is some 20 to 200 solves."""
    size = max(1, min(8, len(todo) // (count * 8) or 1))
    return [todo[i : i + size] for i in range(0, len(todo), size)]


def _solve(todo: list[Item], program: str, count: int) -> Iterator[DealScreen]:
    if count == 1:
        with Solver(Path(program)) as solver:
            for group in _groups(todo, 1):
                yield from _screen_group(solver, group, "f")
        return
    context = multiprocessing.get_context("fork" if os.name == "posix" else "spawn")
    with context.Pool(count, initializer=_start_worker, initargs=(program,)) as pool:
        for done in pool.imap_unordered(_work, _groups(todo, count)):
            yield from done


def screen_logs(
    paths: Sequence[Path],
    screening: Screening = Screening(),
    workers: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    *,
    solve: bool = True,
) -> ScreenRun:
    """Screen every deal of ``paths`` (each log's screen cached beside it; each log's bids
    modelled from its own deals), in the logs' order. With ``solve`` false only the cache
    files are read (no solver is started, nothing is written): the run holds the deals that
    a ``fairplay`` command screened before, as the report shows them.

    :raises RecordError: a log cannot be read.
    :raises FairplayError: too many deals.
    :raises AnalysisFileError: a cache file cannot be read or written.
    :raises SolverError: the solver cannot be built or failed.
    """
    solver = solver_id()
    key = local_key()
    jobs: list[tuple[Path, list[tuple[DealRecord, str]], str, BidModel]] = []
    seen: set[tuple[str, int]] = set()
    skipped = 0
    total = 0
    for path in paths:
        deals, bad = log_deals([path])
        skipped += bad
        fresh = []
        for record, sha in deals:
            if (record.match_id, record.deal) in seen:
                skipped += 1
                continue
            seen.add((record.match_id, record.deal))
            fresh.append((record, sha))
        total += len(fresh)
        if total > MAX_DEALS:
            raise FairplayError(f"more than {MAX_DEALS:,} deals: screen fewer logs at a time")
        model = BidModel.estimate(record for record, _ in fresh)
        jobs.append((path, fresh, _params(solver, screening, model), model))
    results: dict[str, DealScreen] = {}
    todo_by_log: list[tuple[Path, list[Item], str, bool]] = []
    for path, deals, params, model in jobs:
        target = fairplay_path(path)
        by_sha = {sha: record for record, sha in deals}
        known: dict[str, DealScreen] = {}
        clean = True
        if target.is_file():
            known, clean = _read_cache(target, params, key, by_sha)
        results.update(known)
        todo = [
            (n, record, sha, model, screening)
            for n, (record, sha) in enumerate(deals)
            if sha not in known
        ]
        todo_by_log.append((target, todo, params, clean))
    done = len(results)
    if progress is not None:
        progress(done, total)
    solved = 0
    todo_all = [item for _, todo, _, _ in todo_by_log for item in todo] if solve else []
    if todo_all:
        program = str(solver_program())
        cpus = len(os.sched_getaffinity(0))
        count = max(1, min(workers or cpus, cpus, len(todo_all)))
        where = {
            item[2]: (target, params) for target, todo, params, _ in todo_by_log for item in todo
        }
        clean_of = {target: clean for target, _, _, clean in todo_by_log}
        for screen in _solve(todo_all, program, count):
            target, params = where[screen.deal_sha256]
            append_lines(target, [_to_line(screen, params, key)], clean_of[target])
            clean_of[target] = True
            results[screen.deal_sha256] = screen
            solved += 1
            done += 1
            if progress is not None:
                progress(done, total)
    ordered = [
        LoggedDeal(record, results[sha])
        for _, deals, _, _ in jobs
        for record, sha in deals
        if sha in results
    ]
    return ScreenRun(ordered, solved, skipped, total - len(ordered))


#: Errors a caller handles, named here so that the CLI need not know the layers below.
FAIRPLAY_ERRORS: Final = (RecordError, SolverError, AnalysisFileError, FairplayError)
