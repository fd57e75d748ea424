"""game.toml typed and checked (issue 27): a bad value, an unknown key or section is refused by every
command before it does anything, in one line naming the file, the key and the problem, exit 2;
``nomic check``; every ruleset's defaults fit its model, and the models carry no defaults of their own."""
from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine.ruleset import names
from nomic.cli import app
from storage.config import Config, SettingsError, default_text
from storage.settings import model_for
from tests.support import EMPEROR, GAME_TOML, SCRIBE, make_mail

RUNNER = CliRunner()
GOOD = dict(seed="s", day_mode="emperor", database_url="", emperor=EMPEROR, scribe=SCRIBE, first_it="", auth="none")

# (what the operator wrote, the one line that refuses it): the examples
EXAMPLES = [
    ('[answers]\nper_sender_per_hour = "ten"\n', '[answers] per_sender_per_hour must be a whole number, not "ten"'),
    ('[outbox]\nrelya = "127.0.0.1:25"\n', "[outbox] unknown key relya (did you mean relay?)"),
    ('[outbx]\nrelay = "127.0.0.1:25"\n', "unknown section [outbx] (did you mean [outbox]?)"),
    ("[colours]\nsky = 1\n", "unknown section [colours]"),
    ({"day_mode": "weekly"}, '[game] day_mode must be "emperor" or "fixed", not "weekly"'),
    ('[list]\nbounce_limit = 0\n', "[list] bounce_limit must be at least 1, not 0"),
    ('[http]\ntimeout = true\n', "[http] timeout must be a number, not true"),
]


def nomic(*args: str | Path) -> tuple[int, str]:
    result = RUNNER.invoke(app, [str(a) for a in args])
    return result.exit_code, result.output


def toml(bad: str | dict[str, str]) -> str:
    if isinstance(bad, dict):
        return GAME_TOML.format(**(GOOD | bad))
    return GAME_TOML.format(**GOOD) + "\n" + bad


@pytest.fixture
def game(tmp_path) -> Path:
    """A game that works, whose game.toml a test then spoils."""
    (tmp_path / "good.toml").write_text(toml(""))
    assert nomic("init", tmp_path / "g", "--config", tmp_path / "good.toml")[0] == 0
    return tmp_path / "g"


def journal_length(game: Path) -> int:
    with sqlite3.connect(game / "game.db") as db:
        return db.execute("SELECT count(*) FROM journal").fetchone()[0]


COMMANDS = [("state", "--json"), ("tick", "--at", "2026-02-01T00:00:00Z"), ("ingest", "MAIL"), ("build",),
            ("replay", "--verify"), ("serve",), ("poll", "--once"), ("check",), ("outbox",)]


@pytest.mark.parametrize("bad, line", EXAMPLES)
@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
def test_every_command_refuses_a_bad_game_toml_in_one_line_and_journals_nothing(game, bad, line, command):
    mail = game.parent / "mail.eml"
    mail.write_bytes(make_mail("alice@wonder.land", "Proposal: Free cake"))
    (game / "game.toml").write_text(toml(bad))
    args = [str(mail) if a == "MAIL" else a for a in command]
    assert nomic(*args, "--game", game) == (2, f"nomic: {game / 'game.toml'}: {line}\n")
    assert journal_length(game) == 0
    assert not (game / "site").exists()


@pytest.mark.parametrize("bad, line", EXAMPLES)
def test_init_refuses_a_bad_config_naming_it_and_makes_nothing(tmp_path, bad, line):
    (tmp_path / "bad.toml").write_text(toml(bad))
    assert nomic("init", tmp_path / "g", "--config", tmp_path / "bad.toml") == (
        2, f"nomic: {tmp_path / 'bad.toml'}: {line}\n")
    assert not (tmp_path / "g").exists()


@pytest.mark.parametrize("bad, line", EXAMPLES[:3])
def test_host_add_refuses_a_game_with_a_bad_game_toml(tmp_path, game, bad, line):
    assert nomic("host", "init", tmp_path / "host")[0] == 0
    (game / "game.toml").write_text(toml(bad))
    assert nomic("host", "add", tmp_path / "host", game, "--slug", "league") == (
        2, f"nomic: {game / 'game.toml'}: {line}\n")
    assert "league" not in (tmp_path / "host" / "host.toml").read_text()


def test_a_bad_listener_limit_in_host_toml_is_one_line(tmp_path, game):
    assert nomic("host", "init", tmp_path / "host")[0] == 0
    with (tmp_path / "host" / "host.toml").open("a") as f:
        f.write('[smtp]\nmax_conections = 5\n')
    assert nomic("host", "add", tmp_path / "host", game, "--slug", "league") == (
        2, f"nomic: {tmp_path / 'host' / 'host.toml'}: [smtp] unknown key max_conections "
           "(did you mean max_connections?)\n")


def test_check_says_ok_or_the_one_line(game):
    assert nomic("check", "--game", game) == (0, "ok\n")
    text = (game / "game.toml").read_text()
    (game / "game.toml").write_text(text.replace('mode = "none"', 'mode = "authres"'))
    code, out = nomic("check", "--game", game)  # what ingest, serve and poll would refuse
    assert (code, out.count("\n")) == (2, 1)
    assert out.startswith(f"nomic: {game / 'game.toml'}: [auth] mode = \"authres\" needs authserv_id")
    (game / "game.toml").write_text(text.replace('first_it = ""', 'first_it = ""\nfirst_itt = ""'))
    assert nomic("check", "--game", game) == (
        2, f"nomic: {game / 'game.toml'}: [offices] unknown key first_itt (did you mean first_it?)\n")


def test_a_missing_game_is_still_exit_1(tmp_path):
    assert nomic("check", "--game", tmp_path / "none") == (
        1, f"nomic: no game at {tmp_path / 'none'} (missing game.toml); create one with 'nomic init'\n")


@pytest.mark.parametrize("ruleset", names())
def test_every_rulesets_defaults_fit_its_model(tmp_path, ruleset):
    settings = Config.read(tmp_path, default_text(ruleset)).settings
    assert type(settings) is model_for(ruleset)
    assert settings.game.ruleset == ruleset


@pytest.mark.parametrize("ruleset", names())
def test_defaults_are_written_once_in_storage_defaults_not_in_the_models(ruleset):
    """A field with a default would be a second place for it: only the keys a game may leave out
    with no default in storage/defaults/ (its edition, its variables) have one, meaning "none"."""
    model = model_for(ruleset)
    with_default = {name for name, f in model.model_fields.items() if not f.is_required()}
    for name, f in model.model_fields.items():
        section = f.annotation
        if isinstance(section, type) and hasattr(section, "model_fields"):
            with_default |= {f"{name}.{k}" for k, g in section.model_fields.items() if not g.is_required()}
    assert with_default == {"variables", "game.edition"}


def test_a_key_of_another_ruleset_is_refused(tmp_path):
    text = default_text("blognomic").replace("[blognomic]\n", '[blognomic]\ncall_for_action = true\n')
    with pytest.raises(SettingsError, match=r"game.toml: \[blognomic\] unknown key call_for_action$"):
        Config.read(tmp_path, text)
    with pytest.raises(SettingsError, match=r"game.toml: unknown section \[suber\]$"):
        Config.read(tmp_path, default_text("blognomic") + "[suber]\ndaily_mail = true\n")


@pytest.mark.parametrize("old, new, line", [
    ("[list]\n", "[list]\nbounce_limt = 3\n", "[list] unknown key bounce_limt (did you mean bounce_limit?)"),
    ('bounce_prefix = "game-bounces"', 'bounce_prefix = ""', "[smtp] bounce_prefix must not be empty"),
    ('start = "2026-01-05T00:00:00Z"', 'start = "soon"',
     '[game] start must be an ISO 8601 time with a zone, like 2026-01-05T00:00:00Z, not "soon"'),
    ('start = "2026-01-05T00:00:00Z"', "start = 2026-01-05T00:00:00",
     "[game] start must be an ISO 8601 time with a zone, like 2026-01-05T00:00:00Z, not 2026-01-05T00:00:00"),
    ("players = []", 'players = "Alice <alice@suber.test>"',
     '[suber] players must be a list, not "Alice <alice@suber.test>"'),
    ("port = 993", "port = 0", "[imap] port must be at least 1, not 0"),
    ('in_doubt = "resend"', 'in_doubt = "maybe"', '[outbox] in_doubt must be "resend" or "hold", not "maybe"'),
])
def test_what_each_kind_of_problem_says(tmp_path, old, new, line):
    text = default_text("suber")
    assert old in text
    with pytest.raises(SettingsError) as refused:
        Config.read(tmp_path, text.replace(old, new, 1))
    assert str(refused.value) == f"{tmp_path / 'game.toml'}: {line}"


def test_a_start_with_its_zone_as_a_toml_time_is_fine(tmp_path):
    text = default_text("suber").replace('start = "2026-01-05T00:00:00Z"', "start = 2026-01-05T01:00:00+01:00")
    assert Config.read(tmp_path, text).engine().start == Config.read(tmp_path, default_text("suber")).engine().start


@pytest.mark.parametrize("name", ["demo-game.toml", "demo-blognomic.toml", "demo-suber.toml"])
def test_the_shipped_demo_configs_fit(tmp_path, name):
    path = Path(__file__).resolve().parents[2] / "deploy" / name
    assert Config.read(tmp_path, path.read_text(), path).settings.auth.mode == "none"
