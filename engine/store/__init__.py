"""The event log: append with an expected version, read from a position, list streams.
Stores know positions, ids, type names and bytes — never what an event means.

One module per store (`memory`, `sqlite`, `jsonl`), beside the interface (`base`); this package
imports none of them, so a command opens only the store it uses.
"""
