"""``nomic init DIR --ruleset NAME``: game.toml with that ruleset's defaults (and only its own), and
the game begins with its rules text for its edition (docs/contract.md, "Rulesets")."""
from __future__ import annotations

import json
import re
import tomllib
from datetime import datetime, timezone
from importlib import resources

import pytest
from typer.testing import CliRunner

from engine.ruleset import RULESETS, names
from nomic.cli import app
from storage import iso
from storage.config import Config, ConfigError, default_text
from tests.cli.test_clock import midnight_after

RUNNER = CliRunner()
KNOWN = ", ".join(map(repr, sorted(names())))  # 'blognomic', 'bnomic', 'imperial', 'suber'


def nomic(*args: str) -> tuple[int, str]:
    result = RUNNER.invoke(app, list(args))
    return result.exit_code, result.output


def bundled(name: str) -> str:
    return resources.files("storage").joinpath(f"rulesets/{name}").read_text()


@pytest.mark.parametrize("ruleset", names())
def test_init_writes_the_rulesets_commented_defaults(tmp_path, ruleset):
    before = datetime.now(timezone.utc)
    assert nomic("init", str(tmp_path / "g"), "--ruleset", ruleset) == (0, f"created a game in {tmp_path / 'g'}\n")
    text = (tmp_path / "g" / "game.toml").read_text()
    secrets = tomllib.loads(text)["game"]["seed"], tomllib.loads(text)["list"]["token_secret"]
    assert all(re.fullmatch("[0-9a-f]{64}", s) for s in secrets)  # random: tests/cli/test_secrets.py
    text = text.replace(f'seed = "{secrets[0]}"', 'seed = "change-me"').replace(
        f'token_secret = "{secrets[1]}"', 'token_secret = ""')
    starts = {text.replace(f'start = "{iso(midnight_after(before))}"', 'start = "2026-01-05T00:00:00Z"'),
              text.replace(f'start = "{iso(midnight_after(datetime.now(timezone.utc)))}"', 'start = "2026-01-05T00:00:00Z"')}
    assert default_text(ruleset) in starts  # but for the start: the next 00:00 UTC (tests/cli/test_clock.py)
    assert text.startswith(f"# A game of {tomllib.loads(text)['game']['name']} run by The Humble Scribe.")
    assert tomllib.loads(text)["game"]["ruleset"] == ruleset
    code, out = nomic("state", "--json", "--game", str(tmp_path / "g"))
    assert code == 0 and json.loads(out)["ruleset"] == ruleset


def test_a_blognomic_game_gets_its_own_defaults_and_none_of_imperials(tmp_path):
    (tmp_path / "game.toml").write_text('[game]\nruleset = "blognomic"\n')
    data = Config.load(tmp_path).data
    assert data["offices"] == {"admins": ["admin@blog.test"], "seraphims": [], "admins_passphrase": ""}
    assert data["blognomic"] == {"auto_resolve": True, "admission": "admin", "daily_mail": True,
                                 "max_pending_cfjs": 2, "max_pending_dovs": 1}
    assert (data["game"]["edition"], data["game"]["address"]) == ("149", "ths@blog.test")
    assert "day_mode" not in data["game"] and "variables" not in data
    assert data["auth"]["mode"] == "authres"  # every game's keys (storage/defaults/common.toml)


def test_a_game_toml_that_names_no_ruleset_is_imperial(tmp_path):
    (tmp_path / "game.toml").write_text('[game]\nname = "Old game"\n')
    config = Config.load(tmp_path)
    assert (config.game["ruleset"], config.section("offices")["emperor"]) == ("imperial", "tie@imperial.test")
    assert config.rules_text() == bundled("imperial-nomic.txt")


@pytest.mark.parametrize("game, text", [
    ('ruleset = "blognomic"', "blognomic-149.txt"),
    ('ruleset = "blognomic"\nedition = "109"', "blognomic-109.txt"),
    ('ruleset = "suber"', "suber-nomic-2005.txt"),
    ('ruleset = "bnomic"', "b-nomic.txt"),
])
def test_the_rules_text_is_the_rulesets_for_its_edition(tmp_path, game, text):
    (tmp_path / "game.toml").write_text(f"[game]\n{game}\n")
    assert Config.load(tmp_path).rules_text() == bundled(text)


@pytest.mark.parametrize("ruleset, edition, text", [(r.name, e, t) for r in RULESETS for e, t in r.texts.items()])
def test_every_listed_edition_begins_with_its_own_text(tmp_path, ruleset, edition, text):
    (tmp_path / "game.toml").write_text(f'[game]\nruleset = "{ruleset}"\n' + (f'edition = "{edition}"\n' if edition else ""))
    assert Config.load(tmp_path).rules_text() == bundled(text)


@pytest.mark.parametrize("game, error", [
    ('ruleset = "blognomic"\nedition = "150"', "edition of blognomic must be '149' or '109', not '150'"),
    ('ruleset = "suber"\nedition = "149"', "edition: suber has no editions; leave it out \\(not '149'\\)"),
    ('ruleset = "agora"', f"ruleset must be one of {KNOWN}, not 'agora'"),
    ('ruleset = ["suber"]', rf"ruleset must be one of {KNOWN}, not \['suber'\]"),
])
def test_a_ruleset_or_edition_without_rules_is_refused_when_the_game_is_opened(tmp_path, game, error):
    (tmp_path / "game.toml").write_text(f"[game]\n{game}\n")
    with pytest.raises(ConfigError, match=error):
        Config.load(tmp_path)


def test_an_unknown_ruleset_or_one_with_a_config_file_is_refused_and_nothing_is_made(tmp_path):
    assert nomic("init", str(tmp_path / "g"), "--ruleset", "agora") == (
        2, f"nomic: unknown ruleset 'agora' (known: {', '.join(sorted(names()))})\n")
    (tmp_path / "mine.toml").write_text('[game]\nruleset = "suber"\n')
    assert nomic("init", str(tmp_path / "g"), "--ruleset", "suber", "--config", str(tmp_path / "mine.toml")) == (
        2, "nomic: --ruleset or --config, not both: FILE's [game] ruleset chooses the game\n")
    assert not (tmp_path / "g").exists()


def test_an_office_that_is_no_address_nor_a_list_of_addresses_is_refused(tmp_path):
    (tmp_path / "game.toml").write_text('[game]\nruleset = "blognomic"\n[offices]\nadmins = [1]\n')
    with pytest.raises(ConfigError, match=r"\[offices\] admins must be an address or a list of addresses, not \[1\]"):
        Config.load(tmp_path).engine()
