#!/usr/bin/env python3
"""Red team: a Python bot whose interpreter is its own virtual environment runs code outside
the sandbox.

``zole_arena.isolation.sandbox.readable_paths`` asks a bot's Python interpreter where it lives by
running
``PROGRAM -c "import sys, json; ..."`` *unsandboxed*, as the arena's user (root in CI), in the
arena's PID namespace, before the sandbox is built (``_python_layout``). An interpreter of a
virtual environment the competitor ships (or whose packages they chose) runs its
``site-packages/*.pth`` files at every start, so the competitor's code runs there too: it can
read the arena's command line (the seed), every file of the organizer, and leave processes
behind. Here the payload (``redteam_venv_payload.py``, installed by the test with a ``.pth``)
writes what it found into the venv; this bot, started in the sandbox, reads it back.

    ATTACK venv_escape SUCCEEDED|FAILED <detail>
    ATTACK venv_seed SUCCEEDED|FAILED <the stolen seed>
"""

from __future__ import annotations

import glob
import os
import sys

from hostile import option_value, parser, play, report


def main() -> None:
    parser("a bot whose venv runs code outside the sandbox").parse_known_args()
    found = sorted(glob.glob(os.path.join(sys.prefix, "lib", "python*", "site-packages",
                                          "redteam_loot", "*.txt")))  # fmt: skip
    if not found:
        report("venv_escape", False, f"no loot in {sys.prefix}: the payload never ran outside")
        report("venv_seed", False, "no loot")
    else:
        with open(found[0]) as handle:
            facts = dict(line.rstrip("\n").split("=", 1) for line in handle if "=" in line)
        report("venv_escape", True,
               f"{len(found)} run(s) outside the sandbox: uid {facts.get('uid')}, "
               f"{facts.get('pidns')}, /root: {facts.get('root')}")  # fmt: skip
        seed = option_value(facts.get("parent", "").split(), "--seed")
        report("venv_seed", seed is not None, f"seed {seed} from {facts.get('parent', '')[:300]}")
    play("venv-escape")


if __name__ == "__main__":
    main()
