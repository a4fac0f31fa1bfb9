"""The machine-wide counters of ``/proc``, replaced in every sandbox by files that never change.

A sandbox's ``/proc`` is its own for processes, but many of its files count for the whole
machine: the load (``loadavg``), free memory (``meminfo``, ``vmstat``, ``zoneinfo``…), forks
and context switches (``stat``), idle time (``uptime``), pressure stalls (``pressure/*``), open
files (``sys/fs/file-nr``)… What one bot does moves them, and another reads them: a channel
between two sandboxes, a few bits a read (a bot that holds 100 MiB, or 40 more open files, or
spins a CPU, is seen at once). Each such file is covered by a bind mount of a file that holds
a fixed, plausible text (the memory the bot may use, the CPUs it may run on), or nothing; a
folder of them (``pressure``, ``fs``) by an empty one. Programs that size themselves from
``/proc`` (a runtime counting CPUs from ``stat``, a heap sized from ``meminfo``) read what
applies to the bot.

The files are made once per arena process, in a private temporary folder that every sandbox
binds from, and removed when the arena ends.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import os
import shutil
import tempfile
import time
from pathlib import Path
from typing import Final

__all__ = ["EMPTIED", "KNOWN", "MASKED_FOLDERS", "proc_mask_args"]

#: Files of ``/proc`` that count for the whole machine and that programs hardly read: shown
#: empty in a sandbox (those this kernel has).
EMPTIED: Final = (
    "vmstat", "zoneinfo", "buddyinfo", "pagetypeinfo", "slabinfo", "diskstats", "interrupts",
    "softirqs", "schedstat", "locks", "timer_list", "vmallocinfo", "kpageflags", "kpagecount",
    "kpagecgroup", "sys/fs/file-nr", "sys/fs/inode-nr", "sys/fs/inode-state",
    "sys/fs/dentry-state", "sys/fs/aio-nr", "sys/kernel/pty/nr", "cgroups",
)  # fmt: skip
#: Folders of ``/proc`` whose files count for the whole machine: shown empty.
MASKED_FOLDERS: Final = ("pressure", "fs")
# Left as they are: files that do not move (``cpuinfo``, ``swaps``, ``iomem``, ``tty/``…), or
# that only calls the filter refuses could move (``key-users``), or that this kernel keeps
# constant (``sys/kernel/random/entropy_avail``). Each mask is a bind mount, some 0.3 ms of a
# sandbox's start.
#: The entries at the top of ``/proc`` (besides the processes' folders) that a sandbox shows:
#: those above, and those masked. Any other — a kernel's own addition, such as a list of every
#: process on the machine with its CPU time (seen on a virtual machine's kernel, where a bot
#: told another its hand by naming a process after it) — is shown empty: what is not known to
#: be harmless is not shown.
KNOWN: Final = frozenset({
    "self", "thread-self", "cpuinfo", "meminfo", "stat", "uptime", "loadavg", "version",
    "version_signature", "filesystems", "mounts", "net", "sys", "cmdline", "crypto", "devices",
    "misc", "consoles", "execdomains", "swaps", "partitions", "iomem", "ioports", "dma", "mtrr",
    "bus", "driver", "tty", "sysvipc", "key-users", "keys", "kallsyms", "kmsg", "config.gz",
    "cgroups", "acpi", "irq", "modules", "kcore", "sched_debug", "fb", "asound", "scsi",
    "sysrq-trigger", "cpu", "dynamic_debug", "bootconfig", "latency_stats", "mdstat",
    "pressure", "fs", "buddyinfo", "zoneinfo", "vmstat", "pagetypeinfo", "slabinfo",
    "diskstats", "interrupts", "softirqs", "schedstat", "locks", "timer_list", "vmallocinfo",
    "kpageflags", "kpagecount", "kpagecgroup",
})  # fmt: skip


def _cpus() -> list[int]:
    getter = getattr(os, "sched_getaffinity", None)
    return sorted(getter(0)) if getter is not None else list(range(os.cpu_count() or 1))


def _boot_time() -> int:
    with contextlib.suppress(OSError, ValueError):
        for line in Path("/proc/stat").read_text().splitlines():
            if line.startswith("btime "):
                return int(line.split()[1])
    return int(time.time() - time.monotonic())


def _texts(memory_mb: int | None) -> dict[str, str]:
    """The fixed texts of the files a bot may read, by their name under ``/proc``."""
    total_kb = 0
    with contextlib.suppress(OSError, ValueError, IndexError):
        total_kb = int(Path("/proc/meminfo").read_text().split()[1])
    if memory_mb is not None:
        total_kb = min(total_kb, memory_mb * 1024) if total_kb else memory_mb * 1024
    meminfo = "".join(
        f"{key + ':':<16}{value:>8} kB\n"
        for key, value in (
            ("MemTotal", total_kb), ("MemFree", total_kb), ("MemAvailable", total_kb),
            ("Buffers", 0), ("Cached", 0), ("SwapCached", 0), ("SwapTotal", 0),
            ("SwapFree", 0), ("Shmem", 0),
        )
    )  # fmt: skip
    zeros = " 0" * 10
    cpus = _cpus()
    stat = f"cpu {zeros}\n" + "".join(f"cpu{n}{zeros}\n" for n in cpus)
    stat += (
        f"intr 0\nctxt 0\nbtime {_boot_time()}\nprocesses 0\nprocs_running 1\n"
        "procs_blocked 0\nsoftirq 0\n"
    )
    return {
        "loadavg": "0.00 0.00 0.00 1/1 1\n",
        "meminfo": meminfo,
        "stat": stat,
        "uptime": "0.00 0.00\n",
    }


@functools.cache
def _folder() -> Path:
    folder = Path(tempfile.mkdtemp(prefix="zole-arena-proc-"))
    folder.chmod(0o755)
    (folder / "empty").write_text("")
    (folder / "emptydir").mkdir()
    atexit.register(shutil.rmtree, folder, True)
    return folder


@functools.cache
def _made(memory_mb: int | None) -> dict[str, str]:
    """The fake files for a bot with this memory limit: {name under /proc: file}."""
    folder = _folder() / f"mem-{memory_mb}"
    folder.mkdir(exist_ok=True)
    made = {}
    for name, text in _texts(memory_mb).items():
        path = folder / name
        path.write_text(text)
        path.chmod(0o444)
        made[name] = str(path)
    return made


def proc_mask_args(memory_mb: int | None) -> list[str]:
    """Bubblewrap's arguments that cover the machine-wide files of the sandbox's ``/proc``
    (after its ``--proc /proc``), for a bot that may use ``memory_mb`` MiB."""
    args: list[str] = []
    for name, path in _made(memory_mb).items():
        if os.path.exists(f"/proc/{name}"):
            args += ["--ro-bind", path, f"/proc/{name}"]
    empty = str(_folder() / "empty")
    for name in EMPTIED:
        if os.path.isfile(f"/proc/{name}"):
            args += ["--ro-bind", empty, f"/proc/{name}"]
    emptydir = str(_folder() / "emptydir")
    for name in MASKED_FOLDERS:
        if os.path.isdir(f"/proc/{name}"):
            args += ["--ro-bind", emptydir, f"/proc/{name}"]
    for name in _unknown():
        path = f"/proc/{name}"
        if os.path.isdir(path) and not os.path.islink(path):
            args += ["--ro-bind", emptydir, path]
        elif os.path.isfile(path):
            args += ["--ro-bind", empty, path]
    return args


@functools.cache
def _unknown() -> tuple[str, ...]:
    """The entries at the top of this machine's ``/proc`` that are not :data:`KNOWN` (nor a
    process's folder): each is shown empty."""
    with contextlib.suppress(OSError):
        return tuple(sorted(n for n in os.listdir("/proc") if not n.isdigit() and n not in KNOWN))
    return ()
