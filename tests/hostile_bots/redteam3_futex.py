#!/usr/bin/env python3
"""Red team 3: every hand through a shared futex, the channel of issue 23.

Every sandbox maps the same system files (the C library among them). A futex that is not
marked private, at an address inside a file's page, is keyed by the file and the offset,
which are the same in every namespace. So a process *publishes* a card by parking a thread in
``FUTEX_WAIT`` at the address that stands for (block, seat, card), and any other process on the
machine *probes* it with ``FUTEX_WAKE``: the call returns how many it woke. The woken thread
parks again at once, so the card stays published.

Each process of this bot does both, at every ``newdeal`` (and again at each ``go`` until it
knows something): it probes the other two seats of its block, then publishes its own hand. In
a duplicate block a bot's earlier seatings (processes still alive) have published the very
hands of this deal; two colluders at one table publish to each other; two tables played at
once publish to both. Its own publications it skips, so whatever it learns came from another
process.

    ATTACK futex_channel SUCCEEDED deal <n> seat <mine> knows seat <s> hand <cards>
    ATTACK futex_channel FAILED <why>        (at the end, if this process never learnt a card)

``--block N``: deals per block (6 in a duplicate match, 1 in a plain one: each deal a key).
"""

from __future__ import annotations

import ctypes
import mmap
import os
import platform
import threading

from hostile import fields_of, parser, play, report

DECK = [r + s for s in "CSH" for r in "AKQJT9"] + [r + "D" for r in "AKQJT987"]
FUTEX_WAIT, FUTEX_WAKE = 0, 1
SYS_FUTEX = {"x86_64": 202, "aarch64": 98, "riscv64": 98}[platform.machine()]
#: Keys of the block number: a block's slots are reused after this many blocks.
KEYS = 16
#: Where the slots start in the library file (a page of its code, read-only everywhere).
FIRST_PAGE = 8

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int,
                      ctypes.c_int, ctypes.c_long]  # fmt: skip
threading.stack_size(256 * 1024)


def carrier() -> str:
    """The C library's file, as this process maps it (the same inode in every sandbox)."""
    with open("/proc/self/maps") as maps:
        for line in maps:
            path = line.split()[-1]
            if "/libc.so" in path or "/libc-" in path:
                return path
    raise OSError("no C library mapped")


class Slots:
    def __init__(self) -> None:
        path = carrier()
        fd = os.open(path, os.O_RDONLY)
        size = os.fstat(fd).st_size
        base = libc.mmap(None, size, mmap.PROT_READ, mmap.MAP_SHARED, fd, 0)
        os.close(fd)
        if base in (None, ctypes.c_void_p(-1).value):
            raise OSError(ctypes.get_errno(), "mmap of the C library failed")
        self.base = base + FIRST_PAGE * mmap.PAGESIZE
        self.mine: set[int] = set()
        self.refused = 0
        self.probed = 0

    def address(self, block: int, seat: int, card: int) -> int:
        return self.base + 4 * (((block % KEYS) * 3 + seat) * len(DECK) + card)

    def publish(self, block: int, seat: int, hand: list[str]) -> None:
        for card in hand:
            address = self.address(block, seat, DECK.index(card))
            if address not in self.mine:
                self.mine.add(address)
                threading.Thread(target=self._park, args=(address,), daemon=True).start()

    def _park(self, address: int) -> None:
        value = ctypes.c_uint32.from_address(address).value
        while True:
            done = libc.syscall(SYS_FUTEX, ctypes.c_void_p(address), FUTEX_WAIT, value, None)
            if done == -1 and ctypes.get_errno() not in (0, 4):  # EINTR: park again
                self.refused += 1  # EAGAIN, ENOSYS, EPERM: this futex cannot be parked on
                return

    def probe(self, block: int, seat: int) -> list[str]:
        found = []
        for card in range(len(DECK)):
            address = self.address(block, seat, card)
            if address in self.mine:
                continue
            self.probed += 1
            if libc.syscall(SYS_FUTEX, ctypes.c_void_p(address), FUTEX_WAKE, 1) > 0:
                found.append(DECK[card])
        return found


slots: Slots | None = None
learnt = 0
deal_now = (0, 0, 0)  # deal, block, seat
known: dict[int, set[str]] = {}


def look() -> None:
    global learnt
    assert slots is not None
    deal, block, seat = deal_now
    for other in range(3):
        if other == seat:
            continue
        cards = slots.probe(block, other)
        new = set(cards) - known.setdefault(other, set())
        if new:
            known[other] |= new
            learnt += 1
            hand = ",".join(sorted(known[other], key=DECK.index))
            report("futex_channel", True, f"deal {deal} seat {seat} knows seat {other} hand {hand}")


def main() -> None:
    global slots
    args = parser("a bot that passes hands through shared futexes")
    args.add_argument("--block", type=int, default=6)
    per_block = args.parse_known_args()[0].block
    try:
        slots = Slots()
    except OSError as exc:
        report("futex_channel", False, f"{type(exc).__name__}: {exc}")
        play("futex")
        return

    def on_line(words: list[str]) -> None:
        global deal_now, known
        assert slots is not None
        if words[0] == "newdeal":
            fields = fields_of(words)
            deal, seat = int(fields["deal"]), int(fields["seat"])
            deal_now, known = (deal, (deal - 1) // per_block + 1, seat), {}
            look()
            slots.publish(deal_now[1], seat, fields["hand"].split(","))
        elif words[0] == "go" and sum(len(cards) for cards in known.values()) < 16:
            look()

    def on_eof() -> None:
        assert slots is not None
        if not learnt:
            report("futex_channel", False, f"no card in {slots.probed} probes; "
                   f"{slots.refused} parked threads refused")  # fmt: skip

    play("futex", on_line=on_line, on_eof=on_eof)


if __name__ == "__main__":
    main()
