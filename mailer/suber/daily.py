"""Suber's daily mail at 00:00 UTC: whose turn it is and how long it has lasted (engine/suber/daily.py)."""
from __future__ import annotations

from email.message import EmailMessage

from mailer.compose import announce, machine_mail, message_id
from mailer.rulesets import Composition


def compose(c: Composition) -> None:
    facts = c.event.data
    player = c.state.player(str(facts.get("turn") or ""))
    name = player.name if player is not None else "nobody"
    date = str(facts["at"])[:10]
    lasted = _lasted(int(facts["turn_hours"]))
    subject = f"{c.settings.subject_tag} {date}: {name} on turn for {lasted}"
    msgid = message_id(c.settings, f"daily{facts['day']}", c.seq, c.entry.hash)

    def make(to: str) -> EmailMessage:
        return machine_mail(c.settings, to=to, at=c.event_at, subject=subject, msgid=msgid,
                            template="mail/daily.txt", seq=c.seq, head=c.entry.hash,
                            d=facts, date=date, name=name, lasted=lasted)
    announce(c.session, c.settings, c.seq, c.event_at, make, c.members.all, kind="daily")


def _lasted(hours: int) -> str:
    """``20 hours``, ``1 day 3 hours``, ``2 days 0 hours``."""
    days, hours = divmod(hours, 24)
    text = f"{hours} hour{'s' * (hours != 1)}"
    return f"{days} day{'s' * (days != 1)} {text}" if days else text
