"""A level's words when its tables deal one game of a rotation (R-19.55): that game's
forced bets only. Apart from :mod:`bot.tournament.rotation`, which the structure reads,
because these words read the structure's levels."""

from __future__ import annotations

from bot.poker.messages import Chips, Msg, Number, msg
from bot.tournament.rotation import STRUCTURES, STUD, game_said
from bot.tournament.structure import Level


def level_of_game(level: Number, item: Level, forced: str, game: str) -> Msg:
    """A level as the tables deal it when it deals one game of a rotation (R-19.55):
    that game's forced bets only. A limit schedule (``bring_in``, R-19.50): a stud game
    its ante, bring-in and limits, another game blinds of half the small bet and the
    small bet beside the limits. A blinds schedule: blinds (and the big blind's ante);
    a stud game the limits of the big blind and twice it."""
    variant = game.partition(":")[0]
    name = game_said(game, structure=STRUCTURES)
    stud = variant in STUD
    if forced == "bring_in" and stud:
        return msg(
            "rotation.level.stud",
            level=level,
            game=name,
            ante=Chips(item.ante),
            bring_in=Chips(item.bring_in),
            small=Chips(item.small),
            big=Chips(item.big),
        )
    if forced == "bring_in":
        return msg(
            "rotation.level.limit",
            level=level,
            game=name,
            blind_small=Chips(max(1, item.small // 2)),
            blind_big=Chips(item.small),
            small=Chips(item.small),
            big=Chips(item.big),
        )
    if stud:
        return msg(
            "rotation.level.limits",
            level=level,
            game=name,
            small=Chips(item.big),
            big=Chips(2 * item.big),
        )
    if not item.ante:
        return msg(
            "rotation.level.blinds_no_ante",
            level=level,
            game=name,
            small=Chips(item.small),
            big=Chips(item.big),
        )
    return msg(
        "rotation.level.blinds",
        level=level,
        game=name,
        small=Chips(item.small),
        big=Chips(item.big),
        ante=Chips(item.ante),
    )


__all__ = ["level_of_game"]
