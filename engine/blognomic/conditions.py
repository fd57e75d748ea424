"""When a Votable Matter may be Enacted or Failed, as the edition's core rules say, and the tally
line an Admin reports on resolution.

``verdict(state, matter, at)`` answers both questions at once, with the reason where the answer
is no. Time counts from the moment the matter's mail was received, to the second: "at least 12
hours" holds from opened + 12h, "more than 7 days" from opened + 7 days + 1 second. The 12 and
48 hours and the 7 days are the parameters enact_hours, fail_hours and stale_days
(engine/blognomic/mechanics.py), which an enacted ``Set`` line changes: ``Windows`` reads them from
the state.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from engine.blognomic import mechanics
from engine.blognomic.downtime import REASON, in_downtime
from engine.blognomic.state import KIND_NAMES, BlogState, VotableMatter
from engine.blognomic.votes import Count, count_matter
from engine.wording import counted

H = timedelta(hours=1)
SECOND = timedelta(seconds=1)


@dataclass(frozen=True)
class Windows:
    """The rules' times as the parameters stand: ``enact`` "open for voting for at least 12 hours",
    ``fail`` "at least 48 hours", ``stale`` "pending for more than 7 days" (a second past them)."""
    enact: timedelta
    fail: timedelta
    stale: timedelta
    days: int


def windows(state: BlogState) -> Windows:
    days = mechanics.value(state.parameters, "stale_days")
    return Windows(enact=mechanics.value(state.parameters, "enact_hours") * H,
                   fail=mechanics.value(state.parameters, "fail_hours") * H, stale=timedelta(days=days) + SECOND,
                   days=days)


@dataclass(frozen=True)
class Verdict:
    """``enact``/``fail``: None when the rules allow it now, else why not; and the tally line
    each would be announced with."""
    enact: str | None
    fail: str | None
    enacted: str
    failed: str

    def line(self, enact: bool) -> str:
        return self.enacted if enact else self.failed


def label(m: VotableMatter) -> str:
    return f"{KIND_NAMES[m.kind]} {m.number}"


def edges(m: VotableMatter, w: Windows) -> list[datetime]:
    """The moments a matter's conditions can change without a vote: its windows, the strict
    48 hours of edition 109's CfJs, the seven days of a stale Proposal, the end of a downtime."""
    at = m.opened_at
    ends = [at + w.enact, at + 24 * H, at + w.fail, at + w.fail + SECOND, at + w.stale]
    for year in (at.year, at.year + 1):
        ends.append(at.replace(year=year, month=12, day=27, hour=0, minute=0, second=0, microsecond=0))
    return ends


def verdict(state: BlogState, m: VotableMatter, at: datetime, c: Count | None = None) -> Verdict:
    """``c``: the matter's count, where the caller has it already."""
    c = count_matter(state, m) if c is None else c
    enact, fail = allowed(state, m, at, c)
    return Verdict(enact, fail, enacted_line(state, c), tally_line(state, m, c, at))


def allowed(state: BlogState, m: VotableMatter, at: datetime, c: Count) -> tuple[str | None, str | None]:
    """Why ``m`` may not be Enacted, and why not Failed, at ``at`` with the Votes ``c`` (None: it may)."""
    w = windows(state)
    blocked = _blocked(state, m, at, w)
    if blocked is not None:
        return blocked, blocked
    elapsed = at - m.opened_at
    if m.kind == "proposal" and elapsed >= w.stale:
        return f"it has been pending for more than {counted(w.days, 'day')}: it may only be failed", None
    return (_EDITION_109 if state.edition == "109" else _EDITION_149)[m.kind](m, c, elapsed, w)


def _blocked(state: BlogState, m: VotableMatter, at: datetime, w: Windows) -> str | None:
    """Why neither resolution is allowed: resolved already, Hiatus, downtime, not the oldest."""
    if m.status != "pending":
        return f"{label(m)} is already {m.status} ({m.tally_line})"
    if m.kind == "proposal" and state.hiatus:
        return "the game is in Hiatus: Proposals are resolved when it ends"
    if m.kind != "cfj" and in_downtime(at):
        return f"{REASON}: only Calls for Judgement are resolved"
    if m.kind == "proposal" and at - m.opened_at < w.stale:
        oldest = oldest_proposal(state, at)
        if oldest is not None and oldest is not m:
            return f"it is not the oldest pending Proposal ({label(oldest)} is)"
    return None


def oldest_proposal(state: BlogState, at: datetime) -> VotableMatter | None:
    """The oldest pending Proposal, Proposals pending for more than 7 days ignored."""
    stale = windows(state).stale
    return next((m for m in state.first_pending("proposal") if at - m.opened_at < stale), None)


def popular(c: Count, elapsed: timedelta, w: Windows) -> bool:
    return c.for_ >= c.quorum or (elapsed >= w.fail and c.valid > 1 and c.for_ > c.against)


def unpopular(c: Count, elapsed: timedelta, w: Windows) -> bool:
    return c.not_against < c.quorum or (elapsed >= w.fail and not popular(c, elapsed, w))


def _why_not_popular(c: Count) -> str:
    return f"it is not Popular ({c.for_} FOR, Quorum {c.quorum})"


def _why_not_unpopular(c: Count) -> str:
    return f"it is not Unpopular ({c.not_against} not voting AGAINST, Quorum {c.quorum})"


def _hours(span: timedelta) -> str:
    return counted(span // H, "hour")


def _killed(m: VotableMatter) -> str | None:
    if m.self_killed:
        return "it was Self-Killed"
    return "it was Vetoed" if m.vetoed else None


def _proposal_149(m: VotableMatter, c: Count, elapsed: timedelta, w: Windows) -> tuple[str | None, str | None]:
    enact = _killed(m)
    if enact is None and not popular(c, elapsed, w):
        enact = _why_not_popular(c)
    if enact is None and elapsed < w.enact:
        enact = f"it has been open for voting for less than {_hours(w.enact)}"
    fail = None if _killed(m) or unpopular(c, elapsed, w) else _why_not_unpopular(c)
    return enact, fail


def _cfj_149(m: VotableMatter, c: Count, elapsed: timedelta, w: Windows) -> tuple[str | None, str | None]:
    return (None if popular(c, elapsed, w) else _why_not_popular(c),
            None if unpopular(c, elapsed, w) else _why_not_unpopular(c))


def _dov_149(m: VotableMatter, c: Count, elapsed: timedelta, w: Windows) -> tuple[str | None, str | None]:
    if not popular(c, elapsed, w):
        enact: str | None = _why_not_popular(c)
    elif elapsed >= 24 * H or (elapsed >= w.enact and (c.seraphim_quorum or c.against == 0)):
        enact = None
    elif elapsed >= w.enact:
        enact = "it has AGAINST Votes and no quorum of the Seraphims FOR it: it needs 24 hours open"
    else:
        enact = f"it has been open for voting for less than {_hours(w.enact)}"
    if not unpopular(c, elapsed, w):
        fail: str | None = _why_not_unpopular(c)
    else:
        fail = None if elapsed >= w.enact else f"it has been open for voting for less than {_hours(w.enact)}"
    return enact, fail


def _best(c: Count) -> Count:
    """The count if every Pactmaker not voting AGAINST voted FOR (edition 109's failing test)."""
    return Count(electorate=c.electorate, for_=c.electorate - c.against, against=c.against,
                 seraphims=c.seraphims, seraphims_for=c.seraphims)


def _proposal_enactable_109(m: VotableMatter, c: Count, elapsed: timedelta, w: Windows) -> bool:
    return _killed(m) is None and ((c.for_ >= c.quorum and elapsed >= w.enact)
                                   or (elapsed >= w.fail and c.valid > 1 and c.for_ > c.against))


def _dov_enactable_109(m: VotableMatter, c: Count, elapsed: timedelta, w: Windows) -> bool:
    q = c.quorum
    return ((elapsed >= w.enact and c.for_ >= q and (c.seraphim_quorum or c.against == 0))
            or (elapsed >= 24 * H and c.for_ >= q and c.against < q // 2)
            or (elapsed >= w.fail and c.valid >= q and 2 * c.for_ > c.valid))


def _by_enactability_109(enactable: bool, could_be: bool, elapsed: timedelta,
                         minimum: timedelta, w: Windows) -> tuple[str | None, str | None]:
    """Edition 109 fails what could not be Enacted even if everyone not AGAINST voted FOR (time
    standing still, the 12 hours granted), or what cannot be Enacted after 48 hours."""
    enact = None if enactable else "its Votes and time open do not meet any condition for enactment"
    if enactable or elapsed < minimum:
        return enact, "it may still be Enacted" if enactable else f"it has been open for less than {_hours(w.enact)}"
    if could_be and elapsed < w.fail:
        return enact, "it could still be Enacted if more Pactmakers voted FOR"
    return enact, None


def _proposal_109(m: VotableMatter, c: Count, elapsed: timedelta, w: Windows) -> tuple[str | None, str | None]:
    if _killed(m):
        return _killed(m), None
    could_be = _proposal_enactable_109(m, _best(c), max(elapsed, w.enact), w)
    return _by_enactability_109(_proposal_enactable_109(m, c, elapsed, w), could_be, elapsed, timedelta(0), w)


def _dov_109(m: VotableMatter, c: Count, elapsed: timedelta, w: Windows) -> tuple[str | None, str | None]:
    could_be = _dov_enactable_109(m, _best(c), max(elapsed, w.enact), w)
    return _by_enactability_109(_dov_enactable_109(m, c, elapsed, w), could_be, elapsed, w.enact, w)


def _cfj_109(m: VotableMatter, c: Count, elapsed: timedelta, w: Windows) -> tuple[str | None, str | None]:
    if not (c.for_ >= c.quorum or c.against >= c.quorum or elapsed > w.fail):
        why = f"it has no Quorum of FOR or AGAINST Votes and has not been open for more than {_hours(w.fail)}"
        return why, why
    if c.for_ > c.against:
        return None, "it has more FOR Votes than AGAINST: it is to be Enacted"
    return "it does not have more FOR Votes than AGAINST: it is to be Failed", None


_EDITION_149 = {"proposal": _proposal_149, "cfj": _cfj_149, "dov": _dov_149}
_EDITION_109 = {"proposal": _proposal_109, "cfj": _cfj_109, "dov": _dov_109}


def _deferred(state: BlogState, c: Count) -> str:
    if not c.resolved:
        return ""
    head = state.keywords.get("Seraphim", "Seraphim")
    return f", {c.resolved} DEF→{c.resolved_to} via the {head}{'s' if c.seraphims > 1 else ''}"


def enacted_line(state: BlogState, c: Count) -> str:
    """"Enacted 5-1 (Quorum 4), 2 DEF→FOR via the Seraphim"."""
    return f"Enacted {c.for_}-{c.against} (Quorum {c.quorum}){_deferred(state, c)}"


def tally_line(state: BlogState, m: VotableMatter, c: Count, at: datetime) -> str:
    """The line reported when the matter is Failed: "Self-killed", "Vetoed", "Timed out 2-3"
    (failed on time, not on the count of AGAINST), or "Failed 1-3 (Quorum 4)"."""
    if m.self_killed:
        return "Self-killed"
    if m.vetoed:
        return "Vetoed"
    if c.not_against >= c.quorum and at - m.opened_at >= windows(state).fail:
        return f"Timed out {c.for_}-{c.against}{_deferred(state, c)}"
    return f"Failed {c.for_}-{c.against} (Quorum {c.quorum}){_deferred(state, c)}"
