"""Game records: the JSON-lines log a match, a tournament or a test writes, as typed values.

:mod:`~zole_arena.records.model` holds the records (match and tournament headers, deal records
and their parts), :mod:`~zole_arena.records.writer` the one writer (records to the bytes of a
log, chained line by line), :mod:`~zole_arena.records.reader` the one lenient reader (a log's
lines to records, or to one-line problems), and :mod:`~zole_arena.records.checks` what a
well-formed record is. ``protocol/records.md`` is the format.
"""
