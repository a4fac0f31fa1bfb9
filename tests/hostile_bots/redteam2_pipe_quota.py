#!/usr/bin/env python3
"""Red team 2: two colluding sandboxed bots pass a hand through the kernel's pipe quota.

The kernel counts the pipe buffer pages of each *real* user (``user_struct.pipe_bufs``), across
every namespace: all the bots of an arena are one real user outside their user namespaces
(root, under an arena run as root). Past ``/proc/sys/fs/pipe-user-pages-soft`` (16384 pages)
an unprivileged user's new pipes get two pages instead of sixteen. ``fcntl(F_SETPIPE_SZ)``
(not refused by the seccomp filter) reserves 256 pages a pipe without writing a byte, so the
*sender* can push the count over the limit and back at will, in a few microseconds; the
*receiver* makes a pipe and reads its size (``F_GETPIPE_SZ``): 64 KiB is a 0, 8 KiB a 1.

The arena tells a bot ``newdeal`` with its first request or event of the deal, so the two
ends learn of a deal at different times: each keeps a thread on the shared clock instead. The
sender sends a frame at every tick (a multiple of :data:`FRAME_S`), one bit per
:data:`SLOT_S` — a start bit, its 26 card bits, its seat and the deal number — and the
receiver reads every frame, and reports the first of each deal. Nothing waits for the other:
both play on meanwhile; each only takes its time (well within ``--movetime``) at its first
request of a deal, so that a frame or two can pass. Works for an organizer who is not root too.

    ATTACK pipe_quota SUCCEEDED deal <n> seat <s> hand <cards>   (the receiver)
    ATTACK pipe_quota FAILED <why>

Run as ``redteam2_pipe_quota.py --role send|recv``.
"""

from __future__ import annotations

import fcntl
import os
import threading
import time
from collections.abc import Iterator

from hostile import fields_of, parser, play, report, why

DECK = [r + s for s in "CSH" for r in "AKQJT9"] + [r + "D" for r in "AKQJT987"]
SEAT_BITS, DEAL_BITS = 2, 6
F_SETPIPE_SZ, F_GETPIPE_SZ = 1031, 1032
FRAME_S, SLOT_S = 0.4, 0.01
#: The smallest pipe the kernel makes for a user past the soft limit (two pages).
SMALL = 2 * 4096


def ticks() -> Iterator[float]:
    """The shared clock's ticks (both ends see the same): the next one each time, waited for."""
    while True:
        tick = (int(time.time() / FRAME_S) + 1) * FRAME_S
        wait_until(tick)
        yield tick


def wait_until(moment: float) -> None:
    while (left := moment - time.time()) > 0:
        time.sleep(min(left, 0.002))


def word(deal: int, seat: int, hand: list[str]) -> list[bool]:
    bits = [True] + [card in hand for card in DECK]
    bits += [bool(seat >> i & 1) for i in range(SEAT_BITS)]
    return bits + [bool(deal >> i & 1) for i in range(DEAL_BITS)]


WIDTH = 1 + len(DECK) + SEAT_BITS + DEAL_BITS


class Sender:
    def __init__(self) -> None:
        self.held: list[int] = []
        self.word: list[bool] | None = None
        self.waited = True
        threading.Thread(target=self.send, daemon=True).start()

    def fill(self) -> None:
        """Reserve pipe pages until a new pipe of this user is a small one."""
        size = 1 << 20
        while size >= 4096:
            r, w = os.pipe()
            self.held += [r, w]
            if fcntl.fcntl(r, F_GETPIPE_SZ) <= SMALL:
                return  # past the limit
            try:
                fcntl.fcntl(r, F_SETPIPE_SZ, size)
            except OSError:
                size //= 2

    def release(self) -> None:
        for fd in self.held:
            os.close(fd)
        self.held = []

    def send(self) -> None:
        try:
            for tick in ticks():
                bits = self.word
                for index, bit in enumerate(bits or ()):
                    wait_until(tick + index * SLOT_S)
                    if bit and not self.held:
                        self.fill()
                    elif not bit and self.held:
                        self.release()
                self.release()
        except OSError as exc:
            report("pipe_quota", False, f"sender: {why(exc)}")
            self.release()

    def on_line(self, words: list[str]) -> None:
        if words[0] == "newdeal":
            fields = fields_of(words)
            self.word = word(int(fields["deal"]), int(fields["seat"]), fields["hand"].split(","))
            self.waited = False

    def on_go(self, fields: dict[str, str]) -> None:
        if not self.waited:  # the first request of a deal: let the frames pass
            self.waited = True
            time.sleep(2.5 * FRAME_S)


class Receiver:
    def __init__(self) -> None:
        self.deal = 0
        self.told: set[int] = set()
        self.lock = threading.Lock()
        self.waited = True
        threading.Thread(target=self.receive, daemon=True).start()

    @staticmethod
    def probe() -> bool:
        r, w = os.pipe()
        try:
            return fcntl.fcntl(r, F_GETPIPE_SZ) <= SMALL
        finally:
            os.close(r)
            os.close(w)

    def receive(self) -> None:
        for tick in ticks():
            bits = []
            for index in range(WIDTH):
                wait_until(tick + (index + 0.5) * SLOT_S)
                bits.append(self.probe())
            if not bits[0]:
                continue
            hand = [card for card, bit in zip(DECK, bits[1:], strict=False) if bit]
            rest = bits[1 + len(DECK) :]
            seat = sum(1 << i for i in range(SEAT_BITS) if rest[i])
            sent = sum(1 << i for i in range(DEAL_BITS) if rest[SEAT_BITS + i])
            with self.lock:
                deal = self.deal
                if len(hand) != 8 or sent != deal % (1 << DEAL_BITS) or deal in self.told:
                    continue
                self.told.add(deal)
            report("pipe_quota", True, f"deal {deal} seat {seat} hand {','.join(hand)}")

    def on_line(self, words: list[str]) -> None:
        if words[0] == "newdeal":
            with self.lock:
                self.deal = int(fields_of(words)["deal"])
            self.waited = False

    def on_go(self, fields: dict[str, str]) -> None:
        if self.waited:
            return
        self.waited = True  # the first request of a deal: a frame of it, if one comes
        deadline = time.monotonic() + 3 * FRAME_S
        while time.monotonic() < deadline:
            with self.lock:
                if self.deal in self.told:
                    return
            time.sleep(0.005)

    def on_eof(self) -> None:
        if not self.told:
            report("pipe_quota", False, "no frame came through")


def main() -> None:
    args = parser("two bots that talk through the pipe quota")
    args.add_argument("--role", choices=("send", "recv"), required=True)
    known, _ = args.parse_known_args()
    if known.role == "send":
        sender = Sender()
        play("pipe-send", on_line=sender.on_line, on_go=sender.on_go)
    else:
        receiver = Receiver()
        play("pipe-recv", on_line=receiver.on_line, on_go=receiver.on_go, on_eof=receiver.on_eof)


if __name__ == "__main__":
    main()
