"""Rules "Pactmakers" and "Idle Pactmakers": joining, leaving, idling and unidling.

"Any human may apply to join ... An Admin shall add them to the roster": with ``[blognomic]
admission = "admin"`` (the default) a ``Join`` is an application that waits until an Admin sends
``Admit PLAYER`` (or ``Refuse PLAYER``); with ``"auto"`` it makes a Pactmaker at once.
"""
from __future__ import annotations

from datetime import datetime, timedelta

from engine.blognomic import citing
from engine.blognomic.commands import AdmitCmd, IdleCmd, JoinCmd, LeaveCmd
from engine.blognomic.state import Applicant, BlogState, Pactmaker, iso
from engine.context import Context, EngineConfig
from engine.index import name_key
from engine.inputs import Message
from engine.blognomic.events import Application, Idled, Joined, Left, Refused
from engine.refusal import Refusal

REJOIN = timedelta(weeks=2)
ASKED = timedelta(days=4)  # "in an entry or comment from the past four days"
SILENT = timedelta(days=7)  # "has not posted an entry or comment in the last seven days"


def new_pactmaker(state: BlogState, email: str, name: str, at: datetime, config: EngineConfig) -> Pactmaker:
    p = Pactmaker(email=email, name=state.name_for(email, name), admin=config.holds(email, "admins"),
                  joined_at=at, last_seen=at)
    state.players.append(p)
    state.electorate_changed()
    return p


def seen(state: BlogState, sender: str, at: datetime) -> None:
    """Every authenticated message from a Pactmaker is "an entry or comment" (seven-day idling)."""
    p = state.player(sender)
    if p is not None:
        p.last_seen = at


def admits_at_once(config: EngineConfig) -> bool:
    """``[blognomic] admission = "auto"``: a Join makes a Pactmaker at once; anything else: an Admin admits."""
    return bool(config.options["admission"] == "auto")


def join(state: BlogState, msg: Message, cmd: JoinCmd, ctx: Context) -> None:
    word = state.keywords["Pactmaker"]
    if state.player(msg.sender) is not None:
        ctx.say(cmd.line, f"{msg.sender} is already a {word}; nothing changed")
        return
    left = state.departed.get(msg.sender)
    if left is not None and ctx.at < left + REJOIN:
        ctx.refuse(cmd.line, citing.refusal(state, f"you ceased to be a {word} at {iso(left)}: you may join again "
                                            f"from {iso(left + REJOIN)}", "Pactmakers"))
        return
    if admits_at_once(ctx.config) or ctx.config.holds(msg.sender, "admins"):  # an Admin adds themselves
        p = _add(state, msg.sender, msg.name, ctx, None)
        ctx.say(cmd.line, f"{p.name} ({p.email}) is a {word}; Quorum is now {state.quorum()}")
        return
    waiting = state.applicants.get(msg.sender)
    if waiting is None:
        waiting = state.applicants[msg.sender] = Applicant(email=msg.sender, name=msg.name, applied_at=ctx.at)
        ctx.emit(Application(player=msg.sender, name=msg.name))
    ctx.say(cmd.line, f"your application of {iso(waiting.applied_at)} waits for an Admin to add you to the "
            f"roster; you will be told when you are a {word}")


def admit(state: BlogState, msg: Message, cmd: AdmitCmd, ctx: Context) -> None:
    """An Admin's ``Admit PLAYER`` or ``Refuse PLAYER``: PLAYER an applicant's address or name."""
    word = state.keywords["Pactmaker"]
    a = applicant(state, cmd.player)
    if a is None:
        known = state.player(cmd.player)
        if known is not None:
            ctx.say(cmd.line, f"{known.name} is already a {word}; nothing changed")
        else:
            ctx.refuse(cmd.line, Refusal(f"{cmd.player} has not applied to join (they send Join)", ruleless="no such"))
        return
    del state.applicants[a.email]
    if not cmd.admit:
        ctx.emit(Refused(player=a.email, name=a.name, by=msg.sender))
        ctx.say(cmd.line, f"the application of {a.email} is refused; they are told, and may apply again")
        return
    p = _add(state, a.email, a.name, ctx, msg.sender)
    ctx.say(cmd.line, f"{p.name} ({p.email}) is a {word}; Quorum is now {state.quorum()}")


def applicant(state: BlogState, who: str) -> Applicant | None:
    """The applicant whose address is ``who``, or else whose name it is (case-insensitively)."""
    who = who.strip().strip('"').strip().lower()
    if "@" in who:
        return state.applicants.get(who)
    key = name_key(" ".join(who.split()))
    return next((a for a in state.applicants.values() if name_key(" ".join(a.name.split())) == key), None)


def _add(state: BlogState, email: str, name: str, ctx: Context, by: str | None) -> Pactmaker:
    p = new_pactmaker(state, email, name, ctx.at, ctx.config)
    state.departed.pop(email, None)
    ctx.emit(Joined(player=p.email, name=p.name, admitted_by=by))
    return p


def leave(state: BlogState, msg: Message, cmd: LeaveCmd, ctx: Context) -> None:
    p = state.player(msg.sender)
    if p is None:
        ctx.refuse(cmd.line, citing.refusal(state, f"{msg.sender} is not a {state.keywords['Pactmaker']}",
                                            "Pactmakers"))
        return
    state.players = [q for q in state.players if q is not p]  # a new list: the index starts again
    state.departed[p.email] = ctx.at
    state.dynasty.seraphims = [s for s in state.dynasty.seraphims if s != p.email]
    state.electorate_changed()
    ctx.emit(Left(player=p.email, name=p.name))
    ctx.say(cmd.line, f"{p.name} is no longer a {state.keywords['Pactmaker']}; you may join again from "
            f"{iso(ctx.at + REJOIN)}; Quorum is now {state.quorum()}")


def idle(state: BlogState, msg: Message, cmd: IdleCmd, ctx: Context) -> None:
    """``Idle``/``Unidle`` (oneself, the Admin's action automated) or ``Idle PLAYER`` (an Admin)."""
    who = state.player(cmd.player if cmd.player else msg.sender)
    if who is None:
        ctx.refuse(cmd.line, citing.refusal(state, f"{cmd.player or msg.sender} is not a {state.keywords['Pactmaker']}",
                                            "Idle Pactmakers"))
        return
    if who.email != msg.sender and not ctx.config.holds(msg.sender, "admins"):
        ctx.refuse(cmd.line, citing.refusal(state, "only an Admin may idle or unidle another", "Idle Pactmakers"))
        return
    if who.idle == cmd.idle:
        ctx.say(cmd.line, f"{who.name} is already {'Idle' if who.idle else 'not Idle'}; nothing changed")
        return
    why = _why_not(state, who, msg.sender, cmd.idle, ctx.at)
    if why is not None:
        if not cmd.idle and who.email == msg.sender:
            who.unidle_asked_at = ctx.at  # an Admin may act on the asking later
        ctx.refuse(cmd.line, citing.refusal(state, why, "Idle Pactmakers"))
        return
    _set_idle(state, who, cmd.idle, msg.sender, ctx)
    ctx.say(cmd.line, f"{who.name} is {'Idle' if cmd.idle else 'no longer Idle'}; Quorum is now {state.quorum()}")


def _why_not(state: BlogState, who: Pactmaker, sender: str, to_idle: bool, at: datetime) -> str | None:
    """The four- and seven-day conditions of rule "Idle Pactmakers"."""
    if to_idle:
        if who.email == sender or who.last_seen is None or at - who.last_seen >= SILENT:
            return None
        return (f"{who.name} asked for nothing and last wrote at {iso(who.last_seen)}: an Admin may idle them "
                f"from {iso(who.last_seen + SILENT)}")
    went = who.idled_at
    if went is not None and at - went < ASKED and who.idled_by_self and who.idled_dynasty == state.dynasty.number:
        return (f"{who.name} went Idle at {iso(went)}, within the previous four days and this "
                f"dynasty: they may be unidled from {iso(went + ASKED)}")
    asked = who.unidle_asked_at is not None and at - who.unidle_asked_at < ASKED
    if who.email != sender and not asked:
        return f"{who.name} has not asked to become Unidle in the past four days"
    return None


def _set_idle(state: BlogState, who: Pactmaker, to_idle: bool, by: str, ctx: Context) -> None:
    """An Admin idling another idles one silent for seven days (one who asks idles themselves): the
    ``idle`` event then carries when they last wrote, and the mailer announces it (the Admin "must
    announce the idling")."""
    by_self, silent_since = who.email == by, who.last_seen
    who.idle = to_idle
    state.electorate_changed()
    if to_idle:
        who.idled_at, who.idled_by_self, who.idled_dynasty = ctx.at, by_self, state.dynasty.number
    announced = to_idle and not by_self
    ctx.emit(Idled(player=who.email, idle=to_idle, by_self=by_self, quorum=state.quorum(), by=by,
                   last_seen=iso(silent_since) if announced and silent_since is not None else None))
