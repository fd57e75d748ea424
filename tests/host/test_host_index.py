"""The host's list of games at ``/``: styled like the game sites, each game with its ruleset, day,
players, last move and how to join (issue 31); read from the summary each game publishes."""
from __future__ import annotations

from datetime import datetime, timezone

from nomic import summary
from nomic.game import Game
from nomic.host_index import listing, page
from tests.site.checks import parse, rows
from tests.support import Play, at


def test_the_list_of_games_says_how_each_is_played_and_joined(tmp_path):
    play = Play(tmp_path / "league")
    play.send("alice@wonder.land", "Proposal: Cake", "Cake.", at=at(1, 3), name="Alice")
    play.tick(at(1, 5))  # a clock step is no move
    game = Game(play.dir)
    summary.publish(play.dir, game.state(), summary.last_mail(game.db))  # as the daemon does with each site build
    now = datetime(2026, 1, 5, 6, tzinfo=timezone.utc)
    listed = [listing("league", "Test Nomic", "imperial", summary.read(play.dir), now, "ths@imperial.test"),
              listing("blog", "Blog Nomic", "blognomic", None, now, "ths@blog.test"),
              listing("bee", "Bee Nomic", "bnomic", None, now, "ths@bee.test")]
    (tmp_path / "index.html").write_text(page(listed))
    doc = parse(tmp_path / "index.html")
    assert rows(doc.find(".//table[@class='games']")) == [
        ("Test Nomic", "imperial", "1", "3", "2026-01-05 03:00 UTC",
         "mail ths@imperial.test “Proposal: TITLE”: your first one makes you a player (how to play)"),
        ("Blog Nomic", "blognomic", "", "", "", "mail ths@blog.test “Join” (how to play)"),
        ("Bee Nomic", "bnomic", "", "", "", "mail ths@bee.test “Join”, “Join as NAME” (how to play)")]
    hrefs = [a.get("href") for a in doc.iter("a")]
    assert hrefs == ["./", "league/", "mailto:ths@imperial.test?subject=Proposal%3A%20TITLE", "league/how-to-play.html",
                     "blog/", "mailto:ths@blog.test?subject=Join", "blog/how-to-play.html",
                     "bee/", "mailto:ths@bee.test?subject=Join&body=Join%20as%20NAME", "bee/how-to-play.html"]
    style = doc.find(".//head/style")
    assert style is not None and "header.top" in style.text  # the game sites' own stylesheet
