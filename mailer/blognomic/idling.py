"""An Admin idling a silent Pactmaker: rule "Idle Pactmakers", "the Admin must announce the idling in
a blog post". The game posts it for the Admin to the list, and to the Pactmaker idled (a copy of
their own when the list does not reach them). A Pactmaker's own Idle, or an unidling, is told in the
answer alone."""
from __future__ import annotations

from email.message import EmailMessage

from engine.blognomic.state import BlogState
from mailer.compose import announce, machine_mail, message_id
from mailer.rulesets import Composition


def compose(c: Composition) -> None:
    d, state = c.event.data, c.state
    assert isinstance(state, BlogState)
    if not d["idle"] or d["by_self"] or not d.get("by"):  # events before ``by`` was kept: not announced then
        return
    player = state.player(str(d["player"]))
    name = player.name if player is not None else str(d["player"])
    admin = state.player(str(d["by"]))
    subject = f"{c.settings.subject_tag} {name} is Idle"
    msgid = message_id(c.settings, "idled", c.seq, c.entry.hash)

    def make(to: str) -> EmailMessage:
        return machine_mail(c.settings, to=to, at=c.at, subject=subject, msgid=msgid, template="mail/idled.txt",
                            name=name, player=d["player"], admin=admin.name if admin is not None else d["by"],
                            last_seen=d.get("last_seen"), quorum=d["quorum"], word=state.keywords["Pactmaker"])
    announce(c.session, c.settings, c.seq, c.at, make, c.members.per_message, concerned=[str(d["player"])])
