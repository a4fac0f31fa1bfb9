"""The bots bundled with zole-arena, installed as the package ``zole_arena_bots``.

Each bot is a standalone program that speaks the protocol in ``protocol/README.md``. The Python
ones are written on the library's bot class (:mod:`zole_arena.sdk`), so a match can
also seat them in its own process; the C ones (``c/``) are plain programs.
``zole-arena bots`` lists them with the commands behind their short names.
"""
