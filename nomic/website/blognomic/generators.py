"""The pages of a BlogNomic game: the queue with live vote boards, every matter with its ballots,
the ruleset by section with versions, the dynasties, the Pactmakers (templates:
rendering/templates/blognomic/site/)."""
from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from typing import Any

from engine.blognomic import mechanics
from engine.blognomic.state import KIND_NAMES, Pactmaker, VotableMatter
from engine.state import Rule
from nomic.website import archive, shared
from nomic.website.absence import away
from nomic.website.moves import links
from nomic.website.blognomic.model import BlogModel, Board, Outlook
from nomic.website.feeds import LATEST, base, feed, tag
from nomic.website.pages import Family, Page
from nomic.website.text import iso, mailto, when, word_diff

SECTIONS = (("core", "Core Rules"), ("dynastic", "Dynastic Rules"), ("appendix", "Appendix"))
ICONS = ("FOR", "AGAINST", "DEFERENTIAL")


def _matter_row(m: BlogModel, x: VotableMatter, root: str) -> dict[str, Any]:
    return {"number": x.number, "kind": KIND_NAMES[x.kind], "title": m.text.inline(x.title),
            "author": m.people.link(x.author, root), "status": x.status, "opened": when(x.opened_at),
            "resolved": when(x.resolved_at), "tally_line": x.tally_line or "", "self_killed": x.self_killed,
            "vetoed": x.vetoed, "href": f"{root}matters/{x.number}.html"}


def _board(m: BlogModel, board: Board, root: str) -> dict[str, Any]:
    return {"columns": [{"icon": icon, "count": len(who), "names": [m.people.link(v, root) for v in who]}
                        for icon, who in board.columns],
            "waiting": None if board.waiting is None else [m.people.link(v, root) for v in board.waiting],
            "for": board.for_, "against": board.against, "quorum": board.quorum,
            "author_for": m.people.link(board.author_for, root) if board.author_for else None,
            "deferring": _deferring(m, board)}


def _deferring(m: BlogModel, board: Board) -> str:
    """What the board's DEF→ row means (rule "Votes"; edition 109: the Potentate, on Proposals)."""
    whose = "the Potentate (on a Proposal)" if m.state.edition == "109" else "a quorum of the Seraphims"
    to = next((icon.removeprefix("DEF→") for icon, _ in board.columns if icon.startswith("DEF→")), "")
    if to:
        return f"DEF→{to}: DEFERENTIAL Votes, valid and counted as {to}, the Vote of {whose}."
    return f"DEF→: DEFERENTIAL Votes count as the Vote of {whose} once there is one; until then they are not valid."


def _outlook(o: Outlook) -> dict[str, Any]:
    return {"enact_now": o.enact_now, "fail_now": o.fail_now, "after": o.after,
            "enactable_from": when(o.enactable_from), "failable_from": when(o.failable_from)}


def _votes(m: BlogModel, x: VotableMatter) -> list[dict[str, str]]:
    """mailto: links that fill in a vote on the matter (VETO only for a Seraphim to use)."""
    address = m.data.game["address"]
    return [{"icon": icon, "href": mailto(address, f"Vote on {KIND_NAMES[x.kind]} {x.number}", f"{icon} {x.number}")}
            for icon in (*ICONS, "VETO")]


def _pending(m: BlogModel, x: VotableMatter, root: str) -> dict[str, Any]:
    return {**_matter_row(m, x, root), "board": _board(m, m.board(x), root), "outlook": _outlook(m.outlook(x)),
            "votes": _votes(m, x)}


def queue(m: BlogModel) -> Iterator[Page]:
    """The pending matters in the order the rules resolve them: by number (auto_resolve resolves the
    lowest-numbered first), the oldest pending Proposal before any other Proposal."""
    st, pending = m.state, m.state.pending()
    yield Page("index.html", "queue.html", lambda: {
        **_facts(m), "pending": [_pending(m, x, "") for x in pending]},
        key=(m.live, [(x.number, x.title, len(x.ballots), x.self_killed, x.vetoed) for x in pending],
             st.winner, len(st.matters), sum(not r.repealed for r in st.rules), sorted(st.keywords.items()),
             st.dynasty.seraphims))


def _facts(m: BlogModel) -> dict[str, Any]:
    st = m.state
    keywords = st.keywords
    return {"dynasty": st.dynasty.number, "seraphims": [m.people.link(s, "") for s in st.dynasty.seraphims],
            "hiatus": st.hiatus, "quorum": st.quorum(), "now": when(m.now), "edition": st.edition,
            "pactmaker": keywords.get("Pactmaker", "Pactmaker"), "seraphim": keywords.get("Seraphim", "Seraphim"),
            "active": len(st.active()), "players": len(st.players), "matters": len(st.matters),
            "rules": sum(not r.repealed for r in st.rules)}


def matters(m: BlogModel) -> Iterator[Page | Family]:
    st = m.state
    yield Page("matters/index.html", "matters.html", lambda: {
        "matters": [_matter_row(m, x, "../") for x in reversed(st.matters)]},
        key=[(x.number, x.status, x.tally_line) for x in st.matters])
    last = len(st.matters)
    yield Family("matter", "matter.html", m.memory.numbered("matters/{}.html", last),
                 [_matter_key(m, x, last) for x in st.matters], lambda i: _matter(m, st.matters[i], "../"))


def _matter_key(m: BlogModel, x: VotableMatter, last: int) -> tuple:
    """Ballots are only ever added; a pending matter's board also follows the game (``live``)."""
    return (x.number, x.status, len(x.ballots), x.self_killed, x.vetoed, x.tally_line, x.resolved_at,
            x.resolved_by, x.number < last, len(m.events_by_matter.get(x.number, ())), m.debate_key(x.number),
            len(x.applied),
            m.live if x.status == "pending" else None)


def _matter(m: BlogModel, x: VotableMatter, root: str) -> dict[str, Any]:
    amended = [e for e in m.events_by_matter.get(x.number, []) if e.kind == "amended"]
    return {
        **_matter_row(m, x, root), "text": m.text.markdown(x.text), "by_hand": x.by_hand,
        "by_hand_applied": [{"by": m.people.link(a.by, root), "at": when(a.at), "note": a.note} for a in x.applied],
        "changes": [{"action": c.action, "name": c.name, "section": c.section, "value": c.text,
                     "text": m.text.markdown(c.text)} for c in x.changes],
        "applied": [{"action": str(c.get("action")), "rule": str(c.get("rule")), "result": str(c.get("result"))}
                    for e in amended for c in e.data.get("changes") or [] if isinstance(c, dict)],
        "co_victors": [m.people.link(v, root) for v in x.co_victors],
        "debate": m.debate(x.number, root),
        "ballots": [{"at": when(b.at), "voter": m.people.link(b.voter, root), "icon": b.icon} for b in x.ballots],
        "board": _board(m, m.board(x), root),
        "outlook": _outlook(m.outlook(x)) if x.status == "pending" else None,
        "votes": _votes(m, x) if x.status == "pending" else [],
        "resolve_links": links(m.data.game["address"], f"Resolve {KIND_NAMES[x.kind]} {x.number}",
                               (f"Enact {x.number}", f"Fail {x.number}")) if x.status == "pending" else [],
        "resolved_by": _resolver(m, x.resolved_by),
        "prev": x.number - 1 if x.number > 1 else None,
        "next": x.number + 1 if x.number < len(m.state.matters) else None}


def _resolver(m: BlogModel, by: str | None) -> str:
    """An Admin by name; the game's own address: resolved automatically (``auto_resolve``)."""
    if not by:
        return ""
    return "the game, automatically" if by == m.data.game["address"] else m.people.name(by)


def rules(m: BlogModel) -> Iterator[Page]:
    st = m.state
    yield Page("rules/index.html", "rules.html", lambda: {"sections": [
        {"id": sid, "title": title, "rules": [_rule_row(m, r) for r in st.rules if r.section == sid]}
        for sid, title in SECTIONS]}, key=([r.model_dump_json() for r in st.rules], sorted(st.parameters.items())))
    for r in st.rules:
        yield Page(f"rules/{r.number}.html", "rule.html", partial(_rule, m, r),
                   key=(r.model_dump_json(), sorted(st.parameters.items())))


def _rule_row(m: BlogModel, r: Rule) -> dict[str, Any]:
    return {"number": r.number, "name": m.text.inline(r.title), "text": m.text.markdown(r.text),
            "repealed": r.repealed, "versions": len(r.history), "amended_by": [v.by for v in r.history if v.by],
            "mechanics": mechanics.mechanics_of(r), "parameters": _parameters(m, r)}


def _parameters(m: BlogModel, r: Rule) -> list[dict[str, Any]]:
    """The numbers of the rule's text the engine keeps, with their values (engine/blognomic/mechanics.py)."""
    if r.repealed:
        return []
    now = mechanics.values(m.state.parameters)
    return [{"name": p.name, "value": now[p.name], "wording": p.wording} for p in mechanics.DECLARED.parameters
            if str(p.rule).casefold() == r.title.casefold()]


def _rule(m: BlogModel, r: Rule) -> dict[str, Any]:
    versions = []
    for i, v in enumerate(r.history, start=1):
        prev = r.history[i - 2] if i > 1 else None
        versions.append({"n": i, "text": m.text.markdown(v.text), "by": v.by or "", "at": when(v.at),
                         "diff": word_diff(prev.text, v.text) if prev else None, "current": i == len(r.history)})
    return {**_rule_row(m, r), "section": dict(SECTIONS).get(r.section or "", r.section or ""),
            "history": list(reversed(versions))}


def dynasties(m: BlogModel) -> Iterator[Page]:
    st = m.state
    yield Page("dynasties.html", "dynasties.html", lambda: {
        **_facts(m), "dynasties": [
            {"number": d.number, "seraphims": [m.people.link(s, "") for s in d.seraphims],
             "victor": m.people.link(d.victor, "") if d.victor else None,
             "co_victors": [m.people.link(v, "") for v in d.co_victors], "started": when(d.started_at),
             "theme": m.text.inline(d.theme) if d.theme else None, "ascended": d.ascended}
            for d in reversed(st.dynasties)]},
        key=([d.model_dump_json() for d in st.dynasties], st.hiatus, sorted(st.keywords.items()),
             [(p.email, p.idle) for p in st.players], len(st.matters), sum(not r.repealed for r in st.rules),
             st.settled_until, st.edition))


def _player_row(m: BlogModel, p: Pactmaker, root: str) -> dict[str, Any]:
    return {"link": m.people.link(p.email, root), "name": p.name, "idle": p.idle, "admin": p.admin,
            "seraphim": p.email in m.state.dynasty.seraphims, "last_seen": when(p.last_seen),
            "joined": when(p.joined_at), "idled": when(p.idled_at) if p.idle else "", "away": away(m.state, p.email)}


def _player_key(m: BlogModel, p: Pactmaker) -> tuple:
    return (p.model_dump_json(), p.email in m.state.dynasty.seraphims, away(m.state, p.email))


def players(m: BlogModel) -> Iterator[Page | Family]:
    st = m.state
    keys = [_player_key(m, p) for p in st.players]
    waiting = [(a.name or a.email.partition("@")[0], when(a.applied_at)) for a in st.applicants.values()]
    yield Page("players/index.html", "players.html", lambda: {
        "players": [_player_row(m, p, "../") for p in st.players], "quorum": st.quorum(),
        "applicants": [{"name": n, "applied": t} for n, t in waiting]}, key=(keys, waiting))
    authored = {p.email: [x for x in st.matters if x.author == p.email] for p in st.players}
    yield Family("pactmaker", "player.html", [f"players/{m.people.slugs[p.email]}.html" for p in st.players],
                 [(k, [(x.number, x.status, x.tally_line) for x in authored[p.email]])
                  for p, k in zip(st.players, keys)],
                 lambda i: {**_player_row(m, st.players[i], "../"),
                            "matters": [_matter_row(m, x, "../") for x in authored[st.players[i].email]]})


def feeds(m: BlogModel) -> Iterator[Page]:
    b = base(m)
    entries = [{"id": tag(m, f"matter/{x.number}"), "href": f"{b}matters/{x.number}.html",
                "title": f"{KIND_NAMES[x.kind]} {x.number}: {x.title or '(no title)'} "
                         f"({x.tally_line or x.status})",
                "updated": iso(x.resolved_at or x.opened_at), "author": m.people.name(x.author),
                "content": str(m.text.markdown(x.text))} for x in list(reversed(m.state.matters))[:LATEST]]
    yield feed(m, "matters", "Votable Matters", "matters/index.html", entries)


GENERATORS = (queue, matters, rules, dynasties, players, shared.dice, shared.how_to_play, archive.archive, feeds)
