"""Reference engine for Unknown Armies encounters: every roll is an event, state is a fold."""

__version__ = "0.1.0"
