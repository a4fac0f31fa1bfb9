"""The catalogue of bots the package ships: the bundled bots and how a bot argument becomes a
command (:mod:`.bundled`), and the starter bots ``new-bot`` copies (:mod:`.starters`).

Its own audience (a command line's bot arguments, a new bot author's first files), apart from
the process stack in :mod:`zole_arena.players` and the bot author's SDK in :mod:`zole_arena.sdk`.
"""
