"""``NOMIC_DEMO_RULESET=RULESET ./run demo``: deploy/demo.sh makes the game from
deploy/demo-RULESET.toml and plays deploy/demo-mail/RULESET/ into it, as here, for every listed
ruleset that has a demo; the daemon it then starts is tested elsewhere."""
from __future__ import annotations

import os
import subprocess
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine.ruleset import names
from storage.config import Config
from tests.support import Play

DEPLOY = Path(__file__).parents[2] / "deploy"
DEMOS = [name for name in names() if (DEPLOY / f"demo-{name}.toml").is_file()]  # Imperial's: deploy/demo-game.toml


class Demo(Play):
    """The game deploy/demo.sh makes on its first run, by ``nomic init`` and ``nomic ingest`` as it calls them,
    but on a fixed day (the script starts the game today at 00:00 UTC and ingests now)."""

    def __init__(self, tmp_path: Path, ruleset: str):
        self.dir, self.runner = tmp_path / f"demo-{ruleset}", CliRunner()
        self.cli("init", str(self.dir), "--config", str(DEPLOY / f"demo-{ruleset}.toml"), "--start", "2026-01-05T00:00:00Z")
        self.cli("ingest", "--at", "2026-01-05T01:00:00Z", *map(str, mail(ruleset)))


def mail(ruleset: str) -> list[Path]:
    return sorted((DEPLOY / "demo-mail" / ruleset).glob("*.eml"))


@pytest.mark.parametrize("ruleset", DEMOS)
def test_the_demo_game_starts_sends_to_the_demo_mailbox_and_answers_its_mail(tmp_path, ruleset):
    config = tomllib.loads((DEPLOY / f"demo-{ruleset}.toml").read_text())
    assert config["game"]["ruleset"] == ruleset
    assert f"MAILBOX=${{NOMIC_DEMO_MAILBOX:-{config['outbox']['relay']}}} " in (DEPLOY / "demo.sh").read_text()
    play = Demo(tmp_path, ruleset)
    Config.load(play.dir).check_auth()
    answers = [m for m in play.outbox() if m["kind"] == "answer"]
    assert len(answers) == len(mail(ruleset))
    play.verify()
    assert (DEPLOY / "demo-mail" / ruleset / "PLAY.txt").read_text().startswith(
        f"mail {config['game']['address']} over SMTP on {{SMTP}} ")  # what demo.sh says to do


def test_the_blognomic_demo_has_a_popular_proposal_the_clock_enacts(tmp_path):
    play = Demo(tmp_path, "blognomic")
    state = play.state()
    assert [p["email"] for p in state["players"]] == ["admin@blog.test", "alice@blog.test", "bob@blog.test"]
    [matter] = state["matters"]
    assert (matter["title"], matter["votes"]) == ("Free cake", {"alice@blog.test": "FOR", "bob@blog.test": "FOR"})
    play.tick("2026-01-05T13:00:00Z")
    assert play.state()["matters"][0]["status"] == "enacted"
    assert any(r["name"] == "Cake" for r in play.state()["rules"])


def test_the_suber_demo_has_alices_proposal_in_debate(tmp_path):
    state = Demo(tmp_path, "suber").state()
    assert (state["turn"], [p["name"] for p in state["players"]]) == (
        "alice@suber.test", ["Alice Adams", "Bob Brown", "Carol Clark"])
    assert [(p["number"], p["title"], p["status"]) for p in state["proposals"]] == [(301, "Hello", "debate")]


def test_an_unknown_demo_ruleset_is_refused_before_anything_is_made(tmp_path):
    run = subprocess.run(["bash", str(DEPLOY / "demo.sh")], capture_output=True, text=True,
                         env={**os.environ, "NOMIC_DEMO_RULESET": "agora", "NOMIC_GAME": str(tmp_path / "g")})
    assert (run.returncode, run.stderr) == (2, "demo: NOMIC_DEMO_RULESET must be one of imperial, blognomic, bnomic, "
                                               "suber (each has a deploy/demo-RULESET.toml), not 'agora'\n")
    assert not (tmp_path / "g").exists()


def test_the_bnomic_demo_has_alice_in_every_ministry_and_bobs_proposal_pending(tmp_path):
    state = Demo(tmp_path, "bnomic").state()
    assert [m["holder"] for m in state["ministries"]] == ["alice@bnomic.test"] * 7
    assert (state["clock"]["on"], [(p["number"], p["title"], p["status"]) for p in state["proposals"]]) == (
        True, [(1, "Tea", "pending")])
