"""``python -m zole_arena``: the same as the ``zole-arena`` command."""

from zole_arena.cli.main import main

main()
