"""Statistics of results: Elo ratings with intervals, their course over time, and the
mathematics of the sequential test. Reads records; plays nothing."""
