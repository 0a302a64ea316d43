"""The 7-2 game at the table (R-20.6, R-20.7): after a hand, the bounty owed to whoever
won a pot with 7-2 and showed it, paid from the other players' stacks into the
winners'. The table writes it with the hand's end (``HandEnded.bounty``, its stacks
and net already paid), so recovery folds exactly what was paid."""

from __future__ import annotations

from bot.poker.errors import OptionRefused
from bot.poker.events import SevenDeuceBounty
from bot.poker.hand import Hand
from bot.poker.home import SevenDeuce, seven_deuce
from bot.table.settings import TableSettings


def settle(hand: Hand, settings: TableSettings) -> SevenDeuceBounty | None:
    """The bounty the finished ``hand`` owes under ``settings`` (None: off, or nobody
    won with a shown 7-2)."""
    if settings.seven_deuce_bounty <= 0 or not hand.over:
        return None
    game = SevenDeuce(settings.seven_deuce_bounty, settings.seven_deuce_suited)
    try:
        return seven_deuce(hand, game)
    except OptionRefused:  # pragma: no cover - a finished hand with a bounty set
        return None


def paid(
    stacks: tuple[int, ...], net: tuple[int, ...], bounty: SevenDeuceBounty | None
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[int, int, int], ...]]:
    """The hand's stacks and net with the bounty paid, and the payments to record."""
    if bounty is None:
        return stacks, net, ()
    after = tuple(bounty.stacks)
    assert sum(after) == sum(stacks), "R-2.5: the bounty creates no chip"
    moved = tuple(n + a - s for n, a, s in zip(net, after, stacks, strict=True))
    payments = tuple((p.payer, p.winner, p.amount) for p in bounty.payments)
    return after, moved, payments
