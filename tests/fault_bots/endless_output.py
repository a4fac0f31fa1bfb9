#!/usr/bin/env python3
"""Fault bot: after a ``go``, writes ``info`` lines for ever and never answers (a ``flood``).

Usage: ``endless_output.py [PAD]``: each line is ``info still thinking <n>``, padded with PAD
more characters (default 0: short lines, so the 10,000-line limit trips first; with a PAD of a
few hundred or more, the 1 MiB limit trips first).
"""

from __future__ import annotations

import itertools
import sys

import _faultbot


def main() -> None:
    _faultbot.report_pid()
    pad = " " + "x" * int(sys.argv[1]) if len(sys.argv) > 1 and int(sys.argv[1]) > 0 else ""

    def flood(fields: _faultbot.Fields) -> str:
        for n in itertools.count(0, 100):  # 100 lines a write, to flood fast
            sys.stdout.write("".join(f"info still thinking {n + i}{pad}\n" for i in range(100)))
            sys.stdout.flush()
        raise AssertionError("unreachable")

    _faultbot.serve("EndlessOutput", flood)


if __name__ == "__main__":
    main()
