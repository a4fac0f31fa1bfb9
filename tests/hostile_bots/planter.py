#!/usr/bin/env python3
"""Hostile bot: tries to change files outside its own: other bots' programs, the bundled bots,
the built C bots, the arena's installation, and to plant files in the organizer's folders.

At start, before the handshake:

* ``overwrite`` each ``--target FILE``: appends a line ``# planted by MARK`` (a Python program
  stays runnable, and so does an ELF file: the line is dead weight at its end);
* ``probe`` each ``--probe PATH`` without changing it: a file is opened for writing and its
  first byte written back unchanged; in a folder an unnamed file is made (``O_TMPFILE``) and
  dropped. Either proves the bot could have changed it, and leaves the content as it was;
* ``plant`` in each ``--plant DIR``: creates ``DIR/zole-planted-MARK``;
* what it finds itself: ``bundled-bots`` (the ``zole_arena_bots`` package's files), ``c-cache``
  (every file in ``zole_arena.catalogue.bundled.cache_dir()``), ``arena-package`` (zole_arena's own
  ``__init__.py``) and ``venv`` (the interpreter's site-packages folder). These are changed
  (as ``--target``) only inside ``--confine DIR``, the test's temporary folder; anywhere else
  they are only probed, so that no run can damage a real installation.

A test gives the paths it checks on the command line, so that the report names them exactly.
"""

from __future__ import annotations

import contextlib
import os
import sys
import sysconfig
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hostile


def adopt_arena_cache() -> None:
    """Take the arena's ``XDG_CACHE_HOME`` (where it builds the C bots) from its process's
    environment, which an unsandboxed bot may read (its own is not the arena's)."""
    with contextlib.suppress(OSError):
        data = Path(f"/proc/{os.getppid()}/environ").read_bytes()
        for item in data.split(b"\0"):
            if item.startswith(b"XDG_CACHE_HOME="):
                os.environ["XDG_CACHE_HOME"] = item.split(b"=", 1)[1].decode()


def overwrite(attack: str, path: Path, mark: str) -> None:
    try:
        with open(path, "ab") as handle:
            handle.write(f"\n# planted by {mark}\n".encode())
    except OSError as exc:
        hostile.report(attack, False, f"{path}: {hostile.why(exc)}")
        return
    hostile.report(attack, True, f"overwrote {path}")


def probe(attack: str, path: Path, mark: str) -> None:
    """Prove write access to ``path`` without changing what it holds."""
    try:
        if path.is_dir():
            try:
                fd = os.open(path, os.O_TMPFILE | os.O_WRONLY, 0o600)
            except OSError as exc:
                if exc.errno not in (95, 21):  # EOPNOTSUPP, EISDIR: no O_TMPFILE there
                    raise
                name = path / f".zole-probe-{mark}"
                fd = os.open(name, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
                os.unlink(name)
            os.write(fd, b"probe")
            os.close(fd)
            hostile.report(attack, True, f"could create files in {path}")
            return
        fd = os.open(path, os.O_RDWR)
        try:
            first = os.pread(fd, 1, 0)
            os.pwrite(fd, first, 0)
        finally:
            os.close(fd)
    except OSError as exc:
        hostile.report(attack, False, f"{path}: {hostile.why(exc)}")
        return
    hostile.report(attack, True, f"could rewrite {path} (wrote its first byte back)")


def plant(attack: str, folder: Path, mark: str) -> None:
    path = folder / f"zole-planted-{mark}"
    try:
        with open(path, "x") as handle:
            handle.write(f"planted by {mark}\n")
    except OSError as exc:
        hostile.report(attack, False, f"{path}: {hostile.why(exc)}")
        return
    hostile.report(attack, True, f"planted {path}")


def inside(path: Path, folder: Path | None) -> bool:
    if folder is None:
        return False
    with contextlib.suppress(OSError):
        return path.resolve().is_relative_to(folder.resolve())
    return False


def change(attack: str, path: Path, mark: str, confine: Path | None) -> None:
    """Overwrite ``path`` if it lies inside ``confine``; else probe it."""
    if inside(path, confine) and path.is_file():
        overwrite(attack, path, mark)
    else:
        probe(attack, path, mark)


def discovered(mark: str, confine: Path | None) -> None:
    try:
        import zole_arena_bots  # type: ignore[import-not-found]

        folder = Path(zole_arena_bots.__file__).parent
        files = sorted(
            (p for p in folder.rglob("*") if p.suffix in (".py", ".c") and p.is_file()),
            key=lambda p: (not p.name.endswith("_bot.py"), str(p)),
        )
        for path in files[:3]:
            change("bundled-bots", path, mark, confine)
        if not files:
            hostile.report("bundled-bots", False, f"no bot files in {folder}")
    except (ImportError, TypeError) as exc:
        hostile.report("bundled-bots", False, f"zole_arena_bots: {hostile.why(exc)}")
    try:
        from zole_arena.catalogue import bundled

        adopt_arena_cache()  # bots get no XDG_CACHE_HOME: the arena's own environment tells
        cache = bundled.cache_dir()
        built = sorted(p for p in cache.glob("*") if p.is_file()) if cache.is_dir() else []
        for path in built:
            change("c-cache", path, mark, confine)
        if not built:
            hostile.report("c-cache", False, f"nothing built in {cache}")
        import zole_arena

        change("arena-package", Path(zole_arena.__file__), mark, confine)
    except ImportError as exc:
        hostile.report("c-cache", False, f"zole_arena: {hostile.why(exc)}")
        hostile.report("arena-package", False, f"zole_arena: {hostile.why(exc)}")
    probe("venv", Path(sysconfig.get_paths()["purelib"]), mark)


def main() -> None:
    args = hostile.parser(__doc__ or "")
    args.add_argument("--target", action="append", default=[], type=Path)
    args.add_argument("--probe", action="append", default=[], type=Path)
    args.add_argument("--plant", action="append", default=[], type=Path)
    args.add_argument("--confine", type=Path, default=None)
    options, _ = args.parse_known_args()
    for path in options.target:
        overwrite("overwrite", path, options.mark)
    for path in options.probe:
        probe("probe", path, options.mark)
    for folder in options.plant:
        plant("plant", folder, options.mark)
    discovered(options.mark, options.confine)
    hostile.play("Planter")


if __name__ == "__main__":
    main()
