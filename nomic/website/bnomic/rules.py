"""The rules by section (1-8), and a page per rule with every version it has had.

A rule's page is named by its number as the game has it now (``rules/2-5.html``); a rule without a
number by its place in the game's list (``rules/r54.html``): a renumbered rule's page moves, as its
links on the index do."""
from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from typing import Any

from engine.bnomic import mechanics
from engine.bnomic.state import BNomicState, BRule
from nomic.website.bnomic.model import BNomicModel
from nomic.website.pages import Page
from nomic.website.text import when, word_diff


def slugs(rules: list[BRule]) -> list[str]:
    """Each rule's page name; a number two rules share (one repealed) gets ``-2`` on the second."""
    seen: dict[str, int] = {}
    out = []
    for r in rules:
        base = r.label if r.label is not None else f"r{r.number}"
        seen[base] = seen.get(base, 0) + 1
        out.append(base if seen[base] == 1 else f"{base}-{seen[base]}")
    return out


def _row(m: BNomicModel, slug: str, r: BRule, sections: dict[str | None, str]) -> dict[str, Any]:
    """A rule as the index shows it, with what it runs and its parameters now (issue 28)."""
    now = mechanics.values(m.state)
    return {"slug": slug, "label": r.label, "name": r.title, "text": m.text.markdown(r.text), "repealed": r.repealed,
            "amended_by": r.amended_by, "section": r.section, "section_name": sections.get(r.section),
            "versions": len(r.history), "mechanics": mechanics.mechanics_of(r),
            "parameters": [{"name": p.name, "value": now[p.name], "wording": p.wording} for p in
                           mechanics.DECLARED.parameters if not r.repealed and p.rule == mechanics.key(r)]}


def _sections(st: BNomicState) -> dict[str | None, str]:
    return {s.number: s.name for s in st.sections}


def rules(m: BNomicModel) -> Iterator[Page]:
    st = m.state
    names = slugs(st.rules)
    sections = _sections(st)
    dumps = [r.model_dump_json() for r in st.rules]

    def index() -> dict[str, Any]:
        rows = [_row(m, s, r, sections) for s, r in zip(names, st.rules)]
        return {"sections": [{"number": s.number, "name": s.name, "rules": [x for x in rows if x["section"] == s.number]}
                             for s in st.sections],
                "loose": [x for x in rows if x["section"] not in sections]}
    params = sorted(st.parameters.items())
    yield Page("rules/index.html", "rules.html", index,
               key=(dumps, [s.model_dump_json() for s in st.sections], params))
    for slug, r, dump in zip(names, st.rules, dumps):
        yield Page(f"rules/{slug}.html", "rule.html", partial(_rule, m, slug, r, sections),
                   key=(dump, sections.get(r.section), params))


def _rule(m: BNomicModel, slug: str, r: BRule, sections: dict[str | None, str]) -> dict[str, Any]:
    versions = []
    for i, v in enumerate(r.history, start=1):
        prev = r.history[i - 2] if i > 1 else None
        versions.append({"n": i, "text": m.text.markdown(v.text), "by": v.by or "", "at": when(v.at),
                         "title": v.title, "diff": word_diff(prev.text, v.text) if prev else None,
                         "current": i == len(r.history)})
    return {**_row(m, slug, r, sections), "history": list(reversed(versions))}
