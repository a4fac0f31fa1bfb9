"""Analysis of logged deals: the open-card value of every decision, and where bots lose points.

Layers, low to high: :mod:`~zole_arena.analysis.solver` (the compiled solver's process and its
requests), :mod:`~zole_arena.analysis.outcomes` (its answers as scores), :mod:`~zole_arena.
analysis.bids` and :mod:`~zole_arena.analysis.deal` (one deal's decisions), :mod:`~zole_arena.
analysis.model` (the typed values), :mod:`~zole_arena.analysis.store` (analysis files),
:mod:`~zole_arena.analysis.run` (logs on every core, cached) and :mod:`~zole_arena.analysis.
summary` (per-bot figures). ``docs/analysis.md`` says what the values mean.
"""
