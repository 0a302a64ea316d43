"""The one inbound router: every click, modal submission and slash command to the play
functions (:mod:`cogs.play`).

A discord.py extension, loaded by the bot at start (:data:`cogs.bot.ROUTER`). It listens
to every interaction and routes by custom_id:

* ``cf:act|dec|show|bump:<table>:<turn>:<arg>`` (a button) -> ``play.on_button``;
* ``cf:draw:<table>:<turn>:`` (the discard select) -> ``play.on_draw`` with the cards;
* ``cfm:<table>:[<session>.]<turn>`` (the bet/raise modal) -> ``play.on_raise_submit``;
* ``cfs:<table>:[<session>.]<turn>`` (the stated-hand modal, R-9.3) -> ``play.on_state_submit``;
* a ``cf:`` component its message no longer carries (a client showing an older table
  message) -> answered as stale, nothing done (R-6.1);

and adds the slash commands (:class:`cogs.table_cog.TableCog`, which call the same play
functions) and their error handler. Components carry no callbacks
(:mod:`cogs.components`), so this is the only place a click is read.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import discord

from cogs import ops, places, play
from cogs.bot import ChipfistBot
from cogs.errors import on_tree_error
from cogs.host_cog import HostCog
from cogs.ids import decode, decode_modal
from cogs.moderation import Moderation
from cogs.standings_cog import StandingsCog
from cogs.table_cog import TableCog
from cogs.tournament_cog import TournamentCog
from cogs.words import of, say

Interaction = discord.Interaction[ChipfistBot]
STALE = "router.stale"
"""Said for a click on a component the message no longer carries."""


async def route(interaction: Interaction) -> None:
    """Every interaction passes here (slash commands are the command tree's)."""
    # Kept by the presenter: its webhook can carry the next turn's mention (free).
    interaction.client.presenter.saw(interaction)
    if interaction.type == discord.InteractionType.component:
        await _component(interaction)
    elif interaction.type == discord.InteractionType.modal_submit:
        await _modal(interaction)


async def _component(interaction: Interaction) -> None:
    data: Mapping[str, object] = dict(interaction.data or {})
    custom_id = str(data.get("custom_id", ""))
    bid = decode(custom_id)
    if bid is None:
        return  # not a Chipfist component
    message = interaction.message
    if message is not None and custom_id not in _component_ids(
        [c.to_dict() for c in message.components]
    ):
        # discord.py would drop it silently; the player is told nothing changed.
        await ops.reply(interaction, say(STALE, of(interaction)))
        return
    if bid.kind == "draw":
        values = data.get("values")
        picked = values if isinstance(values, list) else []
        cards = tuple(str(v) for v in picked if v != "none")
        await play.on_draw(interaction, bid, cards)
    else:
        await play.on_button(interaction, bid)


async def _modal(interaction: Interaction) -> None:
    """A bet/raise or stated-hand modal, read from the payload: the table and the turn are in its
    custom_id, so no in-memory modal is needed (restarts)."""
    data: Mapping[str, object] = dict(interaction.data or {})
    custom_id = str(data.get("custom_id", ""))
    values = _text_inputs(data.get("components"))
    mid = decode_modal(custom_id)
    if mid is None:
        return
    if mid.kind == "cfs":
        await play.on_state_submit(interaction, mid, values.get("cards", ""))
        return
    await play.on_raise_submit(interaction, mid, values.get("to", ""), values.get("by", ""))


def _children(comp: Mapping[str, object]) -> list[object]:
    inner = comp.get("components")
    out = list(inner) if isinstance(inner, list) else []
    one = comp.get("component")  # a label wraps one component
    if isinstance(one, dict):
        out.append(one)
    return out


def _text_inputs(components: object) -> dict[str, str]:
    """custom_id -> value of every text input in a submitted modal's raw components."""
    out: dict[str, str] = {}
    for comp in components if isinstance(components, list) else ():
        if not isinstance(comp, dict):
            continue
        if comp.get("type") == 4:
            out[str(comp.get("custom_id"))] = str(comp.get("value") or "")
        out.update(_text_inputs(_children(comp)))
    return out


def _component_ids(components: Iterable[object]) -> set[str]:
    out: set[str] = set()
    for comp in components:
        if not isinstance(comp, dict):
            continue
        if comp.get("custom_id"):
            out.add(str(comp["custom_id"]))
        out |= _component_ids(_children(comp))
    return out


async def setup(bot: ChipfistBot) -> None:
    """Wire every inbound path (called by ``load_extension``)."""
    bot.add_listener(route, "on_interaction")
    bot.tree.on_error = on_tree_error  # type: ignore[method-assign]  # as discord.py documents
    await bot.add_cog(TableCog(bot))
    await bot.add_cog(StandingsCog(bot))
    await bot.add_cog(HostCog(bot))
    await bot.add_cog(TournamentCog(bot))
    # Every command guild-only, installed to servers only (R-1.11, cogs/places.py).
    places.restrict(bot.tree)
    # The listeners that follow moderators' actions (permissions, deletions, removals).
    await bot.add_cog(Moderation(bot))
