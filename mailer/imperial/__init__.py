"""Imperial Nomic's mail: each submission announced to TIE and the list (``announce``), each
judgment and Proclamation announced to the list (``judgments``), and the Bell Tower's chime at
each day's end (``chime``, rule 19)."""
from __future__ import annotations

from mailer.imperial import announce, chime, judgments
from mailer.rulesets import Composer


class ImperialMail:
    composers: dict[str, Composer] = {
        "submitted": announce.compose,
        "judged": judgments.compose,
        "proclamation": judgments.compose,
        "day_end": chime.compose,
    }
    day_event = "day_end"
    about = ("submitted", "judged")


MAIL = ImperialMail()
