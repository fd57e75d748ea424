"""The sections every game.toml has, whatever its ruleset (storage/defaults/common.toml), and the
parts of ``[game]`` and the types the rulesets' own models share.

No field has a default value: storage/defaults/*.toml hold them (storage/settings/__init__.py).
"""
from __future__ import annotations

import tomllib
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field

from storage.config import COMMON, ConfigError, defaults, parse_time
from storage.settings import check


class Section(BaseModel):
    """A table of game.toml: each key of its type (TOML's own, no conversion), no key it does not know."""
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


ZONED = "must be an ISO 8601 time with a zone, like 2026-01-05T00:00:00Z"


def _time(value: Any) -> Any:
    if isinstance(value, str):
        try:
            return parse_time(value)
        except ConfigError:
            raise ValueError(ZONED) from None
    if isinstance(value, datetime) and value.tzinfo is None:
        raise ValueError(ZONED)
    return value


def _holders(value: Any) -> Any:
    if isinstance(value, str) or (isinstance(value, list) and all(isinstance(a, str) for a in value)):
        return [value] if isinstance(value, str) else value
    raise ValueError("must be an address or a list of addresses")


def _relay(value: str) -> str:
    if value and not value.rpartition(":")[2].isdigit():
        raise ValueError('must be "HOST:PORT"')
    return value


Time = Annotated[datetime, BeforeValidator(_time)]
Holders = Annotated[list[str], BeforeValidator(_holders)]  # an office: an address or a list of them
Count = Annotated[int, Field(ge=1)]
Seconds = Annotated[float, Field(gt=0)]
Port = Annotated[int, Field(ge=1, le=65535)]


class GameSection(Section):
    """``[game]``: what every ruleset's has (a ruleset's model adds its own keys)."""
    name: str
    ruleset: str
    address: str
    list_address: str
    start: Time
    seed: str
    reveal_seed: bool
    accept_known_seed: bool
    rules_file: str
    database_url: str
    site_url: str
    edition: str = ""  # left out: the ruleset has one text (its entry in engine/ruleset.RULESETS says which it has)


class AuthSection(Section):
    mode: Literal["authres", "dkim", "none"]
    authserv_id: str
    trust_topmost_header: bool


class SmtpSection(Section):
    max_message_size: Count
    max_connections: Count
    max_recipients: Count
    timeout: Seconds
    bounce_prefix: Annotated[str, Field(min_length=1)]  # list mail's return path: it cannot be left empty
    hostname: str


class LmtpSection(Section):
    max_connections: Count
    timeout: Seconds
    slow_game_wait: Seconds


class HttpSection(Section):
    max_connections: Count
    timeout: Seconds
    max_per_client: Count
    trusted_proxies: list[str]
    confirm_per_client: Annotated[int, Field(ge=0)]
    confirm_per_address: Annotated[int, Field(ge=0)]
    confirm_per_domain: Annotated[int, Field(ge=0)]
    confirm_per_hour: Annotated[int, Field(ge=0)]
    unsubscribe_days: Count


class ImapSection(Section):
    host: str
    port: Port
    ssl: bool
    starttls: bool
    user: str
    password: str
    password_file: str
    mailbox: str
    processed_folder: str
    timeout: Seconds
    idle_renew: Seconds
    poll_interval: Seconds


class AnswersSection(Section):
    per_sender_per_hour: Annotated[int, Field(ge=0)]


class OutboxSection(Section):
    relay: Annotated[str, AfterValidator(_relay)]
    timeout: Seconds
    max_attempts: Count
    retry_base: Count
    retry_cap: Count
    claim_lease: Count
    in_doubt: Literal["resend", "hold"]
    connections: Count
    batch: Count


class ListSection(Section):
    token_secret: str
    subscribe_players: bool
    personal_mail: bool
    remind_hours: Annotated[int, Field(ge=0, le=24 * 28)]
    subject_tag: str
    bounce_limit: Count
    operator: str


class Listeners(Section):
    """The listeners' limits: game.toml's (``nomic serve``) or host.toml's (``nomic host serve``)."""
    smtp: SmtpSection
    lmtp: LmtpSection
    http: HttpSection


class CommonSettings(Listeners):
    """What every game.toml has; ``storage/settings/<ruleset>.py``'s ``Settings`` adds its ruleset's."""
    game: GameSection
    auth: AuthSection
    imap: ImapSection
    answers: AnswersSection
    outbox: OutboxSection
    list_: ListSection = Field(alias="list")
    variables: dict[str, int] = {}  # overrides of the rules' numbers; left out: none


class HostSettings(Listeners):
    """host.toml (nomic/host_config.py): the listeners' limits and the games, each ``[games.SLUG] dir``."""
    games: dict[str, dict[str, Any]] = {}  # left out: no game yet


def host_settings(data: dict[str, Any]) -> HostSettings:
    """host.toml checked (Invalid), its listeners' limits filled in from every game's (common.toml)."""
    common = tomllib.loads(defaults(COMMON))
    filled = {name: common[name] | own if isinstance(own := data.get(name, {}), dict) else own
              for name in Listeners.model_fields}
    return check(HostSettings, {**data, **filled})
