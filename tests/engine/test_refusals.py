"""Issue 28: every refusal names the rule that grounds it, and for an office the office.

Every refusal the engine answers with is built as an ``engine.refusal.Refusal`` (``Context.say``
cannot refuse), so reading every construction in ``engine/`` reads every refusal there is: each
cites a rule, or names one of the few grounds on which no rule is at stake. The rule-less ones
are counted, so a new refusal without a rule fails here until it is looked at. A few answers of
each ruleset are pinned as exact text.
"""
from __future__ import annotations

import ast
import re
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from engine import machine, ruleset
from engine.context import EngineConfig
from engine.dispatch import office_refusal
from engine.inputs import Message
from engine.refusal import RULELESS, Refusal
from mailer.grammar import Grammar

ENGINE = Path(__file__).parents[2] / "engine"
RULESETS = Path(__file__).parents[2] / "storage" / "rulesets"
START = datetime(2026, 1, 5, tzinfo=UTC)

# The refusals no rule grounds, by their grounds (engine/refusal.RULELESS says why each has none).
# A new one changes a count: look at it, and cite its rule if it has one.
RULE_LESS = {"no such": 40, "already": 16, "form": 3, "house": 4, "service": 8}
# What the words of each rule-less refusal must show of its grounds.
SHOWS = {"no such": re.compile(r"\bno\b|\bnot\b"), "already": re.compile(r"already|\bnot (subscribed|away)\b")}


def _constructions() -> list[tuple[Path, ast.Call]]:
    """Every ``Refusal(...)`` written in the engine."""
    found = []
    for path in sorted(ENGINE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Refusal":
                found.append((path, node))
    return found


def _where(path: Path, node: ast.AST) -> str:
    return f"{path.relative_to(ENGINE.parent)}:{node.lineno}"


def _grounds(node: ast.Call) -> tuple[ast.expr | None, ast.expr | None]:
    """The construction's rule and its rule-less grounds, as written (None: not given)."""
    keywords = {k.arg: k.value for k in node.keywords}
    rule = node.args[1] if len(node.args) > 1 else keywords.get("rule")
    return rule, keywords.get("ruleless")


def test_the_engine_builds_every_refusal_as_a_refusal() -> None:
    """No answer line is refused but through ``Context.refuse``: nothing else emits an ``ok=False``."""
    assert len(_constructions()) > 200
    bypass = [_where(path, node) for path in sorted(ENGINE.rglob("*.py")) if path.name != "context.py"
              for node in ast.walk(ast.parse(path.read_text()))
              if isinstance(node, ast.Call) and ast.unparse(node.func).split(".")[-1] in ("say", "Outcome")
              and any(k.arg == "ok" for k in node.keywords)]
    assert bypass == []


def test_every_refusal_cites_its_rule_or_names_why_none_applies() -> None:
    wrong = []
    for path, node in _constructions():
        rule, ruleless = _grounds(node)
        if (rule is None) == (ruleless is None):
            wrong.append(f"{_where(path, node)}: a rule or a reason for none, not both or neither")
        elif isinstance(rule, ast.Constant) and not rule.value:
            wrong.append(f"{_where(path, node)}: an empty rule")
        elif ruleless is not None and not (isinstance(ruleless, ast.Constant) and ruleless.value in RULELESS):
            wrong.append(f"{_where(path, node)}: grounds not in engine.refusal.RULELESS")
    assert wrong == []


def test_the_refusals_without_a_rule_are_few_counted_and_say_their_grounds() -> None:
    counted: Counter[str] = Counter()
    unsaid = []
    for path, node in _constructions():
        _, ruleless = _grounds(node)
        if isinstance(ruleless, ast.Constant):
            counted[ruleless.value] += 1
            words = ast.unparse(node.args[0])
            if ruleless.value in SHOWS and not SHOWS[ruleless.value].search(words):
                unsaid.append(f"{_where(path, node)}: {words}")
    assert dict(counted) == RULE_LESS
    assert unsaid == []
    assert len(RULELESS) <= 5 and all(RULELESS.values())


def test_every_office_command_cites_the_rule_that_gives_the_office() -> None:
    for name in ruleset.names():
        for decl in ruleset.ruleset_for(name).commands:
            if decl.offices:
                refusal = office_refusal(decl, decl.help[0].line if decl.help else decl.kind)
                assert refusal.rule, (name, decl.kind)
                assert re.fullmatch(r"only the \w+( or the \w+)* may do that \(rules? .+\)", refusal.text("")), \
                    (name, decl.kind)


@pytest.mark.parametrize(("refusal", "text"), [
    (Refusal("you cannot tag yourself", "22"), "you cannot tag yourself (rule 22); nothing done"),
    (Refusal("line 2 failed", "2-8, 2-9"), "line 2 failed (rules 2-8 and 2-9); nothing done"),
    (Refusal("rule 10 is repealed: game days no longer end", "10"), "rule 10 is repealed: game days no longer end; "
     "nothing done"),
    (Refusal('only a Seraphim may VETO (rule "Special Proposal Voting")', "Special Proposal Voting"),
     'only a Seraphim may VETO (rule "Special Proposal Voting"); nothing done'),
    (Refusal("there is no Proposal 9", ruleless="no such"), "there is no Proposal 9; nothing done"),
    (Refusal("rule 10 is in force", "1"), "rule 10 is in force (rule 1); nothing done"),
    (Refusal("the Clock (rule 2-10)", "2-1"), "the Clock (rule 2-10) (rule 2-1); nothing done"),
])
def test_the_answer_names_the_rule_once(refusal: Refusal, text: str) -> None:
    assert refusal.text() == text


@pytest.mark.parametrize("grounds", [{}, {"rule": "7", "ruleless": "no such"}, {"rule": ""}])
def test_a_refusal_has_a_rule_or_a_reason_for_none(grounds: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        Refusal("no", **grounds)


def _refused(name: str, config: EngineConfig, rules: str, mails: list[tuple[str, str, str]]) -> list[str]:
    """The refusals answered to the last of ``mails`` (sender, subject, body), in a new game."""
    state = machine.new_game(config, (RULESETS / rules).read_text())
    grammar = Grammar(ruleset.ruleset_for(name).commands)
    events: list[Any] = []
    for n, (sender, subject, body) in enumerate(mails, 1):
        reading = grammar.read(subject, body)
        events = machine.apply(state, Message(
            at=START + timedelta(minutes=n), message_id=f"m{n}@test", sender=sender, authenticated=True,
            subject=subject, commands=reading.commands, not_understood=reading.not_understood), config)
    return [f'{e.data["command"]}: {e.data["result"]}' for e in events if e.kind == "outcome" and not e.data["ok"]]


def test_imperial_refusals_cite_imperial_numbering() -> None:
    tie, alice, bob = "tie@imperial.test", "alice@wonder.land", "bob@builder.org"
    config = EngineConfig(start=START, seed="s", address="ths@imperial.test", list_address="list@imperial.test",
                          offices={"emperor": (tie,), "scribe": ("ths@imperial.test",)})
    assert _refused("imperial", config, "imperial-nomic.txt", [
        (tie, "Proclamation: Renumber", "From submission 0\nRepeal rule 20")]) == [
        "Proclamation: Renumber: Proclamation refused: submissions are numbered from 1 (rule 7); nothing changed"]
    assert _refused("imperial", config, "imperial-nomic.txt", [
        (alice, "Point of Order: hello", "I join."), (bob, "Point of Order: hello", "I join too."),
        (bob, "tag", "Tag alice")]) == [f"Tag alice: only It may tag, and It is {alice} (rule 22); nothing done"]


@pytest.mark.parametrize(("edition", "texts"), [
    ("149", ["Fail 1: only the Admins may do that (rule Enacting and Failing)",
             "FOR 1: only a Pactmaker may vote (rule Votes); no Vote cast"]),
    ("109", ["Fail 1: only the Admins may do that (rule Resolution of Proposals)",
             "FOR 1: only a Captain may vote (rule Votable Matters); no Vote cast"]),
])
def test_blognomic_refusals_name_the_office_and_the_editions_rule(edition: str, texts: list[str]) -> None:
    """Each edition's own title of the rule: 109 has no "Enacting and Failing" nor "Votes"."""
    admin, alice, stranger = "admin@blog.test", "alice@blog.test", "zed@blog.test"
    config = EngineConfig(start=START, seed="s", address="ths@blog.test", list_address="list@blog.test",
                          offices={"admins": (admin,), "seraphims": ()}, ruleset="blognomic", edition=edition,
                          options={"auto_resolve": False, "admission": "auto", "daily_mail": False,
                                   "max_pending_cfjs": 2, "max_pending_dovs": 1})
    rules = f"blognomic-{edition}.txt"
    mails = [(alice, "Join", ""), (alice, "Proposal: Ponies", "Ponies for all."), (alice, "resolve", "Fail 1"),
             (stranger, "vote", "FOR 1")]
    assert _refused("blognomic", config, rules, mails[:3]) == texts[:1]
    assert _refused("blognomic", config, rules, mails[:2] + mails[3:]) == texts[1:]


def test_a_suber_refusal_cites_the_suber_rule() -> None:
    alice, bob = "alice@suber.test", "bob@suber.test"
    config = EngineConfig(start=START, seed="s", address="ths@suber.test", list_address="list@suber.test",
                          ruleset="suber", options={
                              "players": [f"Alice Adams <{alice}>", f"Bob Brown <{bob}>"], "call_for_action": False,
                              "daily_mail": False, "vote_days": 0, "rule_213_from_circuit": 1})
    assert _refused("suber", config, "suber-nomic-2005.txt", [(bob, "Proposal: Mine", "Repeal rule 210")]) == [
        f"Proposal: Mine: refused, no number given: it is {alice}'s turn; only the player on turn may propose "
        "(rule 201)"]


def test_a_b_nomic_refusal_cites_the_b_nomic_rule() -> None:
    config = EngineConfig(start=START, seed="s", address="ths@b.test", list_address="list@b.test", ruleset="bnomic",
                          options={"players": ["Alice <alice@b.test>"], "nweek": 1, "nday": 1, "clock_on": False,
                                   "number_proposals": "auto", "daily_mail": False})
    assert _refused("bnomic", config, "b-nomic.txt", [("zed@b.test", "hello", "Join as alice\nTake the Registrar")]) \
        == ["Join as alice: the name alice is taken (rule 1-4); nothing done",
            "Take the Registrar: only Players may do that: send 'Join as NAME' to play (rule 1-4); nothing done"]
