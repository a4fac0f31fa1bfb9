"""Rules as data: the presets ``wpt`` and ``lzf`` and user rules files (zole-rules.md §3–5).

A :class:`Rules` value holds everything that differs between rule sets: the contracts that may
be bid, what happens when all pass, the scoring tables and the pule switches. The presets are
bundled TOML files (``zole_arena/game/presets/*.toml``); a user file names a preset and overrides
any of its keys::

    preset = "lzf"
    contracts = ["take", "zole", "small_zole"]
    personal_pule_bonus = 3

    [take]
    win = 2

:func:`load_rules` accepts a preset name or a path and raises :class:`RulesError` with a
one-line message naming the bad key or value.
"""

from __future__ import annotations

import dataclasses
import enum
import itertools
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from zole_arena.errors import RulesError
from zole_arena.game.actions import Bid, Contract

__all__ = [
    "END_PULE_PAYMENT",
    "AllPass",
    "PRESETS",
    "Rules",
    "ScoreTable",
    "SmallZoleScores",
    "TableLoser",
    "load_rules",
]

#: Names of the bundled presets; the first is the default.
PRESETS: Final = ("wpt", "lzf")
#: What each personal pule standing at a table's end costs its owner, to each other player,
#: unless the rules say otherwise (docs/rules.md §8; logs before the key: as then, unused).
END_PULE_PAYMENT: Final = 1


class AllPass(enum.Enum):
    """What happens when all three players pass."""

    TABLE = "table"
    """Play the table game (galdiņš): most tricks loses (zole-rules.md §4)."""
    PULE = "pule"
    """Write a common pule and deal again (zole-rules.md §5)."""


class TableLoser(enum.Enum):
    """How the loser of a table game is found."""

    TRICKS_THEN_POINTS = "tricks_then_points"
    """Most tricks loses; among equal most tricks, most card points."""
    POINTS = "points"
    """Most card points loses (LZF Rondo)."""


@dataclasses.dataclass(frozen=True)
class ScoreTable:
    """Amounts per opponent for the bands of a take or zole (zole-rules.md §3).

    Positive amounts are paid by each opponent to the soloist, negative ones by the soloist to
    each opponent.
    """

    all_tricks: int
    """The soloist took all 8 tricks."""
    high_win: int
    """91 points or more, not all tricks."""
    win: int
    """61 to 90 points."""
    loss: int
    """31 to 60 points."""
    high_loss: int
    """30 points or fewer, at least one trick."""
    no_tricks: int
    """No trick at all, whatever the buried cards hold."""


@dataclasses.dataclass(frozen=True)
class SmallZoleScores:
    """Amounts per opponent for a small zole (mazā zole)."""

    win: int
    loss: int


@dataclasses.dataclass(frozen=True)
class Rules:
    """A complete, resolved rule set. Build one with :func:`load_rules`."""

    preset: str
    """The preset this rule set starts from: ``wpt`` or ``lzf``."""
    description: str
    contracts: tuple[Contract, ...]
    """The contracts a player may bid, besides pass, in order of rank."""
    all_pass: AllPass
    table_loser: TableLoser
    table_payment: int
    """What the table-game loser pays to each other player."""
    deals_per_game: int
    """Deals in one game (3: each seat deals once)."""
    common_pule_bonus: int
    """Extra each opponent pays a winning soloist who clears a common pule."""
    personal_pule_bonus: int
    """Extra a pule's owner pays the winning soloist who clears it (2, or 3 on some servers)."""
    pules_take_only: bool
    """Pules are won and lost only in take games, not in zole or small zole."""
    take: ScoreTable
    zole: ScoreTable | None = None
    small_zole: SmallZoleScores | None = None
    end_pule_payment: int = END_PULE_PAYMENT
    """What each personal pule standing at the end of a table's match or round costs its owner,
    to each other player at the table (0: the pules lapse). Applies at tables of four and at an
    ``lzf`` round's tables (docs/rules.md §8)."""
    source: str = ""
    """Where these rules came from: the preset name or the rules file's path."""
    bids: tuple[Bid, ...] = dataclasses.field(init=False, compare=False)
    """The bids a player may make, pass first (derived from ``contracts``)."""

    def __post_init__(self) -> None:
        bids = (Bid.PASS, *(_BID_OF_CONTRACT[c] for c in self.contracts))
        object.__setattr__(self, "bids", bids)  # a derived field of a frozen dataclass

    @property
    def name(self) -> str:
        """The preset name, or ``lzf+file.toml`` style for a rules file."""
        if self.source in PRESETS or not self.source:
            return self.preset
        return f"{self.preset}+{Path(self.source).name}"

    def to_dict(self) -> dict[str, Any]:
        """The rules as plain data (TOML/JSON types), as written in game records.

        ``Rules.from_dict(rules.to_dict())`` gives the same rules back.
        """
        data: dict[str, Any] = {
            "preset": self.preset,
            "description": self.description,
            "contracts": [_FILE_NAMES[c] for c in self.contracts],
            "all_pass": self.all_pass.value,
            "table_loser": self.table_loser.value,
            "table_payment": self.table_payment,
            "deals_per_game": self.deals_per_game,
            "common_pule_bonus": self.common_pule_bonus,
            "personal_pule_bonus": self.personal_pule_bonus,
            "pules_take_only": self.pules_take_only,
            "take": dataclasses.asdict(self.take),
        }
        if self.zole is not None:
            data["zole"] = dataclasses.asdict(self.zole)
        if self.small_zole is not None:
            data["small_zole"] = dataclasses.asdict(self.small_zole)
        if self.end_pule_payment != END_PULE_PAYMENT:  # logs of the default stay as they were
            data["end_pule_payment"] = self.end_pule_payment
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], source: str = "") -> Rules:
        """Build and validate rules from complete plain data (every key present).

        :raises RulesError: a key is unknown or missing, or a value has the wrong type.
        """
        return _build(dict(data), source or "<data>")


_BID_OF_CONTRACT: Final = {
    Contract.TAKE: Bid.TAKE,
    Contract.ZOLE: Bid.ZOLE,
    Contract.SMALL_ZOLE: Bid.SMALL_ZOLE,
}
#: How rules files (and to_dict) spell each contract.
_FILE_NAMES: Final = {
    Contract.TAKE: "take",
    Contract.ZOLE: "zole",
    Contract.SMALL_ZOLE: "small_zole",
}
_CONTRACT_NAMES: Final = {
    "take": Contract.TAKE,
    "zole": Contract.ZOLE,
    "small_zole": Contract.SMALL_ZOLE,
    "smallzole": Contract.SMALL_ZOLE,
}
_TOP_KEYS: Final = {
    "preset": str,
    "description": str,
    "contracts": list,
    "all_pass": str,
    "table_loser": str,
    "table_payment": int,
    "deals_per_game": int,
    "common_pule_bonus": int,
    "personal_pule_bonus": int,
    "pules_take_only": bool,
    "end_pule_payment": int,
    "take": dict,
    "zole": dict,
    "small_zole": dict,
}
_TABLE_FIELDS: Final = {
    "take": [f.name for f in dataclasses.fields(ScoreTable)],
    "zole": [f.name for f in dataclasses.fields(ScoreTable)],
    "small_zole": [f.name for f in dataclasses.fields(SmallZoleScores)],
}
_OPTIONAL_KEYS: Final = {"zole", "small_zole", "end_pule_payment"}


def _fail(source: str, message: str) -> RulesError:
    return RulesError(f"rules {source}: {message}")


def _type_name(kind: type) -> str:
    return {
        str: "a string",
        int: "a whole number",
        bool: "true or false",
        list: "a list",
        dict: "a table",
    }[kind]


#: The largest amount a rules file may give (a game's points, a payment, a count): real
#: rules pay a few points a game; logs refuse scores near 10**12 as forged, and a match's
#: totals must stay far below that.
MAX_AMOUNT: Final = 1000


def _check_type(source: str, key: str, value: Any, kind: type) -> None:
    ok = isinstance(value, kind) and not (kind is int and isinstance(value, bool))
    if not ok:
        raise _fail(source, f"{key} must be {_type_name(kind)}, not {value!r}")
    if kind is int and abs(value) > MAX_AMOUNT:
        raise _fail(source, f"{key} must be from -{MAX_AMOUNT} to {MAX_AMOUNT}, not {value}")


def _enum_value(source: str, key: str, value: str, kind: type[enum.Enum]) -> Any:
    for member in kind:
        if member.value == value:
            return member
    choices = ", ".join(repr(m.value) for m in kind)
    raise _fail(source, f"{key} must be one of {choices}, not {value!r}")


def _build(data: dict[str, Any], source: str) -> Rules:
    for key, value in data.items():
        if key not in _TOP_KEYS:
            raise _fail(source, f"unknown key {key!r} (known keys: {', '.join(_TOP_KEYS)})")
        _check_type(source, key, value, _TOP_KEYS[key])
    for key in _TOP_KEYS:
        if key not in data and key not in _OPTIONAL_KEYS:
            raise _fail(source, f"missing key {key!r}")
    tables: dict[str, Any] = {}
    for table, fields in _TABLE_FIELDS.items():
        if table not in data:
            continue
        values = data[table]
        for key, value in values.items():
            if key not in fields:
                raise _fail(source, f"unknown key {table}.{key} (known keys: {', '.join(fields)})")
            _check_type(source, f"{table}.{key}", value, int)
        missing = [f for f in fields if f not in values]
        if missing:
            raise _fail(source, f"[{table}] lacks {', '.join(missing)}")
        tables[table] = values
    for table in ("take", "zole"):
        values = tables.get(table)
        if values is None:
            continue
        wins = ["all_tricks", "high_win", "win"]
        if not all(values[k] > 0 for k in wins) or not all(
            values[k] < 0 for k in ("loss", "high_loss", "no_tricks")
        ):
            raise _fail(
                source,
                f"[{table}]: wins (all_tricks, high_win, win) must be positive and losses "
                f"(loss, high_loss, no_tricks) negative: {values}",
            )
        ranked = ["all_tricks", "high_win", "win", "loss", "high_loss", "no_tricks"]
        for better, worse in itertools.pairwise(ranked):
            if values[better] < values[worse]:
                raise _fail(
                    source,
                    f"[{table}]: {better} ({values[better]}) may not pay less than "
                    f"{worse} ({values[worse]})",
                )
    small = tables.get("small_zole")
    if small is not None and not (small["win"] > 0 > small["loss"]):
        raise _fail(source, f"[small_zole]: win must be positive and loss negative: {small}")
    contracts: list[Contract] = []
    for name in data["contracts"]:
        if not isinstance(name, str) or name not in _CONTRACT_NAMES:
            raise _fail(
                source, f"contracts: {name!r} is not a contract (use take, zole, small_zole)"
            )
        contract = _CONTRACT_NAMES[name]
        if contract in contracts:
            raise _fail(source, f"contracts: {name!r} is listed twice")
        contracts.append(contract)
    if Contract.TAKE not in contracts:
        raise _fail(source, "contracts must include 'take'")
    for contract, table in ((Contract.ZOLE, "zole"), (Contract.SMALL_ZOLE, "small_zole")):
        if contract in contracts and table not in tables:
            raise _fail(source, f"contract {table} is enabled but there is no [{table}] table")
    if data["preset"] not in PRESETS:
        raise _fail(source, f"preset must be one of {', '.join(PRESETS)}, not {data['preset']!r}")
    for key in ("table_payment", "deals_per_game", "common_pule_bonus", "personal_pule_bonus",
                "end_pule_payment"):  # fmt: skip
        if key not in data:
            continue
        lowest = 1 if key == "deals_per_game" else 0
        if data[key] < lowest:
            raise _fail(source, f"{key} must be at least {lowest}, not {data[key]!r}")
    order = [Contract.TAKE, Contract.ZOLE, Contract.SMALL_ZOLE]
    ordered = tuple(c for c in order if c in contracts)
    description = data["description"]
    return Rules(
        preset=data["preset"],
        description=description,
        contracts=ordered,
        all_pass=_enum_value(source, "all_pass", data["all_pass"], AllPass),
        table_loser=_enum_value(source, "table_loser", data["table_loser"], TableLoser),
        table_payment=data["table_payment"],
        deals_per_game=data["deals_per_game"],
        common_pule_bonus=data["common_pule_bonus"],
        personal_pule_bonus=data["personal_pule_bonus"],
        pules_take_only=data["pules_take_only"],
        take=ScoreTable(**tables["take"]),
        zole=ScoreTable(**tables["zole"]) if "zole" in tables else None,
        small_zole=SmallZoleScores(**tables["small_zole"]) if "small_zole" in tables else None,
        end_pule_payment=data.get("end_pule_payment", END_PULE_PAYMENT),
        source=source,
    )


def _preset_data(name: str) -> dict[str, Any]:
    # The TOML reader and the package resources are imported when rules are first loaded,
    # not with the engine: a program that only reads cards (a Python bot) starts sooner.
    import tomllib
    from importlib import resources

    text = resources.files("zole_arena.game.presets").joinpath(f"{name}.toml").read_text("utf-8")
    return tomllib.loads(text)


def _merge(base: dict[str, Any], override: Mapping[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = {**merged[key], **value}
        else:
            merged[key] = value
    return merged


def load_rules(spec: str | Path | None = None) -> Rules:
    """Resolve a preset name (``"wpt"``, ``"lzf"``), a rules file path, or ``None`` (``wpt``).

    A rules file must name its base with ``preset = "..."``; every other key overrides the
    preset's value (tables such as ``[take]`` are merged key by key).

    :raises RulesError: unknown preset, unreadable file, bad TOML, or a bad key or value.
    """
    import tomllib

    if spec is None:
        spec = PRESETS[0]
    text_spec = str(spec)
    if text_spec in PRESETS:
        return _build(_preset_data(text_spec), text_spec)
    path = Path(spec)
    if not path.exists():
        raise RulesError(
            f"rules {text_spec!r}: no such preset or file (presets: {', '.join(PRESETS)})"
        )
    try:
        data = tomllib.loads(path.read_text("utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise _fail(text_spec, f"cannot read the file: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise _fail(text_spec, f"not valid TOML: {exc}") from None
    base = data.get("preset")
    if base is None:
        raise _fail(text_spec, f"the file must name its base preset: preset = {PRESETS[0]!r}")
    if base not in PRESETS:
        raise _fail(text_spec, f"preset must be one of {', '.join(PRESETS)}, not {base!r}")
    merged = _merge(_preset_data(base), data)
    if "description" not in data:
        merged["description"] = f"{merged['description']} — changed by {path.name}"
    return _build(merged, text_spec)
