"""The button of a seat offered from the waiting list (R-20.55, R-20.56): sent with the
DM that offers it, clicked in the DM. Its custom id, ``cfw:take:<table_id>``, carries
the table, so it works after a restart; the click is answered by ``HostCog.on_take``
(cogs/host_cog.py), which seats the player with the table's maximum buy-in (R-2.2), as
the terminal seats its players by default. The service refuses a click after the offer
ended (the seat is kept for someone else, or taken)."""

from __future__ import annotations

import re
from typing import Final

import discord

from bot.poker.messages import Name, msg
from bot.words import Locale, render
from cogs.ids import TABLE

PREFIX: Final = "cfw:take:"
PATTERN: Final = re.compile(rf"cfw:take:(?P<table>{TABLE})")


def custom_id(table_id: str) -> str:
    return PREFIX + table_id


def table_of(custom_id_: str) -> str | None:
    """The table a take-the-seat button is for; None for any other custom id."""
    m = PATTERN.fullmatch(custom_id_)
    return None if m is None else m["table"]


def offer_view(table_id: str, lang: Locale) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    label = render(msg("waitlist.accept"), lang)
    button: discord.ui.Button[discord.ui.View] = discord.ui.Button(
        label=label, style=discord.ButtonStyle.success, custom_id=custom_id(table_id)
    )
    view.add_item(button)
    return view


def offer_here(user_id: str, lang: Locale) -> str:
    """The offer said in the channel to a player whose DMs are closed (no button there:
    ``/sit`` takes the seat)."""
    return render(msg("waitlist.offer_here", who=Name(f"<@{user_id}>")), lang)
