"""BlogNomic's mail: each new matter announced at once to the list and the Admins, with one-click
votes (``matters``); each resolution with the standard tally line (``matters``); the daily mail at
00:00 UTC (``daily``); the applicant's letter when an Admin admits or refuses them (``admission``);
an Admin's idling of a silent Pactmaker, announced (``idling``)."""
from __future__ import annotations

from mailer.blognomic import admission, daily, idling, matters
from mailer.rulesets import Composer


class BlogNomicMail:
    composers: dict[str, Composer] = {
        "matter_opened": matters.opened,
        "resolved": matters.resolved,
        "daily": daily.compose,
        "joined": admission.compose,
        "application_refused": admission.compose,
        "idle": idling.compose,
    }
    day_event = "daily"
    about = ("matter_opened", "vote", "resolved")


MAIL = BlogNomicMail()
