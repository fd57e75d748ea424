"""What no program can apply: an Admin's mail applying an enacted matter's prose is tied to it."""
from __future__ import annotations

from tests.blognomic.support import ADMIN, ALICE, BOB, CAROL, FIVE, answers, at, new_game, of


def test_an_admins_applied_mail_is_tied_to_the_enacted_matter() -> None:
    game = new_game(FIVE)
    game.mail(ALICE, "Proposal: Cake day", 'Everyone gets a slice on Sunday.\n\nEnact rule "Cake": Cake for all.',
              hours=1)
    assert game.state.matter(1).by_hand  # type: ignore[union-attr]
    assert answers(game.mail(ADMIN, "applied", "Applied 1: too early", hours=2)) == [
        "Applied 1: too early: matter 1 is not an enacted matter with prose to apply by hand; nothing recorded"]
    game.mail(BOB, "votes", "FOR 1", hours=2)
    game.mail(CAROL, "votes", "FOR 1", hours=3)
    game.tick(at(13))
    assert answers(game.mail(BOB, "applied", "Applied 1: I did it", hours=14)) == [
        "Applied 1: I did it: only the Admins may do that (rule Votable Matters)"]
    events = game.mail(ADMIN, "Re: Proposal: Cake day", "Applied 1: slices handed out, Sunday 11 January", hours=15)
    assert of(events, "applied") == [{"number": 1, "by": ADMIN, "note": "slices handed out, Sunday 11 January"}]
    assert answers(events) == ["Applied 1: slices handed out, Sunday 11 January: recorded: proposal 1's prose "
                               "applied by hand (1 such mail so far)"]
    [applied] = game.state.matter(1).applied  # type: ignore[union-attr]
    assert (applied.by, applied.at, applied.note) == (ADMIN, at(15), "slices handed out, Sunday 11 January")
