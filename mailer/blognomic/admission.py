"""The applicant's letter: told when an Admin adds them to the roster (``Admit``) or withdraws their
application (``Refuse``). A Pactmaker who joined at once (``admission = "auto"``) had it in their answer."""
from __future__ import annotations

from engine.blognomic.state import BlogState
from mailer import outbox
from mailer.compose import machine_mail, message_id
from mailer.rulesets import Composition


def compose(c: Composition) -> None:
    d, state = c.event.data, c.state
    assert isinstance(state, BlogState)
    admitted = c.event.kind == "joined"
    by = d.get("admitted_by") if admitted else d.get("by")
    if not by:  # joined at once: the answer to their Join said so
        return
    word = state.keywords["Pactmaker"]
    subject = f"{c.settings.subject_tag} " + (f"You are a {word}" if admitted else "Your application is refused")
    mail = machine_mail(c.settings, to=str(d["player"]), at=c.at, subject=subject,
                        msgid=message_id(c.settings, "admission", c.seq, c.entry.hash),
                        template="mail/admission.txt", admitted=admitted, by=by, word=word,
                        quorum=state.quorum() if admitted else None)
    outbox.queue(c.session, c.seq, "admission", mail, [str(d["player"])], c.settings.address, c.at)
