"""A chart of ratings over time: each player's Elo line, with its 95 % band, against the
number of deals rated so far (``zole-arena ratings --plot FILE``).

The checkpoints come from :func:`zole_arena.stats.ratings.ratings_over_time`; this module only
draws them. matplotlib is an optional extra (``pip install 'zole-arena[plot]'``): it is
imported when a chart is drawn, never when this module is, and the chart is drawn on an Agg
canvas (no display needed: charts can be made on a server or in CI) without pyplot, so it
changes no global matplotlib state.
"""

from __future__ import annotations

import importlib
import math
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

from zole_arena.errors import ZoleError
from zole_arena.stats.ratings import NOT_ESTIMATED, RatingList

__all__ = [
    "INSTALL_HINT",
    "PlotError",
    "check_plot_path",
    "plot_ratings_over_time",
]

#: How to get the optional dependency, for the error message.
INSTALL_HINT: Final = "pip install 'zole-arena[plot]'"
#: The chart's size in inches and its resolution: 1200 × 720 pixels.
_SIZE: Final = (10.0, 6.0)
_DPI: Final = 120


class PlotError(ZoleError):
    """A chart that cannot be drawn: no matplotlib, or a file that cannot be written."""


def _figure() -> Any:
    """A new matplotlib figure on an Agg canvas, or a :class:`PlotError` that says how to
    install matplotlib.

    The figure is made without pyplot, so drawing a chart changes no global state: not the
    backend of a program (or notebook) that uses matplotlib itself, nor pyplot's list of
    open figures.
    """
    try:
        agg = importlib.import_module("matplotlib.backends.backend_agg")
        figure = importlib.import_module("matplotlib.figure")
    except ImportError as exc:
        raise PlotError(
            f"--plot needs matplotlib, which is not installed ({exc}): {INSTALL_HINT}"
        ) from None
    made = figure.Figure(figsize=_SIZE, dpi=_DPI, layout="constrained")
    agg.FigureCanvasAgg(made)
    return made


def check_plot_path(path: str | os.PathLike[str]) -> Path:
    """Check, before any work is done, that a chart can be written to ``path``: matplotlib is
    installed, the folder exists and is writable, and the suffix names a format matplotlib
    writes (``.png``, ``.svg``, ``.pdf``, …).

    :raises PlotError: with a one-line message saying what is wrong.
    """
    formats = _figure().canvas.get_supported_filetypes()
    target = Path(path)
    folder = target.parent
    if target.is_dir():
        raise PlotError(f"cannot write the chart to {target}: it is a folder")
    if not folder.is_dir():
        raise PlotError(f"cannot write the chart to {target}: no folder {folder}")
    if not os.access(folder, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
        raise PlotError(f"cannot write the chart to {target}: permission denied")
    suffix = target.suffix.lstrip(".").lower()
    if suffix not in formats:
        known = ", ".join(f".{name}" for name in sorted(formats))
        raise PlotError(f"cannot write the chart to {target}: name it with one of {known}")
    return target


def plot_ratings_over_time(
    checkpoints: Sequence[RatingList],
    path: str | os.PathLike[str],
    *,
    title: str = "Ratings over time",
) -> Path:
    """Draw ``checkpoints`` (oldest first) to ``path`` and return the path.

    Each player gets a line through its rating at every checkpoint where it has one, and a
    shaded band from the interval's low to its high end (none where the interval cannot be
    estimated: the legend says n/a); the x axis is the number of deals rated so far. The
    legend lists the players strongest first (by the last checkpoint), with their last rating
    and interval; below the title a line says how the ratings were computed.

    :raises PlotError: no checkpoints, no matplotlib, a file that cannot be written.
    """
    if not checkpoints:
        raise PlotError("no ratings to draw")
    target = check_plot_path(path)
    figure = _figure()
    axes = figure.subplots()
    last = checkpoints[-1]
    order = [rating.name for rating in last.ratings]
    order += sorted({r.name for c in checkpoints for r in c.ratings} - set(order))
    for name in order:
        points = [
            (checkpoint.deals, rating)
            for checkpoint in checkpoints
            for rating in checkpoint.ratings
            if rating.name == name
        ]
        xs = [deals for deals, _ in points]
        final = next((r for r in last.ratings if r.name == name), None)
        label = name
        if final is not None:
            sign = "+" if last.anchor is None else ""  # signed around an average of 0
            interval = NOT_ESTIMATED
            if final.low is not None and final.high is not None:
                interval = f"{final.low:{sign}.0f} … {final.high:{sign}.0f}"
            label = f"{name}  {final.elo:{sign}.0f} ({interval})"
        (line,) = axes.plot(xs, [r.elo for _, r in points], marker="o", markersize=3, label=label)
        axes.fill_between(  # NaN, where the interval cannot be estimated, leaves a gap
            xs,
            [math.nan if r.low is None else r.low for _, r in points],
            [math.nan if r.high is None else r.high for _, r in points],
            color=line.get_color(),
            alpha=0.18,
            linewidth=0,
        )
    axes.set_xlabel("deals rated so far")
    axes.set_ylabel("Elo")
    axes.set_xlim(left=0)
    axes.grid(True, alpha=0.3)
    anchor = "average 0" if last.anchor is None else f"{last.anchor[0]} at {last.anchor[1]:g}"
    axes.set_title(
        f"{title}\n"
        f"Bradley-Terry (Elo) fit of every deal's pairwise games, {anchor}; bands: 95% "
        f"bootstrap over clusters of deals that share cards, {last.bootstrap} resamples per point",
        fontsize="medium",
    )
    axes.legend(title="last rating (95% interval)", loc="best", fontsize="small")
    _save(figure, target)
    return target


def _save(figure: Any, target: Path) -> None:
    try:
        figure.savefig(target)
    except OSError as exc:
        raise PlotError(f"cannot write the chart to {target}: {exc.strerror or exc}") from None
