"""Who sits at the table: bot processes and their dialogue, the bundled bots, and a person at
the keyboard."""
