"""A bot on the library's Bot class that writes down everything it is told and decides: each
option set, each deal's start, event and result, each view (all of it but the clock's
deadline) and the action it chose (a random legal one, from its seed).

Run as a program (``python3 recorder_bot.py SEED [FILE]``) it appends those lines to FILE;
seated in the arena's process the same lines gather in :attr:`RecorderBot.calls`. The tests
compare the two.
"""

from __future__ import annotations

import random
import sys
from typing import TextIO

from zole_arena.game.actions import Action
from zole_arena.sdk import (
    Bot,
    BotView,
    DealEnd,
    DealStart,
    Event,
    Option,
    OptionValue,
)


class RecorderBot(Bot):
    name = "Recorder"
    author = "zole-arena tests"
    version = "3"
    options = (
        Option("Greed", 3, 0, 9),
        Option("Loud", False),
        Option("Style", "calm", choices=("calm", "wild")),
        Option("Motto", "hello"),
    )

    def __init__(self, seed: int, path: str | None = None) -> None:
        self.rng = random.Random(seed)
        self.calls: list[str] = []
        self._file: TextIO | None = None if path is None else open(path, "a")  # noqa: SIM115

    def _keep(self, text: str) -> None:
        self.calls.append(text)
        if self._file is not None:
            self._file.write(text + "\n")
            self._file.flush()

    def on_option(self, name: str, value: OptionValue) -> None:
        self._keep(f"option {name} {value!r}")

    def on_newdeal(self, deal: DealStart) -> None:
        self._keep(repr(deal))

    def on_event(self, event: Event) -> None:
        self._keep(repr(event))

    def on_result(self, end: DealEnd) -> None:
        self._keep(repr(end))

    def decide(self, view: BotView) -> Action:
        self._keep(repr({key: value for key, value in vars(view).items() if key != "deadline"}))
        action = self.rng.choice(view.legal_actions)
        self._keep(f"-> {action}")
        return action

    def on_quit(self) -> None:
        self._keep("quit")


if __name__ == "__main__":
    RecorderBot(int(sys.argv[1]), sys.argv[2] if len(sys.argv) > 2 else None).run()
