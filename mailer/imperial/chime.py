"""Rule 19: the Bell Tower's chime, a brief text message to every subscriber at the end of a game day.

Built from the ``day_end`` event (engine/imperial/days.py) and the state
after it: the day that ended and the new one, the day's judgments and score
changes, the temperature, Player of the Day, It, a link to the site, and the
journal's head hash (the journal entry that rang the chime), which commits
to the whole history so anyone can check the site's record against it.
"""
from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlmodel import Session

from engine import pending
from engine.events import Event
from engine.imperial.state import ImperialState
from mailer import outbox
from mailer.compose import list_headers, machine_mail, message_id
from mailer.personal import lines
from mailer.listconfig import ListSettings
from mailer.rulesets import Composition
from storage import Entry


def facts(state: ImperialState, event: Event, entry: Entry) -> dict:
    """What the chime says, from the event and the state after it."""
    ended = int(event.data.get("day", state.game_day - 1))
    summary = event.data.get("summary") or {}
    judged = [s for s in state.submissions if s.judged_day == ended]
    changes = [e for e in state.ledger if e.day == ended]
    return {
        "ended": ended, "new_day": int(event.data.get("new_day", ended + 1)),
        "judged": judged, "changes": changes, "notes": summary.get("notes", []),
        "temperature": summary.get("temperature", state.temperature),
        "player_of_the_day": state.player_of_the_day, "it": state.it, "winner": state.winner,
        "waiting": [s for s in state.submissions if s.status == "pending"],
        "head": entry.hash, "seq": entry.seq,
    }


def compose(c: Composition) -> None:
    """The composer of ``day_end`` events: the chime, unless rule 19 is repealed."""
    if c.event.data.get("chime", True):
        assert isinstance(c.state, ImperialState)
        emperor = c.config.holder("emperor")
        owed = lines(c, [i for i in pending.items(c.state, c.config, c.event_at) if i.player != emperor])
        ring(c.session, c.settings, c.state, c.event, c.entry, c.event_at, c.members.all, emperor, owed)


def ring(session: Session, ls: ListSettings, state: ImperialState, event: Event, entry: Entry,
         at: datetime, subscribers: Sequence[str], emperor: str, owed: list[str] | None = None) -> None:
    """Queue one chime to every subscriber (per-message and digest members alike), and one to TIE.

    TIE hears it by office, not as a member: unless TIE subscribed, TIE's copy (kind ``emperor``,
    as for announcements) has no list headers, so no unsubscribe link that could not work."""
    f = facts(state, event, entry)
    mail = machine_mail(ls, to=ls.list_address, at=at,
                        subject=f"{ls.subject_tag} The Bell Tower: day {f['ended']} ends, day {f['new_day']} begins",
                        msgid=message_id(ls, f"chime{f['ended']}", entry.seq or 0, entry.hash),
                        template="mail/chime.txt", owed=owed or [], **f)
    if emperor not in subscribers and emperor != ls.address:  # an Emperor at the game's address would mail the game
        outbox.queue(session, entry.seq or 0, "emperor", mail, [emperor], ls.list_address, at)
    list_headers(mail, ls)
    outbox.queue(session, entry.seq or 0, "chime", mail, subscribers, ls.list_address, at, personal=True)
