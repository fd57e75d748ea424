"""Each player's own mail: the personal daily mail and the reminders (kinds ``personal`` and
``reminder``), and the list's "waiting for" lines.

At the game's daily moment (its ruleset's day event, mailer/rulesets.py) each player the game
waits for gets one mail: the matters they have not voted on and what they must do, each with the
moment it closes (engine/pending.py reads them off the state after the entry), and what changed
for them since the last daily moment. A ``reminder`` event (engine/reminders.py) becomes one mail
to its player. Neither goes to an absent player (engine/absence.py). Like every composer these
read only the journal entry and the state after it: a replay would compose the same mail.
"""
from __future__ import annotations

from datetime import datetime, timedelta, timezone
from email.message import EmailMessage

from engine import absence, pending
from engine.pending import Item
from mailer import outbox
from mailer.compose import machine_mail, message_id
from mailer.rulesets import Composition
from storage.config import parse_time

DAY = timedelta(days=1)
LISTED = 3  # items named on a player's "waiting for" line
MOST = 50  # items a personal mail lists (then says how many more): one mail stays readable and bounded
KIND, REMINDER = "personal", "reminder"


def when(at: datetime | None) -> str:
    return "no deadline" if at is None else at.astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


def daily(c: Composition) -> None:
    """The day event's personal mails, one per player with something pending, in player order."""
    if not c.settings.personal_mail or any(e.kind == c.event.kind for e in c.events[_position(c) + 1:]):
        return  # a step that caught up several days: the last one's mail alone
    at = c.event_at
    owed: dict[str, list[Item]] = {}
    for item in pending.items(c.state, c.config, at):
        owed.setdefault(item.player, []).append(item)
    date = at.astimezone(timezone.utc).date().isoformat()
    for n, player in enumerate(c.state.players):
        mine = owed.get(player.email, [])
        if not mine or absence.is_away(c.state, player.email, at):
            continue
        changed = pending.changes(c.state, c.config, player.email, at - DAY, at)
        votes, tasks = [i for i in mine if i.vote][:MOST], [i for i in mine if not i.vote][:MOST]
        subject = f"{c.settings.subject_tag} {date}: what the game waits for from you"
        mail = machine_mail(c.settings, to=player.email, at=at, subject=subject,
                            msgid=message_id(c.settings, f"personal{n + 1}", c.seq, c.entry.hash),
                            template="mail/personal.txt", name=player.name, date=date, votes=votes, tasks=tasks,
                            more=len(mine) - len(votes) - len(tasks), changed=changed, when=when)
        outbox.queue(c.session, c.seq, KIND, mail, [player.email], c.settings.address, at)


def remind(c: Composition) -> None:
    """A ``reminder`` event's mail to its player."""
    d = c.event.data
    player = c.state.player(str(d["player"]))
    if player is None:
        return
    closes = parse_time(str(d["closes"]))
    subject = f"{c.settings.subject_tag} Reminder: {d['what']}, closes {when(closes)}"
    n = sum(1 for e in c.events[:_position(c)] if e.kind == c.event.kind) + 1
    mail: EmailMessage = machine_mail(c.settings, to=player.email, at=c.at, subject=subject,
                                      msgid=message_id(c.settings, f"reminder{n}", c.seq, c.entry.hash),
                                      template="mail/reminder.txt", name=player.name, d=d, closes=when(closes))
    outbox.queue(c.session, c.seq, REMINDER, mail, [player.email], c.settings.address, c.at)


def waiting(c: Composition) -> list[str]:
    """The list's daily "waiting for" lines: ``Alice <alice@...>: a vote on ... ('FOR 2' or 'AGAINST 2')``."""
    return lines(c, pending.items(c.state, c.config, c.event_at))


def lines(c: Composition, owed: list[Item]) -> list[str]:
    """One line a player, in the order the items come: who, and what they owe; a single item with
    the lines that do it and when it closes, several by name (at most ``LISTED``, then how many
    more); "(away until DATE)" for an absent player."""
    names = {p.email: p.name for p in c.state.players}
    by_player: dict[str, list[Item]] = {}
    for item in owed:
        by_player.setdefault(item.player, []).append(item)
    out = []
    for player, items in by_player.items():
        if len(items) == 1:
            i = items[0]
            what = f"{i.what} ({i.how()})" + ("" if i.closes is None else f", closes {when(i.closes)}")
        else:
            what = "; ".join(i.what for i in items[:LISTED]) + (
                f"; and {len(items) - LISTED} more" if len(items) > LISTED else "")
        out.append(f"{names.get(player, player)} <{player}>: {what}{_away(c, player)}")
    return out


def _away(c: Composition, player: str) -> str:
    until = absence.away_until(c.state, player) if absence.is_away(c.state, player, c.event_at) else None
    return "" if until is None else f" (away until {until})"


def _position(c: Composition) -> int:
    return next(i for i, e in enumerate(c.events) if e is c.event)
