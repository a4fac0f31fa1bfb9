"""The bots' system call filter (zole_arena/isolation/seccomp.py), through the kernel.

Real programs run in the real sandbox (``sandbox.bwrap_argv``) with the filter given to
bubblewrap as ``--seccomp FD``, and each is run again without it: what the filter denies must
work without it (so the test shows the filter, not the kernel, said no), and what it allows
must work with it. An evaluator of the filter's BPF checks the programs built for the machines
this one is not, and libseccomp's tables (where it is installed) check the numbers.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import errno
import fcntl
import json
import os
import shlex
import shutil
import signal
import struct
import subprocess
from collections.abc import Sequence
from pathlib import Path

import pytest
from clihelp import PY, ok, zole

from zole_arena.catalogue.bundled import bundled_command, c_compiler
from zole_arena.isolation.sandbox import Sandbox, bwrap_argv, check_available
from zole_arena.isolation.seccomp import (
    ABSENT_SYSCALLS,
    ARCHES,
    DENIED_FCNTL,
    DENIED_MADVISE,
    DENIED_PRCTL,
    DENIED_SYSCALLS,
    FUTEX_PRIVATE_FLAG,
    VERDICTS,
    SeccompUnavailable,
    bot_filter,
    build,
    filter_fd,
)

TIMEOUT = 60
ALLOW, EPERM, KILL = 0x7FFF0000, 0x00050000 | errno.EPERM, 0x80000000
#: bubblewrap's exit status for a program killed by a signal.
KILLED_BY_SECCOMP = 128 + signal.SIGSYS


def boxed(argv: Sequence[str], cwd: Path, fd: int | None) -> list[str]:
    """The real sandbox's command line for ``argv``, with the filter read from ``fd``."""
    args = bwrap_argv(check_available(), argv, cwd=str(cwd), sandbox=Sandbox(), env={})
    return args if fd is None else [args[0], "--seccomp", str(fd), *args[1:]]


def run_boxed(
    argv: Sequence[str], cwd: Path, *, filtered: bool, stdin: str = ""
) -> subprocess.CompletedProcess[str]:
    """Run ``argv`` in the sandbox, with the filter or without it."""
    fd = filter_fd() if filtered else None
    try:
        return subprocess.run(boxed(argv, cwd, fd), input=stdin, capture_output=True,
                              text=True, timeout=TIMEOUT, pass_fds=() if fd is None else (fd,),
                              check=False)  # fmt: skip
    finally:
        if fd is not None:
            os.close(fd)


# -- the program, checked without the kernel: every machine it is built for ----------------


def evaluate(program: bytes, arch: int, nr: int, args: Sequence[int] = ()) -> int:
    """The verdict of a seccomp-BPF ``program`` on a call, run as the kernel runs it (the
    instructions the filter uses; any other fails the test)."""
    data = struct.pack("=iIQ6Q", nr, arch, 0, *[*args, 0, 0, 0, 0, 0, 0][:6])
    code = [struct.unpack_from("=HBBI", program, at) for at in range(0, len(program), 8)]
    pc, acc = 0, 0
    while True:
        op, jt, jf, k = code[pc]
        if op == 0x20:  # A = data[k]
            acc, pc = struct.unpack_from("=I", data, k)[0], pc + 1
        elif op in (0x15, 0x35, 0x45):  # if A == k / A >= k / A & k
            taken = acc == k if op == 0x15 else acc >= k if op == 0x35 else acc & k
            pc += 1 + (jt if taken else jf)
        elif op == 0x54:  # A &= k
            acc, pc = acc & k, pc + 1
        elif op == 0x06:
            return int(k)
        else:
            raise AssertionError(f"instruction {op:#x} at {pc}")


#: fcntl commands programs use, which must keep working (linux/fcntl.h).
ALLOWED_FCNTL = {"F_DUPFD": 0, "F_GETFD": 1, "F_SETFD": 2, "F_GETFL": 3, "F_SETFL": 4,
                 "F_SETOWN": 8, "F_GETOWN": 9, "F_SETSIG": 10, "F_GETSIG": 11,
                 "F_DUPFD_CLOEXEC": 1030, "F_ADD_SEALS": 1033, "F_GET_SEALS": 1034}  # fmt: skip


@pytest.mark.parametrize("machine", sorted(ARCHES))
def test_the_program_denies_the_channels_and_allows_the_rest(machine: str) -> None:
    arch = ARCHES[machine]
    program = build(arch)
    assert len(program) % 8 == 0 and len(program) // 8 < 4096  # BPF_MAXINSNS
    audit, fcntl_nr = arch.audit_arch, arch.numbers["fcntl"]
    assert {"flock", "inotify_init", "inotify_init1", "fanotify_init"} <= DENIED_SYSCALLS.keys()
    assert {"flock", "inotify_init1", "fanotify_init"} <= arch.numbers.keys()
    looked_into = {arch.numbers[name] for name in ("fcntl", "futex", "madvise", "prctl")}
    denied = {number for name, number in arch.numbers.items() if name in DENIED_SYSCALLS}
    absent = {number for name, number in arch.numbers.items() if name in ABSENT_SYSCALLS}
    for name, number in arch.numbers.items():
        if name in DENIED_SYSCALLS:
            assert evaluate(program, audit, number) == EPERM, name
        elif name in ABSENT_SYSCALLS:
            assert evaluate(program, audit, number) == VERDICTS["enosys"], name
    for name, command in DENIED_FCNTL.items():
        assert evaluate(program, audit, fcntl_nr, (3, command)) == EPERM, name
        # The kernel reads the command as 32 bits: high bits must not get it past.
        assert evaluate(program, audit, fcntl_nr, (3, command | 1 << 32)) == EPERM, name
    for name, command in ALLOWED_FCNTL.items():
        assert evaluate(program, audit, fcntl_nr, (3, command)) == ALLOW, name
    for nr in set(range(600)) - denied - absent - looked_into:
        assert evaluate(program, audit, nr, (3, DENIED_FCNTL["F_SETLK"])) == ALLOW, nr


@pytest.mark.parametrize("machine", sorted(ARCHES))
def test_the_program_allows_private_futexes_only(machine: str) -> None:
    """Every futex command with the private flag (and the realtime-clock flag, or high bits
    the kernel does not read) is allowed; a shared wait gets EAGAIN, a shared wake 0, and
    every other shared command ENOSYS."""
    arch = ARCHES[machine]
    program, audit, futex = build(arch), arch.audit_arch, arch.numbers["futex"]
    for command in range(14):
        for clock in (0, 256):
            private = command | FUTEX_PRIVATE_FLAG | clock
            assert evaluate(program, audit, futex, (0, private)) == ALLOW, command
            assert evaluate(program, audit, futex, (0, private | 1 << 32)) == ALLOW, command
            shared = evaluate(program, audit, futex, (0, command | clock))
            expected = {0: "eagain", 9: "eagain", 1: "none_woken", 10: "none_woken",
                        3: "none_woken", 4: "none_woken"}.get(command, "enosys")  # fmt: skip
            assert shared == VERDICTS[expected], (command, clock, hex(shared))
    assert VERDICTS["none_woken"] & 0xFFFF == 0  # SECCOMP_RET_ERRNO of 0: the call returns 0


@pytest.mark.parametrize("machine", sorted(ARCHES))
def test_the_program_refuses_page_cache_and_merge_advice(machine: str) -> None:
    arch = ARCHES[machine]
    program, audit = build(arch), arch.audit_arch
    madvise, prctl = arch.numbers["madvise"], arch.numbers["prctl"]
    for advice in range(30):
        verdict = evaluate(program, audit, madvise, (0, 4096, advice))
        denied = advice in DENIED_MADVISE.values()
        assert verdict == (VERDICTS["einval"] if denied else ALLOW), advice
    for option in range(80):
        verdict = evaluate(program, audit, prctl, (option, 0))
        denied = option in DENIED_PRCTL.values()
        assert verdict == (VERDICTS["einval"] if denied else ALLOW), option


@pytest.mark.parametrize("machine", sorted(ARCHES))
def test_the_program_kills_calls_of_another_table(machine: str) -> None:
    """A call of a table the filter was not written for is killed: i386 and x32 on x86_64,
    32-bit ARM on aarch64, 32-bit RISC-V, and any other."""
    arch = ARCHES[machine]
    program = build(arch)
    foreign = {0x40000003, 0x4000003E, 0x40000028, 0x400000F3, 0, *(
        a.audit_arch for a in ARCHES.values() if a is not arch)}  # fmt: skip
    for other in foreign:
        for nr in (0, 1, 39, 55, 143, 221, 25, 32):
            assert evaluate(program, other, nr) == KILL, (hex(other), nr)
    if arch.foreign_bit is not None:  # x32: x86_64's audit arch, numbers with a high bit
        for nr in (0, 72, 73, 512, 547):
            assert evaluate(program, arch.audit_arch, nr | arch.foreign_bit) == KILL, nr


def test_the_fcntl_commands_are_linuxs() -> None:
    for name, value in DENIED_FCNTL.items():
        assert getattr(fcntl, name) == value, name
    for name, value in ALLOWED_FCNTL.items():
        assert getattr(fcntl, name, value) == value, name


def test_the_numbers_are_libseccomps() -> None:
    """The hand-written tables agree with libseccomp's for every machine, wherever
    libseccomp is installed (the filter itself does not need it)."""
    found = ctypes.util.find_library("seccomp")
    if found is None:
        pytest.skip("libseccomp is not installed: nothing to check the numbers against")
    lib = ctypes.CDLL(found)
    resolve = lib.seccomp_syscall_resolve_name_arch
    resolve.argtypes, resolve.restype = [ctypes.c_uint32, ctypes.c_char_p], ctypes.c_int
    for arch in ARCHES.values():
        for name in [*DENIED_SYSCALLS, "fcntl"]:
            number = resolve(arch.audit_arch, name.encode())
            assert arch.numbers.get(name, -1) == (number if number >= 0 else -1), (arch, name)
        for name in [*ABSENT_SYSCALLS, "futex", "madvise", "prctl"]:  # newer than some
            number = resolve(arch.audit_arch, name.encode())  # libseccomps: where it knows
            assert number < 0 or arch.numbers[name] == number, (arch, name)


def test_bot_filter_is_this_machines() -> None:
    machine = os.uname().machine
    if machine not in ARCHES:
        with pytest.raises(SeccompUnavailable, match="no system call filter"):
            bot_filter()
        return
    assert bot_filter() == build(ARCHES[machine])


# -- through the kernel -----------------------------------------------------------------------

PROBE_C = r"""
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <sys/inotify.h>
#include <sys/fanotify.h>
#include <sys/syscall.h>
#include <unistd.h>

static void say(const char *name, long result) {
    printf("%s %d\n", name, result < 0 ? errno : 0);
    fflush(stdout);
}

static long lock(int fd, long cmd, short type) {
    struct flock l = {.l_type = type, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0};
    return syscall(SYS_fcntl, fd, cmd, &l);
}

int main(int argc, char **argv) {
#ifdef __x86_64__
    if (argc > 1 && strcmp(argv[1], "i386") == 0) {  /* getpid through int 0x80 */
        long pid;
        printf("i386 start\n"); fflush(stdout);
        __asm__ volatile("int $0x80" : "=a"(pid) : "a"(20L) : "memory");
        printf("i386 %ld\n", pid);
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "x32") == 0) {  /* getpid in the x32 table */
        printf("x32 start\n"); fflush(stdout);
        say("x32", syscall(0x40000000L | 39));
        return 0;
    }
#endif
    int fd = open(argv[0], O_RDONLY), dir = open(".", O_RDONLY | O_DIRECTORY);
    /* Before F_NOTIFY: a read in the watched folder would raise its SIGIO. */
    int pipes[2];
    if (pipe(pipes) == 0) {
        say("F_GETPIPE_SZ", fcntl(pipes[0], F_GETPIPE_SZ));
        say("F_SETPIPE_SZ", fcntl(pipes[0], F_SETPIPE_SZ, 65536));
    }
    /* The page cache's calls: to evict a file's pages, and to see which are cached. */
    say("fadvise64", syscall(SYS_fadvise64, fd, 0L, 0L, 0 /* POSIX_FADV_NORMAL */));
    unsigned char cached;
    void *page = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0);
    say("mincore", syscall(SYS_mincore, page, 4096L, &cached));
    char byte;
    struct iovec iov = {.iov_base = &byte, .iov_len = 1};
    say("preadv2", syscall(SYS_preadv2, fd, &iov, 1, 0L, 0L, 0x8 /* RWF_NOWAIT */));
    say("pwritev2", syscall(SYS_pwritev2, fd, &iov, 0, 0L, 0L, 0));
#ifndef SYS_cachestat
#define SYS_cachestat 451
#endif
    say("cachestat", syscall(SYS_cachestat, fd, NULL, NULL, 0));
    say("flock", flock(fd, LOCK_SH));
    say("F_GETLK", lock(fd, F_GETLK, F_WRLCK));
    say("F_SETLK", lock(fd, F_SETLK, F_RDLCK));
    say("F_SETLK_HIGH_BITS", lock(fd, 0x100000000L | F_SETLK, F_RDLCK));
    say("F_SETLKW", lock(fd, F_SETLKW, F_RDLCK));
    say("F_OFD_GETLK", lock(fd, F_OFD_GETLK, F_WRLCK));
    say("F_OFD_SETLK", lock(fd, F_OFD_SETLK, F_RDLCK));
    say("F_OFD_SETLKW", lock(fd, F_OFD_SETLKW, F_RDLCK));
    say("F_GETLEASE", fcntl(fd, F_GETLEASE));
    say("F_SETLEASE", fcntl(fd, F_SETLEASE, F_RDLCK));
    say("F_NOTIFY", fcntl(dir, F_NOTIFY, DN_ACCESS));
    say("F_GETFL", fcntl(fd, F_GETFL));
    say("F_SETFL", fcntl(fd, F_SETFL, O_NONBLOCK));
    say("F_GETFD", fcntl(fd, F_GETFD));
    say("F_SETFD", fcntl(fd, F_SETFD, FD_CLOEXEC));
    say("F_DUPFD", fcntl(fd, F_DUPFD, 10));
    say("F_DUPFD_CLOEXEC", fcntl(fd, F_DUPFD_CLOEXEC, 20));
#ifdef SYS_inotify_init
    say("inotify_init", syscall(SYS_inotify_init));
#endif
    say("inotify_init1", inotify_init1(IN_CLOEXEC));
    say("fanotify_init", fanotify_init(FAN_CLASS_NOTIF | FAN_REPORT_FID, O_RDONLY));
    /* Arguments the kernel refuses with an errno of its own, or accepts, but not EPERM. */
    say("userfaultfd", syscall(SYS_userfaultfd, 1 /* UFFD_USER_MODE_ONLY */));
    say("perf_event_open", syscall(SYS_perf_event_open, NULL, 0, -1, -1, 0));
    say("io_uring_setup", syscall(SYS_io_uring_setup, 1, NULL));
    say("bpf", syscall(SYS_bpf, 0x7fffffff, NULL, 0));
    say("keyctl", syscall(SYS_keyctl, 0x7fffffff, 0, 0, 0, 0));
    say("add_key", syscall(SYS_add_key, NULL, NULL, NULL, 0, 0));
    say("request_key", syscall(SYS_request_key, NULL, NULL, NULL, 0));
    say("syslog", syscall(SYS_syslog, 10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0));
    return 0;
}
"""
#: What the kernel itself may refuse with EPERM, filter or not (kernel.dmesg_restrict, and
#: kernel.unprivileged_bpf_disabled on older kernels): the evaluation above shows that the
#: filter denies them too.
KERNEL_MAY_DENY = {"bpf", "syslog"}
DENIED = {*DENIED_FCNTL, "F_SETLK_HIGH_BITS", *DENIED_SYSCALLS}
ALLOWED = {"F_GETFL", "F_SETFL", "F_GETFD", "F_SETFD", "F_DUPFD", "F_DUPFD_CLOEXEC"}


@pytest.fixture(scope="module")
def probe(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The C probe, built."""
    compiler = c_compiler()
    if compiler is None:
        pytest.skip("the probe is a C program: no C compiler here")
    folder = tmp_path_factory.mktemp("probe")
    (folder / "probe.c").write_text(PROBE_C)
    subprocess.run([compiler, "-O1", "-o", str(folder / "probe"), str(folder / "probe.c")],
                   check=True, timeout=TIMEOUT)  # fmt: skip
    return folder / "probe"


def probe_results(probe: Path, filtered: bool) -> dict[str, int]:
    done = run_boxed([str(probe)], probe.parent, filtered=filtered)
    assert done.returncode == 0, done.stdout + done.stderr
    return {name: int(code) for name, code in (line.split() for line in done.stdout.splitlines())}


def test_the_filter_denies_locks_leases_and_watches_and_nothing_else(probe: Path) -> None:
    plain = probe_results(probe, filtered=False)
    filtered = probe_results(probe, filtered=True)
    assert plain.keys() == filtered.keys()
    assert set(filtered) >= DENIED - {"inotify_init"} | ALLOWED
    wrong = {name: errno.errorcode.get(code, code) for name, code in filtered.items()
             if code != (errno.EPERM if name in DENIED else 0)}  # fmt: skip
    assert not wrong, f"with the filter: {wrong}"
    # Without the filter the same calls reach the kernel: it is the filter that refuses.
    refused = {name for name, code in plain.items() if code == errno.EPERM}
    assert not refused - KERNEL_MAY_DENY, f"refused without the filter: {refused}"
    for name in DENIED_FCNTL.keys() | {"flock", "inotify_init1", *ALLOWED}:
        assert plain[name] == 0, (name, errno.errorcode.get(plain[name]))


@pytest.mark.skipif(os.uname().machine != "x86_64", reason="i386 and x32 calls are x86_64's")
@pytest.mark.parametrize("table", ["i386", "x32"])
def test_calls_of_another_table_kill_the_bot(probe: Path, table: str) -> None:
    """On x86_64 a 64-bit program can still make i386 calls (``int 0x80``) and x32 calls,
    numbered differently: under the filter the first one kills it."""
    plain = run_boxed([str(probe), table], probe.parent, filtered=False)
    if table == "i386" and plain.returncode != 0:
        pytest.skip(f"this kernel runs no i386 calls (exit {plain.returncode}): no way past")
    assert plain.returncode == 0 and f"{table} start" in plain.stdout, plain
    assert len(plain.stdout.splitlines()) == 2, plain.stdout  # the call returned
    filtered = run_boxed([str(probe), table], probe.parent, filtered=True)
    assert filtered.returncode == KILLED_BY_SECCOMP, filtered
    assert filtered.stdout.splitlines() == [f"{table} start"]


CHANNEL_PY = r"""
import fcntl, os, stat, struct, sys

role, kind, word = sys.argv[1], sys.argv[2], sys.argv[3]
fds, inodes = [], set()
for name in sorted(os.listdir("/usr/bin")):  # the same inodes in every sandbox
    info = os.lstat(os.path.join("/usr/bin", name))
    if stat.S_ISREG(info.st_mode) and info.st_ino not in inodes and len(fds) < len(word):
        inodes.add(info.st_ino)
        fds.append(os.open(os.path.join("/usr/bin", name), os.O_RDONLY))

def region(type):  # a struct flock of the whole file
    return struct.pack("hhqqi4x", type, os.SEEK_SET, 0, 0, 0)

def send(fd):
    if kind == "flock":
        fcntl.flock(fd, fcntl.LOCK_SH)
    else:
        fcntl.fcntl(fd, fcntl.F_SETLK if kind == "posix" else fcntl.F_OFD_SETLK,
                    region(fcntl.F_RDLCK))

def locked(fd):
    if kind == "flock":
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        fcntl.flock(fd, fcntl.LOCK_UN)
        return False
    command = fcntl.F_GETLK if kind == "posix" else fcntl.F_OFD_GETLK
    found = fcntl.fcntl(fd, command, region(fcntl.F_WRLCK))
    return struct.unpack("h", found[:2])[0] != fcntl.F_UNLCK

def bit(call, fd, default):
    try:
        return call(fd)
    except PermissionError:
        return default

if role == "send":
    refused = [bit(send, fd, "refused") for fd, b in zip(fds, word) if b == "1"]
    print("ready", refused.count("refused"), flush=True)
    sys.stdin.read()  # hold the locks until told
else:
    print("".join({True: "1", False: "0", None: "?"}[bit(locked, fd, None)] for fd in fds))
"""
WORD = "101100111000101011110000110100101"  # a hand's worth of bits


@pytest.mark.parametrize("kind", ["flock", "posix", "ofd"])
def test_two_sandboxed_bots_pass_nothing_through_file_locks(tmp_path: Path, kind: str) -> None:
    """The red team's channel (a lock per bit on shared read-only files, tried by the other
    bot) between two sandboxes: it decodes the word without the filter, nothing with it."""
    script = tmp_path / "channel.py"
    script.write_text(CHANNEL_PY)
    received = {}
    for filtered in (False, True):
        fd = filter_fd() if filtered else None
        sender = subprocess.Popen(
            boxed([PY, str(script), "send", kind, WORD], tmp_path, fd),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
            pass_fds=() if fd is None else (fd,),
        )  # fmt: skip
        if fd is not None:
            os.close(fd)
        try:
            assert sender.stdout is not None and sender.stdin is not None
            ready = sender.stdout.readline().split()  # the locks are held from here on
            assert ready[0] == "ready", ready
            receiver = run_boxed([PY, str(script), "recv", kind, WORD], tmp_path,
                                 filtered=filtered)  # fmt: skip
            assert receiver.returncode == 0, receiver.stderr
            received[filtered] = (int(ready[1]), receiver.stdout.strip())
        finally:
            if sender.stdin is not None:
                sender.stdin.close()
            sender.wait(TIMEOUT)
    assert received[False] == (0, WORD), "the channel does not work without the filter"
    assert received[True] == (WORD.count("1"), "?" * len(WORD)), received[True]


# -- real bots still play ---------------------------------------------------------------------


def filtered_command(argv: Sequence[str], cwd: Path, filter_file: Path) -> list[str]:
    """A command that runs ``argv`` in the sandbox under the filter: a shell opens the filter
    as descriptor 3 and becomes bubblewrap (a bot command of an unsandboxed match)."""
    return ["sh", "-c", 'exec "$@" 3<"$0"', str(filter_file), *boxed(argv, cwd, 3)]


def test_python_and_c_bots_play_a_match_under_the_filter(tmp_path: Path) -> None:
    if c_compiler() is None:
        pytest.skip("cbot needs a C compiler")
    filter_file = tmp_path / "filter.bpf"
    filter_file.write_bytes(bot_filter())
    # The wrapper really filters: what it runs is in seccomp's filter mode, and gets no lock.
    code = "import fcntl; print(open('/proc/self/status').read()); fcntl.flock(0, 1)"
    argv = filtered_command([PY, "-c", code], tmp_path, filter_file)
    check = subprocess.run(argv, capture_output=True, text=True, timeout=TIMEOUT, check=False)
    assert "Seccomp:\t2" in check.stdout and "PermissionError" in check.stderr, check
    players = [f"{name}={shlex.join(filtered_command(bundled_command(bot), tmp_path, filter_file))}"
               for name, bot in (("py", "random"), ("c", "cbot"))]  # fmt: skip
    log = tmp_path / "m.jsonl"
    done = ok(zole("match", *players, "rulebot", "--deals", "6", "--seed", "3",
                   "--log", str(log), cwd=tmp_path, timeout=TIMEOUT))  # fmt: skip
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert len([r for r in records if r.get("type") == "deal"]) == 6, done.stdout
    assert not [r for r in records if r.get("type") == "fault"], done.stdout
    for name in ("py", "c"):
        stderr = (tmp_path / f"m.jsonl.{name}.stderr").read_text()
        assert "Traceback" not in stderr and "Operation not permitted" not in stderr, stderr
    ok(zole("verify", str(log), cwd=tmp_path))


ECHO_JAVA = """
public class Echo {
    public static void main(String[] args) throws Exception {
        byte[] buffer = new byte[4096];
        for (int n; (n = System.in.read(buffer)) > 0;) System.out.write(buffer, 0, n);
        System.out.flush();
    }
}
"""


@pytest.mark.parametrize("runtime", ["node", "java"])
def test_other_runtimes_run_under_the_filter(tmp_path: Path, runtime: str) -> None:
    """Node (whose libuv tries io_uring first) and a JVM (which locks its perf-data file)
    echo their input under the filter."""
    if shutil.which(runtime) is None:
        pytest.skip(f"{runtime} is not installed")
    (tmp_path / "Echo.java").write_text(ECHO_JAVA)
    argv = {
        "node": ["node", "-e", "process.stdin.on('data', d => process.stdout.write(d))"],
        "java": ["java", "-Xshare:off", str(tmp_path / "Echo.java")],
    }[runtime]
    done = run_boxed(argv, tmp_path, filtered=True, stdin="hello\n")
    assert done.returncode == 0, done
    # Before it, the JVM's warning that it cannot lock its perf-data file: a line the protocol
    # ignores (``-XX:-UsePerfData`` leaves it out).
    *before, last = done.stdout.splitlines()
    assert last == "hello" and all(line.startswith("[") for line in before), done.stdout
