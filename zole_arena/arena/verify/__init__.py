"""Checking whole logs, for ``verify``: a package of the verifier (:mod:`.verifier`), the
checks of one deal (:mod:`.deals`), of a tournament's tables (:mod:`.tables`) and what is
reported (:mod:`.findings`).

:func:`verify_log` streams a log (one record at a time, so memory does not grow with the file)
and checks, besides each deal's replay (:func:`~zole_arena.arena.replay.replay_record`): the
headers (:func:`~zole_arena.records.checks.check_header`); each deal against its match's
header (rules, seed, players and the programs they ran, and the deal the schedule puts at
its number); a tournament's tables against its entrants; the running
totals and pules of each seating's score sheet; the forfeits and their faults; the order of
the hands; and, in a format-2 log, the hash chain
(each line's ``prev`` is the SHA-256 of the line before) and, when one is given, the digest.
"""

from zole_arena.arena.verify.findings import DIGEST_RE, Finding, Kind, VerifyReport
from zole_arena.arena.verify.verifier import verify_log

__all__ = [
    "DIGEST_RE",
    "Finding",
    "Kind",
    "VerifyReport",
    "verify_log",
]
