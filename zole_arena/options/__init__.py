"""The options of every command, declared once, and the settings their values make.

:mod:`~zole_arena.options.registry` declares each option (its flag, type, bounds, help and
the commands that take it; defaults read from the settings dataclasses of the layers below,
so that they flow one way: from the library to the flags); :mod:`~zole_arena.options.values`
turns the values given — on the command line or in a tournament's config file
(:mod:`~zole_arena.options.config`) — into a match's or tournament's settings. The command
line (:mod:`zole_arena.cli.options`) is made from the registry; a library user who builds
:class:`~zole_arena.arena.settings.MatchSettings` or
:class:`~zole_arena.events.settings.TournamentSettings` directly needs none of it.
"""
