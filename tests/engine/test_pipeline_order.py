"""The order in which the rules act (rules 6 and 7): engine/imperial/pipelines.py, pinned here so
that a change to it is a deliberate, reviewed change of the game's timing.
"""
from engine.imperial import days, pipelines
from engine.imperial.state import ImperialState


def names(steps) -> list[str]:
    return [f"{step.__module__.rsplit('.', 1)[-1]}.{step.__name__}" for step in steps]


def test_a_decided_proposal_runs_these_steps_in_this_order():
    assert names(pipelines.PROPOSAL_STEPS) == [
        "judging.check_directive",     # rule 3: outside the Directive's area -> ignored
        "judging.check_probation",     # rule 3: a rejection on Probation -> ignored with prejudice
        "proclamations.enact_proposal",  # rules 3, 7: an accepted Proposal's rule changes, before it is scored
        "judging.base_points",         # rule 11: +3 / -2 / 0
        "retool.retool_points",        # rule 14: one point less either way
        "ff.forfeit_points",           # rule 16: Become FF forfeits the points
        "judging.record_verdict",
        "tag.restore",                 # rule 22: the first accepted Proposal of an Inactive player earns nothing
        "judging.award_points",        # rule 11 (inverted above 50)
        "judging.streak_heat",         # rule 12
        "retool.retool_profile",       # rule 14
        "retool.sealant",              # rule 14
        "ff.become_ff",                # rule 16 (after the streak: "post-proposal streak count")
        "violence.vandalism",          # rule 21
        "judging.track_probation",     # rule 3
        "judging.track_directive",     # rule 3
        "judging.track_last_accepted",  # rules 11 and 12: the winner at 0 K
    ]


def test_the_end_of_a_day_follows_rule_6():
    assert names(pipelines.DAY_END_STEPS) == [
        "player_of_the_day.reward",    # scoring triggered by the rules (rule 18)
        "violence.judge_reports",      # rule 21: reports are judged on the day's final Profiles
        "temperature.and_check",       # rule 12: "after all other scoring effects for that game day"
        "retool.sealant_expires",      # non-scoring changes (rule 14) ...
        "tag.transfer",                # ... rule 22 tags take effect at the end of the day
        "tag.time_out",
        "temperature.cooling",         # rule 12: cooling "occurs after Player Profiles have been ANDed"
    ]
    assert names(pipelines.DAY_START_STEPS) == ["retool.sealant_starts", "player_of_the_day.choose_at_start"]


def test_without_rule_6_the_end_of_a_day_follows_rule_7():
    """Lowest rule first, after rule 12's own precedence: the AND check after all other scoring,
    cooling after the AND check."""
    state = ImperialState.model_validate({"started": "2026-01-05T00:00:00Z", "day_started": "2026-01-05T00:00:00Z"})
    assert names(days.end_steps(state)) == [
        "player_of_the_day.reward", "violence.judge_reports", "temperature.and_check", "temperature.cooling",
        "retool.sealant_expires", "tag.transfer", "tag.time_out",
    ]
