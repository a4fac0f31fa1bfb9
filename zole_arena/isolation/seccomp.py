"""A seccomp filter for sandboxed bots: it closes the kernel's covert channels between them.

Namespaces do not separate everything. A file lock is the kernel's, on an inode: two bots that
open the same read-only system file (every sandbox binds ``/usr``) see each other's
``flock`` and ``fcntl`` locks, and one can tell the other its whole hand, one lock a bit. File
leases, ``dnotify`` (``F_NOTIFY``), ``inotify`` and ``fanotify`` watches on shared files work
the same way. :func:`bot_filter` builds a seccomp-BPF program that makes those calls fail with
``EPERM`` and allows everything else; bubblewrap loads it (``--seccomp FD``) just before it
runs the bot, so the bot and all it starts are bound by it, and cannot remove it.

Futexes are the other kernel object keyed by a file: a futex that is not marked private, in a
file's page (the C library's, mapped by every process), is found by the same address in every
sandbox, and ``FUTEX_WAKE`` says how many waited there. The filter lets private futexes through
(every lock between one process's threads) and answers shared ones itself, so that none ever
sleeps or is found (:data:`FUTEX_RULES`); the newer futex calls are absent. The page cache is
the third: the calls that evict or inspect it without reading are refused
(:data:`DENIED_SYSCALLS`, :data:`DENIED_MADVISE`).

What a bot loses: file locks; sleeping on a process-shared lock (it spins instead). A bot
that opens an SQLite database must open it with
``?immutable=1`` (or ``nolock=1``), a ``dbm.gnu`` file with the ``u`` flag; a JVM warns that it
cannot lock its ``hsperfdata`` file and runs without it (``-XX:-UsePerfData`` silences it).

Every other ``fcntl`` command (``F_GETFL``, ``F_SETFD``, ``F_DUPFD``…) works: the command is
the call's second argument, which the filter reads (its low 32 bits, all the kernel reads).

Only the machine's own system call table is allowed. A program for another one (x86_64's
``int 0x80`` i386 calls and its x32 calls, aarch64's 32-bit ARM calls) is killed at its first
call: those tables number every call differently, and would pass a filter written for one.
So ``fcntl64``, which exists only in 32-bit tables, needs no rule.

Written by hand, not with libseccomp: the program is a dozen rules and a table of numbers per
machine, and libseccomp (``libseccomp.so.2``, through a binding such as ``pyseccomp``) is a
system library that a plain ``pip install`` cannot bring — a sandbox that fails where it is
missing is worse than 40 lines of BPF that the tests run through the kernel and check against
libseccomp's own tables wherever it is installed.
"""

from __future__ import annotations

import dataclasses
import errno
import functools
import os
import struct
import sys
from collections.abc import Mapping
from typing import Final

from zole_arena.errors import SandboxUnavailable

__all__ = [
    "ABSENT_SYSCALLS",
    "ARCHES",
    "DENIED_MADVISE",
    "DENIED_PRCTL",
    "FUTEX_RULES",
    "VERDICTS",
    "DENIED_FCNTL",
    "DENIED_SYSCALLS",
    "Arch",
    "SeccompUnavailable",
    "bot_filter",
    "build",
    "filter_fd",
]

#: The system calls a bot may not make, and why. Each fails with EPERM.
DENIED_SYSCALLS: Final[Mapping[str, str]] = {
    "flock": "locks on inodes any sandbox can open: a covert channel",
    "inotify_init": "watches on shared files see another bot's reads: a covert channel",
    "inotify_init1": "the same, with flags",
    "fanotify_init": "the same, and unprivileged since Linux 5.13",
    # Not channels, but kernel surface no bot needs, where the exploits of the last years were:
    "userfaultfd": "stalls the kernel's copies from user memory at will: widens kernel races",
    "perf_event_open": "hardware counters: side channels on the CPUs the bots share",
    "io_uring_setup": "io_uring's operations pass no seccomp filter at all (io_uring_enter "
    "and io_uring_register need its ring); Node's libuv falls back to threads",
    "bpf": "the kernel's own programs: a large attack surface",
    "keyctl": "the kernel's keyrings are not namespaced: user and named keyrings are shared "
    "by every bot of one real user",
    "add_key": "the same",
    "request_key": "the same",
    "syslog": "the kernel log, where one bot's crash (its fault address) is written for "
    "another to read where dmesg is not restricted",
    # The page cache outlives processes and is shared by all: a bot that can evict a system
    # file's pages and then test, without touching them, which are cached can leave its hand
    # there for the next process of its block (or an ally) to read, exactly and fast.
    "fadvise64": "evicts a file's pages at will (POSIX_FADV_DONTNEED): writes the page cache",
    "mincore": "tells which pages of a mapped file are cached: reads the page cache",
    "cachestat": "the same, for a whole file",
    "preadv2": "with RWF_NOWAIT, tells whether a file's page is cached without caching it",
    "pwritev2": "preadv2's twin (its flags too)",
}
# Left allowed, on purpose: ptrace and process_vm_* (they reach only the bot's own PID
# namespace); personality (it changes only how the bot's own programs run, and mmap_min_addr
# holds whatever it says); plain reads (the time a read takes still tells whether a page was
# cached: seccomp cannot close that, see docs/competitions.md); sysinfo (its free memory and
# process count are the machine's, but programs size themselves from it and a refusal leaves
# their buffer unset).

#: Calls a bot may not make because their futexes could be shared across sandboxes; each fails
#: with ENOSYS, as on a kernel without them (no C library uses them yet). Their flags say
#: private or shared inside user memory (``futex_waitv``, ``futex_requeue``) or are new
#: (``futex_wake``, ``futex_wait``): :data:`FUTEX_RULES` governs the one futex call programs use.
ABSENT_SYSCALLS: Final[Mapping[str, str]] = {
    "futex_waitv": "waits on futexes whose private flag lies in user memory",
    "futex_wake": "futex2: shared wakes, as futex's",
    "futex_wait": "futex2: shared waits, as futex's",
    "futex_requeue": "futex2: its futexes' flags lie in user memory",
    "process_madvise": "madvise for a whole process: MADV_PAGEOUT through a pidfd",
}

#: ``futex`` without ``FUTEX_PRIVATE_FLAG``: what each command gets instead of the kernel.
#:
#: A shared futex is keyed by the file and offset it maps, when it lies in a file's page: the
#: same in every sandbox, which all map the same system files. One bot's process parked in
#: ``FUTEX_WAIT`` at an address that encodes a card is found by any other's ``FUTEX_WAKE``
#: (its return value counts the woken): a channel between any two processes on the machine.
#: A private futex (the flag set: every lock of threads in one process, glibc's default) is
#: keyed by the process's memory, and is allowed. A shared wait returns ``EAGAIN`` at once
#: ("the value changed, look again"), so nothing ever sleeps on a shared futex, and a shared
#: wake reports that it woke nobody, which is then the truth. Process-shared locks (a
#: ``PTHREAD_PROCESS_SHARED`` mutex, a POSIX semaphore, Python's ``multiprocessing.Lock``)
#: stay correct, since their atomics live in user memory: a waiter spins instead of sleeping,
#: on the bot's own CPU time. The other shared commands (priority inheritance, ``WAKE_OP``,
#: the requeue-PI pair) fail with ``ENOSYS``.
FUTEX_RULES: Final[Mapping[str, tuple[int, str]]] = {
    "FUTEX_WAIT": (0, "eagain"),
    "FUTEX_WAIT_BITSET": (9, "eagain"),
    "FUTEX_WAKE": (1, "none_woken"),
    "FUTEX_WAKE_BITSET": (10, "none_woken"),
    "FUTEX_REQUEUE": (3, "none_woken"),
    "FUTEX_CMP_REQUEUE": (4, "none_woken"),
}
FUTEX_PRIVATE_FLAG: Final = 128
#: ``FUTEX_CMD_MASK``: the command without the private and realtime-clock flags.
_FUTEX_CMD_MASK: Final = ~(128 | 256) & 0xFFFFFFFF

#: ``madvise`` advice a bot may not give (EINVAL, as for advice a kernel does not know):
#: they push a file's pages out of the shared page cache, or merge pages across processes.
DENIED_MADVISE: Final[Mapping[str, int]] = {
    "MADV_MERGEABLE": 12,  # KSM: a merged page is slow to write, which another bot can time
    "MADV_COLD": 20,
    "MADV_PAGEOUT": 21,  # drops a file's page from the page cache: writes the cache
    "MADV_COLLAPSE": 25,  # makes a file's pages one huge page in the page cache
}
#: ``prctl`` options a bot may not use (EINVAL).
DENIED_PRCTL: Final[Mapping[str, int]] = {"PR_SET_MEMORY_MERGE": 67}  # KSM for the process

#: The fcntl commands a bot may not use (Linux's numbers, the same on every machine here).
DENIED_FCNTL: Final[Mapping[str, int]] = {
    "F_GETLK": 5,
    "F_SETLK": 6,
    "F_SETLKW": 7,
    "F_OFD_GETLK": 36,
    "F_OFD_SETLK": 37,
    "F_OFD_SETLKW": 38,
    "F_SETLEASE": 1024,
    "F_GETLEASE": 1025,
    "F_NOTIFY": 1026,
    # Pipe buffers are counted per real user across every namespace, and past a limit new
    # pipes are small: a bot that reserves large buffers signals an ally who measures its own.
    "F_SETPIPE_SZ": 1031,
    "F_GETPIPE_SZ": 1032,
}


@dataclasses.dataclass(frozen=True)
class Arch:
    """A machine's system call table, as far as the filter needs it."""

    name: str
    """As ``uname -m`` says it."""
    audit_arch: int
    """``AUDIT_ARCH_*``: which table a system call is made in."""
    numbers: Mapping[str, int]
    """The numbers of ``fcntl`` and of the denied calls that exist in this table."""
    foreign_bit: int | None = None
    """A bit that marks calls of another ABI under the same ``audit_arch`` (x32's)."""


#: The generic table (include/uapi/asm-generic/unistd.h) of aarch64 and riscv64.
_GENERIC: Final = {
    "fcntl": 25, "inotify_init1": 26, "flock": 32, "syslog": 116, "add_key": 217,
    "request_key": 218, "keyctl": 219, "perf_event_open": 241, "fanotify_init": 262,
    "bpf": 280, "userfaultfd": 282, "io_uring_setup": 425, "fadvise64": 223, "mincore": 232,
    "preadv2": 286, "pwritev2": 287, "cachestat": 451, "futex": 98, "madvise": 233,
    "prctl": 167, "futex_waitv": 449, "futex_wake": 454, "futex_wait": 455,
    "futex_requeue": 456, "process_madvise": 440,
}  # fmt: skip

#: x86_64's table (arch/x86/entry/syscalls/syscall_64.tbl).
_X86_64: Final = {
    "fcntl": 72, "flock": 73, "syslog": 103, "add_key": 248, "request_key": 249, "keyctl": 250,
    "inotify_init": 253, "inotify_init1": 294, "perf_event_open": 298, "fanotify_init": 300,
    "bpf": 321, "userfaultfd": 323, "io_uring_setup": 425, "fadvise64": 221, "mincore": 27,
    "preadv2": 327, "pwritev2": 328, "cachestat": 451, "futex": 202, "madvise": 28,
    "prctl": 157, "futex_waitv": 449, "futex_wake": 454, "futex_wait": 455,
    "futex_requeue": 456, "process_madvise": 440,
}  # fmt: skip

#: The machines the filter is built for, by ``uname -m``.
ARCHES: Final[Mapping[str, Arch]] = {
    "x86_64": Arch("x86_64", 0xC000003E, _X86_64, foreign_bit=0x40000000),
    "aarch64": Arch("aarch64", 0xC00000B7, _GENERIC),
    "riscv64": Arch("riscv64", 0xC00000F3, _GENERIC),
}


class SeccompUnavailable(SandboxUnavailable):
    """No filter can be built for this machine."""


# Classic BPF, as seccomp runs it (linux/filter.h, linux/seccomp.h).
_LD_ABS: Final = 0x20  # BPF_LD | BPF_W | BPF_ABS: A = the 32-bit word at offset k
_JEQ: Final = 0x15  # BPF_JMP | BPF_JEQ | BPF_K: jump jt if A == k, else jf
_JGE: Final = 0x35  # BPF_JMP | BPF_JGE | BPF_K: jump jt if A >= k, else jf
_JSET: Final = 0x45  # BPF_JMP | BPF_JSET | BPF_K: jump jt if A & k, else jf
_AND: Final = 0x54  # BPF_ALU | BPF_AND | BPF_K: A &= k
_RET: Final = 0x06  # BPF_RET | BPF_K: the verdict k
_ERRNO: Final = 0x00050000  # SECCOMP_RET_ERRNO: the call returns -(the low 16 bits)
#: The verdicts end the program, in this order; a jump names one, or 0 for "go on".
VERDICTS: Final[Mapping[str, int]] = {
    "allow": 0x7FFF0000,  # SECCOMP_RET_ALLOW
    "eperm": _ERRNO | errno.EPERM,
    "kill": 0x80000000,  # SECCOMP_RET_KILL_PROCESS (older kernels kill the thread)
    "enosys": _ERRNO | errno.ENOSYS,
    "eagain": _ERRNO | errno.EAGAIN,
    "einval": _ERRNO | errno.EINVAL,
    "none_woken": _ERRNO | 0,  # the call returns 0 (a wake that woke nobody)
}
# struct seccomp_data: int nr; u32 arch; u64 instruction_pointer; u64 args[6] (little-endian
# on every machine here: an argument's low word comes first).
_NR, _ARCH = 0, 4


def _arg_low(index: int) -> int:
    return 16 + 8 * index


def build(arch: Arch) -> bytes:
    """The filter for ``arch``: an array of ``struct sock_filter``, as bubblewrap reads it.

    The calls it looks into (``futex``, ``madvise``, ``prctl``, ``fcntl``) each have a block
    that reads the argument that matters (its low 32 bits: the kernel reads these as ints)
    and ends in a verdict; every other call is allowed, denied or absent by its number alone.
    """
    numbers = arch.numbers
    code: list[tuple[int, int | str, int | str, int]] = [
        (_LD_ABS, 0, 0, _ARCH),
        (_JEQ, 0, "kill", arch.audit_arch),  # another table's numbers mean other calls
        (_LD_ABS, 0, 0, _NR),
    ]
    if arch.foreign_bit is not None:
        code.append((_JGE, "kill", 0, arch.foreign_bit))
    code += [(_JEQ, "eperm", 0, numbers[n]) for n in DENIED_SYSCALLS if n in numbers]
    code += [(_JEQ, "enosys", 0, numbers[n]) for n in ABSENT_SYSCALLS if n in numbers]
    blocks: list[tuple[str, list[tuple[int, int | str, int | str, int]]]] = [
        ("futex", [
            (_LD_ABS, 0, 0, _arg_low(1)),  # futex(uaddr, op, ...)
            (_JSET, "allow", 0, FUTEX_PRIVATE_FLAG),
            (_AND, 0, 0, _FUTEX_CMD_MASK),
            *[(_JEQ, verdict, 0, command) for command, verdict in FUTEX_RULES.values()],
            (_JEQ, "enosys", "enosys", 0),  # every other shared command
        ]),
        ("madvise", [
            (_LD_ABS, 0, 0, _arg_low(2)),  # madvise(addr, length, advice)
            *[(_JEQ, "einval", 0, advice) for advice in DENIED_MADVISE.values()],
            (_JEQ, "allow", "allow", 0),
        ]),
        ("prctl", [
            (_LD_ABS, 0, 0, _arg_low(0)),  # prctl(option, ...)
            *[(_JEQ, "einval", 0, option) for option in DENIED_PRCTL.values()],
            (_JEQ, "allow", "allow", 0),
        ]),
        ("fcntl", [
            (_LD_ABS, 0, 0, _arg_low(1)),  # fcntl(fd, cmd, arg)
            *[(_JEQ, "eperm", 0, command) for command in DENIED_FCNTL.values()],
            (_JEQ, "allow", "allow", 0),
        ]),
    ]  # fmt: skip
    code += [(_JEQ, f"block:{name}", 0, numbers[name]) for name, _ in blocks]
    code.append((_JEQ, "allow", "allow", 0))
    labels: dict[str, int] = {}
    for name, block in blocks:
        labels[f"block:{name}"] = len(code)
        code += block
    end = len(code)  # the first verdict
    labels.update({name: end + i for i, name in enumerate(VERDICTS)})
    program = bytearray()
    for index, (op, jt, jf, k) in enumerate(code):
        jumps = [0 if j == 0 else labels[str(j)] - index - 1 for j in (jt, jf)]
        if max(jumps) > 255:
            raise AssertionError("a jump of the filter is longer than BPF allows")
        program += struct.pack("=HBBI", op, *jumps, k)
    for verdict in VERDICTS.values():
        program += struct.pack("=HBBI", _RET, 0, 0, verdict)
    return bytes(program)


@functools.cache
def bot_filter() -> bytes:
    """The filter for this machine.

    :raises SeccompUnavailable: this machine is not one of :data:`ARCHES` (or this Python is
        a 32-bit one on it).
    """
    machine = os.uname().machine
    if machine not in ARCHES or sys.maxsize < 2**32 or sys.byteorder != "little":
        raise SeccompUnavailable(
            f"the sandbox has no system call filter for this machine ({machine}); it has "
            f"one for {', '.join(ARCHES)}"
        )
    return build(ARCHES[machine])


def filter_fd() -> int:
    """A new descriptor to read :func:`bot_filter` from, for one bubblewrap start: pass it
    with ``--seccomp FD`` (and ``pass_fds``), and close it once bubblewrap is started.

    Bubblewrap reads the descriptor to its end and closes it, so each start needs a new one:
    a file or memfd passed twice would be at its end the second time. It is a pipe holding
    the whole filter (far less than a pipe's smallest buffer, one page), so nothing waits.
    """
    program = bot_filter()
    read_end, write_end = os.pipe()
    try:
        os.write(write_end, program)
    finally:
        os.close(write_end)
    return read_end
