#!/usr/bin/env python3
"""Fault bot: handshakes and answers ``isready``, but never answers a ``go`` (a ``timeout``).

It keeps reading, and exits on ``quit``.
"""

from __future__ import annotations

import _faultbot


def main() -> None:
    _faultbot.report_pid()
    _faultbot.serve("NeverAnswers", lambda fields: None)  # a "go" is read and ignored


if __name__ == "__main__":
    main()
