#!/usr/bin/env python3
"""A bot that reserves 16 GiB of address space at its start and never touches it, as a JVM,
Go or .NET runtime reserves its heap: a memory limit that counts address space stops it
before it answers; one that counts memory used lets it play. It plays the first legal action.
"""

from __future__ import annotations

import mmap
import sys

# Read-only, private, not reserved in swap: address space, no memory (a runtime maps its heap
# so, without access, until it is used).
NORESERVE = getattr(mmap, "MAP_NORESERVE", 0x4000)  # Linux's value, where Python lacks it
RESERVED = mmap.mmap(-1, 16 << 30, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS | NORESERVE,
                     prot=mmap.PROT_READ)  # fmt: skip


def main() -> None:
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "zole":
            print("id name Reserver\nzoleok 1", flush=True)
        elif words[0] == "isready":
            print("readyok", flush=True)
        elif words[0] == "go":
            fields = dict(zip(words[1::2], words[2::2], strict=False))
            legal = fields["legal"].split(",")
            answer = " ".join(legal[:2]) if fields["phase"] == "bury" else legal[0]
            print(f"action {fields['id']} {answer}", flush=True)
        elif words[0] == "quit":
            break


if __name__ == "__main__":
    main()
