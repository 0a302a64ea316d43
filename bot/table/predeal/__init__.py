"""What happens before a deal: contributors shaping the rules of the next deal.

A deal is built in one pass, before anything is written:

1. :func:`run` folds the table's contributors, in order, over a :class:`NextDeal`
   (``contribute(deal, ctx) -> deal``): the stakes (a tournament's level, or the table's
   settings), the game (dealer's choice), the seats (who is dealt in, the button), the
   time charge, the straddle, the bomb pot (R-20.11). A contributor that refuses raises
   a ``TableError``, and nothing has been written;
2. the table builds the engine hand from the finished :class:`NextDeal` (the time
   charge applied in memory only, :func:`~bot.table.predeal.timecharge.charged`), which
   may refuse too, still before any write (R-14.6: all or nothing);
3. the table writes what the deal costs (the time collected), then the hand's start,
   each with its idempotency key; recovery folds the same records.

Each contributor's module also holds the checks of the command it owns between deals
(``straddle``, ``choose``): the table runs them under its lock and writes their record.
"""

from bot.table.levels import Level
from bot.table.predeal.plan import Contributor, DealContext, NextDeal, run
from bot.table.predeal.stakes import CASH, FixedLevel, Stakes, StakesSource

__all__ = [
    "CASH",
    "Contributor",
    "DealContext",
    "FixedLevel",
    "Level",
    "NextDeal",
    "Stakes",
    "StakesSource",
    "run",
]
