"""Suber's Nomic (rulesets/suber-nomic-2005.txt, CONTRACT.md "Suber's Nomic"), one module per concern:
``turns`` (201, 203's circuits), ``proposals`` (108, 202), ``changes`` (103, 108, 109, 114, 209),
``voting`` (104-107, 111, 203-207), ``points`` (202, 204, 206, 208), ``judgment`` (212).

Events (``data`` keys in brackets), besides ``outcome`` lines and the list's events:

- ``joined``: a player joined [player, name, position (1-based, in turn order)]
- ``proposed``: a proposal numbered [number, author, title, changes, unanimity (needed to adopt)]
- ``vote_called``: the proposer ended debate [number, author]
- ``voted``: a vote cast [number, player, vote ("yes" | "no")]
- ``completed``: a vote completed [number, status ("adopted" | "defeated"), yes, no, points, unanimity]
- ``rules_changed``: an adopted proposal's changes took effect [number, changes]
- ``score``: a score changed, mirrors the ledger [player, delta, score, cause, rule, proposal]
- ``winner``: a player reached 200 points; the game has ended [player, score, rule]
- ``turn``: the turn passed [player, circuit, turns_ended]
- ``unanimity_ended``: rule 203 now requires a simple majority [circuit, rule]
- ``judgment_invoked``: Judgment invoked [number, question, by, judge, mover]
- ``judgment``: the Judge answered [number, judge, question, text]

State (``SuberState``, beyond engine/state.GameState): ``turn`` (the player on turn), ``circuit``
(in progress, from 1), ``turns_ended``, ``turn_started``, ``unanimity``, ``proposals`` (number,
author, title, text, changes, status, votes, unanimity, points, called_at, completed_at),
``judgments``; rules are ``SuberRule``s (``mutable``, ``formerly``: numbers before renumbering).
``public_json`` gives exactly the contract's keys.
"""
from engine.suber.ruleset import RULESET

__all__ = ["RULESET"]
