"""Imperial: every new submission announced at once to TIE and to the list, so that TIE can judge it.

The announcement's Message-ID is ``<sub{N}.submitted.{seq}.{hash}@{domain}>``
(mailer/compose.message_id), so the Emperor's bare ``Accept``, ``Reject`` or
``Ignore because ...`` in a reply to it judges submission N
(engine/threads.py). It is threaded under the submission's own message. TIE
gets a copy of their own, of kind ``emperor`` (not list traffic: no list
headers, no per-member unsubscribe link, not in the digest); the list's
per-message members get the list copy (kind ``announcement``, which the
digest holds too), TIE left out of it.
"""
from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from email.message import EmailMessage

from sqlmodel import Session

from engine.events import Event
from engine.imperial.state import ImperialState, Submission
from mailer import outbox
from mailer.compose import Prepared, machine_mail, message_id, thread
from mailer.concerned import copies
from mailer.listconfig import ListSettings
from mailer.recipients import Recipients
from mailer.rulesets import Composition
from storage import Entry

KIND_NAMES = {"proposal": "Proposal", "point_of_order": "Point of Order"}  # a submission's kind, as mail names it


def named(sub: Submission, status: str = "") -> str:
    """'Proposal 4: Cake', 'Proposal 4 accepted: Cake', or 'Proposal 5 ignored (no title)'."""
    what = " ".join(filter(None, [KIND_NAMES[sub.kind], str(sub.number), status]))
    return f"{what}: {sub.title}" if sub.title.strip() else f"{what} (no title)"


def compose(c: Composition) -> None:
    """The composer of ``submitted`` events."""
    assert isinstance(c.state, ImperialState)
    announce(c.session, c.settings, c.state, c.entry, c.event, c.at, c.config.holder("emperor"),
             c.members.per_message)


def announce(session: Session, ls: ListSettings, state: ImperialState, entry: Entry, event: Event,
             at: datetime, emperor: str, members: Sequence[str]) -> None:
    """Queue the announcement of the submission the ``submitted`` event names."""
    sub = state.submission(int(event.data["number"]))
    if sub is None:
        return
    author = state.player(sub.author)
    context = {"sub": sub, "what": KIND_NAMES[sub.kind],
               "author": f"{author.name} <{sub.author}>" if author else sub.author}
    msgid = message_id(ls, "submitted", entry.seq or 0, entry.hash, sub=sub.number)
    copy = Prepared(ls, lambda person: _copy(ls, person, at, msgid, sub, context))
    if emperor != ls.address:  # an Emperor at the game's own address would only mail the game
        outbox.queue(session, entry.seq or 0, "emperor", copy(emperor), [emperor], ls.address, at)
    to = Recipients.of(members).without(emperor)
    outbox.queue(session, entry.seq or 0, "announcement", copy.listed(), to, ls.address, at, personal=True)
    copies(session, ls, entry.seq or 0, at, copy, [sub.author], to, [emperor])


def _copy(ls: ListSettings, to: str, at: datetime, msgid: str, sub: Submission, context: dict) -> EmailMessage:
    """One copy of the announcement, threaded under the submission's own message."""
    mail = machine_mail(ls, to=to, at=at, subject=f"{ls.subject_tag} {named(sub)}", msgid=msgid,
                        template="mail/submission.txt", **context)
    if sub.message_id and not sub.message_id.startswith("sha256:"):  # a mail without a Message-ID has no thread
        thread(mail, sub.message_id, reply=False)
    return mail
