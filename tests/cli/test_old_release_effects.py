"""A game written before events carried their cause (tests/fixtures/old-release) is folded again
once by ``nomic upgrade`` (migration 0005 asks for it), and its site shows each submission's effects as
the previous release's site did: here, read off the causes the refold stored."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from sqlmodel import Session, select

import storage
from storage.config import Config
from storage.tables import EventRow, Meta
from tests.cli.test_old_release import FIXTURE
from tests.site.checks import parse
from tests.support import Play

pytestmark = pytest.mark.sqlite_only  # the fixture is a SQLite database

# Each submission page's "What it did", as the previous release's site showed it.
EFFECTS = {
    1: ["Alice Liddell joined the game with Profile 0101010110110110 (21942)", "Alice Liddell submitted Proposal 1",
        "Alice Liddell +3 points, now 3: Proposal 1 accepted", "submission 1 judged: accepted"],
    2: ["Bob joined the game with Profile 1011001101011101 (45917)", "Bob submitted Proposal 2",
        "Bob -1 points, now -1: Proposal 2 rejected", "temperature 303 K → 298 K: Proposal 2 rejected",
        "dice day:1:retool-flip:2: 2 from 1–16",
        "Profile of Bob 1011001101011101 → 1111001101011101: section 2 flipped at random (rule 14)",
        "submission 2 judged: rejected"],
    3: ["Carol joined the game with Profile 1010110111010110 (44502)", "Carol submitted Point of Order 3",
        "submission 3 judged: rejected"],
    4: ["Alice Liddell submitted Proposal 4", "amended: number: 4", "Alice Liddell +4 points, now 7: Proposal 4 accepted",
        "submission 4 judged: accepted"],
    5: ["Bob submitted Proposal 5", "temperature 288 K → 289 K: Proposal 5 accepted", "submission 5 judged: accepted"],
    6: ["Carol submitted Proposal 6", "temperature 289 K → 284 K: Proposal 6 ignored",
        "submission 6 judged: ignored (the Emperor: it says nothing)"],
    7: ["Carol submitted Proposal 7", "Carol +3 points, now 8: Proposal 7 accepted",
        "Profile of Carol 1010110111010110 → 1000110111010110: section 3 shaved (rule 14)",
        "submission 7 judged: accepted"],
}


def effects(page: Path) -> list[str]:
    """The lines of a submission page's "What it did", without their times."""
    items = parse(page).findall(".//ol[@class='effects']/li")
    return [" ".join("".join(li.itertext()).replace(li.find("span").text or "", "", 1).split()) for li in items]


def test_an_old_game_is_refolded_once_and_its_site_shows_the_same_effects(tmp_path: Path) -> None:
    game = tmp_path / "game"
    game.mkdir()
    for name in ("game.toml", "game.db"):
        shutil.copy(FIXTURE / name, game / name)
    play = Play.existing(game)
    play.cli("upgrade")
    play.cli("build", "--out", str(tmp_path / "site"))
    assert {n: effects(tmp_path / "site" / "submissions" / f"{n}.html") for n in EFFECTS} == EFFECTS
    with Session(storage.connect(Config.load(game).database_url)) as s:
        assert s.get(Meta, storage.REFOLD) is None  # refolded once, by the upgrade
        judged = s.exec(select(EventRow).where(EventRow.kind == "judged")).all()
    assert [(json.loads(e.data)["number"], e.cause_what, e.cause_number) for e in judged] == [
        (n, "submission", n) for n in (1, 2, 3, 4, 5, 6, 7)]
    play.verify()
