"""Rule "Seasonal Downtime", read literally (docs/rulings-blognomic.md, "The Seasonal Downtime"):
from 00:00 on 24 December to 00:00 on 27 December only what the rules "Votable Matters",
"Gamestate Tracking" and "Call for Judgement" describe goes on; everything else is refused with
one answer line and changes nothing."""
from __future__ import annotations

from typing import Any

from tests.blognomic.support import ADMIN, ALICE, BOB, CAROL, DAVE, ERIN, FIVE, Game, answers, new_game, of
from tests.blognomic.test_dynasty import victorious_game

EVE, CHRISTMAS, AFTER = 353, 354, 356  # 24, 25 and 27 December 2026, in days from the game's start
CLOSED = "it is the Seasonal Downtime (24 to 26 December): only Votes and Calls for Judgement go on until " \
         "27 December (rule Seasonal Downtime); nothing done"


def game_state(game: Game) -> dict[str, Any]:
    """The whole state but what every message moves: when each player last wrote."""
    dump = game.state.model_dump(mode="json")
    for p in dump["players"]:
        del p["last_seen"]
    return dump


def test_the_downtime_refuses_joining_leaving_idling_dice_veto_proposals_and_their_resolution():
    game = new_game(FIVE, seraphims=(DAVE,))
    game.mail(ALICE, "Proposal: Cake", "Bake a cake for everyone.", days=EVE - 1, hours=6)
    game.mail(BOB, "v", "FOR 1", days=EVE - 1, hours=7)
    game.mail(CAROL, "v", "FOR 1", days=EVE - 1, hours=7)  # enacted at 18:00; its prose is applied by hand
    game.mail(ALICE, "Proposal: Pie", days=EVE - 1, hours=23)  # not Popular: pending through the downtime
    game.tick(game.config.start.replace(month=12, day=25, hour=10))
    before = game_state(game)
    refused = [game.mail(ERIN, "Join", days=CHRISTMAS, hours=10),
               game.mail(BOB, "x", "Leave\nIdle\nRoll DICE6", days=CHRISTMAS, hours=10),
               game.mail(ADMIN, "x", "Idle Carol\nApplied 1: baked it\nEnact 2", days=CHRISTMAS, hours=10),
               game.mail(DAVE, "x", "VETO 2", days=CHRISTMAS, hours=10),
               game.mail(ALICE, "Proposal: Tart", days=CHRISTMAS, hours=10)]
    assert [answers(events) for events in refused] == [
        [f"Join: {CLOSED}"],
        [f"Leave: {CLOSED}", f"Idle: {CLOSED}", f"Roll DICE6: {CLOSED}"],
        [f"Idle Carol: {CLOSED}",
         "Applied 1: baked it: it is the Seasonal Downtime (24 to 26 December): only a Call for Judgement's prose may be "
         "applied until 27 December (rule Seasonal Downtime); nothing recorded",
         "Enact 2: Proposal 2 may not be Enacted: it is the Seasonal Downtime (24 to 26 December): only Calls "
         "for Judgement are resolved (rule Seasonal Downtime); nothing done"],
        ['VETO 2: it is the Seasonal Downtime (24 to 26 December): VETO (rule "Special Proposal Voting") waits '
         'until 27 December (rule Seasonal Downtime); no Vote cast'],
        ["Proposal: Tart: it is the Seasonal Downtime (24 to 26 December) (rule Seasonal Downtime); no Proposal made"]]
    assert game_state(game) == before
    assert [of(events, "draw") for events in refused] == [[]] * 5
    assert answers(game.mail(ERIN, "Join", days=AFTER)) == ["Join: Erin (erin@blog.test) is a Pactmaker; "
                                                            "Quorum is now 4"]


def test_votes_and_calls_for_judgement_go_on_in_the_downtime():
    game = new_game(FIVE, seraphims=(DAVE,))
    game.mail(ALICE, "Proposal: Pie", days=EVE - 1, hours=23)
    assert answers(game.mail(BOB, "v", "AGAINST 1\nDEFERENTIAL 1", days=CHRISTMAS)) == [
        'AGAINST 1: AGAINST on Proposal 1 "Pie"; now 1 FOR, 1 AGAINST, 0 DEFERENTIAL (Quorum 3)',
        'DEFERENTIAL 1: DEFERENTIAL on Proposal 1 "Pie" (your AGAINST stands: a DEFERENTIAL counts only once a '
        'quorum of the Seraphims shares a Vote); now 1 FOR, 1 AGAINST, 0 DEFERENTIAL (Quorum 3)']
    game.mail(CAROL, "Call for Judgement: Fix", "Give Bob a point.", days=CHRISTMAS, hours=1)
    game.mail(ALICE, "v", "FOR 2", days=CHRISTMAS, hours=2)
    events = game.mail(DAVE, "v", "FOR 2", days=CHRISTMAS, hours=3)
    assert answers(events)[-1] == 'Call for Judgement 2 "Fix": Enacted 3-0 (Quorum 3)'
    assert answers(game.mail(ADMIN, "x", "Applied 2: gave Bob a point", days=CHRISTMAS, hours=4)) == [
        "Applied 2: gave Bob a point: recorded: cfj 2's prose applied by hand (1 such mail so far)"]
    assert game.matter(1)["status"] == "pending"


def test_the_new_dynasty_waits_out_the_downtime_for_its_posts():
    game = victorious_game()
    game.tick(game.config.start.replace(month=12, day=25))
    before = game_state(game)
    events = [game.mail(ALICE, "x", "Pass victory to Bob", days=CHRISTMAS),
              game.mail(ALICE, "Ascension Address: Pirates", days=CHRISTMAS)]
    assert [answers(e) for e in events] == [[f"Pass victory to Bob: {CLOSED}"],
                                             [f"Ascension Address: Pirates: {CLOSED}"]]
    assert game_state(game) == before
