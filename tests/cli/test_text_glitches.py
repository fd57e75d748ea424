"""Issue 15: text a newcomer reads, as they read it."""
from __future__ import annotations

import pytest

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
