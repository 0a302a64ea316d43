"""The rules engine: one hand of poker as typed, immutable data in and out.

The names other layers need to talk about a hand without strings of their own: the
hand's :data:`Phase`, the :data:`ActionName` of each legal action, and who may act now
(:class:`Actor`, its :data:`Turn`, from :meth:`bot.poker.hand.Hand.actors`).
"""

from bot.poker.legal import ActionName, Actor, Legal, Phase, Turn

__all__ = ["ActionName", "Actor", "Legal", "Phase", "Turn"]
