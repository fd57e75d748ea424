"""Generators: the site model -> pages (path, template, context). No rendering here.

Contexts hold only plain data (str, int, lists, dicts, dataclasses of those,
Markup), so the writer can fingerprint them. A page that is large, or one of
thousands, is lazy: its key is cheap plain data made from the state (see
``Page``), so a rebuild of a long game costs little more than reading those.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from operator import attrgetter
from typing import Any

from engine.imperial import mechanics
from engine.imperial.game_profile import game_profile as engine_game_profile
from engine.imperial.state import ImperialPlayer, Submission
from engine.state import LedgerEntry
from nomic.website import archive, shared
from nomic.website.absence import away
from nomic.website.moves import links
from nomic.website.imperial.feeds import feeds
from nomic.website.describe import describe
from nomic.website.imperial import drawing
from nomic.website.imperial.listing import ROW_NUMBER
from nomic.website.imperial.model import ImperialModel as SiteModel, day_summary
from nomic.website.pages import Family, Fragment, Page
from nomic.website.text import when, word_diff

STATUSES = ("pending", "accepted", "rejected", "ignored")
TEMPERATURE_BLOCK = 100  # rows of the temperature page's table rendered together (and kept: a fragment)
TEMPERATURE_PAGE = 500  # changes a page of the table lists (a multiple of TEMPERATURE_BLOCK)
KIND_NAMES = {"proposal": "Proposal", "point_of_order": "Point of Order"}
EMAIL = attrgetter("email")


def _player_row(m: SiteModel, p: ImperialPlayer, root: str) -> dict:
    return {"link": m.people.link(p.email, root), "name": m.people.name(p.email), "slug": m.people.slugs[p.email],
            "score": p.score, "category": p.category, "entropy": p.entropy, "profile": p.profile,
            "bits": drawing.bits(p.profile), "probation": p.probation, "active": p.active,
            "sealed": p.sealed, "it": m.state.it == p.email, "away": away(m.state, p.email)}


def _sub_row(m: SiteModel, s: Submission, root: str) -> dict:
    cached = m.rows.get((s.number, root))
    if cached is None:
        cached = m.rows[(s.number, root)] = _make_sub_row(m, s, root)
    return cached


def _make_sub_row(m: SiteModel, s: Submission, root: str) -> dict:
    return {"number": s.number, "kind": KIND_NAMES.get(s.kind, s.kind), "title": m.text.inline(s.title),
            "author": m.people.link(s.author, root), "status": s.status, "reason": s.reason or "",
            "day": s.day, "received": when(s.received_at)}


def home(m: SiteModel) -> Iterator[Page]:
    st, root = m.state, ""
    chimes = m.data.of_kind("day_end")
    yield Page("index.html", "home.html", {
        "day": st.game_day, "temperature": st.temperature, "woodchips": st.woodchips,
        "it": m.people.link(st.it, root) if st.it else None,
        "winner": m.people.link(st.winner, root) if st.winner else None,
        "directive": st.directive,
        "chime": _chime(m, chimes[-1], root) if chimes else None,
        "pending": [_sub_row(m, st.submissions[ROW_NUMBER(k) - 1], root)
                    for k in m.index.by_status.get("pending", [])],
        "leaders": [_player_row(m, p, root) for p in _standings(m)[:5]],
        "counts": {"players": len(st.players), "submissions": len(st.submissions),
                   "rules": sum(not r.repealed for r in st.rules)}})


def _standings(m: SiteModel) -> list[ImperialPlayer]:
    """Rule 16: every GP player above every FF player; then by score, then player-list order."""
    order = {p.email: i for i, p in enumerate(m.state.players)}
    return sorted(m.state.players, key=lambda p: (p.category != "GP", -p.score, order[p.email]))


def rules(m: SiteModel) -> Iterator[Page]:
    root = "../"
    yield Page("rules/index.html", "rules.html", _lazy(_rules_index, m, root),
               key=([(r.model_dump_json(), _linkable(m, r.amended_by)) for r in m.state.rules],
                    [p.model_dump_json() for p in m.state.proclamations]))
    for slug, r in m.rule_pages():
        yield Page(f"rules/{slug}.html", "rule.html", _lazy(_rule, m, r, root),
                   key=(r.model_dump_json(), _linkable(m, r.amended_by), sorted(m.state.variables.items())))


def _linkable(m: SiteModel, names: list[str]) -> list[bool]:
    """Which 'P7'-style amendments name a submission of this game (and so become links)."""
    return [n[1:].isdigit() and m.state.submission(int(n[1:])) is not None for n in names]


def _rules_index(m: SiteModel, root: str) -> dict:
    return {"rules": [{"slug": s, "number": r.number, "title": m.text.inline(r.title), "text": m.text.markdown(r.text),
                       "amended_by": _amendments(m, r.amended_by, root), "repealed": r.repealed,
                       "versions": len(r.history)} for s, r in m.rule_pages()],
            "proclamations": [{"number": p.number, "title": m.text.inline(p.title), "text": m.text.markdown(p.text),
                               "at": when(p.at), "day": p.day, "from_number": p.from_number,
                               "changes": p.changes} for p in reversed(m.state.proclamations)]}


def _rule(m: SiteModel, r, root: str) -> dict:
    versions = []
    for i, v in enumerate(r.history, start=1):
        prev = r.history[i - 2] if i > 1 else None
        versions.append({"n": i, "title": m.text.inline(v.title), "text": m.text.markdown(v.text),
                         "by": _amendments(m, [v.by], root) if v.by else [], "at": when(v.at),
                         "diff": word_diff(prev.text, v.text) if prev else None,
                         "current": i == len(r.history)})
    runs = None if r.repealed else mechanics.mechanic(m.state, r)
    first = not r.repealed and mechanics.nth_of(m.state, r) == 0
    return {"number": r.number, "title": m.text.inline(r.title), "repealed": r.repealed,
            "amended_by": _amendments(m, r.amended_by, root), "versions": list(reversed(versions)),
            "mechanics": [runs.runs] if runs is not None else [],
            "parameters": [{"name": p.name, "value": m.state.variables.get(p.name, p.default), "wording": p.wording}
                           for p in mechanics.DECLARED.parameters if first and p.rule == r.number]}


def _amendments(m: SiteModel, names: list[str], root: str) -> list[dict]:
    """'P7' links to submission 7 when this game has one, with who made it (rules 3 and 7: an
    accepted Proposal changes the rules), 'Proclamation 2' to the Proclamation, by TIE;
    amendments from before the game are named only."""
    out: list[dict[str, Any]] = []
    for name in names:
        if name.startswith("Proclamation "):
            out.append({"name": name, "href": f"{root}rules/index.html#proclamation-{name.split()[-1]}",
                        "author": "TIE"})
            continue
        n = name[1:] if name[:1] in "Pp" and name[1:].isdigit() else None
        sub = m.state.submission(int(n)) if n is not None else None
        out.append({"name": name, "href": f"{root}submissions/{n}.html" if sub else None,
                    "author": m.people.link(sub.author, root) if sub else None})
    return out


BLOCK = 100  # submissions per list page, by number: block k holds numbers 100k+1 .. 100k+100
LEDGER_BLOCK = 500  # ledger entries per ledger page
LEDGER_LATEST = 50  # ledger entries on the scores page


def _rows(m: SiteModel, keys: tuple, root: str) -> list[dict]:
    """The rows of the submissions whose row keys are ``keys``, newest first."""
    return [_sub_row(m, m.state.submissions[ROW_NUMBER(k) - 1], root) for k in reversed(keys)]


def submissions(m: SiteModel) -> Iterator[Page | Family]:
    st = m.state
    nav = [{"href": "index.html", "label": "all"}] + [{"href": f"{x}.html", "label": x} for x in STATUSES]
    nav.append({"href": "players.html", "label": "by player"})
    yield from _paged(m, "index", "All submissions", m.row_keys, nav)
    for status in STATUSES:
        yield from _paged(m, status, f"Submissions {status}", m.index.by_status.get(status, []), nav)
    yield Page("submissions/players.html", "submission_players.html", {
        "filters": nav, "current": "players.html", "players": [
            {"href": f"by-{m.people.slugs[p.email]}.html", "label": m.people.name(p.email),
             "count": len(m.row_keys_by_author.get(p.email, ()))} for p in st.players]})
    keys = [(m.people.name(p.email), m.row_keys_by_author.get(p.email, ())) for p in st.players]
    yield Family("submissions by player", "submissions.html",
                 [f"submissions/by-{m.people.slugs[p.email]}.html" for p in st.players], keys,
                 lambda i: _list_context(m, nav, f"Submissions by {keys[i][0]}", "", keys[i][1], None)())
    yield Family("submission", "submission.html", m.memory.numbered("submissions/{}.html", len(st.submissions)),
                 list(m.index.page_keys), lambda i: _submission(m, st.submissions[i], "../"),
                 changes=(m.index.since, m.index.version, [n - 1 for n in m.index.changed]))


def _paged(m: SiteModel, name: str, heading: str, keys: list[tuple], nav: list[dict]) -> Iterator[Page | Family]:
    """A list by blocks of numbers: the newest block on NAME.html, older ones on NAME-K.html, each
    page linking to a window of blocks and, when that leaves some out, to NAME-blocks.html, which
    links to every block (listing.py).

    A block's page changes only when one of its own submissions does or its window of links does,
    so a new submission or a judgment rewrites one or two list pages, and a new block a few more,
    however long the game. ``keys`` are the listed submissions' row keys, by number (so a block is a
    run of them). The pages are a family, kept from build to build with the blocks that changed.
    """
    kept = m.index.listing(name, heading, keys, BLOCK)
    links, titles, parts, paths = kept.links, kept.titles, kept.parts, kept.paths
    yield Family(f"submissions {name}", "submissions.html", kept.paths, kept.keys,
                 lambda i: _list_context(m, nav, titles[i], f"{name}.html", parts[i],
                                         _block_links(links[i], paths[i].rpartition("/")[2]) if links[i] else None)(),
                 changes=None if kept.changed is None else (kept.since, kept.version, kept.changed))
    if kept.every:
        title, every = f"{heading}: all blocks of numbers", kept.every
        yield Page(kept.every_path, "submissions.html", lambda: {
            "filters": nav, "heading": title, "current": f"{name}.html",
            "blocks": _block_links(every, ""), "table": None}, key=(title, every))


def _block_links(links: tuple, here: str) -> Fragment:
    """A list page's links to blocks (``here`` its own, none for the page of all blocks): a fragment,
    kept from build to build while they are the same."""
    return Fragment("block_links", (here, links), lambda: (links, here), "tables.html")


def _list_context(m: SiteModel, nav: list[dict], heading: str, current: str, keys: tuple,
                  blocks: Fragment | None) -> Callable[[], dict]:
    """A list page of the submissions whose row keys are ``keys``, with its ``blocks`` links if it
    has any. Its table is a fragment, so that a page whose block links alone change (a new block
    opened) is rendered without its rows."""
    return lambda: {"filters": nav, "heading": heading, "current": current, "blocks": blocks,
                    "table": Fragment("submission_table", ("../", keys), lambda: (_rows(m, keys, "../"), "../"),
                                      "tables.html")}


def _lazy(make: Callable[..., dict], *args: object) -> Callable[[], dict]:
    return lambda: make(*args)


def _submission(m: SiteModel, s: Submission, root: str) -> dict:
    texts = [s.text] + [r.text for r in s.revisions]
    return {
        **_sub_row(m, s, root), "title_text": s.title, "text": m.text.markdown(s.text), "area": s.area,
        "requests": [_request(m, r.model_dump(), root) | {"outcome": _granted(s, i, _refused(m, s))}
                     for i, r in enumerate(s.requests)],
        "claims": [{"player": m.people.link(c.get("player"), root), "score": c.get("score")} for c in s.claims],
        "changes": s.changes, "preview": s.preview,
        "revisions": [{"n": i, "at": when(r.at), "by": m.people.name(r.by), "text": m.text.markdown(r.text),
                       "diff": word_diff(texts[i - 1], r.text)} for i, r in enumerate(s.revisions, start=1)],
        "judged": when(s.judged_at), "judged_day": s.judged_day,
        "effects": [{"at": when(e.at), "kind": e.kind, "text": describe(e, m.people, root)}
                    for e in m.effects.get(s.number, [])],
        "ledger": [_ledger_row(m, e, root) for e in m.ledger_by_submission.get(s.number, [])],
        "judge_links": links(m.data.game["address"], f"Judgment of submission {s.number}",
                             (f"Accept {s.number}", f"Reject {s.number}", f"Ignore {s.number} because REASON"))
        if s.status == "pending" else [],
        "prev": s.number - 1 if s.number > 1 else None,
        "next": s.number + 1 if s.number < len(m.state.submissions) else None}


def _request(m: SiteModel, r: dict, root: str) -> dict:
    words = {"raise": "raise section {section}", "shave": "shave section {section}",
             "rotate": "rotate {direction}", "sealant": "sealant", "become_ff": "become FF",
             "defend": "defend", "vandalize": "vandalize section {section} of"}
    text = words.get(r["kind"], r["kind"]).format(**r)
    return {"text": text, "target": m.people.link(r["target"], root) if r.get("target") else None}


def _refused(m: SiteModel, s: Submission) -> dict[int, str] | None:
    """The requests of ``s`` its judgment refused (place -> why, engine/imperial/steps.Outcome.refused);
    None before judgment, or if its event predates the record."""
    judged = [e for e in m.effects.get(s.number, []) if e.kind == "judged"]
    if not judged or "refused" not in judged[-1].data:
        return None
    return {int(place): str(why) for place, why in judged[-1].data["refused"]}


def _granted(s: Submission, place: int, refused: dict[int, str] | None) -> str:
    """Whether the request at ``place`` of a decided Proposal was granted, and if not, why."""
    if s.status == "pending":
        return "awaits the Emperor's judgment"
    if s.status != "accepted":
        return f"not granted: the Proposal was {s.status}"
    if refused is None:
        return ""
    return f"not granted: {refused[place]}" if place in refused else "granted"


def _ledger_row(m: SiteModel, e: LedgerEntry, root: str) -> dict:
    return m.ledger_row(e, root, _submission_link)


def _submission_link(n: int, root: str) -> dict:
    return {"href": f"{root}submissions/{n}.html", "label": f"submission {n}"}


def scores(m: SiteModel) -> Iterator[Page | Family]:
    """The standings, the latest changes, and the whole ledger in pages of LEDGER_BLOCK entries."""
    ledger = m.state.ledger
    starts = range(0, len(ledger), LEDGER_BLOCK)  # each block's first place (a block is sliced when rendered)
    links = ledger_links(ledger)
    standings = _standings(m)
    yield Page("scores.html", "scores.html", lambda: {
        "standings": [_player_row(m, p, "") for p in standings],
        "ledger": [_ledger_row(m, e, "") for e in ledger[-LEDGER_LATEST:]],
        "total": len(ledger), "pages": links},
        key=([m.player_keys[p.email] for p in standings], [e.n for e in ledger[-LEDGER_LATEST:]], len(ledger), links))
    yield Family("ledger", "ledger.html", [link["href"] for link in links],  # compared at once
                 [(links, ledger[i].n, min(LEDGER_BLOCK, len(ledger) - i)) for i in starts],
                 lambda k: _ledger_page(m, ledger[starts[k]:starts[k] + LEDGER_BLOCK], links[k]["label"], links))


def ledger_links(ledger: list[LedgerEntry]) -> list[dict]:
    """Every ledger page's link. The newest block is labelled by its first change alone ("1001
    on"): every page lists these links, so a label naming the ledger's last change made each new
    entry rewrite every ledger page; now only an entry that opens a block does."""
    def label(i: int) -> str:
        end = i + LEDGER_BLOCK
        return f"{ledger[i].n}–{ledger[end - 1].n}" if end < len(ledger) else f"{ledger[i].n} on"
    return [{"href": f"ledger-{k + 1}.html", "label": label(i)} for k, i in enumerate(range(0, len(ledger), LEDGER_BLOCK))]


def _ledger_page(m: SiteModel, block: list, label: str, links: list[dict]) -> dict:
    return {"ledger": [_ledger_row(m, e, "") for e in block], "label": label, "pages": links}


def players(m: SiteModel) -> Iterator[Page | Family]:
    """The players' list, and each player's page, keyed by their row and their marks (the index's
    ``player_marks``: ledger entries and events are only ever added to, so their count and last
    id tell them); the keys and paths are made at C speed, no Python step a player."""
    root, players = "../", m.state.players
    emails = list(map(EMAIL, players))
    keys = list(map(m.player_keys.__getitem__, emails))
    yield Page("players/index.html", "players.html",
               lambda: {"players": [_player_row(m, p, root) for p in players]}, key=keys)
    places = drawing.places()  # every player's page draws its Profile in the same places
    yield Family("player", "player.html", list(map("players/{}.html".format, map(m.people.slugs.__getitem__, emails))),
                 list(zip(keys, map(m.index.player_marks.get, emails))), lambda i: _player(m, players[i], root, places))


def _player(m: SiteModel, p: ImperialPlayer, root: str, places: list[drawing.Place]) -> dict:
    return {**_player_row(m, p, root), "email": p.email.replace("@", " at "),
            "joined_day": p.joined_day, "sections": drawing.plank(p.profile, drawn=places),
            "height": drawing.stack_height(1) + 18, "width": drawing.SECTIONS * drawing.CM,
            "sealed_from": p.sealed_from, "sealed_until": p.sealed_until,
            "ledger": [_ledger_row(m, e, root) for e in m.ledger_by_player.get(p.email, [])],
            "submissions": _rows(m, m.row_keys_by_author.get(p.email, ()), root),
            "history": [{"at": when(e.at), "text": describe(e, m.people, root)}
                        for e in m.events_by_player.get(p.email, [])]}


def game_profile(m: SiteModel) -> Iterator[Page]:
    """Rule 17: the GP players' planks stacked in player-list order, alternating ends."""
    yield Page("game-profile.html", "game_profile.html", _lazy(_game_profile, m),
               key=[(p.email, p.name, p.profile, p.category) for p in m.state.players])


def _game_profile(m: SiteModel) -> dict:
    rows = engine_game_profile(m.state)
    ff = [p for p in m.state.players if p.category == "FF"]
    by_email = {p.email: p for p in m.state.players}
    drawn = []
    for i, row in enumerate(rows):
        assert (row.fat_end == "left") == (i % 2 == 0), "rule 17: planks alternate, the first fat end left"
        drawn.append({"player": _player_row(m, by_email[row.email], ""), "fat_left": row.fat_end == "left",
                      "sections": drawing.plank(row.profile, row=i), "label_y": (2 * i + 1.2) * drawing.CM})
    return {"rows": drawn, "width": drawing.SECTIONS * drawing.CM, "height": drawing.stack_height(len(rows)),
            "shape": "none yet" if not rows else ("a trapezoid" if len(rows) % 2 else "a parallelogram"),
            "ff": [_player_row(m, p, "") for p in ff]}


def temperature(m: SiteModel) -> Iterator[Page | Family]:
    """The chart with the newest run of ``TEMPERATURE_PAGE`` changes (or fewer), and each older run
    on a page of its own, which links to the runs beside it: a new change rewrites the chart's page
    alone, and a new run the page of the run before it too, however long the game."""
    changes = m.data.of_kind("temperature")
    runs = [(a, min(a + TEMPERATURE_PAGE, len(changes))) for a in range(0, len(changes), TEMPERATURE_PAGE)] or [(0, 0)]
    hrefs = [f"temperature-{k + 1}.html" for k in range(len(runs) - 1)] + ["temperature.html"]
    labels = [f"{a + 1}–{b}" for a, b in runs[:-1]] + ["the latest"]  # the newest run's numbers change
    older = [{"href": href, "label": label} for href, label in zip(hrefs[:-1], labels[:-1])]
    yield Page("temperature.html", "temperature.html", _lazy(_temperature, m, changes, runs[-1], older),
               key=(m.state.temperature, m.events_key("temperature", "day_end")))
    yield Family("temperature changes", "temperature_changes.html", hrefs[:-1],
                 [(labels[k], changes[a].id, changes[b - 1].id, hrefs[k + 1], labels[k + 1], k > 0)
                  for k, (a, b) in enumerate(runs[:-1])],
                 lambda k: {"label": labels[k], "changes": _temperature_blocks(changes[slice(*runs[k])]),
                            "newer": {"href": hrefs[k + 1], "label": labels[k + 1]},
                            "older": {"href": hrefs[k - 1], "label": labels[k - 1]} if k else None})


def _temperature(m: SiteModel, changes: list, newest: tuple[int, int], older: list[dict]) -> dict:
    st = m.state
    initial = changes[0].data.get("old", st.temperature) if changes else st.temperature
    return {"chart": drawing.temperature_chart(int(initial), m.index.temperature),
            "now": st.temperature, "initial": initial, "older": older, "label": f"{newest[0] + 1}–{newest[1]}",
            "changes": _temperature_blocks(changes[slice(*newest)])}


def _temperature_blocks(changes: list) -> list[Fragment]:
    """The table's rows of a run of changes, newest first, in blocks of ``TEMPERATURE_BLOCK``."""
    blocks = [changes[i:i + TEMPERATURE_BLOCK] for i in range(0, len(changes), TEMPERATURE_BLOCK)]
    return [Fragment("temperature_rows", (block[0].id, block[-1].id, len(block)), partial(_temperature_rows, block),
                     "tables.html") for block in reversed(blocks)]


def _temperature_rows(block: list) -> tuple[list[dict]]:
    """A block of the changes' table, newest first: a block once full never changes (a fragment kept)."""
    return [{"at": when(e.at), "old": e.data.get("old"), "new": e.data.get("new"), "cause": e.data.get("cause", "")}
            for e in reversed(block)],


def _chime(m: SiteModel, e, root: str) -> dict:
    """A ``day_end`` event: the day that ended, the new one, and its summary when there is one."""
    summary, scores, notes = day_summary(e)
    return {"id": e.id, "at": when(e.at), "day": e.data.get("day"), "new_day": e.data.get("new_day"),
            "temperature": summary.get("temperature"), "notes": [m.people.linkify(str(n), root) for n in notes],
            "scores": [{"player": m.people.link(k, root), "score": v} for k, v in scores.items()]}


def bell_tower(m: SiteModel) -> Iterator[Page]:
    yield Page("bell-tower.html", "bell_tower.html",
               lambda: {"chimes": [_chime(m, e, "") for e in reversed(m.data.of_kind("day_end"))]},
               key=(m.events_key("day_end"), m.people_key))


GENERATORS = (home, rules, submissions, scores, players, game_profile, temperature, bell_tower,
              shared.dice, shared.how_to_play, archive.archive, feeds)
