"""The bots bundled with zole-arena, installed as the package ``zole_arena_bots``.

Each bot is a standalone program that speaks the protocol in ``protocol/README.md``; none
imports zole_arena. ``zole-arena bots`` lists them with the commands behind their short names.
"""
