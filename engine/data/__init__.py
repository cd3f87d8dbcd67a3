"""Data shipped with the engine (the weapon catalog)."""
