"""Running the real ``zole-arena`` command in tests, and what every user error must look like."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")

PY = sys.executable
#: The end of the loop over stdin of a bot a test writes (``for line in sys.stdin: if …``):
#: its answer to ``go``, the first legal action (the first two cards when burying), and
#: ``quit``. A bot that answers no ``go`` makes ``check`` wait out every decision item's time.
PLAYS_FIRST_LEGAL = (
    "    elif line.startswith('go '):\n"
    "        f = dict(zip(line.split()[1::2], line.split()[2::2]))\n"
    "        legal = f['legal'].split(',')\n"
    "        print('action', f['id'], *legal[: 2 if f['phase'] == 'bury' else 1], flush=True)\n"
    "    elif line.startswith('quit'):\n"
    "        break\n"
)


#: A bot that says at its handshake that it plays only at tables of three (``id tables 3``) and
#: answers pings: a table of four must refuse it before any deal.
THREE_ONLY = (
    "import sys\n"
    "for line in sys.stdin:\n"
    "    if line.startswith('zole '):\n"
    "        print('id name ThreeOnly', 'id tables 3', 'zoleok 1', sep='\\n', flush=True)\n"
    "    elif line.startswith('isready'):\n"
    "        print('readyok', flush=True)\n"
    "    elif line.startswith('quit'):\n"
    "        break\n"
)


def zole(
    *args: str, cwd: Path, timeout: float = 120, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """Run ``zole-arena ARGS`` in ``cwd`` as a user would (a real process); ``env`` replaces
    the environment when given."""
    return subprocess.run(
        [PY, "-m", "zole_arena", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
        env=env,
    )


def together(*runs: Callable[[], T]) -> list[T]:
    """Call ``runs`` at once, each in a thread of its own (each runs a command of its own and
    waits for it), and return what each returned, in their order; the first to raise raises
    here, once all have ended. For commands independent of each other: a test's wall time is
    then its slowest command's, not their sum."""
    with ThreadPoolExecutor(max_workers=len(runs)) as pool:
        futures = [pool.submit(run) for run in runs]
    return [future.result() for future in futures]


def zoles(
    *commands: Sequence[str], cwd: Path, timeout: float = 120, env: dict[str, str] | None = None
) -> list[subprocess.CompletedProcess[str]]:
    """Run the ``zole-arena`` ``commands`` (each its arguments) at once, as :func:`zole` runs
    one, and return their outcomes in their order. For commands independent of each other."""
    return together(*(lambda args=args: zole(*args, cwd=cwd, timeout=timeout, env=env)
                      for args in commands))  # fmt: skip


def ok(proc: subprocess.CompletedProcess[str]) -> subprocess.CompletedProcess[str]:
    """Assert that a command succeeded without a traceback."""
    assert proc.returncode == 0, f"exit {proc.returncode}\n{proc.stdout}\n{proc.stderr}"
    assert "Traceback" not in proc.stderr
    return proc


def one_line_error(proc: subprocess.CompletedProcess[str], *needles: str) -> str:
    """A non-zero exit with exactly one line on stderr, an ``error:``, and no traceback."""
    assert proc.returncode != 0, proc.stdout
    assert "Traceback" not in proc.stderr + proc.stdout, proc.stderr
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("error:"), lines[0]
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])
    return lines[0]


def rechained(records: Sequence[dict[str, Any]]) -> str:
    """Log records (JSON objects) as a log whose hash chain is whole: what a forger who knows
    the format writes after changing them (each line's ``prev`` the SHA-256 of the line
    before)."""
    out, prev = [], None
    for record in records:
        fixed = {"format": record["format"], "format_version": 2, "prev": prev}
        fixed.update({k: v for k, v in record.items() if k not in fixed})
        line = json.dumps(fixed, separators=(",", ":"), ensure_ascii=False)
        out.append(line)
        prev = hashlib.sha256(line.encode()).hexdigest()
    return "\n".join(out) + "\n"
