"""``nomic host serve`` with one game whose game.toml is wrong: that game is left out, with a line naming
it and the problem, its mail answered 451 (the sender's server keeps it), and the others are served (issue 27)."""
from __future__ import annotations

import smtplib

import pytest

from tests.host.test_host import ALICE, BLOG, LEAGUE, answers, deliver, titles
from tests.mailer.test_daemon import make_mail


def test_a_game_with_a_bad_game_toml_is_left_out_and_the_others_keep_answering(host, serve_host, tmp_path):
    path = tmp_path / "blog" / "game.toml"
    path.write_text(path.read_text() + "\n[blognomic]\nauto_resolv = false\n")
    daemon = serve_host(host)
    line = f"game blog not served: {path}: [blognomic] unknown key auto_resolv (did you mean auto_resolve?)"
    logged = [entry.split(" ", 1) for entry in daemon.log if "not served" in entry]  # each after its UTC time
    assert [rest for _, rest in logged] == [f"nomic: MainThread: ERROR: {line}\n"]
    assert any("serving 1 games: league" in entry for entry in daemon.log)
    raw = make_mail(ALICE, "Proposal: Free cake", to=LEAGUE, message_id="cake@wonder.land")
    assert deliver(daemon.ports["lmtp"], [LEAGUE], raw)[1:] == ["250 2.0.0 Journaled as entry N"]
    with smtplib.LMTP("127.0.0.1", daemon.ports["lmtp"], timeout=30) as client:
        with pytest.raises(smtplib.SMTPRecipientsRefused) as refused:  # the blog's mail waits at the sender's
            client.sendmail(ALICE, [BLOG, "nobody@blog.test"], make_mail(ALICE, "Join", to=BLOG))
    assert refused.value.recipients == {
        BLOG: (451, f"4.3.0 <{BLOG}>: this game is not served just now; please try again later".encode()),
        "nobody@blog.test": (550, b"5.1.1 <nobody@blog.test>: no such mailbox here")}
    assert daemon.stop() == 0
    assert titles(tmp_path / "league") == ["Free cake"]
    assert answers(tmp_path / "league") == ["Re: Proposal: Free cake"]
