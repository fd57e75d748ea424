"""B Nomic's mail: each proposal announced to the list, threaded so that a bare ``FOR``,
``AGAINST`` or ``ABSTAIN`` in a reply votes on it (``proposals``); the Ballot and the results in
the form B Nomic's Assessor reports used (``reports``); each dependent action announced
(``proposals.action``); a scheduled action's answer when it runs (``proposals.scheduled``);
the mail of every midnight (``daily``); each step of an Emergency to every PEP, and the Threat
Flag (``emergency``)."""
from __future__ import annotations

from mailer.bnomic import daily, emergency, proposals, reports
from mailer.rulesets import Composer


class BNomicMail:
    composers: dict[str, Composer] = {
        "proposed": proposals.proposed,
        "numbered": proposals.numbered,
        "action": proposals.action,
        "ballot": reports.ballot,
        "voting_ended": reports.results,
        "results": reports.results,
        "daily": daily.compose,
        "scheduled_ran": proposals.scheduled,
        "scheduled_dropped": proposals.scheduled,
        "emergency": emergency.step,
        "threat_flag": emergency.flag,
    }
    day_event = "daily"
    about: tuple[str, ...] = ()  # a proposal's events name it by key; the answer's thread says which


MAIL = BNomicMail()
