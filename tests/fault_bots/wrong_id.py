#!/usr/bin/env python3
"""Fault bot: answers every ``go`` promptly and legally, but with the id plus 1000 (so: never
the open request's id, which makes a ``timeout``)."""

from __future__ import annotations

import _faultbot


def main() -> None:
    _faultbot.report_pid()
    _faultbot.serve(
        "WrongId",
        lambda f: f"action {int(f['id']) + 1000} {_faultbot.first_legal(f)}",
    )


if __name__ == "__main__":
    main()
