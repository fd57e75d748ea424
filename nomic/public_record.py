"""The public record: the game as a stranger may check it, without the raw mail.

The journal's own hash chain (storage.entry_hash) commits to each entry's raw bytes *and* its meta
(the SMTP envelope and the authentication verdict) as they are, so nobody can recompute it
without them. The public record is a second chain, derived from the journal, whose links a
stranger can recompute: link ``i`` is SHA-256 over the canonical JSON of

    {"seq", "kind", "at", "raw_sha256", "journal_hash", "input", "skipped", "draws", "prev"}

where ``input`` is the parsed input the fold used (engine.inputs.Message or ClockStep as JSON,
each not-understood line withheld), ``raw_sha256`` commits to the raw bytes and ``journal_hash``
ties the link to the operator's chain (which commits to the envelope and verdict too), ``draws``
are the entry's random draws (label, low, high, result) and ``prev`` the link before (64 zeros
first). The head of this chain and its entry count are what the site's footer names.

Being derived, it needs no migration: a game journaled by any release gets its record from its
first entry on (docs/operating.md).
"""
from __future__ import annotations

import hashlib
import json
import re
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import asdict
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import bindparam, select
from sqlalchemy.engine import Connection

import storage
from engine.context import EngineConfig
from engine.dice import seed_hash
from engine.inputs import ClockStep
from engine.state import GameState
from mailer.inputs import to_input
from mailer.message import Received
from nomic.record_head import WITHHELD, Head, moves
from storage.config import parse_time
from storage.tables import EventRow, Meta

if TYPE_CHECKING:
    from nomic.game import Game

FORMAT = "humble-scribe-public-record/1"
RECORD, GAME = "record.jsonl", "game.json"
ADDRESS = re.compile(r"[^\s<>\"',;]+@[^\s<>\"',;]+")

# The statements every rebuild runs, built once: executing the same statement object reuses its
# cache key and compiled form, where one built per call is constructed and keyed again each time.
PROCESSED = select(Meta.value).where(Meta.key == "processed_seq")  # type: ignore[call-overload]
EVENTS = (select(EventRow.seq, EventRow.kind, EventRow.data)  # type: ignore[call-overload]
          .where(EventRow.seq > bindparam("after"), EventRow.seq <= bindparam("upto"))
          .order_by(EventRow.id))


def canonical(data: Any) -> bytes:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def link_hash(record: dict[str, Any]) -> str:
    """The hash of one link: its fields except ``hash`` itself, as canonical JSON."""
    return hashlib.sha256(canonical({k: v for k, v in record.items() if k != "hash"})).hexdigest()


def public_input(data: dict[str, Any] | None, shown: Callable[[Any], bool], quiet: bool) -> dict[str, Any] | None:
    """The input as published: every not-understood line withheld (their number is kept); and the
    sender (address, name, Message-ID) withheld of a mail that is no move, or a move the game
    refused (``quiet``: its fold made nothing but refusals), from anyone who has not moved before
    (``shown``: is this an earlier mover or an address the settings name).

    Such mail (forged or automatic mail, nothing understood, the list's ``Subscribe``,
    ``Unsubscribe``, ``Digest`` and posts, a refused command) is how a stranger meets the game: its
    From address was shown to the Scribe alone. The replay does not miss it: the engine keeps
    nothing of a stranger's mail but the list, and the list's members are left out of the
    published state (``published_state``), as a list's roster is kept private. A player (who has
    moved, or whom the settings name) keeps their address on every mail: the engine notes when
    they last wrote.
    """
    if data is None or data.get("kind") != "mail":
        return data
    data["not_understood"] = [WITHHELD for _ in data.get("not_understood", [])]
    stranger = not data.get("authenticated") or data.get("automatic") or not shown(data.get("sender"))
    if stranger and (quiet or not moves(data)):
        data.update(sender=WITHHELD, name="", message_id=WITHHELD)
    return data


def configured(cfg: EngineConfig) -> frozenset[str]:
    """Every address the game's published settings name (its own, the offices, Suber's first players)."""
    return frozenset(a.lower() for a in ADDRESS.findall(canonical(public_config(cfg)).decode()))


def published_state(state: GameState[Any]) -> dict[str, Any]:
    """The state as the record publishes it: all of ``nomic state --json`` but the list's members."""
    data = state.public_json()
    data.pop("subscribers", None)
    return data


def records(game: "Game", after: Head = Head()) -> Iterator[dict[str, Any]]:
    """The public record's links after ``after``, in order, up to the last entry folded.

    Nothing folded since ``after`` costs one statement: a site rebuild asks after every batch."""
    with game.db.connect() as conn:
        processed = int(conn.execute(PROCESSED).scalar() or 0)
        if processed <= after.seq:
            return
        skips = storage.skipped(conn)
        draws, busy = _events(conn, after.seq, processed)
        head, settings = after, cache(lambda: configured(game.engine_config))  # this call's, when first needed

        def shown(address: Any) -> bool:  # the head as it stands when asked
            return address in head.movers or address in settings()

        for entry in storage.entries(conn, after=after.seq, upto=processed, parser=game.parser):
            record = {"seq": entry.seq, "kind": entry.kind, "at": entry.at,
                      "raw_sha256": hashlib.sha256(entry.raw).hexdigest() if entry.raw is not None else None,
                      "journal_hash": entry.hash,
                      "input": public_input(_input(game, entry, skips), shown, quiet=entry.seq not in busy),
                      "skipped": skips.get(entry.seq) if entry.kind != storage.SKIP else json.loads(entry.meta),
                      "draws": draws.get(entry.seq, []), "prev": head.hash}
            record["hash"] = link_hash(record)
            head = head.then(record)
            yield record


def _input(game: "Game", entry: storage.Entry, skips: dict[int, str]) -> dict[str, Any] | None:
    """The input the fold used (as JSON), as cached when it was folded; None if it folded nothing."""
    if entry.kind == "clock":
        return json.loads(ClockStep(at=parse_time(entry.at)).model_dump_json())
    if entry.kind != "mail" or entry.seq in skips:
        return None
    if entry.parsed is not None:
        return dict(json.loads(entry.parsed))
    cfg = game.engine_config
    inp = to_input(entry, Received(entry.raw or b""), cfg.address, cfg.list_address, game.grammar)
    return json.loads(inp.model_dump_json())


def _events(conn: Connection, after: int, upto: int) -> tuple[dict[int, list[list[Any]]], set[int]]:
    """Each entry's draws as [label, low, high, result], in the order the fold drew them; and the
    entries whose fold did more than refuse: an event besides its outcome lines, or a line done (the
    rule is that refused input changes nothing; what was done may have changed something)."""
    draws: dict[int, list[list[Any]]] = defaultdict(list)
    busy: set[int] = set()
    for seq, kind, data in conn.execute(EVENTS, {"after": after, "upto": upto}):
        if kind == "draw":
            d = json.loads(data)
            draws[seq].append([d["label"], d["low"], d["high"], d["result"]])
        if kind != "outcome" or json.loads(data).get("ok"):
            busy.add(seq)
    return draws, busy


def advance(game: "Game", after: Head) -> tuple[Head, Head | None]:
    """The head after the newest folded entry, and after the newest clock step among those
    after ``after`` (None if there is none); what every page's footer names is the latter."""
    last, clock = after, None
    for record in records(game, after):
        last = last.then(record)
        if record["kind"] == "clock":
            clock = last
    return last, clock


def public_config(cfg: EngineConfig) -> dict[str, Any]:
    """The engine's settings as published: everything but the seed."""
    data = asdict(cfg)
    del data["seed"]
    data["start"] = storage.iso(cfg.start)
    data["offices"] = {k: list(v) for k, v in cfg.offices.items()}
    return data


def export(game: "Game", out: Path) -> Head:
    """Write the public record of ``game`` into ``out``: record.jsonl (a link a line) and game.json
    (the settings, the rules text, the seed's hash (the seed once revealed) and the published state)."""
    out.mkdir(parents=True, exist_ok=True)
    last = Head()
    with (out / RECORD).open("wb") as f:
        for record in records(game):
            f.write(canonical(record) + b"\n")
            last = last.then(record)
    seed = str(game.config.game["seed"])
    summary = {"format": FORMAT, "name": game.config.game.get("name", ""), "config": public_config(game.engine_config),
               "rules_text": game.config.rules_text(), "seed_sha256": seed_hash(seed),
               "seed": seed if game.config.game.get("reveal_seed") else None,
               "entries": last.count, "head": last.hash, "journal_head": last.journal_hash,
               "state": published_state(game.state())}
    (out / GAME).write_text(json.dumps(summary, indent=1, sort_keys=True, ensure_ascii=False) + "\n")
    return last
