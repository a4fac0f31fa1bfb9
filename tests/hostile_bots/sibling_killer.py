#!/usr/bin/env python3
"""Hostile bot: tries to stop and kill the other bots, and to stop (or kill) the arena.

At its first ``go`` (when the other bots run) it finds the other bots (the processes with its
parent) and, for each, sends SIGSTOP (``stop-sibling``: SUCCEEDED once the process is seen
stopped) and then SIGKILL (``kill-sibling``: SUCCEEDED once it is seen dead). Then the arena
(the nearest ancestor whose command line is zole-arena's; only that one, never a process found
by a wider search): SIGSTOP, seen stopped, then SIGCONT (``stop-arena``), so that the match
goes on; with ``--kill-arena`` also SIGKILL (``kill-arena``).

A success is reported only when its effect is seen in ``/proc``: a signal the kernel accepts
but ignores (a PID namespace's init ignores SIGKILL from inside) is no success.
"""

from __future__ import annotations

import os
import signal
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hostile


def signal_and_see(attack: str, pid: int, sig: signal.Signals, states: str) -> bool:
    try:
        os.kill(pid, sig)
    except OSError as exc:
        hostile.report(attack, False, f"{sig.name} to {pid}: {hostile.why(exc)}")
        return False
    if hostile.wait_state(pid, states):
        hostile.report(attack, True, f"{sig.name} to {pid} {' '.join(hostile.cmdline(pid))}")
        return True
    hostile.report(attack, False, f"{sig.name} to {pid} was accepted, but it had no effect")
    return False


def attack(kill_arena: bool) -> None:
    me = os.getpgid(0)
    victims = [pid for pid in hostile.siblings() if pid > 1 and hostile.pgid(pid) != me]
    if not victims:
        hostile.report("stop-sibling", False, "no other bot visible")
        hostile.report("kill-sibling", False, "no other bot visible")
    for pid in victims:
        signal_and_see("stop-sibling", pid, signal.SIGSTOP, "Tt")
        signal_and_see("kill-sibling", pid, signal.SIGKILL, "Z")
    arenas = [pid for pid in hostile.arena_processes() if pid > 1]
    if not arenas:
        seen = {pid: " ".join(hostile.cmdline(pid))[:80] for pid in hostile.ancestors()}
        hostile.report("stop-arena", False, f"no arena process visible (ancestors: {seen})")
        if kill_arena:
            hostile.report("kill-arena", False, "no arena process visible")
        return
    arena = arenas[0]
    if signal_and_see("stop-arena", arena, signal.SIGSTOP, "Tt"):
        os.kill(arena, signal.SIGCONT)
    if kill_arena:
        signal_and_see("kill-arena", arena, signal.SIGKILL, "Z")


def main() -> None:
    args = hostile.parser(__doc__ or "")
    args.add_argument("--kill-arena", action="store_true", help="also SIGKILL the arena")
    options, _ = args.parse_known_args()
    done = False

    def at_go(fields: hostile.Fields) -> None:
        nonlocal done
        if not done:
            done = True
            attack(options.kill_arena)

    hostile.play("SiblingKiller", on_go=at_go)


if __name__ == "__main__":
    main()
