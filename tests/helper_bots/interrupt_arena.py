"""Plays the first legal action, and at its Nth ``go`` (default 20) sends SIGINT to the arena
that started it instead of answering: Ctrl-C arrives while the arena waits for a bot, in the
middle of a deal. It writes its pid to its stderr first (``pid 1234``)."""

import os
import signal
import sys

sys.stderr.write(f"pid {os.getpid()}\n")
sys.stderr.flush()
stop_at = int(sys.argv[1]) if len(sys.argv) > 1 else 20
goes = 0
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "zole":
        print("id name InterruptArena\nzoleok 1", flush=True)
    elif words[0] == "isready":
        print("readyok", flush=True)
    elif words[0] == "go":
        goes += 1
        if goes == stop_at:
            os.kill(os.getppid(), signal.SIGINT)
            continue  # no answer: the arena is interrupted while it waits for one
        fields = dict(zip(words[1::2], words[2::2], strict=False))
        legal = fields["legal"].split(",")
        action = " ".join(legal[:2]) if fields["phase"] == "bury" else legal[0]
        print(f"action {fields['id']} {action}", flush=True)
    elif words[0] == "quit":
        break
