"""Suber's Nomic (rulesets/suber-nomic-2005.txt, docs/contract.md "Suber's Nomic"), one module per concern:
``turns`` (201, 203's circuits), ``proposals`` (108, 202), ``changes`` (103, 108, 109, 114, 209),
``voting`` (104-107, 111, 203-207), ``points`` (202, 204, 206, 208), ``judgment`` (212), ``calls``
(305, where ``[suber] call_for_action = true``). Readings of what the rules leave open:
docs/rulings-suber.md.

Events: one model per kind in ``events``; a proposal's are caused by the proposal, a Judgment's by
the Judgment.

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
