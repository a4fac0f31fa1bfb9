"""The exception hierarchy of zole-arena.

Every error that a user can cause (bad notation, an illegal action, a bad rules file) is a
:class:`ZoleError`, so the command line can turn it into a one-line message and a non-zero exit
code, while a library user can still catch the built-in base (``ValueError``) it also derives
from.
"""

from __future__ import annotations


class ZoleError(Exception):
    """Base class of every error zole-arena raises on purpose."""


class NotationError(ZoleError, ValueError):
    """Text that should name a card, a bid or a seat does not."""


class IllegalActionError(ZoleError, ValueError):
    """An action that the rules do not allow at this point of the deal."""


class RulesError(ZoleError, ValueError):
    """A rules file or preset name that cannot be used."""
