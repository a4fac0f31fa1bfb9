"""Benchmarks that print figures: the engine, the protocol, a match against its bare loop,
sandboxed starts and tournaments."""
