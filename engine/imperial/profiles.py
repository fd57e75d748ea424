"""Rule 13: Profiles as 16-bit integers; section 1 is the fat end, the most significant bit.

Everything here is pure arithmetic on the integer representation, shared by
retooling, rotations, swaps, vandalism, Tivol and bit-difference reports.
"""
from __future__ import annotations

import unicodedata
from typing import Literal

from engine.context import Context
from engine.imperial.state import ImperialPlayer
from engine.imperial.events import Profile

VOWELS = frozenset("aeiou")
SECTIONS = 16
FULL = (1 << SECTIONS) - 1


def profile_from_email(email: str) -> int:
    """Letters of the address, repeated to 16; consonants raised (1), vowels depressed (0).

    A letter is any Unicode letter (``str.isalpha``); a vowel is a, e, i, o or u,
    accented or not (the first character of its NFKD form), so the é of
    ``josé`` is a vowel. 'y' and every other letter count as consonants
    (docs/rulings.md, rule 13). An address with no letters at all gets a fully
    depressed Profile.
    """
    letters = [c for c in email.lower() if c.isalpha()]
    if not letters:
        return 0
    value = 0
    for i in range(SECTIONS):
        value = (value << 1) | (not _is_vowel(letters[i % len(letters)]))
    return value


def _is_vowel(letter: str) -> bool:
    return unicodedata.normalize("NFKD", letter)[:1] in VOWELS


def mask(section: int) -> int:
    """The bit of section 1..16 (section 1 is the most significant bit)."""
    if not 1 <= section <= SECTIONS:
        raise ValueError(f"section {section} is not between 1 and {SECTIONS}")
    return 1 << (SECTIONS - section)


def raised(profile: int, section: int) -> bool:
    return bool(profile & mask(section))


def flip(profile: int, section: int) -> int:
    return profile ^ mask(section)


def raised_sections(profile: int) -> list[int]:
    return [s for s in range(1, SECTIONS + 1) if raised(profile, s)]


def rotate(profile: int, direction: Literal["left", "right"]) -> int:
    """Rule 14: right moves the least significant bit to the top, left the top bit to the bottom."""
    if direction == "right":
        return (profile >> 1) | ((profile & 1) << (SECTIONS - 1))
    return ((profile << 1) & FULL) | (profile >> (SECTIONS - 1))


def window(profile: int, first: int, width: int = 4) -> int:
    """The ``width`` sections starting at ``first``, as an integer (first section highest)."""
    shift = SECTIONS - (first + width - 1)
    return (profile >> shift) & ((1 << width) - 1)


def put_window(profile: int, first: int, bits: int, width: int = 4) -> int:
    """``profile`` with sections first..first+width-1 replaced by ``bits``."""
    shift = SECTIONS - (first + width - 1)
    hole = ((1 << width) - 1) << shift
    return (profile & ~hole & FULL) | (bits << shift)


def bit_difference(a: int, b: int) -> int:
    """How many sections differ between two Profiles (rule 21 reports)."""
    return bin((a ^ b) & FULL).count("1")


def as_bits(profile: int) -> str:
    """Section 1 first: '1010...' as TIE would write it beneath the plank."""
    return format(profile & FULL, f"0{SECTIONS}b")


def reshape(player: ImperialPlayer, new: int, cause: str, ctx: Context, submission: int | None = None) -> str:
    """Give ``player`` the Profile ``new`` (a ``profile`` event); returns 'old -> new' for answers."""
    old, player.profile = player.profile, new & FULL
    ctx.emit(Profile(player=player.email, old=old, new=player.profile, cause=cause,
                     submission=submission))
    return f"Profile {as_bits(old)} -> {as_bits(player.profile)}"
