"""Game records: the JSON-lines log a match, a tournament or a test writes, its writer and its
lenient readers, and the checks a record must pass (``protocol/records.md`` is the format)."""
