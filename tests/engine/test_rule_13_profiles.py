"""Rule 13: every player gets a Profile from their address when they join."""
from hypothesis import given, strategies as st

from engine.imperial.profiles import as_bits, mask, profile_from_email, raised
from tests.engine.imperial_play import OFFICER_ROWS
from tests.engine.rule_support import public

TIVOL = "tivol@mit.edu"


def test_the_rules_own_example():
    assert profile_from_email(TIVOL) == 44373
    assert as_bits(44373) == "1010110101010101"  # t i v o l m i t e d u t i v o l


def test_y_is_a_consonant_and_no_letters_is_fully_depressed():
    assert profile_from_email("yyy@yy.yy") == 65535
    assert as_bits(profile_from_email("ya@a.a")) == "1000100010001000"  # y a a a, repeated
    assert profile_from_email("1234@5.6") == 0


def test_letters_are_unicode_letters_and_accented_vowels_are_vowels():
    # j o s é e x e m p l e f r, repeated: é is a letter and a vowel (ASCII-only reading: 43962)
    assert as_bits(profile_from_email("josé@exemple.fr")) == "1010010111011101"
    assert profile_from_email("josé@exemple.fr") == 42461
    # ø æ ß ü ý: only ü is a vowel (ø and æ have no NFKD decomposition; ý is a y)
    assert as_bits(profile_from_email("øæß@ü.ý")) == "1110111101111011"


def test_section_one_is_the_fat_end_the_most_significant_bit():
    assert mask(1) == 0x8000 and mask(16) == 1
    assert raised(44373, 1) and not raised(44373, 2) and raised(44373, 16)


@given(st.emails())
def test_every_profile_fits_sixteen_bits(email):
    assert 0 <= profile_from_email(email) <= 65535


def test_joining_gives_the_profile_in_the_state(play):
    play.propose(TIVOL, "Whap me")
    play.propose("yves@yy.zz", "Me too")
    assert public(play.state()) == {
        "game_day": 1, "temperature": 303, "woodchips": 0, "accept_streak": 0, "reject_streak": 0,
        "it": TIVOL, "winner": None, "directive": None,
        "players": [
            *OFFICER_ROWS,  # rule 1: TIE and THS from the start, with Profiles of their own
            {"email": TIVOL, "name": "tivol", "score": 0, "profile": 44373, "entropy": 1,
             "category": "GP", "probation": False, "active": True, "sealed": False},
            # y v e s y y z z y v e s y y z z: only the e's are depressed
            {"email": "yves@yy.zz", "name": "yves", "score": 0, "profile": 0b1101111111011111,
             "entropy": 6, "category": "GP", "probation": False, "active": True, "sealed": False},
        ],
        "submissions": [
            {"number": 1, "kind": "proposal", "author": TIVOL, "title": "Whap me",
             "status": "pending", "reason": None},
            {"number": 2, "kind": "proposal", "author": "yves@yy.zz", "title": "Me too",
             "status": "pending", "reason": None},
        ],
    }
    play.verify()
