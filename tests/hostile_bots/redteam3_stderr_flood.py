#!/usr/bin/env python3
"""Red team 3: a bot that floods its stderr without end, so that the arena spends its own CPU
(which no bot's share or allowance counts) reading it, and the honest bots' decisions slow.

A thread writes 64 KiB blocks to stderr as fast as the pipe takes them, for the whole match;
the bot plays random legal moves meanwhile. When the match ends it writes how many bytes the
arena took from it into ``--count-file`` (the tests run it unsandboxed, where it may).
"""

from __future__ import annotations

import os
import signal
import threading

from hostile import parser, play

BLOCK = (b"x" * 1023 + b"\n") * 64
written = [0]


def flood() -> None:
    while True:
        try:
            written[0] += os.write(2, BLOCK)
        except OSError:
            return


def main() -> None:
    args = parser("a bot that floods its stderr")
    args.add_argument("--count-file", required=True)
    count_file = args.parse_known_args()[0].count_file
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    threading.Thread(target=flood, daemon=True).start()

    def on_eof() -> None:
        with open(count_file, "w") as handle:
            handle.write(str(written[0]))

    play("stderr-flood", on_eof=on_eof)


if __name__ == "__main__":
    main()
