"""Deals between players: the referee, matches and their logs, re-playing and verifying logs,
and the conformance check of a bot."""
