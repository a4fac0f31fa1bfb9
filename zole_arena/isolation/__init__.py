"""What keeps a bot to itself: the bubblewrap sandbox, its system call filter, control groups
for whole-bot limits, and CPU placement. Knows nothing of the game."""
