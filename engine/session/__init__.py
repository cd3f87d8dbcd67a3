"""Sessions: a live encounter over a store — load, decide, append, fold."""

from engine.session.live import LiveEncounter, load_state, stored_events

__all__ = ["LiveEncounter", "load_state", "stored_events"]
