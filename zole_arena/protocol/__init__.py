"""Protocol v1 as text, with no I/O: what the arena writes to a bot (:mod:`.encode`), what it
reads from one (:mod:`.parse`), and the answers of ``action`` lines (:mod:`.answers`).
``protocol/README.md`` is the page bot authors read."""

from zole_arena.protocol.answers import answer_text, parse_answer
from zole_arena.protocol.encode import (
    ISREADY,
    PROTOCOL_VERSION,
    QUIT,
    ZOLE,
    DealWriter,
    bid_event,
    card_event,
    events_after,
    result_event,
    rules_fields,
    setoption_line,
    sitout_event,
    trick_event,
)
from zole_arena.protocol.parse import (
    ActionReply,
    BotLine,
    IdLine,
    InfoLine,
    OptionDecl,
    ReadyOk,
    UnknownLine,
    ZoleOk,
    parse_bot_line,
    plays_at,
    tables_said,
)

__all__ = [
    "ISREADY",
    "PROTOCOL_VERSION",
    "QUIT",
    "ZOLE",
    "ActionReply",
    "BotLine",
    "DealWriter",
    "IdLine",
    "InfoLine",
    "OptionDecl",
    "ReadyOk",
    "UnknownLine",
    "ZoleOk",
    "answer_text",
    "bid_event",
    "card_event",
    "events_after",
    "parse_answer",
    "parse_bot_line",
    "plays_at",
    "tables_said",
    "result_event",
    "sitout_event",
    "rules_fields",
    "setoption_line",
    "trick_event",
]
