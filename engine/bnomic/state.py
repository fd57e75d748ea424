"""B Nomic's part of the state: the Clock (2-1), Players with their Attributes (1-4, 2-2, 2-11,
3-5, 3-11), the Ministries (6-1), Proposals (2-2), dependent actions (2-8, 2-9), rules in
sections (1-8).

Vote Power is an exact rational kept as its string (``"3/2"``, engine/bnomic/amounts.py); mackerel
a decimal string. ``public_json`` gives exactly the contract's keys.
"""
from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Any, Literal

from pydantic import Field

from engine.bnomic import amounts
from engine.state import GameState, Model, Player, Rule

Status = Literal["pending", "open", "historical"]
Success = Literal["undecided", "won", "lost"]
VoteWord = Literal["FOR", "AGAINST", "ABSTAIN"]
ActionKind = Literal["expel", "usurp", "blueprint", "price", "tidiness", "motnw", "foreign"]
ActionStatus = Literal["pending", "occurred", "failed"]

NDAY_NAMES = ("Breakday", "Winday", "Mulberry", "Tango", "Corvette", "Halfday", "Joel", "Rushnight",
              "Ballotday", "Teucer", "Zarpint", "Thirnight")  # 3-8
BALLOTDAY = 9  # 2-2: the Voting Period is nday 9 to the end of the nweek
LAST_NDAY = 12
# 6-1..6-8: (ministry, minister, the short key commands and changes use)
MINISTRIES = (("Ministry of Society", "Registrar", "society"), ("Ministry of Law", "Rulekeeper", "law"),
              ("Ministry of Change", "Chairman", "change"), ("Ministry of Questions", "Oracle", "questions"),
              ("Ministry of Foreign Relations", "Ambassador", "foreign"), ("Ministry of Goods", "Artisan", "goods"),
              ("Ministry of Ministry", "MetaMin", "ministry"))


class Clock(Model):
    """2-1: nweek, nday (1..12), On/Off, ndelay; and how many changes of each and midnights there
    have been, the monotone counters every window is counted in."""
    nweek: int = 1
    nday: int = 1
    on: bool = False
    ndelay: int = 0
    nday_changes: int = 0
    ndelay_changes: int = 0
    rdays: int = 0

    @property
    def voting(self) -> bool:
        return self.nday >= BALLOTDAY


class BPlayer(Player):
    """A Player; ``score`` is his points (2-4), never below 0."""
    pending_name: str | None = None
    mackerel: str = "50"  # 3-11: decimal, default m50
    vote_power: str = "0"  # 2-2: a nonnegative rational, default 0
    active: bool = False  # 3-5
    voted_this_nweek: bool = False  # 3-5: whether he cast a Vote in the nweek in progress
    hit_points: int = 10  # 2-11
    trophies: list[str] = Field(default_factory=list)  # 2-3: each Trophy's description
    properties: list[str] = Field(default_factory=list)
    joined_nday_changes: int = 0  # Clock.nday_changes when he joined (1-4's 12 ndays)
    allegiance_nweek: int | None = None  # the nweek he last Gave his Allegiance in (5-3, 2-7)

    @property
    def win_count(self) -> int:
        return len(self.trophies)

    @property
    def level(self) -> int:
        """2-12: level 1..10 from points (a Heck of a Lot = 365)."""
        return 1 + sum(self.score >= b for b in (6, 13, 20, 33, 53, 86, 140, 226, 365))


class BRule(Rule):
    """A rule: ``number`` its place in the ruleset (1..); ``label`` its B Nomic number ("2-5", "0"
    or None); ``title`` its name; ``section`` its section's number; ``formerly`` its earlier numbers,
    oldest first (a renumbering keeps its mechanics, engine/bnomic/mechanics.py)."""
    label: str | None = None
    formerly: list[str] = Field(default_factory=list)


class Section(Model):
    number: str | None
    name: str


class Ministry(Model):
    name: str
    minister: str | None  # the Minister's title; None for a MiniMinistry
    key: str  # "society", ... (a MiniMinistry: its name lower-cased)
    holder: str | None = None
    mini: bool = False
    responsibilities: str = ""


class ChangeLine(Model):
    """One change line as written, with the TEXT that follows it (an Enact's or an Amend's)."""
    kind: str
    line: str
    text: str = ""


class Proposal(Model):
    """2-2: ``key`` 1..n in order of submission; ``number`` the Proposal Number or None."""
    key: int
    number: int | None = None
    author: str
    title: str
    body: str
    status: Status = "pending"
    success: Success = "undecided"
    passed: bool = False
    ever_won: bool = False
    withdrawn: bool = False
    conflicts: list[int] = Field(default_factory=list)
    dependencies: list[int] = Field(default_factory=list)
    changes: list[ChangeLine] = Field(default_factory=list)
    votes: dict[str, VoteWord] = Field(default_factory=dict)  # voter -> Final Vote
    stamina: str | None = None  # frozen when it becomes Historical
    strength: str | None = None
    message_id: str | None = None
    received_at: datetime | None = None
    nweek: int | None = None  # the nweek whose Voting made it Historical
    applied: list[str] = Field(default_factory=list)  # the Chairman's Apply lines and Applied notes
    preview: list[str] = Field(default_factory=list)  # what Passing would do to the rules (preview.py)


class Bid(Model):
    bidder: str
    amount: str  # a decimal


class Blueprint(Model):
    """3-12, 3-14: a blueprint; ``price`` its Price (a decimal; a unique one's highest bid once bid on);
    ``nweek`` the nweek the Artisan attempted it in (one a nweek, Reading 33)."""
    name: str
    unique: bool
    price: str = "50"  # 3-12: default m50
    attributes: dict[str, str] = Field(default_factory=dict)
    properties: list[str] = Field(default_factory=list)
    bids: list[Bid] = Field(default_factory=list)
    nweek: int = 1
    stage: Literal["bidding", "grace", "second"] = "bidding"  # a unique one's auction (auctions.py)


    def ranked(self) -> list[Bid]:
        """Each bidder's highest bid, highest first; equal bids: the earlier first (Reading 35)."""
        best: dict[str, Bid] = {}
        for bid in self.bids:
            if bid.bidder not in best or Decimal(bid.amount) > Decimal(best[bid.bidder].amount):
                best[bid.bidder] = bid
        order = {id(bid): i for i, bid in enumerate(self.bids)}
        return sorted(best.values(), key=lambda bid: (-Decimal(bid.amount), order[id(bid)]))

    def price_now(self) -> str:
        """3-14: a unique blueprint's price is its highest bid, once bid on."""
        ranked = self.ranked() if self.unique else []
        return ranked[0].amount if ranked else self.price


class Device(Model):
    """3-12: a device defined on a blueprint, numbered from 1 in order of definition."""
    number: int
    blueprint: str
    owner: str
    attributes: dict[str, str] = Field(default_factory=dict)
    properties: list[str] = Field(default_factory=list)


class Faction(Model):
    """5-2: an Agreement that joined as a Faction; ``agent`` the Player who speaks for it (Reading 40);
    ``vote_power`` an exact rational (5-3)."""
    name: str
    agent: str
    parties: list[str]  # addresses of its parties
    agreement: str  # where the Agreement is publicly available (5-1)
    vote_power: str = "0"

    @property
    def voter(self) -> str:
        """Its key in a proposal's ``votes``."""
        return f"faction:{self.name}"


class Correction(Model):
    """One line of a Tidiness List (3-9): in the rule ``rule`` names, ``wrong`` becomes ``right``."""
    rule: str
    wrong: str
    right: str


class Action(Model):
    """A dependent action (2-8, 2-9): ``supporters`` needed (occurs at the last) or ``objections``
    that make it fail; the window closes at ``closes`` of ``counter`` (a Clock counter)."""
    number: int
    kind: ActionKind
    by: str
    target: str  # what it acts on: a Player's address, a Ministry's key
    reason: str = ""
    status: ActionStatus = "pending"
    supporters: list[str] = Field(default_factory=list)
    objectors: list[str] = Field(default_factory=list)
    needs_support: int = 0
    fails_at_objections: int = 0  # 0: objections do not count
    counter: Literal["nday_changes", "rdays"] = "nday_changes"
    closes: int = 0  # the action's window closes when ``counter`` reaches this
    at: datetime | None = None
    blueprint: Blueprint | None = None  # a ``blueprint`` action's blueprint; a ``price`` one's new Price
    corrections: list[Correction] = Field(default_factory=list)  # a ``tidiness`` action's lines


class Obligation(Model):
    """6-10: a Passed proposal obliges a Ministry to act; its Minister fulfils it."""
    number: int
    ministry: str  # the Ministry's key
    text: str
    by: str  # "P12"
    fulfilled: str | None = None  # the Minister's note when fulfilled


class VictoryCondition(Model):
    """2-3: a Trigger, its Victors, a Cleanup and a Prize; Fulfilled until the end of the nweek."""
    name: str
    trigger: str = ""
    victors: str = ""
    cleanup: str = ""
    prize: str = ""
    fulfilled: bool = False
    repealed: bool = False


class Consultation(Model):
    """2-5: a Question with its Supplicant; ``answered_rdays`` the Clock's ``rdays`` at the Answer
    (its claims are tallied at the 4th midnight after, it is Pondered at the 5th)."""
    number: int
    supplicant: str
    question: str
    reasoning: str = ""
    unbeliever: str | None = None
    status: Literal["waiting", "answered", "zotted", "pondered"] = "waiting"
    priest: str | None = None
    former_priests: list[str] = Field(default_factory=list)
    answer: Literal["YES", "NO"] | None = None
    answer_reasoning: str = ""
    oracularity: list[ChangeLine] = Field(default_factory=list)
    oracularity_unread: list[str] = Field(default_factory=list)  # its lines that are no change line (1-16: it fails)
    answers: int = 0  # Answers the present Priest has given
    claims: dict[str, Literal["consistent", "inconsistent"]] = Field(default_factory=dict)
    answered_rdays: int | None = None
    oracularity_followed: bool = False
    zot_requested: bool = False  # its present Priest asked the Oracle to ZOT it


class ScheduledAction(Model):
    """An action announced for a later moment (1-10): at ``at`` (an absolute time), or at the ``edge``
    ("start" or "end") of nday ``nday`` [of nweek ``nweek``]; ``command`` the action's command as
    JSON, judged when it runs."""
    number: int
    by: str
    line: str
    command: dict[str, Any]
    message_id: str
    at: datetime | None = None
    edge: Literal["start", "end"] | None = None
    nday: int | None = None
    nweek: int | None = None


class RefreshProposal(Model):
    """Rule 0, step 5: a PEP's or the EC's list of changes; ``applied`` what its change lines did
    and the EC's notes of what he implemented by hand."""
    number: int
    by: str
    title: str
    body: str
    changes: list[ChangeLine] = Field(default_factory=list)
    coordinator: str | None = None  # the EC who may note its prose applied, once selected
    applied: list[str] = Field(default_factory=list)


class Emergency(Model):
    """Rule 0: the State of Emergency and its Procedure (engine/bnomic/emergency.py). ``count`` is
    the number of Emergencies so far, the current one's included; the rest is reset when it ends."""
    active: bool = False
    count: int = 0
    coordinator: str | None = None
    forum: str | None = None
    pause: int | None = None
    increment_due: datetime | None = None  # an announced increment happens then, unless a PEP objects
    increment_day: str | None = None  # the UTC day of the EC's last announced increment (once per day)
    refresh_proposals: list[RefreshProposal] = Field(default_factory=list)
    round: Literal[1, 2] | None = None
    ballot: list[int] = Field(default_factory=list)
    votes: dict[str, int] = Field(default_factory=dict)  # PEP -> Refresh Proposal, this round
    selected: int | None = None


class BNomicState(GameState[BPlayer]):
    ruleset: str = "bnomic"
    rules: list[BRule] = Field(default_factory=list)  # type: ignore[assignment]
    sections: list[Section] = Field(default_factory=list)
    clock: Clock = Field(default_factory=Clock)
    midnights: int = 0  # the 00:00 UTC after [game] start that have run (clock.py)
    ballot_published: bool = False  # the Chairman's Ballot in this Voting Period (2-1)
    ministries: list[Ministry] = Field(default_factory=list)
    last_metamin: str | None = None
    proposals: list[Proposal] = Field(default_factory=list)
    highest_number: int = 0  # the highest Proposal Number ever used
    actions: list[Action] = Field(default_factory=list)
    threat_flag: str = "Pink Ponies"
    motnw: str = "This space intentionally left blank"
    results: list[int] = Field(default_factory=list)  # the keys of the last Voting's proposals, in number order
    obligations: list[Obligation] = Field(default_factory=list)
    victory_conditions: list[VictoryCondition] = Field(default_factory=list)
    consultations: list[Consultation] = Field(default_factory=list)
    scheduled: list[ScheduledAction] = Field(default_factory=list)  # not yet run, in order of announcement
    scheduled_count: int = 0  # the number of the last action announced
    blueprints: list[Blueprint] = Field(default_factory=list)  # those that exist, in order of creation
    devices: list[Device] = Field(default_factory=list)  # those that exist
    devices_defined: int = 0  # the number of the last device defined (never reused)
    factions: list[Faction] = Field(default_factory=list)
    parameters: dict[str, int | str] = Field(default_factory=dict)  # values Set by Passed proposals (mechanics.py)
    flag_nday_changes: int | None = None  # Clock.nday_changes when the MoM last changed the Threat Flag (3-17)
    motnw_nweek: int | None = None  # the nweek the Message of the nweek last changed in (3-16)
    relations: dict[str, str] = Field(default_factory=dict)  # another Nomic's name -> the Ambassador's word (2-10)
    peps: list[str] = Field(default_factory=list)  # Rule 0's Potential Emergency Participants (Reading 8)
    four_players_seen: bool = False  # whether there ever were four Players (Reading 8)
    panic_buttons: dict[str, Literal["on", "off"]] = Field(default_factory=dict)  # each PEP's, and only theirs
    emergency: Emergency = Field(default_factory=Emergency)
    refreshed: list[RefreshProposal] = Field(default_factory=list)  # the selected one of each Emergency ended

    def summary(self) -> list[str]:
        c = self.clock
        return [f"nweek {c.nweek}, nday {c.nday} ({NDAY_NAMES[c.nday - 1]}), clock {'On' if c.on else 'Off'}, "
                f"ndelay {c.ndelay}",
                *(f"  {p.score:>5}  {p.email}  {p.name}" for p in self.players)]

    def matter(self, number: int) -> Proposal | None:  # type: ignore[override]
        """The proposal of key ``number``: announcements are threaded by key (a Proposal Number may not
        exist yet when one is announced)."""
        return self.proposals[number - 1] if 1 <= number <= len(self.proposals) else None

    def proposal(self, number: int) -> Proposal | None:
        """The proposal with Proposal Number ``number``."""
        return next((p for p in self.proposals if p.number == number), None)

    def blueprint(self, name: str) -> Blueprint | None:
        """The existing blueprint named ``name`` (case-insensitive, runs of spaces as one)."""
        key = " ".join(name.strip().strip('"').split()).casefold()
        return next((b for b in self.blueprints if " ".join(b.name.split()).casefold() == key), None)

    def faction(self, name: str) -> Faction | None:
        """The Faction named ``name`` (case-insensitive, runs of spaces as one, quotes optional)."""
        key = " ".join(name.strip().strip('"').split()).casefold()
        return next((f for f in self.factions if f.name.casefold() == key), None)

    def device(self, number: int) -> Device | None:
        return next((d for d in self.devices if d.number == number), None)

    def ministry(self, key: str) -> Ministry | None:
        return next((m for m in self.ministries if m.key == key), None)

    def holds(self, address: str, key: str) -> bool:
        """Whether ``address`` holds the Ministry ``key`` now: the office check reads the game state."""
        m = self.ministry(key)
        return m is not None and m.holder == address

    def vote_powers(self) -> amounts.Powers:
        """Each Registered Voter's Vote Power now, as written (2-7: the Players; 5-3, while in force: the
        Factions)."""
        from engine.bnomic.mechanics import on  # mechanics imports this module
        factions = {f.voter: f.vote_power for f in self.factions} if on(self, "5-3") else {}
        return amounts.Powers.read({p.email: p.vote_power for p in self.players}, factions)

    def active_players(self) -> int:
        return sum(p.active for p in self.players)

    def public_json(self) -> dict[str, Any]:
        """The keys CONTRACT.md promises for ``nomic state --json``."""
        from engine.bnomic.mechanics import mechanics_of, values  # mechanics imports this module
        from engine.absence import away_until
        c = self.clock
        return {
            "ruleset": self.ruleset,
            "clock": {"nweek": c.nweek, "nday": c.nday, "nday_name": NDAY_NAMES[c.nday - 1], "on": c.on,
                      "ndelay": c.ndelay, "voting": c.voting, "nday_changes": c.nday_changes,
                      "ndelay_changes": c.ndelay_changes, "rdays": c.rdays},
            "active_players": self.active_players(),
            "quorum_exceeds": amounts.text(amounts.half(self.active_players())),
            "threat_flag": self.threat_flag, "motnw": self.motnw,
            "players": [_player(p) | {"away_until": away_until(self, p.email)} for p in self.players],
            "ministries": [{"name": m.name, "minister": m.minister, "holder": m.holder, "mini": m.mini}
                           for m in self.ministries],
            "last_metamin": self.last_metamin,
            "proposals": [self._proposal(p) for p in self.proposals],
            "actions": [{"number": a.number, "kind": a.kind, "by": a.by, "status": a.status,
                         "supporters": list(a.supporters), "objectors": list(a.objectors)} for a in self.actions],
            "consultations": [{"number": q.number, "supplicant": q.supplicant, "unbeliever": q.unbeliever,
                               "status": q.status, "priest": q.priest, "former_priests": list(q.former_priests),
                               "answer": q.answer, "claims": dict(q.claims),
                               "oracularity_followed": q.oracularity_followed} for q in self.consultations],
            "factions": [{"name": f.name, "agent": f.agent, "parties": list(f.parties), "vote_power": f.vote_power,
                          "agreement": f.agreement} for f in self.factions],
            "blueprints": [{"name": b.name, "unique": b.unique, "price": amounts.mackerel_text(b.price_now()),
                            "bids": [{"bidder": x.bidder, "amount": amounts.mackerel_text(x.amount)} for x in b.bids],
                            "attributes": dict(b.attributes), "properties": list(b.properties)}
                           for b in self.blueprints],
            "devices": [{"number": d.number, "blueprint": d.blueprint, "owner": d.owner,
                         "attributes": dict(d.attributes), "properties": list(d.properties)} for d in self.devices],
            "emergency": self._emergency(),
            "parameters": values(self),
            "rules": [{"number": r.label, "name": r.title, "section": r.section, "text": r.text,
                       "repealed": r.repealed, "mechanics": mechanics_of(r)} for r in self.rules],
            "sections": [{"number": s.number, "name": s.name} for s in self.sections],
            "relations": dict(self.relations),
            "victory_conditions": [v.model_dump(mode="json") for v in self.victory_conditions],
            "obligations": [o.model_dump(mode="json") for o in self.obligations],
            "scheduled": [{"number": s.number, "by": s.by, "line": s.line} for s in self.scheduled],
            "subscribers": self.subscribers_json(),
        }

    def _emergency(self) -> dict[str, Any]:
        e = self.emergency
        return {"active": e.active, "coordinator": e.coordinator, "forum": e.forum, "pause": e.pause,
                "round": e.round, "ballot": list(e.ballot), "votes": dict(e.votes),
                "refresh_proposals": [{"number": r.number, "by": r.by, "title": r.title} for r in e.refresh_proposals],
                "selected": e.selected, "peps": list(self.peps), "panic_buttons": dict(self.panic_buttons)}

    def _proposal(self, p: Proposal) -> dict[str, Any]:
        live = amounts.tally(p.votes, self.vote_powers()) if p.stamina is None else None
        return {"key": p.key, "number": p.number, "author": p.author, "title": p.title, "body": p.body,
                "status": p.status, "success": p.success, "passed": p.passed, "ever_won": p.ever_won,
                "conflicts": list(p.conflicts), "dependencies": list(p.dependencies), "votes": dict(p.votes),
                "stamina": p.stamina if live is None else amounts.text(live.stamina),
                "strength": p.strength if live is None else amounts.text(live.strength)}


def _player(p: BPlayer) -> dict[str, Any]:
    return {"email": p.email, "name": p.name, "pending_name": p.pending_name, "points": p.score,
            "level": p.level, "mackerel": amounts.mackerel_text(p.mackerel), "vote_power": p.vote_power,
            "active": p.active, "hit_points": p.hit_points, "dead": p.hit_points == 0,
            "win_count": p.win_count, "properties": list(p.properties)}
