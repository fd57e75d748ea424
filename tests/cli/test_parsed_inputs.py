"""The cache of parsed inputs: written when mail is first played, read by `nomic replay`,
ignored when other parsing code wrote it, and bypassed by `--reparse`."""
from __future__ import annotations

import json

from sqlalchemy import text

from nomic.game import Game

ALICE = "alice@wonder.land"


def cached(play) -> list[tuple[int, str, dict]]:
    with Game(play.dir).db.connect() as db:
        return [(seq, parser, json.loads(data)) for seq, parser, data
                in db.execute(text("SELECT seq, parser, input FROM parsed_input ORDER BY seq"))]


def rewrite(play, sql: str, **params) -> None:
    with Game(play.dir).db.begin() as db:
        db.execute(text(sql), params)


def test_every_mail_is_cached_as_the_engine_read_it(play):
    play.propose(ALICE, "Free cake", "Everyone gets cake.")
    play.judge("Accept 1")
    play.tick("2026-01-06T00:00:00Z")  # a clock step: nothing to parse, nothing cached
    rows = cached(play)
    assert [seq for seq, _, _ in rows] == [1, 2]
    assert len({parser for _, parser, _ in rows}) == 1
    proposal = rows[0][2]
    assert (proposal["sender"], proposal["authenticated"], proposal["to_list"]) == (ALICE, True, False)
    assert [(c["kind"], c["title"]) for c in proposal["commands"]] == [("proposal", "Free cake")]
    assert [(c["kind"], c["verdict"], c["number"]) for c in rows[1][2]["commands"]] == [("judge", "accept", 1)]


def test_replay_reads_the_cache_and_reparse_reads_the_mail(play):
    play.propose(ALICE, "Free cake")
    seq, _, data = cached(play)[0]
    data["commands"][0]["title"] = "Free pie"  # not what the mail says
    rewrite(play, "UPDATE parsed_input SET input = :data WHERE seq = :seq", data=json.dumps(data), seq=seq)
    out = play.cli("replay", "--verify", ok=False)
    assert "replayed state differs from the stored state in: submissions" in out
    assert "matches the stored state (parsing every message again)" in play.cli("replay", "--verify", "--reparse")


def test_a_cached_input_the_models_refuse_fails_verify_and_names_the_state(play):
    """Read in one pass (Ruleset.message_model): a command of a kind the ruleset lacks, or a
    field of the wrong type, makes that entry fold nothing in the replay, which then differs."""
    play.propose(ALICE, "Free cake")
    seq, _, data = cached(play)[0]
    proposal = data["commands"][0]
    for broken in ({**proposal, "kind": "no_such_command"}, {**proposal, "title": ["Free", "cake"]}):
        rewrite(play, "UPDATE parsed_input SET input = :data WHERE seq = :seq",
                data=json.dumps({**data, "commands": [broken]}), seq=seq)
        out = play.cli("replay", "--verify", ok=False)
        assert "replayed state differs from the stored state in: " in out and "submissions" in out


def test_an_input_cached_by_other_parsing_code_is_parsed_again(play):
    play.propose(ALICE, "Free cake")
    seq, _, data = cached(play)[0]
    data["commands"][0]["title"] = "Free pie"
    rewrite(play, "UPDATE parsed_input SET input = :data, parser = 'older-code' WHERE seq = :seq",
            data=json.dumps(data), seq=seq)
    assert "matches the stored state (from the parsed inputs)" in play.cli("replay", "--verify")


def test_a_full_replay_parses_again_and_caches_anew(play):
    play.propose(ALICE, "Free cake")
    rewrite(play, "UPDATE parsed_input SET parser = 'older-code'")
    play.cli("replay")
    assert [(seq, data["commands"][0]["title"]) for seq, _, data in cached(play)] == [(1, "Free cake")]
    assert cached(play)[0][1] != "older-code"
    play.verify()
