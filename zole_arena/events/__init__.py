"""Runs made of many matches: tournaments (their schedule, worker processes and resume) and
head-to-head sequential tests."""
