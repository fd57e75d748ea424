"""Factions (5-1 to 5-3, 2-7): registered by a Player party who speaks for the Agreement (its
agent, taken at his word: Reading 40), Allegiance from Breakday to Rushnight once a nweek (+1 Vote
Power), ×3/4 at each nweek's start, the agent's Votes, and ceasing with no Player party."""
from __future__ import annotations

from fractions import Fraction

from engine.bnomic.citing import cited
from engine.bnomic import ceasing, players, votes
from engine.bnomic.commands import FactionCmd, FactionVoteCmd
from engine.bnomic.events import FactionChanged, Voted
from engine.bnomic.state import BNomicState, Faction
from engine.context import Context
from engine.events import Cause
from engine.inputs import Message
from engine.refusal import Refusal

RUSHNIGHT = 8  # 5-3: "between the start of Breakday and the end of Rushnight"
DECAY = Fraction(3, 4)
MAX_PARTIES = 100


def act(state: BNomicState, msg: Message, cmd: FactionCmd, ctx: Context) -> None:
    if cmd.what == "register":
        _register(state, msg, cmd, ctx)
        return
    f = state.faction(cmd.name)
    if f is None:
        ctx.refuse(cmd.line, Refusal(f"there is no Faction {cmd.name}", ruleless="no such"))
    elif cmd.what == "allegiance":
        _allegiance(state, msg, cmd, f, ctx)
    elif f.agent != msg.sender:
        ctx.refuse(cmd.line, Refusal(f"only the agent of {f.name} speaks for it", "5-2"))
    elif cmd.what == "dissolve":
        ceasing.cease(state, f, "dissolved by its agent", ctx)
        ctx.say(cmd.line, f"{f.name} is no longer a Faction")
    else:
        parties = _parties(state, cmd.parties)
        if isinstance(parties, str):
            ctx.refuse(cmd.line, cited(parties, "5-2"))
        elif msg.sender not in parties:
            ctx.refuse(cmd.line, Refusal("the agent stays a party: to leave, 'Dissolve faction'", "5-2"))
        else:
            f.parties = parties
            ctx.say(cmd.line, f"{f.name}'s parties: {', '.join(parties)}")


def _register(state: BNomicState, msg: Message, cmd: FactionCmd, ctx: Context) -> None:
    """5-2: an Agreement that is no Faction or Player joins, with a Player party: the sender."""
    name = players.clean(cmd.name)
    parties = _parties(state, cmd.parties)
    why = players.invalid(name) or (
        f"{name} is a Faction or a Player already (5-2)" if state.faction(name) or players.find(state, name) else
        parties if isinstance(parties, str) else
        "you must be one of its Parties (5-2)" if msg.sender not in parties else
        "an 'Agreement: URL' line must say where the Agreement is public (5-1)" if not cmd.agreement.strip() else None)
    if why is not None:
        ctx.refuse(cmd.line, cited(why, "5-2"))
        return
    assert not isinstance(parties, str)  # else ``why`` says so
    state.factions.append(Faction(name=name, agent=msg.sender, parties=parties, agreement=cmd.agreement.strip()))
    ctx.emit(FactionChanged(name=name, vote_power="0", why=f"registered by {msg.sender}"))
    ctx.say(cmd.line, f"{name} is a Faction with Vote Power 0; you are its agent (5-2)")


def _parties(state: BNomicState, names: list[str]) -> list[str] | str:
    """The Players named, by address, or why not (Reading 45)."""
    if not names or len(names) > MAX_PARTIES:
        return f"a 'Parties:' line names 1 to {MAX_PARTIES} Players"
    found = []
    for name in names:
        p = players.find(state, name)
        if p is None:
            return f"there is no Player {name.strip()}"
        if p.email not in found:
            found.append(p.email)
    return found


def _allegiance(state: BNomicState, msg: Message, cmd: FactionCmd, f: Faction, ctx: Context) -> None:
    """5-3: at most once each nweek, nday 1 to 8 (Clock On or Off), a party: +1 Vote Power."""
    p = state.player(msg.sender)
    if p is None:
        return
    if msg.sender not in f.parties:
        ctx.refuse(cmd.line, Refusal(f"you are not a party to {f.name}", "5-3"))
    elif state.clock.nday > RUSHNIGHT:
        ctx.refuse(cmd.line, Refusal("Allegiance is given from the start of Breakday to the end of Rushnight", "5-3"))
    elif p.allegiance_nweek == state.clock.nweek:
        ctx.refuse(cmd.line, Refusal("you have Given your Allegiance this nweek", "5-3"))
    else:
        p.allegiance_nweek = state.clock.nweek
        f.vote_power = str(Fraction(f.vote_power) + 1)
        ctx.emit(FactionChanged(name=f.name, vote_power=f.vote_power, why=f"allegiance of {p.email}"))
        ctx.say(cmd.line, f"{f.name}'s Vote Power is {f.vote_power}; yours will be 0 from Ballotday (2-7)")


def vote(state: BNomicState, msg: Message, cmd: FactionVoteCmd, ctx: Context) -> None:
    """The agent votes for the Faction, or lowers its Vote Power; his own Vote is apart (Reading 31)."""
    f = state.faction(cmd.faction)
    if f is None:
        ctx.refuse(cmd.line, Refusal(f"there is no Faction {cmd.faction}", ruleless="no such"))
    elif f.agent != msg.sender:
        ctx.refuse(cmd.line, Refusal(f"only the agent of {f.name} speaks for it", "5-2"))
    elif cmd.power is not None:
        q = votes.rational(cmd.power)
        if q is None or q >= Fraction(f.vote_power):
            ctx.refuse(cmd.line, Refusal(f"{f.name}'s Vote Power is {f.vote_power}: it may only be lowered, to a "
                                         "nonnegative rational", "2-2"))
        else:
            f.vote_power = str(q)
            ctx.say(cmd.line, f"{f.name}'s Vote Power is {f.vote_power}")
    else:
        p = state.proposal(cmd.number or 0)
        if p is None or p.status != "open":
            ctx.refuse(cmd.line, Refusal(f"proposal {cmd.number} is no Open proposal", "2-2"))
            return
        assert cmd.vote is not None
        p.votes.pop(f.voter, None)
        p.votes[f.voter] = cmd.vote
        ctx.emit(Voted(key=p.key, number=p.number, voter=f.voter, vote=cmd.vote), Cause("proposal", p.key))
        ctx.say(cmd.line, f"{cmd.vote} on proposal {p.number} is {f.name}'s Final Vote (Vote Power {f.vote_power})")


def decay(state: BNomicState, ctx: Context) -> None:
    """5-3: at the beginning of each nweek, after Open proposals became Historical: ×3/4."""
    for f in state.factions:
        if f.vote_power != "0":
            f.vote_power = str(Fraction(f.vote_power) * DECAY)
            ctx.emit(FactionChanged(name=f.name, vote_power=f.vote_power, why="the nweek began (5-3)"))
