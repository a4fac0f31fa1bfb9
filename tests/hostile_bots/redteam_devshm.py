#!/usr/bin/env python3
"""Red team: a sandboxed bot can write outside its ``/tmp``, in ``/dev`` and ``/dev/shm``.

The docs promise a private ``/tmp`` of 64 MiB as the only place a sandboxed bot may write.
Bubblewrap's ``--dev`` is a writable tmpfs without a size, though (and ``/dev/shm`` a folder
of it): a bot writes there past the ``/tmp`` cap. Under an arena with a control group the
pages count in the bot's memory; without one (an organizer who is not root and has no
delegated cgroup) nothing bounds them — ``RLIMIT_AS`` does not count tmpfs pages — so one bot
can fill the machine's memory.

    ATTACK dev_write SUCCEEDED|FAILED <detail>
    ATTACK devshm_past_tmp_cap SUCCEEDED|FAILED <detail>
"""

from __future__ import annotations

import contextlib
import os

from hostile import parser, play, report, why

#: More than the sandbox's /tmp may hold (64 MiB by default).
WRITE_MB = 96


def attack() -> None:
    try:
        with open("/dev/redteam", "wb") as handle:
            handle.write(b"planted")
        report("dev_write", True, "wrote /dev/redteam")
    except OSError as exc:
        report("dev_write", False, why(exc))
    path = "/dev/shm/redteam"
    try:
        with open(path, "wb") as handle:
            for _ in range(WRITE_MB):
                handle.write(b"\1" * (1 << 20))
        size = os.path.getsize(path) >> 20
        report("devshm_past_tmp_cap", True, f"wrote {size} MiB to {path} (/tmp holds 64)")
    except OSError as exc:
        report("devshm_past_tmp_cap", False, why(exc))
    finally:
        with contextlib.suppress(OSError):
            os.unlink(path)


def main() -> None:
    parser("a bot that writes outside /tmp").parse_known_args()
    attack()
    play("devshm")


if __name__ == "__main__":
    main()
