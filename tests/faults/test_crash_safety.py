"""Crash safety: 5,000 messages over LMTP while ``nomic serve`` is killed with SIGKILL again and again.

The clients behave like Postfix: a message counts as delivered only on a 250
for it; anything else (a reset connection, a 4xx) and it is sent again once
the daemon is back. Afterwards every message is in the journal exactly once,
has had exactly one effect (one submission, at most one answer), and the
journal replays to the stored state. Each 250 names the journal entry that holds
its message: a 250 for mail that is elsewhere (or nowhere) fails the test, however it was counted.
"""
from __future__ import annotations

import json
import random
import re
import smtplib
import threading
import time
from collections import Counter
from pathlib import Path

import pytest
from sqlmodel import Session, func, select

from mailer.outbox import OutboxMessage
from nomic.game import Game
from storage import JournalEntry
from tests.faults.daemon import Daemon, mail, nomic

pytestmark = pytest.mark.slow  # crash safety: thousands of messages, the daemon killed again and again

MESSAGES = 5000
CLIENTS = 4
MIN_KILLS = 10
PLAYERS = 40
ENTRY = re.compile(r"2\.0\.0 (?:Journaled as entry (\d+)|Already received \(journal entry (\d+)\))")  # a 250's


def _key(n: int) -> str:
    return f"crash{n}@crash.test p{n % PLAYERS}@crash.test"


def _tail(log: Path, lines: int = 40) -> str:
    """The end of the daemons' log, for a failure's message (a run that fails under load is seldom repeated)."""
    return "\n".join(log.read_text(errors="replace").splitlines()[-lines:])


def _client(port_of, todo: list[int], acked: dict[int, str], done: threading.Event) -> None:
    """Send every message in ``todo`` until each has had its 250; reconnect after any failure."""
    pending = list(todo)
    client: smtplib.LMTP | None = None
    while pending:
        n = pending[0]
        sender = f"p{n % PLAYERS}@crash.test"
        try:
            if client is None:
                client = smtplib.LMTP("127.0.0.1", port_of(), timeout=60)
                client.ehlo_or_helo_if_needed()
            client.mail(sender)
            code, _ = client.rcpt("ths@imperial.test")
            if code == 250:
                code, text = client.data(mail(sender, f"Proposal: crash {n}", f"crash{n}@crash.test"))
                if code == 250:
                    acked[n] = text.decode()
                    pending.pop(0)
                    continue
            client.rset()
        except (OSError, smtplib.SMTPException):
            client = None
        time.sleep(0.02)
    if client is not None:
        try:
            client.quit()
        except (OSError, smtplib.SMTPException):
            pass
    done.set()


def test_sigkill_at_random_moments_loses_and_doubles_nothing(make_play, tmp_path):
    play = make_play(auth="none")
    daemon = Daemon(play.dir, tmp_path / "serve.log").start()
    acked: dict[int, str] = {}
    dones = []
    for i in range(CLIENTS):
        done = threading.Event()
        todo = list(range(i, MESSAGES, CLIENTS))
        threading.Thread(target=_client, args=(lambda: daemon.port, todo, acked, done), daemon=True).start()
        dones.append(done)

    rng = random.Random(8)
    kills = 0
    while kills < MIN_KILLS:  # at random moments: mid-intake, mid-commit, mid-processing
        time.sleep(rng.uniform(0.3, 2.5))
        daemon.kill()
        kills += 1
        daemon.start()
    for d in dones:
        assert d.wait(300), f"{len(acked)} of {MESSAGES} acknowledged after 300 s; the log ends:\n{_tail(daemon.log)}"
    assert daemon.stop() == 0, f"the last stop was not clean; the log ends:\n{_tail(daemon.log)}"
    print(f"\ncrash safety: {MESSAGES} messages, {kills} SIGKILLs, {len(acked)} acknowledged")

    assert sorted(acked) == list(range(MESSAGES))
    game = Game(play.dir)
    while game.process(limit=1000):  # a stop folds at most FINAL_LIMIT entries; the next start does the rest
        pass
    with Session(game.db) as s:
        keys = Counter(s.exec(select(JournalEntry.key).where(JournalEntry.kind == "mail")).all())
        answers = Counter(s.exec(select(OutboxMessage.seq).where(OutboxMessage.kind == "answer")).all())
        journaled = s.exec(select(func.count()).select_from(JournalEntry)).one()
        key_at = dict(s.exec(select(JournalEntry.seq, JournalEntry.key)).all())
    named = {n: ENTRY.fullmatch(reply) for n, reply in acked.items()}
    assert [n for n, m in named.items() if m is None or key_at.get(int(m[1] or m[2])) != _key(n)] == []  # each 250 true
    assert keys == Counter({_key(n): 1 for n in range(MESSAGES)})
    assert max(answers.values()) == 1  # no entry answered twice, though processing was killed too
    state = json.loads(nomic(play.dir, "state", "--json").stdout)
    titles = Counter(s["title"] for s in state["submissions"])
    assert titles == Counter({f"crash {n}": 1 for n in range(MESSAGES)})
    assert sorted(s["number"] for s in state["submissions"]) == list(range(1, MESSAGES + 1))
    assert len(state["players"]) == PLAYERS + 2  # and TIE and THS, players from the start (rule 1)
    assert "replayed state matches the stored state" in nomic(play.dir, "replay", "--verify").stdout
    assert journaled >= MESSAGES
