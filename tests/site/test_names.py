"""Who players are on the site: names in any script keep their letters in page names, and the
office-holders stand in the standings by their office (issue 31)."""
from __future__ import annotations

from tests.site.checks import parse, rows
from tests.support import Play, at


def test_player_pages_keep_the_letters_of_any_name_and_offices_stand_as_tie_and_ths(tmp_path):
    play = Play(tmp_path / "game")
    play.send("zoe@x.test", "Proposal: Skål", "Toast.", at=at(1, 1), name="Zoë Ærø")
    play.send("wei@x.test", "Proposal: Tea", "Tea.", at=at(1, 2), name="张伟")
    play.send("aero@x.test", "Proposal: Air", "Air.", at=at(1, 3), name="Zoe Aero")
    play.send("twin@x.test", "Proposal: Toast", "Toast.", at=at(1, 4), name="ZOË ÆRØ")
    out = tmp_path / "public"
    play.cli("build", "--out", str(out))
    links = {a.text: a.get("href") for a in parse(out / "players" / "index.html").iter("a")
             if (a.get("href") or "").endswith(".html") and "/" not in (a.get("href") or "/")}
    assert {name: links.get(name) for name in ("Zoë Ærø", "张伟", "Zoe Aero", "ZOË ÆRØ (2)", "TIE", "THS")} == {
        "Zoë Ærø": "zoë-ærø.html", "张伟": "张伟.html", "Zoe Aero": "zoe-aero.html",
        "ZOË ÆRØ (2)": "zoë-ærø-2.html", "TIE": "tie.html", "THS": "ths.html"}
    assert all((out / "players" / href).exists() for href in links.values())
    standings = [r[1] for r in rows(parse(out / "scores.html").find(".//table[@class='standings']"))]
    assert sorted(standings) == sorted(["TIE", "THS", "Zoë Ærø", "张伟", "Zoe Aero", "ZOË ÆRØ (2)"])
