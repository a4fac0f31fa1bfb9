"""The game of Zole as pure data and functions: cards, the deal, actions, rules, scoring and the
state of a deal. No I/O and no processes; everything above builds on it."""
