"""The one list of rulesets (engine/ruleset.RULESETS): every listed ruleset has every part, the
import contracts that follow from the list (tests/ruleset_contracts.py) hold its packages apart,
and a ruleset kept in the tests (tests/skeleton/), listed by one line, plays a mail end to end
(docs/architecture.md, "Adding a ruleset")."""
from __future__ import annotations

import tomllib
from importlib import resources
from importlib.util import find_spec
from pathlib import Path

import pytest
from grimp import ImportGraph

from engine import ruleset as rulesets
from engine.ruleset import Listed, event_models, listed, names, ruleset_for
from mailer.rulesets import mail_for
from nomic.website.rulesets import Guide, SiteParts, site_for
from storage.config import Config, default_text
from storage.settings import model_for
from tests import ruleset_contracts
from tests.cli.ruleset_play import RulesetPlay, said
from tests.skeleton import SKELETON

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def skeleton(monkeypatch: pytest.MonkeyPatch) -> Listed:
    """Counting Nomic listed, for one test: the one line a ruleset costs."""
    monkeypatch.setattr(rulesets, "RULESETS", (*rulesets.RULESETS, SKELETON))
    return SKELETON


# -- every part -------------------------------------------------------------------------------

def missing_parts(name: str) -> list[str]:
    """What ruleset ``name`` lacks of the parts a ruleset needs, each said with where it belongs."""
    entry, lacks = listed(name), []
    for which, member in (("engine", "RULESET"), ("mail", "MAIL"), ("site", "SITE"), ("settings", "Settings")):
        module = entry.module(which)
        if find_spec(module) is None or not hasattr(rulesets.part(name, which), member):
            lacks.append(f"{which}: {module} with {member}")
    if not lacks:
        lacks += _misfits(entry)
    files = resources.files(entry.files)
    if not files.joinpath(f"defaults/{name}.toml").is_file():
        lacks.append(f"defaults: {entry.files}/defaults/{name}.toml")
    lacks += [f"rules text: {entry.files}/rulesets/{file}" for file in entry.texts.values()
              if not files.joinpath(f"rulesets/{file}").is_file()]
    return lacks


def _misfits(entry: Listed) -> list[str]:
    """The parts that are there but are not what the machine reads."""
    name, lacks = entry.name, []
    if ruleset_for(name).name != name:
        lacks.append(f"engine: {entry.module('engine')}'s RULESET.name is not {name!r}")
    if find_spec(f"{entry.module('engine')}.events") is None:
        lacks.append(f"engine: {entry.module('engine')}.events with EVENTS")
    else:
        kinds, mail = set(event_models(name)), mail_for(name)
        if not {*mail.composers, mail.day_event, *mail.about} <= kinds:
            lacks.append(f"mail: {entry.module('mail')} names kinds no event has: "
                         f"{sorted({*mail.composers, mail.day_event, *mail.about} - kinds)}")
    site = site_for(name)
    if not isinstance(site, SiteParts) or not isinstance(site.guide, Guide) or not site.guide.name:
        lacks.append(f"guide: {entry.module('site')}'s SITE.guide, a Guide with a name")
    elif site.guide.variables and find_spec(f"{entry.module('engine')}.variables") is None:
        lacks.append(f"guide: it has variables, so {entry.module('engine')}.variables")
    return lacks


@pytest.mark.parametrize("name", names())
def test_every_listed_ruleset_has_every_part(name: str, tmp_path: Path) -> None:
    assert missing_parts(name) == []
    settings = Config.read(tmp_path, default_text(name)).settings  # its defaults fit its model...
    assert type(settings) is model_for(name) and settings.game.ruleset == name
    assert Config.read(tmp_path, default_text(name)).rules_text()  # ...and name a text it has


def test_a_ruleset_that_lacks_a_part_is_named_with_what_it_lacks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rulesets, "RULESETS", (*rulesets.RULESETS, Listed("agora", {"": "agora.txt"})))
    assert missing_parts("agora") == [
        "engine: engine.agora with RULESET", "mail: mailer.agora with MAIL", "site: nomic.website.agora with SITE",
        "settings: storage.settings.agora with Settings", "defaults: storage/defaults/agora.toml",
        "rules text: storage/rulesets/agora.txt"]


def test_the_skeleton_has_every_part(skeleton: Listed) -> None:
    assert missing_parts(skeleton.name) == []


# -- the import contracts follow from the list ------------------------------------------------

def graph(*imports: str) -> ImportGraph:
    """The generic engine and every listed ruleset's parts, with these imports ("a -> b") among them."""
    made = ImportGraph()
    for module in ["engine", "engine.ruleset", "engine.state", "mailer", "mailer.outgoing",
                   *(entry.module(which) for entry in rulesets.RULESETS for which in ruleset_contracts.PARTS)]:
        made.add_module(module)
    for line in imports:
        importer, imported = line.split(" -> ")
        made.add_import(importer=importer, imported=imported, line_number=1, line_contents=f"import {imported}")
    return made


def test_a_listed_ruleset_that_imports_another_breaks_the_plug_in_contract() -> None:
    allowed = ["mailer.suber -> engine.suber", "mailer.suber -> engine.state", "engine.suber -> engine.state",
               "storage.settings.bnomic -> engine.ruleset"]
    assert ruleset_contracts.plug_in_breaches(graph(*allowed), rulesets.RULESETS) == []
    assert ruleset_contracts.plug_in_breaches(graph(*allowed, "nomic.website.suber -> storage.settings.imperial"),
                                              rulesets.RULESETS) == ["nomic.website.suber -> storage.settings.imperial"]


def test_a_ruleset_added_to_the_list_is_guarded_with_no_other_edit(monkeypatch: pytest.MonkeyPatch) -> None:
    agora = Listed("agora", {"": "agora.txt"})
    breach = graph("engine.agora -> engine.state", "mailer.agora -> engine.bnomic", "engine.state -> engine.agora")
    assert ruleset_contracts.plug_in_breaches(breach, rulesets.RULESETS) == []  # not yet listed
    monkeypatch.setattr(rulesets, "RULESETS", (*rulesets.RULESETS, agora))
    assert ruleset_contracts.plug_in_breaches(breach, rulesets.RULESETS) == ["mailer.agora -> engine.bnomic"]
    assert ruleset_contracts.generic_breaches(breach, rulesets.RULESETS) == ["engine.state -> engine.agora"]


def test_the_generic_engine_that_imports_a_ruleset_even_through_another_module_breaks_its_contract() -> None:
    assert ruleset_contracts.generic_breaches(graph("engine.imperial -> engine.state"), rulesets.RULESETS) == []
    assert ruleset_contracts.generic_breaches(graph("engine.ruleset -> engine.state", "engine.state -> engine.blognomic"),
                                              rulesets.RULESETS) == [
        "engine.ruleset -> engine.state -> engine.blognomic", "engine.state -> engine.blognomic"]


def test_pyproject_runs_the_contracts_of_the_list() -> None:
    """lint-imports (tests/test_layers.py) runs them: pyproject names the types and a contract of each."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    assert config["contract_types"] == ["ruleset_plug_ins: tests.ruleset_contracts.RulesetsArePlugIns",
                                        "generic_engine: tests.ruleset_contracts.GenericEngine"]
    assert sorted(c["type"] for c in config["contracts"] if c["type"] in ("ruleset_plug_ins", "generic_engine")) == [
        "generic_engine", "ruleset_plug_ins"]


# -- a ruleset listed by one line plays ---------------------------------------------------------

def test_a_ruleset_listed_by_one_line_plays_a_mail_end_to_end(skeleton: Listed, tmp_path: Path,
                                                              new_database_url) -> None:
    play = RulesetPlay(tmp_path / "count", "skeleton", new_database_url(), {"skeleton": {"step": "5"}})
    assert play.state()["count"] == 0
    mail = tmp_path / "count-m1@test.eml"
    assert play.send("alice@count.test", "Subscribe", "Count") == (
        f"{mail}: journal entry 1: alice@count.test is subscribed to players@count.test: every post; "
        "counted: the count is 5\n")
    said(play, "alice@count.test", '  "Subscribe": alice@count.test is subscribed to players@count.test: every post',
         '  "Count": counted: the count is 5')
    assert [(m["kind"], m["to"], m["subject"]) for m in play.outbox()] == [
        ("answer", ["alice@count.test"], "Re: Subscribe"),
        ("announcement", ["alice@count.test"], "[Counting Nomic] the count is 5")]  # its mail part's
    assert play.outbox()[1]["text"].endswith("\n\nalice@count.test counted; the count is 5.\n")
    assert play.state()["count"] == 5
    play.cli("build", "--out", str(tmp_path / "public"))  # its site part: the shared pages
    assert "Add the step to the count." in (tmp_path / "public" / "how-to-play.html").read_text()
    play.verify()
