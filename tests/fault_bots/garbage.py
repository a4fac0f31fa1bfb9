#!/usr/bin/env python3
"""Fault bot: answers every ``go`` with ``action <id> banana`` (a ``garbage`` answer)."""

from __future__ import annotations

import _faultbot


def main() -> None:
    _faultbot.report_pid()
    _faultbot.serve("Garbage", lambda fields: f"action {fields['id']} banana")


if __name__ == "__main__":
    main()
