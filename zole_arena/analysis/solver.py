"""The open-card solver: searchbot's exact search, built as a program of its own.

``bots/c/searchbot.c`` built with ``-DSEARCHBOT_SOLVER`` is no bot but a line-mode solver (its
comment above ``solve_request`` is the request format). :class:`Solver` runs one such process
and asks it for the values of positions of a :class:`~zole_arena.game.state.DealState`; the
request text is made here and nowhere else.

What it returns is what the search computes, in the solver's own units:

* take and zole: the soloist's **band** (0 all tricks, 1 more than 90, 2 a win, 3 a loss,
  4 thirty or less, 5 no trick) with both sides playing best;
* small zole: 0 when the soloist can avoid every trick (he wins), 1 when the defenders can
  force one on him;
* the table game: the **paranoid** outcome for one seat (the two others play against it), in
  table payments: −2 sole loser, −1 loser with one other, 0 all tied, +1, +2; or only
  whether it reaches a given outcome (:meth:`Solver.table_at_least`).

:mod:`zole_arena.analysis.values` turns these into each seat's score for the deal.
"""

from __future__ import annotations

import contextlib
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Final

from zole_arena.catalogue.bundled import build_c_program, c_source
from zole_arena.errors import ZoleError
from zole_arena.game.actions import Contract
from zole_arena.game.cards import points_of
from zole_arena.game.rules import TableLoser
from zole_arena.game.state import DealState
from zole_arena.game.values import Phase

__all__ = ["Solver", "SolverError", "solver_program"]

#: The request's kind letter for each contract with cards played.
_KIND: Final = {
    Contract.TAKE: "P",
    Contract.ZOLE: "P",
    Contract.SMALL_ZOLE: "S",
    Contract.TABLE: "T",
}


#: Answers a solver remembers (each some 200 bytes).
MEMO_SIZE: Final = 200_000


class SolverError(ZoleError):
    """The solver could not be built, died, or refused a request."""


def solver_program() -> Path:
    """The solver's executable, built into the cache on first use."""
    return build_c_program(c_source("searchbot"), "zolesolver", ("SEARCHBOT_SOLVER",))


def _cards(cards: Sequence[int]) -> str:
    return ",".join(str(int(c)) for c in cards) if cards else "-"


class Solver:
    """One solver process; use it as a context manager, or call :meth:`close`.

    Not thread-safe: one request at a time (a process per worker when analysing in parallel).
    """

    def __init__(self, program: Path | None = None) -> None:
        path = program if program is not None else solver_program()
        try:
            self._proc = subprocess.Popen(
                [str(path)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                bufsize=1,
            )
        except OSError as exc:
            raise SolverError(f"cannot start the solver {path}: {exc.strerror}") from None
        self._stdin: IO[str] = self._proc.stdin  # type: ignore[assignment]
        self._stdout: IO[str] = self._proc.stdout  # type: ignore[assignment]
        self.requests = 0
        """How many requests this process has answered."""
        self._memo: dict[str, tuple[int, ...]] = {}

    def __enter__(self) -> Solver:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """End the process (it exits at the end of its input)."""
        if self._proc.poll() is None:
            with contextlib.suppress(OSError):
                self._stdin.close()
            try:
                self._proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()
        self._stdout.close()

    def forget(self) -> None:
        """Drop the answers remembered so far (see :meth:`ask`)."""
        self._memo.clear()

    def ask(self, line: str) -> tuple[int, ...]:
        """Send one request line; the numbers of its answer.

        Answers are remembered by the request without its context word (which only names
        the solver's tables, never changes an answer): the same position asked again — the
        same cards dealt at another table of a duplicate event — is not solved again. At most
        :data:`MEMO_SIZE` answers are kept.
        """
        key = line.partition(" ")[2]
        known = self._memo.get(key)
        if known is not None:
            return known
        answer = self._ask(line)
        if len(self._memo) >= MEMO_SIZE:
            self._memo.clear()
        self._memo[key] = answer
        return answer

    def _ask(self, line: str) -> tuple[int, ...]:
        try:
            self._stdin.write(line + "\n")
            self._stdin.flush()
            answer = self._stdout.readline()
        except OSError as exc:
            raise SolverError(f"the solver stopped: {exc.strerror}") from None
        self.requests += 1
        if not answer.startswith("="):
            code = self._proc.poll()
            why = answer.strip()[1:].strip() if answer else f"it exited with code {code}"
            raise SolverError(f"the solver refused a request: {why}")
        return tuple(int(word) for word in answer[1:].split())

    def values(
        self,
        context: str,
        state: DealState,
        cards: Sequence[int] = (),
        *,
        seat: int | None = None,
    ) -> tuple[int, ...]:
        """The solver's value of each card in ``cards`` as the next card of the seat to move,
        or (``cards`` empty) of the position as it stands, in the units of the module's
        docstring. ``state`` must be in play (after bidding and any bury).

        ``context`` names who holds what: the solver keeps its tables while it stays the same,
        so it must change whenever the deal, the soloist or the contract's hands change (the
        table game's seat to value may change within one context). For the table game the
        value is ``seat``'s (by default the seat to move's).
        """
        return self.ask(self._request(context, state, cards, seat))

    def table_at_least(self, context: str, state: DealState, seat: int, outcome: int) -> bool:
        """Whether ``seat``'s table-game value of ``state`` (see :meth:`values`) is at least
        ``outcome`` payments: one search where the exact value takes two or three, for a
        caller that only compares the table game with a contract. ``state`` is a table game
        in play."""
        if outcome <= -2:
            return True
        if outcome > 2:
            return False
        line = self._request(context, state, (), seat, table_test=outcome)
        return self.ask(line)[0] == 1

    def best_bury(self, context: str, state: DealState) -> int:
        """The best band a take's soloist reaches over every pair he may bury: ``state`` is
        the take before its bury (the soloist holds ten cards)."""
        return self.ask(self._request(context, state, (), None))[0]

    def bury_bands(self, context: str, state: DealState) -> tuple[int, ...]:
        """The band of a take for each pair its soloist may bury, in the order of
        :class:`~zole_arena.game.actions.BuryChoices`: ``state`` as for :meth:`best_bury`."""
        return self.ask(self._request(context, state, (), None, "A"))

    @staticmethod
    def _request(
        context: str,
        state: DealState,
        cards: Sequence[int],
        seat: int | None,
        bury_kind: str = "B",
        table_test: int | None = None,
    ) -> str:
        """The request line for a position of ``state`` (the solver's format)."""
        contract = state.contract
        if contract is None or contract not in _KIND:
            raise SolverError(f"no cards are played in a {contract} deal")
        burying = state.phase is Phase.BURYING
        soloist = state.soloist
        tricks = state.tricks_won
        points = state.points_won
        done = len(state.trick_log())
        if soloist is not None:
            seat = soloist
            base = points[soloist] + (points_of(state.buried) if contract is Contract.TAKE else 0)
            every = int(tricks[soloist] == done)
            none = int(tricks[soloist] == 0)
        elif seat is None:
            seat = state.turn if state.turn is not None else 0
            base, every, none = 0, 0, 0
        else:
            base, every, none = 0, 0, 0
        kind = bury_kind if burying else _KIND[contract]
        if table_test is not None:  # the test's threshold rides in the base field
            kind, base = "G", table_test + 2
        by_points = int(state.rules.table_loser is TableLoser.POINTS)
        fields = (
            context,
            kind,
            seat,
            state.trick_leader,
            *(f"{state.hand_mask(s):x}" for s in range(3)),
            _cards(state.current_trick_cards()),
            min(base, 120),
            every,
            none,
            *tricks,
            *points,
            by_points,
            _cards(cards),
        )
        return " ".join(str(f) for f in fields)
