#!/usr/bin/env python3
"""Fault bot: at its first ``go``, computes for ever without answering, to hit the arena's
CPU-time limit (the kernel then kills it with SIGXCPU: a ``crash``)."""

from __future__ import annotations

import _faultbot


def compute(fields: _faultbot.Fields) -> str:
    n = 0
    while True:
        n += 1


def main() -> None:
    _faultbot.report_pid()
    _faultbot.serve("CpuHog", compute)


if __name__ == "__main__":
    main()
