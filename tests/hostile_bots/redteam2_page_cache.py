#!/usr/bin/env python3
"""Red team 2: a bot's processes remember a duplicate block in the page cache.

A sandboxed duplicate match gives every seating its own processes, so that no process meets
the same cards twice. But the kernel's page cache is one for the whole machine, and it
outlives processes: a page of a system file every sandbox may read is either in memory or not,
and a bot sets that at will — ``posix_fadvise(POSIX_FADV_DONTNEED)`` drops a page,
``POSIX_FADV_RANDOM`` and a one-byte read bring in just that one — and tests it without
changing it: ``preadv2(RWF_NOWAIT)`` fails with ``EAGAIN`` for a page not in memory. Neither is
refused by the seccomp filter, and neither needs any right but reading the file.

At each ``newdeal`` the process writes the block number and its hand into the pages of the
seat it sits in (of the standard library's ``pydoc_data/topics.py``, a file nothing else
reads), then reads the other seats' pages: the processes of the block's earlier seatings
(other processes of the same bot, long gone by now) have left the hands of those seats of
this very deal there. The same pages carry a hand between two colluders at one table, or
from one match (or tournament table) to the next with the same cards.

    ATTACK page_cache SUCCEEDED deal <n> seat <mine> knows seat <s> hand <cards>
    ATTACK page_cache FAILED <why>        (at the end, if this process never knew one)
"""

from __future__ import annotations

import os

from hostile import fields_of, parser, play, report, why

DECK = [r + s for s in "CSH" for r in "AKQJT9"] + [r + "D" for r in "AKQJT987"]
BLOCK_BITS = 8
#: Pages per seat: one per card, the block number, one "written".
STRIDE = len(DECK) + BLOCK_BITS + 1
PAGE = os.sysconf("SC_PAGE_SIZE")
CARRIER = os.path.join(os.path.dirname(os.__file__), "pydoc_data", "topics.py")
BLOCK = 6
claims = 0


def bits_to_int(bits: list[bool]) -> int:
    return sum(1 << i for i, bit in enumerate(bits) if bit)


class Pages:
    def __init__(self) -> None:
        self.fd = os.open(CARRIER, os.O_RDONLY)
        os.posix_fadvise(self.fd, 0, 0, os.POSIX_FADV_RANDOM)  # no read-ahead
        if os.fstat(self.fd).st_size < 3 * STRIDE * PAGE:
            raise OSError(f"{CARRIER} is too small to carry three hands")

    def write(self, seat: int, bits: list[bool]) -> None:
        base = seat * STRIDE
        os.posix_fadvise(self.fd, base * PAGE, STRIDE * PAGE, os.POSIX_FADV_DONTNEED)
        for index, bit in enumerate(bits):
            if bit:
                os.pread(self.fd, 1, (base + index) * PAGE)

    def read(self, seat: int) -> list[bool]:
        found = []
        for index in range(STRIDE):
            try:
                os.preadv(self.fd, [bytearray(1)], (seat * STRIDE + index) * PAGE, os.RWF_NOWAIT)
                found.append(True)
            except BlockingIOError:
                found.append(False)
        return found


pages: Pages | None = None


def on_line(words: list[str]) -> None:
    global claims
    if words[0] != "newdeal" or pages is None:
        return
    fields = fields_of(words)
    deal, seat, hand = int(fields["deal"]), int(fields["seat"]), fields["hand"].split(",")
    block = (deal - 1) // BLOCK + 1
    others = {other: pages.read(other) for other in range(3) if other != seat}
    word = [card in hand for card in DECK]
    word += [bool(block >> i & 1) for i in range(BLOCK_BITS)] + [True]
    pages.write(seat, word)
    for other, bits in others.items():
        cards = [card for card, bit in zip(DECK, bits, strict=False) if bit]
        told = bits_to_int(bits[len(DECK) : len(DECK) + BLOCK_BITS])
        if bits[-1] and told == block % (1 << BLOCK_BITS) and len(cards) == 8:
            claims += 1
            known = ",".join(cards)
            report("page_cache", True, f"deal {deal} seat {seat} knows seat {other} hand {known}")


def on_eof() -> None:
    if not claims:
        report("page_cache", False, "no earlier process left a hand of this deal")


def main() -> None:
    global pages
    parser("a bot that remembers duplicate deals in the page cache").parse_known_args()
    try:
        pages = Pages()
    except OSError as exc:
        report("page_cache", False, why(exc))
    play("page-cache", on_line=on_line, on_eof=on_eof)


if __name__ == "__main__":
    main()
