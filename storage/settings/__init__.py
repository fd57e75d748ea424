"""game.toml typed: one pydantic model per section, and the one line that says what is wrong.

The defaults live in storage/defaults/*.toml alone (their comments are the reference,
docs/reference.md): ``storage.config`` fills a game.toml in with them and then checks the
whole against the models here, which carry types and bounds but no default values. A key
that only some games have (``[game] edition``, ``[imap] password_file``...) is the one
exception: its model says what leaving it out means. A new key is one line in the defaults
file and one field here; tests/storage/test_settings.py fails when the two disagree.

Each ruleset's whole game.toml is ``Settings`` in ``storage/settings/<ruleset>.py``, found
from ``[game] ruleset`` by ``model_for`` through the one list of rulesets (engine/ruleset.py);
its sections shared with every game are in ``common.py``.
"""
from __future__ import annotations

import difflib
import json
from datetime import datetime
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from engine.ruleset import part

M = TypeVar("M", bound=BaseModel)


class Invalid(Exception):
    """A game.toml that does not fit its model; ``str()`` is one line naming the key and the problem."""


def model_for(ruleset: str) -> type[BaseModel]:
    """The model of a whole game.toml of ``ruleset`` (``storage/settings/<ruleset>.py``'s ``Settings``)."""
    return part(ruleset, "settings").Settings  # type: ignore[no-any-return]


def check(model: type[M], data: dict[str, Any]) -> M:
    """``data`` as ``model``; raises Invalid naming the first problem."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise Invalid(explain(model, exc.errors()[0])) from None


def explain(model: type[BaseModel], error: ErrorDetails) -> str:
    """One pydantic error as the operator reads it: ``[section] key must be ..., not VALUE``."""
    loc = [str(part) for part in error["loc"]]
    if error["type"] == "extra_forbidden":
        return _unknown(model, loc)
    where = f"[{loc[0]}]" + "".join(f" {p}" if i == 0 else f"[{p}]" for i, p in enumerate(loc[1:]))
    if error["type"] in BARE:
        return f"{where} {BARE[error['type']]}"
    return f"{where} {_problem(error)}, not {_toml(error['input'])}"


def _unknown(model: type[BaseModel], loc: list[str]) -> str:
    """An unknown section or key, with the known one it is closest to."""
    *path, name = loc
    for step in path:
        model = model.model_fields[_field(model, step)].annotation  # type: ignore[assignment]
    known = [f.alias or n for n, f in model.model_fields.items()]
    close = difflib.get_close_matches(name, known, n=1)
    if not path:
        return f"unknown section [{name}]" + (f" (did you mean [{close[0]}]?)" if close else "")
    return f"[{path[0]}] unknown key {name}" + (f" (did you mean {close[0]}?)" if close else "")


def _field(model: type[BaseModel], key: str) -> str:
    return next(n for n, f in model.model_fields.items() if (f.alias or n) == key)


BARE = {"missing": "is missing", "string_too_short": "must not be empty"}  # problems said without the value
PROBLEMS = {
    "int_type": "must be a whole number", "int_from_float": "must be a whole number",
    "float_type": "must be a number", "bool_type": "must be true or false",
    "string_type": "must be a string (in quotes)", "list_type": "must be a list",
    "dict_type": "must be a table", "model_type": "must be a table", "model_attributes_type": "must be a table",
    "datetime_type": "must be an ISO 8601 time with a zone",
}


def _problem(error: ErrorDetails) -> str:
    kind, ctx = error["type"], error.get("ctx", {})
    if kind in PROBLEMS:
        return PROBLEMS[kind]
    if kind == "literal_error":
        return f"must be {str(ctx['expected']).replace(chr(39), chr(34))}"
    if kind in ("greater_than_equal", "greater_than", "less_than_equal"):
        word = {"greater_than_equal": "at least", "greater_than": "more than", "less_than_equal": "at most"}[kind]
        return f"must be {word} {next(iter(ctx.values()))}"
    if kind == "value_error":
        return str(ctx["error"])
    return error["msg"][:1].lower() + error["msg"][1:]


def _toml(value: Any) -> str:
    """A value as game.toml writes it (``"ten"``, ``true``), for quoting it back."""
    if isinstance(value, datetime):
        return value.isoformat()
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return str(value)
