"""The ``zole-arena`` command line: a thin layer of typer commands over the library."""
