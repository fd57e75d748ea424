"""A mail's journal meta written by a template (mailer.inbox.meta_json) is the text the journal's JSON
encoder writes for it, byte for byte: the text is hashed into the chain, so a different byte would
make every later entry's hash differ from what the same mail journaled before gave."""
from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

from hypothesis import given, settings, strategies as st

from mailer.inbox import meta_json
from storage import Journal, entries, open_database

TEXT = st.text(st.sampled_from(["a", "Z", "@", ".", " ", '"', "\\", "/", "\x00", "\x1f", "\x7f", "é", "\u2028",
                                "\ud800", "\U0001f600", "\t", "\n", "<", ">"]), max_size=12) | st.text(max_size=8)
VERDICT = st.fixed_dictionaries({"authenticated": st.booleans(), "method": TEXT, "detail": TEXT})
MAIL = st.fixed_dictionaries(
    {"source": TEXT, "mail_from": st.none() | TEXT, "rcpt_to": st.none() | st.lists(TEXT, max_size=4),
     "auth": VERDICT}, optional={"received_at": TEXT})
# Metas not of that shape: other types where the template expects its own, keys added or missing.
ODD_VALUE = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | TEXT | st.lists(TEXT | st.integers(), max_size=2)
ODD = st.one_of(
    MAIL.flatmap(lambda m: st.sampled_from(sorted(m)).flatmap(
        lambda k: ODD_VALUE.map(lambda v: {**m, k: v}))),
    MAIL.flatmap(lambda m: st.dictionaries(TEXT, ODD_VALUE, min_size=1, max_size=2).map(lambda extra: {**m, **extra})),
    MAIL.flatmap(lambda m: st.sampled_from(sorted(m)).map(lambda k: {x: v for x, v in m.items() if x != k})),
    MAIL.flatmap(lambda m: st.sampled_from(["authenticated", "method", "detail"]).flatmap(
        lambda k: ODD_VALUE.map(lambda v: {**m, "auth": {**m["auth"], k: v}}))))


def journal_text(meta: dict) -> str:
    """What the journal writes for a dict meta (storage.journal)."""
    return json.dumps(meta, sort_keys=True, separators=(",", ":"))


@settings(max_examples=3000, deadline=None)
@given(MAIL)
def test_a_mail_meta_is_the_encoders_text(meta: dict) -> None:
    assert meta_json(meta) == journal_text(meta)


@settings(max_examples=1500, deadline=None)
@given(ODD)
def test_any_other_meta_is_left_to_the_journal(meta: dict) -> None:
    written = meta_json(meta)
    assert written is meta or written == journal_text(meta)


def test_the_journal_stores_and_hashes_the_same_text_either_way(tmp_path) -> None:
    """The same mail journaled with its meta as a dict and as the template's text: the same rows."""
    meta = {"source": "lmtp", "mail_from": "p1@players.test", "rcpt_to": ["ths@imperial.test"],
            "auth": {"authenticated": True, "method": "none", "detail": "caf\u00e9 \"quoted\""}}
    at = datetime(2026, 1, 5, 1, 0, tzinfo=timezone.utc)
    rows = []
    for k, form in enumerate((meta, meta_json(meta))):
        db = open_database(f"sqlite:///{tmp_path}/j{k}.db")
        Journal(db).append([("mail", at + timedelta(seconds=s), f"key{s}", b"raw", form) for s in range(3)])
        with db.connect() as conn:
            rows.append(list(entries(conn)))
    assert isinstance(meta_json(meta), str)
    assert rows[0] == rows[1] and rows[0][2].meta == journal_text(meta)
