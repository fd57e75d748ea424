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
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from sqlalchemy.engine import Connection
from sqlmodel import Session

import storage
from engine.context import EngineConfig
from engine.dice import seed_hash
from engine.inputs import ClockStep, Message, load_message
from nomic.inputs import to_input
from storage.config import parse_time
from storage.tables import EventRow

if TYPE_CHECKING:
    from nomic.game import Game

FORMAT = "humble-scribe-public-record/1"
RECORD, GAME = "record.jsonl", "game.json"
WITHHELD = "[withheld]"  # a line the Scribe did not understand: it may be private, and changes no state


def canonical(data: Any) -> bytes:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def link_hash(record: dict[str, Any]) -> str:
    """The hash of one link: its fields except ``hash`` itself, as canonical JSON."""
    return hashlib.sha256(canonical({k: v for k, v in record.items() if k != "hash"})).hexdigest()


@dataclass(frozen=True)
class Head:
    """The head of the public record after ``count`` entries."""
    hash: str
    count: int


def public_input(inp: Message | ClockStep | None) -> dict[str, Any] | None:
    """The input as published: every not-understood line withheld (their number is kept)."""
    if inp is None:
        return None
    data = json.loads(inp.model_dump_json())
    if "not_understood" in data:
        data["not_understood"] = [WITHHELD for _ in data["not_understood"]]
    return data


def records(game: "Game") -> Iterator[dict[str, Any]]:
    """The public record's links, in order, for the processed part of the journal."""
    cfg = game.engine_config
    with Session(game.db) as s:
        conn = s.connection()
        processed = int(storage.get_meta(s, "processed_seq", "0"))
        skips = storage.skipped(conn)
        draws = _draws(conn, processed)
        prev = storage.GENESIS
        for entry in storage.entries(conn, upto=processed, parser=game.parser):
            inp: Message | ClockStep | None = None
            if entry.kind == "clock":
                inp = ClockStep(at=parse_time(entry.at))
            elif entry.kind == "mail" and entry.seq not in skips:
                inp = (load_message(entry.parsed, game.ruleset.command_models) if entry.parsed is not None
                       else to_input(entry, cfg.address, cfg.list_address, game.grammar))
            record = {"seq": entry.seq, "kind": entry.kind, "at": entry.at,
                      "raw_sha256": hashlib.sha256(entry.raw).hexdigest() if entry.raw is not None else None,
                      "journal_hash": entry.hash, "input": public_input(inp),
                      "skipped": skips.get(entry.seq) if entry.kind != storage.SKIP else json.loads(entry.meta),
                      "draws": draws.get(entry.seq, []), "prev": prev}
            record["hash"] = prev = link_hash(record)
            yield record


def _draws(conn: Connection, upto: int) -> dict[int, list[list[Any]]]:
    """Each entry's draws as [label, low, high, result], in the order the fold drew them."""
    rows = conn.execute(select(EventRow.seq, EventRow.data)  # type: ignore[call-overload]
                        .where(EventRow.kind == "draw", EventRow.seq <= upto).order_by(EventRow.id))
    out: dict[int, list[list[Any]]] = defaultdict(list)
    for seq, data in rows:
        d = json.loads(data)
        out[seq].append([d["label"], d["low"], d["high"], d["result"]])
    return out


def head(game: "Game") -> Head:
    """The public record's head hash and entry count (what every page's footer names)."""
    last, count = storage.GENESIS, 0
    for record in records(game):
        last, count = record["hash"], count + 1
    return Head(last, count)


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
    last, count, journal_head = storage.GENESIS, 0, storage.GENESIS
    with (out / RECORD).open("wb") as f:
        for record in records(game):
            f.write(canonical(record) + b"\n")
            last, count, journal_head = record["hash"], count + 1, record["journal_hash"]
    seed = str(game.config.game["seed"])
    summary = {"format": FORMAT, "name": game.config.game.get("name", ""), "config": public_config(game.engine_config),
               "rules_text": game.config.rules_text(), "seed_sha256": seed_hash(seed),
               "seed": seed if game.config.game.get("reveal_seed") else None,
               "entries": count, "head": last, "journal_head": journal_head,
               "state": game.state().public_json()}
    (out / GAME).write_text(json.dumps(summary, indent=1, sort_keys=True, ensure_ascii=False) + "\n")
    return Head(last, count)
