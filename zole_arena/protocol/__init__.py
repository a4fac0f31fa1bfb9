"""Protocol v1 as text: the lines the arena writes to a bot and parses from it, with no I/O
(``protocol/README.md`` is the page bot authors read)."""
