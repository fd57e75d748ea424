"""Secrets are secrets: ``nomic init`` writes a random seed and a random token key, every command
refuses a game whose seed anyone can read, and the list's links are keyed by a secret that is never
published (docs/operating.md, "Secrets")."""
from __future__ import annotations

import logging
import re
import tomllib
from datetime import datetime, timezone
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mailer.tokens import read_stamped_token, stamped_token
from nomic.cli import app
from nomic.game import Game

DEPLOY = Path(__file__).parents[2] / "deploy"
RUNNER = CliRunner()
HEX = re.compile("[0-9a-f]{64}")


def nomic(*args: str | Path) -> tuple[int, str]:
    result = RUNNER.invoke(app, [str(a) for a in args])
    return result.exit_code, result.output


def secrets_of(game: Path) -> tuple[str, str]:
    data = tomllib.loads((game / "game.toml").read_text())
    return data["game"]["seed"], data["list"]["token_secret"]


def made(tmp_path: Path, name: str, *args: str | Path) -> Path:
    assert nomic("init", tmp_path / name, *args)[0] == 0
    return tmp_path / name


def test_init_writes_a_random_seed_and_token_secret_each_time(tmp_path):
    one, two = secrets_of(made(tmp_path, "one")), secrets_of(made(tmp_path, "two", "--ruleset", "suber"))
    assert all(HEX.fullmatch(s) for s in (*one, *two))
    assert len({*one, *two}) == 4  # no two alike: the token key is no function of the seed


@pytest.mark.parametrize("ruleset", ["game", "blognomic", "suber"])
def test_a_demo_config_gets_random_secrets_and_its_own_keys_stay(tmp_path, ruleset):
    demo = DEPLOY / f"demo-{ruleset}.toml"
    assert 'seed = "demo-seed-not-secret"' in demo.read_text()
    game = made(tmp_path, ruleset, "--config", demo)
    seed, token = secrets_of(game)
    assert HEX.fullmatch(seed) and HEX.fullmatch(token) and seed != token
    rest = (game / "game.toml").read_text().replace(f'token_secret = "{token}"\n', "").rstrip()
    rest = re.sub(r'\nstart = "[^"]*"\n', "\n", rest)  # the next 00:00 UTC: tests/cli/test_clock.py
    assert rest.removesuffix("[list]").rstrip() == demo.read_text().replace("demo-seed-not-secret", seed).rstrip()


def test_a_config_with_a_seed_of_its_own_keeps_it(tmp_path):
    (tmp_path / "mine.toml").write_text('[game]\nseed = "7c1e0f3b-mine"\n\n[list]\nsubject_tag = "[Mine]"\n')
    seed, token = secrets_of(made(tmp_path, "g", "--config", tmp_path / "mine.toml"))
    assert seed == "7c1e0f3b-mine" and HEX.fullmatch(token)
    text = re.sub(r'\nstart = "[^"]*"\n', "\n", (tmp_path / "g" / "game.toml").read_text())  # the next 00:00 UTC
    assert text == f'[game]\nseed = "7c1e0f3b-mine"\n\n[list]\ntoken_secret = "{token}"\nsubject_tag = "[Mine]"\n'



def _with(game: Path, old: str, new: str) -> None:
    path = game / "game.toml"
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


@pytest.mark.parametrize("placeholder", ["change-me", "", "...", "demo-seed-not-secret", "Change-Me"])
def test_every_command_that_opens_a_game_refuses_a_placeholder_seed(tmp_path, placeholder):
    game = made(tmp_path, "g")
    _with(game, f'seed = "{secrets_of(game)[0]}"', f'seed = "{placeholder}"')
    (tmp_path / "m.eml").write_bytes(b"From: a@b.test\r\nTo: ths@imperial.test\r\nSubject: x\r\n\r\nx\r\n")
    (tmp_path / "h").mkdir()
    (tmp_path / "h" / "host.toml").write_text(f'[games.g]\ndir = "{game}"\n')
    line = (f"nomic: {game / 'game.toml'}: [game] seed is the placeholder {placeholder!r}, which anyone can "
            'read; set it to a random secret (docs/operating.md, "Secrets")\n')
    g = ("--game", game)
    for args in (("state", "--json", *g), ("ingest", *g, tmp_path / "m.eml"), ("tick", *g), ("build", *g),
                 ("replay", *g), ("replay", "--verify", *g), ("serve", "--smtp", "127.0.0.1:0", *g),
                 ("poll", "--once", *g), ("outbox", *g), ("send", *g)):
        assert nomic(*args) == (2, line), args
    assert nomic("host", "add", tmp_path / "h2", game, "--slug", "g")[0] == 1  # no host there yet
    nomic("host", "init", tmp_path / "h2")
    assert nomic("host", "add", tmp_path / "h2", game, "--slug", "g") == (2, line)
    assert nomic("host", "serve", tmp_path / "h", "--http", "127.0.0.1:0") == (2, "nomic: game g: " + line[7:])


def test_a_placeholder_token_secret_is_refused_and_reveal_seed_needs_a_token_secret(tmp_path):
    game = made(tmp_path, "g")
    seed, token = secrets_of(game)
    _with(game, f'token_secret = "{token}"', 'token_secret = "change-me"')
    assert nomic("state", "--game", game) == (
        2, f"nomic: {game / 'game.toml'}: [list] token_secret is the placeholder 'change-me'; set it to a random "
           "secret\n")
    _with(game, 'token_secret = "change-me"', f'token_secret = "{seed}"')
    assert nomic("state", "--game", game) == (
        2, f"nomic: {game / 'game.toml'}: [list] token_secret is the seed, which the site publishes at the end of "
           "the game; set it to a random secret of its own\n")
    _with(game, f'token_secret = "{seed}"', 'token_secret = ""')
    assert nomic("state", "--game", game)[0] == 0  # a game begun before token_secret: its seed keys the links
    assert Game(game).list_settings.token_key == seed
    _with(game, "reveal_seed = false", "reveal_seed = true")
    assert nomic("build", "--game", game) == (
        2, f"nomic: {game / 'game.toml'}: [game] reveal_seed = true would publish the seed, which keys the list's "
           "links while [list] token_secret is empty; set token_secret to a random secret first\n")


def test_the_links_are_keyed_by_the_token_secret_so_the_seed_forges_none(tmp_path):
    game = made(tmp_path, "g")
    seed, token = secrets_of(game)
    ls = Game(game).list_settings
    now = datetime(2026, 1, 5, tzinfo=timezone.utc)
    assert ls.token_key == token
    forged = stamped_token(seed, "unsubscribe", "alice@wonder.land", now)  # what a revealed seed would make
    assert read_stamped_token(ls.token_key, "unsubscribe", forged) is None
    genuine = stamped_token(ls.token_key, "unsubscribe", "alice@wonder.land", now)
    assert read_stamped_token(ls.token_key, "unsubscribe", genuine) == ("alice@wonder.land", now)


def test_a_game_of_an_older_release_with_a_placeholder_seed_opens_when_the_operator_accepts_it(tmp_path, caplog):
    game = made(tmp_path, "g")
    _with(game, f'seed = "{secrets_of(game)[0]}"', 'seed = "change-me"')
    _with(game, "accept_known_seed = false", "accept_known_seed = true")
    with caplog.at_level(logging.WARNING):
        assert nomic("state", "--game", game)[0] == 0
    assert f"{game / 'game.toml'}: [game] seed is the placeholder 'change-me': every draw can be foretold" \
        in caplog.messages
