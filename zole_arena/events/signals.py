"""Ctrl-C, SIGTERM and SIGHUP while a tournament runs: held while the parent hands out work,
so that a stop never cuts a message, then acted on."""

from __future__ import annotations

import signal
import threading
from typing import Any

__all__ = []


class _SignalGate:
    """Ctrl-C and SIGTERM wait while the gate is shut (``with gate:``), then act as they would
    have (the command line's handler raises KeyboardInterrupt): a stop never falls between
    reading a worker's messages and acting on them, which would lose one of them.

    Installed for a run (a handler that passes each signal on to the one it replaced, or keeps
    it while shut), so that shutting and opening costs nothing per message. Only the main
    thread can install handlers; elsewhere the gate does nothing.
    """

    def __init__(self) -> None:
        self._shut = False
        self._caught: signal.Signals | None = None
        self._old: dict[signal.Signals, Any] = {}

    def install(self) -> None:
        if threading.current_thread() is threading.main_thread():
            for number in (signal.SIGINT, signal.SIGTERM):
                self._old[number] = signal.signal(number, self._handle)

    def uninstall(self) -> None:
        """Put the replaced handlers back (unless one of them has changed its own since, as the
        command line's does to ignore a second Ctrl-C)."""
        for number, handler in self._old.items():
            if signal.getsignal(number) == self._handle:
                signal.signal(number, signal.SIG_DFL if handler is None else handler)
        self._old.clear()

    def _handle(self, signum: int, frame: object) -> None:
        number = signal.Signals(signum)
        if self._shut:
            self._caught = self._caught or number
        else:
            self._pass_on(number)

    def _pass_on(self, number: signal.Signals) -> None:
        handler = self._old.get(number)
        if callable(handler):
            handler(number, None)
        elif handler == signal.SIG_DFL:
            signal.signal(number, signal.SIG_DFL)
            signal.raise_signal(number)

    def __enter__(self) -> None:
        self._shut = True

    def __exit__(self, *exc: object) -> None:
        self._shut = False
        caught, self._caught = self._caught, None
        if caught is not None:
            self._pass_on(caught)
