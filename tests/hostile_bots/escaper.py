#!/usr/bin/env python3
"""Hostile bot: starts processes meant to outlive it.

At start, before the handshake, it starts one process for each of ``--escapes`` (default all):

* ``setsid``: a child that calls ``setsid()`` (a session and process group of its own);
* ``setpgid``: a child that calls ``setpgid(0, 0)`` (a process group of its own);
* ``double``: a double fork: a child that calls ``setsid()``, forks and exits, so that the
  grandchild is an orphan in a session of its own;
* ``bomb``: a bounded fork bomb: a ``setsid()`` child that grows a binary tree of forks,
  ``--bomb N`` processes in all (default 255, at most 300).

Each escaped process re-executes ``python -c ... MARK:ROLE BOTPID``, so that its command line
carries the test's marker and its role: the tests find survivors by scanning
``/proc/*/cmdline`` for the marker (not the environment: a sandboxed bot gets a clean one). The
bot itself has the marker in its own command line (``--mark MARK``). An escaped process waits
for the bot to die and one second more, then reports ``ATTACK escape-ROLE SUCCEEDED ...`` on
the stderr it inherited, and sleeps on for 600 s (the tests kill it); the bomb's other
processes only sleep. The tests also look for survivors in ``/proc`` right after each run.

``--ignore-eof``: at the end of input (or ``quit``) the bot does not exit: it keeps running
until killed (for ``kill -9`` of the arena). ``--clear-pdeathsig``: at start the bot clears a
parent-death signal the arena may have set for it (``prctl(PR_SET_PDEATHSIG, 0)``).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hostile

ROLES = ("setsid", "setpgid", "double", "bomb")
MAX_BOMB = 300
_PR_SET_PDEATHSIG = 1
_PR_GET_PDEATHSIG = 2

#: What every escaped process runs: argv[1] is MARK:ROLE, argv[2] the bot's pid, argv[3] the
#: size of the bomb.
ESCAPEE = r"""
import os, signal, sys, time
signal.signal(signal.SIGPIPE, signal.SIG_IGN)
role = sys.argv[1].rsplit(":", 1)[1]
bot = int(sys.argv[2])
if role == "bomb":
    total = int(sys.argv[3])
    depth = max(0, total.bit_length() - 1)  # 2**(depth+1) - 1 processes in all
    children = 0
    while children < 2 and depth > 0:
        try:
            pid = os.fork()
        except OSError:
            break
        if pid == 0:
            depth -= 1
            children = 0
            continue
        children += 1
    if depth != max(0, total.bit_length() - 1):
        time.sleep(600)
        os._exit(0)
def dead(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True
while not dead(bot):
    time.sleep(0.05)
# Still here a second after the bot died: the arena's cleanup missed it. (Right after the death
# an escapee may run for the few milliseconds the kernel takes to tear the bot's sandbox down
# or the arena to kill its tree: that is not an escape.)
time.sleep(1.0)
line = f"ATTACK escape-{role} SUCCEEDED pid {os.getpid()} outlived the bot {bot} by 1 s\n"
try:
    os.write(2, line.encode())
except OSError:
    pass
time.sleep(600)
"""


def escapee_argv(mark: str, role: str, bomb: int) -> list[str]:
    return [sys.executable, "-c", ESCAPEE, f"{mark}:{role}", str(os.getpid()), str(bomb)]


def start(role: str, mark: str, bomb: int) -> None:
    """Fork and, in the child, leave the bot's process group as ``role`` says, then exec."""
    argv = escapee_argv(mark, role, bomb)
    try:
        pid = os.fork()
    except OSError as exc:
        hostile.report(f"escape-{role}", False, f"fork: {hostile.why(exc)}")
        return
    if pid == 0:
        try:
            if role == "setpgid":
                os.setpgid(0, 0)
            else:
                os.setsid()
            if role == "double" and os.fork() != 0:
                os._exit(0)
            os.execv(argv[0], argv)
        except BaseException as exc:
            hostile.report(f"escape-{role}", False, hostile.why(exc))
        os._exit(1)
    if role == "double":
        os.waitpid(pid, 0)
        hostile.note(f"escape-{role}: started (middle process {pid} has exited)")
    else:
        hostile.note(f"escape-{role}: started pid {pid}")


def clear_pdeathsig() -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    before = ctypes.c_int(0)
    libc.prctl(_PR_GET_PDEATHSIG, ctypes.byref(before), 0, 0, 0)
    libc.prctl(_PR_SET_PDEATHSIG, 0, 0, 0, 0)
    after = ctypes.c_int(0)
    libc.prctl(_PR_GET_PDEATHSIG, ctypes.byref(after), 0, 0, 0)
    hostile.note(f"parent-death signal was {before.value}, now {after.value}")


def main() -> None:
    args = hostile.parser(__doc__ or "")
    args.add_argument("--escapes", default=",".join(ROLES))
    args.add_argument("--bomb", type=int, default=255)
    args.add_argument("--ignore-eof", action="store_true")
    args.add_argument("--clear-pdeathsig", action="store_true")
    options, _ = args.parse_known_args()
    if options.clear_pdeathsig:
        clear_pdeathsig()
    for role in options.escapes.split(","):
        if role in ROLES:
            start(role, options.mark, min(options.bomb, MAX_BOMB))

    def at_eof() -> None:
        if options.ignore_eof:
            hostile.note("end of input: not exiting")
            with contextlib.suppress(OSError):
                os.close(0)
            while True:
                time.sleep(600)

    hostile.play("Escaper", on_eof=at_eof)


if __name__ == "__main__":
    main()
