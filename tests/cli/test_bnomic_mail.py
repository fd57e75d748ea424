"""B Nomic's announcements to the list: the Ambassador's foreign action (2-10) says how it is decided; a
Consultation (2-5) is announced when submitted and when answered."""
from __future__ import annotations

from tests.cli.ruleset_play import said
from tests.cli.test_bnomic_game import DAVE, ERIN, BNomicPlay, body_of


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


def test_a_consultation_is_announced_when_submitted_and_when_answered(tmp_path, new_database_url):
    play = BNomicPlay(tmp_path, new_database_url())
    play.send(ERIN, "Consultation: Is cake a lie?", "It is said so.\nUnbeliever: Bob", "2026-01-05T00:30:00Z")
    assert body_of(play.list_mail("Consultation 1: Is cake a lie?")) == (
        'Consultation 1: "Is cake a lie?"\nby Erin <erin@b.test>, Unbeliever Bob <bob@b.test>; Waiting.\n\n'
        'It is said so.\n\nThe Oracle selects its Priest ("Priest 1: PLAYER") or ZOTs it ("ZOT 1").\n')
    play.send(DAVE, "Oracle", "Take Questions\nAnswer 1: NO\nCake is real.\nOracularity:\nErin gains 1 point\n"
              "Bake a cake", "2026-01-05T01:00:00Z")  # nobody is Active: the new Oracle is its Priest at once
    assert body_of(play.list_mail("Consultation 1: answered NO")) == (
        'Consultation 1: "Is cake a lie?"\nanswered NO by its Priest Dave <dave@b.test>.\n\nCake is real.\n\n'
        "Its Oracularity, followed all or nothing when it is Pondered:\n  Erin gains 1 point\n\n"
        '"Bake a cake" is no change line, so its Oracularity will not be followed (1-16).\n\n'
        "Any Player but the Supplicant and the Unbeliever may claim it within three ndays or ndelays: "
        '"Claim 1 consistent" or "Claim 1 inconsistent"; the last claim of each counts.\n')
