"""What a tournament is called where players see it (R-19.105): the host's title, or,
without one, a readable name of its own, its format and its number among its server's
tournaments ("Sit-and-go #3", "Tournament #4"), never its id. A message with the name
as a :class:`~bot.poker.messages.Name` (a presenter escapes it as it escapes players'
names, R-1.12) or the ``tourney`` catalogue's words in the reader's language."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final, Literal

from bot.poker.messages import Msg, Name, Number, msg
from bot.tourney_run.driver import Driver, Opened

MAX_TITLE: Final = 60
"""Characters of a title kept (a thread's name holds 100, with the table's number)."""

Format = Literal["sit_and_go", "scheduled"]


def event_said(opened: Opened | None, format: Format) -> Name | Msg:
    """The tournament's name: its title, else its format and number, else its format."""
    if opened is not None and opened.title:
        return Name(opened.title)
    if opened is not None and opened.number > 0:
        return msg(f"tourney.name.{format}", number=Number(opened.number))
    return msg(f"tourney.name.{format}_plain")


def event_of(driver: Driver, tournament: str) -> Name | Msg:
    """The name of a tournament the driver knows (its format read from its config)."""
    runner = driver.get(tournament)
    format: Format = runner.st.config.format if runner is not None else "sit_and_go"
    return event_said(driver.opened.get(tournament), format)


def next_number(opened: Iterable[Opened], guild: int) -> int:
    """The number of a new tournament in ``guild``: one more than its highest."""
    return 1 + max((o.number for o in opened if o.guild == guild and guild), default=0)


__all__ = ["MAX_TITLE", "event_of", "event_said", "next_number"]
