#!/usr/bin/env python3
"""Hostile bot: tries to act for the other players through their pipes.

The other bots at the table are the processes with this bot's parent. Two attacks:

* ``predict-ids`` (deal 1, at this bot's first ``go``): request ids have been ``deal*100+n``,
  so from its own request id N it predicts the next ones and writes ``action <id> ZZ`` for
  ids N+1 ... N+30 into each sibling's output pipe (``/proc/<sib>/fd/1``), ahead of the
  requests. If the arena takes one, the sibling answered garbage and forfeits the deal: the
  ``result`` shows it (``forfeit <seat>``), and the attack reports SUCCEEDED there.
* ``steal-stdin`` (deal 2, at its first ``go``): stops a sibling (SIGSTOP, so that it cannot
  read first), reads the sibling's input through ``/proc/<sib>/fd/0`` until a ``go`` comes,
  reports what it saw (the sibling's hand), answers that request for it with ``action <id>
  ZZ`` through ``/proc/<sib>/fd/1``, and lets it go (SIGCONT). ``answer-for-sibling`` then
  reports whether the arena took the answer: the sibling forfeits deal 2.

``open-pipes`` reports whether any sibling's pipes could be opened at all.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hostile

PREDICTED = 30
STEAL_WAIT_S = 10.0


class PipeWriter:
    def __init__(self) -> None:
        self.deal = 0
        self.seat = -1
        self.attacked: set[int] = set()
        self.pending: dict[int, tuple[str, set[int]]] = {}
        """deal -> (attack, seats whose forfeit means it worked)"""
        self.stolen_seat: int | None = None
        self.thread: threading.Thread | None = None

    def on_line(self, words: list[str]) -> None:
        fields = hostile.fields_of(words)
        if words[0] == "newdeal":
            self.deal = int(fields.get("deal", "0"))
            self.seat = int(fields.get("seat", "-1"))
        elif words[0] == "result":
            deal = int(fields.get("deal", "0"))
            if deal == 2 and self.thread is not None:  # the theft may still be under way
                self.thread.join(STEAL_WAIT_S)
            if deal in self.pending:
                attack, _ = self.pending.pop(deal)
                forfeit = fields.get("forfeit", "-")
                victims = {0, 1, 2} - {self.seat}
                if attack == "answer-for-sibling" and self.stolen_seat is not None:
                    victims = {self.stolen_seat}
                if forfeit.isdigit() and int(forfeit) in victims:
                    hostile.report(
                        attack, True, f"seat {forfeit} forfeited deal {deal} on a forged answer"
                    )
                else:
                    hostile.report(
                        attack,
                        False,
                        f"deal {deal} ended with forfeit {forfeit} (this bot: seat {self.seat})",
                    )

    def on_go(self, fields: hostile.Fields) -> None:
        if self.deal in self.attacked:
            return
        self.attacked.add(self.deal)
        if self.deal == 1:
            self.predict_ids(int(fields["id"]))
        elif self.deal == 2:
            self.thread = threading.Thread(target=self.steal, daemon=True)
            self.thread.start()

    def predict_ids(self, my_id: int) -> None:
        lines = "".join(f"action {my_id + k} ZZ\n" for k in range(1, PREDICTED + 1)).encode()
        written = []
        reasons = []
        for pid in hostile.siblings():
            try:
                fd = os.open(f"/proc/{pid}/fd/1", os.O_WRONLY | os.O_NONBLOCK)
            except OSError as exc:
                reasons.append(f"{pid}: {hostile.why(exc)}")
                continue
            try:
                os.write(fd, lines)
                written.append(pid)
            except OSError as exc:
                reasons.append(f"{pid}: {hostile.why(exc)}")
            finally:
                os.close(fd)
        if written:
            hostile.report("open-pipes", True, f"wrote into the output pipes of {written}")
            hostile.note(f"predicted ids {my_id + 1}..{my_id + PREDICTED} for {written}")
            self.pending[self.deal] = ("predict-ids", set())
        else:
            why = "; ".join(reasons) or f"no sibling visible (siblings: {hostile.siblings()})"
            hostile.report("open-pipes", False, why)
            hostile.report("predict-ids", False, why)

    def steal(self) -> None:
        deal = self.deal
        victims = hostile.siblings()
        if not victims:
            hostile.report("steal-stdin", False, "no sibling visible")
            hostile.report("answer-for-sibling", False, "no sibling visible")
            return
        victim = victims[0]
        stopped = False
        try:
            try:
                source = os.open(f"/proc/{victim}/fd/0", os.O_RDONLY | os.O_NONBLOCK)
            except OSError as exc:
                hostile.report("steal-stdin", False, f"{victim}: {hostile.why(exc)}")
                hostile.report("answer-for-sibling", False, "its input could not be opened")
                return
            with contextlib.suppress(OSError):
                os.kill(victim, signal.SIGSTOP)
                stopped = hostile.wait_state(victim, "Tt")
            request = self.read_go(source)
            os.close(source)
            if request is None:
                hostile.report("steal-stdin", False, f"no request to {victim} came")
                hostile.report("answer-for-sibling", False, "nothing to answer")
                return
            fields = hostile.fields_of(request.split())
            self.stolen_seat = int(fields.get("seat", "-1"))
            hostile.report(
                "steal-stdin",
                True,
                f"read request {fields.get('id')} of pid {victim} (seat {self.stolen_seat}, "
                f"hand {fields.get('hand')})",
            )
            try:
                answer = os.open(f"/proc/{victim}/fd/1", os.O_WRONLY | os.O_NONBLOCK)
                os.write(answer, f"action {fields.get('id')} ZZ\n".encode())
                os.close(answer)
            except OSError as exc:
                hostile.report("answer-for-sibling", False, f"{victim}: {hostile.why(exc)}")
                return
            self.pending[deal] = ("answer-for-sibling", set())
        finally:
            if stopped:
                with contextlib.suppress(OSError):
                    os.kill(victim, signal.SIGCONT)

    @staticmethod
    def read_go(fd: int) -> str | None:
        """Read what is written to the stopped sibling until a whole ``go`` line came."""
        data = b""
        deadline = time.monotonic() + STEAL_WAIT_S
        while time.monotonic() < deadline:
            ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                break
            try:
                chunk = os.read(fd, 65536)
            except BlockingIOError:
                continue
            if not chunk:
                break
            data += chunk
            for line in data.decode("ascii", "replace").split("\n")[:-1]:
                if line.startswith("go "):
                    return line
        return None


def main() -> None:
    hostile.parser(__doc__ or "").parse_known_args()
    bot = PipeWriter()
    hostile.play("PipeWriter", on_go=bot.on_go, on_line=bot.on_line)


if __name__ == "__main__":
    main()
