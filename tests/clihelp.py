"""Running the real ``zole-arena`` command in tests, and what every user error must look like."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

PY = sys.executable


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
