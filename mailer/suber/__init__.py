"""Suber's Nomic's mail: each proposal announced to the list (a bare ``Call vote``, ``Yes`` or ``No``
in a reply to it is about that proposal), the vote's opening with one-click votes, its completion
with the points, the turn passing (``proposals``); Judgments (``judgments``); the daily mail
(``daily``)."""
from __future__ import annotations

from mailer.rulesets import Composer
from mailer.suber import daily, judgments, proposals


class SuberMail:
    composers: dict[str, Composer] = {
        "proposed": proposals.proposed,
        "vote_called": proposals.vote_called,
        "completed": proposals.completed,
        "turn": proposals.turn,
        "judgment_invoked": judgments.compose,
        "judgment": judgments.compose,
        "overruled": judgments.compose,
        "daily": daily.compose,
    }
    day_event = "daily"
    about = ("proposed", "vote_called", "voted", "completed")


MAIL = SuberMail()
