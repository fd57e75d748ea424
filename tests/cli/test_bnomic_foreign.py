"""The Ambassador's foreign action (2-10) by mail: its announcement says how it is decided."""
from __future__ import annotations

from tests.cli.ruleset_play import said
from tests.cli.test_bnomic_game import DAVE, BNomicPlay, body_of


def test_a_foreign_action_is_announced_with_how_it_is_decided(tmp_path, new_database_url):
    play = BNomicPlay(tmp_path, new_database_url())
    play.send(DAVE, "Ambassador", "Take Foreign Relations\nForeign action: Join Agora's treaty", "2026-01-05T01:00:00Z")
    said(play, DAVE, '  "Take Foreign Relations": you hold the Ministry of Foreign Relations (the Ambassador)',
         '  "Foreign action: Join Agora\'s treaty": A1: B Nomic may take this foreign action if 2 Players support it '
         "and none objects within 2 ndays (2-10)")
    assert body_of(play.list_mail("A1: foreign by Dave <dave@b.test>")) == (
        "A1: foreign of another Nomic by Dave <dave@b.test>: Join Agora's treaty.\n"
        'It fails at the first objection ("Object to A1"); else it occurs when its window closes if 2 Players '
        'support it ("Support A1").\n')
