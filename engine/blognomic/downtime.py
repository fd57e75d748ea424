"""Rule "Seasonal Downtime": from 00:00 on 24 December to 00:00 on 27 December (UTC) "no game
actions may be taken except those described in the rules entitled 'Votable Matters', 'Gamestate
Tracking' and 'Call for Judgement'" (docs/rulings-blognomic.md, "The Seasonal Downtime").

Allowed, read literally: casting Votes with FOR, AGAINST and DEFERENTIAL ("Votes", under "Votable
Matters"), Calls for Judgement made, resolved and their prose applied, and the mailing list (no
game action). Everything else is refused with one answer line and nothing changes: whole commands
here (joining, leaving, idling, dice, the new Dynasty's posts); Proposals and DoVs
(submissions.py), their resolution (conditions.py), VETO (ballots.py) and applying a Proposal's or
DoV's prose (by_hand.py) where they are handled.
"""
from __future__ import annotations

from datetime import datetime

from engine import absence, membership
from engine.refusal import Refusal

REASON = "it is the Seasonal Downtime (24 to 26 December)"
GOES_ON = frozenset({"submit", "vote", "resolve", "applied", *(d.kind for d in membership.LIST_COMMANDS),
                     *(d.kind for d in absence.ABSENCE_COMMANDS)})


def in_downtime(at: datetime) -> bool:
    """Seasonal Downtime: from the start of 24 December to the start of 27 December (UTC)."""
    return at.month == 12 and 24 <= at.day <= 26


def refusal(kind: str, at: datetime) -> Refusal | None:
    """Why a command of ``kind`` is refused at ``at`` as a whole, or None."""
    if kind in GOES_ON or not in_downtime(at):
        return None
    return Refusal(f"{REASON}: only Votes and Calls for Judgement go on until 27 December", "Seasonal Downtime")
