"""BLAKE2b for event ids, dice stream keys, snapshot layouts and log checksums.

`hashlib.blake2b` is CPython's built-in `_blake2.blake2b`; taken from `_blake2` directly, a
command does not load hashlib, whose OpenSSL bindings take a few milliseconds of every start
(and which none of these hashes uses)."""

from __future__ import annotations

try:
    from _blake2 import blake2b
except ImportError:  # another Python: the same hash through hashlib
    from hashlib import blake2b

__all__ = ["blake2b"]
