"""Suber's Nomic (rulesets/suber-nomic-2005.txt, CONTRACT.md "Suber's Nomic"), one module per concern:
``turns`` (201, 203's circuits), ``proposals`` (108, 202), ``changes`` (103, 108, 109, 114, 209),
``voting`` (104-107, 111, 203-207), ``points`` (202, 204, 206, 208), ``judgment`` (212), ``calls``
(305, where ``[suber] call_for_action = true``). Readings of what the rules leave open:
docs/rulings-suber.md.

Events (``data`` keys in brackets), besides ``outcome`` lines and the list's events:

- ``joined``: a player joined [player, name, position (1-based, in turn order)]
- ``proposed``: a proposal numbered [number, author, title, changes, unanimity (needed to adopt)]
- ``vote_called``: the proposer ended debate [number, author]
- ``voted``: a vote cast [number, player, vote ("yes" | "no")]
- ``completed``: a vote completed [number, status ("adopted" | "defeated"), yes, no, points, unanimity]
- ``rules_changed``: an adopted proposal's changes took effect [number, changes]
- ``score``: a score changed, mirrors the ledger [player, delta, score, cause, rule, proposal]
- ``winner``: the game has ended: a player reached 200 points (rule 208), or a Judgment found
  that play cannot continue (rule 213) [player, score, rule]
- ``turn``: the turn passed [player, circuit, turns_ended]
- ``unanimity_ended``: rule 203 now requires a simple majority [circuit, rule]
- ``judgment_invoked``: Judgment invoked [number, question, by, judge, mover]
- ``judgment``: the Judge answered [number, judge, question, text]
- ``overruled``: the others overruled a Judgment; a new Judge [number, judge, previous]
- ``consent``: consent to the next turn after Judgment [player, turn, given (a majority now)]
- ``call_for_action``: rule 305's call [by, player, vote_at]
- ``skip_vote_open``: the clock opened the skip vote [player, voters]
- ``skipped``: a majority skipped the player on turn [player, votes]
- ``call_lapsed``: the call ended without a skip [player, reason]

State (``SuberState``, beyond engine/state.GameState): ``turn`` (the player on turn), ``circuit``
(in progress, from 1), ``turns_ended``, ``turn_started``, ``unanimity``, ``proposals`` (number,
author, title, text, changes, status, votes, unanimity, points, called_at, completed_at),
``judgments`` (question, judge, answer, overrule votes, former judges), ``consent`` (212: None, or
who consented to the turn), ``call_for_action`` (305); rules are ``SuberRule``s (``mutable``,
``formerly``: the numbers a rule had before it was renumbered).
``public_json`` gives exactly the contract's keys.
"""
from engine.suber.ruleset import RULESET

__all__ = ["RULESET"]
