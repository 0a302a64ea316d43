"""Who reads what on Discord: each user's language and each table's, and the words
the cogs write (keys of the ``discord`` catalogue, ``bot/words``).

A user reads his private answers and DMs in his client's language (``interaction.locale``),
kept from his interactions and in the store, so a DM the clock sends after a restart is
in his language too. A table's public message, its picture and its summaries are in the
table's language: its ``language`` setting, else its server's (``guild_locale``, kept from
the interactions in its channel; a DM has none), else English.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable

import discord

from bot.poker.messages import Msg, Name, Param, msg
from bot.table.ports import HandFacts, Notice, StorePort
from bot.words import Locale, from_discord, parse, render
from cogs.names import escaped, escaping

log = logging.getLogger(__name__)

USER_LOCALES_LOG = "_user_locales"
TABLE_LOCALES_LOG = "_table_locales"
LOCALE_KIND = "locale"


def say(key: str, locale: Locale, **params: Param | str | int) -> str:
    """The ``discord`` catalogue's ``key`` in ``locale``; a plain ``str`` or ``int``
    parameter is shown as it is (a name, a seat, an amount the table shows as digits)."""
    return _said(key, locale, tuple(params.items()))


@functools.lru_cache(maxsize=8192)
def _said(key: str, locale: Locale, params: tuple[tuple[str, Param | str | int], ...]) -> str:
    # The table message says the same words at every click: each said once.
    return render(message(key, **dict(params)), locale)


def message(key: str, **params: Param | str | int) -> Msg:
    typed: dict[str, Param] = {
        k: Name(str(v)) if isinstance(v, (str, int)) else v for k, v in params.items()
    }
    return msg(key, **typed)


def namer(hand: HandFacts | None) -> Callable[[int], str]:
    """Players by position, as the notice's hand names them."""
    names = hand.names if hand is not None else ()

    def name(position: int) -> str:
        return names[position] if 0 <= position < len(names) else f"#{position}"

    return name


def notice_text(notice: Notice, locale: Locale) -> str:
    """The notice in ``locale``, the players' names escaped for Discord's markdown
    (R-1.12)."""
    return render(escaped(notice.msg), locale, names=escaping(namer(notice.hand)))


def outcome_text(m: Msg, locale: Locale) -> str:
    """A command's answer in the actor's language, names escaped (R-1.12)."""
    return render(escaped(m), locale)


def error_text(exc: Exception, locale: Locale) -> str:
    """A refusal in ``locale``: its message where it carries one (``PokerError.msg``,
    ``TableError.msg``), else the exception as it says itself; names and echoed text
    escaped (R-1.12)."""
    m = getattr(exc, "msg", None)
    if isinstance(m, Msg):
        return render(escaped(m), locale)
    return str(exc)


class Locales:
    """Each user's language and each table's server language, as last seen; kept in
    the store (two reserved logs, as the notify choices are) when they change."""

    def __init__(self) -> None:
        self.users: dict[str, Locale] = {}
        self.servers: dict[str, Locale] = {}
        """Per table: its server's language, from the interactions in its channel."""
        self.store: StorePort | None = None
        self._saving: set[asyncio.Task[None]] = set()

    async def load(self, store: StorePort) -> None:
        self.store = store
        for log_id, into, key in (
            (USER_LOCALES_LOG, self.users, "user"),
            (TABLE_LOCALES_LOG, self.servers, "table"),
        ):
            for event in await store.events(log_id):
                who, code = event.payload.get(key), event.payload.get("locale")
                lang = parse(code) if isinstance(code, str) else None
                if event.kind == LOCALE_KIND and isinstance(who, str) and lang is not None:
                    into[who] = lang

    def saw(self, interaction: discord.Interaction[discord.Client], table_id: str | None) -> None:
        """Keep the user's language, and the server's for ``table_id`` (None: the
        interaction is at no table). Never waits: a change is stored in the background."""
        user = str(interaction.user.id)
        self._keep(USER_LOCALES_LOG, "user", self.users, user, interaction.locale.value)
        guild = interaction.guild_locale
        if table_id is not None and guild is not None and interaction.guild_id is not None:
            self._keep(TABLE_LOCALES_LOG, "table", self.servers, table_id, guild.value)

    def _keep(self, log_id: str, key: str, into: dict[str, Locale], who: str, code: str) -> None:
        lang = from_discord(code)
        if into.get(who) == lang:
            return
        into[who] = lang
        if self.store is not None:
            task = asyncio.create_task(self._save(self.store, log_id, {key: who, "locale": lang}))
            self._saving.add(task)
            task.add_done_callback(self._saving.discard)

    @staticmethod
    async def _save(store: StorePort, log_id: str, payload: dict[str, str]) -> None:
        try:
            await store.append(log_id, LOCALE_KIND, payload)
        except Exception:  # a language is no chip: only a restart would forget it
            log.exception("could not store a language (%s)", payload)

    async def settle(self) -> None:
        """Wait for the languages being stored (tests, shutdown)."""
        if self._saving:
            await asyncio.gather(*self._saving, return_exceptions=True)

    def user(self, user_id: str) -> Locale:
        return self.users.get(user_id, "en")

    def table(self, table_id: str, setting: str = "") -> Locale:
        """The table's language: its setting, else its server's, else English."""
        return parse(setting) or self.servers.get(table_id, "en")


def of(interaction: discord.Interaction[discord.Client]) -> Locale:
    """The language of the user behind ``interaction`` (his client's)."""
    return from_discord(interaction.locale.value)


__all__ = ["Locales", "error_text", "message", "namer", "notice_text", "of", "outcome_text", "say"]
