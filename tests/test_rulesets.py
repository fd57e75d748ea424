"""The one list of rulesets (engine/ruleset.RULESETS): every listed ruleset has every part, its
packages are held apart by pyproject.toml's import contracts, and a ruleset kept in the tests
(tests/skeleton/), listed by one line, plays a mail end to end (docs/architecture.md, "Adding a ruleset")."""
from __future__ import annotations

import json
import pkgutil
import tomllib
from importlib import resources
from importlib.util import find_spec
from pathlib import Path

import pytest

import engine
from engine import ruleset as rulesets
from engine.ruleset import Listed, event_models, listed, names, ruleset_for
from mailer.rulesets import mail_for
from nomic.website.rulesets import Guide, SiteParts, site_for
from storage.config import Config, default_text
from storage.settings import model_for
from tests.cli.ruleset_play import RulesetPlay, said
from tests.skeleton import SKELETON

ROOT = Path(__file__).resolve().parent.parent
PLUGGED = ("engine", "mail", "site", "settings")  # the parts whose modules the contracts hold apart


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

def contracts() -> list[dict]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]


def plugged(entry: Listed) -> list[str]:
    return [entry.module(which) for which in PLUGGED]


def others(entry: Listed) -> list[str]:
    return [m for other in rulesets.RULESETS if other.name != entry.name for m in plugged(other)]


def plug_in_contract(entry: Listed) -> str:
    """The contract that keeps ruleset ``entry``'s packages from importing any other ruleset's, as TOML."""
    return (f'[[tool.importlinter.contracts]]\nname = "Rulesets are plug-ins: the {entry.name} packages import '
            f'no other ruleset\'s"\ntype = "forbidden"\nsource_modules = {json.dumps(plugged(entry))}\n'
            f"forbidden_modules = {json.dumps(others(entry))}\nallow_indirect_imports = true\n")


def plug_in_problem(name: str) -> str:
    """What pyproject.toml lacks to hold ruleset ``name`` apart from every other listed ruleset
    (empty: nothing): the whole contract, or the modules its forbidden_modules lack."""
    entry = listed(name)
    own = [c for c in contracts() if c["type"] == "forbidden" and set(c["source_modules"]) == set(plugged(entry))]
    if not own:
        return f"pyproject.toml does not hold {name} apart from the other rulesets; add:\n\n{plug_in_contract(entry)}"
    lacking = [m for m in others(entry) if m not in own[0]["forbidden_modules"]]
    return f"add {json.dumps(lacking)} to the forbidden_modules of {own[0]['name']!r} in pyproject.toml" if lacking else ""


def core_problem() -> str:
    """What the contract on the generic engine lacks (empty: nothing): a listed ruleset it does
    not forbid, or a module of the generic engine it does not hold to it."""
    [core] = [c for c in contracts() if "engine.ruleset" in c.get("source_modules", ())]
    lacking = sorted({f"engine.{n}" for n in names()} - set(core["forbidden_modules"]))
    unguarded = sorted(generic_engine() - set(core["source_modules"]))
    return (f"add {lacking} to the forbidden_modules of {core['name']!r} in pyproject.toml" if lacking else
            f"add {unguarded} to the source_modules of {core['name']!r} in pyproject.toml" if unguarded else "")


def generic_engine() -> set[str]:
    """Every module of the engine but the rulesets' packages."""
    return {f"engine.{m.name}" for m in pkgutil.iter_modules(engine.__path__)} - {f"engine.{n}" for n in names()}


@pytest.mark.parametrize("name", names())
def test_each_listed_ruleset_is_a_plug_in_by_contract(name: str) -> None:
    assert plug_in_problem(name) == ""


def test_the_generic_engine_is_forbidden_every_listed_ruleset() -> None:
    assert core_problem() == ""


def test_a_new_ruleset_is_told_the_contract_to_add(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rulesets, "RULESETS", (*rulesets.RULESETS, Listed("agora", {"": "agora.txt"})))
    assert plug_in_problem("agora") == (
        'pyproject.toml does not hold agora apart from the other rulesets; add:\n\n[[tool.importlinter.contracts]]\n'
        'name = "Rulesets are plug-ins: the agora packages import no other ruleset\'s"\ntype = "forbidden"\n'
        'source_modules = ["engine.agora", "mailer.agora", "nomic.website.agora", "storage.settings.agora"]\n'
        'forbidden_modules = [' + ", ".join(f'"{layer}.{r}"' for r in ("imperial", "blognomic", "suber", "bnomic")
                                            for layer in ("engine", "mailer", "nomic.website", "storage.settings"))
        + ']\nallow_indirect_imports = true\n')
    assert plug_in_problem("suber") == (
        'add ["engine.agora", "mailer.agora", "nomic.website.agora", "storage.settings.agora"] to the '
        "forbidden_modules of \"Rulesets are plug-ins: the suber packages import no other ruleset's\" in pyproject.toml")
    assert core_problem() == ("add ['engine.agora'] to the forbidden_modules of 'The generic core of the engine imports "
                              "no ruleset (engine/ruleset.py loads them by name)' in pyproject.toml")


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
