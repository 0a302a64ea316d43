"""``python -m bot --local``: a table in the terminal, no Discord token needed.

Each line is ``NAME: ACTION`` (``alice: raise to 40``) or a table command (``deal``,
``table``, ``quit``). Private cards are shown only on request (``alice: cards``). The
table lives in a SQLite file like the real bot, so a killed game resumes where it was.
``--robots N`` lets the scripted players play N hands of random legal actions
(the kill test and demos use it).
"""

from __future__ import annotations

import argparse
import asyncio
import codecs
import contextlib
import os
import random
import re
import signal
import sqlite3
import sys
import threading
from collections.abc import Iterator
from typing import Final, TextIO

from bot.local import tourney
from bot.local.drawing import cards_text, draw
from bot.local.host import HOST_COMMANDS, host_line
from bot.local.presenter import TerminalPresenter
from bot.local.record import record_lines
from bot.local.reports import board_lines, player_lines, stats_lines
from bot.local.robot import pick
from bot.local.words import Words, choose, player_phrase
from bot.poker.messages import Chips, Count, Name, Param, msg
from bot.store import DatabaseInUse, StoreError, describe, is_postgres
from bot.table.clocks import SystemTime
from bot.table.errors import SettingsError, TableError
from bot.table.games import split_game, split_rotation
from bot.table.ports import StorePort, open_store
from bot.table.service import TableService
from bot.table.settings import TableSettings, parse_game
from bot.table.standings import DEFAULT_MIN_HANDS, DEFAULT_TOP
from bot.table.table import Outcome, Table
from bot.table.text_actions import (
    ParseError,
    check_name,
    clip,
    parse_action,
    parse_amount,
    parse_value,
)
from bot.table.view import TableView

TABLE_ID = "local"
"""The first table of a file; each `new` opens the next one, ``local-2``, ``local-3``...
A table's log is its own: a new table never continues a closed one's hand numbers, its
idempotency keys or its history."""
HOST = "host"
MAX_LINE = 500
"""The longest line read as a command; a longer one is refused without being echoed."""
HELP_KEY = "help"
"""The key of the help text (``terminal.help``): the commands stay English words, the
actions are shown in the reader's language's words (bot/table/amounts.py reads them)."""

# Player words for what is not an action (the rest go to the action parser).
_SIT_OUT = {"sitout", "sit out", "sit out next hand", "sitting out", "take a break", "away"}
_BACK = {"back", "sit in", "sitin", "i'm back", "im back", "return", "come back", "i am back"}
_LEAVE = {
    "leave",
    "leave table",
    "leave the table",
    "stand up",
    "standup",
    "cash out",
    "cashout",
    "get up",
    "quit table",
    "quit",
    "exit",
    "i'm out of here",
}
_TOP_UP = ("top up", "topup", "rebuy", "re buy", "add on", "addon", "add", "buy in", "buyin", "buy")
_CARDS = {"cards", "my cards", "hand", "my hand", "hole cards"}
# The home game's player lines (§20); the help names each (tests/test_local_terminal_help.py).
POST: Final = ("post", "back post", "back and post", "post and play")
SHOW_CHOICES: Final = ("show all", "show 1", "show 2")
RABBIT: Final = ("rabbit", "rabbit hunt")
BOMB: Final = ("bomb", "bomb yes", "bomb no")
PLAYER_LINES: Final = frozenset(
    {*RABBIT, *BOMB, *POST, "straddle", "run twice yes", "run twice no"}
)
"""The home game's player lines: typed alone (no ``NAME:``), they are answered with the
line to type (R-20.79)."""


def _prog(argv: list[str]) -> str:
    """The command as it was typed, for the usage and ``--help`` (R-19.111): a
    tournament's (``python -m bot --tournament sng``) or the table's."""
    if "--tournament" in argv:
        at = argv.index("--tournament")
        fmt = argv[at + 1] if at + 1 < len(argv) and argv[at + 1] in tourney.FORMATS else ""
        return f"python -m bot --tournament {fmt}".rstrip()
    for arg in argv:
        if arg.startswith("--tournament="):
            return f"python -m bot {arg}"
    return "python -m bot --local"


def parse_args(argv: list[str]) -> argparse.Namespace:
    ap = argparse.ArgumentParser(prog=_prog(argv), description=__doc__)
    ap.add_argument("--local", action="store_true", help="(accepted for python -m bot)")
    ap.add_argument(
        "--db",
        default="chipfist.sqlite3",
        help="SQLite file or postgresql:// URL (default %(default)s)",
    )
    ap.add_argument("players", nargs="*", help="players to seat at the start")
    # Options that shape a new table default to None, so that a resumed table can say
    # which of them it ignored.
    ap.add_argument("--buy-in", default=None, help="buy-in per player (default: the maximum)")
    ap.add_argument(
        "--game",
        default=None,
        help="game, e.g. holdem, plo, stud8, omaha8:pot_limit; a comma-separated list "
        "(or horse) is a rotation (default holdem)",
    )
    ap.add_argument("--blinds", default=None, help="small/big blind (default 1/2)")
    ap.add_argument(
        "--auto", action="store_true", default=None, help="deal the next hand automatically"
    )
    ap.add_argument(
        "--robots",
        type=int,
        nargs="?",
        const=-1,
        default=0,
        help="robots play this many hands; in a tournament (no number) robots take every seat",
    )
    ap.add_argument(
        "--seed",
        default=None,
        help="seed the shuffle and the first button, for a reproducible local game "
        "(the same seed and the same lines deal the same cards); also the robots' choices",
    )
    ap.add_argument("--snapshot-every", type=int, default=50, help="hands between snapshots")
    ap.add_argument("--quiet", action="store_true", help="print only state lines (robots)")
    ap.add_argument(
        "--lang",
        default=None,
        help="the table's language: en, de, fr, es, pt_BR or ru (default: CHIPFIST_LANG, else en)",
    )
    tourney.add_arguments(ap)
    return ap.parse_args(argv)


class LocalTable:
    def __init__(self, args: argparse.Namespace, out: TextIO) -> None:
        self.args = args
        self.out = out
        self.words = Words(choose(args.lang))
        self.presenter = TerminalPresenter(out, quiet=args.quiet, words=self.words)
        self.store: StorePort | None = None
        self.service: TableService | None = None
        self.n = 0
        self.table_id = TABLE_ID

    def key(self, label: str) -> str:
        # One idempotency key per typed line, unique across restarts of the same file.
        self.n += 1
        assert self.service is not None
        existing = self.service.get(self.table_id)
        turn = existing.snapshot(None).turn if existing is not None else 0
        return f"local:{label}:{turn}:{self.n}:{random.getrandbits(32)}"

    @property
    def table(self) -> Table:
        assert self.service is not None
        return self.service.table(self.table_id)

    def emit(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def refuse(self, key: str, **params: Param | str | int) -> None:
        """A line that changes nothing, answered with what to write instead."""
        self.emit("! " + self.words(key, **params))

    @contextlib.contextmanager
    def answering(self) -> Iterator[None]:
        """While the terminal prints a command's refusal itself (:meth:`answer`, in its
        language), the presenter does not print it too."""
        self.presenter.answering = True
        try:
            yield
        finally:
            self.presenter.answering = False

    def answer(self, user: str, out: Outcome) -> Outcome:
        """A refused command's answer, in the terminal's language."""
        if not out.ok:
            who = "" if user == HOST else f"{user}: "
            self.emit(f"! {who}{self.words.render(out.msg)}")
        return out

    def drawing(self) -> str:
        """The table as everyone sees it, in the terminal's language."""
        view = self.table.snapshot(None)
        legal = None
        if view.options_said is not None:
            mover = next((s for s in view.seats if s.seat == view.to_act), None)
            legal = self.table.snapshot(mover.user_id).legal if mover else None
        return draw(self.words, view, self.table.time.now(), legal)

    async def open_store(self) -> str:
        """Open the database; what is wrong with it in one line ("" when it opened)."""
        db = self.args.db
        folder = os.path.dirname(db) or "."
        if not is_postgres(db) and not os.path.isdir(folder):
            return self.words("db.no_folder", db=db, folder=folder)
        if not is_postgres(db) and os.path.isdir(db):
            return self.words("db.is_folder", db=db, example=f"{db}/chipfist.sqlite3")
        try:
            self.store = await open_store(db)
        except DatabaseInUse as exc:
            return str(exc)
        except (OSError, StoreError, sqlite3.Error) as exc:
            return self.words("db.cannot_open", db=describe(db), error=str(exc))
        return ""

    async def start(self) -> None:
        if self.store is None:
            self.store = await open_store(self.args.db)
        self.service = TableService(
            self.store,
            self.presenter,
            SystemTime(),
            snapshot_every=self.args.snapshot_every,
            seed=self.args.seed,
        )
        halted = await self.service.recover(settle=False)
        self.table_id = await self.current_table_id()
        existing = self.service.get(self.table_id)
        if existing is None or existing.snapshot(None).phase == "closed":
            with self.answering():
                await self.open_table(self.args.game)
        else:
            self.emit(f"resumed: {self.table.digest()} turn {existing.snapshot(None).turn}")
            ignored = [f"--{o.replace('_', '-')}" for o in NEW_TABLE_OPTIONS]
            ignored = [o for o, v in zip(ignored, _options(self.args), strict=True) if v]
            if ignored:
                # A second start in the same folder: the options would make a new table,
                # and this file already holds one (R-16.2: the game is the table's).
                stakes = self.words.render(self.table.settings.stakes_said())
                told = ", ".join(ignored)
                db = self.args.db
                self.emit(self.words("resume.ignored", db=db, stakes=stakes, options=told))
        if halted:
            self.emit(self.words("halted", reason=self.table.snapshot(None).halted or ""))
        conservation = self.table.conservation_error()
        ok = "ok" if conservation is None else self.words.render(conservation)
        self.emit(f"conservation: {ok}")
        await self.service.settle_all()
        with self.answering():
            await self.seat_players()

    async def current_table_id(self) -> str:
        """The file's open table (the newest, ``local-N`` with the highest N), or, when
        none is open, the first id no table of this file has used."""
        assert self.store is not None
        numbered = [(table_number(t), t) for t in await self.store.open_tables() if table_number(t)]
        if numbered:
            return max(numbered)[1]
        return await self.unused_table_id(1)

    async def unused_table_id(self, number: int) -> str:
        """``local-N`` for the first N from ``number`` on whose log is empty."""
        assert self.store is not None
        while await self.store.events(table_name(number)):
            number += 1
        return table_name(number)

    async def open_table(self, game: str | None) -> bool:
        assert self.service is not None
        settings = settings_from_args(self.args, game, self.words)
        outcome = await self.service.create(self.table_id, HOST, settings, key=self.key("create"))
        return self.answer(HOST, outcome).ok

    async def seat_players(self) -> None:
        for name in self.args.players:
            try:
                clean = check_name(name)
            except ParseError as exc:
                self.emit(f"! {self.words.refusal(exc)}")
                continue
            if not self.seated(self.user_id(clean)):
                await self.sit(clean, [])

    def seated(self, user: str) -> bool:
        assert self.service is not None
        return self.service.is_seated(self.table_id, user)

    def user_id(self, name: str) -> str:
        """The player's id: a seated player whose name matches without case, else the
        casefolded name ("Alice" and "alice" are one player)."""
        folded = name.casefold()
        for seat in self.table.snapshot(None).seats:
            if folded in (seat.user_id.casefold(), seat.name.casefold()):
                return seat.user_id
        return folded

    async def sit(self, name: str, rest: list[str]) -> None:
        """``sit [SEAT] [BUYIN]`` (also ``sit down in seat 3 with 200``); ``any`` for the
        seat is the first free one."""
        _, high = self.table.settings.buy_in_range
        numbers = [w for w in rest if w not in ("down", "in", "seat", "at", "with", "for")]
        ok = len(numbers) <= 2 and all(re.fullmatch(r"[0-9]{1,9}", w) for w in numbers[1:])
        if not ok or (numbers and not re.fullmatch(r"[0-9]{1,9}|any", numbers[0])):
            self.refuse("sit.usage", name=name)
            return
        seat = int(numbers[0]) if numbers and numbers[0] != "any" else None
        default = _buy_in(self.args) or high
        buy_in = int(numbers[1]) if len(numbers) > 1 else default
        said_with = any(w in ("with", "for") for w in rest)
        if (
            len(numbers) == 1
            and seat is not None
            and (said_with or seat > self.table.settings.seats)
        ):
            # "sit 200", "sit with 200": one number that is no seat here is the buy-in.
            seat, buy_in = None, int(numbers[0])
        # A refusal is printed by the presenter (to the player who asked).
        user = self.user_id(name)
        self.answer(user, await self.table.sit(user, name, buy_in, seat, key=self.key("sit")))

    async def line(self, raw: str) -> bool:
        """Handle one input line; False to stop. Nothing a line holds raises: a line that
        is not understood is answered and changes nothing."""
        text = raw.strip()
        if not text or text.startswith("#"):
            return True
        if len(text) > MAX_LINE:
            self.refuse("line.too_long", length=Count(len(text)), most=Count(MAX_LINE))
            return True
        first, _, rest = text.partition(" ")
        # Table commands first: "set rotation=holdem:fixed" holds a colon, but it is a
        # setting, not a player called "set rotation=holdem" (a player line's name ends
        # at its colon, so "set: call" is still the player "set").
        if first.lower() in COMMANDS:
            with self.answering():
                return await self.command(first.lower(), rest.strip())
        if ":" not in text:
            phrase = " ".join(text.lower().split())
            if phrase in PLAYER_LINES and not (self.seated(self.user_id(first)) and rest):
                # a player's line typed alone: the line to type, under a name.
                self.emit("! " + self.words.render(msg("home.player_line", line=Name(phrase))))
            elif self.seated(self.user_id(first)) and rest:
                example = f"{clip(first)[1:-1]}: {clip(rest)[1:-1]}"
                self.refuse("line.colon", example=example)
            else:
                self.refuse("line.unknown", command=clip(first))
            return True
        name, _, action = text.partition(":")
        try:
            name = check_name(name)
        except ParseError as exc:
            self.emit(f"! {self.words.refusal(exc)}")
            return True
        with self.answering():
            await self.player(name, action.strip())
        return True

    async def command(self, cmd: str, rest: str) -> bool:
        table = self.table
        if cmd in ("quit", "exit"):
            return False
        if cmd in ("help", "?"):
            self.emit(self.words(HELP_KEY))
        elif cmd == "deal":
            self.answer(HOST, await table.deal(HOST, key=self.key("deal")))
        elif cmd in ("table", "show"):
            self.emit(self.drawing())
        elif cmd in ("history", "phh"):
            words = rest.split()
            # ``history 12 table:1``, a hand of the channel's earlier table.
            earlier = re.fullmatch(r"table:([0-9]{1,9})", words[1]) if len(words) == 2 else None
            session = int(earlier[1]) if earlier is not None else None
            if earlier is not None:
                words = words[:1]
            if len(words) > 1 or (words and not re.fullmatch(r"[0-9]{1,9}", words[0])):
                self.refuse("history.usage", command=cmd)
                return True
            # No number: the last finished hand (not the one being played).
            view = table.snapshot(None)
            number = int(words[0]) if words else view.hand_no - view.in_hand
            if number < 1:
                self.refuse("history.none")
                return True
            try:
                # history: the hand as it was told; phh: its PHH record (docs/phh.md).
                if cmd == "phh":
                    self.emit(await table.hand_history(number, session=session))
                else:
                    story = await table.hand_told(number, session=session)
                    self.emit("\n".join(self.words.render(m) for m in story))
            except TableError as exc:
                self.emit(f"! {self.words.refusal(exc)}")
        elif cmd == "set":
            changes = parse_settings(rest, self.words)
            if isinstance(changes, str):
                self.emit(f"! {changes}")
                return True
            # The change is announced by the presenter; a refusal is answered here.
            self.answer(HOST, await table.change_settings(HOST, changes, key=self.key("set")))
        elif cmd == "new":
            await self.new_table(rest)
        elif cmd in HOST_COMMANDS:
            await host_line(self, HOST, cmd, rest.split())
        elif cmd in ("stats", "ledger", "leaderboard", "privacy", "settle"):
            try:
                told = await record_lines(self, cmd, rest.split())
                self.emit(told if told is not None else await self.standings(cmd, rest.split()))
            except (ParseError, TableError) as exc:
                self.emit(f"! {self.words.refusal(exc)}")
        return True

    async def standings(self, cmd: str, words: list[str]) -> str:
        """``stats [NAME]``, ``ledger``, ``leaderboard [TOP] [min HANDS]`` and
        ``privacy NAME hidden|shown`` (bot/table/standings.py): counts and chips only.
        The terminal has no servers: "everywhere" is every table this file holds."""
        service = self.service
        assert service is not None
        if cmd == "ledger":
            report = await service.session(self.table_id)
            if not report.results:
                return self.words("ledger.none")
            return "\n".join(
                self.words(
                    "ledger.line",
                    name=report.name(r.user_id),
                    sign="+" if r.net >= 0 else "-",
                    net=Chips(abs(r.net)),
                    bought=Chips(r.bought),
                    cashed=Chips(r.cashed),
                    on_table=Chips(r.on_table),
                )
                for r in report.results
            )
        if cmd == "stats":
            if not words:
                told = stats_lines(self.words, await service.stats(self.table_id))
                return told or self.words("stats.none")
            if len(words) > 1:
                raise TableError(self.words("stats.usage"))
            name = check_name(words[0])
            standing = await service.player_standing(self.user_id(name))
            return player_lines(self.words, standing, name)
        if cmd == "privacy":
            if len(words) != 2 or words[1].lower() not in ("hidden", "shown"):
                raise TableError(self.words("privacy.usage"))
            name = check_name(words[0])
            hidden = words[1].lower() == "hidden"
            await service.set_hidden(self.user_id(name), hidden)
            return self.words("privacy.hidden" if hidden else "privacy.shown", name=name)
        top, min_hands = DEFAULT_TOP, DEFAULT_MIN_HANDS
        rest = list(words)
        if rest and rest[0].isdigit():
            top = int(rest.pop(0)[:9])
        if len(rest) == 2 and rest[0] == "min" and rest[1].isdigit():
            min_hands = int(rest[1][:9])
            rest = []
        if rest:
            raise TableError(self.words("leaderboard.usage"))
        board = await service.leaderboard(scope="everywhere", top=top, min_hands=min_hands)
        names = {s.user_id: s.name for s in self.table.snapshot(None).seats}
        return board_lines(self.words, board, lambda user: names.get(user, user))

    async def new_table(self, game: str) -> None:
        """Close this table (everyone is cashed out) and open a fresh one with this run's
        options (or the GAME named), seating the players named on the command line."""
        table = self.table
        view = table.snapshot(None)
        if view.in_hand:
            self.refuse("new.in_hand")
            return
        try:
            settings_from_args(self.args, game or None, self.words)
        except SettingsError as exc:
            self.emit(f"! {self.words.refusal(exc)}")
            return
        if view.phase != "closed":
            out = self.answer(HOST, await table.close(HOST, key=self.key("close")))
            if not out.ok:
                return
        # A fresh table on its own log: the closed one keeps its hands (and its
        # idempotency keys), and `history 1` is the new table's first hand.
        closed = self.table_id
        self.table_id = await self.unused_table_id(table_number(closed) + 1)
        if await self.open_table(game or None):
            await self.seat_players()
        else:
            self.table_id = closed  # the closed table stays the one shown

    async def player(self, name: str, action: str) -> None:
        table = self.table
        user = self.user_id(name)
        # "sit-out", "top-up", "cash-out": a hyphen between letters is a space; never
        # one before a digit ("top up -5" is a negative amount, refused as such).
        words = re.sub(r"(?<=[^\W\d_])-(?=[^\W\d_])", " ", action.lower()).split()
        # "hinsetzen 3", "mes cartes", "уйти": the terminal's words in every language.
        words = player_phrase(" ".join(words)).split()
        phrase = " ".join(words)
        verb = words[0] if words else ""
        key = self.key(verb or "empty")
        out: Outcome | None = None
        if not words:
            self.refuse("player.empty", name=name)
            return
        if phrase in _CARDS:
            self.show_cards(name, user)
            return
        if phrase in _SIT_OUT:
            out = await table.sit_out(user, key=key)
        elif phrase in _BACK:
            out = await table.sit_in(user, key=key)
        elif phrase in POST:
            out = await table.sit_in(user, key=key, post=True)
        elif phrase in _LEAVE:
            out = await table.stand(user, key=key)
        elif phrase == "stand":
            if self.holds_draw_cards(user):
                self.refuse("player.stand", name=name)
                return
            out = await table.stand(user, key=key)
        elif verb == "sit" or phrase.startswith("sit down"):
            await self.sit(name, words[1:])
            return
        elif re.fullmatch(r"buy ?in( .*)?", phrase) and not self.seated(user):
            # "buy in 200": sitting down with that buy-in (seated, it is a top-up).
            given = phrase.split()[2 if phrase.startswith("buy in") else 1 :]
            await self.sit(name, ["any", *given])
            return
        elif verb == "wait":
            # a player asks for the waiting list himself ("carol: wait", "wait off").
            if words[1:] not in ([], ["off"]):
                self.emit("! " + self.words.render(msg("host.usage")))
                return
            out = await table.wait_list(user, name, not words[1:], key=key)
        elif verb in HOST_COMMANDS and len(words) > (2 if verb == "seat" else 1):
            # "alice: kick bob": the host's commands are typed with no name in front.
            self.refuse("player.command", name=name, command=clip(" ".join(action.split()))[1:-1])
            return
        elif phrase in COMMANDS and phrase not in ("show",):
            self.refuse("player.command", name=name, command=phrase)
            return
        elif top_up := next(
            (t for t in _TOP_UP if phrase == t or phrase.startswith(t + " ")), None
        ):
            amount_text = phrase[len(top_up) :].strip()
            if not amount_text:
                self.refuse("top_up.usage", name=name)
                return
            try:
                amount = parse_amount(amount_text)
            except ParseError as exc:
                self.emit(f"! {name}: {self.words.refusal(exc)}")
                return
            out = await table.top_up(user, amount, key=key)
        elif verb == "straddle" and len(words) == 1:
            out = await table.straddle(user, key=key)
        elif phrase == "show all" and self.in_hand():
            out = await table.act(user, "show", key=key)  # in a hand: his whole hand
        elif phrase in SHOW_CHOICES:
            # R-20.15 (in a hand, "show 1" is answered that showing one card waits).
            out = await table.show_by_choice(user, words[1], key=key)
        elif phrase in RABBIT:
            out = await table.rabbit(user, key=key)
        elif phrase in BOMB:
            # propose a bomb pot for the next deal, or vote on the one proposed.
            agree = None if phrase == "bomb" else phrase == "bomb yes"
            out = await table.bomb_vote(user, agree, key=key)
        elif verb in ("choose", "pick") and len(words) > 1:
            out = await table.choose(user, action.split(None, 1)[1], key=key)
        else:
            out = await table.act(user, action, key=key)
            if out.ok and _read_as_string_raise(action):
                # the player is told why his raise was a call.
                self.emit(f"  {name}: {self.words('string_raise')}")
        if out is not None:
            self.answer(user, out)
        if out is not None and out.ok:
            self.emit(self.drawing())

    def in_hand(self) -> bool:
        return self.table.snapshot(None).in_hand

    def show_cards(self, name: str, user: str) -> None:
        view = self.table.snapshot(user)
        mine = next((s for s in view.seats if s.user_id == user), None)
        cards = cards_text(self.words, mine.cards) if mine and mine.cards else ""
        cards = cards or self.words("cards.none")
        if view.legal is None:
            self.emit(f"{name}: {cards}")
        else:
            options = self.words.render(view.legal.options())
            self.emit(f"{name}: {cards} | {self.words('cards.options', options=options)}")

    def holds_draw_cards(self, user: str) -> bool:
        """Whether ``user`` holds cards in a hand of a game with a draw (where "stand"
        may mean "stand pat"): dealt in and not folded (his own view shows his cards)."""
        view = self.table.snapshot(user)
        if not view.in_hand or not view.draw_game or view.phase == "over":
            return False
        mine = next((s for s in view.seats if s.user_id == user), None)
        return mine is not None and mine.position is not None and bool(mine.cards)

    async def robots(self, hands: int, seed: int | None) -> None:
        """Scripted players: random legal actions for ``hands`` more hands. They read the
        table as players do, through its views: each robot only its own cards and
        options (:func:`bot.local.robot.pick`)."""
        rng = random.Random(seed)
        table = self.table
        target = table.snapshot(None).hand_no + hands
        while True:
            view = table.snapshot(None)
            if view.halted:
                self.emit(self.words("halted", reason=view.halted))
                return
            if not view.in_hand:
                if view.hand_no >= target:
                    return
                for seat in view.seats:
                    if seat.stack == 0:
                        await table.top_up(seat.user_id, table.settings.buy_in_range[1])
                    if seat.state == "sitting_out":
                        await table.sit_in(seat.user_id)
                out = await table.deal(HOST, key=f"robot-deal:{view.hand_no + 1}")
                if not out.ok and not out.duplicate:
                    self.answer(HOST, out)
                    return
            else:
                mover = self._robot_to_move(view)
                if mover is None:
                    self.refuse("robots.stuck")
                    return
                user, own = mover
                assert own.legal is not None
                mine = next(s for s in own.seats if s.user_id == user)
                request = pick(own.legal, rng, mine.cards)
                await table.act(user, request, key=f"robot:{view.turn}", turn=view.turn)
            if not self.args.quiet:
                self.emit(f"state: {table.digest()} turn {table.snapshot(None).turn}")
            error = table.conservation_error()
            if error:
                self.emit(f"CONSERVATION: {self.words.render(error)}")
                return

    def _robot_to_move(self, view: TableView) -> tuple[str, TableView] | None:
        """The robot who acts next and his own view: the player in turn, or the first
        (in the hand's order) of those acting together (sealed declarations and Guts
        calls: anyone still undecided may act now)."""
        dealt = sorted(
            (s for s in view.seats if s.position is not None),
            key=lambda s: (s.seat != view.to_act, s.position),
        )
        for seat in dealt:
            own = self.table.snapshot(seat.user_id)
            if own.legal is not None:
                return seat.user_id, own
        return None

    async def close(self) -> None:
        if self.service is not None:
            await self.service.stop()
        if self.store is not None:
            await self.store.close()


NEW_TABLE_OPTIONS = ("game", "blinds", "auto")
"""The options that shape a new table (ignored, and said so, when a table is resumed;
--buy-in still applies to the players it seats)."""
COMMANDS = frozenset(
    {
        "quit",
        "exit",
        "help",
        "?",
        "deal",
        "table",
        "show",
        "history",
        "phh",
        "set",
        "new",
        "stats",
        "ledger",
        "leaderboard",
        "privacy",
        "settle",
        *HOST_COMMANDS,
    }
)


def table_number(table_id: str) -> int:
    """1 for ``local``, N for ``local-N``; 0 for any other log in the file."""
    if table_id == TABLE_ID:
        return 1
    match = re.fullmatch(re.escape(TABLE_ID) + r"-([1-9][0-9]{0,8})", table_id)
    return int(match.group(1)) if match else 0


def table_name(number: int) -> str:
    return TABLE_ID if number == 1 else f"{TABLE_ID}-{number}"


def _options(args: argparse.Namespace) -> list[object]:
    return [getattr(args, name) for name in NEW_TABLE_OPTIONS]


def _buy_in(args: argparse.Namespace) -> int:
    """--buy-in as a number (0: the table's maximum); checked by settings_from_args."""
    return int(args.buy_in) if args.buy_in else 0


def parse_settings(text: str, say: Words | None = None) -> dict[str, object] | str:
    """``set`` lines: ``KEY=VALUE`` pairs (a value may hold spaces: ``game=omaha pot
    limit``), or ``KEY VALUE``. Returns the changes, or what to write instead."""
    say = say or Words()
    usage = say("set.usage")
    pairs = re.findall(r"([A-Za-z][\w-]*)\s*=\s*(.*?)(?=\s+[A-Za-z][\w-]*\s*=|\s*$)", text)
    if not pairs:
        words = text.split()
        if len(words) != 2 or "=" in text:
            return usage
        pairs = [(words[0], words[1])]
    elif "=" in re.sub(r"([A-Za-z][\w-]*)\s*=", "", text, count=len(pairs)):
        return usage
    changes: dict[str, object] = {}
    for key, value in pairs:
        if not value.strip() and key.lower() != "rotation":  # "rotation=": none
            return say("set.value", setting=clip(key), example=clip(key)[1:-1])
        changes[key.lower().replace("-", "_")] = parse_value(value.strip())
    return changes


async def run(argv: list[str], inp: TextIO | None = None, out: TextIO | None = None) -> int:
    args = parse_args(argv)
    inp = inp or sys.stdin
    out = out or sys.stdout
    try:
        words = Words(choose(args.lang))
    except ValueError as exc:
        print(f"chipfist: {exc}", file=sys.stderr)
        return 2
    try:
        settings_from_args(args, words=words)
    except SettingsError as exc:
        print(f"chipfist: {words.refusal(exc)}", file=sys.stderr)
        return 2
    if args.robots < 0 and not args.tournament:
        print(f"chipfist: {words('args.robots')}", file=sys.stderr)
        return 2
    local = LocalTable(args, out)
    try:
        problem = await local.open_store()
        if problem:
            print(f"chipfist: {problem}", file=sys.stderr)
            return 2
        if args.tournament:
            assert local.store is not None
            reader = LineReader(inp)
            return await tourney.main(args, local.store, reader.get, out, words, inp.isatty())
        await local.start()
        if args.robots:
            await local.robots(args.robots, args.seed)
            return 0
        assert local.service is not None
        local.service.start_clocks()
        interactive = inp.isatty()
        if interactive:
            local.emit(words(HELP_KEY))
        reader = LineReader(inp)
        interrupted = _interrupt_event()
        while True:
            if interactive:
                print("> ", end="", file=out, flush=True)
            raw = await _line_or_interrupt(reader, interrupted)
            if interrupted.is_set():
                raise KeyboardInterrupt
            if raw is None:
                break
            if not await local.line(raw):
                break
    finally:
        # Also on Ctrl-C (the task is cancelled): the log is closed cleanly, and the
        # hand in progress resumes at the next start.
        await local.close()
    return 0


def _interrupt_event() -> asyncio.Event:
    """Ctrl-C sets this event besides cancelling the running command (as ``asyncio.run``
    does), so the wait for the next line ends even when the cancellation landed where
    it was absorbed (a command finishing its write): the table stops at once either
    way, never at the next Enter."""
    event = asyncio.Event()
    loop = asyncio.get_running_loop()
    task = asyncio.current_task()

    def on_sigint() -> None:
        first = not event.is_set()
        event.set()
        if first and task is not None:
            task.cancel()

    with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
        loop.add_signal_handler(signal.SIGINT, on_sigint)
    return event


async def _line_or_interrupt(reader: LineReader, interrupted: asyncio.Event) -> str | None:
    line = asyncio.ensure_future(reader.get())
    stop = asyncio.ensure_future(interrupted.wait())
    try:
        await asyncio.wait({line, stop}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        stop.cancel()
        if not line.done():
            line.cancel()
    return line.result() if line.done() and not line.cancelled() else None


class LineReader:
    """Input lines read in a daemon thread and handed to the event loop.

    A blocking ``readline`` in the loop's executor held up Ctrl-C until Enter (the
    executor is joined at shutdown); a daemon thread is not waited for. A real file is
    read with ``os.read``, which holds no lock that interpreter shutdown would wait on."""

    CHUNK = 65536
    ROOM = 64

    def __init__(self, inp: TextIO) -> None:
        self.inp = inp
        self.loop = asyncio.get_running_loop()
        # Lines are handed over with put_nowait, never as a coroutine made in the
        # thread: one the loop closed before running would never be awaited. The
        # semaphore keeps at most ROOM lines read ahead.
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.room = threading.BoundedSemaphore(self.ROOM)
        threading.Thread(target=self._run, name="chipfist-stdin", daemon=True).start()

    async def get(self) -> str | None:
        line = await self.queue.get()
        self.room.release()
        return line

    def _put(self, line: str | None) -> None:
        self.room.acquire()
        # The loop may be gone (Ctrl-C): then nobody reads any more, and that is fine.
        with contextlib.suppress(RuntimeError):
            self.loop.call_soon_threadsafe(self.queue.put_nowait, line)

    def _run(self) -> None:
        try:
            fd = self.inp.fileno()
        except (AttributeError, OSError, ValueError):
            fd = None
        try:
            if fd is None:
                for line in iter(self.inp.readline, ""):
                    self._put(line)
            else:
                self._read_fd(fd)
        finally:
            self._put(None)

    def _read_fd(self, fd: int) -> None:
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        pending = ""
        while True:
            try:
                chunk = os.read(fd, self.CHUNK)
            except OSError:
                chunk = b""
            pending += decoder.decode(chunk, final=not chunk)
            while "\n" in pending:
                line, pending = pending.split("\n", 1)
                self._put(line)
            if len(pending) > 2 * MAX_LINE:
                # An endless line: keep its start (enough to refuse it) and drop the rest
                # as it comes, so memory stays bounded.
                self._put(pending[: 2 * MAX_LINE])
                pending = ""
                skipping = True
                while skipping:
                    more = os.read(fd, self.CHUNK)
                    if not more:
                        return
                    text = decoder.decode(more)
                    if "\n" in text:
                        pending = text.split("\n", 1)[1]
                        skipping = False
            if not chunk:
                if pending:
                    self._put(pending)
                return


def _read_as_string_raise(action: str) -> bool:
    """Whether a typed action was read as only its first part (R-6.2)."""
    try:
        return parse_action(action).why is not None
    except TableError:
        return False


def settings_from_args(
    args: argparse.Namespace, game: str | None = None, words: Words | None = None
) -> TableSettings:
    """The new table's settings from ``--game`` (or ``game``) and ``--blinds``; a clear
    SettingsError for a typo (checked before anything is opened)."""
    words = words or Words()
    blinds = str(args.blinds or "1/2")
    small, _, big = blinds.partition("/")
    if not re.fullmatch(r"[0-9]{1,15}", small.strip()) or not re.fullmatch(
        r"[0-9]{0,15}", big.strip()
    ):
        raise SettingsError(words("args.blinds", blinds=clip(blinds)))
    small_blind, big_blind = int(small), int(big.strip() or small)
    if args.buy_in is not None and not re.fullmatch(r"[0-9]{1,15}", str(args.buy_in)):
        raise SettingsError(words("args.buy_in", buy_in=clip(str(args.buy_in))))
    games = split_rotation(str(game or args.game or "holdem")) or ("holdem",)
    # No default structure: a bare game gets its conventional one; the limit
    # parse_game fills in is kept only when the name or a ":structure" said one.
    variant, implied = split_game(games[0])
    parse_game(games[0])  # refuses an unknown game or structure, in words
    limit = implied
    return TableSettings(
        variant=variant,
        limit=limit,  # empty: the game's conventional structure
        rotation=tuple(games) if len(games) > 1 else (),
        small_blind=small_blind,
        big_blind=big_blind,
        auto_deal=bool(args.auto),
        hand_pause=1.0,
    )


def main(argv: list[str]) -> int:
    try:
        return asyncio.run(run(argv))
    except (KeyboardInterrupt, asyncio.CancelledError):
        # Ctrl-C: stop at once, quietly. Everything accepted is in the log already.
        try:
            words = Words(choose(parse_args(argv).lang))
        except (ValueError, SystemExit):
            words = Words()
        print("\n" + words("stopped"), file=sys.stderr)
        return 130
