"""The order in which Imperial Nomic's rules act, as literal lists (rules 6 and 7).

A decided Proposal runs ``PROPOSAL_STEPS`` (decisions.conclude); a day's end runs
``DAY_END_STEPS`` in rule 6's order (or, without rule 6, rule 7's: ``RULE_7_ORDER``),
then the day moves on and ``DAY_START_STEPS`` run (days.end_day). To add a rule's
step, write it in the rule's module (its types from ``steps``) and list it here where
it belongs. What a temperature change sets off is ``temperature.OBSERVERS``.
"""
from __future__ import annotations

from engine.imperial import ff, judging, player_of_the_day, proclamations, retool, tag, temperature, violence
from engine.imperial.steps import DayStep, ProposalStep

PROPOSAL_STEPS: list[ProposalStep] = [
    judging.check_directive,        # rule 3: outside the Directive's area -> ignored
    judging.check_probation,        # rule 3: a rejection on Probation -> ignored with prejudice
    proclamations.enact_proposal,   # rules 3, 7: an accepted Proposal's rule changes, before it is scored
    judging.base_points,            # rule 11: +3 / -2 / 0
    retool.retool_points,           # rule 14: one point less either way
    ff.forfeit_points,              # rule 16: Become FF forfeits the points
    judging.record_verdict,
    tag.restore,                    # rule 22: the first accepted Proposal of an Inactive player earns nothing
    judging.award_points,           # rule 11 (inverted above 50)
    judging.streak_heat,            # rule 12
    retool.retool_profile,          # rule 14
    retool.sealant,                 # rule 14
    ff.become_ff,                   # rule 16 (after the streak: "post-proposal streak count")
    violence.vandalism,             # rule 21
    judging.track_probation,        # rule 3
    judging.track_directive,        # rule 3
    judging.track_last_accepted,    # rules 11 and 12: the winner at 0 K
]

# Rule 6: scoring triggered by the rules, then rule 12's AND check ("after all other scoring
# effects"), then changes that do not affect scoring, then cooling (whose drop to 0 K makes TEW
# "after Player Profiles have been ANDed").
DAY_END_STEPS: list[DayStep] = [
    player_of_the_day.reward,       # rule 18
    violence.judge_reports,         # rule 21: reports are judged on the day's final Profiles
    temperature.and_check,          # rule 12
    retool.sealant_expires,         # rule 14
    tag.transfer,                   # rule 22: tags take effect at the end of the day
    tag.time_out,                   # rule 22
    temperature.cooling,            # rule 12
]
DAY_START_STEPS: list[DayStep] = [retool.sealant_starts, player_of_the_day.choose_at_start]

# Without rule 6, rule 7's order: lowest rule first, after the precedence the rules state
# themselves (rule 12: the AND check after all other scoring, cooling after it):
# (0, rule) for the steps that score before the AND check, (1, rule) for it and the rest.
RULE_7_ORDER: dict[DayStep, tuple[int, int]] = {
    player_of_the_day.reward: (0, 18), violence.judge_reports: (0, 21),
    temperature.and_check: (1, 12), temperature.cooling: (1, 12),
    retool.sealant_expires: (1, 14), tag.transfer: (1, 22), tag.time_out: (1, 22),
}
