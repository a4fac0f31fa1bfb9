"""Who sits at the table: bot processes and their dialogue, Python bots written as objects
(run as programs or seated in the arena's process), the bundled bots, and a person at the
keyboard."""
