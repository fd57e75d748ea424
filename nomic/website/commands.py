"""Every mail command, declared once: the How to play page (with mailto: links that fill them in)
and docs/reference.md (``python -m nomic.reference``) both show this table."""
from __future__ import annotations

from nomic.website.text import mailto

# (what it does, subject, body line or "", who may send it, rule)
PLAYER_COMMANDS = [
    ("Make a Proposal: the subject carries its title, the body its text.",
     "Proposal: TITLE", "The text of your proposal.", "rules 2, 7, 8"),
    ("Raise a Point of Order: an error in the game state, or a scoring claim.",
     "Point of Order: TITLE", "Score of PLAYER should be N", "rule 5"),
    ("Ask for a section of your Profile to be glued up (in a Proposal).",
     "Proposal: TITLE", "Raise section K", "rule 14"),
    ("Ask for a raised section to be shaved down (in a Proposal).",
     "Proposal: TITLE", "Shave section K", "rule 14"),
    ("Ask for your Profile to be rotated one bit (in a Proposal).",
     "Proposal: TITLE", "Rotate left", "rule 14"),
    ("Ask for sealant on your Profile (in a Proposal; costs 6 points).",
     "Proposal: TITLE", "Sealant", "rule 14"),
    ("Ask to become a free-floating (FF) player (in a Proposal).",
     "Proposal: TITLE", "Become FF", "rule 16"),
    ("Protect your Profile from vandalism (with a Proposal).",
     "Proposal: TITLE", "Defend", "rule 21"),
    ("Try to vandalize a raised section of another player's Profile (with a Proposal).",
     "Proposal: TITLE", "Vandalize PLAYER section K", "rule 21"),
    ("Name the subject area of a Proposal (when a Directive is in force).",
     "Proposal: TITLE", "Area: AREA", "rule 3"),
    ("Offer to swap four contiguous sections with another player.",
     "Swap", "Swap sections A-B with PLAYER sections C-D", "rule 14"),
    ("Agree to swap offer N made to you.", "Swap", "Agree swap N", "rule 14"),
    ("Report a Profile one or two bits away from yours.", "Report", "Report PLAYER", "rule 21"),
    ("Whap Tivol with your Profile (FF players only).", "Whap", "Whap Tivol", "rule 20"),
    ("Tag another player It, after It has a Proposal accepted.", "Tag", "Tag PLAYER", "rule 22"),
    ("Join the public list and hear the Bell Tower's chimes.", "Subscribe", "", "rules 3, 19"),
    ("Leave the list.", "Unsubscribe", "", "rule 3"),
    ("Get the list as one daily digest instead of every message.", "Digest on", "", ""),
    ("Get the daily digest as plain text (RFC 1153) rather than MIME.", "Digest plain", "", ""),
    ("Get every list message again.", "Digest off", "", ""),
]

EMPEROR_COMMANDS = [
    ("Judge submission N.", "Judgment", "Accept N", "rules 3, 11"),
    ("Reject submission N.", "Judgment", "Reject N", "rules 3, 11"),
    ("Ignore submission N with a reason.", "Judgment", "Ignore N because REASON", "rule 3"),
    ("Judge the submission a reply is about: answer the Scribe's mail about it with just the verdict.",
     "Re: ...", "Accept", "rule 3"),
    ("Correct a Proposal's area while judging it (the line after the judgment).",
     "Judgment", "Accept N\nArea: AREA", "rule 3"),
    ("Enact a rule by Proclamation; the lines after it, up to the next change, are its text.",
     "Proclamation: TITLE", "Enact rule N: TITLE", "rules 3, 7"),
    ("Amend a rule by Proclamation; the lines after it are its new text.",
     "Proclamation: TITLE", "Amend rule N", "rules 3, 7"),
    ("Repeal a rule by Proclamation: its mechanics stop.", "Proclamation: TITLE", "Repeal rule N", "rule 3"),
    ("Set a game variable by Proclamation (e.g. accept_points, win_score).",
     "Proclamation: TITLE", "Set NAME = VALUE", "rule 3"),
    ("Make a Proclamation apply from submission N on (rule 7's \"unless it specifies otherwise\").",
     "Proclamation: TITLE", "From submission N", "rule 7"),
    ("Call for proposals in an area.", "Directive", "Directive: AREA", "rule 3"),
    ("Revoke the Directive.", "Directive", "Revoke directive", "rule 3"),
    ("Announce a new game day.", "New day", "New day", "rule 10"),
    ("THS: rewrite submission N to clarify it; the lines after it are the new text.",
     "Rewrite", "Rewrite N:", "rule 3"),
    ("TIE or THS: prove the office, where the game asks for a passphrase (never quoted back).",
     "", "Passphrase: WORDS", "rule 1"),
]


def _rows(address: str, commands: list[tuple[str, str, str, str]]) -> list[dict]:
    return [{"what": what, "subject": subject, "line": line, "rule": rule,
             "href": mailto(address, subject, line)} for what, subject, line, rule in commands]


def command_help(game: dict, offices: dict) -> dict:
    address, list_address = game["address"], game["list_address"]
    return {"address": address, "list_address": list_address,
            "list_href": mailto(list_address, "SUBJECT"),
            "player_commands": _rows(address, PLAYER_COMMANDS),
            "emperor_commands": _rows(address, EMPEROR_COMMANDS)}
