"""Per-bot summaries of analysed deals: average loss per decision and per deal, by phase and by
role, and counts of inaccuracies, mistakes and blunders, with 95% intervals.

The unit of sampling is a bot's part in one deal (its seat): the decisions of one deal are not
independent of each other, so the interval of the loss per decision is that of a ratio of
per-deal sums (the cluster-robust "delta method"), not of the decisions as if independent.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable
from typing import Final

from zole_arena.analysis.model import DealAnalysis, Phase, Role, Severity

__all__ = ["BotAnalysis", "Estimate", "summarise"]

#: Two-sided 95% normal quantile.
_Z: Final = 1.959963984540054


@dataclasses.dataclass(frozen=True, slots=True)
class Estimate:
    """A mean with its 95% interval, over ``n`` units (deals) holding ``count`` decisions."""

    mean: float
    low: float
    high: float
    n: int
    count: int

    def to_dict(self) -> dict[str, float | int | None]:
        """Plain data for JSON (an interval that cannot be estimated, from one deal: null)."""
        return {
            key: None if isinstance(value, float) and math.isnan(value) else value
            for key, value in dataclasses.asdict(self).items()
        }


@dataclasses.dataclass(frozen=True, slots=True)
class BotAnalysis:
    """One bot's summary over the analysed deals it played."""

    name: str
    deals: int
    """Deals (seat-deals: a bot in two seats of a deal counts twice) with at least its moves."""
    decisions: int
    per_decision: Estimate
    """Average loss per decision."""
    per_deal: Estimate
    """Average loss per deal (the sum of its decisions' losses in a deal)."""
    by_phase: dict[Phase, Estimate]
    """Average loss per decision of each phase (phases it never decided in are left out)."""
    by_role: dict[Role, Estimate]
    """Average loss per decision in each role."""
    counts: dict[Severity, int]
    """Decisions of each severity (by each deal's rules' thresholds)."""

    def to_dict(self) -> dict[str, object]:
        """Plain data for JSON."""
        return {
            "name": self.name,
            "deals": self.deals,
            "decisions": self.decisions,
            "per_decision": self.per_decision.to_dict(),
            "per_deal": self.per_deal.to_dict(),
            "by_phase": {k.value: v.to_dict() for k, v in self.by_phase.items()},
            "by_role": {k.value: v.to_dict() for k, v in self.by_role.items()},
            "counts": {k.value: v for k, v in self.counts.items()},
        }


def _ratio(units: list[tuple[float, int]]) -> Estimate:
    """The ratio sum(loss) / sum(decisions) over units (loss, decisions), its interval by the
    delta method over units (a ratio estimator's cluster-robust standard error)."""
    n = len(units)
    total_loss = sum(u[0] for u in units)
    total = sum(u[1] for u in units)
    if total == 0:
        return Estimate(0.0, 0.0, 0.0, n, 0)
    mean = total_loss / total
    if n < 2:
        return Estimate(mean, math.nan, math.nan, n, total)
    resid = sum((loss - mean * d) ** 2 for loss, d in units)
    se = math.sqrt(resid * n / (n - 1)) / total
    return Estimate(mean, mean - _Z * se, mean + _Z * se, n, total)


def _mean(values: list[float], count: int) -> Estimate:
    n = len(values)
    if n == 0:
        return Estimate(0.0, 0.0, 0.0, 0, 0)
    mean = sum(values) / n
    if n < 2:
        return Estimate(mean, math.nan, math.nan, n, count)
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    se = math.sqrt(var / n)
    return Estimate(mean, mean - _Z * se, mean + _Z * se, n, count)


def summarise(deals: Iterable[DealAnalysis]) -> list[BotAnalysis]:
    """Each bot's summary, best (lowest loss per decision) first."""
    # per bot: list of units; a unit per (deal, seat): loss and decisions, overall and by key
    units: dict[str, list[dict[object, tuple[float, int]]]] = {}
    counts: dict[str, dict[Severity, int]] = {}
    for deal in deals:
        thresholds = deal.thresholds
        per_seat: dict[int, dict[object, tuple[float, int]]] = {}
        for d in deal.decisions:
            unit = per_seat.setdefault(d.seat, {})
            loss = d.loss
            for key in ("all", d.phase, d.role):
                old = unit.get(key, (0.0, 0))
                unit[key] = (old[0] + loss, old[1] + 1)
            sev = counts.setdefault(d.player, {s: 0 for s in Severity})
            sev[thresholds.severity(loss)] += 1
        for seat, unit in per_seat.items():
            units.setdefault(deal.players[seat], []).append(unit)
    result = []
    for name, bot_units in units.items():
        overall = [u.get("all", (0.0, 0)) for u in bot_units]
        by_phase = {}
        for phase in Phase:
            chosen = [u[phase] for u in bot_units if phase in u]
            if chosen:
                by_phase[phase] = _ratio(chosen)
        by_role = {}
        for role in Role:
            chosen = [u[role] for u in bot_units if role in u]
            if chosen:
                by_role[role] = _ratio(chosen)
        decisions = sum(u[1] for u in overall)
        result.append(
            BotAnalysis(
                name=name,
                deals=len(bot_units),
                decisions=decisions,
                per_decision=_ratio(overall),
                per_deal=_mean([u[0] for u in overall], decisions),
                by_phase=by_phase,
                by_role=by_role,
                counts=counts.get(name, {s: 0 for s in Severity}),
            )
        )
    result.sort(key=lambda b: (b.per_decision.mean, b.name))
    return result
