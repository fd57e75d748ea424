"""Commands: what a message asks the game to do, already parsed out of mail, and how a ruleset
declares each one (like Mailman's ``eml_*`` command modules).

The mailer turns mail text into command models with the ruleset's declarations (mailer/grammar.py);
the engine dispatches them with the same declarations (engine/dispatch.py) and never sees raw mail.
Every command model has a ``kind`` so a list of them round-trips through JSON.
The list's commands (Subscribe, Unsubscribe, Digest, a post) are the same in every ruleset.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict


class Cmd(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: str
    line: str = ""  # the text it was read from, quoted back in answers


class SubscribeCmd(Cmd):
    kind: Literal["subscribe"] = "subscribe"


class UnsubscribeCmd(Cmd):
    kind: Literal["unsubscribe"] = "unsubscribe"


class DigestCmd(Cmd):
    kind: Literal["digest"] = "digest"
    on: bool
    plain: bool = False  # "Digest plain": the RFC 1153 text digest instead of MIME


class ListPostCmd(Cmd):
    """A post to the players' list (mail addressed to ``list_address``)."""
    kind: Literal["list_post"] = "list_post"
    subject: str = ""
    passphrase: bool = False  # it carries a "Passphrase:" line, which must never reach the members


@dataclass(frozen=True)
class Line:
    """A command of one line, in the subject or the body: ``pattern`` (matched case-insensitively
    over the stripped line) and ``build`` making the command from the match."""
    pattern: re.Pattern[str]
    build: Callable[[re.Match[str]], Cmd]


@dataclass(frozen=True)
class Subject:
    """A command made by a message's subject ("Proposal: TITLE"): ``build(title, lines, text)``
    gets the title, the body's short lines (to read requests in) and the body as written."""
    pattern: re.Pattern[str]
    build: Callable[[str, list[str], str], Cmd]


@dataclass(frozen=True)
class Rest:
    """A line whose command takes the rest of the body as its text ("Rewrite 7:")."""
    pattern: re.Pattern[str]
    build: Callable[[re.Match[str], str], Cmd]


@dataclass(frozen=True)
class Amend:
    """A line that adds to the command before it, if that one is of kind ``to`` ("Area: X" after a
    judgment); ``apply`` changes that command."""
    pattern: re.Pattern[str]
    to: str
    apply: Callable[[Cmd, re.Match[str]], None]


@dataclass(frozen=True)
class Block:
    """Lines that wrap the lines between them (``BEGIN TRANSACTION`` ... ``END TRANSACTION``): each
    line between is read as a one-line command; ``build(commands, unread)`` gets those read and
    the lines not read, in order, so a ruleset can make an unread line fail the whole block."""
    start: re.Pattern[str]
    end: re.Pattern[str]
    build: Callable[[list[Cmd], list[str]], Cmd]


@dataclass(frozen=True)
class Prefix:
    """A line that wraps the rest of itself (``Repeat 3 times: LINE``): the pattern's last group is
    read as a one-line command, handed to ``build`` with the match (None when it is no command)."""
    pattern: re.Pattern[str]
    build: Callable[[re.Match[str], Cmd | None], Cmd]


Reader = Line | Subject | Rest | Amend | Block | Prefix


@dataclass(frozen=True)
class Help:
    """One row of the help table: what it does, the subject and the body line that say it, the rule."""
    what: str
    subject: str
    line: str = ""
    rule: str = ""
Handler = Callable[[Any, Any, Any, Any], object]  # (state, message, command, context); its result is unused


@dataclass(frozen=True)
class Declaration:
    """One command of a ruleset, declared once: the grammar, the dispatch, the permission checks,
    the help page and docs/reference.md are all read off these.

    ``offices``: who may send it (empty: any authenticated sender); ``after_end``: it still works
    once the game has ended; ``announces``: the event kind that makes a message carrying it an
    announcement (Imperial rule 10); ``help``: its rows of the help table (the How to play page,
    docs/reference.md)."""
    kind: str
    model: type[Cmd]
    reads: tuple[Reader, ...]
    handler: Handler | None
    help: tuple[Help, ...]
    offices: frozenset[str] = frozenset()
    after_end: bool = False
    announces: str | None = None


def pattern(regex: str) -> re.Pattern[str]:
    """A command pattern: case-insensitive, like every command."""
    return re.compile(regex, re.I)
