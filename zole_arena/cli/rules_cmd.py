"""``zole-arena rules``: print a resolved rule set."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table

from zole_arena.cli.console import out, print_json
from zole_arena.cli.options import RulesOption
from zole_arena.game.actions import Contract
from zole_arena.game.rules import PRESETS, AllPass, Rules, TableLoser, load_rules
from zole_arena.game.scoring import Band


def _signed(value: int) -> str:
    return f"{value:+d}"


def _scoring_table(rules: Rules) -> Table:
    table = Table(title="Scoring per opponent (the soloist gets or pays twice this)")
    table.add_column("band")
    table.add_column("take", justify="right")
    if rules.zole is not None:
        table.add_column("zole", justify="right")
    for band in Band:
        row = [band.condition, _signed(getattr(rules.take, band))]
        if rules.zole is not None:
            row.append(_signed(getattr(rules.zole, band)))
        table.add_row(*row)
    return table


def _all_pass_text(rules: Rules) -> str:
    if rules.all_pass is AllPass.PULE:
        take_only = " (take games only)" if rules.pules_take_only else ""
        return (
            "a common pule is written and no cards are played. A winning soloist clears one "
            f"pule{take_only}: his own personal pule (no extra), else a common one "
            f"(+{rules.common_pule_bonus} from each opponent), else the oldest personal pule "
            f"of another player (+{rules.personal_pule_bonus} from its owner); a soloist who "
            "loses while pules stand gets a personal pule"
        )
    loser = (
        "the player with most tricks (then most card points)"
        if rules.table_loser is TableLoser.TRICKS_THEN_POINTS
        else "the player with most card points"
    )
    return (
        f"table game, everyone for himself: {loser} loses and pays {rules.table_payment} to "
        "each other player; on a complete tie every tied player pays"
    )


def rules_command(
    rules: RulesOption = PRESETS[0],
    json_output: Annotated[bool, typer.Option("--json", help="Print the rules as JSON.")] = False,
) -> None:
    """Print the resolved rules: contracts, scoring table, all-pass rule and switches."""
    resolved = load_rules(rules)
    if json_output:
        print_json({"name": resolved.name, "source": resolved.source, **resolved.to_dict()})
        return
    out.print(f"[bold]{resolved.name}[/]: {resolved.description}")
    out.print(f"source: {resolved.source}")
    bids = ", ".join(str(b) for b in resolved.bids)
    out.print(f"bids: {bids} (each player speaks once, from the forehand; first non-pass plays)")
    out.print(_scoring_table(resolved))
    if resolved.small_zole is not None:
        state = "on" if Contract.SMALL_ZOLE in resolved.contracts else "off"
        out.print(
            f"small zole ({state}): {_signed(resolved.small_zole.win)} per opponent when won, "
            f"{_signed(resolved.small_zole.loss)} when lost (the deal stops at the soloist's "
            "first trick)"
        )
    out.print(f"all pass: {_all_pass_text(resolved)}")
    switches = Table(title="Switches")
    switches.add_column("key")
    switches.add_column("value")
    for key in (
        "all_pass",
        "table_loser",
        "table_payment",
        "common_pule_bonus",
        "personal_pule_bonus",
        "pules_take_only",
        "deals_per_game",
    ):
        value = resolved.to_dict()[key]
        switches.add_row(key, str(value).lower() if isinstance(value, bool) else str(value))
    out.print(switches)
