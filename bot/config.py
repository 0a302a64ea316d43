"""The process settings: one typed object read from the environment and ``.env``.

pydantic-settings reads ``DISCORD_TOKEN`` and every ``CHIPFIST_*`` variable (the real
environment wins over the file; an empty value counts as unset). Every variable is
documented in ``deploy/.env.example``. A ``CHIPFIST_*`` name that is not a setting is a
typo until proven otherwise: :func:`unknown_names` finds them (with the closest real
name), the bot refuses to start in Discord mode and ``python -m bot doctor`` fails, so a
misspelt ``CHIPFIST_DB`` never opens a fresh database in silence.

Only what the process needs lives here. Table settings live with each table
(``bot.table.settings``).
"""

from __future__ import annotations

import base64
import binascii
import contextvars
import difflib
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from dotenv import dotenv_values
from pydantic import AliasChoices, Field, field_validator
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

PREFIX = "CHIPFIST_"
TOKEN_ENV = "DISCORD_TOKEN"

# A bot token is three base64url parts: the bot's user id, a timestamp, an HMAC.
_TOKEN = re.compile(r"^([A-Za-z0-9_-]{16,40})\.([A-Za-z0-9_-]{4,10})\.([A-Za-z0-9_-]{20,})$")

# Set while Config.load(env=...) builds a Config from a given mapping only.
_ONLY_GIVEN: contextvars.ContextVar[bool] = contextvars.ContextVar("only_given", default=False)

LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]
LogFormat = Literal["plain", "json"]


class Config(BaseSettings):
    """Everything the process reads at start. Field ``x`` is ``CHIPFIST_X``."""

    model_config = SettingsConfigDict(
        env_prefix=PREFIX,
        env_file=".env",
        env_file_encoding="utf-8",
        env_ignore_empty=True,
        extra="ignore",  # unknown names are reported by unknown_names(), not here
        frozen=True,
        populate_by_name=True,
    )

    discord_token: str | None = Field(
        default=None,
        validation_alias=AliasChoices(TOKEN_ENV, "discord_token"),
        repr=False,
        description="The bot token (Developer Portal, Bot, Reset Token). Unset: terminal table.",
    )
    db: str = Field(
        default="chipfist.sqlite3",
        validation_alias=AliasChoices(PREFIX + "DB", "db", "database"),
        description="The database: a SQLite file path (created 0600 and migrated at "
        "start) or a postgresql:// URL (the `postgres` extra).",
    )
    dev_guild: int | None = Field(
        default=None,
        description="A guild id: sync the slash commands to this guild only (instant; "
        "for development). Unset: global commands.",
    )
    repo_url: str = Field(
        default="",
        description="The project's repository URL; /rules links into its docs/RULES.md.",
    )
    lang: str = Field(
        default="",
        description="The terminal table's language: en, de, fr, es, pt_BR or ru "
        "(`python -m bot --local --lang` wins). Unset: English. On Discord each player "
        "reads his own language and each table its server's.",
    )
    log_level: LogLevel = Field(default="INFO", description="DEBUG, INFO, WARNING or ERROR.")
    log_format: LogFormat = Field(
        default="plain", description="plain: one readable line per record; json: JSON lines."
    )
    log_discord_wire: bool = Field(
        default=False,
        description="With CHIPFIST_LOG_LEVEL=DEBUG, also log discord.py's request bodies "
        "and gateway payloads (they hold private cards; tokens are still masked). Off: "
        "those loggers stay at INFO.",
    )
    health_file: str = Field(
        default="",
        description="A file the bot rewrites with a timestamp and the gateway state "
        "(`python -m bot health` reads it). Unset: off.",
    )
    health_interval: float = Field(
        default=15.0, gt=0, description="Seconds between health file updates."
    )
    metrics_port: int = Field(
        default=0,
        ge=0,
        le=65535,
        description="Serve Prometheus metrics on CHIPFIST_METRICS_HOST:PORT (needs the "
        "`metrics` extra). 0: off.",
    )
    metrics_host: str = Field(
        default="127.0.0.1",
        min_length=1,
        description="The address the metrics server binds: 127.0.0.1 (this machine only), "
        "0.0.0.0 (every interface, e.g. in a container scraped from outside).",
    )
    request_rate: float = Field(
        default=40.0,
        gt=0,
        le=50,
        description="Requests a second the bot allows itself against Discord's global "
        "limit of 50 (interaction answers are exempt); a burst waits in the bot, low-"
        "priority work (turn mentions) is dropped. See cogs/budget.py.",
    )

    shards: str = Field(
        default="",
        description="The shards this process connects and drives, like 0-3 or 0,2,5-6 "
        "(with CHIPFIST_SHARD_COUNT). Unset: every shard of CHIPFIST_SHARD_COUNT, or one "
        "unsharded connection.",
    )
    shard_count: int = Field(
        default=0,
        ge=0,
        le=65536,
        description="The total number of shards across all processes. 0: no sharding "
        "(one process, the plain bot).",
    )
    standby: bool = Field(
        default=False,
        description="Take over any shard whose lease expired (its process died). Needs "
        "a postgresql:// CHIPFIST_DB and CHIPFIST_SHARD_COUNT.",
    )
    lease_seconds: float = Field(
        default=10.0,
        gt=0,
        le=600,
        description="How long a shard's lease lasts without renewal: a dead process's "
        "shards move after this (renewed every third of it).",
    )
    guild_keep_hours: float = Field(
        default=720.0,
        ge=0,
        le=24 * 366,
        description="When the bot is removed from a server its tables are closed and "
        "every stack cashed out; added back within this many hours, they reopen with "
        "their settings and host (seats empty). The log keeps their history either way.",
    )

    @field_validator("shards")
    @classmethod
    def _shards(cls, value: str) -> str:
        from bot.table.ownership import parse_shards

        parse_shards(value)  # raises with what is allowed
        return value.strip()

    def shard_ids(self) -> list[int] | None:
        """The shards this process connects; None: not sharded."""
        from bot.table.ownership import parse_shards

        if not self.shard_count:
            return None
        chosen = parse_shards(self.shards)
        if not chosen and not self.standby:
            chosen = frozenset(range(self.shard_count))
        bad = sorted(s for s in chosen if s >= self.shard_count)
        if bad:
            raise ValueError(
                f"CHIPFIST_SHARDS names shards {bad}, but CHIPFIST_SHARD_COUNT="
                f"{self.shard_count}: ids go from 0 to {self.shard_count - 1}"
            )
        return sorted(chosen)

    @field_validator("discord_token", mode="before")
    @classmethod
    def _strip_token(cls, value: object) -> object:
        if isinstance(value, str):
            value = value.strip().strip("'\"").strip() or None
        return value

    @field_validator("lang")
    @classmethod
    def _lang(cls, value: str) -> str:
        from bot.words.locales import SUPPORTED, parse

        if value.strip() and parse(value) is None:
            raise ValueError(f"must be one of {', '.join(SUPPORTED)}")
        return value.strip()

    @field_validator("repo_url")
    @classmethod
    def _url(cls, value: str) -> str:
        value = value.strip().rstrip("/")
        if value and not re.match(r"^https?://[^\s/]+(/\S*)?$", value):
            raise ValueError("must be an http(s) URL, like https://github.com/OWNER/REPO")
        return value

    @field_validator("log_level", "log_format", mode="before")
    @classmethod
    def _case(cls, value: object, info: Any) -> object:
        if isinstance(value, str):
            return value.strip().upper() if info.field_name == "log_level" else value.lower()
        return value

    # ------------------------------------------------------------------ loading

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        if _ONLY_GIVEN.get():
            return (init_settings,)
        return (init_settings, env_settings, dotenv_settings, file_secret_settings)

    @classmethod
    def load(
        cls, env: Mapping[str, str] | None = None, dotenv: str | Path | None = ".env"
    ) -> Config:
        """The settings from the environment over ``dotenv``. With ``env`` (tests, the
        doctor), that mapping replaces the process environment entirely."""
        if env is None:
            return cls(_env_file=dotenv)  # type: ignore[call-arg]  # pydantic-settings init kwarg
        merged: dict[str, str | None] = {}
        if dotenv is not None and Path(dotenv).is_file():
            merged.update(dotenv_values(dotenv))
        merged.update(env)
        names = env_names()
        values = {f: merged[n] for f, n in names.items() if merged.get(n) not in (None, "")}
        token = _ONLY_GIVEN.set(True)
        try:
            return cls(**values)  # type: ignore[arg-type]  # strings: pydantic parses
        finally:
            _ONLY_GIVEN.reset(token)

    @property
    def database(self) -> str:
        return self.db

    def describe(self) -> list[tuple[str, str]]:
        """(variable, value) for every setting, the token masked (for ``doctor``)."""
        out: list[tuple[str, str]] = []
        for field, name in env_names().items():
            value = getattr(self, field)
            if field == "discord_token":
                shown = mask_token(value)
            elif field == "db":
                from bot.store.backends import describe

                shown = describe(value)
            elif value is None or value == "":
                shown = "(unset)"
            else:
                shown = str(value)
            out.append((name, shown))
        return out


def settings_error(exc: Exception) -> str:
    """A pydantic ValidationError as one line per bad variable, named as it is set."""
    errors = getattr(exc, "errors", None)
    if errors is None:
        return str(exc)
    names = env_names()
    lines = []
    for err in errors():
        field = str(err.get("loc", ("?",))[0])
        name = names.get(field, field if field.isupper() else PREFIX + field.upper())
        lines.append(f"{name}={err.get('input')!r}: {err.get('msg')}")
    return "; ".join(lines)


TEST_ONLY = frozenset(
    {
        "CHIPFIST_PHH_CORPUS",
        "CHIPFIST_DIFF_HANDS",
        "CHIPFIST_REQUIRE_POSTGRES",
        "CHIPFIST_PG_BIN",
        "CHIPFIST_REGEN_GOLDEN",
        "CHIPFIST_KILLS",
        "CHIPFIST_KILL_SEED",
    }
)
"""Variables the test suite and CI read (tests/, .ci/run), never the bot: not settings,
and not typos of one either, so they are not reported at start."""


def env_names() -> dict[str, str]:
    """Field name -> the environment variable that sets it."""
    out: dict[str, str] = {}
    for field in Config.model_fields:
        out[field] = TOKEN_ENV if field == "discord_token" else PREFIX + field.upper()
    return out


def unknown_names(
    env: Mapping[str, str] | None = None, dotenv: str | Path | None = ".env"
) -> list[str]:
    """``CHIPFIST_*`` names set in the environment or ``dotenv`` that are not settings,
    each as a sentence naming the closest real one."""
    env = dict(os.environ) if env is None else env
    seen = set(env)
    if dotenv is not None and Path(dotenv).is_file():
        seen |= {k for k in dotenv_values(dotenv) if k}
    known = set(env_names().values()) | TEST_ONLY
    out: list[str] = []
    for name in sorted(n for n in seen if n.upper().startswith(PREFIX) and n not in known):
        close = difflib.get_close_matches(name.upper(), sorted(known), n=1, cutoff=0.6)
        hint = f" (did you mean {close[0]}?)" if close else ""
        out.append(f"{name} is not a Chipfist setting{hint}")
    return out


# ---------------------------------------------------------------------- the token


def mask_token(token: str | None) -> str:
    if not token:
        return "(unset)"
    shown = token[:4] if len(token) > 20 else ""
    return f"{shown}… ({len(token)} characters, masked)"


def token_problem(token: str | None) -> str | None:
    """Why ``token`` cannot be a bot token, or None if its shape is right (only Discord
    can say whether it is valid)."""
    if not token:
        return f"{TOKEN_ENV} is not set"
    if any(c.isspace() for c in token):
        return f"{TOKEN_ENV} contains spaces: copy the token alone"
    if token.lower().startswith("bot "):
        return f"{TOKEN_ENV} must be the token alone, without 'Bot '"
    if token_client_id(token) is None:
        return (
            f"{TOKEN_ENV} does not look like a bot token (three dot-separated parts, the "
            "first the bot's id in base64): copy it from Developer Portal, Bot, Reset "
            "Token (not the client secret)"
        )
    return None


def token_client_id(token: str) -> int | None:
    """The bot's user id (the application id for every application made since 2019),
    read from the token's first part; None if the token is malformed."""
    m = _TOKEN.match(token)
    if m is None:
        return None
    first = m.group(1)
    try:
        raw = base64.urlsafe_b64decode(first + "=" * (-len(first) % 4)).decode("ascii")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None
    return int(raw) if raw.isdigit() and 15 <= len(raw) <= 21 else None


def make_token(client_id: int) -> str:
    """A well-formed (not valid) token for ``client_id``: for tests and the fake Discord."""
    first = base64.urlsafe_b64encode(str(client_id).encode()).decode().rstrip("=")
    return f"{first}.AAAAAA.{'x' * 27}"
