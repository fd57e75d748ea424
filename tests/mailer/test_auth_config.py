"""[auth] in game.toml: authres mode needs the MTA's authserv-id, or the operator's explicit word
that the topmost Authentication-Results header may be trusted; without either, nothing is believed."""
from __future__ import annotations

import tomllib
from datetime import datetime, timezone
from pathlib import Path

import pytest

from storage.config import Config, ConfigError, default_text
from nomic.game import Game

MX = "mx.imperial.test"
FORGED_ON_TOP = (f"Authentication-Results: {MX}; dkim=pass header.d=wonder.land\r\n"
                 "From: alice@wonder.land\r\nTo: ths@imperial.test\r\nSubject: Proposal: forged\r\n"
                 "Message-ID: <forged@x>\r\n\r\nCake.\r\n").encode()


def _config(tmp_path: Path, auth: str) -> Config:
    (tmp_path / "game.toml").write_text("[auth]\n" + auth)
    return Config.load(tmp_path)


def test_the_shipped_default_refuses_to_run_until_the_operator_chooses(tmp_path):
    config = Config(tmp_path, tomllib.loads(default_text()))
    with pytest.raises(ConfigError, match="authserv_id") as refused:
        config.check_auth()
    assert "\n" not in str(refused.value) and "trust_topmost_header" in str(refused.value)


@pytest.mark.parametrize("auth", [
    f'mode = "authres"\nauthserv_id = "{MX}"\n',
    'mode = "authres"\ntrust_topmost_header = true\n',
    'mode = "dkim"\n',
    'mode = "none"\n',
])
def test_a_chosen_auth_setting_starts(tmp_path, auth):
    _config(tmp_path, auth).check_auth()


@pytest.mark.parametrize("auth, error", [
    ('mode = "authres"\nauthserv_id = " "\n', "authserv_id"),
    ('mode = "authres"\ntrust_topmost_header = "yes"\n', "trust_topmost_header must be true or false"),
    ('mode = "dmarc"\n', "mode must be"),
])
def test_a_wrong_auth_setting_is_refused(tmp_path, auth, error):
    with pytest.raises(ConfigError, match=error):
        _config(tmp_path, auth).check_auth()


def test_the_demo_game_starts(tmp_path):
    demo = Path(__file__).resolve().parents[2] / "deploy" / "demo-game.toml"
    (tmp_path / "game.toml").write_text(demo.read_text())
    Config.load(tmp_path).check_auth()


def _verdict(make_play, auth_lines: str) -> dict:
    play = make_play(auth="authres")
    toml = play.dir / "game.toml"
    toml.write_text(toml.read_text().replace('mode = "authres"\n', 'mode = "authres"\n' + auth_lines))
    return Game(play.dir).inbox.prepare(FORGED_ON_TOP, datetime(2026, 1, 5, 1, tzinfo=timezone.utc)).meta["auth"]


def test_without_authserv_id_or_the_opt_in_no_header_is_believed(make_play):
    """A forged header is the topmost one when the MTA adds none (OpenDKIM adds none to unsigned mail)."""
    verdict = _verdict(make_play, "")
    assert verdict["authenticated"] is False
    assert "no [auth] authserv_id" in verdict["detail"]


def test_the_opt_in_trusts_the_topmost_header(make_play):
    assert _verdict(make_play, "trust_topmost_header = true\n")["authenticated"] is True
    assert _verdict(make_play, f'authserv_id = "{MX}"\n')["authenticated"] is True
    assert _verdict(make_play, 'authserv_id = "mx.elsewhere.test"\n')["authenticated"] is False
