"""B Nomic (rulesets/b-nomic.txt, CONTRACT.md "B Nomic"), one module per concern: ``clock`` (2-1,
3-8: every midnight's timed effects in order), ``players`` (1-4, 3-5), ``ministries`` (6-1 to
6-5), ``proposals`` and ``numbering`` (2-2), ``votes`` and ``voting`` (2-2, 2-6, 2-7), ``changes``
(change lines), ``points`` (2-4), ``actions`` (2-8, 2-9: Expel, Usurp, blueprints, Tidiness Lists,
the Message), ``chairman`` (the Ballot and the results), ``tidiness`` (3-9), ``motnw`` (3-16),
``threat`` (3-17), ``emergency`` (Rule 0: PEPs, Panic Buttons, the State of Emergency) and
``procedure`` (Rule 0's Procedure: the Pause, Refresh Proposals, the Ballots). Readings of what
the rules leave open: CONTRACT.md's and docs/rulings-bnomic.md.

Events: one model per kind in ``events``; a proposal's are caused by ``("proposal", KEY)``, a
dependent action's by ``("action", N)``, a midnight's by ``("midnight", N)``, an Emergency's steps
by ``("emergency", N)``.
"""
from engine.bnomic.ruleset import RULESET

__all__ = ["RULESET"]
