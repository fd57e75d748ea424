"""The pages of a Suber's Nomic game: the turn and circuit at a glance, each proposal with its
vote table and points, scores and their ledger, the rules with mutability, numbers and history,
the Judgments (templates: rendering/templates/suber/site/)."""
from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from typing import Any

from engine.state import LedgerEntry
from engine.suber import mechanics
from engine.suber.judgment import waiting_for_consent
from engine.suber.state import FIRST_NUMBER, Change, Judgment, Proposal, SuberRule
from nomic.website import archive, shared
from nomic.website.absence import away
from nomic.website.feeds import LATEST, base, feed, tag
from nomic.website.moves import links
from nomic.website.pages import Family, Page
from nomic.website.suber.model import SuberModel
from nomic.website.text import iso, when, word_diff


def _proposal_link(n: int, root: str) -> dict[str, str]:
    return {"href": f"{root}proposals/{n}.html", "label": f"proposal {n}"}


def _ledger_row(m: SuberModel, e: LedgerEntry, root: str) -> dict[str, Any]:
    return m.ledger_row(e, root, _proposal_link)


def _change(c: Change) -> str:
    words = {"enact": "Enact a new rule", "amend": "Amend rule {}", "repeal": "Repeal rule {}",
             "transmute": "Transmute rule {}"}
    return words[c.kind].format(c.rule)


def _votes(m: SuberModel, p: Proposal, root: str) -> dict[str, Any]:
    """Yes, no and not yet voted, with names in turn order (the players' order)."""
    def names(vote: str) -> list[Any]:
        return [m.people.link(x.email, root) for x in m.state.players if p.votes.get(x.email) == vote]
    waiting = [m.people.link(x.email, root) for x in m.state.players if x.email not in p.votes]
    return {"yes": names("yes"), "no": names("no"), "waiting": waiting if p.status == "voting" else []}


def _points(m: SuberModel, p: Proposal, parts: bool = False) -> str | None:
    """What the proposal did to its proposer's score once the vote completed: its net, "-3", not rule
    202's 7 alone; with ``parts``, each rule's share: "-3 (-10 by rule 206, +7 by rule 202)"."""
    if p.points is None:
        return None
    entries = [e for e in m.ledger_by_proposal.get(p.number, []) if e.player == p.author]
    net = f"{sum(e.delta for e in entries)}"
    if not parts or len(entries) < 2:
        return net
    shares = (f"{e.delta:+d} by rule {e.rule}" if e.rule else f"{e.delta:+d}" for e in entries)
    return f"{net} ({', '.join(shares)})"


def _proposal_row(m: SuberModel, p: Proposal, root: str) -> dict[str, Any]:
    return {"number": p.number, "title": m.text.inline(p.title), "author": m.people.link(p.author, root),
            "status": p.status, "points": _points(m, p), "href": f"{root}proposals/{p.number}.html",
            "yes": sum(v == "yes" for v in p.votes.values()), "no": sum(v == "no" for v in p.votes.values()),
            "needs": "unanimity" if p.unanimity else "a simple majority"}


def _proposal(m: SuberModel, p: Proposal, root: str) -> dict[str, Any]:
    first, last = FIRST_NUMBER, FIRST_NUMBER + len(m.state.proposals) - 1
    return {**_proposal_row(m, p, root), "points": _points(m, p, parts=True), "text": m.text.markdown(p.text),
            "received": when(p.received_at), "called": when(p.called_at), "completed": when(p.completed_at),
            "votes": _votes(m, p, root),
            "changes": [{"what": _change(c), "text": m.text.markdown(c.text)} for c in p.changes],
            "ledger": [_ledger_row(m, e, root) for e in m.ledger_by_proposal.get(p.number, [])],
            "debate": m.debate(p.number, root), **_moves(m, p),
            "prev": p.number - 1 if p.number > first else None, "next": p.number + 1 if p.number < last else None}


def _moves(m: SuberModel, p: Proposal) -> dict[str, Any]:
    """mailto: links for the proposer's call of the vote (in debate) and every player's vote (rules 111, 207)."""
    address, n, open_ = m.data.game["address"], p.number, p.status in ("debate", "voting")
    return {"call_links": links(address, f"Call vote on proposal {n}", (f"Call vote {n}",))
            if p.status == "debate" else [],
            "vote_links": links(address, f"Vote on proposal {n}", (f"Vote yes {n}", f"Vote no {n}")) if open_ else []}


def _glance(m: SuberModel) -> dict[str, Any]:
    st = m.state
    current = st.current_proposal()
    return {"turn": m.people.link(st.turn, "") if st.turn else None, "circuit": st.circuit,
            "turns_ended": st.turns_ended, "turn_started": when(st.turn_started), "unanimity": st.unanimity,
            "winner": m.people.link(st.winner, "") if st.winner else None, "consent": waiting_for_consent(st),
            "current": {**_proposal_row(m, current, ""), "votes": _votes(m, current, "")} if current else None,
            "open_judgments": [_judgment(m, j) for j in st.judgments if j.answer is None],
            "standings": _standings(m, ""), "proposals": len(st.proposals),
            "rules": sum(not r.repealed for r in st.rules)}


def _standings(m: SuberModel, root: str) -> list[dict[str, Any]]:
    st = m.state
    return [{"link": m.people.link(p.email, root), "score": p.score, "on_turn": p.email == st.turn,
             "position": i, "away": away(st, p.email)} for i, p in enumerate(st.players, start=1)]


def home(m: SuberModel) -> Iterator[Page]:
    st = m.state
    current = st.current_proposal()
    yield Page("index.html", "home.html", lambda: _glance(m), key=(
        st.turn, st.circuit, st.turns_ended, st.turn_started, st.unanimity, st.winner, st.consent,
        current.model_dump_json() if current else None, [j.model_dump_json() for j in st.judgments],
        [(p.email, p.score, away(st, p.email)) for p in st.players], len(st.proposals), sum(not r.repealed for r in st.rules)))


def proposals(m: SuberModel) -> Iterator[Page | Family]:
    st = m.state
    keys = [p.model_dump_json() for p in st.proposals]
    yield Page("proposals/index.html", "proposals.html",
               lambda: {"proposals": [_proposal_row(m, p, "../") for p in reversed(st.proposals)]}, key=keys)
    by_proposal = m.ledger_by_proposal
    yield Family("proposal", "proposal.html", [f"proposals/{p.number}.html" for p in st.proposals],
                 [(k, len(by_proposal.get(p.number, ())), len(st.proposals), m.debate_key(p.number))
                  for p, k in zip(st.proposals, keys)],
                 lambda i: _proposal(m, st.proposals[i], "../"))


def scores(m: SuberModel) -> Iterator[Page]:
    st = m.state
    yield Page("scores.html", "scores.html", lambda: {
        "standings": _standings(m, ""), "winner": m.people.link(st.winner, "") if st.winner else None,
        "ledger": [_ledger_row(m, e, "") for e in st.ledger]},
        key=([(p.email, p.score, away(st, p.email)) for p in st.players], st.turn, st.winner, len(st.ledger)))


def _rule_slugs(rules: list[SuberRule]) -> list[str]:
    """A rule's page is named by its number ('305'; a second rule of that number: '305-2')."""
    seen: dict[int, int] = {}
    out = []
    for r in rules:
        seen[r.number] = seen.get(r.number, 0) + 1
        out.append(str(r.number) if seen[r.number] == 1 else f"{r.number}-{seen[r.number]}")
    return out


def _rule_row(m: SuberModel, slug: str, r: SuberRule) -> dict[str, Any]:
    return {"slug": slug, "number": r.number, "text": m.text.markdown(r.text), "mutable": bool(r.mutable),
            "repealed": r.repealed, "formerly": r.formerly, "amended_by": r.amended_by, "versions": len(r.history),
            "mechanics": mechanics.mechanics_of(r), "parameters": _parameters(m, r)}


def _parameters(m: SuberModel, r: SuberRule) -> list[dict[str, Any]]:
    """The rule's parameters with their values now (none once repealed): engine/suber/mechanics.py."""
    if r.repealed:
        return []
    now = mechanics.values(m.state)
    return [{"name": p.name, "value": now[p.name], "wording": p.wording}
            for p in mechanics.DECLARED.parameters if p.rule == mechanics.key(r)]


def _rules_key(m: SuberModel, rules: list[SuberRule]) -> list[str]:
    """What the rule pages show: the rules and the parameters' values (rule 203 changes by itself)."""
    return [*(r.model_dump_json() for r in rules), repr(sorted(mechanics.values(m.state).items()))]


def rules(m: SuberModel) -> Iterator[Page]:
    ordered = sorted(m.state.rules, key=lambda r: r.number)
    slugs = _rule_slugs(ordered)
    yield Page("rules/index.html", "rules.html", lambda: {
        "rules": [_rule_row(m, s, r) for s, r in zip(slugs, ordered)]}, key=_rules_key(m, ordered))
    for s, r in zip(slugs, ordered):
        yield Page(f"rules/{s}.html", "rule.html", partial(_rule, m, s, r), key=_rules_key(m, [r]))


def _rule(m: SuberModel, slug: str, r: SuberRule) -> dict[str, Any]:
    versions = []
    for i, v in enumerate(r.history, start=1):
        prev = r.history[i - 2] if i > 1 else None
        versions.append({"n": i, "text": m.text.markdown(v.text), "by": v.by or "", "at": when(v.at),
                         "diff": word_diff(prev.text, v.text) if prev else None, "current": i == len(r.history)})
    return {**_rule_row(m, slug, r), "history": list(reversed(versions))}


def _judgment(m: SuberModel, j: Judgment) -> dict[str, Any]:
    return {"number": j.number, "question": m.text.markdown(j.question), "by": m.people.link(j.by, ""),
            "judge": m.people.link(j.judge, ""), "mover": m.people.link(j.mover, ""), "at": when(j.at),
            "answer": m.text.markdown(j.answer) if j.answer is not None else None,
            "answered": when(j.answered_at), "overrule": [m.people.link(x, "") for x in j.overrule],
            "overruled": [m.people.link(x, "") for x in j.overruled],
            "judge_links": links(m.data.game["address"], f"Judgment {j.number}", (f"Judgment {j.number}: TEXT",))
            if j.answer is None else []}


def judgments(m: SuberModel) -> Iterator[Page]:
    st = m.state
    yield Page("judgments.html", "judgments.html",
               lambda: {"judgments": [_judgment(m, j) for j in reversed(st.judgments)]},
               key=[j.model_dump_json() for j in st.judgments])


def players(m: SuberModel) -> Iterator[Page | Family]:
    st = m.state
    yield Page("players/index.html", "players.html", lambda: {"standings": _standings(m, "../")},
               key=([(p.email, p.score, away(st, p.email)) for p in st.players], st.turn))
    authored = {p.email: [x for x in st.proposals if x.author == p.email] for p in st.players}
    ledger = m.ledger_by_player
    yield Family("player", "player.html", [f"players/{m.people.slugs[p.email]}.html" for p in st.players],
                 [(p.email, p.name, p.score, st.turn == p.email, away(st, p.email),
                   [x.model_dump_json() for x in authored[p.email]],
                   len(ledger.get(p.email, ()))) for p in st.players],
                 lambda i: _player(m, i))


def _player(m: SuberModel, i: int) -> dict[str, Any]:
    p = m.state.players[i]
    return {"name": p.name, "score": p.score, "position": i + 1, "on_turn": m.state.turn == p.email,
            "away": away(m.state, p.email),
            "proposals": [_proposal_row(m, x, "../") for x in m.state.proposals if x.author == p.email],
            "ledger": [_ledger_row(m, e, "../") for e in m.ledger_by_player.get(p.email, [])]}


def feeds(m: SuberModel) -> Iterator[Page]:
    b = base(m)
    entries = [{"id": tag(m, f"proposal/{p.number}"), "href": f"{b}proposals/{p.number}.html",
                "title": f"{p.number}. {p.title or '(no title)'} ({p.status})",
                "updated": iso(p.completed_at or p.called_at or p.received_at or m.state.started),
                "author": m.people.name(p.author), "content": str(m.text.markdown(p.text))}
               for p in list(reversed(m.state.proposals))[:LATEST]]
    yield feed(m, "proposals", "proposals", "proposals/index.html", entries)


GENERATORS = (home, proposals, scores, rules, judgments, players, shared.dice, shared.how_to_play,
              archive.archive, feeds)
