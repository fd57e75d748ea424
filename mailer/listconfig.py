"""The list's settings, read once from game.toml: addresses, ids, URLs, limits."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from email.headerregistry import BaseHeader
from email.message import EmailMessage
from email.policy import EmailPolicy
from engine.context import EngineConfig
from mailer.headers import composing_policy, mailbox
from rendering import Renderer
from storage.settings.common import CommonSettings


@dataclass(frozen=True)
class ListSettings:
    name: str  # the game's name, shown in From lines and footers
    address: str  # THS: commands, subscribe, unsubscribe
    list_address: str
    domain: str  # the game's mail domain (Message-IDs, VERP)
    token_key: str  # keys the HMAC tokens (mailer/tokens.py): [list] token_secret, else the seed
    site_url: str  # ends with "/" (or is empty)
    subject_tag: str
    bounce_prefix: str
    bounce_limit: int
    operator: str
    personal_mail: bool = True  # [list] personal_mail: each player's own daily mail (mailer/personal.py)
    renderer: Renderer = field(default_factory=Renderer, compare=False)  # the game's templates, its ruleset's first
    policy: EmailPolicy[EmailMessage] = field(default_factory=composing_policy, compare=False)  # what the game's mail is made with
    _made: dict[tuple[str, str], str | BaseHeader] = field(default_factory=dict, compare=False, repr=False)
    _written: dict[str, bytes | None] = field(default_factory=dict, compare=False, repr=False)

    def put(self, mail: EmailMessage, name: str, value: object) -> None:
        """Set ``name: value`` on ``mail``, parsed and folded once for the game: the headers that every
        mail of a kind carries (the email package parses each value it is given, and folds it
        again for every mail it writes). An ASCII value is kept as the lines it folds to (written
        as they are), any other as its header object (folded by the mail's own policy)."""
        self._put(mail, name, str(value), lambda: value)

    def put_mailbox(self, mail: EmailMessage, name: str, display_name: str, address: str) -> None:
        """``put`` of ``headers.mailbox(display_name, address)``, made once for the game."""
        self._put(mail, name, f"{display_name} <{address}>", lambda: mailbox(display_name, address))

    def written(self, kind: str, write: Callable[[], bytes | None]) -> bytes | None:
        """The header lines ``write`` makes, written once for the game: lines made of these settings
        alone, which every mail of a ``kind`` carries (an announcement's list copy: its To, the list's headers)."""
        if kind not in self._written:
            self._written[kind] = write()
        return self._written[kind]

    def _put(self, mail: EmailMessage, name: str, key: str, value: Callable[[], object]) -> None:
        made = self._made.get((name.lower(), key))
        if made is None:
            made = self._made[(name.lower(), key)] = self._folded(name, value())
        if isinstance(made, BaseHeader):
            mail[name] = made
        else:
            mail.set_raw(name, made)

    def _folded(self, name: str, value: object) -> str | BaseHeader:
        header = self.policy.header_factory(name, value)
        folded = self.policy.fold(name, header)
        lines = folded[len(name) + 2:].removesuffix(self.policy.linesep)
        if str(value).isascii() and self.policy.fold(name, lines) == folded:  # written as they are, by any policy
            return lines
        return header

    @property
    def list_id(self) -> str:
        """RFC 2919: the list's address with its "@" made a dot."""
        return self.list_address.replace("@", ".")

    @property
    def list_id_header(self) -> str:
        return f"{self.name} players <{self.list_id}>"

    @property
    def archive_url(self) -> str:
        return f"{self.site_url}list/"

    def url(self, path: str) -> str:
        return f"{self.site_url}{path}"


def settings(s: CommonSettings, cfg: EngineConfig) -> ListSettings:
    """The list's settings of a game: its game.toml ``s``, its engine settings ``cfg``."""
    site = s.game.site_url
    if site and not site.endswith("/"):
        site += "/"
    return ListSettings(
        name=s.game.name, address=cfg.address, list_address=cfg.list_address,
        domain=cfg.address.rpartition("@")[2], token_key=s.list_.token_secret or cfg.seed,
        site_url=site,
        subject_tag=s.list_.subject_tag or f"[{s.game.name}]",
        bounce_prefix=s.smtp.bounce_prefix, bounce_limit=s.list_.bounce_limit,
        operator=(s.list_.operator or cfg.holder("scribe")).lower(), personal_mail=s.list_.personal_mail,
        renderer=Renderer(cfg.ruleset))
