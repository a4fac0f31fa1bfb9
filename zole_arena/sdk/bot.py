"""A Zole bot as a Python class: :meth:`Bot.decide` takes a typed view and returns an action.

Subclass :class:`Bot`, write :meth:`~Bot.decide`, and the same object plays two ways:

* **as a protocol program** — ``MyBot().run()`` (or :func:`run_bot`)
  reads the arena's lines on standard input and answers on standard output, as
  ``protocol/README.md`` says, so ``zole-arena check "python3 mybot.py"``, ``match`` and
  ``tournament`` (sandboxed) take it like any other bot;
* **in the arena's own process** — a match seats the object itself
  (:meth:`BotConfig.in_process <zole_arena.players.session.BotConfig.in_process>`): no
  process, no pipe, no text; ``decide`` gets the same :class:`BotView`, built straight from the
  deal. That is fast self-play for training a bot; it is no sandbox (the object lives in the
  arena's memory), so it is for one's own bots, never for others'.

Every value is typed: cards are :class:`~zole_arena.game.cards.Card`, bids
:class:`~zole_arena.game.actions.Bid`, the answer an :data:`~zole_arena.game.actions.Action`
(a ``Bid``, a :class:`~zole_arena.game.actions.Bury` or a ``Card``). A bot may keep no state at
all: the view holds everything its seat may know. The hooks (``on_newdeal``, ``on_event``,
``on_result``, ``on_sitout``, ``on_option``, ``on_quit``) are there for bots that want them.

At a table of four (protocol/README.md §3) the dealer sits each deal out: the three who play
get an ordinary three-player deal, and the table around it as :class:`TableInfo` (on
:class:`DealStart` and :class:`BotView`) and :class:`TableEnd` (on :class:`DealEnd`); the one
who sits out is told :meth:`Bot.on_sitout`. A bot that plays only at three says so with
``tables = (3,)``.

>>> class FirstBot(Bot):
...     name = "First"
...     def decide(self, view: BotView) -> Action:
...         return view.legal_actions[0]
>>> FirstBot().name
'First'
"""

from __future__ import annotations

import contextlib
import gc
import sys
import time
from collections.abc import Sequence
from typing import TextIO

from zole_arena.game.actions import Action
from zole_arena.game.rules import Rules
from zole_arena.game.table import TABLE_SIZES
from zole_arena.protocol import PROTOCOL_VERSION
from zole_arena.sdk.notation import (
    format_action,
    option_line,
    parse_event,
    parse_go,
    parse_newdeal,
    parse_result,
    parse_setoption,
    parse_sitout,
)
from zole_arena.sdk.values import (
    BotView,
    DealEnd,
    DealStart,
    Event,
    Option,
    OptionValue,
    SitOut,
    TableInfo,
)

__all__ = ["Bot", "handshake_lines", "run_bot", "set_option", "tables_announced", "tell"]


class Bot:
    """A Zole bot: subclass it and write :meth:`decide`.

    Set ``name``, ``author`` and ``version`` as class attributes (the name defaults to the
    class's), and ``options`` to the :class:`Option` values the bot declares. Run it as a
    protocol program with :meth:`run`; seat it in a match in the arena's process with
    :meth:`BotConfig.in_process <zole_arena.players.session.BotConfig.in_process>`.

    ``decide`` must return a legal action in time: an exception is a *crash*, an action of the
    wrong kind for the phase is *garbage*, one the rules forbid is *illegal*, a late one a
    *timeout* — faults, recorded and handled like any bot's.

    A bot plays at tables of three and of four unless ``tables`` says otherwise: a bot that
    cannot play at four sets ``tables = (3,)``, and a match at four refuses it before the first
    deal (its handshake says ``id tables 3``).
    """

    name: str = ""
    author: str = ""
    version: str = ""
    options: Sequence[Option] = ()
    tables: tuple[int, ...] = (3, 4)
    """The table sizes the bot plays: 3, 4 or both (the default)."""
    timed: bool = True
    """Whether the clock holds in the arena's process: False for a person at the keyboard,
    or a bot stopped in a debugger, whose answers are never late. (A program is always
    timed.)"""

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        if not cls.__dict__.get("name"):
            cls.name = cls.__name__  # a class that names no bot is named after itself
        sizes = cls.tables
        if not sizes or not set(sizes) <= set(TABLE_SIZES):
            raise ValueError(f"{cls.__name__}.tables must name 3, 4 or both, not {sizes!r}")

    def decide(self, view: BotView) -> Action:
        """The action for this request: one of ``view.legal_actions``."""
        raise NotImplementedError(f"{type(self).__name__} must define decide(view)")

    def on_option(self, name: str, value: OptionValue) -> None:
        """An option was set (before the first deal) to a value that fits its declaration;
        ``name`` is the declared name."""

    def on_newdeal(self, deal: DealStart) -> None:
        """A deal begins. Told before the deal's first event and the bot's first request."""

    def on_event(self, event: Event) -> None:
        """Something public happened (a bid, a card, a finished trick). Events come in order,
        each before the bot's next request or the deal's result."""

    def on_result(self, end: DealEnd) -> None:
        """The deal is over."""

    def on_sitout(self, sitout: SitOut) -> None:
        """At a table of four, a deal this bot dealt and sat out is over: who played it, how it
        ended and what it did to the table. The bot is told nothing else of that deal (no
        ``on_newdeal``, events or requests); it plays the next deal as usual."""

    def on_quit(self) -> None:
        """The match is over."""

    def run(self) -> None:
        """Play as a protocol program on standard input and output until ``quit``."""
        run_bot(self)

    def option(self, name: str) -> Option | None:
        """The declared option called ``name`` (the exact name, else ignoring case)."""
        for option in self.options:
            if option.name == name:
                return option
        folded = name.casefold()
        return next((o for o in self.options if o.name.casefold() == folded), None)


def tables_announced(bot: Bot) -> str:
    """What the bot's handshake says of the table sizes it plays (``id tables``): its sizes,
    comma-separated, or "" when it plays at both 3 and 4 (then it says nothing, as the
    protocol's default is both)."""
    sizes = sorted(set(bot.tables))
    return "" if sizes == [3, 4] else ",".join(map(str, sizes))


def handshake_lines(bot: Bot) -> list[str]:
    """What the bot answers to ``zole``: its names, the table sizes it plays if not both,
    its options, ``zoleok``."""
    lines = [f"id name {bot.name}"]
    if bot.author:
        lines.append(f"id author {bot.author}")
    if bot.version:
        lines.append(f"id version {bot.version}")
    if tables := tables_announced(bot):
        lines.append(f"id tables {tables}")
    lines += [option_line(option) for option in bot.options]
    lines.append(f"zoleok {PROTOCOL_VERSION}")
    return lines


def set_option(bot: Bot, name: str, text: str) -> str | None:
    """Apply a ``setoption`` to ``bot``; why it was not applied, or None."""
    option = bot.option(name)
    if option is None:
        return f"no option {name!r}"
    try:
        value = option.value(text)
    except ValueError as exc:
        return str(exc)
    bot.on_option(option.name, value)
    return None


def tell(bot: Bot, words: Sequence[str]) -> bool:
    """Give the bot a ``newdeal``, an event, a ``result`` or a ``sitout`` (split into words);
    whether the line was one of these."""
    head = words[0]
    if head == "newdeal":
        bot.on_newdeal(parse_newdeal(words))
    elif head in ("card", "trick", "bid"):
        event = parse_event(words)
        if event is None:
            return False
        bot.on_event(event)
    elif head == "result":
        bot.on_result(parse_result(words))
    elif head == "sitout":
        bot.on_sitout(parse_sitout(words))
    else:
        return False
    return True


def run_bot(bot: Bot, stdin: TextIO | None = None, stdout: TextIO | None = None) -> None:
    """Serve the protocol for ``bot`` until ``quit`` or the end of the input: the handshake,
    options, pings, and an ``action`` for every ``go``.

    An exception in the bot's code ends the program with its traceback on standard error (the
    arena records a *crash*); a closed pipe or Ctrl-C ends it quietly.

    What exists when the loop starts (the library's tables and classes, the bot's own) is
    frozen out of the cyclic garbage collector (:func:`gc.freeze`): no collection during the
    match walks it again, and the program ends promptly after ``quit`` instead of collecting
    it all on the way out.
    """
    source = sys.stdin if stdin is None else stdin
    sink = sys.stdout if stdout is None else stdout
    gc.freeze()
    with contextlib.suppress(BrokenPipeError, KeyboardInterrupt):
        _serve(bot, source, sink)


def _serve(bot: Bot, source: TextIO, sink: TextIO) -> None:
    write, flush = sink.write, sink.flush
    ruleset: Rules | None = None  # as the last newdeal spelled them out
    table: TableInfo | None = None  # the same: go carries no table fields
    for line in source:
        words = line.split()
        if not words:
            continue
        head = words[0]
        if head == "go":
            request_id, view = parse_go(words, time.monotonic(), ruleset)
            if table is not None:
                view.__dict__["table"] = table
            write(format_action(request_id, bot.decide(view)) + "\n")
            flush()
        elif head == "newdeal":
            start = parse_newdeal(words)
            ruleset, table = start.ruleset, start.table
            bot.on_newdeal(start)
        elif head in ("card", "trick", "bid", "result", "sitout"):
            tell(bot, words)
        elif head == "isready":
            write("readyok\n")
            flush()
        elif head == "setoption":
            parsed = parse_setoption(line.rstrip("\r\n"))
            why = "not 'setoption name N value V'" if parsed is None else set_option(bot, *parsed)
            if why is not None:
                write(f"info setoption ignored: {why}\n")
                flush()
        elif head == "zole":
            write("\n".join(handshake_lines(bot)) + "\n")
            flush()
        elif head == "quit":
            bot.on_quit()
            return
