"""The help table of a ruleset's mail commands, read off its declarations (engine/commands.Declaration):
the How to play page (with mailto: links that fill them in) and docs/reference.md
(``python -m nomic.reference``) both show it."""
from __future__ import annotations

from engine.commands import Help
from engine.ruleset import Ruleset
from nomic.website.text import mailto


def player_rows(ruleset: Ruleset) -> list[Help]:
    """The commands anyone may send, in declaration order."""
    return [h for d in ruleset.commands if not d.offices for h in d.help]


def office_rows(ruleset: Ruleset) -> list[Help]:
    """The commands of the offices, then the lines that are no command (an office's passphrase)."""
    return [h for d in ruleset.commands if d.offices for h in d.help] + list(ruleset.office_notes)


def _rows(address: str, rows: list[Help]) -> list[dict]:
    return [{"what": h.what, "subject": h.subject, "line": h.line, "rule": h.rule,
             "href": mailto(address, h.subject, h.line)} for h in rows]


def command_help(game: dict, ruleset: Ruleset) -> dict:
    address, list_address = game["address"], game["list_address"]
    return {"address": address, "list_address": list_address,
            "list_href": mailto(list_address, "SUBJECT"),
            "player_commands": _rows(address, player_rows(ruleset)),
            "emperor_commands": _rows(address, office_rows(ruleset))}
