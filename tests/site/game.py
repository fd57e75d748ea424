"""The test game for the site tests: a few days of play through the real CLI.

It uses only mail commands of the contract, so it runs whatever the rules
engineers have automated so far; a command that is not yet automated simply
changes nothing.
"""
from __future__ import annotations

from tests.support import EMPEROR, LIST_ADDRESS, SCRIBE, Play, at

ALICE, BOB, CAROL, DAVE = "alice@wonder.land", "bob@builder.org", "carol@singer.net", "dave@example.org"

CAKE_TEXT = """Everyone gets *cake* on Fridays.

- chocolate
- lemon

See [the recipe](https://example.org/cake) for details.
Two slices each."""


def play_days(play: Play) -> None:
    """Four game days: proposals, judgments, a Point of Order, a rewrite, a Proclamation, list threads."""
    play.send(ALICE, "Proposal: Free *cake*", CAKE_TEXT, at=at(1, 1), name="Alice")
    play.send(BOB, "Proposal: Longer days", "Days should last 36 hours.", at=at(1, 2), name="Bob")
    play.send(CAROL, "Point of Order: Bob's score", "Score of bob@builder.org should be 5",
              at=at(1, 3), name="Carol")
    play.send(DAVE, "Proposal: Float free", "Let me float.\nBecome FF", at=at(1, 4), name="Dave")
    play.judge("Accept 1\nReject 2\nReject 3\nAccept 4", at=at(1, 6))
    play.send(ALICE, "Cake talk", "Who likes lemon?", to=LIST_ADDRESS, at=at(1, 7),
              message_id="cake-talk@test")
    play.send(BOB, "Re: Cake talk", "> Who likes lemon?\nI do.", to=LIST_ADDRESS, at=at(1, 8),
              message_id="cake-reply@test", headers={"In-Reply-To": "<cake-talk@test>"})
    play.tick(at(2, 0))
    play.send(ALICE, "Proposal: Shave it", "A finer plank.\nShave section 2", at=at(2, 1), name="Alice")
    play.send(BOB, "Proposal: Brighter bells", "The bells ring louder.", at=at(2, 2), name="Bob")
    play.send(SCRIBE, "Rewrite", "Rewrite 6:\nThe bells of the Bell Tower ring louder.", at=at(2, 3))
    play.send(EMPEROR, "Proclamation: Titles matter",
              "Amend rule 8: Titular Consistency\nProposals without a title or without a text will be ignored.",
              at=at(2, 4))
    play.judge("Accept 5", at=at(2, 5))
    play.send(CAROL, "Weather", "Cold today.", to=LIST_ADDRESS, at=at(2, 6), message_id="weather@test")
    play.tick(at(3, 0))
    play.judge("Accept 6", at=at(3, 2))
    play.send(CAROL, "Proposal: Quiet please", "No bells on Sundays.", at=at(3, 3), name="Carol")
    play.tick(at(4, 0))
