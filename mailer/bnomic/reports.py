"""The Chairman's Ballot and the results of a Voting, mailed to the list in the form B Nomic's
Assessor reports used: each proposal's number, title, author, the FOR, AGAINST and ABSTAIN votes
with names, its Stamina and Strength, and its result and why."""
from __future__ import annotations

from email.message import EmailMessage
from typing import Any

from engine.bnomic import amounts
from engine.bnomic.state import BNomicState, Proposal
from mailer.bnomic.proposals import author
from mailer.compose import announce, machine_mail, message_id
from mailer.rulesets import Composition


def _names(state: BNomicState, voters: list[str]) -> str:
    """Each voter by name: a Player's, a Faction's (its key ``faction:NAME``), or a former Player's address."""
    return ", ".join(p.name if (p := state.player(v)) is not None else v.removeprefix("faction:")
                     for v in voters) or "-"


def _row(state: BNomicState, p: Proposal) -> dict[str, Any]:
    powers = state.vote_powers()
    return {"number": p.number, "title": p.title, "author": author(state, p.author),
            **{w.lower(): _names(state, [v for v, x in p.votes.items() if x == w]) for w in ("FOR", "AGAINST",
                                                                                              "ABSTAIN")},
            "stamina": p.stamina or amounts.text(amounts.tally(p.votes, powers).stamina),
            "strength": p.strength or amounts.text(amounts.tally(p.votes, powers).strength), "body": p.body}


def ballot(c: Composition) -> None:
    state = c.state
    assert isinstance(state, BNomicState)
    rows = [_row(state, p) for k in c.event.data["keys"] if (p := state.matter(k)) is not None]
    _post(c, f"Ballot of nweek {c.event.data['nweek']}", "mail/ballot.txt", rows=rows,
          quorum=amounts.text(amounts.half(state.active_players())))


def results(c: Composition) -> None:
    """The results at the end of Voting (``voting_ended``), or again at the Chairman's ``Publish results``."""
    state = c.state
    assert isinstance(state, BNomicState)
    data = c.event.data
    if c.event.kind == "results":
        ended = [_result(state, p) for k in data["keys"] if (p := state.matter(k)) is not None]
        nweek = state.proposals[data["keys"][0] - 1].nweek if data["keys"] else data["nweek"]
    else:
        ended = [{**_row(state, p), **r, "author": author(state, r["author"])}
                 for r in data["results"] if (p := state.matter(r["key"])) is not None]
        nweek = data["nweek"]
    _post(c, f"Results of the Voting of nweek {nweek}", "mail/results.txt", rows=ended)


def _result(state: BNomicState, p: Proposal) -> dict[str, Any]:
    return {**_row(state, p), "result": "PASSED" if p.passed else "PENDING" if p.status == "pending" else "FAILED",
            "why": ""}


def _post(c: Composition, subject: str, template: str, **context: Any) -> None:
    msgid = message_id(c.settings, c.event.kind, c.seq, c.entry.hash)

    def make(to: str) -> EmailMessage:
        return machine_mail(c.settings, to=to, at=c.event_at, subject=f"{c.settings.subject_tag} {subject}",
                            msgid=msgid, template=template, **context)
    announce(c.session, c.settings, c.seq, c.event_at, make, c.members.per_message)
