"""Tournaments on Discord (docs/RULES.md R-19.60 to R-19.65): ``/tournament create|
register|unregister|start|status|pause|cancel``, the announcement's Register/Unregister buttons, and
the driver (:mod:`bot.tourney_run.driver`) that deals the tournament's tables, each in
a thread of its own (:mod:`cogs.tourney_board`). Every answer is private and in the
asker's language; a refusal says what is allowed and changes nothing.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.poker.messages import Msg, Name, Rule, msg
from bot.tournament.director import Decision
from bot.tournament.structure import REBUY_WAIT
from bot.tourney_run import lease
from bot.tourney_run.driver import LIVE, Driver, Opened
from bot.tourney_run.journal import Journal
from bot.tourney_run.options import Options, config
from bot.tourney_run.runner import Runner
from bot.tourney_run.titles import MAX_TITLE, event_of, next_number
from bot.words import Locale, render
from cogs import names, ops, permissions, places
from cogs import tourney_entries as entries
from cogs.bot import ChipfistBot
from cogs.ids import decode_tourney
from cogs.prefs import load_table_places
from cogs.tourney_board import DiscordBoards
from cogs.words import of, say

Interaction = discord.Interaction[ChipfistBot]

STRUCTURES = [app_commands.Choice(name=n.title(), value=n) for n in ("turbo", "regular", "deep")]
UNITS = [app_commands.Choice(name=n.title(), value=n) for n in ("minutes", "hands")]
FORMATS = [
    app_commands.Choice(name="Sit-and-go", value="sit_and_go"),
    app_commands.Choice(name="Scheduled", value="scheduled"),
]
ROTATES = [
    app_commands.Choice(name="By level", value="level"),
    app_commands.Choice(name="By orbit", value="orbit"),
    app_commands.Choice(name="By deal", value="deal"),
]
DRIVER_INTERVAL = 0.5
"""Seconds between the driver's passes when nothing wakes it."""
BETWEEN_HANDS = 3.0
"""Seconds a tournament table shows a hand's end before the next deal (a cash table's
``hand_pause`` default)."""


def tournament_id(interaction: Interaction) -> str:
    """A new tournament's id, from the creating interaction (a retry makes no second)."""
    n, digits = interaction.id, "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while n:
        n, r = divmod(n, 36)
        out = digits[r] + out
    return "t" + out


def said(lines: tuple[Msg, ...] | list[Msg], locale: Locale) -> str:
    return "\n".join(render(m, locale) for m in lines)


def answer(decision: Decision, locale: Locale) -> str:
    """A command's private answer: the refusal, or what the director said."""
    if decision.refusal is not None:
        return render(decision.refusal, locale)
    return said(decision.notices[:2], locale) or render(msg("tourney.done"), locale)


class TournamentCog(commands.Cog):
    """``/tournament …`` and the announcements' buttons."""

    tournament = app_commands.Group(
        name="tournament", description="Tournaments: sit-and-gos and scheduled freezeouts"
    )

    def __init__(self, bot: ChipfistBot) -> None:
        self.bot = bot
        self.boards = DiscordBoards(bot, bot.presenter)
        self._driver: Driver | None = None

    @property
    def driver(self) -> Driver:
        assert self._driver is not None, "the driver starts with the cog, after the service"
        return self._driver

    async def cog_load(self) -> None:
        """The boards as recorded, every open tournament recovered, the loop started
        (nothing to drive when the cog is loaded without a service: the command list)."""
        if self.bot.service is None:
            return
        self._driver = Driver(
            self.bot.service, self.boards, interval=DRIVER_INTERVAL, between=BETWEEN_HANDS
        )
        self.boards.driver = self._driver
        # Several processes: only the tournaments of the shards held here, and those of
        # a shard taken over once its tables are recovered.
        lease.attach(self._driver, before=self._before_adopting, after=self._adopted)
        await self.boards.load()
        for tournament in await self._driver.recover():
            self.boards.repaint(tournament)
        self._driver.start_loop()

    async def _before_adopting(self) -> None:
        """What the process that ran them recorded: the tables' threads and the
        tournaments' messages, edited from here on, never made twice."""
        store = self.driver.service.store
        self.bot.presenter.learn_places(await load_table_places(store))
        await self.boards.load()

    def _adopted(self, tournaments: list[str]) -> None:
        for tournament in tournaments:
            self.boards.repaint(tournament)

    async def _elsewhere(self, interaction: Interaction, tournament: str | None) -> bool:
        """A tournament another process runs now (its shard moving): told so, as a
        cash table's command is, and nothing changed (R-19.77)."""
        if tournament is None or tournament not in self.driver.elsewhere:
            return False
        await ops.reply(interaction, render(msg("table.not_owned"), of(interaction)))
        return True

    async def cog_unload(self) -> None:
        if self._driver is not None:
            await self._driver.stop()
        await self.boards.close()

    async def interaction_check(self, interaction: discord.Interaction[discord.Client], /) -> bool:
        """In a server, in a channel or a table's own thread only (R-1.11)."""
        places.check(interaction, self.bot.presenter.thread_of, self.bot.presenter.table_at)
        return True

    # ------------------------------------------------------------ finding one

    def _named(self, interaction: Interaction, given: str | None) -> str | None:
        """The tournament a command names: the one given, else the one whose table's
        thread this is, else the newest open in this channel (for a closed table's
        thread: in the channel the thread is under)."""
        if given:
            known = self.driver.get(given.strip()) or given.strip() in self.driver.elsewhere
            return given.strip() if known else None
        channel = interaction.channel_id or 0
        placed = self.bot.presenter.table_at(channel)
        opened_by = self.driver.service.tournament_of(placed) if placed is not None else ""
        if opened_by:
            return opened_by  # set by the tournament when it opened the table
        if placed is not None and placed in self.bot.presenter.places:
            channel = self.bot.presenter.places[placed][0]
        here = self.driver.at_place(channel)
        live = [t for t in here if self._live(t)]
        found = live or here
        return found[-1] if found else None

    def _live(self, tournament: str) -> bool:
        runner = self.driver.get(tournament)
        return runner is not None and runner.st.status in LIVE

    async def _find(self, interaction: Interaction, given: str | None) -> Runner | None:
        tournament = self._named(interaction, given)
        runner = self.driver.get(tournament) if tournament else None
        if runner is None and await self._elsewhere(interaction, tournament):
            return None
        if runner is None:
            key = "tourney.refuse.unknown" if given else "tourney.refuse.none"
            await ops.reply(interaction, render(msg(key), of(interaction)))
        return runner

    def _may_manage(self, interaction: Interaction, tournament: str) -> bool:
        """R-19.60: its host (who created it) or a moderator (Manage Channels)."""
        opened = self.driver.opened.get(tournament)
        if interaction.guild_id is not None and interaction.permissions.manage_channels:
            return True
        return opened is not None and opened.host == str(interaction.user.id)

    def _may_create(self, interaction: Interaction) -> bool:
        """R-19.60: a moderator, or the host of the channel's open table."""
        if interaction.guild_id is not None and interaction.permissions.manage_channels:
            return True
        table = self.bot.table(str(interaction.channel_id))
        return table is not None and table.snapshot(None).host == str(interaction.user.id)

    # ------------------------------------------------------------ create

    @tournament.command(name="create", description="Open a tournament in this channel")
    @app_commands.describe(
        game="The game (hold'em, Omaha, stud, razz, draw...) or a rotation (horse)",
        stack="Starting stack (chips)",
        structure="Blind schedule preset",
        level_unit="Levels last minutes or hands",
        level_length="Minutes or hands per level (0: the preset's)",
        format="Sit-and-go (starts when full) or scheduled",
        players="Sit-and-go: players to start (0: one full table); scheduled: the cap",
        seats="Players per table (0: a full table of the game)",
        start_in="Scheduled: minutes from now until it starts by itself (0: by its host)",
        buy_in="Buy-in (recorded, never cash chips)",
        bounty="Part of the buy-in paid to whoever knocks a player out",
        late_until="Late registration through this level (0: none)",
        payouts="Prize shares in percent by place, e.g. 50,30,20 (empty: the default)",
        reentries="Re-entries a player may buy after busting, during late registration",
        rebuys="Rebuys a player may buy (stack at or below the starting stack)",
        rebuy_until="Rebuys are sold through this level; the add-on at its end",
        addon="The add-on's chips (0: none)",
        addon_price="What the add-on costs (0: the buy-in)",
        rotate="A rotation (horse) changes game each level, orbit or deal (default: level)",
        rebuy_wait="Seconds a busted player may wait to rebuy (10 to 600; default 60)",
        title="The tournament's name on its board, threads and standings (default: Sit-and-go #N)",
    )
    @app_commands.choices(structure=STRUCTURES, level_unit=UNITS, format=FORMATS, rotate=ROTATES)
    async def create(
        self,
        interaction: Interaction,
        game: str = "holdem",
        stack: app_commands.Range[int, 1] = 1500,
        structure: str = "regular",
        level_unit: str = "minutes",
        level_length: app_commands.Range[int, 0] = 0,
        format: str = "sit_and_go",
        players: app_commands.Range[int, 0] = 0,
        seats: app_commands.Range[int, 0, 10] = 0,
        start_in: app_commands.Range[int, 0] = 0,
        buy_in: app_commands.Range[int, 0] = 100,
        bounty: app_commands.Range[int, 0] = 0,
        late_until: app_commands.Range[int, 0, 50] = 0,
        payouts: str = "",
        reentries: app_commands.Range[int, 0, 10] = 0,
        rebuys: app_commands.Range[int, 0, 10] = 0,
        rebuy_until: app_commands.Range[int, 0, 50] = 0,
        addon: app_commands.Range[int, 0] = 0,
        addon_price: app_commands.Range[int, 0] = 0,
        rotate: str = "level",
        rebuy_wait: int = REBUY_WAIT,
        title: app_commands.Range[str, 1, MAX_TITLE] = "",
    ) -> None:
        lang = of(interaction)
        if not self._may_create(interaction):
            await ops.reply(
                interaction, render(msg("tourney.refuse.create", rule=Rule("R-19.60")), lang)
            )
            return
        if places.is_thread(interaction.channel):
            await ops.reply(interaction, render(msg("tourney.refuse.thread"), lang))
            return
        missing = _bot_missing(interaction)
        if missing:
            text = say(
                "table.missing_permissions",
                lang,
                missing=", ".join(permissions.label(m) for m in missing),
            )
            await ops.reply(interaction, text)
            return
        unit: Literal["minutes", "hands"] = "hands" if level_unit == "hands" else "minutes"
        kind: Literal["sit_and_go", "scheduled"] = (
            "scheduled" if format == "scheduled" else "sit_and_go"
        )
        options = Options(
            game=game,
            stack=stack,
            structure=structure,
            unit=unit,
            length=level_length,
            format=kind,
            players=players,
            seats=seats,
            start_in=start_in,
            buy_in=buy_in,
            bounty=bounty,
            late_until=late_until,
            payouts=payouts,
            reentries=reentries,
            rebuys=rebuys,
            rebuy_until=rebuy_until,
            addon=addon,
            addon_price=addon_price,
            rotate=rotate,
            rebuy_wait=rebuy_wait,
        )
        made = config(options)
        if isinstance(made, Msg):
            await ops.reply(interaction, render(made, lang))
            return
        await ops.defer(interaction)
        tournament = tournament_id(interaction)
        # the tournament (and every table it opens) on its server's shard.
        refused = await lease.claim(self.driver.service, tournament, interaction.guild_id)
        if refused is not None:
            await ops.reply(interaction, render(refused, lang))
            return
        if self.driver.service.ownership is None and interaction.guild_id is not None:
            # its money counts in its server's standings; with several
            # processes ``claim`` recorded the guild already.
            await Journal(self.driver.service.store, tournament).record_guild(interaction.guild_id)
        now = self.bot.tables.time.now()
        guild = interaction.guild_id or 0
        opened = Opened(
            tournament,
            interaction.channel_id or 0,
            str(interaction.user.id),
            now + start_in * 60 if start_in else 0.0,
            # kept as written (one line, no invisible character), escaped
            # where Discord's markdown shows it.
            names.clean(title, MAX_TITLE) if title.strip() else "",
            guild,
            next_number(self.driver.opened.values(), guild),
        )
        # Its public words in the server's language (R-19.64's board, the standings).
        self.bot.presenter.locales.saw(interaction, str(opened.place))
        await self.driver.create(opened, made)  # None: this very command, retried
        posted = await self.boards.post_announcement(tournament, opened.place)
        key = "tourney.created" if posted else "tourney.created_unposted"
        event = names.escaped(
            msg(key, event=event_of(self.driver, tournament), id=Name(tournament))
        )
        await ops.reply(interaction, render(event, lang))

    # ------------------------------------------------------------ entries

    @tournament.command(name="register", description="Register for a tournament")
    @app_commands.describe(tournament="Its id (default: the one open here)")
    async def register(self, interaction: Interaction, tournament: str | None = None) -> None:
        runner = await self._find(interaction, tournament)
        if runner is not None:
            await self._register(interaction, runner.tournament)

    @tournament.command(name="unregister", description="Take back your registration")
    @app_commands.describe(tournament="Its id (default: the one open here)")
    async def unregister(self, interaction: Interaction, tournament: str | None = None) -> None:
        runner = await self._find(interaction, tournament)
        if runner is not None:
            await self._unregister(interaction, runner.tournament)

    async def _register(self, interaction: Interaction, tournament: str) -> None:
        await ops.defer(interaction)
        name = names.kept(interaction.user.display_name)
        decision = await self.driver.register(tournament, str(interaction.user.id), name)
        await ops.reply(interaction, answer(decision, of(interaction)))

    async def _unregister(self, interaction: Interaction, tournament: str) -> None:
        await ops.defer(interaction)
        decision = await self.driver.unregister(tournament, str(interaction.user.id))
        await ops.reply(interaction, answer(decision, of(interaction)))

    @commands.Cog.listener("on_interaction")
    async def on_button(self, interaction: Interaction) -> None:
        """An announcement's Register or Unregister button (R-19.61)."""
        if interaction.type != discord.InteractionType.component:
            return
        data: Mapping[str, object] = dict(interaction.data or {})
        found = decode_tourney(str(data.get("custom_id", "")))
        if found is None:
            return
        kind, tournament = found
        if self.driver.get(tournament) is None and await self._elsewhere(interaction, tournament):
            return
        if self.driver.get(tournament) is None:
            await ops.reply(interaction, render(msg("tourney.refuse.unknown"), of(interaction)))
            return
        if kind == "reg":
            await self._register(interaction, tournament)
        else:
            await self._unregister(interaction, tournament)

    @tournament.command(name="rebuy", description="Buy a rebuy while rebuys are open")
    @app_commands.describe(tournament="Its id (default: the one open here)")
    async def rebuy(self, interaction: Interaction, tournament: str | None = None) -> None:
        """R-19.91: refused privately with the director's reason when not allowed."""
        runner = await self._find(interaction, tournament)
        if runner is not None:
            await entries.buy(
                self.driver, interaction, runner.tournament, of(interaction),
                kind="rebuy",
            )  # fmt: skip

    @tournament.command(name="addon", description="Buy the add-on while it is open")
    @app_commands.describe(tournament="Its id (default: the one open here)")
    async def addon(self, interaction: Interaction, tournament: str | None = None) -> None:
        runner = await self._find(interaction, tournament)
        if runner is not None:
            await entries.buy(
                self.driver, interaction, runner.tournament, of(interaction),
                kind="addon",
            )  # fmt: skip

    @commands.Cog.listener("on_interaction")
    async def on_buy_button(self, interaction: Interaction) -> None:
        """A status board's Rebuy or Add-on button (R-19.91)."""
        if interaction.type != discord.InteractionType.component:
            return
        data: Mapping[str, object] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        waited = entries.decode_wait(custom_id)
        if waited is not None:  # a busted player's Rebuy / I'm out
            answer, tournament, index = waited
            if self.driver.get(tournament) is None:
                await ops.reply(interaction, render(msg("tourney.refuse.unknown"), of(interaction)))
                return
            await entries.answer_wait(
                self.driver, interaction, tournament, of(interaction), kind=answer, index=index,
                answered=self.boards.answered.setdefault(tournament, set()),
            )  # fmt: skip
            return
        found = entries.decode_entry(custom_id)
        if found is None:
            return
        kind, tournament, offered = found
        if self.driver.get(tournament) is None and await self._elsewhere(interaction, tournament):
            return
        if self.driver.get(tournament) is None:
            await ops.reply(interaction, render(msg("tourney.refuse.unknown"), of(interaction)))
            return
        await entries.buy(
            self.driver, interaction, tournament, of(interaction), kind=kind, offered=offered
        )

    # ------------------------------------------------------------ running it

    @tournament.command(name="start", description="Start the tournament now (host or moderator)")
    @app_commands.describe(tournament="Its id (default: the one open here)")
    async def start(self, interaction: Interaction, tournament: str | None = None) -> None:
        """R-19.26: seats drawn, stacks equal; refused with too few players."""
        await self._host_command(interaction, tournament, lambda r, by, key: r.start())

    @tournament.command(
        name="pause", description="Pause or resume the tournament (host or moderator)"
    )
    @app_commands.describe(
        resume="True resumes it", tournament="Its id (default: the one open here)"
    )
    async def pause(
        self, interaction: Interaction, resume: bool = False, tournament: str | None = None
    ) -> None:
        """R-19.41: tables finish the hand in progress and deal no more until resumed."""
        await self._host_command(
            interaction,
            tournament,
            lambda r, by, key: r.resume(by, key=key) if resume else r.pause(by, key=key),
        )

    @tournament.command(name="cancel", description="Call the tournament off, refunds by rule")
    @app_commands.describe(tournament="Its id (default: the one open here)")
    async def cancel(self, interaction: Interaction, tournament: str | None = None) -> None:
        """R-19.39: refunds by rule; the tables are emptied and closed."""
        await self._host_command(interaction, tournament, lambda r, by, key: r.cancel(by, key=key))

    async def _host_command(
        self,
        interaction: Interaction,
        given: str | None,
        command: Callable[[Runner, str, str], Awaitable[Decision]],
    ) -> None:
        """A command of the tournament's host or a moderator (R-19.60), run once by the
        interaction's id; answered privately."""
        runner = await self._find(interaction, given)
        if runner is None:
            return
        lang = of(interaction)
        if not self._may_manage(interaction, runner.tournament):
            refusal = msg("tourney.refuse.host", rule=Rule("R-19.60"))
            await ops.reply(interaction, render(refusal, lang))
            return
        await ops.defer(interaction)
        by, key = str(interaction.user.id), f"i{interaction.id}"
        decision = await self.driver.run(runner.tournament, lambda r: command(r, by, key))
        await ops.reply(interaction, answer(decision, lang))

    @tournament.command(name="status", description="The tournament's status board (privately)")
    @app_commands.describe(tournament="Its id (default: the one open here)")
    async def status(self, interaction: Interaction, tournament: str | None = None) -> None:
        runner = await self._find(interaction, tournament)
        if runner is None:
            return
        lang = of(interaction)
        player = str(interaction.user.id)  # his copy: with his queued purchases
        embed = self.boards.status_embed(runner.tournament, lang, player=player)
        await ops.reply(interaction, "", embed=embed)


def _bot_missing(interaction: Interaction) -> list[str]:
    """Which of the channel's and the threads' permissions the bot lacks here."""
    perms = interaction.app_permissions
    return permissions.missing(perms, permissions.CHANNEL + permissions.THREAD)


async def setup(bot: ChipfistBot) -> None:
    await bot.add_cog(TournamentCog(bot))
