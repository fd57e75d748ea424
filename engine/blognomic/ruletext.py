"""Reading a BlogNomic ruleset (a wiki page as text) into named rules within sections, and the
keyword renaming of an Ascension Address.

A rule's name is a paragraph of one short line with no closing punctuation; the headings
"Core Rules", "Dynastic Rules" and "Appendix" open the sections. Everything before "Core Rules"
is the page's furniture ("Ruleset 149", "Jump to navigation"). Subrules are rules of their own
(the appendix: "Each individually numbered section of the ruleset is a rule").
"""
from __future__ import annotations

import re

from engine.state import Rule, RuleVersion

SECTIONS = {"core rules": "core", "dynastic rules": "dynastic", "appendix": "appendix"}
_PARAGRAPHS = re.compile(r"\n\s*\n")
# edition -> the keywords as the text says them: the player and the head of the dynasty
KEYWORDS = {"149": {"Pactmaker": "Pactmaker", "Seraphim": "Seraphim"},
            "109": {"Pactmaker": "Captain", "Seraphim": "Potentate"}}


def _is_name(paragraph: str) -> bool:
    return ("\n" not in paragraph and len(paragraph) <= 60 and not paragraph.endswith((".", ":", ";", ","))
            and not paragraph.startswith(("•", "“", '"')) and not paragraph[0].isdigit())


def parse_rules(text: str) -> list[Rule]:
    """The rules in order, each with its section and its text (the paragraphs up to the next name)."""
    rules: list[Rule] = []
    section: str | None = None
    for paragraph in (p.strip() for p in _PARAGRAPHS.split(text.replace("\r\n", "\n"))):
        if not paragraph:
            continue
        if paragraph.lower() in SECTIONS:
            section = SECTIONS[paragraph.lower()]
        elif section is None:
            continue
        elif _is_name(paragraph):
            rules.append(new_rule(len(rules) + 1, paragraph, "", section))
        elif rules:
            rule = rules[-1]
            rule.text = f"{rule.text}\n\n{paragraph}" if rule.text else paragraph
            rule.history[0].text = rule.text
    return rules


def new_rule(number: int, name: str, text: str, section: str, by: str | None = None) -> Rule:
    return Rule(number=number, title=name, text=text, section=section,
                history=[RuleVersion(text=text, title=name, by=by)])


def rename(text: str, old: str, new: str) -> str:
    """Replace a keyword as a word, plural and possessive forms included, keeping a lower-case
    first letter lower-case ("Pactmakers" -> "Pilots", "pactmaker" -> "pilot")."""
    def swap(m: re.Match[str]) -> str:
        word = new if m[1][0].isupper() else new[:1].lower() + new[1:]
        return word + m[2]
    return re.sub(rf"\b({re.escape(old)}|{re.escape(old.lower())})(s?)\b", swap, text)
