"""The daily mail's moment, 00:00 UTC, where ``[blognomic] daily_mail = true``: a ``daily`` event
with what the mail says (pending matters with their tallies and what each needs, what resolved in
the day before, who is Idle and who is near the seven-day mark).

Midnights are counted from ``settled_until`` (the time of the last step), so the state needs no
mark of its own: a step that crosses a midnight settles up to it, says the day's facts as of that
moment, then goes on. A step that crosses several (a game left without a clock) says only the
last: a daily mail about a day long gone helps nobody, and the work stays bounded.
"""
from __future__ import annotations

from datetime import datetime, timedelta
from itertools import islice
from typing import Any

from engine.blognomic import auto
from engine.blognomic.conditions import verdict
from engine.blognomic.players import SILENT
from engine.blognomic.state import BlogState, VotableMatter, iso
from engine.blognomic.votes import count_matter
from engine.context import Context, EngineConfig
from engine.blognomic.events import Daily

DAY = timedelta(days=1)
LISTED = 20  # applications named in a daily mail, the oldest first (the rest are counted)
NEAR = timedelta(days=5)  # silent this long: "near the seven-day mark" (an Admin may idle them at SILENT)


def enabled(config: EngineConfig) -> bool:
    return bool(config.options["daily_mail"])


def next_midnight(after: datetime) -> datetime:
    """The first 00:00 UTC strictly after ``after``."""
    return after.replace(hour=0, minute=0, second=0, microsecond=0) + DAY


def catch_up(state: BlogState, until: datetime, ctx: Context) -> None:
    """Emit the ``daily`` of the last midnight in (settled_until, until], settled up to it first."""
    if not enabled(ctx.config) or next_midnight(state.settled_until) > until:
        return
    midnight = until.replace(hour=0, minute=0, second=0, microsecond=0)
    auto.settle(state, midnight, ctx)
    ctx.emit(Daily(**facts(state, midnight)))


def facts(state: BlogState, at: datetime) -> dict[str, Any]:
    """What the daily mail of ``at`` says, as plain data."""
    since = at - DAY
    return {
        "at": iso(at), "day": (at.date() - state.started.date()).days, "quorum": state.quorum(),
        "dynasty": state.dynasty.number, "hiatus": state.hiatus,
        "pending": [_pending(state, m, at) for m in state.pending()],
        "resolved": [{"number": m.number, "kind": m.kind, "title": m.title, "status": m.status,
                      "tally": m.tally_line} for m in state.matters
                     if m.resolved_at is not None and since < m.resolved_at <= at],
        "idle": [p.email for p in state.players if p.idle],
        "near_idle": [{"player": p.email, "last_seen": iso(p.last_seen), "idle_from": iso(p.last_seen + SILENT)}
                      for p in state.active() if p.last_seen is not None and at - p.last_seen >= NEAR],
        "applicants": [{"player": a.email, "name": a.name, "applied_at": iso(a.applied_at)}
                       for a in islice(state.applicants.values(), LISTED)],
        "applications": len(state.applicants),
    }


def _pending(state: BlogState, m: VotableMatter, at: datetime) -> dict[str, Any]:
    """A pending matter's tally and what it needs: ``enact``/``fail`` None where it may be resolved
    so now, else why not."""
    c, v = count_matter(state, m), verdict(state, m, at)
    return {"number": m.number, "kind": m.kind, "title": m.title, "author": m.author,
            "opened_at": iso(m.opened_at), "for": c.for_, "against": c.against,
            "deferential": c.deferential, "quorum": c.quorum, "enact": v.enact, "fail": v.fail}
