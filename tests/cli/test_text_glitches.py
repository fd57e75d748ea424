"""Issue 15: text a newcomer reads, as they read it."""
from __future__ import annotations

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
    assert "  --config FILE  game.toml to start from" in init.splitlines()
    assert help_of("ingest").splitlines()[0] == "Usage: nomic ingest [OPTIONS] PATH..."
    state = help_of("state").splitlines()
    assert "  --json      print the state as JSON" in state
    assert "  --help      Show this message and exit." in state
    for name in ("init", "ingest", "tick", "state", "replay", "build", "serve", "poll", "outbox", "send"):
        text = help_of(name)
        assert "<bool>" not in text and "{" not in text, name


def test_send_help_names_the_outbox_section():
    assert "hand every due delivery to the [outbox] relay." in " ".join(help_of("send").split())
