"""The site's view of a game that every ruleset shares: who is who, the ledger by player, player text.

Built once per build from ``SiteData``; a ruleset's site package extends it
(``nomic/website/imperial/model.py``, ...) and every generator reads it.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from operator import attrgetter
from typing import Any, TypeVar

from engine.state import LedgerEntry, Player
from engine.threads import matter_of
from nomic.website.describe import People
from nomic.website.memory import SiteMemory
from nomic.website.posts import threads
from nomic.website.reader import ListPost, SiteData
from nomic.website.text import Text, slug, when

T = TypeVar("T")


@dataclass
class SiteModel:
    data: SiteData
    people: People
    memory: SiteMemory

    @property
    def state(self) -> Any:
        return self.data.state

    @property
    def text(self) -> Text:
        return self.memory.text

    @cached_property
    def ledger_by_player(self) -> dict[str, list[LedgerEntry]]:
        return group(self.state.ledger, attrgetter("player"))

    @cached_property
    def debates(self) -> dict[int, list[tuple[int, ListPost]]]:
        """Each matter's debate: the list posts whose thread names it (a reply to its announcement or to
        its own message, engine/threads.py), in order, each with its thread's first post."""
        address = self.data.game["address"]
        out: dict[int, list[tuple[int, ListPost]]] = defaultdict(list)
        for root, posts in threads(self.data.posts):
            for _, p in posts:
                number = matter_of(self.state, p.references, address)
                if number is not None:
                    out[number].append((root.seq, p))
        for found in out.values():
            found.sort(key=lambda post: post[1].seq)
        return dict(out)

    def debate(self, number: int, root: str) -> list[dict]:
        """The posts of matter ``number``'s debate as the page shows them, linked into the archive."""
        return [{"subject": self.text.inline(p.subject or "(no subject)"), "at": when(p.at),
                 "author": self.poster(p), "text": self.text.markdown(p.text),
                 "href": f"{root}list/thread-{first}.html#post-{p.seq}"}
                for first, p in self.debates.get(number, [])]

    def events_key(self, *kinds: str) -> list[tuple[int, int | None]]:
        """Events are only ever added to: the count and the last id of each kind tell a page that
        lists them (``Page.key``), at a cost that does not grow with the game."""
        return [(len(found), found[-1].id if found else None) for found in map(self.data.of_kind, kinds)]

    @property
    def people_key(self) -> tuple[dict[str, str], ...]:
        """What every mention of a player or office holder shows: their names and pages (``Page.key``)."""
        return self.people.names, self.people.slugs, self.people.offices

    def poster(self, p: ListPost) -> str:
        """Who wrote a list post: a player by their name, anyone else by the name their mail gave."""
        return self.people.name(p.sender) if p.sender in self.people.names else (p.name or p.sender.split("@")[0])

    def debate_key(self, number: int) -> tuple[int, int | None]:
        """Posts are only ever added: their count and the last one's journal entry tell a debate."""
        found = self.debates.get(number, [])
        return len(found), found[-1][1].seq if found else None

    def ledger_row(self, e: LedgerEntry, root: str, matter: Callable[[int, str], dict] | None = None) -> dict:
        """One ledger entry; its rule is named once (many causes name it already: "Player of the Day 1
        (rule 18)"); ``matter`` links the entry's submission or proposal (href and label)."""
        rule = None if f"(rule {e.rule})" in e.cause else e.rule
        return {"n": e.n, "at": when(e.at), "day": e.day, "player": self.people.link(e.player, root),
                "delta": f"{e.delta:+d}", "score": e.score, "cause": e.cause, "rule": rule, "also": e.also,
                "matter": matter(e.submission, root) if matter and e.submission is not None else None}


def group(items: Iterable[T], key: Callable[[T], Any]) -> dict:
    out: dict = defaultdict(list)
    for item in items:
        out[key(item)].append(item)
    return out


def people(data: SiteData, labels: Mapping[str, str]) -> People:
    """Players' names and page slugs; ``labels`` names an office's holders who are not players
    (office -> label, later offices winning where one address holds two)."""
    slugs: dict[str, str] = {}
    taken: set[str] = set()
    for p in data.state.players:
        base = slug(p.name or p.email.split("@")[0])
        s, n = base, 1
        while s in taken or s == "index":
            n += 1
            s = f"{base}-{n}"
        taken.add(s)
        slugs[p.email] = s
    offices = {str(address).lower(): label for office, label in labels.items()
               for address in _holders(data.offices.get(office, ""))}
    return People(names={p.email: _named(p, offices) for p in data.state.players}, slugs=slugs, offices=offices)


def _named(player: Player, offices: Mapping[str, str]) -> str:
    """A player's name; an office-holder the game named after their address, where the address names
    the office ("tie@..." holding TIE), by their office ("TIE"). A holder with an address of their own
    ("alice@...", one of several Admins) keeps their name."""
    office = offices.get(player.email)
    local = player.email.partition("@")[0]
    return office if office and player.name == local and local.lower() == office.lower() else player.name


def _holders(office: object) -> list[str]:
    """An office's addresses: one (Imperial's TIE) or a list (BlogNomic's admins)."""
    return [str(a) for a in office] if isinstance(office, (list, tuple)) else [str(office)]
