"""A list's members are stored once for all the mail to them (``recipient_set``), not in every
announcement's and list copy's outbox row; each copy still goes to exactly its members, ``nomic
outbox`` still names them, and a database taken back to schema 0007 holds them in each row again."""
from __future__ import annotations

import json
from collections import Counter
from datetime import datetime, timezone
from email.message import EmailMessage

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import text
from sqlmodel import Session

from mailer import outbox
from mailer.ledger import Ledger
from mailer.recipients import Recipients
from nomic.game import Game
from storage import migrate
from tests.outbox.test_sender import ALICE, BOB, MEMBERS, arrivals, deliveries, fan_out
from tests.support import LIST_ADDRESS

AT = datetime(2026, 1, 5, 1, tzinfo=timezone.utc)


def stored(game) -> tuple[list[tuple[str, str, str | None]], dict[str, list[str]]]:
    """(kind, recipients, recipient_set) of every outbox row, and every stored set's recipients."""
    with Game(game.dir).db.connect() as conn:
        rows = [tuple(r) for r in conn.execute(text("SELECT kind, recipients, recipient_set FROM outbox ORDER BY id"))]
        sets = {d: json.loads(r) for d, r in conn.execute(text("SELECT digest, recipients FROM recipient_set"))}
    return rows, sets  # type: ignore[return-value]


def posts(game, n: int) -> None:
    fan_out(game)  # five members, and Alice's post to them
    for i in range(n - 1):
        game.send(BOB, f"Post {i}", "text", to=LIST_ADDRESS, message_id=f"post{i}@builder.org")


def test_the_list_copies_of_several_posts_name_one_stored_set_of_the_members(game):
    posts(game, 3)
    rows, sets = stored(game)
    [(digest, members)] = sets.items()
    assert members == MEMBERS
    assert [r for r in rows if r[0] == "list"] == [("list", "[]", digest)] * 3
    assert {r[2] for r in rows if r[0] == "answer"} == {None}  # one recipient: kept in the row
    assert [r["to"] for r in game.outbox() if r["kind"] == "list"] == [MEMBERS] * 3
    assert game.cli("outbox").splitlines()[-1].endswith(f"list         {', '.join(MEMBERS)}: [Test Nomic] Post 1")


def test_each_copy_of_a_stored_set_is_delivered_to_each_member_once(game, relay):
    posts(game, 2)
    assert game.cli("send") == "sent 15 deliveries\n"  # five answers, two posts to five members
    lists = [r["id"] for r in game.outbox() if r["kind"] == "list"]
    assert [(d.outbox_id, d.rcpt) for d in deliveries(game) if d.outbox_id in lists] == [
        (oid, m) for oid in lists for m in MEMBERS]
    assert Counter(arrivals(relay).values()) == {1: 15}


def test_a_set_is_stored_as_any_rows_recipients_are(game):
    """Lower-cased, empty addresses left out, each once in its first place."""
    with Session(Game(game.dir).db) as s:
        for kind, to in (("inline", ["Alice@Wonder.Land", "", "bob@x.org", "alice@wonder.land"]),
                         ("shared", Recipients(["Alice@Wonder.Land", "", "bob@x.org", "alice@wonder.land"]))):
            outbox.queue(s, 1, kind, mail(), to, "ths@test", AT)
        s.commit()
    assert [r["to"] for r in game.outbox()] == [[ALICE, "bob@x.org"]] * 2
    rows, sets = stored(game)
    assert rows[0][2] is None and rows[1][1:] == ("[]", next(iter(sets))) and list(sets.values()) == [[ALICE, "bob@x.org"]]


def test_a_set_stored_by_an_entry_whose_mail_was_rolled_back_is_stored_again(game):
    """The processor's batch remembers which sets it stored (``Ledger.sets``) so that it stores each
    once; an entry's mail rolled back in its savepoint takes its set with it, and the batch forgets it."""
    members = Recipients(MEMBERS)
    with Session(Game(game.dir).db) as s:
        ledger = Ledger(s)
        with pytest.raises(RuntimeError), s.begin_nested(), outbox.holding(s, ledger.sets):
            outbox.queue(s, 1, "list", mail(), members, "ths@test", AT)
            outbox.write_held(s)  # (as the digest does, in the middle of an entry)
            raise RuntimeError("the entry's mail faults")
        ledger.entry_done(stored=False)
        with s.begin_nested(), outbox.holding(s, ledger.sets):
            outbox.queue(s, 2, "list", mail(), members, "ths@test", AT)
        ledger.entry_done(stored=True)
        with s.begin_nested(), outbox.holding(s, ledger.sets):  # stored already: not written again
            outbox.queue(s, 3, "list", mail(), members, "ths@test", AT)
        s.commit()
    assert [(r["seq"], r["to"]) for r in game.outbox()] == [(2, MEMBERS), (3, MEMBERS)]


def test_without_leaves_out_addresses_as_given_and_is_itself_when_none_is_there():
    members = Recipients(["a@x", "b@x", "c@x"])
    assert members.without("z@x") is members
    assert members.without("b@x") == ["a@x", "c@x"] and members.without("b@x") is members.without("b@x")
    assert "a@x" in members and "A@x" not in members


def test_schema_0007_holds_each_sets_recipients_in_its_rows_again(game):
    """Downgraded, every row names its recipients itself, as the older release reads and expands them;
    upgraded again, the rows keep them and new mail is stored in sets again."""
    posts(game, 2)
    before = [(r["kind"], r["to"]) for r in game.outbox()]
    eng = Game(game.dir).db
    with eng.begin() as conn:
        cfg = Config()
        cfg.set_main_option("script_location", str(migrate.SCRIPTS))
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0007")
    with eng.connect() as conn:
        rows = [(k, json.loads(r)) for k, r in conn.execute(text("SELECT kind, recipients FROM outbox ORDER BY id"))]
        assert "recipient_set" not in {c["name"] for c in conn.dialect.get_columns(conn, "outbox")}
        assert not conn.dialect.has_table(conn, "recipient_set")
    assert rows == before
    with eng.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")
    assert [(r["kind"], r["to"]) for r in game.outbox()] == before
    game.send(ALICE, "Again", "text", to=LIST_ADDRESS, message_id="again@wonder.land")
    rows_after, sets = stored(game)
    assert rows_after[-1][1:] == ("[]", next(iter(sets))) and list(sets.values()) == [MEMBERS]


def mail() -> EmailMessage:
    m = EmailMessage()
    m["Subject"], m["Message-ID"] = "Hello", "<hello@test>"
    m.set_content("Hello\n")
    return m


def test_the_older_releases_expansion_reads_the_downgraded_rows(game):
    """0007's own expansion (its ``EXPAND``) writes each member's delivery from the downgraded rows."""
    posts(game, 1)
    eng = Game(game.dir).db
    with eng.begin() as conn:
        cfg = Config()
        cfg.set_main_option("script_location", str(migrate.SCRIPTS))
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0006")  # 0007's downgrade expands every row not yet expanded, from its recipients
    with eng.connect() as conn:
        got = [tuple(r) for r in conn.execute(text(
            "SELECT o.kind, d.rcpt FROM delivery AS d JOIN outbox AS o ON o.id = d.outbox_id ORDER BY d.id"))]
    assert [r for r in got if r[0] == "list"] == [("list", m) for m in MEMBERS]
