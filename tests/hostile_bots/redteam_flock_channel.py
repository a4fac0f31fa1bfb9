#!/usr/bin/env python3
"""Red team: two colluding sandboxed bots at one table pass a whole hand through file locks.

Every sandbox binds the same system files read-only, so every bot can open the same inodes,
and ``flock`` needs only a file opened for reading. A lock is the kernel's, shared across
namespaces: the *sender* locks one file per card of its hand (and a few for its seat, the deal
number and a ready flag); the *receiver* tries each lock without waiting and reads the bits.
Neither PID, IPC nor network namespaces stop it: the receiver learns its ally's hand at
``newdeal`` — in a 3-player game, with its own, 16 of the 24 dealt cards.

    ATTACK flock_channel SUCCEEDED deal <n> seat <s> hand <cards>   (the receiver)
    ATTACK flock_channel FAILED <why>

Run as ``redteam_flock_channel.py --role send|recv``.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import stat
import time

from hostile import fields_of, parser, play, report

DECK = [r + s for s in "CSH" for r in "AKQJT9"] + [r + "D" for r in "AKQJT987"]
#: Bits: a card each, 2 for the sender's seat, 6 for the deal number, 1 "ready".
SEAT_BITS, DEAL_BITS = 2, 6
WIDTH = len(DECK) + SEAT_BITS + DEAL_BITS + 1
#: How long the receiver looks for its ally's hand at each event (seconds): the ally gets
#: ``newdeal`` at about the same time, or before its first move.
WAIT_S = 0.05


def carriers() -> list[int]:
    """Read-only descriptors of the same system files in every sandbox, one per bit."""
    fds: list[int] = []
    inodes: set[int] = set()  # a hard link is the same lock
    for name in sorted(os.listdir("/usr/bin")):
        path = os.path.join("/usr/bin", name)
        with contextlib.suppress(OSError):
            info = os.lstat(path)
            if stat.S_ISREG(info.st_mode) and info.st_ino not in inodes:
                inodes.add(info.st_ino)
                fds.append(os.open(path, os.O_RDONLY))
        if len(fds) == WIDTH:
            return fds
    raise OSError("not enough files to carry the bits")


def bits(deal: int, seat: int, hand: list[str]) -> list[bool]:
    word = [card in hand for card in DECK]
    word += [bool(seat >> i & 1) for i in range(SEAT_BITS)]
    word += [bool(deal >> i & 1) for i in range(DEAL_BITS)]
    return word


class Sender:
    def __init__(self) -> None:
        self.fds = carriers()

    def on_line(self, words: list[str]) -> None:
        if words[0] != "newdeal":
            return
        fields = fields_of(words)
        word = bits(int(fields["deal"]), int(fields["seat"]), fields["hand"].split(","))
        fcntl.flock(self.fds[-1], fcntl.LOCK_UN)  # not ready while the bits change
        for fd, bit in zip(self.fds, word, strict=False):
            fcntl.flock(fd, fcntl.LOCK_EX if bit else fcntl.LOCK_UN)
        fcntl.flock(self.fds[-1], fcntl.LOCK_EX)


class Receiver:
    def __init__(self) -> None:
        self.fds = carriers()
        self.told = 0
        self.deal = 0
        self.done = -1

    def locked(self, fd: int) -> bool:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        fcntl.flock(fd, fcntl.LOCK_UN)
        return False

    def snapshot(self) -> list[bool] | None:
        """The ally's word, if it is published and did not change while read."""
        first = [self.locked(fd) for fd in self.fds]
        second = [self.locked(fd) for fd in self.fds]
        return first if first == second and first[-1] else None

    def look(self, deal: int) -> bool:
        """Read the ally's hand of ``deal`` if it is there; whether it was."""
        word = self.snapshot()
        if word is None:
            return False
        seat = sum(1 << i for i in range(SEAT_BITS) if word[len(DECK) + i])
        number = sum(1 << i for i in range(DEAL_BITS) if word[len(DECK) + SEAT_BITS + i])
        if number != deal % (1 << DEAL_BITS):
            return False
        hand = [card for card, bit in zip(DECK, word, strict=False) if bit]
        self.told += 1
        self.done = deal
        report("flock_channel", True, f"deal {deal} seat {seat} hand {','.join(hand)}")
        return True

    def on_line(self, words: list[str]) -> None:
        if words[0] == "newdeal":
            self.deal = int(fields_of(words)["deal"])
        elif words[0] != "go" or self.done == self.deal:
            return
        deadline = time.monotonic() + WAIT_S
        while not self.look(self.deal) and time.monotonic() < deadline:
            time.sleep(0.001)

    def on_eof(self) -> None:
        if not self.told:
            report("flock_channel", False, "never read a hand from the ally's locks")


def main() -> None:
    args = parser("two bots that talk through file locks")
    args.add_argument("--role", choices=("send", "recv"), required=True)
    role = args.parse_known_args()[0].role
    try:
        side: Sender | Receiver = Sender() if role == "send" else Receiver()
    except OSError as exc:
        if role == "recv":
            report("flock_channel", False, f"{type(exc).__name__}: {exc}")
        play(f"flock-{role}")
        return
    refused: list[str] = []

    def on_line(words: list[str]) -> None:
        if refused:  # the locks are refused (a system-call filter): play on, honestly
            return
        try:
            side.on_line(words)
        except OSError as exc:
            refused.append(str(exc))
            if role == "recv":
                report("flock_channel", False, f"{type(exc).__name__}: {exc}")

    def on_eof() -> None:
        if isinstance(side, Receiver) and not refused:
            side.on_eof()

    play(f"flock-{role}", on_line=on_line, on_eof=on_eof)


if __name__ == "__main__":
    main()
