"""Issue 15: ``nomic ingest`` takes mail only; anything else is refused and nothing is journaled."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from nomic.cli import app
from tests.support import Play, make_mail

ALICE = "alice@wonder.land"
README = Path(__file__).parents[2] / "README.md"


def ingest(play: Play, *paths: str, input: bytes | None = None) -> tuple[int, str, str]:
    """(exit status, stdout, stderr) of ``nomic ingest`` run as an operator would."""
    result = CliRunner().invoke(app, ["ingest", "--game", str(play.dir), "--at", "2026-01-05T01:00:00Z", *paths],
                                input=input)
    return result.exit_code, result.stdout, result.stderr


def assert_nothing_journaled(play: Play) -> None:
    assert "0 journal entries" in play.cli("replay", "--verify")
    assert play.state()["submissions"] == []
    assert play.outbox() == []


@pytest.mark.parametrize("path, why", [
    (str(README), "not a mail message (no header section with a From or Message-ID field)"),
    ("/bin/ls", "binary data, not a mail message"),
])
def test_a_file_that_is_not_mail_is_refused(play, path, why):
    code, out, err = ingest(play, path)
    assert (code, out, err) == (1, "", f"nomic: {path}: {why}; nothing journaled\n")
    assert_nothing_journaled(play)


@pytest.mark.parametrize("stdin", [b"", b"\n \n"])
def test_empty_stdin_is_refused(play, stdin):
    code, out, err = ingest(play, "-", input=stdin)
    assert (code, out, err) == (1, "", "nomic: <stdin>: empty, not a mail message; nothing journaled\n")
    assert_nothing_journaled(play)


def test_one_bad_file_among_mail_refuses_them_all(play, tmp_path):
    mail = tmp_path / "good.eml"
    mail.write_bytes(make_mail(ALICE, "Proposal: Free cake", "Cake for all."))
    code, out, err = ingest(play, str(mail), str(README))
    assert (code, out) == (1, "")
    assert err.startswith(f"nomic: {README}: not a mail message")
    assert_nothing_journaled(play)


def test_headers_in_the_body_do_not_make_text_mail(play, tmp_path):
    text = tmp_path / "notes.txt"
    text.write_text("Some notes\n\nFrom: alice@wonder.land\nMessage-ID: <x@y>\n")
    code, _, err = ingest(play, str(text))
    assert code == 1 and "not a mail message" in err
    assert_nothing_journaled(play)


def test_mail_with_only_a_message_id_is_still_mail(play, tmp_path):
    """Broken mail is still mail: it is journaled and reported (here: nobody sent it)."""
    path = tmp_path / "nofrom.eml"
    path.write_bytes(b"Message-ID: <lost@x>\r\nSubject:\r\n  Proposal: Lost\r\n\r\nno sender\r\n")
    code, out, err = ingest(play, str(path))
    assert (code, err) == (0, "")
    assert out.startswith(f"{path}: journal entry 1: ")


def test_the_installed_command_refuses_stdin_that_is_not_mail(play):
    """The real ``nomic`` process: one line on stderr (after the warning that this test game
    believes every From address), exit status 1."""
    run = subprocess.run([sys.executable, "-m", "nomic", "ingest", "--game", str(play.dir), "-"],
                         input=b"hello\n", capture_output=True)
    assert (run.returncode, run.stdout, run.stderr) == (
        1, b"", b'nomic: WARNING: Test Nomic (' + bytes(play.dir) + b'): [auth] mode = "none": every From address '
                b'is believed; for tests and demos only\n'
                b"nomic: <stdin>: not a mail message (no header section with a From or Message-ID field); "
                b"nothing journaled\n")
