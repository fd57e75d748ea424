"""Per-Pactmaker limits on the matters no rule limits: Calls for Judgement and Declarations of
Victory (``[blognomic] max_pending_cfjs`` and ``max_pending_dovs``, docs/rulings-blognomic.md)."""
from __future__ import annotations

import dataclasses
import tomllib

import pytest

from storage.config import CONFIG_NAME, Config, SettingsError, default_text
from tests.blognomic.support import ALICE, BOB, FIVE, Game, answers, new_game

DEFAULTS = tomllib.loads(default_text("blognomic"))["blognomic"]


def with_options(game: Game, **options: object) -> Game:
    game.config = dataclasses.replace(game.config, options={**game.config.options, **options})
    return game


def test_a_pactmaker_may_have_two_cfjs_pending_by_default_and_a_third_takes_no_number():
    game = with_options(new_game(FIVE), **DEFAULTS)
    game.mail(ALICE, "CfJ: One", hours=1)
    game.mail(ALICE, "CfJ: Two", hours=1)
    assert answers(game.mail(ALICE, "CfJ: Three", hours=1)) == [
        "CfJ: Three: this game allows each Pactmaker 2 pending Calls for Judgement at a time (yours: 1, 2); "
        "no Call for Judgement made"]
    assert answers(game.mail(BOB, "CfJ: Bob's", hours=1)) == [
        'CfJ: Bob\'s: Call for Judgement 3 "Bob\'s" is open for voting; Quorum is 3']
    game.mail(BOB, "v", "AGAINST 1", hours=2)
    game.mail(ALICE, "v", "AGAINST 1", hours=2)
    game.mail(FIVE[2], "v", "AGAINST 1", hours=2)  # Unpopular: failed at once
    assert game.matter(1)["status"] == "failed"
    assert answers(game.mail(ALICE, "CfJ: Three", hours=3)) == [
        'CfJ: Three: Call for Judgement 4 "Three" is open for voting; Quorum is 3']


def test_one_dov_pending_per_pactmaker_by_default_and_the_limits_are_settings():
    game = with_options(new_game(FIVE), **DEFAULTS)
    game.mail(ALICE, "DoV: I won", hours=1)
    assert answers(game.mail(ALICE, "DoV: I really won", hours=1)) == [
        "DoV: I really won: this game allows each Pactmaker 1 pending Declaration of Victory at a time "
        "(yours: 1); no Declaration of Victory made"]
    roomy = with_options(new_game(FIVE), max_pending_cfjs=3, max_pending_dovs=2)
    for title in ("A", "B", "C"):
        roomy.mail(ALICE, f"CfJ: {title}", hours=1)
    roomy.mail(ALICE, "DoV: I won", hours=1)
    roomy.mail(ALICE, "DoV: I really won", hours=1)
    assert [m["kind"] for m in roomy.json()["matters"]] == ["cfj", "cfj", "cfj", "dov", "dov"]
    assert DEFAULTS["max_pending_cfjs"] == 2 and DEFAULTS["max_pending_dovs"] == 1


@pytest.mark.parametrize(("bad", "problem"), [("0", "must be at least 1, not 0"),
                                              ('"two"', 'must be a whole number, not "two"'),
                                              ("1.5", "must be a whole number, not 1.5")])
def test_a_limit_that_is_no_whole_number_of_at_least_one_is_refused_at_load(tmp_path, bad, problem):
    text = default_text("blognomic").replace('seed = "change-me"', 'seed = "limits-test"', 1)
    (tmp_path / CONFIG_NAME).write_text(text.replace("max_pending_cfjs = 2 ", f"max_pending_cfjs = {bad} ", 1))
    with pytest.raises(SettingsError) as refused:
        Config.load(tmp_path)
    assert str(refused.value) == f"{tmp_path / CONFIG_NAME}: [blognomic] max_pending_cfjs {problem}"
