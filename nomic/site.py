"""The site of a game: ``build`` gives nomic.website a narrow source (``GameSite``), never the game.

The website reads the state, the settings it shows and the events; what it shows of mail comes
from here as values: each list post as the fold's parser reads it, each public outbox row with its
private headers taken out. So nothing under nomic/website reads raw mail (an import contract in
pyproject.toml holds it to that).
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from engine.state import GameState
from mailer.message import parse
from nomic import public_record
from nomic.record_head import Head
from nomic.website import SiteMemory, WriteReport, build as build_site
from nomic.website.public_mail import KINDS, PublicMail, without_private
from nomic.website.reader import ListPost, SiteSettings
from storage import JournalEntry
from storage.config import parse_time
from storage.tables import OutboxMessage

if TYPE_CHECKING:
    from nomic.game import Game


class GameSite:
    """A game as its site reads it (nomic.website.reader.SiteSource)."""

    def __init__(self, game: "Game"):
        self.game = game

    @property
    def key(self) -> object:
        return self.game

    @property
    def db(self) -> Engine:
        return self.game.db

    @property
    def settings(self) -> SiteSettings:
        cfg = self.game.config
        return SiteSettings(game=dict(cfg.game), offices=dict(cfg.section("offices")),
                            options=dict(cfg.section(cfg.settings.game.ruleset)), seed=cfg.settings.game.seed,
                            reveal_seed=cfg.settings.game.reveal_seed)

    def state(self) -> GameState[Any]:
        return self.game.state()

    def list_posts(self, seqs: list[int]) -> dict[int, ListPost]:
        if not seqs:
            return {}
        with Session(self.game.db) as s:
            rows = s.exec(select(JournalEntry.seq, JournalEntry.at, JournalEntry.raw)
                          .where(col(JournalEntry.seq).in_(seqs))).all()
        posts = {}
        for seq, at, raw in rows:
            mail = parse(raw or b"")
            posts[seq or 0] = ListPost(seq=seq or 0, at=parse_time(at), message_id=mail.message_id,
                                       sender=mail.sender, name=mail.name, subject=mail.subject,
                                       text=mail.text, references=mail.references)
        return posts

    def public_mail(self, after: int) -> list[PublicMail]:
        with Session(self.game.db) as s:
            rows = s.exec(select(OutboxMessage.id, OutboxMessage.kind, OutboxMessage.created,  # type: ignore[call-overload]
                                 OutboxMessage.raw)
                          .where(col(OutboxMessage.id) > after, col(OutboxMessage.kind).in_(list(KINDS)))
                          .order_by(col(OutboxMessage.id))).all()
        out = []
        for id_, kind, created, raw in rows:
            public = without_private(raw)
            mail = parse(public)
            if mail.message_id:
                out.append(PublicMail(id=id_ or 0, kind=KINDS[kind], at=parse_time(created),
                                      message_id=mail.message_id, subject=mail.subject, name=mail.name,
                                      references=mail.references, text=mail.text, raw=public))
        return out

    def record(self, after: Head) -> tuple[Head, Head | None]:
        return public_record.advance(self.game, after)


def build(game: "Game", out: Path, csp: bool = True, memory: SiteMemory | None = None,
          check: bool = False, search: bool = False) -> WriteReport:
    """nomic.website.build for ``game`` (see there)."""
    return build_site(GameSite(game), out, csp=csp, memory=memory, check=check, search=search)
