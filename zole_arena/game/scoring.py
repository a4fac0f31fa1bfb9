"""Scoring a finished deal: soloist bands, the table game and pules (zole-rules.md §3–5).

Pure functions over plain numbers, so that every band and boundary can be tested without
playing cards. Every result is zero-sum.

Pules (§5), as the engine keeps them: :class:`Pules` holds the number of common pules and the
owners of the personal pules, oldest first. A winning soloist clears one pule: his own oldest
personal pule (no extra); otherwise a common pule (each opponent pays him
``common_pule_bonus`` extra); otherwise the oldest personal pule of another player (its owner
pays him ``personal_pule_bonus``). A soloist who loses while any pule exists gets a personal
pule. With ``pules_take_only``, zole and small zole neither clear nor earn pules.
"""

from __future__ import annotations

import dataclasses
import enum
from typing import Final, NamedTuple

from zole_arena.game.actions import Contract
from zole_arena.game.rules import Rules, ScoreTable, TableLoser

__all__ = [
    "Band",
    "WINNING_BANDS",
    "Pules",
    "NO_PULES",
    "SoloistScore",
    "band_of",
    "pules_after_all_pass",
    "score_soloist",
    "score_table",
    "score_table_of",
    "table_losers",
]


class Band(enum.StrEnum):
    """How a soloist's game ended (§3): the rows of the rules' score tables.

    The value is the name results, records and the protocol write (and the rules' tables use
    as keys); :attr:`words` and :attr:`condition` say it for people.
    """

    ALL_TRICKS = "all_tricks"
    HIGH_WIN = "high_win"
    WIN = "win"
    LOSS = "loss"
    HIGH_LOSS = "high_loss"
    NO_TRICKS = "no_tricks"

    @property
    def words(self) -> str:
        """The band as a result reads: ``a win with more than 90``."""
        return _BAND_TEXT[self][0]

    @property
    def condition(self) -> str:
        """When a take or zole ends in this band: ``91–120 points, not all tricks``."""
        return _BAND_TEXT[self][1]

    @property
    def won(self) -> bool:
        """Whether the soloist won."""
        return self in WINNING_BANDS


#: The one table of what each band is called and when it applies.
_BAND_TEXT: Final[dict[Band, tuple[str, str]]] = {
    Band.ALL_TRICKS: ("all tricks", "all 8 tricks"),
    Band.HIGH_WIN: ("a win with more than 90", "91–120 points, not all tricks"),
    Band.WIN: ("a win", "61–90 points"),
    Band.LOSS: ("a loss", "31–60 points (60–60 loses)"),
    Band.HIGH_LOSS: ("a loss with 30 or less", "0–30 points, at least one trick"),
    Band.NO_TRICKS: ("a loss without a trick", "no trick (by count, whatever is buried)"),
}
#: The bands in which the soloist wins.
WINNING_BANDS: Final = frozenset({Band.ALL_TRICKS, Band.HIGH_WIN, Band.WIN})
# The members as globals, for band_of: a global is read faster than an enum's attribute, and
# every deal is scored.
_ALL_TRICKS, _HIGH_WIN, _WIN, _LOSS, _HIGH_LOSS, _NO_TRICKS = Band


@dataclasses.dataclass(frozen=True)
class Pules:
    """The pules on the score sheet: common ones and personal ones (owners, oldest first)."""

    common: int = 0
    personal: tuple[int, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.common or self.personal)

    def to_dict(self) -> dict[str, object]:
        """Plain data for records and the protocol."""
        return {"common": self.common, "personal": list(self.personal)}


NO_PULES: Final = Pules()


class SoloistScore(NamedTuple):
    """The outcome of a soloist's deal, before anyone's totals are touched."""

    band: Band
    won: bool
    amount: int
    """Per opponent, from the rules' table (positive: opponents pay)."""
    scores: tuple[int, ...]
    """Change of each player's total, pule extras included: one per seat of the deal, or at a
    table of four one per table seat (the dealer who sits out pays or collects too)."""
    pules: Pules
    """The pules after this deal."""
    pule_event: str | None
    """What happened to the pules, in words; None when pules played no part."""


def band_of(contract: Contract, points: int, tricks: int) -> Band:
    """The band of a soloist with ``points`` card points and ``tricks`` tricks (§3).

    Trick counts decide "all tricks" and "no trick"; points decide the rest: 91 is a high
    win, 61–90 a win, 31–60 a loss (60–60 loses), 30 or less a high loss. For a small zole only
    "win" (no trick) and "loss" exist.
    """
    if contract is Contract.SMALL_ZOLE:
        return _WIN if tricks == 0 else _LOSS
    if tricks == 8:
        return _ALL_TRICKS
    if tricks == 0:
        return _NO_TRICKS
    if points >= 91:
        return _HIGH_WIN
    if points >= 61:
        return _WIN
    if points >= 31:
        return _LOSS
    return _HIGH_LOSS


def _amount(rules: Rules, contract: Contract, band: Band) -> int:
    if contract is Contract.SMALL_ZOLE:
        if rules.small_zole is None:
            raise ValueError("these rules have no small zole")
        return rules.small_zole.win if band is _WIN else rules.small_zole.loss
    table: ScoreTable | None = rules.take if contract is Contract.TAKE else rules.zole
    if table is None:
        raise ValueError(f"these rules have no {contract} contract")
    amount: int = getattr(table, band)
    return amount


def score_soloist(
    rules: Rules,
    contract: Contract,
    soloist: int,
    points: int,
    tricks: int,
    pules: Pules = NO_PULES,
    players: int = 3,
) -> SoloistScore:
    """Score a take, zole or small zole and update the pules.

    ``players`` is 3 (seats 0–2), or 4 at a table of four, where the seats are the table's and
    the dealer, who sits the deal out, counts as one more opponent: he pays or collects the
    amount, and a common pule's bonus, like the two defenders.

    :param points: the soloist's card points (tricks, plus the buried cards after a take).
    :param tricks: the number of tricks the soloist took.
    """
    band = band_of(contract, points, tricks)
    won = band in WINNING_BANDS
    amount = _amount(rules, contract, band)
    scores = [-amount] * players
    scores[soloist] = (players - 1) * amount
    event: str | None = None
    if (pules.common or pules.personal) and (
        contract is Contract.TAKE or not rules.pules_take_only
    ):
        common, personal = pules.common, list(pules.personal)
        if won:
            if soloist in personal:
                personal.remove(soloist)
                event = "cleared own personal pule"
            elif common:
                common -= 1
                bonus = rules.common_pule_bonus
                for seat in range(players):
                    scores[seat] += (players - 1) * bonus if seat == soloist else -bonus
                event = f"cleared a common pule: +{bonus} from each opponent"
            else:
                owner = personal.pop(0)
                bonus = rules.personal_pule_bonus
                scores[soloist] += bonus
                scores[owner] -= bonus
                event = f"cleared seat {owner}'s personal pule: +{bonus} from its owner"
        else:
            personal.append(soloist)
            event = "lost while pules stand: a personal pule for the soloist"
        pules = Pules(common, tuple(personal))
    return SoloistScore(band, won, amount, tuple(scores), pules, event)


def pules_after_all_pass(pules: Pules, size: int) -> tuple[Pules, str]:
    """The pules after a deal all passed under ``all_pass = "pule"``, and the event in words:
    one common pule at a table of three; at a table of four two when no pule of any kind
    stands, else one (LZF: "ja spēlē četratā tad tiek liktas divas pules, ja pule jau ir tad
    viena")."""
    written = 2 if size == 4 and not pules else 1
    words = "two common pules are" if written == 2 else "a common pule is"
    return Pules(pules.common + written, pules.personal), f"all passed: {words} written"


#: The seats marked in a 3-bit set (bit s for seat s), as a tuple.
_SEATS_OF_BITS: Final = tuple(tuple(s for s in range(3) if bits >> s & 1) for bits in range(8))


def table_losers(rules: Rules, tricks: tuple[int, ...], points: tuple[int, ...]) -> tuple[int, ...]:
    """The seats that lose a table game (§4): most tricks, then most points; ties all lose.

    With ``table_loser = "points"`` the most card points lose and tricks are not looked at.
    """
    if rules.table_loser is TableLoser.POINTS:
        k0, k1, k2 = points[0], points[1], points[2]
    else:  # tricks first, then points (points are below 1000)
        k0 = tricks[0] * 1000 + points[0]
        k1 = tricks[1] * 1000 + points[1]
        k2 = tricks[2] * 1000 + points[2]
    worst = max(k0, k1, k2)
    return _SEATS_OF_BITS[(k0 == worst) | (k1 == worst) << 1 | (k2 == worst) << 2]


def score_table(rules: Rules, losers: tuple[int, ...]) -> tuple[int, int, int]:
    """Each loser pays ``table_payment`` to each other player (e.g. −4/+2/+2, or −2/−2/+4).

    A loser pays the two others and is paid by the other losers: ``-(3 - n) * pay`` with
    ``n`` losers; a player who did not lose is paid by every loser: ``n * pay``.
    """
    s0, s1, s2 = score_table_of(rules, losers, 3)
    return s0, s1, s2


def score_table_of(rules: Rules, losers: tuple[int, ...], players: int) -> tuple[int, ...]:
    """:func:`score_table` for ``players`` seats: at a table of four the dealer, who sits the
    deal out, is one more player each loser pays (−6/+2/+2/+2)."""
    pay = rules.table_payment
    n = len(losers)
    return tuple(-(players - n) * pay if seat in losers else n * pay for seat in range(players))
