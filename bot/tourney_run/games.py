"""What a tournament deals at its tables: one game, or a mixed rotation such as HORSE.

* the tables' settings for the event's game (:func:`table_settings`): one game, or the
  rotation (one game per deal, R-16.2), always under the dead button (R-19.37); antes
  paid by the big blind in blinds-only events, by everyone where stud is dealt;
* the forced bets of a deal from the schedule's level and the game dealt
  (:func:`game_level`, R-19.50): in a mixed rotation a level is written as a limit
  game's (the small and big bets, the stud ante and bring-in); its flop and draw games
  take blinds of half the small bet and the small bet and no ante;
* how a table's players move when it balances (:func:`kind`, R-19.27, R-19.28).
"""

from __future__ import annotations

from bot.poker.messages import Msg, Number, msg
from bot.poker.variants import get_variant
from bot.table.games import split_game, split_rotation
from bot.table.levels import Level as TableLevel
from bot.table.settings import NEVER_SIT_OUT, TableSettings, parse_game
from bot.tournament.balance import Kind
from bot.tournament.structure import Config, Forced, Level
from bot.tourney_run.stakes import table_level


def games_of(config: Config) -> tuple[tuple[str, str], ...]:
    """The event's games as (variant, structure), in the order dealt (``horse`` is the
    five HORSE games)."""
    return tuple(parse_game(g) for g in split_rotation(config.game))


def is_stud(variant: str) -> bool:
    return get_variant(variant).forced == "bring_in"


def is_mixed(config: Config) -> bool:
    """A rotation of stud games and blinds games (HORSE): the button is frozen through
    its stud deals (R-19.28, R-19.50)."""
    studs = {is_stud(v) for v, _ in games_of(config)}
    return studs == {True, False}


def stud_only(config: Config) -> bool:
    return all(is_stud(v) for v, _ in games_of(config))


def most_players(config: Config) -> int:
    """The most players every game of the event can be dealt to (stud: 8)."""
    return min(get_variant(v).max_players for v, _ in games_of(config))


def refusal(config: Config) -> Msg | None:
    """Why the event cannot be dealt at its tables (None: it can): tables of more seats
    than one of its games deals to (stud: 8, R-19.53)."""
    most = most_players(config)
    if config.seats <= most:
        return None
    game = next(v for v, _ in games_of(config) if get_variant(v).max_players == most)
    return msg(
        "rotation.too_many_seats",
        game=get_variant(game).title,
        most=Number(most),
        seats=Number(config.seats),
    )


def table_settings(config: Config) -> TableSettings:
    """A tournament table's settings: the game or the rotation, the dead button
    (R-19.37), antes where they are paid (R-19.21)."""
    games = split_rotation(config.game)
    variant, limit = split_game(games[0])
    blinds_only = not any(is_stud(v) for v, _ in games_of(config))
    return TableSettings(
        variant=variant,
        limit=limit,
        rotation=games if len(games) > 1 else (),
        seats=config.seats,
        button_rule="dead",
        ante_mode="big_blind" if blinds_only else "each",
        min_players=2,
        hand_pause=0.0,
        # A player away is dealt in and blinded off, never sat out by the clock.
        timeouts_to_sit_out=NEVER_SIT_OUT,
    )


def game_level(level: Level, forced: Forced, variant: str, mixed: bool) -> TableLevel:
    """The forced bets of a deal of ``variant`` at ``level`` (R-19.21, R-19.50).

    One game: a blinds schedule's blinds and big-blind ante, or a stud schedule's ante,
    bring-in and bets. A mixed rotation: a limit schedule (``bring_in``) gives its stud
    games the ante, bring-in and bets and its other games blinds of half the small bet
    and the small bet, the same bets and no ante; a blinds schedule gives its other
    games the blinds and its stud games bets of the big blind and twice it (the table
    derives their ante and bring-in, R-16.9)."""
    stud = is_stud(variant)
    if not mixed or (forced == "bring_in" and stud):
        return table_level(level, forced)
    if forced == "bring_in":
        return TableLevel(
            max(1, level.small // 2), level.small, small_bet=level.small, big_bet=level.big
        )
    if stud:
        return TableLevel(0, 0, small_bet=level.big, big_bet=2 * level.big)
    return TableLevel(level.small, level.big, small_bet=level.big, big_bet=2 * level.big)


def kind(config: Config, next_variant: str, flop_dealt: bool) -> Kind:
    """How the table's players move when it balances before its next deal: a stud-only
    event by position (R-19.27); a mixed rotation by the hold'em big blind, from the
    positions of its last flop deal, frozen through its stud deals (R-19.28, R-19.50),
    or around the frozen button before any flop deal; blinds games by the big blind."""
    if stud_only(config):
        return "stud"
    if is_mixed(config) and is_stud(next_variant) and not flop_dealt:
        return "mixed_stud"
    return "blinds"


__all__ = [
    "game_level",
    "games_of",
    "is_mixed",
    "is_stud",
    "kind",
    "most_players",
    "refusal",
    "stud_only",
    "table_settings",
]
