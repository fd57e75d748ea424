"""Jinja: one environment for the site and for every outgoing mail."""
from __future__ import annotations

from functools import cache
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

HERE = Path(__file__).resolve().parent
TEMPLATES = HERE / "templates"  # shipped inside the package, so a plain (non-editable) install renders
STATIC = HERE / "static"


@cache
def environment() -> Environment:
    return Environment(
        loader=FileSystemLoader(TEMPLATES), undefined=StrictUndefined,
        autoescape=select_autoescape(enabled_extensions=("html", "xml", "svg")),
        trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)


def render(name: str, **context) -> str:
    return environment().get_template(name).render(**context)
