"""The table message: an embed (pots, whose turn, amount to call, clock) and buttons.

Built only from the spectator snapshot (``table.snapshot(None)``), which holds no
private card, so nothing built here can leak one (invariant 2).
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.poker.legal import ActionName
from bot.poker.messages import Msg, Param
from bot.table.handlabel import hand_label
from bot.table.view import TableView, cards_words, seat_notes, stakes_parts
from bot.words import Locale, render
from cards_art import RenderedImage
from cogs.components import action_buttons
from cogs.names import escape, escape_names
from cogs.words import say

PLAY_PHASES = ("betting", "draw", "declare", "guts", "showdown", "run_twice")


def to_call_of(table: object, view: TableView) -> tuple[int, frozenset[ActionName]]:
    """What the seat to act must add to call, and the names of his legal actions: the
    engine's figures (cogs never compute a bet themselves), as the spectator view holds
    them. Both are public; the actions are left out (empty) while they depend on his
    cards (jacks to open), so the table's buttons cannot give his hand away."""
    if view.to_act is None:
        return 0, frozenset()
    return view.to_call, view.actions


def table_embed(
    view: TableView,
    recent: Sequence[str] = (),
    to_call: int = 0,
    version: str = "",
    locale: Locale = "en",
) -> discord.Embed:
    """The table in its language (``locale``)."""

    def w(key: str, **params: Param | str | int) -> str:
        return say(key, locale, **params)

    head, *more = stakes_parts(view.stakes_data)
    game, rest = render(head, locale), ", ".join(render(m, locale) for m in more)
    embed = discord.Embed(
        title=f"{game} — {rest}" if rest else game,  # the game named once
        colour=discord.Colour.dark_green(),
    )
    lines = list(recent[-6:])
    no_hand = view.phase in ("waiting", "paused", "halted", "closed")
    last = "" if view.last_said is None else render(view.last_said, locale)
    if last and last not in lines and not no_hand:
        lines.append(last)  # only while a hand is on: never after "is over"
    # Names an older version kept raw are shown as written too.
    kept = [s.name for s in view.seats]
    lines = [escape_names(line, kept) for line in lines]
    embed.description = "\n".join(lines) or w("embed.waiting")
    if view.board:
        embed.add_field(name=w("embed.board"), value=cards_words(view.board), inline=False)
    if view.board2:  # a double board's second board
        embed.add_field(name=w("home.embed.board2"), value=cards_words(view.board2), inline=False)
    in_play = view.pot_total - view.reserve
    if view.pots or in_play:
        labels = [
            w("embed.pot.main"),
            *(w("embed.pot.side", n=i) for i in range(1, len(view.pots))),
        ][: len(view.pots)]
        pots = ", ".join(f"{k} {p.amount}" for k, p in zip(labels, view.pots, strict=True))
        embed.add_field(
            name=w("embed.pot"), value=f"{in_play} ({pots})" if len(view.pots) > 1 else str(in_play)
        )
    if view.reserve:
        embed.add_field(name=w("embed.reserve"), value=w("embed.reserve.value", n=view.reserve))
    if view.pot_system == "two_to_win":
        embed.add_field(name=w("embed.two_to_win"), value=w("embed.two_to_win.value"), inline=False)
    who = next((s for s in view.seats if s.seat == view.to_act), None)
    if who is not None:
        clock = f" · <t:{int(view.deadline)}:R>" if view.deadline else ""
        may = f"\n{render(view.options_said, locale)}" if view.options_said else ""
        seat = w("embed.seat", seat=who.seat)
        embed.add_field(name=w("embed.to_act"), value=f"<@{who.user_id}> ({seat}){clock}{may}")
        if view.phase == "betting":  # a draw or a declaration has nothing to call
            embed.add_field(name=w("embed.to_call"), value=str(to_call or view.to_call))
    if view.acting == "sealed":  # declarations or Guts calls, made at once
        active = sum(1 for s in view.seats if s.state in ("active", "all_in"))
        closed = active - view.declare_pending
        clock = f" · <t:{int(view.deadline)}:R>" if view.deadline else ""
        title = w("embed.declare") if view.phase == "declare" else w("embed.in_or_out")
        fists = w("embed.fists_closed", closed=closed, active=active)
        if view.phase == "run_twice":  # how many answered, never what
            title = w("home.embed.run_twice")
            fists = w("home.embed.answered", closed=closed, active=active)
        embed.add_field(name=title, value=f"{fists}{clock}")
    seats = []
    for s in view.seats:
        marks = ("🔘 " if s.is_button else "") + ("▶ " if s.is_turn else "")
        bet = f" · {w('embed.bet', n=s.bet)}" if s.bet else ""
        state = "" if s.state in ("active", "waiting") else f" · {w('embed.state.' + s.state)}"
        notes = "".join(f" · {_note(n, locale)}" for n in seat_notes(view, s))
        # Only public cards are in a spectator snapshot (stud up-cards, shown hands).
        shown = cards_words(tuple(c for c in s.cards if c != "??"))
        cards = f" {shown}" if shown else ""
        # The name as written, never markdown, a mention or a link (escaped again: a name
        # kept by an older version was not).
        name = escape(s.name)
        seats.append(f"{marks}`{s.seat}` {name} — {s.stack}{bet}{state}{notes}{cards}")
    embed.add_field(name=w("embed.seats"), value="\n".join(seats) or "—", inline=False)
    where = f" · {render(view.street_said, locale)}" if view.street_said else ""
    # The version (``cogs.channel``: turn.notices) says which state of the table this is.
    stamp = f" · v{version}" if version else ""
    phase_key = "home.embed.run_twice" if view.phase == "run_twice" else "embed.phase." + view.phase
    # at a channel's later table the number says which table it is.
    hand, phase = w("embed.hand", n=hand_label(view.session, view.hand_no)), w(phase_key)
    embed.set_footer(text=f"{hand}{where} · {phase} · {w('embed.turn', n=view.turn)}{stamp}")
    return embed


def _note(note: Msg, locale: Locale) -> str:
    """A seat's note (``seat_notes``: stood pat, drew 2, marker, legs 1/3) in ``locale``."""
    said = render(note, locale)
    return "🎯 " + said if note.key == "table.note.marker" else said


def table_view(
    view: TableView,
    to_call: int = 0,
    actions: frozenset[ActionName] = frozenset(),
    locale: Locale = "en",
) -> discord.ui.View | None:
    if view.phase not in PLAY_PHASES or view.hand_no == 0:
        return None
    # Who acts comes from the engine (Hand.actors via TableView.acting), not from phases.
    in_turn = view.acting == "in_turn"
    return action_buttons(
        view.table_id,
        view.turn,
        to_call,
        view.phase,
        in_turn=in_turn,
        actions=actions,
        declared_hands=view.declared_hands,
        locale=locale,
        session=view.session,
    )


def with_image(embed: discord.Embed, image: RenderedImage | None) -> discord.Embed:
    """Show the attached table picture inside the embed."""
    if image is not None:
        embed.set_image(url=f"attachment://{image.filename}")
    return embed


def table_message(
    view: TableView,
    recent: Sequence[str],
    image: RenderedImage | None,
    version: str = "",
    *,
    locale: Locale = "en",
) -> tuple[discord.Embed, discord.ui.View | None]:
    """The table message's embed and buttons for the spectator ``view`` (``version``:
    the state's version, shown small in the footer)."""
    to_call, actions = to_call_of(None, view)
    embed = with_image(table_embed(view, recent, to_call, version, locale), image)
    return embed, table_view(view, to_call, actions, locale)
