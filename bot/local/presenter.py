"""The terminal presenter: public notices are printed; private ones are kept until the
player asks (``alice: cards``), because everyone shares the screen."""

from __future__ import annotations

from typing import TextIO

from bot.table.ports import Notice


class TerminalPresenter:
    def __init__(self, out: TextIO, *, quiet: bool = False) -> None:
        self.out = out
        self.quiet = quiet
        self.private_log: dict[str, list[str]] = {}

    def say(self, text: str) -> None:
        if not self.quiet:
            print(text, file=self.out, flush=True)

    async def public(self, table_id: str, notice: Notice) -> None:
        self.say(f"  {notice.text}")

    async def private(self, table_id: str, user_id: str, notice: Notice) -> None:
        log = self.private_log.setdefault(user_id, [])
        log.append(notice.text)
        del log[:-20]

    async def error(self, table_id: str, user_id: str, message: str) -> None:
        # Table commands (deal, set ...) are typed by the table itself, "host".
        who = "" if user_id == "host" else f"{user_id}: "
        self.say(f"! {who}{message}")

    def is_moderator(self, table_id: str, user_id: str) -> bool:
        return True  # at one keyboard everyone may run the table
