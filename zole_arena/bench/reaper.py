"""chromedriver under a parent that reaps whatever it leaves behind.

When chromedriver quits, Chromium's processes are orphaned, and Linux hands them to the nearest
child subreaper above them: a program that runs matches is one (the arena makes itself one, to
reap its bots' orphans), and would collect them as zombies it never waits for. This wrapper is a
subreaper of its own: it runs the chromedriver named by ``ZOLE_CHROMEDRIVER`` with the
arguments Selenium gives, and when that ends it kills and reaps every process still left, so
that nothing of the browser outlives it. :func:`~zole_arena.bench.report.headless_chromium`
starts chromedriver through it.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys

from zole_arena.players.proctree import become_subreaper, children_of


def main() -> None:
    """Run chromedriver, then kill and reap what is left of it (see the module's text)."""
    become_subreaper()
    driver = subprocess.Popen([os.environ["ZOLE_CHROMEDRIVER"], *sys.argv[1:]])
    signal.signal(signal.SIGTERM, lambda *_: driver.terminate())
    driver.wait()
    while True:
        for pid in children_of(os.getpid()):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        try:
            os.waitpid(-1, 0)
        except ChildProcessError:
            return
