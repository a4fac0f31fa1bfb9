"""The bundled bots' first path, kept for the code written on it (``docs/library-bots.md``
gave it): the same objects as :mod:`zole_arena.catalogue.bundled`, where new code imports them."""

from __future__ import annotations

from zole_arena.catalogue import bundled
from zole_arena.catalogue.bundled import *  # noqa: F403

__all__ = bundled.__all__
