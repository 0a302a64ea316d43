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
import hashlib
import json
import random
import sys
from typing import TextIO

from bot.local.presenter import TerminalPresenter
from bot.local.robot import pick
from bot.table.clocks import SystemTime
from bot.table.errors import SettingsError, TableError
from bot.table.ports import StorePort, open_store
from bot.table.service import TableService
from bot.table.settings import TableSettings
from bot.table.table import Outcome, Table
from bot.table.text_actions import parse_action
from bot.table.view import render_text

TABLE_ID = "local"
HOST = "host"
HELP = """Commands:
  NAME: sit [SEAT] [BUYIN]   NAME: cards   NAME: topup N   NAME: sitout   NAME: back
  NAME: stand   NAME: choose GAME   NAME: straddle   NAME: <action>  (check, call, fold,
  bet 40, raise 100,
  raise to 300, all in, pot, half pot, draw As Kd, declare high ...)
  deal | table | history N | phh N | set KEY=VALUE | help | quit"""


def parse_args(argv: list[str]) -> argparse.Namespace:
    ap = argparse.ArgumentParser(prog="python -m bot --local", description=__doc__)
    ap.add_argument("--local", action="store_true", help="(accepted for python -m bot)")
    ap.add_argument("--db", default="chipfist.sqlite3", help="SQLite file (default %(default)s)")
    ap.add_argument("players", nargs="*", help="players to seat at the start")
    ap.add_argument("--buy-in", type=int, default=0, help="buy-in per player (default: max)")
    ap.add_argument(
        "--game",
        default="holdem",
        help="variant, e.g. holdem, omaha8:pot_limit; a comma-separated list is a rotation",
    )
    ap.add_argument("--blinds", default="1/2", help="small/big blind")
    ap.add_argument("--auto", action="store_true", help="deal the next hand automatically")
    ap.add_argument("--robots", type=int, default=0, help="robots play this many hands")
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--snapshot-every", type=int, default=50, help="hands between snapshots")
    ap.add_argument("--quiet", action="store_true", help="print only state lines (robots)")
    return ap.parse_args(argv)


def digest(table: Table) -> str:
    """A short fingerprint of everything the table holds (the kill test compares it)."""
    return state_digest(table.state)


def state_digest(state: object) -> str:
    from bot.table.state import TableState

    assert isinstance(state, TableState)
    hand = state.hand
    data = {
        "turn": state.turn,
        "hand_no": state.hand_no,
        "seats": sorted((n, s.user_id, s.stack, s.state) for n, s in state.seats.items()),
        "carried": state.carried,
        "rake": state.rake_total,
    }
    if hand is not None:
        data["hand"] = {
            "stacks": list(hand.stacks),
            "bets": list(hand.bets),
            "board": list(hand.board),
            "to_act": hand.to_act,
            "phase": hand.phase,
            "pot": hand.pot_total(),
        }
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


class LocalTable:
    def __init__(self, args: argparse.Namespace, out: TextIO) -> None:
        self.args = args
        self.out = out
        self.presenter = TerminalPresenter(out, quiet=args.quiet)
        self.store: StorePort | None = None
        self.service: TableService | None = None
        self.n = 0

    def key(self, label: str) -> str:
        # One idempotency key per typed line, unique across restarts of the same file.
        self.n += 1
        return f"local:{label}:{self.table.state.turn}:{self.n}:{random.getrandbits(32)}"

    @property
    def table(self) -> Table:
        assert self.service is not None
        return self.service.table(TABLE_ID)

    def emit(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    async def start(self) -> None:
        self.store = await open_store(self.args.db)
        self.service = TableService(
            self.store, self.presenter, SystemTime(), snapshot_every=self.args.snapshot_every
        )
        halted = await self.service.recover(settle=False)
        if self.service.get(TABLE_ID) is None:
            settings = settings_from_args(self.args)
            outcome = await self.service.create(TABLE_ID, HOST, settings, key="local:create")
            if not outcome.ok:
                self.emit(f"! {outcome.message}")
        else:
            self.emit(f"resumed: {digest(self.table)} turn {self.table.state.turn}")
        if halted:
            self.emit(f"HALTED: {self.table.state.halted}")
        conservation = self.table.conservation_error()
        self.emit(f"conservation: {'ok' if conservation is None else conservation}")
        await self.service.settle_all()
        for name in self.args.players:
            if self.table.state.seat_of(name) is None:
                await self.sit(name, [])

    async def sit(self, name: str, rest: list[str]) -> None:
        _, high = self.table.settings.buy_in_range
        try:
            seat = int(rest[0]) if rest else None
            buy_in = int(rest[1]) if len(rest) > 1 else (self.args.buy_in or high)
        except ValueError:
            self.emit(f"! {name}: sit [SEAT] [BUYIN]: the seat and the buy-in are whole numbers.")
            return
        # A refusal is printed by the presenter (to the player who asked).
        await self.table.sit(name, name, buy_in, seat, key=self.key("sit"))

    async def line(self, raw: str) -> bool:
        """Handle one input line; False to stop."""
        text = raw.strip()
        if not text or text.startswith("#"):
            return True
        table = self.table
        if ":" not in text:
            cmd, _, rest = text.partition(" ")
            cmd = cmd.lower()
            if cmd in ("quit", "exit"):
                return False
            if cmd == "help":
                self.emit(HELP)
            elif cmd == "deal":
                await table.deal(HOST, key=self.key("deal"))  # refusals: the presenter
            elif cmd in ("table", "show"):
                self.emit(render_text(table.snapshot(None)))
            elif cmd in ("history", "phh"):
                words = rest.split()
                if len(words) > 1 or (words and not words[0].isdigit()):
                    self.emit(f"! {cmd} [N]: N is a hand number, like {cmd} 3.")
                    return True
                number = int(words[0]) if words else table.state.hand_no
                try:
                    # history: the hand as it was told; phh: its PHH record (docs/phh.md).
                    if cmd == "phh":
                        self.emit(await table.hand_history(number))
                    else:
                        self.emit(await table.hand_story(number))
                except TableError as exc:
                    self.emit(f"! {exc}")
            elif cmd == "set":
                k, _, v = rest.partition("=")
                # The change (or the refusal) is announced by the presenter.
                await table.change_settings(
                    HOST, {k.strip(): _value(v.strip())}, key=self.key("set")
                )
            else:
                self.emit(f"! Unknown command {cmd!r}. Type `help`.")
            return True
        name, _, action = text.partition(":")
        name, action = name.strip(), action.strip()
        words = action.lower().split()
        verb = words[0] if words else ""
        if verb == "sit":
            await self.sit(name, words[1:])
        elif verb == "cards":
            view = table.snapshot(name)
            mine = next((s for s in view.seats if s.user_id == name), None)
            cards = " ".join(mine.cards) if mine and mine.cards else "no cards"
            legal = f" | you may: {view.legal.describe()}" if view.legal else ""
            self.emit(f"{name}: {cards}{legal}")
        else:
            out = await self._player(name, verb, words, action)
            if not out.ok:
                return True  # the presenter already told the actor
            note = _string_raise_note(action)
            if note:
                self.emit(f"  {name}: {note}")  # the player is told why
            if verb not in ("cards",):
                self.emit(render_text(table.snapshot(None)))
        return True

    async def _player(self, name: str, verb: str, words: list[str], action: str) -> Outcome:
        table = self.table
        key = self.key(verb)
        if verb in ("topup", "top-up", "rebuy"):
            try:
                amount = int(words[1])
            except (IndexError, ValueError):
                amount = -1
            return await table.top_up(name, amount, key=key)
        if verb == "sitout":
            return await table.sit_out(name, key=key)
        if verb == "back":
            return await table.sit_in(name, key=key)
        if verb in ("stand", "leave"):
            return await table.stand(name, key=key)
        if verb == "straddle":
            return await table.straddle(name, key=key)
        if verb == "choose":
            return await table.choose(name, " ".join(words[1:]), key=key)
        return await table.act(name, action, key=key)

    async def robots(self, hands: int, seed: int | None) -> None:
        """Scripted players: random legal actions for ``hands`` more hands."""
        rng = random.Random(seed)
        table = self.table
        target = table.state.hand_no + hands
        while True:
            st = table.state
            if st.halted:
                self.emit(f"HALTED: {st.halted}")
                return
            hand = st.hand
            if hand is None:
                if st.hand_no >= target:
                    return
                for seat in list(st.seats.values()):
                    if seat.stack == 0:
                        await table.top_up(seat.user_id, table.settings.buy_in_range[1])
                    if seat.state == "sitting_out":
                        await table.sit_in(seat.user_id)
                out = await table.deal(HOST, key=f"robot-deal:{st.hand_no + 1}")
                if not out.ok and not out.duplicate:
                    self.emit(f"! {out.message}")
                    return
            else:
                info = st.current
                assert info is not None
                if hand.phase == "declare" and hand.to_act is None:
                    pos = hand.declare_pending()[0]
                    legal = hand.declare_legal(pos)
                elif hand.phase == "guts" and hand.to_act is None:
                    # Simultaneous Guts calls: anyone still undecided may call now.
                    pos = hand.guts_pending()[0]
                    legal = hand.guts_legal(pos)
                else:
                    assert hand.to_act is not None
                    pos = hand.to_act
                    legal = hand.legal()
                request = pick(legal, rng, hand.hole[pos])
                await table.act(info.users[pos], request, key=f"robot:{st.turn}", turn=st.turn)
            if not self.args.quiet:
                self.emit(f"state: {digest(table)} turn {table.state.turn}")
            error = table.conservation_error()
            if error:
                self.emit(f"CONSERVATION: {error}")
                return

    async def close(self) -> None:
        if self.service is not None:
            await self.service.stop()
        if self.store is not None:
            await self.store.close()


def _value(text: str) -> object:
    low = text.lower()
    if low in ("true", "on", "yes"):
        return True
    if low in ("false", "off", "no"):
        return False
    try:
        return int(text)
    except ValueError:
        try:
            return float(text)
        except ValueError:
            return text


async def run(argv: list[str], inp: TextIO | None = None, out: TextIO | None = None) -> int:
    args = parse_args(argv)
    inp = inp or sys.stdin
    out = out or sys.stdout
    try:
        settings_from_args(args)
    except SettingsError as exc:
        print(f"chipfist: {exc.message}", file=sys.stderr)
        return 2
    local = LocalTable(args, out)
    await local.start()
    try:
        if args.robots:
            await local.robots(args.robots, args.seed)
            return 0
        assert local.service is not None
        local.service.start_clocks()
        interactive = inp.isatty()
        if interactive:
            local.emit(HELP)
        loop = asyncio.get_running_loop()
        while True:
            if interactive:
                print("> ", end="", file=out, flush=True)
            raw = await loop.run_in_executor(None, inp.readline)
            if not raw:
                break
            if not await local.line(raw):
                break
    finally:
        await local.close()
    return 0


def _string_raise_note(action: str) -> str:
    """The R-6.2 explanation when a typed action was read as only its first part."""
    try:
        return parse_action(action).note
    except TableError:
        return ""


def settings_from_args(args: argparse.Namespace) -> TableSettings:
    """The new table's settings from ``--game`` and ``--blinds``; a clear SettingsError
    for a typo (checked before anything is opened)."""
    small, _, big = str(args.blinds).partition("/")
    try:
        small_blind, big_blind = int(small), int(big or small)
    except ValueError:
        raise SettingsError(
            f"--blinds {args.blinds!r}: give the blinds as whole numbers, like 1/2."
        ) from None
    games = [g.strip() for g in str(args.game).split(",") if g.strip()] or ["holdem"]
    variant, _, limit = games[0].partition(":")
    return TableSettings(
        variant=variant,
        limit=limit,  # empty: the game's conventional structure
        rotation=tuple(games) if len(games) > 1 else (),
        small_blind=small_blind,
        big_blind=big_blind,
        auto_deal=args.auto,
        hand_pause=1.0,
    )


def main(argv: list[str]) -> int:
    return asyncio.run(run(argv))
