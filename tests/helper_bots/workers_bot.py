#!/usr/bin/env python3
"""An honest bot that thinks with helpers: threads and processes that share locks.

At each ``go`` it counts to a total in four threads under one ``threading.Lock`` (private
futexes, glibc's default), in four ``multiprocessing`` processes under one
``multiprocessing.Lock`` (a process-shared POSIX semaphore: shared futexes), and through a
``multiprocessing.Pool`` (queues guarded by the same kind of locks); then it answers with a
random legal action. Every lock is contended on purpose. It writes one line per decision to
stderr, ``WORKED threads=N processes=N pool=N``, which the tests compare with the totals it
must reach.
"""

from __future__ import annotations

import multiprocessing
import random
import sys
import threading

COUNT = 2000
HELPERS = 4


def _threads() -> int:
    lock, total = threading.Lock(), [0]

    def work() -> None:
        for _ in range(COUNT):
            with lock:
                total[0] += 1

    threads = [threading.Thread(target=work) for _ in range(HELPERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return total[0]


def _count(lock: object, total: object) -> None:
    for _ in range(COUNT):
        with lock:  # type: ignore[attr-defined]
            total.value += 1  # type: ignore[attr-defined]


def _processes(context: multiprocessing.context.BaseContext) -> int:
    lock = context.Lock()
    total = context.Value("i", 0, lock=False)
    workers = [context.Process(target=_count, args=(lock, total)) for _ in range(HELPERS)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return int(total.value)


def main() -> None:
    context = multiprocessing.get_context("fork")
    rng = random.Random()
    with context.Pool(2) as pool:
        for line in sys.stdin:
            words = line.split()
            if not words:
                continue
            if words[0] == "zole":
                print("id name workers\nzoleok 1", flush=True)
            elif words[0] == "isready":
                print("readyok", flush=True)
            elif words[0] == "go":
                fields = dict(zip(words[1::2], words[2::2], strict=False))
                pooled = sum(pool.map(abs, range(-50, 50), chunksize=5))
                sys.stderr.write(f"WORKED threads={_threads()} processes={_processes(context)} "
                                 f"pool={pooled}\n")  # fmt: skip
                sys.stderr.flush()
                legal = fields["legal"].split(",")
                answer = " ".join(rng.sample(legal, 2)) if fields["phase"] == "bury" else (
                    rng.choice(legal))  # fmt: skip
                print(f"action {fields['id']} {answer}", flush=True)
            elif words[0] == "quit":
                break


if __name__ == "__main__":
    main()
