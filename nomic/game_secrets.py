"""The secrets ``nomic init`` writes into a new game.toml: a random ``[game] seed`` in place of a
missing or known placeholder one, and a random ``[list] token_secret`` where there is none.

The seed's SHA-256 is published from day 1 and the seed itself once ``reveal_seed`` is set (so
that every draw can be checked), so the key of the list's links (unsubscribe, subscription
confirmations, bounce addresses: mailer/tokens.py) is a secret of its own that is never published.
"""
from __future__ import annotations

import re
import secrets
import tomllib
from typing import Any

from storage.config import PLACEHOLDER_SEEDS, ConfigError

_TABLE = re.compile(r"^\s*\[\s*([\w.-]+)\s*\]\s*(?:#.*)?$")
_VALUE = re.compile(r"""^(\s*([\w-]+)\s*=\s*)("(?:[^"\\]|\\.)*"|'[^']*'|[^#\s]*)(.*)$""")  # "key = ", key, value, rest


def fill(text: str) -> str:
    """``text`` (a game.toml) with a random seed and token secret where it has none of its own."""
    data = _parse(text)
    seed = data.get("game", {}).get("seed")
    if seed is None or str(seed).strip().lower() in PLACEHOLDER_SEEDS:
        text = _put(text, "game", "seed")
    if not str(data.get("list", {}).get("token_secret", "")).strip():
        text = _put(text, "list", "token_secret")
    return text


def _parse(text: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"not a game.toml: {exc}") from None


def _put(text: str, table: str, key: str) -> str:
    """A random ``key = "..."`` in ``[table]``: in place of the key's line (keeping its comment), else
    first in the table, else in a new ``[table]`` at the end."""
    value = secrets.token_hex(32)
    lines, current, header = text.splitlines(), "", None
    for i, line in enumerate(lines):
        if m := _TABLE.match(line):
            current = m[1]
            header = i if current == table else header
        elif current == table and (m := _VALUE.match(line)) and m[2] == key:
            lines[i] = f'{m[1]}"{value}"{m[4]}'  # its comment kept
            break
    else:
        if header is not None:
            lines.insert(header + 1, f'{key} = "{value}"')
        else:
            lines += ["", f"[{table}]", f'{key} = "{value}"']
    out = "\n".join(lines) + "\n"
    if _parse(out).get(table, {}).get(key) != value:  # a layout this cannot edit (a dotted key, an inline table)
        raise ConfigError(f"cannot write [{table}] {key} into this game.toml; set it to a random secret yourself")
    return out
