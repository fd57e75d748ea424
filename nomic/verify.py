"""``nomic verify DIR``: check a public record (nomic.public_record) with nothing but the package.

It recomputes every link of the chain and its head, replays each entry's parsed input with the
engine (its draws taken as published; re-derived from the seed once the seed is revealed) and
compares the state it reaches (scores, statuses, rules, everything) with the published state.
The first entry that does not check is named.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine import dice
from engine.context import Context, EngineConfig
from engine.events import Draw
from engine.inputs import ClockStep, Message, load_message
from engine.machine import fold, new_game
from engine.ruleset import Ruleset, ruleset_for
from nomic.public_record import FORMAT, GAME, RECORD, link_hash, published_state
from storage.config import parse_time

GENESIS = "0" * 64


class Failed(Exception):
    """The record does not check; the message says where and why."""


@dataclass
class Replay(Context):
    """A step of the replay: a draw is the published one, checked against its label and range,
    and against the seed when it is revealed."""
    published: list[list[Any]] = field(default_factory=list)
    seed: str | None = None

    def draw(self, label: str, low: int, high: int) -> int:
        if not self.published:
            raise Failed(f"the replay draws {label!r}, and no such draw is published")
        got = self.published.pop(0)
        if got[:3] != [label, low, high] or not isinstance(got[3], int) or not low <= got[3] <= high:
            raise Failed(f"the replay draws {label!r} in [{low}, {high}]; the record has {got}")
        if self.seed is not None and dice.draw(self.seed, label, low, high) != got[3]:
            raise Failed(f"draw {label!r} is {got[3]}, and the revealed seed draws "
                         f"{dice.draw(self.seed, label, low, high)}")
        self.emit(Draw(label=label, low=low, high=high, result=got[3]))
        return got[3]


def verify(out: Path, head: str | None = None) -> str:
    """Check the public record in ``out``; one line of what was checked, else raises Failed."""
    try:
        game = json.loads((out / GAME).read_text())
        lines = (out / RECORD).read_bytes().splitlines()
    except (OSError, ValueError) as exc:
        raise Failed(f"cannot read the record in {out}: {exc}") from None
    if game.get("format") != FORMAT:
        raise Failed(f"{out / GAME} is not a record of format {FORMAT}")
    seed = game.get("seed")
    if seed is not None and dice.seed_hash(seed) != game["seed_sha256"]:
        raise Failed("the revealed seed does not hash to the seed hash published from day 1")
    try:
        config = _config(game["config"], seed or "")
        ruleset = ruleset_for(config.ruleset)
        state = new_game(config, game["rules_text"])
    except (KeyError, TypeError, ValueError) as exc:
        raise Failed(f"{GAME} does not describe a game this package can replay: {exc!r}") from None
    prev, draws, named = GENESIS, 0, ""
    for n, line in enumerate(lines, 1):
        record = _link(line, n, prev)
        draws += len(record["draws"])
        if head is not None and head.lower() in (record["hash"], record["journal_hash"]):
            which = "the record's head" if head.lower() == record["hash"] else "the journal's head"
            named = f"; {head.lower()} is {which} after entry {record['seq']}"
        try:
            _apply(ruleset, state, record, config, seed)
        except Failed as exc:
            raise Failed(f"entry {record['seq']} does not check: {exc}") from None
        except Exception as exc:  # the engine faulted on it: the record is not what the game folded
            raise Failed(f"entry {record['seq']} does not check: the engine faults on it ({exc!r})") from None
        prev = record["hash"]
    if (len(lines), prev) != (game["entries"], game["head"]):
        raise Failed(f"the record has {len(lines)} entries, head {prev}; "
                     f"{GAME} names {game['entries']} entries, head {game['head']}")
    if head is not None and not named:
        raise Failed(f"no entry of the record has the head {head}")
    fresh, published = published_state(state), dict(game["state"])
    published.pop("subscribers", None)  # an export made before the list's members were left out
    if fresh != published:
        differ = sorted(k for k in fresh.keys() | published.keys() if fresh.get(k) != published.get(k))
        raise Failed(f"the replay after all {len(lines)} entries differs from the published state in: {', '.join(differ)}")
    how = "each re-derived from the revealed seed" if seed is not None else "as published (the seed is not revealed yet)"
    return (f"{len(lines)} entries check, head {prev}; the replay reaches the published state "
            f"(scores, statuses, rules); {draws} draws {how}{named}")


def _link(line: bytes, n: int, prev: str) -> dict[str, Any]:
    """Line ``n`` of the record, read and checked as the link after ``prev``."""
    try:
        record = json.loads(line)
        seq, digest = record["seq"], record["hash"]
    except (ValueError, TypeError, KeyError):
        raise Failed(f"the entry on line {n} of {RECORD} does not check: it is not readable") from None
    if record.get("prev") != prev:
        raise Failed(f"entry {seq} does not check: it follows {record.get('prev')}, not the entry before ({prev})")
    if link_hash(record) != digest:
        raise Failed(f"entry {seq} does not check: its content does not hash to {digest}")
    return record


def _apply(ruleset: Ruleset, state: Any, record: dict[str, Any], config: EngineConfig, seed: str | None) -> None:
    """Fold one link's input into ``state`` as the game did (a skipped entry changes nothing)."""
    if record["kind"] not in ("mail", "clock", "skip"):
        raise Failed(f"unknown kind {record['kind']!r}")
    if record["input"] is None or record["skipped"] is not None:
        if record["draws"]:
            raise Failed("an entry that folded nothing has draws")
        return
    inp: Message | ClockStep
    if record["kind"] == "clock":
        inp = ClockStep.model_validate(record["input"])
    else:
        inp = load_message(json.dumps(record["input"]), ruleset.message_model)
    if inp.at != parse_time(record["at"]):
        raise Failed(f"its input is dated {inp.at}, the entry {record['at']}")
    ctx = Replay(config=config, at=inp.at, published=list(record["draws"]), seed=seed)
    fold(state, inp, ctx, ruleset)
    if ctx.published:
        raise Failed(f"{len(ctx.published)} published draws were not drawn by the replay")


def _config(data: dict[str, Any], seed: str) -> EngineConfig:
    fields = dict(data, start=parse_time(data["start"]), seed=seed,
                  offices={k: tuple(v) for k, v in data["offices"].items()})
    return EngineConfig(**fields)
