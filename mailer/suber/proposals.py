"""A Suber proposal's mail, each threaded under the proposal's own message with a Message-ID
``<sub{N}.{kind}.{seq}.{hash}@{domain}>``, so that a bare ``Call vote``, ``Yes`` or ``No`` in a
reply to any of them is about proposal N (engine/threads.matter_of)."""
from __future__ import annotations

from email.message import EmailMessage
from typing import Any

from engine.suber.state import Proposal, SuberState
from mailer.compose import announce, machine_mail, mailto, message_id, thread
from mailer.rulesets import Composition


def proposed(c: Composition) -> None:
    p = _proposal(c)
    if p is not None:
        _post(c, p, "proposed", f"Proposal {p.number}: {p.title}", "mail/proposal.txt",
              preview=c.event.data.get("preview") or [], concerned=[p.author])


def vote_called(c: Composition) -> None:
    p = _proposal(c)
    if p is None:
        return
    subject = f"Proposal {p.number}: the vote is open"
    reply = f"Re: {c.settings.subject_tag} {subject}"
    votes = {v: mailto(c.settings.address, reply, f"Vote {v} {p.number}") for v in ("yes", "no")}
    _post(c, p, "vote_called", subject, "mail/vote_called.txt", votes=votes,
          concerned=[q.email for q in c.state.players])  # each must vote


def completed(c: Composition) -> None:
    """The vote's result, the points it moved and, where it passed, whose turn it is now."""
    p = _proposal(c)
    if p is None:
        return
    scores = [e.data for e in c.events if e.kind == "score" and e.data.get("proposal") == p.number]
    turn = next((e.data for e in c.events if e.kind == "turn"), None)
    winner = next((e.data for e in c.events if e.kind == "winner"), None)
    _post(c, p, "completed", f"Proposal {p.number} {p.status}: {p.title}", "mail/completed.txt",
          concerned=[p.author, str(turn["player"]) if turn else ""], result=c.event.data, scores=scores,
          turn=turn and _turn(c, turn), winner=winner)


def turn(c: Composition) -> None:
    """The turn passing by other means than a completed vote (which says it itself): rule 305's skip."""
    if any(e.kind == "completed" for e in c.events):
        return
    facts = _turn(c, c.event.data)
    subject = f"{c.settings.subject_tag} {facts['name']} is on turn"
    msgid = message_id(c.settings, f"turn{facts['turns_ended']}", c.seq, c.entry.hash)

    def make(to: str) -> EmailMessage:
        return machine_mail(c.settings, to=to, at=c.at, subject=subject, msgid=msgid, template="mail/turn.txt",
                            turn=facts)
    announce(c.session, c.settings, c.seq, c.at, make, c.members.per_message,
             concerned=[str(c.event.data.get("player") or "")])


def _turn(c: Composition, data: dict[str, Any]) -> dict[str, Any]:
    player = c.state.player(str(data.get("player") or ""))
    return {**data, "name": player.name if player is not None else data.get("player")}


def _proposal(c: Composition) -> Proposal | None:
    assert isinstance(c.state, SuberState)
    return c.state.matter(int(c.event.data["number"]))


def _post(c: Composition, p: Proposal, kind: str, subject: str, template: str, concerned: list[str],
          **context: Any) -> None:
    author = c.state.player(p.author)
    msgid = message_id(c.settings, kind, c.seq, c.entry.hash, sub=p.number)

    def make(to: str) -> EmailMessage:
        mail = machine_mail(c.settings, to=to, at=c.at, subject=f"{c.settings.subject_tag} {subject}", msgid=msgid,
                            template=template, p=p, author=f"{author.name} <{p.author}>" if author else p.author,
                            **context)
        if p.message_id and not p.message_id.startswith("sha256:"):  # a mail without a Message-ID has no thread
            thread(mail, p.message_id, reply=False)
        return mail
    announce(c.session, c.settings, c.seq, c.at, make, c.members.per_message, concerned=concerned)
