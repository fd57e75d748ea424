"""A B Nomic proposal's announcement, with the Message-ID ``<sub{KEY}.{kind}.{seq}.{hash}@{domain}>``
(KEY: its submission key, which exists before any Proposal Number), threaded under the proposal's
own mail: a bare Vote in a reply to either is about it (engine/threads.matter_of); and a dependent
action's announcement."""
from __future__ import annotations

from email.message import EmailMessage

from engine.bnomic.state import BNomicState
from mailer import outbox
from mailer.compose import announce, machine_mail, message_id, thread
from mailer.rulesets import Composition


def author(state: BNomicState, address: str) -> str:
    player = state.player(address)
    return f"{player.name} <{address}>" if player is not None else address


def proposed(c: Composition) -> None:
    _announce(c, "proposed", bool(c.event.data["revised"]))


def numbered(c: Composition) -> None:
    """A proposal numbered after it was announced (the Chairman came later): announced again with its number."""
    if not any(e.kind == "proposed" and e.data["key"] == c.event.data["key"] for e in c.events):
        _announce(c, "numbered", False)


def _announce(c: Composition, kind: str, revised: bool) -> None:
    state = c.state
    assert isinstance(state, BNomicState)
    p = state.matter(int(c.event.data["key"]))
    if p is None:
        return
    label = f"Proposal {p.number}" if p.number is not None else "A new proposal"
    subject = f"{c.settings.subject_tag} {label}{' revised' if revised else ''}: {p.title}"
    msgid = message_id(c.settings, kind, c.seq, c.entry.hash, sub=p.key)

    def make(to: str) -> EmailMessage:
        mail = machine_mail(c.settings, to=to, at=c.at, subject=subject, msgid=msgid, template="mail/proposal.txt",
                            p=p, author=author(state, p.author), revised=revised)
        if p.message_id and not p.message_id.startswith("sha256:"):
            thread(mail, p.message_id, reply=False)
        return mail
    announce(c.session, c.settings, c.seq, c.at, make, c.members.per_message)


def action(c: Composition) -> None:
    state = c.state
    assert isinstance(state, BNomicState)
    a = state.actions[int(c.event.data["number"]) - 1]
    subject = f"{c.settings.subject_tag} A{a.number}: {a.kind} by {author(state, a.by)}"
    msgid = message_id(c.settings, f"a{a.number}", c.seq, c.entry.hash)

    def make(to: str) -> EmailMessage:
        return machine_mail(c.settings, to=to, at=c.at, subject=subject, msgid=msgid, template="mail/action.txt",
                            a=a, by=author(state, a.by))
    announce(c.session, c.settings, c.seq, c.at, make, c.members.per_message)


def scheduled(c: Composition) -> None:
    """A scheduled action's answer, to its announcer, threaded to the mail that announced it (1-10)."""
    d = c.event.data
    mail = machine_mail(c.settings, to=d["by"], at=c.at, subject=f"{c.settings.subject_tag} S{d['number']} "
                        f"{'did not occur' if c.event.kind == 'scheduled_dropped' else 'ran'}",
                        msgid=message_id(c.settings, f"s{d['number']}", c.seq, c.entry.hash),
                        template="mail/scheduled.txt", line=d["line"], lines=d["lines"],
                        dropped=c.event.kind == "scheduled_dropped")
    thread(mail, d["message_id"])
    outbox.queue(c.session, c.seq, "answer", mail, [d["by"]], c.settings.address, c.at)
