"""Rule 13: Profiles as 16-bit integers; section 1 is the fat end, the most significant bit."""
from __future__ import annotations

VOWELS = frozenset("aeiou")


def profile_from_email(email: str) -> int:
    """Letters of the address, repeated to 16; consonants raised (1), vowels depressed (0).

    'y' counts as a consonant (docs/rulings.md, rule 13). An address with no
    letters at all gets a fully depressed Profile.
    """
    letters = [c for c in email.lower() if "a" <= c <= "z"]
    if not letters:
        return 0
    value = 0
    for i in range(16):
        value = (value << 1) | (letters[i % len(letters)] not in VOWELS)
    return value
