"""Make the annotated example transcripts in protocol/examples/ from real deals.

Runs the bundled bots through the real referee with a protocol log on seat 0, finds deals of
the wanted kinds (a take game and a table game under ``wpt``, a zole under ``lzf``), and writes
each as Markdown: every line the arena sent (``>>``) and seat 0 answered (``<<``), with a
comment on what it means. Run from the project root::

    python scripts/make_protocol_examples.py
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from zole_arena.arena.referee import Referee
from zole_arena.game.actions import Contract
from zole_arena.game.rules import load_rules
from zole_arena.game.scoresheet import ScoreSheet
from zole_arena.players.bundled import parse_bot_arg
from zole_arena.players.session import BotConfig

OUT = Path(__file__).resolve().parent.parent / "protocol" / "examples"


def _fields(words: list[str]) -> dict[str, str]:
    return dict(zip(words[1::2], words[2::2], strict=False))


def annotate(direction: str, line: str) -> str:
    """A short comment on one protocol line, seen from the bot's side."""
    words = line.split()
    head = words[0] if words else ""
    if direction == ">>":
        if head == "zole":
            return "the arena starts the handshake: protocol version 1"
        if head == "isready":
            return "ping: the bot must answer readyok"
        if head == "setoption":
            return "the arena sets an option the bot declared"
        if head == "newdeal":
            f = _fields(words)
            return (
                f"deal {f['deal']}: this bot sits in seat {f['seat']}, seat {f['dealer']} deals, "
                f"seat {f['forehand']} is forehand; its 8 cards, strongest first; the standing; "
                f"the rules in force (contracts {f['contracts']}, all pass: {f['allpass']}, …)"
            )
        if head == "go":
            f = _fields(words)
            what = {"bid": "bid", "bury": "bury two cards", "play": "play a card"}[f["phase"]]
            return f"request {f['id']}: {what}, within {f['time']} ms; legal: {f['legal']}"
        if head == "bid":
            return f"seat {words[1]} says {words[2]}"
        if head == "card":
            return f"seat {words[1]} plays {words[2]}"
        if head == "trick":
            return f"trick complete: seat {words[1]} wins it, {words[2]} card points"
        if head == "result":
            f = _fields(words)
            return (
                f"deal over: {f['contract']}, this deal's scores {f['scores']}, "
                f"totals {f['totals']}"
            )
        if head == "quit":
            return "the match is over: the bot exits"
        return ""
    if head == "id":
        return "the bot names itself"
    if head == "option":
        return "the bot declares an option the arena may set"
    if head == "zoleok":
        return "end of the handshake: the bot speaks version 1"
    if head == "readyok":
        return "answer to the ping"
    if head == "action":
        return f"answer to request {words[1]}: {' '.join(words[2:])}"
    if head == "info":
        return "diagnostics: recorded, never an answer"
    return ""


def transcript_markdown(title: str, intro: str, log: str) -> str:
    lines = [f"# {title}", "", intro, "", "```"]
    for raw in log.splitlines():
        parts = raw.split(maxsplit=2)
        if len(parts) < 3:
            continue
        _, direction, line = parts
        comment = annotate(direction, line)
        lines.append(f"{direction} {line}")
        if comment:
            lines.append(f"   # {comment}")
    lines += ["```", ""]
    return "\n".join(lines)


def find_deal(preset: str, want: Contract, seat0: str, others: str) -> tuple[str, int, int]:
    """Play deals until seat 0's transcript holds a deal of the wanted contract (with seat 0
    as the soloist, when the contract has one)."""
    rules = load_rules(preset)
    main = parse_bot_arg(seat0)
    other = parse_bot_arg(others)
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(1, 200):
            log = Path(tmp) / f"{preset}-{seed}.log"
            configs = [
                BotConfig(command=main.argv, name=main.name, log_path=str(log)),
                BotConfig(command=other.argv, name=other.name),
                BotConfig(command=other.argv, name=f"{other.name}#2"),
            ]
            referee = Referee(rules, configs, time_ms=2000)
            referee.start()
            sheet = ScoreSheet(rules, seed)
            outcome = referee.play_deal(sheet)
            referee.close()
            soloist_ok = outcome.result.soloist in (None, 0)
            if outcome.result.contract is want and soloist_ok and not outcome.faults:
                return log.read_text(), seed, outcome.deal_no
    raise SystemExit(f"no {want} deal found")


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    cases = [
        ("take-game.md", "wpt", Contract.TAKE, "A take game (`wpt`)"),
        ("table-game.md", "wpt", Contract.TABLE, "A table game: all pass (`wpt`)"),
        ("zole-game.md", "lzf", Contract.ZOLE, "A zole (`lzf`)"),
    ]
    for filename, preset, contract, title in cases:
        log, seed, deal_no = find_deal(preset, contract, "rulebot", "random")
        intro = (
            f"A real transcript, as seat 0 (the bundled `rulebot`) saw it: rules `{preset}`, "
            f"match seed {seed}, deal {deal_no}; the two other seats are `random`. `>>` is a "
            "line from the arena, `<<` a line from the bot; the `#` lines are comments, not part "
            "of the protocol. Made by `scripts/make_protocol_examples.py`."
        )
        (OUT / filename).write_text(transcript_markdown(title, intro, log))
        print(f"wrote {OUT / filename}", file=sys.stderr)


if __name__ == "__main__":
    main()
