"""A BlogNomic matter's announcement and its resolution, both threaded under the matter's own message.

The announcement's Message-ID is ``<sub{N}.opened.{seq}.{hash}@{domain}>`` (mailer/compose.message_id),
so a bare ``FOR`` in a reply to it is a vote on matter N (engine/threads.matter_of); its links
prefill ``FOR N``, ``AGAINST N`` and ``DEFERENTIAL N`` (a line that counts wherever it is written).
"""
from __future__ import annotations

from email.message import EmailMessage
from typing import Any

from engine.blognomic.changes import find
from engine.blognomic.state import KIND_NAMES, BlogState, VotableMatter
from engine.state import GameState
from mailer.compose import announce, machine_mail, mailto, message_id, thread
from mailer.rulesets import Composition

ICONS = ("FOR", "AGAINST", "DEFERENTIAL")


def named(m: VotableMatter, status: str = "") -> str:
    """"Proposal 3: Ponies", or with ``status`` "Proposal 3 enacted: Ponies"; an untitled matter's
    name ends at its number (or status), not at a colon."""
    head = " ".join(filter(None, (KIND_NAMES[m.kind], str(m.number), status)))
    return f"{head}: {m.title}" if m.title.strip() else head


def opened(c: Composition) -> None:
    """The composer of ``matter_opened``: to the list and to each Admin, at once."""
    m = _matter(c)
    if m is None:
        return
    subject = f"{c.settings.subject_tag} {named(m)}"
    votes = {icon.lower(): mailto(c.settings.address, f"Re: {subject}", f"{icon} {m.number}") for icon in ICONS}
    msgid = message_id(c.settings, "opened", c.seq, c.entry.hash, sub=m.number)
    context = {"m": m, "what": KIND_NAMES[m.kind], "author": _author(c.state, m.author),
               "quorum": c.event.data.get("quorum"), "votes": votes, "changes": _changes(c.state, m),
               "preview": c.event.data.get("preview") or []}
    _announce(c, m, subject, msgid, "mail/matter.txt", context)


def _changes(state: GameState[Any], m: VotableMatter) -> list[tuple[str, str, str]]:
    """Each change line as (action, rule, section): an Enact line's section is its own; an Amend or
    Repeal line's is the section of the rule it names today ("" when there is no such rule)."""
    out: list[tuple[str, str, str]] = []
    for ch in m.changes:
        if ch.action == "set":
            out.append(("set", f"{ch.name} = {ch.text}", ""))
            continue
        rule = None if ch.action == "enact" else find(state.rules, ch.name)
        section = ch.section if ch.action == "enact" else rule.section if rule else ""
        out.append((ch.action, ch.name, section or ""))
    return out


def resolved(c: Composition) -> None:
    """The composer of ``resolved``: the result and its tally line, with the changes it made."""
    m = _matter(c)
    if m is None:
        return
    amended = next((e.data for e in c.events if e.kind == "amended" and e.data.get("number") == m.number), None)
    subject = f"{c.settings.subject_tag} {named(m, m.status)}"
    msgid = message_id(c.settings, "resolved", c.seq, c.entry.hash, sub=m.number)
    context = {"m": m, "what": KIND_NAMES[m.kind], "author": _author(c.state, m.author), "event": c.event.data,
               "by_admin": c.event.data.get("by") != c.settings.address, "amended": amended}
    _announce(c, m, subject, msgid, "mail/resolved.txt", context)


def _matter(c: Composition) -> VotableMatter | None:
    assert isinstance(c.state, BlogState)
    return c.state.matter(int(c.event.data["number"]))


def _author(state: GameState[Any], email: str) -> str:
    p = state.player(email)
    return f"{p.name} <{email}>" if p is not None and p.name else email


def _announce(c: Composition, m: VotableMatter, subject: str, msgid: str, template: str, context: dict) -> None:
    def make(to: str) -> EmailMessage:
        mail = machine_mail(c.settings, to=to, at=c.at, subject=subject, msgid=msgid, template=template, **context)
        if m.message_id and not m.message_id.startswith("sha256:"):  # a mail without a Message-ID has no thread
            thread(mail, m.message_id, reply=False)
        return mail
    announce(c.session, c.settings, c.seq, c.at, make, c.members.per_message, c.config.offices.get("admins", ()),
             concerned=[m.author])
