"""Jinja: environments for the site and for outgoing mail, each owned by whoever made it.

A ruleset's own templates live in ``templates/<ruleset>/`` and are looked up before the shared
ones, so ``mail/daily.txt`` means BlogNomic's daily mail in a BlogNomic game. Nothing here is
cached for the process: compiled templates live in the environment, and the environment in the
object its caller keeps (a ``Renderer`` per game, the site writer's own).
"""
from __future__ import annotations

from pathlib import Path
from collections.abc import MutableMapping
from typing import Any

from jinja2 import ChoiceLoader, Environment, FileSystemLoader, StrictUndefined, select_autoescape

HERE = Path(__file__).resolve().parent
TEMPLATES = HERE / "templates"  # shipped inside the package, so a plain (non-editable) install renders
STATIC = HERE / "static"


def environment(ruleset: str = "", kind: type[Environment] = Environment) -> Environment:
    """A new environment (of class ``kind``): ``ruleset``'s folder first (where it has one), the
    shared folder second."""
    folders = [TEMPLATES / ruleset] if ruleset and (TEMPLATES / ruleset).is_dir() else []
    return kind(
        loader=ChoiceLoader([FileSystemLoader(f) for f in (*folders, TEMPLATES)]), undefined=StrictUndefined,
        autoescape=select_autoescape(enabled_extensions=("html", "xml", "svg")),
        trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
        auto_reload=False)  # the installed templates do not change under a running game: never stat them again


class FixedGlobals(Environment):
    """An environment whose globals are never changed once it is made (Jinja asks as much once a
    template is loaded): each template's globals are a dict of them, not Jinja's ``ChainMap`` over
    them, which every render (and every include) reads whole twice, a failed lookup for each
    global: a third of rendering a mail's short template."""

    def make_globals(self, d: MutableMapping[str, Any] | None) -> MutableMapping[str, Any]:
        return {**self.globals, **(d or {})}


class Renderer:
    """One game's templates (its ruleset's first), compiled once for as long as its owner keeps it."""

    def __init__(self, ruleset: str = "") -> None:
        self.env = environment(ruleset, FixedGlobals)

    def render(self, template: str, /, **context: Any) -> str:
        return self.env.get_template(template).render(**context)


def render(template: str, /, **context: Any) -> str:
    """A shared template rendered once, by a renderer of its own (for pages made rarely: a form)."""
    return Renderer().render(template, **context)
