"""Fair dice: every random number is derived from the game's secret seed and a label.

``draw(seed, label, low, high)`` takes HMAC-SHA256(key=seed, msg=label#counter),
reads the 32-byte digest as a big-endian integer and accepts it if it falls
below the largest multiple of the range size (rejection sampling, so every
result is equally likely); otherwise it retries with the next counter.
docs/randomness.md says how anyone can check a draw once the seed is revealed.
"""
from __future__ import annotations

import hashlib
import hmac

_SPACE = 1 << 256


def draw(seed: str, label: str, low: int, high: int) -> int:
    """A uniform integer in [low, high], fixed by seed and label."""
    if high < low:
        raise ValueError(f"empty range [{low}, {high}] for draw {label!r}")
    size = high - low + 1
    limit = _SPACE - (_SPACE % size)
    counter = 0
    while True:
        msg = f"{label}#{counter}".encode()
        value = int.from_bytes(hmac.new(seed.encode(), msg, hashlib.sha256).digest(), "big")
        if value < limit:
            return low + value % size
        counter += 1


def seed_hash(seed: str) -> str:
    """The commitment published from day 1: SHA-256 of the seed's UTF-8 bytes, hex."""
    return hashlib.sha256(seed.encode()).hexdigest()
