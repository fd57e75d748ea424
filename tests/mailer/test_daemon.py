"""``nomic serve``: real smtplib clients over loopback SMTP and LMTP (issue 5)."""
from __future__ import annotations

import smtplib
import socket
import sqlite3
import time
from datetime import datetime, timezone
from pathlib import Path
import urllib.error
import urllib.request

import pytest

from mailer.tokens import stamped_token
from nomic.game import Game
from tests.mailer.support import configure
from tests.support import EMPEROR, GAME_ADDRESS, LIST_ADDRESS, make_mail as _make_mail

ALICE = "alice@wonder.land"
BOB = "bob@builder.test"


def make_mail(*args, **kw) -> bytes:
    """As a mail client sends it: CRLF line ends (smtplib does not convert bytes)."""
    return _make_mail(*args, **kw).replace(b"\n", b"\r\n")


def lmtp_session(port: int, lines: list[str], data: bytes) -> list[str]:
    """Speak LMTP by hand: after DATA, one reply per accepted recipient (smtplib reads only one)."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        f = sock.makefile("rb")
        replies = [f.readline().decode().rstrip()]

        def command(line: str) -> str:
            sock.sendall(line.encode() + b"\r\n")
            while True:
                reply = f.readline().decode().rstrip()
                replies.append(reply)
                if reply[3:4] != "-":
                    return reply
        accepted = 0
        for line in lines:
            reply = command(line)
            accepted += line.startswith("RCPT") and reply.startswith("250")
        command("DATA")
        sock.sendall(data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n") + b".\r\n")
        replies += [f.readline().decode().rstrip() for _ in range(accepted)]
        command("QUIT")
    return replies


def test_smtp_proposal_is_journaled_then_played_and_answered(play, serve):
    daemon = serve(play)
    raw = make_mail(ALICE, "Proposal: Free cake", "Everyone gets cake.", message_id="cake@wonder.land")
    with smtplib.SMTP("127.0.0.1", daemon.ports["smtp"], timeout=30) as client:
        client.ehlo("wonder.land")
        code, reply = client.docmd("MAIL FROM:<alice@wonder.land>")
        assert code == 250
        assert client.docmd(f"RCPT TO:<{GAME_ADDRESS}>")[0] == 250
        code, reply = client.data(raw)
        assert (code, reply) == (250, b"2.0.0 Journaled as entry 1")
        # the same Message-ID again: accepted (the sender must stop retrying), stored once
        assert client.sendmail(ALICE, [GAME_ADDRESS], raw) == {}
    assert daemon.stop() == 0
    st = play.state()
    assert [(s["number"], s["author"], s["title"], s["status"]) for s in st["submissions"]] == [
        (1, ALICE, "Free cake", "pending")]
    [answer] = [m for m in play.outbox() if m["kind"] == "answer"]  # besides, the Proposal is announced
    assert (answer["to"], answer["subject"], answer["kind"]) == ([ALICE], "Re: Proposal: Free cake", "answer")
    assert answer["message_id"].startswith("<sub1.answer.1.")
    play.verify()


def test_lmtp_answers_per_recipient_and_refuses_foreign_addresses(play, serve):
    daemon = serve(play)
    raw = make_mail(BOB, "Point of Order: Scores", "Score of bob@builder.test should be 3",
                    message_id="poo@builder.test")
    replies = lmtp_session(daemon.ports["lmtp"], [
        "LHLO builder.test", f"MAIL FROM:<{BOB}>", f"RCPT TO:<{GAME_ADDRESS}>",
        "RCPT TO:<somebody@elsewhere.test>", "RCPT TO:<game-bounces+x1@imperial.test>"], raw)
    assert replies[-4:] == ["354 End data with <CR><LF>.<CR><LF>", "250 2.0.0 Journaled as entry 1",
                            "250 2.0.0 Journaled as entry 1", "221 Bye"]  # one per accepted recipient
    refused = [r for r in replies if r.startswith("550")]
    assert refused == ["550 5.1.1 <somebody@elsewhere.test>: no such mailbox here"]
    with smtplib.LMTP("127.0.0.1", daemon.ports["lmtp"], timeout=30) as client:
        with pytest.raises(smtplib.SMTPRecipientsRefused):
            client.sendmail(BOB, ["tie@elsewhere.test"], raw)
    assert daemon.stop() == 0
    [sub] = play.state()["submissions"]
    assert (sub["kind"], sub["author"], sub["title"]) == ("point_of_order", BOB, "Scores")


def test_limits_size_recipients_connections(make_play, serve):
    play = make_play()
    configure(play, "[smtp]\nmax_message_size = 3000\nmax_recipients = 2\nmax_connections = 1\n")
    daemon = serve(play)
    port = daemon.ports["smtp"]
    with smtplib.SMTP("127.0.0.1", port, timeout=30) as client:
        client.ehlo("wonder.land")
        assert client.esmtp_features["size"] == "3000"
        with pytest.raises(smtplib.SMTPSenderRefused) as too_big:  # SIZE= declared up front
            client.sendmail(ALICE, [GAME_ADDRESS], make_mail(ALICE, "Proposal: Long", "x" * 5000))
        assert too_big.value.smtp_code == 552
        client.rset()
        client.docmd("MAIL FROM:<alice@wonder.land>")  # undeclared: refused after DATA
        client.docmd(f"RCPT TO:<{GAME_ADDRESS}>")
        assert client.data(make_mail(ALICE, "Proposal: Long", ("y" * 70 + "\n") * 80))[0] == 552
        client.rset()
        client.docmd("MAIL FROM:<alice@wonder.land>")
        assert client.docmd(f"RCPT TO:<{GAME_ADDRESS}>")[0] == 250
        assert client.docmd(f"RCPT TO:<{LIST_ADDRESS}>")[0] == 250
        assert client.docmd("RCPT TO:<game-bounces@imperial.test>")[0] == 452
        client.rset()
        long_line = (f"From: {ALICE}\r\nTo: {GAME_ADDRESS}\r\nSubject: Proposal: Wide\r\n"
                     "Message-ID: <wide@x>\r\n\r\n").encode() + b"w" * 2500 + b"\r\n"  # past RFC 5321's 1000
        assert client.sendmail(ALICE, [GAME_ADDRESS], long_line) == {}
        with pytest.raises(smtplib.SMTPConnectError) as crowded:  # a second connection at once
            smtplib.SMTP("127.0.0.1", port, timeout=30)
        assert crowded.value.smtp_code == 421
    assert daemon.stop() == 0
    assert [s["title"] for s in play.state()["submissions"]] == ["Wide"]


@pytest.mark.sqlite_only
def test_journal_unwritable_answers_451_and_a_retry_succeeds(play, serve):
    daemon = serve(play)
    db = sqlite3.connect(play.dir / "game.db")
    db.execute("ALTER TABLE journal RENAME TO journal_away")
    db.commit()
    raw = make_mail(ALICE, "Proposal: Free cake", message_id="retry@wonder.land")
    with smtplib.SMTP("127.0.0.1", daemon.ports["smtp"], timeout=30) as client:
        with pytest.raises(smtplib.SMTPDataError) as busy:
            client.sendmail(ALICE, [GAME_ADDRESS], raw)
        assert busy.value.smtp_code == 451  # the sending server keeps it and retries
        db.execute("ALTER TABLE journal_away RENAME TO journal")
        db.commit()
        client.rset()
        assert client.sendmail(ALICE, [GAME_ADDRESS], raw) == {}
    db.close()
    assert daemon.stop() == 0
    assert [s["title"] for s in play.state()["submissions"]] == ["Free cake"]


def test_bounce_and_forgery_change_nothing_and_get_no_answer(make_play, serve):
    play = make_play(auth="authres")
    configure(play, 'authserv_id = "mx.imperial.test"\n', after='mode = "authres"')
    daemon = serve(play)
    forged = make_mail(EMPEROR, "judgment", "Accept 1", message_id="forged@x", headers={
        "Authentication-Results": "mx.evil.test; dkim=pass header.d=imperial.test"})
    honest = make_mail(ALICE, "Proposal: Free cake", message_id="honest@x", headers={
        "Authentication-Results": "mx.imperial.test; dkim=pass header.d=wonder.land; spf=pass"})
    bounce = make_mail(ALICE, "Proposal: Bounced", message_id="bounce@x", headers={
        "Authentication-Results": "mx.imperial.test; dkim=pass header.d=wonder.land"})
    with smtplib.SMTP("127.0.0.1", daemon.ports["smtp"], timeout=30) as client:
        assert client.sendmail(ALICE, [GAME_ADDRESS], honest) == {}
        assert client.sendmail(EMPEROR, [GAME_ADDRESS], forged) == {}
        assert client.sendmail("<>", [GAME_ADDRESS], bounce) == {}
    assert daemon.stop() == 0
    st = play.state()
    assert [(s["title"], s["status"]) for s in st["submissions"]] == [("Free cake", "pending")]  # a bounce speaks for no one
    answers = [m["message_id"][:13] for m in play.outbox() if m["kind"] == "answer"]
    assert answers == ["<sub1.answer."]  # not the forgery, not the bounce
    assert any("not authenticated" in line and "forged@x" in line for line in daemon.log)


def test_http_serves_the_site_and_one_click_unsubscribe(play, serve):
    daemon = serve(play)
    base = f"http://127.0.0.1:{daemon.ports['http']}"
    with smtplib.SMTP("127.0.0.1", daemon.ports["smtp"], timeout=30) as client:
        client.sendmail(ALICE, [GAME_ADDRESS], make_mail(ALICE, "Subscribe", message_id="sub@x"))
    site = play.dir / "site" / "index.html"
    deadline = time.monotonic() + 60
    while not site.exists():  # the daemon builds the site after processing, asynchronously
        assert time.monotonic() < deadline, "no site was built"
        time.sleep(0.2)
    with urllib.request.urlopen(f"{base}/index.html", timeout=30) as page:
        assert page.status == 200 and b"<html" in page.read().lower()
    while not (play.dir / "site" / "pagefind" / "pagefind-ui.js").exists():  # issue 32: its search index (a shard) too
        assert time.monotonic() < deadline, "the site's search index was not built"
        time.sleep(0.2)
    token = stamped_token(Game(play.dir).list_settings.token_key, "unsubscribe", ALICE, datetime.now(timezone.utc))
    with urllib.request.urlopen(f"{base}/unsubscribe/{token}", timeout=30) as page:  # GET: a button only
        assert page.status == 200 and "text/html" in page.headers["Content-Type"]
    assert [s.email for s in Game(play.dir).state().subscribers] == [ALICE]
    with pytest.raises(urllib.error.HTTPError) as bare:  # RFC 8058: the POST must say List-Unsubscribe=One-Click
        urllib.request.urlopen(urllib.request.Request(f"{base}/unsubscribe/{token}", data=b""), timeout=30)
    assert bare.value.code == 400
    post = urllib.request.Request(f"{base}/unsubscribe/{token}", data=b"List-Unsubscribe=One-Click")
    with urllib.request.urlopen(post, timeout=30) as page:
        assert page.read().decode() == f"{ALICE} is unsubscribed from {LIST_ADDRESS}."
    with pytest.raises(urllib.error.HTTPError) as missing:
        urllib.request.urlopen(urllib.request.Request(f"{base}/elsewhere", data=b"x"), timeout=30)
    assert missing.value.code == 404
    assert daemon.stop() == 0
    assert Game(play.dir).state().subscribers == []


# -- what a hostile client on the network can do -------------------------------------------------

def idle(port: int, greeting: bool = True) -> socket.socket:
    """A connection that says nothing (after reading the SMTP/LMTP greeting)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    if greeting:
        assert sock.recv(1024).startswith(b"220 ")
    return sock


def closed_by_server(sock: socket.socket) -> bool:
    try:
        return sock.recv(1024) == b""
    except ConnectionResetError:
        return True


def test_idle_smtp_connections_do_not_shut_the_mta_out_of_lmtp(make_play, serve):
    play = make_play()
    configure(play, "[smtp]\nmax_connections = 3\n\n[lmtp]\nmax_connections = 2\n")
    daemon = serve(play)
    crowd = [idle(daemon.ports["smtp"]) for _ in range(3)]  # the public door is full
    with pytest.raises(smtplib.SMTPConnectError) as full:
        smtplib.SMTP("127.0.0.1", daemon.ports["smtp"], timeout=30)
    assert full.value.smtp_code == 421
    waiting = idle(daemon.ports["lmtp"])  # the MTA's door has its own limit: one connection of two
    raw = make_mail(BOB, "Proposal: Still open", message_id="open@builder.test")
    replies = lmtp_session(daemon.ports["lmtp"], ["LHLO mx.imperial.test", f"MAIL FROM:<{BOB}>",
                                                  f"RCPT TO:<{GAME_ADDRESS}>"], raw)
    assert replies[-2] == "250 2.0.0 Journaled as entry 1"
    second = idle(daemon.ports["lmtp"])
    with pytest.raises(smtplib.SMTPConnectError) as lmtp_full:  # [lmtp] max_connections = 2
        smtplib.LMTP("127.0.0.1", daemon.ports["lmtp"], timeout=30)
    assert lmtp_full.value.smtp_code == 421
    for sock in crowd + [waiting, second]:
        sock.close()
    assert daemon.stop() == 0
    assert [s["title"] for s in play.state()["submissions"]] == ["Still open"]


def test_each_listener_has_its_own_idle_timeout(make_play, serve):
    play = make_play()
    configure(play, "[smtp]\ntimeout = 1\n\n[lmtp]\ntimeout = 60\n")
    daemon = serve(play)
    smtp, lmtp = idle(daemon.ports["smtp"]), idle(daemon.ports["lmtp"])
    time.sleep(2.5)
    assert closed_by_server(smtp)  # a silent stranger is dropped after [smtp] timeout
    lmtp.sendall(b"LHLO mx.imperial.test\r\n")  # the MTA's cached connection is still there
    assert lmtp.recv(1024).startswith(b"250")
    smtp.close()
    lmtp.close()
    assert daemon.stop() == 0


def http(port: int, request: bytes) -> tuple[int, bytes, bytes]:
    """Send one raw request; the status, head and body of the answer (status 0: none came)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(request)
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return (int(head.split(b" ")[1]) if head else 0), head, body


def get(port: int, path: str) -> tuple[int, bytes, bytes]:
    return http(port, f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())


def post(port: int, headers: str, body: bytes = b"") -> tuple[int, bytes, bytes]:
    return http(port, f"POST /subscribe HTTP/1.1\r\nHost: 127.0.0.1\r\n{headers}\r\n".encode() + body)


def test_http_refuses_a_bad_content_length_at_once(play, serve):
    daemon = serve(play)
    port = daemon.ports["http"]
    started = time.monotonic()
    assert post(port, "Content-Length: -1\r\n")[0] == 400  # answered without waiting for a body
    assert post(port, "Content-Length: 12abc\r\n")[0] == 400
    assert post(port, "Content-Length: 5\r\nContent-Length: 9\r\n")[0] == 400
    assert post(port, "Content-Length: 300000000\r\n")[0] == 413
    assert post(port, "Transfer-Encoding: chunked\r\n", b"5\r\nhello\r\n0\r\n\r\n")[0] == 411
    assert time.monotonic() - started < 5
    form = b"address=carol%40c.test"
    status, _, body = post(port, f"Content-Length: {len(form)}\r\n", form)
    assert (status, body) == (200, b"A confirmation mail is on its way to carol@c.test. Nothing happens until you confirm.")
    assert daemon.stop() == 0


def test_http_drops_idle_and_slow_clients(make_play, serve):
    play = make_play()
    configure(play, "[http]\ntimeout = 1\n")
    daemon = serve(play)
    silent = idle(daemon.ports["http"], greeting=False)
    started = time.monotonic()
    assert closed_by_server(silent)
    assert time.monotonic() - started < 5
    drip = idle(daemon.ports["http"], greeting=False)
    started = time.monotonic()
    with pytest.raises(OSError):  # a byte every 0.2 s never finishes a request line: cut off
        for byte in b"GET /index.html HTTP/1.1\r\nX-Slow: " + b"x" * 100:
            drip.sendall(bytes([byte]))
            time.sleep(0.2)
    assert time.monotonic() - started < 5
    silent.close()
    drip.close()
    assert daemon.stop() == 0


def test_http_has_a_connection_limit(make_play, serve):
    play = make_play()
    configure(play, "[http]\nmax_connections = 2\n")
    play.cli("build")
    daemon = serve(play)
    port = daemon.ports["http"]
    crowd = [idle(port, greeting=False) for _ in range(2)]
    status, _, body = get(port, "/index.html")
    assert (status, body) == (503, b"Too busy; try again later.\n")
    crowd.pop().close()
    deadline = time.monotonic() + 10
    while (status := get(port, "/index.html")[0]) == 503 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert status == 200
    crowd[0].close()
    assert daemon.stop() == 0


def test_http_answers_bad_paths_and_lists_no_directory(play, serve):
    play.cli("build")
    daemon = serve(play)
    port = daemon.ports["http"]
    for path in ("/index%00.html", "/%2e%2e/game.toml", "/..%2fgame.toml", "/static/..%5c..%5cgame.toml",
                 "/rules/%ff.html", "/./index.html", "/static/%0a", "/rules//index.html"):
        status, _, body = get(port, path)
        assert (status, body) == (400, b"Bad path."), path
    assert get(port, "//etc/passwd")[0] == 404  # http.server reads a leading // as /
    status, _, body = get(port, "/static/")  # a folder without index.html
    assert status == 404 and b"style.css" not in body
    assert get(port, "/rules/")[0] == 200 and b"<h1>" in get(port, "/rules/")[2]
    status, head, _ = get(port, "/rules")
    assert status == 301 and b"\r\nLocation: /rules/" in head
    assert get(port, "/index.html")[0] == 200  # none of it hurt the server
    assert daemon.stop() == 0


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads the kernel's thread names (Linux)")
def test_the_kernel_tells_the_fold_thread_from_intake(play, serve):
    """``top -H`` and bench/intake.py tell the fold's CPU from intake's by the kernel's thread names."""
    daemon = serve(play)
    names: list[str] = []
    for _ in range(100):  # the processor names itself as it starts, just after the daemon says it is ready
        names = [(task / "comm").read_text().strip() for task in Path(f"/proc/{daemon.proc.pid}/task").iterdir()]
        if "processor" in names:
            break
        time.sleep(0.05)
    assert names.count("processor") == 1
    assert daemon.stop() == 0
