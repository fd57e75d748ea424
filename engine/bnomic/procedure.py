"""Rule 0's Procedure in a State of Emergency: the Emergency Coordinator, the Emergency Forum, the
Pause (+1 at every 00:00 UTC once initialized, and +1 24 hours after the EC's announced increment
unless a PEP objects), Refresh Proposals, the two Ballots counted at Pause 5, 7 and 9, and the
selected one's change lines applied, after which every Panic Button is Off and the Emergency ends.

The program forms the Ballots and counts them itself, the EC's duty without discretion (the design's
Reading 61); the EC selects only among a second round's tied Refresh Proposals."""
from __future__ import annotations

from datetime import datetime, timedelta

from engine.bnomic.citing import cited
from engine.bnomic import changes, emergency
from engine.bnomic.commands import ProcedureCmd, RefreshProposalCmd
from engine.bnomic.state import BNomicState, RefreshProposal
from engine.context import Context
from engine.inputs import Message
from engine.refusal import Refusal

BALLOT_AT, FIRST_COUNT_AT, SECOND_COUNT_AT = 5, 7, 9  # the Pause at steps 6, 8 and 11
INCREMENT_AFTER = timedelta(hours=24)
MAX_TITLE = 200


def _refusal(state: BNomicState, sender: str) -> str | None:
    if not state.emergency.active:
        return "there is no State of Emergency (Rule 0)"
    if sender not in state.peps:
        return "only a PEP (Potential Emergency Participant) takes part in the Procedure (Rule 0)"
    return None


def _coordinates(state: BNomicState, sender: str, cmd: ProcedureCmd, ctx: Context) -> str | None:
    """Why ``sender`` is not the EC; with no EC yet, a PEP's ``Emergency forum`` or ``Initialize the
    Pause`` organizes the Procedure and makes him EC first (step 2)."""
    e = state.emergency
    if e.coordinator is None and cmd.what in ("forum", "initialize"):
        _organize(state, sender, ctx)
    if e.coordinator != sender:
        return "only the Emergency Coordinator does that (Rule 0)"
    return None


def _organize(state: BNomicState, sender: str, ctx: Context) -> None:
    state.emergency.coordinator = sender
    emergency.announce(state, "coordinator", f"{_name(state, sender)} organizes the Procedure and is the Emergency "
                       "Coordinator (Rule 0, step 2)", ctx)


def act(state: BNomicState, msg: Message, cmd: ProcedureCmd, ctx: Context) -> None:
    why = _refusal(state, msg.sender) if cmd.what != "applied" else None
    if why is None:
        why = STEPS[cmd.what](state, msg, cmd, ctx)
    if why is not None:
        ctx.refuse(cmd.line, cited(why, "0"))


def _organize_cmd(state: BNomicState, msg: Message, cmd: ProcedureCmd, ctx: Context) -> str | None:
    if state.emergency.coordinator is not None:
        return f"the Emergency Coordinator is {_name(state, state.emergency.coordinator)} already"
    _organize(state, msg.sender, ctx)
    ctx.say(cmd.line, "you are the Emergency Coordinator (Rule 0, step 2)")
    return None


def _forum(state: BNomicState, msg: Message, cmd: ProcedureCmd, ctx: Context) -> str | None:
    text = " ".join(cmd.text.split())[:MAX_TITLE]
    if not text:
        return "name the Emergency Forum: Emergency forum: TEXT"
    if (why := _coordinates(state, msg.sender, cmd, ctx)) is not None:
        return why
    state.emergency.forum = text
    emergency.announce(state, "forum", f"The Emergency Forum is {text} (Rule 0, step 3)", ctx)
    ctx.say(cmd.line, f"the Emergency Forum is {text}; every PEP is told (Rule 0, step 3)")
    return None


def _initialize(state: BNomicState, msg: Message, cmd: ProcedureCmd, ctx: Context) -> str | None:
    e = state.emergency
    if e.pause is not None:
        return f"the Pause is initialized already: it is {e.pause}"
    if (why := _coordinates(state, msg.sender, cmd, ctx)) is not None:
        return why
    e.pause = 0
    emergency.announce(state, "pause", "The Pause is initialized: 0. It grows by 1 at every 00:00 UTC (Rule 0, "
                       "step 4)", ctx)
    ctx.say(cmd.line, "the Pause is 0 (Rule 0, step 4)")
    return None


def _increment(state: BNomicState, msg: Message, cmd: ProcedureCmd, ctx: Context) -> str | None:
    e, day = state.emergency, msg.at.date().isoformat()
    if (why := _coordinates(state, msg.sender, cmd, ctx)) is not None:
        return why
    if e.pause is None:
        return "the Pause is not initialized"
    if e.increment_due is not None:
        return "an increment awaits its 24 hours already"
    if e.increment_day == day:
        return "the Emergency Coordinator announces an increment once per day (Rule 0, step 4)"
    e.increment_due, e.increment_day = msg.at + INCREMENT_AFTER, day
    at = e.increment_due.strftime("%Y-%m-%dT%H:%M:%SZ")
    emergency.announce(state, "increment", f"The Emergency Coordinator will increment the Pause at {at} unless a "
                       "PEP objects before: 'Object to the increment' (Rule 0, step 4)", ctx)
    ctx.say(cmd.line, f"the Pause is incremented at {at} unless a PEP objects (Rule 0, step 4)")
    return None


def _object(state: BNomicState, msg: Message, cmd: ProcedureCmd, ctx: Context) -> str | None:
    e = state.emergency
    if e.increment_due is None:
        return "no increment of the Pause is announced"
    if e.coordinator == msg.sender:
        return "the Emergency Coordinator does not object to his own increment"
    e.increment_due = None
    emergency.announce(state, "objected", f"{_name(state, msg.sender)} objects: the Pause is not incremented "
                       "(Rule 0, step 4)", ctx)
    ctx.say(cmd.line, "your objection stops the increment (Rule 0, step 4)")
    return None


def _vote(state: BNomicState, msg: Message, cmd: ProcedureCmd, ctx: Context) -> str | None:
    e = state.emergency
    if e.round is None or e.selected is not None or (e.round == 2 and (e.pause or 0) >= SECOND_COUNT_AT):
        return "no Ballot is open for votes"
    if cmd.number not in e.ballot:
        return f"Refresh Proposal {cmd.number} is not on the Ballot: {_numbers(e.ballot)}"
    if msg.sender in e.votes:
        return f"you have voted in round {e.round} already: each PEP casts a single vote (Rule 0)"
    e.votes[msg.sender] = cmd.number
    ctx.say(cmd.line, f"your vote for Refresh Proposal {cmd.number} in round {e.round} is recorded")
    return None


def _select_cmd(state: BNomicState, msg: Message, cmd: ProcedureCmd, ctx: Context) -> str | None:
    e = state.emergency
    if e.coordinator != msg.sender:
        return "only the Emergency Coordinator does that (Rule 0)"
    if e.round != 2 or (e.pause or 0) < SECOND_COUNT_AT or e.selected is not None:
        return "the Emergency Coordinator selects only when the second round's count is tied (Rule 0, step 11)"
    if cmd.number not in e.ballot:
        return f"Refresh Proposal {cmd.number} is not one of the tied: {_numbers(e.ballot)}"
    ctx.say(cmd.line, f"Refresh Proposal {cmd.number} is selected (Rule 0, step 11)")
    _select(state, cmd.number or 0, "selected by the Emergency Coordinator", ctx)
    return None


def _applied(state: BNomicState, msg: Message, cmd: ProcedureCmd, ctx: Context) -> str | None:
    found = next((r for r in reversed(state.refreshed) if r.number == cmd.number), None)
    if found is None or found.coordinator != msg.sender:
        return f"no selected Refresh Proposal {cmd.number} of an Emergency you coordinated"
    found.applied.append(" ".join(cmd.text.split()))
    ctx.say(cmd.line, f"recorded: Refresh Proposal {cmd.number} implemented: {found.applied[-1]}")
    return None


def submit(state: BNomicState, msg: Message, cmd: RefreshProposalCmd, ctx: Context) -> None:
    """Step 5: a PEP or the EC submits one Refresh Proposal, before the first Ballot; numbered 1, 2 ..."""
    e = state.emergency
    why = _refusal(state, msg.sender)
    if why is None and e.round is not None:
        why = "Refresh Proposals are submitted before the first Ballot (Rule 0, step 5)"
    if why is None and any(r.by == msg.sender for r in e.refresh_proposals):
        why = "you have submitted a Refresh Proposal in this Emergency already"
    if why is None and not cmd.text.strip():
        why = "a Refresh Proposal lists its changes in the body"
    if why is not None:
        ctx.refuse(cmd.line, cited(why, "0"))
        return
    rp = RefreshProposal(number=len(e.refresh_proposals) + 1, by=msg.sender, title=" ".join(cmd.title.split()),
                         body=cmd.text, changes=changes.parse(cmd.text))
    e.refresh_proposals.append(rp)
    emergency.announce(state, "refresh_proposal", f"Refresh Proposal {rp.number}, {rp.title!r}, by "
                       f"{_name(state, rp.by)}:\n{rp.body}", ctx)
    ctx.say(cmd.line, f"Refresh Proposal {rp.number}, with {len(rp.changes)} change line"
            f"{'s' * (len(rp.changes) != 1)}")


def due(state: BNomicState) -> datetime | None:
    """When an announced increment of the Pause happens."""
    return state.emergency.increment_due


def increment_now(state: BNomicState, ctx: Context) -> None:
    """24 hours after the EC's announcement, no PEP having objected."""
    state.emergency.increment_due = None
    if state.emergency.active and state.emergency.pause is not None:
        _advance(state, "24 hours after the Emergency Coordinator's announcement, unobjected", ctx)


def at_midnight(state: BNomicState, ctx: Context) -> None:
    """A 00:00 UTC in an Emergency: the Pause + 1, once initialized."""
    if state.emergency.active and state.emergency.pause is not None:
        _advance(state, "00:00 UTC", ctx)


def _advance(state: BNomicState, why: str, ctx: Context) -> None:
    e = state.emergency
    assert e.pause is not None
    e.pause += 1
    emergency.announce(state, "pause", f"The Pause is {e.pause} ({why})", ctx)
    if e.pause == BALLOT_AT and e.round is None:
        e.round, e.ballot, e.votes = 1, [r.number for r in e.refresh_proposals], {}
        emergency.announce(state, "ballot", f"The first-round Ballot: {_ballot(state)}. Each PEP casts a single "
                           "vote: 'Refresh vote N' (Rule 0, steps 6, 7)", ctx)
    elif (e.pause, e.round) in ((FIRST_COUNT_AT, 1), (SECOND_COUNT_AT, 2)):
        _count(state, ctx)


def _count(state: BNomicState, ctx: Context) -> None:
    e = state.emergency
    tally = {n: 0 for n in e.ballot}
    for n in e.votes.values():
        tally[n] = tally.get(n, 0) + 1
    if not tally:
        emergency.announce(state, "count", "No Refresh Proposal is on the Ballot: none can be selected; the "
                           "Emergency lasts until fewer than four Panic Buttons are On (Rule 0)", ctx)
        return
    best = max(tally.values())
    top = [n for n, votes in tally.items() if votes == best]
    counted = ", ".join(f"Refresh Proposal {n}: {votes}" for n, votes in tally.items())
    emergency.announce(state, "count", f"Round {e.round}'s votes: {counted}", ctx)
    if len(top) == 1:
        _select(state, top[0], f"the most votes in round {e.round}", ctx)
    elif e.round == 1:
        e.round, e.ballot, e.votes = 2, top, {}
        emergency.announce(state, "ballot", f"A tie: the second-round Ballot: {_ballot(state)}. Each PEP casts a "
                           "single vote: 'Refresh vote N' (Rule 0, steps 9, 10)", ctx)
    else:
        e.ballot = top
        emergency.announce(state, "count", f"A tie again: the Emergency Coordinator selects one of {_numbers(top)}: "
                           "'Select refresh proposal N' (Rule 0, step 11)", ctx)


def _select(state: BNomicState, number: int, how: str, ctx: Context) -> None:
    """Step 12: its change lines apply in order, each that can; every Panic Button becomes Off."""
    e = state.emergency
    rp = e.refresh_proposals[number - 1]
    e.selected, rp.coordinator = number, e.coordinator
    results = []
    for change in rp.changes:
        try:
            results.append(changes.apply(state, change, f"Refresh Proposal {number}", ctx))
        except changes.Refused as refused:
            results.append(f"{change.line!r} not applied: {refused}")
    rp.applied = results
    emergency.announce(state, "selected", f"Refresh Proposal {number}, {rp.title!r}, is selected ({how}); its "
                       "changes occur: " + ("; ".join(results) or "it has no change line: the Emergency Coordinator "
                                            "implements it") + ". Every Panic Button becomes Off (Rule 0, step 12)",
                       ctx)
    state.refreshed.append(rp)
    state.panic_buttons = {a: "off" for a in state.panic_buttons}
    emergency.sync(state, ctx)


def _ballot(state: BNomicState) -> str:
    e = state.emergency
    return "; ".join(f"{r.number}. {r.title}" for r in e.refresh_proposals if r.number in e.ballot) or "empty"


def _numbers(numbers: list[int]) -> str:
    return ", ".join(str(n) for n in numbers) or "none"


def _name(state: BNomicState, address: str) -> str:
    p = state.player(address)
    return p.name if p is not None else address


STEPS = {"organize": _organize_cmd, "forum": _forum, "initialize": _initialize, "increment": _increment,
         "object": _object, "vote": _vote, "select": _select_cmd, "applied": _applied}
