"""The ratings-over-time chart of a report, as inline SVG (no library, no network).

Each bot gets a line through its rating at every checkpoint, and a band from the interval's
low to its high end where the interval can be estimated. The legend is a column of its own to
the right of the plot, so it never covers a line; it lists the bots strongest first with their
last rating and interval. Each point carries a tooltip (an SVG ``<title>``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape
from typing import Final

from zole_arena.report.words import visible
from zole_arena.stats.ratings import NOT_ESTIMATED, PlayerRating, RatingList

__all__ = ["COLOURS", "elo_text", "interval_text", "ratings_chart"]

#: Line colours, bot by bot (Okabe–Ito and Tableau hues, told apart by most colour-blind
#: readers, none too dark for a dark page); past ten bots they repeat with dashes.
COLOURS: Final = (
    "#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00",
    "#56b4e9", "#7f7f7f", "#8c564b", "#bcbd22", "#17becf",
)  # fmt: skip
_DASHES: Final = ("", "6 3", "2 3", "8 3 2 3")

_WIDTH: Final = 960
_PLOT_WIDTH: Final = 640
_HEIGHT: Final = 380
_LEFT: Final = 56
_TOP: Final = 16
_BOTTOM: Final = 44


def _ticks(low: float, high: float, count: int = 6, whole: bool = False) -> list[float]:
    """Round tick values covering [low, high] (``whole``: whole numbers only)."""
    span = max(high - low, 1e-9)
    raw = span / count
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    if whole:
        step = max(1, round(step))
    first = math.ceil(low / step) * step
    ticks = []
    value = first
    while value <= high + 1e-9:
        ticks.append(round(value, 6))
        value += step
    return ticks


#: The longest name the legend shows whole (its column is a third of the chart).
_LEGEND_NAME: Final = 28


def _short(name: str) -> str:
    """A name as the legend shows it: whole, or its start and end around an ellipsis."""
    if len(name) <= _LEGEND_NAME:
        return name
    keep = _LEGEND_NAME - 1
    return f"{name[: keep - keep // 3]}…{name[-(keep // 3) :]}"


def elo_text(value: float, signed: bool = True) -> str:
    """An Elo for people: whole, signed around an average of 0 (never ``-0``)."""
    whole = round(value)
    return f"{whole:+d}" if signed and whole else f"{whole:d}"


def interval_text(rating: PlayerRating, signed: bool = True) -> str:
    """A rating's 95% interval for people, or n/a where it cannot be estimated."""
    if rating.low is None or rating.high is None:
        return NOT_ESTIMATED
    return f"{elo_text(rating.low, signed)} … {elo_text(rating.high, signed)}"


def ratings_chart(checkpoints: Sequence[RatingList]) -> str:
    """The chart of ``checkpoints`` (oldest first) as an ``<svg>`` element; an empty string
    when there is nothing to draw."""
    if not checkpoints:
        return ""
    last = checkpoints[-1]
    signed = last.anchor is None
    order = [rating.name for rating in last.ratings]
    order += sorted({r.name for c in checkpoints for r in c.ratings} - set(order))
    values = [
        value
        for checkpoint in checkpoints
        for rating in checkpoint.ratings
        for value in (rating.elo, rating.low, rating.high)
        if value is not None
    ]
    low, high = min(values), max(values)
    if high - low < 20:
        low, high = low - 10, high + 10
    pad = (high - low) * 0.05
    low, high = low - pad, high + pad
    most = max(checkpoint.deals for checkpoint in checkpoints)
    plot_h = _HEIGHT - _TOP - _BOTTOM
    plot_w = _PLOT_WIDTH - _LEFT - 12

    def x(deals: float) -> float:
        return _LEFT + plot_w * deals / max(most, 1)

    def y(elo: float) -> float:
        return _TOP + plot_h * (high - elo) / (high - low)

    height = max(_HEIGHT, _TOP + 20 * len(order) + 8)
    parts = [
        f'<svg class="chart" viewBox="0 0 {_WIDTH} {height}" role="img" '
        f'aria-label="Ratings over time" xmlns="http://www.w3.org/2000/svg">',
        f'<rect x="{_LEFT}" y="{_TOP}" width="{plot_w}" height="{plot_h}" class="plotarea"/>',
    ]
    for tick in _ticks(low, high):
        ty = y(tick)
        parts.append(
            f'<line x1="{_LEFT}" x2="{_LEFT + plot_w}" y1="{ty:.1f}" y2="{ty:.1f}" class="grid"/>'
            f'<text x="{_LEFT - 6}" y="{ty + 4:.1f}" class="tick" text-anchor="end">'
            f"{elo_text(tick, signed)}</text>"
        )
    for tick in _ticks(0, most, whole=True):
        tx = x(tick)
        parts.append(
            f'<line x1="{tx:.1f}" x2="{tx:.1f}" y1="{_TOP}" y2="{_TOP + plot_h}" class="grid"/>'
            f'<text x="{tx:.1f}" y="{_TOP + plot_h + 16}" class="tick" text-anchor="middle">'
            f"{tick:,.0f}</text>"
        )
    parts.append(
        f'<text x="{_LEFT + plot_w / 2}" y="{_HEIGHT - 6}" class="axis" text-anchor="middle">'
        f"deals rated so far</text>"
        f'<text x="14" y="{_TOP + plot_h / 2}" class="axis" text-anchor="middle" '
        f'transform="rotate(-90 14 {_TOP + plot_h / 2})">Elo</text>'
    )
    legend_x = _PLOT_WIDTH + 16
    for place, name in enumerate(order):
        colour = COLOURS[place % len(COLOURS)]
        dash = _DASHES[(place // len(COLOURS)) % len(_DASHES)]
        points = [
            (checkpoint.deals, rating)
            for checkpoint in checkpoints
            for rating in checkpoint.ratings
            if rating.name == name
        ]
        banded = [(deals, r) for deals, r in points if r.low is not None and r.high is not None]
        group = [f'<g class="series" data-bot="{escape(visible(name))}">']
        if len(banded) >= 2:
            upper = " ".join(f"{x(d):.1f},{y(r.high):.1f}" for d, r in banded if r.high is not None)
            lower = " ".join(
                f"{x(d):.1f},{y(r.low):.1f}" for d, r in reversed(banded) if r.low is not None
            )
            group.append(f'<polygon points="{upper} {lower}" fill="{colour}" class="band"/>')
        line = " ".join(f"{x(d):.1f},{y(r.elo):.1f}" for d, r in points)
        dashed = f' stroke-dasharray="{dash}"' if dash else ""
        group.append(
            f'<polyline points="{line}" stroke="{colour}"{dashed} class="line" fill="none"/>'
        )
        for deals, rating in points:
            interval = interval_text(rating, signed)
            group.append(
                f'<circle cx="{x(deals):.1f}" cy="{y(rating.elo):.1f}" r="3" fill="{colour}">'
                f"<title>{escape(visible(name))} after {deals:,} deals: "
                f"{elo_text(rating.elo, signed)} ({interval})</title></circle>"
            )
        group.append("</g>")
        parts.extend(group)
        final = next((r for r in last.ratings if r.name == name), None)
        text = escape(_short(visible(name)))
        if final is not None:
            text += f"  {elo_text(final.elo, signed)} ({interval_text(final, signed)})"
        ly = _TOP + 8 + place * 20
        parts.append(
            f'<line x1="{legend_x}" x2="{legend_x + 22}" y1="{ly}" y2="{ly}" stroke="{colour}"'
            f'{dashed} class="line"/>'
            f'<text x="{legend_x + 28}" y="{ly + 4}" class="legend">{text}'
            f"<title>{escape(visible(name))}</title></text>"
        )
    parts.append("</svg>")
    return "".join(parts)
