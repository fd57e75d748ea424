"""Events: what happened, for the outbox, the site and the answer mail.

Events are data, not behaviour: the engine appends them, storage keeps them,
the mailer and the site read them. Kinds in use (``data`` keys in brackets):

- ``outcome``: one line of an answer to a message [command, result, ok]
- ``joined``: a new player [player, profile]
- ``submitted``: a submission recorded [number, kind, author, title, status]
- ``judged``: a submission judged [number, verdict, status, reason]
- ``score``: a score changed, mirrors the ledger [player, delta, score, cause]
- ``temperature``: the temperature changed [old, new, cause]
- ``draw``: a random draw [label, low, high, result]
- ``day_end``: the end of a day [day, new_day, at, chime (rule 19 in force: ring it), summary]
- ``amended``: an accepted Proposal's rule changes took effect [number, changes]
- ``winner``: TEW [player]
- ``profile``: a Profile changed, rules 14/20/21 [player, old, new, cause, submission]
- ``category``: a player became FF, rule 16 [player, category, submission]
- ``swap_offered``: a rule 14 swap offer [number, proposer, partner, sections, partner_sections]
- ``player_of_the_day``: rule 18's draw [day, player]
- ``it``, ``inactive``, ``active``: rule 22 [player, ...]
- ``proclamation``, ``directive``, ``subscription``, ``list_post``: as named
- ``unauthenticated``: a message that was not authenticated (no answer)
"""
from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class Event(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: str
    data: dict = Field(default_factory=dict)
