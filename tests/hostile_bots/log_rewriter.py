#!/usr/bin/env python3
"""Hostile bot: tries to rewrite the match's log in its own favour.

It finds the log as :func:`hostile.log_candidates` does (``--log`` in the arena's command line,
the arena's open files, its own stderr file's name) and reports ``find-log``. Then:

* ``rewrite-deal`` (at ``quit``, when every deal is logged and the arena only waits for the
  bot to exit, so nothing else writes the log): deal 1 is played again from its seed with
  moves chosen for this bot (the best of a few hundred random playouts), its record rebuilt
  with the arena's own record code, every later deal's ``totals`` re-added, and the file
  rewritten in place.
  The new record is a legal deal with a consistent result: re-playing it (``verify`` without
  a hash chain) finds nothing wrong. Without ``zole_arena`` to import it falls back to a crude
  edit of the scores (which a re-play catches).
* ``append-forged`` (at ``quit`` too, after the rewrite): a record of one more deal of the seed,
  played for this bot, totals continued, appended to the file.

Each reports SUCCEEDED once the file, read again, holds the change.
"""

from __future__ import annotations

import json
import os
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hostile

PLAYOUTS = 200

Record = dict[str, Any]


def find_log() -> Path | None:
    reasons = []
    for path in hostile.log_candidates():
        try:
            with open(path, "r+b") as handle:
                first = handle.readline()
            if json.loads(first).get("format") == "zole-arena":
                hostile.report("find-log", True, f"{path} is open for writing")
                return path
            reasons.append(f"{path}: not a zole-arena log")
        except (OSError, ValueError) as exc:
            reasons.append(f"{path}: {hostile.why(exc)}")
    hostile.report("find-log", False, "; ".join(reasons) or "no log path found")
    return None


def read_records(path: Path) -> list[Record]:
    return [json.loads(line) for line in path.read_bytes().splitlines() if line.strip()]


def write_records(path: Path, records: list[Record]) -> None:
    """Rewrite the file in place: the arena appends to it (``O_APPEND``), so its next record
    lands after these."""
    data = b"".join(
        (json.dumps(r, separators=(",", ":"), ensure_ascii=False) + "\n").encode() for r in records
    )
    with open(path, "r+b") as handle:
        handle.write(data)
        handle.truncate()


def best_deal(record: Record, me: int, deal_no: int, dealer: int, pules: Any) -> Any:
    """The finished deal (a DealState) of the seed's ``deal_no`` in which seat ``me`` gains
    the most, among random playouts of every seat."""
    from zole_arena.game.rules import Rules
    from zole_arena.game.state import DealState

    rules = Rules.from_dict(record["rules"])
    rng = random.Random(7)
    best, best_score = None, -(10**9)
    for _ in range(PLAYOUTS):
        state = DealState.from_seed(rules, record["seed"], deal_no, dealer, pules)
        while state.result is None:
            state.apply(rng.choice(list(state.legal_actions())))
        if state.result.scores[me] > best_score:
            best, best_score = state, state.result.scores[me]
    return best


def forged_record(
    template: Record, state: Any, number: int, block: int, totals: list[int]
) -> Record:
    """A deal record of ``state`` as the arena writes one (its own code)."""
    from zole_arena.game.actions import Bury
    from zole_arena.records.model import DealRecord, Identity, Move
    from zole_arena.records.writer import to_json

    moves = []
    for index, (seat, action) in enumerate(state.history, start=1):
        wire = f"{action.cards[0]} {action.cards[1]}" if isinstance(action, Bury) else str(action)
        moves.append(Move(seat, wire, number * 100 + index, 0.05))
    a, b, c = (
        Identity(p["name"], p.get("version", ""), tuple(p.get("command", ())))
        for p in template["players"]
    )
    record = DealRecord.of_deal(
        match_id=template["match_id"],
        number=number,
        block=block,
        seating=tuple(template["seating"]),
        rules=template["rules"],
        seed=template["seed"],
        state=state,
        result=state.result,
        moves=moves,
        faults=[],
        players=(a, b, c),
        totals=totals,
    )
    return to_json(record)


def readd_totals(records: list[Record], match_id: str) -> None:
    running: dict[tuple[int, ...], list[int]] = {}
    for record in records:
        if record.get("type") == "deal" and record.get("match_id") == match_id:
            sheet = running.setdefault(tuple(record["seating"]), [0, 0, 0])
            for seat in range(3):
                sheet[seat] += record["result"]["scores"][seat]
            record["totals"] = list(sheet)


class Rewriter:
    def __init__(self) -> None:
        self.deal = 0
        self.seat = -1
        self.first_seat: int | None = None

    def on_line(self, words: list[str]) -> None:
        if words[0] == "newdeal":
            fields = hostile.fields_of(words)
            self.deal = int(fields.get("deal", "0"))
            self.seat = int(fields.get("seat", "-1"))
            if self.deal == 1:
                self.first_seat = self.seat

    def rewrite_deal(self) -> None:
        path = find_log()
        if path is None:
            hostile.report("rewrite-deal", False, "no log found")
            return
        records = read_records(path)
        deals = [r for r in records if r.get("type") == "deal"]
        if not deals:
            hostile.report("rewrite-deal", False, f"{path} holds no deal yet")
            return
        old = json.loads(json.dumps(deals[0]))
        me = self.first_seat if self.first_seat is not None else 0
        before = old["result"]["scores"][me]
        try:
            from zole_arena.game.scoring import Pules
        except ImportError as exc:
            hostile.note(f"zole_arena not importable ({hostile.why(exc)}): a crude edit")
            deals[0]["result"]["scores"] = [-2 * before if s == me else before
                                            for s in range(3)]  # fmt: skip
            how = "crude score edit"
        else:
            pules = old["pules_before"]
            state = best_deal(
                old, me, old["deal_no"], old["dealer"],
                Pules(pules["common"], tuple(pules["personal"])),
            )  # fmt: skip
            new = forged_record(old, state, old["deal"], old["block"], old["totals"])
            new["finished"] = old["finished"]
            records[records.index(deals[0])] = new
            how = "deal re-played for this bot"
        readd_totals(records, old["match_id"])
        write_records(path, records)
        again = next(r for r in read_records(path) if r.get("type") == "deal")
        after = again["result"]["scores"][me]
        changed = again["moves"] != old["moves"] or after != before
        hostile.report(
            "rewrite-deal",
            changed,
            f"deal {old['deal']} in {path}: seat {me} {before:+d} -> {after:+d} ({how}, "
            "totals re-added)",
        )

    def on_eof(self) -> None:
        for attack, attempt in (("rewrite-deal", self.rewrite_deal),
                                ("append-forged", self.append_forged)):  # fmt: skip
            try:
                attempt()
            except Exception as exc:
                hostile.report(attack, False, hostile.why(exc))

    def append_forged(self) -> None:
        path = find_log()
        if path is None:
            hostile.report("append-forged", False, "no log found")
            return
        from zole_arena.game.scoring import Pules
        from zole_arena.game.state import dealer_of

        deals = [r for r in read_records(path) if r.get("type") == "deal"]
        if not deals:
            hostile.report("append-forged", False, f"{path} holds no deal")
            return
        last = deals[-1]
        me = self.first_seat if self.first_seat is not None else 0
        deal_no = last["deal_no"] + 1
        pules = last["result"]["pules"]
        state = best_deal(
            last, me, deal_no, dealer_of(deal_no), Pules(pules["common"], tuple(pules["personal"]))
        )
        totals = [t + s for t, s in zip(last["totals"], state.result.scores, strict=True)]
        record = forged_record(last, state, last["deal"] + 1, deal_no, totals)
        with open(path, "ab") as handle:
            line = json.dumps(record, separators=(",", ":"), ensure_ascii=False) + "\n"
            handle.write(line.encode())
        again = read_records(path)[-1]
        hostile.report(
            "append-forged",
            again.get("deal") == record["deal"],
            f"deal {record['deal']} appended to {path}: seat {me} {state.result.scores[me]:+d}",
        )


def main() -> None:
    hostile.parser(__doc__ or "").parse_known_args()
    bot = Rewriter()
    hostile.play("LogRewriter", on_line=bot.on_line, on_eof=bot.on_eof)


if __name__ == "__main__":
    main()
