"""What the mail of one processor batch reads for every entry, read once for the batch and kept
here: the answers queued in the last hour by sender (``answer_log``, for the answer limit), the
addresses whose list delivery bounced away, the list's members made from them (``Members``,
kept while they stand), which sets of recipients the batch has stored (mailer/recipients.py), and
the list copies' footer, rendered once, and the ruleset's mail composers by event kind, found once.
The processor makes one for each batch (its own, in its own transaction; nothing is kept across
batches or processes) and writes the answers it noted before the batch commits.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from sqlalchemy import insert, select
from sqlmodel import Session, select as orm_select

from mailer.compose import body
from mailer.listconfig import ListSettings
from mailer.listserv import FOOTER
from storage.tables import AnswerLog, BounceScore

if TYPE_CHECKING:
    from mailer.rulesets import Composer, Members, RulesetMail

ANSWER_LOG = AnswerLog.__table__  # type: ignore[attr-defined]


class Ledger:
    def __init__(self, session: Session):
        self.session = session
        self._since: dict[str, str] = {}  # sender -> the time after which their answers are read
        self._answers: dict[str, list[str]] = {}  # sender -> times of receipt of the messages answered
        self._noted: list[dict[str, str]] = []  # answers not yet written
        self._entry: list[dict[str, str]] = []  # ... of the entry whose mail is being composed
        self._bounced: tuple[set[str], set[str]] | None = None  # (scored, disabled), read when first asked
        self.members: Members | None = None  # the last entry's list members, kept while they stand
        self.sets: set[str] = set()  # the recipient sets stored in the batch's transaction (outbox.holding)
        self._footer: str | None = None
        self.composing: tuple[RulesetMail, dict[str, tuple[Composer, ...]]] | None = None  # (mailer/outgoing.py)

    def read_answers(self, senders: Iterable[str], after: str) -> None:
        """Read the answers to ``senders`` for messages received after ``after`` (ISO time), in one
        statement: the processor reads those of its batch's senders from an hour before its first."""
        senders = [s for s in dict.fromkeys(senders) if s not in self._since or after < self._since[s]]
        if not senders:
            return
        found: dict[str, list[str]] = {s: [] for s in senders}
        for sender, at in self.session.connection().execute(
                select(ANSWER_LOG.c.sender, ANSWER_LOG.c.at).where(ANSWER_LOG.c.sender.in_(senders))
                .where(ANSWER_LOG.c.at > after).order_by(ANSWER_LOG.c.id)):
            found[sender].append(at)
        for row in self._noted:  # noted but not yet written
            if row["sender"] in found and row["at"] > after:
                found[row["sender"]].append(row["at"])
        self._answers.update(found)
        self._since.update(dict.fromkeys(senders, after))

    def answers_after(self, sender: str, after: str) -> int:
        """How many answers went to ``sender`` for messages received after ``after`` (ISO time)."""
        self.read_answers([sender], after)  # (read already, unless the sender is new to the batch)
        return sum(t > after for t in self._answers[sender])

    def answered(self, sender: str, at: str) -> None:
        """An answer queued to ``sender`` for a message received at ``at`` (kept with the entry's mail)."""
        self._entry.append({"sender": sender, "at": at})

    def entry_done(self, stored: bool) -> None:
        """The entry's mail is queued (``stored``), or was rolled back: its answers count, or not;
        after a roll-back the bounce state is read again, and recipient sets stored again."""
        if stored:
            self._noted += self._entry
            for row in self._entry:
                self._answers.setdefault(row["sender"], []).append(row["at"])
        else:
            self._bounced = None
            self.sets.clear()  # (those the entry stored are rolled back with it)
        self._entry = []

    def write(self) -> None:
        """Write the answers noted (one statement), in the batch's transaction."""
        if self._noted:
            self.session.connection().execute(insert(ANSWER_LOG), self._noted)
            self._noted = []

    def footer(self, ls: ListSettings) -> str:
        """The list copies' footer (``listserv.FOOTER``: it reads the list's settings alone), rendered
        once a batch, not once a copy."""
        if self._footer is None:
            self._footer = body(FOOTER, ls)
        return self._footer

    @property
    def disabled(self) -> set[str]:
        """The addresses whose list delivery stopped after bounces (``bounces.record``, ``enable`` keep it)."""
        return self._bounces()[1]

    @property
    def scored(self) -> set[str]:
        """The addresses with a bounce score (stopped or not): the ones subscribing again clears."""
        return self._bounces()[0]

    def _bounces(self) -> tuple[set[str], set[str]]:
        if self._bounced is None:
            rows = self.session.exec(orm_select(BounceScore.address, BounceScore.disabled)).all()
            self._bounced = ({address for address, _ in rows}, {address for address, off in rows if off})
        return self._bounced
