"""Which matter (submission, proposal...) a reply is about, from its In-Reply-To and References (pure).

Mail the game sends about submission N has the Message-ID
``<sub{N}.{kind}.{journal seq}.{hash}@{game domain}>`` (mailer/outgoing.py);
the submission's own message is known by its Message-ID. A reply names
them in In-Reply-To/References, nearest first, so the first that names a
submission wins.
"""
from __future__ import annotations

import re
from typing import Any

from engine.state import GameState

_OURS = re.compile(r"^sub(\d{1,9})\.[^@]*@(.+)$", re.I)


def matter_of(state: GameState[Any], references: list[str], address: str) -> int | None:
    """The number of the submission the thread is about, or None.

    ``references`` are Message-IDs without angle brackets, In-Reply-To first;
    ``address`` is the game's address, whose domain our Message-IDs carry.
    """
    domain = address.rpartition("@")[2].lower()
    for ref in references:
        m = _OURS.match(ref)
        if m and m[2].lower() == domain and state.matter(int(m[1])) is not None:
            return int(m[1])
        sub = state.matter_by_message_id(ref)
        if sub is not None:
            return sub.number
    return None
