"""Issue 15: text a newcomer reads, as they read it."""
from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from nomic.cli import app

ZED = "zed@x.org"
SUBSCRIBED = (f"{ZED} is subscribed to players@imperial.test: every post, and the Bell Tower's chime "
              "at the end of every game day\n")


@pytest.mark.parametrize("subject, body", [("Subscribe", "Subscribe\n"), ("  SUBSCRIBE ", "subscribe")])
def test_a_command_in_both_subject_and_body_is_read_and_answered_once(play, subject, body):
    out = play.send(ZED, subject, body)
    assert out.split(": journal entry 1: ")[1] == SUBSCRIBED
    answer = play.cli("outbox", "--show", "1")
    assert "already subscribed" not in answer
    assert answer.count(f"{ZED} is subscribed") == 1


def test_different_commands_in_subject_and_body_are_both_read(play):
    out = play.send(ZED, "Subscribe", "Digest on")
    assert out.split(": journal entry 1: ")[1].startswith(SUBSCRIBED.rstrip("\n") + "; ")


def help_of(*command: str) -> str:
    result = CliRunner().invoke(app, [*command, "--help"], prog_name="nomic", terminal_width=120)
    assert result.exit_code == 0
    return result.stdout


def test_help_names_arguments_as_the_usage_line_and_flags_without_a_type():
    init = help_of("init")
    assert init.splitlines()[0] == "Usage: nomic init [OPTIONS] DIR"
    assert any(re.fullmatch(r"  --config FILE +game.toml to start from", line) for line in init.splitlines())
    assert help_of("ingest").splitlines()[0] == "Usage: nomic ingest [OPTIONS] PATH..."
    state = help_of("state").splitlines()
    assert "  --json      print the state as JSON" in state
    assert "  --help      Show this message and exit." in state
    for name in ("init", "ingest", "tick", "state", "replay", "build", "serve", "poll", "outbox", "send"):
        text = help_of(name)
        assert "<bool>" not in text and "{" not in text, name


def test_send_help_names_the_outbox_section():
    assert "hand every due delivery to the [outbox] relay." in " ".join(help_of("send").split())


def test_an_answer_shows_a_time_to_the_second_in_utc(play):
    """Mail that the daemon receives is stamped with microseconds; an answer shows none."""
    play.send("tie@imperial.test", "day", "New day", at="2026-01-06T01:00:00.123456Z")
    out = play.send("tie@imperial.test", "day", "New day", at="2026-01-06T02:00:00Z")
    assert out.split(": journal entry 2: ")[1] == (
        "day 2 began at 2026-01-06 01:00:00 UTC and lasts at least 24 hours (rule 10): "
        "it cannot end before 2026-01-07 01:00:00 UTC; nothing done\n")
    answer = play.cli("outbox", "--show", str(play.outbox()[-1]["id"]))
    assert "it cannot end before 2026-01-07 01:00:00 UTC; nothing done" in " ".join(answer.split())
