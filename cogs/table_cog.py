"""Slash commands: a cog method parses, calls the table service, presents the result.

The table of a channel is the channel id. Rules (what is legal, ranges, who acts) come
only from the service and its engine; here we translate options into requests.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Awaitable, Callable

import discord
from discord import app_commands
from discord.ext import commands

from bot import rulebook
from bot.poker.messages import msg
from bot.table.actor import Actor
from bot.table.games import game_suggestions, split_game
from bot.table.handlabel import hand_label
from bot.table.session import stats_said
from bot.table.settings import LIMIT_NAMES, TableSettings
from bot.table.table import Outcome, Table
from bot.table.text_actions import (
    ActionRequest,
    DrawCountError,
    ParseError,
    declare_choice,
    draw_count_message,
    parse_action,
    parse_value,
)
from bot.table.view import TableView, stakes_said
from bot.words import Locale, render
from cards_art import LedgerLine, LedgerView, RenderedImage, render_ledger
from cogs import names, ops, permissions, places, play, record, standings_cog
from cogs.bot import ChipfistBot
from cogs.prefs import save_notify_mode, save_table_thread
from cogs.words import error_text, of, outcome_text, say

log = logging.getLogger(__name__)
Interaction = discord.Interaction[ChipfistBot]

HELP = "help.text"
"""``/help``, a key of the discord catalogue (said in the asker's language)."""


def rules_answer(asked: str, repo_url: str | None, locale: Locale = "en") -> str:
    """``/rules`` in the asker's language: the rulebook itself is English, which a
    reader of another language is told first."""
    said = _rules_answer(asked, repo_url, locale)
    if locale == "en":
        return said
    note = say("rules.english", locale) + "\n"
    return note + said[: 2000 - len(note)]


def _rules_answer(asked: str, repo_url: str | None, locale: Locale) -> str:
    """``/rules``: the rule's own text from the rulebook shipped with the bot, and a link
    that lands on it when the operator declared the repository (CHIPFIST_REPO_URL)."""
    book = rulebook.text()
    if not asked.strip():
        titles = " · ".join(rulebook.sections(book))
        where = rulebook.link(None, repo_url)
        return say("rules.book", locale, titles=titles) + (f"\n<{where}>" if where else "")
    rule_id = rulebook.normalize(asked)
    every = rulebook.parse(book)
    found = every.get(rule_id or "")
    if rule_id is None or found is None:
        shown = discord.utils.escape_markdown(asked.strip()[:20])
        r_ids = sorted((i for i in every if i.startswith("R-")), key=rulebook.sort_key)
        e_ids = sorted((i for i in every if i.startswith("E-")), key=rulebook.sort_key)
        return say(
            "rules.unknown",
            locale,
            shown=shown,
            r_first=r_ids[0],
            r_last=r_ids[-1],
            e_first=e_ids[0],
            e_last=e_ids[-1],
        )
    where = rulebook.link(rule_id, repo_url)
    suffix = f"\n<{where}>" if where else ""
    limit = 2000 - len(suffix)  # a Discord message holds 2,000 characters
    body = found if len(found) <= limit else found[: limit - 1] + "…"
    return body + suffix


def _key(interaction: Interaction) -> str:
    return f"i{interaction.id}"


def _tid(interaction: Interaction) -> str:
    """The table's id is its channel's; a command from the table's own thread counts
    too, no other thread does (R-1.11, ``cogs.places``)."""
    presenter = interaction.client.presenter
    return places.table_id(interaction, presenter.thread_of, presenter.table_at)


def _per_user_channel(interaction: Interaction) -> tuple[int, int | None]:
    """Cooldowns on commands that post: per user and channel."""
    return (interaction.user.id, interaction.channel_id)


def _per_user(interaction: Interaction) -> int:
    """Cooldowns on the reads of a table's past: per user, wherever he asks."""
    return interaction.user.id


READS_RATE = 5
READS_PER = 60.0
"""``/export``, ``/stats``, ``/ledger``, ``/settle``: each at most this many times per this
many seconds per user (a burst of a few is normal use; a flood is refused privately with
the time left, and nothing is read)."""


class TableCog(commands.Cog):
    """The table commands (``/table …``) and the seat and play commands."""

    table = app_commands.Group(name="table", description="Open, show and run this channel's table")

    def __init__(self, bot: ChipfistBot) -> None:
        self.bot = bot

    async def interaction_check(self, interaction: discord.Interaction[discord.Client], /) -> bool:
        """Every command here: in a server, and a table command only in a channel or its
        table's own thread (R-1.11); else refused privately, nothing done."""
        places.check(interaction, self.bot.presenter.thread_of, self.bot.presenter.table_at)
        return True

    # ------------------------------------------------------------------ helpers

    def _table(self, interaction: Interaction) -> Table | None:
        return self.bot.table(_tid(interaction))

    async def _no_table(self, interaction: Interaction) -> None:
        await ops.reply(interaction, say("table.none", of(interaction)))

    async def _answer(self, interaction: Interaction, outcome: Outcome) -> None:
        await ops.reply(interaction, outcome_text(outcome.msg, of(interaction)))

    async def _run(
        self,
        interaction: Interaction,
        command: Callable[[Table, Actor, str], Awaitable[Outcome]],
    ) -> None:
        """The common shape of a table command: find this channel's table, run the
        service command as this actor (the user, and whether he may manage the channel:
        deal and choose judge it) with the interaction id as its idempotency key, answer
        privately with the outcome."""
        t = self._table(interaction)
        if t is None:
            await self._no_table(interaction)
            return
        # Acknowledged before Discord's 3 s window closes if the command is slow (the
        # store busy): the answer then comes as a follow-up (issue 15).
        watch = play.Watch.start(interaction)
        try:
            # Host-or-moderator commands (deal, choose) judge this interaction's permissions.
            outcome = await command(t, play.actor(interaction), _key(interaction))
        finally:
            await watch.stop()
        await self._answer(interaction, outcome)

    # ------------------------------------------------------------------ /table

    @table.command(name="create", description="Open a poker table in this channel")
    @app_commands.describe(
        variant="The game",
        structure="Betting structure (default: the game's usual one, R-16.9)",
        small_blind="Small blind (or small bet unit)",
        big_blind="Big blind",
        seats="Number of seats (2-10)",
        dealers_choice="The dealer names the game each deal",
        declare="Hi-lo declaration: none, simultaneous chip-fist, or in turn",
        small_bet="Fixed/spread limit: the small bet (0: derived)",
        big_bet="Fixed/spread limit: the big bet (0: derived)",
        ante="Ante per player",
        thread="Play in a thread of its own",
    )
    @app_commands.choices(
        structure=[app_commands.Choice(name=n, value=k) for k, n in LIMIT_NAMES.items()],
        declare=[
            app_commands.Choice(name="none", value="none"),
            app_commands.Choice(name="chip-fist (simultaneous)", value="simultaneous"),
            app_commands.Choice(name="in turn", value="in_turn"),
        ],
    )
    @app_commands.checks.cooldown(1, 10.0, key=_per_user_channel)
    async def create(
        self,
        interaction: Interaction,
        variant: str = "holdem",
        structure: str | None = None,
        small_blind: app_commands.Range[int, 1] = 1,
        big_blind: app_commands.Range[int, 1] = 2,
        seats: app_commands.Range[int, 2, 10] = 9,
        dealers_choice: bool = False,
        declare: str = "none",
        small_bet: app_commands.Range[int, 0] = 0,
        big_bet: app_commands.Range[int, 0] = 0,
        ante: app_commands.Range[int, 0] = 0,
        thread: bool = False,
    ) -> None:
        missing = _bot_missing(interaction, thread=thread)
        if missing:
            await ops.reply(
                interaction,
                say(
                    "table.missing_permissions",
                    of(interaction),
                    missing=", ".join(permissions.label(m) for m in missing),
                ),
            )
            return
        # One alias table (bot/table/games.py): "plo" is pot-limit Omaha, "stud/8" is
        # stud8; a structure chosen in the option wins over the one the name implies.
        game, implied = split_game(variant)
        settings = TableSettings(
            variant=game,
            limit=structure or implied or "",  # empty: the conventional one
            small_blind=small_blind,
            big_blind=big_blind,
            seats=seats,
            dealers_choice=dealers_choice,
            small_bet=small_bet,
            big_bet=big_bet,
            ante=ante,
        )
        if declare != "none":
            # One of the command's choices, checked as a change is: refused (in words)
            # for a game that is not high-low, never kept and ignored.
            settings = settings.changed({"declare": declare})
        tid = _tid(interaction)
        outcome = await self.bot.tables.create(
            tid,
            str(interaction.user.id),
            settings,
            key=_key(interaction),
            host_name=names.kept(interaction.user.display_name),  # escaped where shown
            guild=interaction.guild_id,  # the standings' server, and the table's shard
        )
        if outcome.ok:
            await self._open_thread(interaction, tid, thread)
        await self._answer(interaction, outcome)

    @create.autocomplete("variant")
    async def _variant_ac(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return _game_choices(current, of(interaction))

    @table.command(name="info", description="The table's game, stakes and seats (privately)")
    async def info(self, interaction: Interaction) -> None:
        t = self._table(interaction)
        if t is None:
            await self._no_table(interaction)
            return
        v = t.snapshot(None)
        seats = ", ".join(f"{s.seat}: {names.escape(s.name)} ({s.stack})" for s in v.seats)
        lang = of(interaction)
        seats = seats or say("info.no_seats", lang)
        low, high = t.settings.buy_in_range
        # The game and its stakes in the asker's language (the view's data, not its English).
        stakes = render(stakes_said(v.stakes_data), lang)
        head = f"{stakes}. "
        said = say("info.text", lang, low=low, high=high, host=f"<@{v.host}>", seats=seats)
        await ops.reply(interaction, head + said)

    @table.command(name="show", description="Move the table to the bottom of the chat")
    @app_commands.checks.cooldown(1, 5.0, key=_per_user_channel)
    async def show(self, interaction: Interaction) -> None:
        if self._table(interaction) is None:
            await self._no_table(interaction)
            return
        await ops.defer(interaction)
        await self.bot.presenter.refresh(_tid(interaction), repost=True)
        await ops.reply(interaction, say("play.bumped", of(interaction)))

    @table.command(
        name="pause", description="Pause or resume the table (host, co-host or moderator)"
    )
    @app_commands.describe(paused="True pauses (default), False resumes")
    async def pause(self, interaction: Interaction, paused: bool = True) -> None:
        t = self._table(interaction)
        if t is None:
            await self._no_table(interaction)
            return
        await self._answer(
            interaction, await t.pause(play.actor(interaction), paused, key=_key(interaction))
        )

    @table.command(name="close", description="Close the table (host, co-host or moderator)")
    async def close(self, interaction: Interaction) -> None:
        t = self._table(interaction)
        if t is None:
            await self._no_table(interaction)
            return
        await self._answer(
            interaction, await t.close(play.actor(interaction), key=_key(interaction))
        )

    @table.command(
        name="settings", description="Change a table setting (host, co-host or moderator)"
    )
    @app_commands.describe(name="Setting name, e.g. action_clock", value="New value")
    async def settings(self, interaction: Interaction, name: str, value: str) -> None:
        t = self._table(interaction)
        if t is None:
            await self._no_table(interaction)
            return
        # The terminal's reading of a value: ASCII numbers only ("١٠" is not 10).
        key = name.strip().lower().replace("-", "_").replace(" ", "_")
        outcome = await t.change_settings(
            play.actor(interaction), {key: parse_value(value)}, key=_key(interaction)
        )
        await self._answer(interaction, outcome)

    # ------------------------------------------------------------------ seats

    @app_commands.command(name="sit", description="Take a seat")
    @app_commands.describe(buy_in="Chips to bring", seat="Seat number (any free seat if empty)")
    async def sit(
        self,
        interaction: Interaction,
        buy_in: app_commands.Range[int, 1],
        seat: int | None = None,
    ) -> None:
        t = self._table(interaction)
        if t is None:
            await self._no_table(interaction)
            return
        watch = play.Watch.start(interaction)  # acknowledged in time if the store is slow
        try:
            outcome = await t.sit(
                str(interaction.user.id),
                # Kept and shown as written: no markdown, mention or link (cogs.names).
                names.kept(interaction.user.display_name),  # escaped where shown
                buy_in,
                seat,
                key=_key(interaction),
            )
        finally:
            await watch.stop()
        await self._answer(interaction, outcome)

    @app_commands.command(name="topup", description="Add chips between hands")
    @app_commands.describe(amount="Chips to add")
    async def topup(self, interaction: Interaction, amount: app_commands.Range[int, 1]) -> None:
        await self._run(interaction, lambda t, a, k: t.top_up(a.user_id, amount, key=k))

    @app_commands.command(name="sitout", description="Sit out from the next hand")
    async def sitout(self, interaction: Interaction) -> None:
        await self._run(interaction, lambda t, a, k: t.sit_out(a.user_id, key=k))

    @app_commands.command(name="back", description="Come back from sitting out")
    @app_commands.describe(post="Post a big blind to be dealt in now, not wait for it")
    async def back(self, interaction: Interaction, post: bool = False) -> None:
        await self._run(interaction, lambda t, a, k: t.sit_in(a.user_id, key=k, post=post))

    @app_commands.command(name="stand", description="Leave the table and cash out")
    async def stand(self, interaction: Interaction) -> None:
        await self._run(interaction, lambda t, a, k: t.stand(a.user_id, key=k))

    @app_commands.command(name="deal", description="Deal the next hand")
    async def deal(self, interaction: Interaction) -> None:
        await self._run(interaction, lambda t, a, k: t.deal(a, key=k))

    @app_commands.command(name="choose", description="Dealer's choice: name the game for your deal")
    @app_commands.describe(game="e.g. omaha8 or stud:fixed")
    async def choose(self, interaction: Interaction, game: str) -> None:
        await self._run(interaction, lambda t, a, k: t.choose(a.user_id, game, key=k))

    @choose.autocomplete("game")
    async def _choose_ac(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        # The same alias table as /table create (bot/table/games.py).
        return _game_choices(current, of(interaction))

    @app_commands.command(
        name="straddle", description="Post a straddle for the next deal (left of the big blind)"
    )
    async def straddle(self, interaction: Interaction) -> None:
        await self._run(interaction, lambda t, a, k: t.straddle(a.user_id, key=k))

    # ------------------------------------------------------------------ acting

    async def _act(self, interaction: Interaction, req: ActionRequest) -> None:
        await play.act(interaction, _tid(interaction), req, turn=None)

    @app_commands.command(name="check", description="Check")
    async def check(self, interaction: Interaction) -> None:
        await self._act(interaction, ActionRequest("check"))

    @app_commands.command(name="call", description="Call")
    async def call(self, interaction: Interaction) -> None:
        await self._act(interaction, ActionRequest("call"))

    @app_commands.command(name="fold", description="Fold")
    async def fold(self, interaction: Interaction) -> None:
        await self._act(interaction, ActionRequest("fold"))

    @app_commands.command(name="allin", description="Go all in")
    async def allin(self, interaction: Interaction) -> None:
        await self._act(interaction, ActionRequest("all_in"))

    @app_commands.command(name="bet", description="Bet an amount")
    @app_commands.describe(amount="Chips")
    async def bet(self, interaction: Interaction, amount: app_commands.Range[int, 1]) -> None:
        await self._act(interaction, ActionRequest("bet", amount))

    @app_commands.command(name="raise", description="Raise: by an amount (default) or to a total")
    @app_commands.describe(
        amount="Chips", mode="'by' adds on top of the call; 'to' names the total"
    )
    @app_commands.choices(
        mode=[
            app_commands.Choice(name="by", value="by"),
            app_commands.Choice(name="to", value="to"),
        ]
    )
    async def raise_(
        self, interaction: Interaction, amount: app_commands.Range[int, 1], mode: str = "by"
    ) -> None:
        await self._act(
            interaction, ActionRequest("raise_to" if mode == "to" else "raise_by", amount)
        )

    @app_commands.command(name="declare", description="Declare low, high or both (fallback)")
    @app_commands.describe(choice="Low, high or both")
    @app_commands.choices(
        choice=[app_commands.Choice(name=c, value=c) for c in ("low", "high", "both")]
    )
    async def declare(self, interaction: Interaction, choice: str) -> None:
        said = declare_choice(choice)
        if said is None:  # the command's choices are the three; an old client may differ
            await ops.reply(interaction, say("declare.which", of(interaction)))
            return
        req = ActionRequest("declare", choice=said)
        await play.act(interaction, _tid(interaction), req, turn=None, declare=True)

    @app_commands.command(name="draw", description="Draw: discard cards (none to stand pat)")
    @app_commands.describe(discard="Cards to discard, e.g. 'Ah 7c' (empty: stand pat)")
    async def draw(self, interaction: Interaction, discard: str = "") -> None:
        # The typed parser reads the cards ("ah 10c" is Ah Tc) and refuses a count
        # ("2") or a non-card with what to write instead.
        try:
            req = parse_action(f"draw {discard}") if discard.strip() else ActionRequest("draw")
        except DrawCountError as exc:
            # The example is his own cards: this answer is private (ephemeral).
            t = self._table(interaction)
            me = str(interaction.user.id)
            mine = next((s for s in t.snapshot(me).seats if s.user_id == me), None) if t else None
            own = tuple(c for c in (mine.cards if mine else ()) if c != "??")
            lang = of(interaction)
            await ops.reply(interaction, render(draw_count_message("draw", exc.count, own), lang))
            return
        except ParseError as exc:
            await ops.reply(interaction, error_text(exc, of(interaction)))
            return
        await self._act(interaction, req)

    @app_commands.command(name="cards", description="Your cards (privately)")
    async def cards(self, interaction: Interaction) -> None:
        await play.show_cards(interaction, _tid(interaction))

    @app_commands.command(
        name="pot", description="The pot, your amount to call and legal range (privately)"
    )
    async def pot(self, interaction: Interaction) -> None:
        t = self._table(interaction)
        if t is None:
            await self._no_table(interaction)
            return
        view = t.snapshot(str(interaction.user.id))
        await ops.reply(interaction, pot_text(view, of(interaction)))

    # ------------------------------------------------------------------ other

    @app_commands.command(name="export", description="A finished hand as PHH (hand history)")
    @app_commands.checks.cooldown(READS_RATE, READS_PER, key=_per_user)
    @app_commands.describe(
        hand="The hand's number",
        table="Which of this channel's tables dealt it (1: the first); this one if left out",
    )
    async def export(
        self,
        interaction: Interaction,
        hand: app_commands.Range[int, 1],
        table: app_commands.Range[int, 1] | None = None,
    ) -> None:
        t = self._table(interaction)
        if t is None:
            await self._no_table(interaction)
            return
        await ops.defer(interaction)  # ephemeral: the file is the requester's own copy
        # Only what the table showed, plus the requester's own cards if he was dealt in
        # (docs/phh.md); the reply is ephemeral, so nobody else sees his copy.
        user = str(interaction.user.id)
        # an earlier table's hand of the channel when ``table`` names one.
        text = await t.hand_history(hand, user, session=table)
        # this table's hand; at a channel's later table, named with the table.
        session = table or t.snapshot(user).session
        name = f"hand-{hand}.phh" if session <= 1 else f"table-{session}-hand-{hand}.phh"
        file = discord.File(io.BytesIO(text.encode()), name)
        await interaction.followup.send(
            say("export.caption", of(interaction), hand=hand_label(session, hand)),
            file=file,
            ephemeral=True,
        )

    @app_commands.command(name="history", description="Recent table events (privately)")
    async def history(self, interaction: Interaction) -> None:
        recent = list(self.bot.presenter.channel(_tid(interaction)).recent)
        await ops.reply(interaction, "\n".join(recent) or say("history.nothing", of(interaction)))

    @app_commands.command(name="ledger", description="Who is up and who is down, as a chart")
    @app_commands.checks.cooldown(READS_RATE, READS_PER, key=_per_user)
    @app_commands.describe(
        scope="This table's session (default) or this server's tables over the days",
        since="First day (YYYY-MM-DD, UTC; default: the last day)",
        until="Last day (YYYY-MM-DD, UTC; default: today)",
        export="Attach the ledger as a CSV file",
        story="Draw each player's stack over the session's hands",
    )
    @app_commands.choices(scope=record.SCOPES)
    async def ledger(
        self,
        interaction: Interaction,
        scope: str = "session",
        since: str = "",
        until: str = "",
        export: bool = False,
        story: bool = False,
    ) -> None:
        await ops.defer(interaction)  # ephemeral: rendering takes a moment
        lang = of(interaction)
        tid = _tid(interaction)
        if story:
            told = await self.bot.tables.records.story(self._table(interaction), tid)
            if not told.hands:
                await ops.reply(interaction, render(msg("record.story.none"), lang))
                return
            image = await record.story_image(told, lang)
            await ops.reply(interaction, render(msg("record.story.title"), lang), image=image)
            return
        ledger = await record.ledger_for(self.bot, interaction, tid, scope, since, until)
        text = record.ledger_text(ledger, lang)
        if export:
            await record.send_csv(interaction, ledger, text)
            return
        if ledger.scope == "server" or not ledger.lines:
            await ops.reply(interaction, text)
            return
        nets = [(line.name, line.net) for line in ledger.lines]
        image = await _render_ledger(nets[:20])
        await ops.reply(interaction, text, image=image)

    @app_commands.command(name="settle", description="Who pays whom to settle the session")
    @app_commands.checks.cooldown(READS_RATE, READS_PER, key=_per_user)
    @app_commands.describe(
        scope="This table's session (default) or this server's tables over the days",
        since="First day (YYYY-MM-DD, UTC; default: the last day)",
        until="Last day (YYYY-MM-DD, UTC; default: today)",
    )
    @app_commands.choices(scope=record.SCOPES)
    async def settle(
        self, interaction: Interaction, scope: str = "session", since: str = "", until: str = ""
    ) -> None:
        ledger = await record.ledger_for(
            self.bot, interaction, _tid(interaction), scope, since, until
        )
        await ops.reply(interaction, record.settle_text(ledger, of(interaction)))

    @app_commands.command(
        name="stats",
        description="Hands and chips: this table's, or a player's on this server or all",
    )
    @app_commands.describe(
        player="Whose stats (default: yours, when a scope is given)",
        scope="This table (default), this server's tables, or every server's",
        since="First day (YYYY-MM-DD, UTC; default: the last day)",
        until="Last day (YYYY-MM-DD, UTC; default: today)",
    )
    @app_commands.choices(scope=standings_cog.STATS_SCOPES)
    @app_commands.checks.cooldown(READS_RATE, READS_PER, key=_per_user)
    async def stats(
        self,
        interaction: Interaction,
        player: discord.User | None = None,
        scope: str | None = None,
        since: str = "",
        until: str = "",
    ) -> None:
        if since or until:
            scope = scope if scope in ("server", "everywhere") else "server"
        if scope in ("server", "everywhere") or (player is not None and scope is None):
            # A player's standing across tables (cogs/standings_cog.py), with the
            # night's record's stats over the days.
            await standings_cog.player_stats(
                self.bot, interaction, player, scope or "everywhere", since, until
            )
            return
        stats = await self.bot.tables.stats(_tid(interaction))
        if player is not None:
            stats = [s for s in stats if s.user_id == str(player.id)]
        said = stats_said(stats)
        if said is None:
            await ops.reply(interaction, say("stats.nothing", of(interaction)))
            return
        await ops.reply(interaction, render(said, of(interaction)))

    async def _open_thread(self, interaction: Interaction, tid: str, wanted: bool) -> None:
        """A table in its own thread: the table message, pings and results go there;
        commands still work from the channel or the thread. The thread is the Discord
        side's record of the table (cogs/prefs.py), not a table setting; a new table
        without one plays in the channel again."""
        channel = interaction.channel
        created = None
        if wanted and isinstance(channel, discord.TextChannel):
            name = say("thread.name", self.bot.presenter.table_locale(tid))
            created = await ops.create_thread(channel, name)
        thread_id = created.id if created is not None else 0
        ch = self.bot.presenter.channel(tid)
        if ch.thread_id != thread_id:
            await save_table_thread(self.bot.tables.store, tid, thread_id)
            ch.thread_id = thread_id

    @app_commands.command(name="rules", description="A rule of the rulebook, by its id")
    @app_commands.describe(rule="A rule id such as R-6.2 (or E-4 for a worked example)")
    async def rules(self, interaction: Interaction, rule: str = "") -> None:
        repo = self.bot.settings.repo_url or rulebook.repository_url()
        await ops.reply(interaction, rules_answer(rule, repo, of(interaction)))

    @app_commands.command(name="notify", description="How to be told it is your turn")
    @app_commands.describe(mode="A mention in the channel, or a direct message")
    @app_commands.choices(
        mode=[
            app_commands.Choice(name="a mention in the channel", value="channel"),
            app_commands.Choice(name="a direct message", value="dm"),
        ]
    )
    async def notify(self, interaction: Interaction, mode: str) -> None:
        user_id = str(interaction.user.id)
        # Stored first: the choice is confirmed only once it will survive a restart.
        await save_notify_mode(self.bot.tables.store, user_id, mode)
        self.bot.presenter.ping_mode[user_id] = mode
        await ops.reply(interaction, say(f"notify.{mode}", of(interaction)))

    @app_commands.command(name="help", description="How to play here")
    async def help(self, interaction: Interaction) -> None:
        await ops.reply(interaction, say(HELP, of(interaction)))


def _game_choices(current: str, locale: Locale = "en") -> list[app_commands.Choice[str]]:
    """Discord's game options in the asker's language: the games, and the one an alias
    ("plo", "stud/8") names."""
    return [
        app_commands.Choice(name=render(label, locale)[:100], value=value)
        for label, value in game_suggestions(current, lambda m: render(m, locale))
    ]


def pot_text(v: TableView, locale: Locale = "en") -> str:
    """``/pot``: the pot, and for the player to act what he may do. "To call" only where
    calling is one of his choices (not while declaring, drawing or calling Guts)."""
    text = say("pot.total", locale, n=v.pot_total)
    if v.legal is None:
        return text + " " + say("pot.not_your_turn", locale)
    if "call" in v.legal.actions:
        text += " " + say("pot.to_call", locale, n=v.legal.to_call)
    return text + " " + say("play.you_may", locale, may=render(v.legal.options(), locale))


def _bot_missing(interaction: Interaction, *, thread: bool = False) -> list[str]:
    """What the bot lacks in this channel of what a table needs (``cogs.permissions``)."""
    needed = permissions.CHANNEL + (permissions.THREAD if thread else ())
    return permissions.missing(interaction.app_permissions, needed)


async def _render_ledger(lines: list[tuple[str, int]]) -> RenderedImage | None:
    """The session chart (cards_art), drawn off the event loop."""
    try:
        # A picture is not markdown: the names as written.
        view = LedgerView(tuple(LedgerLine(names.plain(name, 24), net) for name, net in lines))
        return await asyncio.to_thread(render_ledger, view)
    except Exception:
        log.exception("could not draw the ledger")
        return None
