"""The night's record on Discord (docs/RULES.md R-20.40-R-20.45): what ``/ledger``,
``/settle``, ``/stats`` and ``/leaderboard`` show of it, as words in the asker's language
(the ``record`` catalogue), a CSV file or a picture. The commands themselves stay in
``cogs/table_cog.py`` and ``cogs/standings_cog.py``; they call these.

Players of a server's ledger or board are named by mention (each viewer's client shows
the name, the answers ping nobody); in a CSV file, by their display name on the server
(or their id when the bot no longer sees them).
"""

from __future__ import annotations

import asyncio
import io
import logging

import discord

from bot.poker.messages import Msg
from bot.table.record import (
    Ledger,
    Period,
    PlayerRecord,
    ledger_csv,
    ledger_said,
    now_utc,
    parse_period,
    settle_said,
    stats_said,
)
from bot.table.records import Story
from bot.words import Locale, render
from cards_art import RenderedImage, StoryLine, StoryView, render_story
from cogs import names, ops
from cogs.bot import ChipfistBot
from cogs.words import of

log = logging.getLogger(__name__)
Interaction = discord.Interaction[ChipfistBot]

SCOPES = [
    discord.app_commands.Choice(name="this table's session", value="session"),
    discord.app_commands.Choice(name="this server", value="server"),
]
"""``/ledger`` and ``/settle``: a session, or a server's tables over days (R-20.40)."""

LIMIT = 1900
"""Characters of one answer (a Discord message holds 2,000)."""


def said(messages: list[Msg], locale: Locale) -> str:
    """Messages, one a line, within one answer (the lines that do not fit left off)."""
    out: list[str] = []
    size = 0
    for m in messages:
        line = render(m, locale)
        if size + len(line) + 1 > LIMIT:
            break
        out.append(line)
        size += len(line) + 1
    return "\n".join(out)


def mention(user_id: str) -> str:
    return f"<@{user_id}>" if user_id.isdigit() else names.escape(user_id)


def period_of(since: str, until: str, *, days: int = 0) -> Period:
    """The days asked for (R-20.40); a bad date is refused in words (``RecordError``)."""
    return parse_period(since or None, until or None, now=now_utc(), days=days)


def display_names(interaction: Interaction, ids: list[str]) -> dict[str, str]:
    """Members' names on this server from the gateway's cache (ids it does not know are
    left out: shown as their id)."""
    guild = interaction.guild
    out: dict[str, str] = {}
    if guild is None:
        return out
    for user in ids:
        member = guild.get_member(int(user)) if user.isdigit() else None
        if member is not None:
            out[user] = member.display_name
    return out


async def ledger_for(
    bot: ChipfistBot,
    interaction: Interaction,
    tid: str,
    scope: str,
    since: str,
    until: str,
) -> Ledger:
    """The session's ledger, or the server's over the days (default: today)."""
    if scope == "server":
        return await bot.tables.records.server_ledger(interaction.guild_id, period_of(since, until))
    return await bot.tables.session_ledger(tid)


def ledger_text(ledger: Ledger, locale: Locale) -> str:
    if ledger.scope == "server":
        shown = {line.player_id: mention(line.player_id) for line in ledger.lines}
    else:
        shown = {line.player_id: names.escape(line.name) for line in ledger.lines}
    return said(ledger_said(ledger, shown), locale)


def settle_text(ledger: Ledger, locale: Locale) -> str:
    if ledger.scope == "server":
        shown = {line.player_id: mention(line.player_id) for line in ledger.lines}
    else:
        shown = {line.player_id: names.escape(line.name) for line in ledger.lines}
    return said(settle_said(ledger.payments(), shown), locale)


async def send_csv(interaction: Interaction, ledger: Ledger, text: str) -> None:
    """The ledger's CSV as a file of the private answer (``/ledger export``)."""
    if ledger.scope == "server":
        known = display_names(interaction, [line.player_id for line in ledger.lines])
        ledger = Ledger(
            ledger.scope,
            tuple(
                type(line)(
                    line.player_id,
                    known.get(line.player_id, line.player_id),
                    line.buy_ins,
                    line.cash_outs,
                    line.adjustments,
                    line.on_table,
                    line.rake,
                    line.hands,
                )
                for line in ledger.lines
            ),
            ledger.rake,
            ledger.tables,
            ledger.period,
        )
    data = ledger_csv(ledger).encode()
    file = discord.File(io.BytesIO(data), "ledger.csv")
    await interaction.followup.send(
        text, file=file, ephemeral=True, allowed_mentions=ops.mentions()
    )


def stats_text(record: PlayerRecord, who: str, period: Period | None, locale: Locale) -> str:
    return said(stats_said(record, who, period), locale)


async def story_image(story: Story, locale: Locale) -> RenderedImage | None:
    """The session's story drawn off the event loop (R-20.45); None if it could not be."""
    view = StoryView(
        story.hands,
        tuple(StoryLine(names.plain(line.name, 24), line.stacks) for line in story.lines[:20]),
    )
    try:
        return await asyncio.to_thread(render_story, view, locale=locale)
    except Exception:
        log.exception("could not draw the session's story")
        return None


__all__ = [
    "SCOPES",
    "display_names",
    "ledger_for",
    "ledger_text",
    "mention",
    "of",
    "period_of",
    "said",
    "send_csv",
    "settle_text",
    "stats_text",
    "story_image",
]
