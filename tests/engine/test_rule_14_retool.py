"""Rule 14: retooling one section, wood chips, the random flip, two requests, rotations."""
from hypothesis import given, strategies as st

from engine.imperial.profiles import bit_difference, put_window, rotate, window
from tests.support import GRAMMAR
from tests.engine.imperial_play import ALICE, BOB, ledger
from tests.engine.rule_support import officers, NOBODY, player, proposal, public, roll, top

# ALICE 0101010110110110 (21942), BOB 1011001101011101 (45917)


def test_rotations_are_the_rules_examples_on_sixteen_bits():
    # rule 14: 011001 -> right 101100, left 110010; the bit that falls off one end comes back at the other
    assert rotate(0b0000000000011001, "right") == 0b1000000000001100
    assert rotate(0b0000000000011001, "left") == 0b0000000000110010
    assert rotate(0b0110010000000000, "right") == 0b0011001000000000
    assert rotate(0b0110010000000000, "left") == 0b1100100000000000
    assert rotate(0b1000000000000001, "left") == 0b0000000000000011


profiles = st.integers(0, 65535)


@given(profiles)
def test_rotating_left_undoes_rotating_right_and_keeps_the_raised_count(p):
    assert rotate(rotate(p, "right"), "left") == p
    assert bin(rotate(p, "left")).count("1") == bin(p).count("1")


@given(profiles, profiles, st.integers(1, 13), st.integers(1, 13))
def test_a_swap_of_windows_changes_only_those_sections(a, b, i, j):
    new_a = put_window(a, i, window(b, j))
    assert window(new_a, i) == window(b, j)
    assert bit_difference(new_a, a) <= 4
    assert new_a & ~(0b1111 << (16 - i - 3)) & 0xFFFF == a & ~(0b1111 << (16 - i - 3)) & 0xFFFF


def test_shave_makes_a_chip_and_a_raise_takes_it_each_for_two_points(make_play):
    play = make_play(first_it=NOBODY)
    play.propose(ALICE, "Trim", "Shave section 2")
    out = play.judge("Accept 1")
    assert ("Proposal 1 accepted: +2 points (now 2); temperature stays 303 K; "
            "section 2 shaved: Profile 0101010110110110 -> 0001010110110110") in out
    play.propose(BOB, "Glue", "Raise section 2")
    out = play.judge("Accept 2")
    assert "section 2 raised: Profile 1011001101011101 -> 1111001101011101" in out
    assert public(play.state()) == {
        **top(temperature=304, accept_streak=2),
        "players": [*officers(), player(ALICE, 2, 0b0001010110110110, 0), player(BOB, 2, 0b1111001101011101, 3)],
        "submissions": [proposal(1, ALICE, "Trim", "accepted"), proposal(2, BOB, "Glue", "accepted")],
    }
    play.verify()


def test_a_raise_with_an_empty_pool_is_not_granted_and_costs_nothing(make_play):
    play = make_play(first_it=NOBODY)
    play.propose(ALICE, "Glue", "Raise section 1")
    out = play.judge("Accept 1")
    assert "raise not granted: the pool of wood chips is empty (rule 14); +3 points (now 3)" in out
    assert public(play.state())["players"] == [*officers(), player(ALICE, 3, 21942, 1)]
    play.verify()


def test_a_raised_section_cannot_be_raised_nor_a_depressed_one_shaved(make_play):
    play = make_play(first_it=NOBODY)
    play.propose(ALICE, "Glue", "Raise section 2")
    play.propose(ALICE, "Trim", "Shave section 1")
    assert "raise not granted: section 2 is already raised (rule 14); +3 points (now 3)" in play.judge("Accept 1")
    assert "shave not granted: section 1 is already depressed (rule 14); -2 points (now 1)" in play.judge("Reject 2")
    assert public(play.state())["players"] == [*officers(), player(ALICE, 1, 21942, 1)]
    play.verify()


def test_a_rejected_retool_costs_one_and_flips_one_of_the_other_fifteen_at_random(make_play):
    play = make_play(first_it=NOBODY)
    play.propose(ALICE, "Trim", "Shave section 2")
    others = [s for s in range(1, 17) if s != 2]
    section = others[roll("day:1:retool-flip:1", 1, 15) - 1]
    assert section == 9  # the seed's draw: 8th of the others
    out = play.judge("Reject 1")
    assert ("Proposal 1 rejected: -1 point (now -1); temperature 303 -> 298 K; "
            "section 9 flipped at random: Profile 0101010110110110 -> 0101010100110110") in out
    assert public(play.state()) == {
        **top(temperature=298, reject_streak=1),
        "players": [*officers(), player(ALICE, -1, 0b0101010100110110, 0)],
        "submissions": [proposal(1, ALICE, "Trim", "rejected")],
    }
    assert ledger(play) == [(ALICE, -1, -1, "Proposal 1 rejected")]
    assert [(e["rule"], e["also"]) for e in play.state()["ledger"]] == [
        (11, "one point less penalty for the retool request (rule 14)")]
    play.verify()


def test_a_rejected_raise_with_an_empty_pool_takes_the_rejection_clause(make_play):
    """The empty pool stops a raise from being *granted*; a rejected raise is rule 14's rejection:
    one less penalty and a random flip of one of the other fifteen sections."""
    play = make_play(first_it=NOBODY)
    play.propose(ALICE, "Glue", "Raise section 1")
    others = list(range(2, 17))
    section = others[roll("day:1:retool-flip:1", 1, 15) - 1]
    assert section == 9  # the seed's draw
    out = play.judge("Reject 1")
    assert ("Proposal 1 rejected: -1 point (now -1); temperature 303 -> 298 K; "
            "section 9 flipped at random: Profile 0101010110110110 -> 0101010100110110") in out
    assert public(play.state()) == {
        **top(temperature=298, reject_streak=1),
        "players": [*officers(), player(ALICE, -1, 0b0101010100110110, 0)],
        "submissions": [proposal(1, ALICE, "Glue", "rejected")],
    }
    play.verify()


def test_two_section_requests_make_the_proposal_ignored_a_rotation_is_one(make_play):
    play = make_play(first_it=NOBODY)
    out = play.propose(ALICE, "Greedy", "Shave section 2\nRaise section 1")
    reason = "it asks to change two or more sections of a Profile (rule 14)"
    assert f"Proposal 1 ignored ({reason}): no points (still 0); temperature 303 -> 298 K" in out
    play.propose(ALICE, "Spin", "Rotate right")
    assert "submission 1 was already ignored; nothing done" in play.judge("Accept 1")
    out = play.judge("Accept 2")
    assert ("Proposal 2 accepted: +2 points (now 2); temperature stays 298 K; rotated right: "
            "Profile 0101010110110110 -> 0010101011011011") in out
    assert reason in play.propose(ALICE, "Spin twice", "Rotate left\nRotate left")
    play.propose(ALICE, "Spin and vandalise", "Rotate left\nVandalize bob section 1")  # two Profiles
    section = roll("day:1:retool-flip:4", 1, 16)  # a rotation has no section of its own: any of 16
    assert section == 6
    out = play.judge("Reject 4")
    assert ("Proposal 4 rejected: -1 point (now 1); temperature 293 -> 288 K; section 6 flipped at random: "
            "Profile 0010101011011011 -> 0010111011011011") in out
    assert public(play.state()) == {
        **top(temperature=288, reject_streak=1),
        "players": [*officers(), player(ALICE, 1, 0b0010111011011011, 2)],
        "submissions": [proposal(1, ALICE, "Greedy", "ignored", reason),
                        proposal(2, ALICE, "Spin", "accepted"),
                        proposal(3, ALICE, "Spin twice", "ignored", reason),
                        proposal(4, ALICE, "Spin and vandalise", "rejected")],
    }
    play.verify()


def test_the_contracts_request_lines_are_read_in_any_case():
    body = ("raise SECTION 3\nShave section 16\nROTATE Left\nsealant\nBecome ff\nDefend\n"
            "Vandalise Alice Liddell section 3")
    [cmd] = GRAMMAR.read("Proposal: X", body).commands
    assert [r.model_dump(exclude_none=True) for r in cmd.requests] == [
        {"kind": "raise", "section": 3}, {"kind": "shave", "section": 16},
        {"kind": "rotate", "direction": "left"}, {"kind": "sealant"}, {"kind": "become_ff"},
        {"kind": "defend"}, {"kind": "vandalize", "section": 3, "target": "Alice Liddell"}]
    swap, agree = GRAMMAR.read("swap", "Swap sections 1 - 4 with Alice Liddell sections 5-8\nAgree swap #2").commands
    assert (swap.first, swap.last, swap.partner, swap.partner_first, swap.partner_last) == (
        1, 4, "Alice Liddell", 5, 8)
    assert agree.number == 2
