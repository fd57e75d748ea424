"""BlogNomic (shared/rulesets/blognomic-149.txt; edition "109"), one module per concern.

The engine is pure: state and a message (or a clock step) in, the new state and events out.

Events (``data`` keys in brackets):

- ``matter_opened``: a Proposal, CfJ or DoV got its number [number, kind, author, title, opened_at,
  quorum, changes, by_hand (prose to apply by hand), co_victors]
- ``vote``: an icon was cast [number, voter, icon, vote (the voter's Vote as shown now), tally
  {for, against, deferential}, quorum, self_killed, vetoed]
- ``resolved``: a matter was Enacted or Failed [number, kind, title, author, status, tally (the
  standard line: "Enacted 5-1 (Quorum 4), 2 DEF→FOR via the Seraphim", "Self-killed",
  "Vetoed", "Timed out 2-3", "Failed 1-3 (Quorum 4)"), by (an Admin, or the game's address
  when automatic), at]
- ``amended``: an enacted matter's change lines applied [number, changes [{action, rule,
  result}], by_hand]
- ``applied``: an Admin applied an enacted matter's prose by hand (``Applied N: NOTE``) [number, by, note]
- ``hiatus``: the Hiatus began or ended [on, why]
- ``dynasty``: an enacted DoV began a Dynasty [number, seraphims, victor, co_victors, dov]
- ``seraphims``: the heads of the new Dynasty changed [dynasty, seraphims, cause]
- ``ascension``: the Hiatus after a DoV ended [dynasty, theme, kept_rules, repealed, failed, renamed]
- ``joined``, ``left``: [player, name]; ``idle``: [player, idle, by_self, quorum]
- ``roll``: a die or generator [n, player, die, result] (with the ``draw`` event of ctx.draw)
- ``outcome`` (ctx.say), ``subscription``, ``list_post``, ``unauthenticated``, ``automatic``: as
  every ruleset (engine/events.py)
"""
from engine.blognomic.ruleset import RULESET

__all__ = ["RULESET"]
