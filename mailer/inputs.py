"""Journal entries -> engine inputs. Deterministic: a replay reads the same bytes the same way."""
from __future__ import annotations

import hashlib
import json
import sys
from importlib import metadata
from pathlib import Path

import engine.commands
import engine.inputs
import engine.state
import mailer.message
import mailer.quotes
import mailer.reply_reader
from engine.commands import Amend, ListPostCmd
from engine.inputs import ClockStep, Message
from engine.ruleset import Ruleset
from mailer import grammar
from mailer.grammar import Grammar
from mailer.message import Received
from storage.config import parse_time
from storage import Entry

# what decides how a stored mail reads: its inputs are cached under a hash of all of it
_PARSING_CODE = (mailer.message, mailer.quotes, mailer.reply_reader, grammar, engine.commands, engine.inputs, engine.state, sys.modules[__name__])
_PARSING_LIBRARIES = ("mail-parser-reply", "html2text", "pydantic")


def parser_version(address: str, list_address: str, ruleset: Ruleset) -> str:
    """Names the code that turns mail into commands, for the cache of parsed inputs.

    A hash of the parsing modules' source (the ruleset's declarations and command
    models included), the versions of the libraries they lean on, and the two
    addresses the game reads recipients against: change any of them and every
    cached input is parsed again, never read stale.
    """
    h = hashlib.sha256(f"{address}\0{list_address}\0{ruleset.name}\0{sys.version_info[:2]}".encode())
    ruleset_code = {sys.modules[name] for name in (
        ruleset.state_model.__module__, *(d.model.__module__ for d in ruleset.commands),
        *(r.build.__module__ for d in ruleset.commands for r in d.reads if not isinstance(r, Amend)),
        *(r.apply.__module__ for d in ruleset.commands for r in d.reads if isinstance(r, Amend)))}
    for module in (*_PARSING_CODE, *sorted(ruleset_code, key=lambda m: m.__name__)):
        h.update(Path(module.__file__ or "").read_bytes())
    for lib in _PARSING_LIBRARIES:
        h.update(metadata.version(lib).encode())
    return h.hexdigest()[:32]


def to_input(entry: Entry, received: Received, address: str, list_address: str,
             commands: Grammar) -> Message | ClockStep:
    """The engine input of ``entry``, read from ``received``, its bytes as parsed for its whole fold."""
    at = parse_time(entry.at)
    if entry.kind == "clock":
        return ClockStep(at=at)
    meta = json.loads(entry.meta)
    mail = received.mail
    rcpts = [r.lower() for r in meta.get("rcpt_to") or []] or mail.recipients
    to_list = list_address in rcpts
    to_game = address in rcpts or not to_list
    msg = Message(
        at=at, message_id=mail.message_id, sender=mail.sender, name=mail.name,
        authenticated=bool(meta.get("auth", {}).get("authenticated")), to_list=not to_game,
        automatic=mail.automatic or _empty_return_path(meta), subject=mail.subject,
        references=mail.references)
    if to_game:  # commands first: a Proposal copied to the list makes its author a player who may post
        reading = commands.read(mail.subject, mail.text, mail.written, cut=mail.cut)
        msg.commands, msg.not_understood = reading.commands, reading.not_understood
    if to_list:
        secret = grammar.passphrase(mail.text) is not None or grammar.passphrase(mail.written) is not None
        msg.commands.append(ListPostCmd(subject=mail.subject, line=mail.subject, passphrase=secret))
    return msg


def _empty_return_path(meta: dict) -> bool:
    """SMTP ``MAIL FROM:<>``: a bounce or other automatic mail (RFC 3834); never answered."""
    mail_from = meta.get("mail_from")
    return mail_from is not None and mail_from.strip() in ("", "<>")
