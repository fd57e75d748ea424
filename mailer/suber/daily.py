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
    days, hours = divmod(int(facts["turn_hours"]), 24)
    lasted = f"{days} day{'s' * (days != 1)} {hours} hour{'s' * (hours != 1)}"
    subject = f"{c.settings.subject_tag} {date}: {name} on turn for {lasted}"
    msgid = message_id(c.settings, f"daily{facts['day']}", c.seq, c.entry.hash)

    def make(to: str) -> EmailMessage:
        return machine_mail(c.settings, to=to, at=c.event_at, subject=subject, msgid=msgid,
                            template="mail/daily.txt", d=facts, date=date, name=name, lasted=lasted)
    announce(c.session, c.settings, c.seq, c.event_at, make, c.members.all, kind="daily")
