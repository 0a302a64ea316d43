"""The night's record through the real discord.py client and the fake Discord
(R-20.40-R-20.45): ``/ledger export`` attaches a CSV that reads back as the ledger and
holds no card; ``/ledger story`` attaches the session's picture; ``/settle scope:server``
and ``/leaderboard by`` answer privately; a bad date is refused privately and changes
nothing. Every answer is ephemeral, and the leak guard checks no card reached anyone
else."""

from __future__ import annotations

import re

from bot.table.record import CSV_COLUMNS, read_ledger_csv
from tests.test_discord_e2e import Harness, h, hole_cards, players

__all__ = ["h"]


async def _hands(h: Harness, n: int) -> None:
    for _ in range(n):
        if not h.table().state.in_hand:
            await h.slash(players(h.fake)[0], "deal")
        while h.table().state.in_hand:
            actor = h.to_act()
            assert actor is not None
            await h.click(actor, "fold")
    assert h.table().conservation_error() is None


async def test_R_20_44_ledger_export_is_the_ledger_and_no_card(h: Harness) -> None:
    """R-20.44: the CSV attached to ``/ledger export:True`` parses back equal to the
    session's ledger, its nets and the rake sum to zero while nobody is in a hand
    (R-2.5), and no card of the hand played appears in it."""
    users = players(h.fake)
    await h.start_table(users)
    cards = hole_cards(h.fake, h.bot, h.tid)
    await _hands(h, 1)
    await h.slash(users[1], "ledger", export=True)
    eph = h.fake.ephemerals(users[1])[-1]
    files = [a for a in eph.attachments if a.filename == "ledger.csv"]
    assert files, eph.attachments
    text = files[0].data.decode()
    assert text.splitlines()[0] == ",".join(CSV_COLUMNS)
    ledger = read_ledger_csv(text)
    served = await h.bot.tables.session_ledger(h.tid)
    assert ledger == served
    assert sum(line.on_table for line in ledger.lines) == sum(
        s.stack for s in h.table().state.seats.values()
    )
    every_card = {c for held in cards.values() for c in held}
    assert every_card and not any(re.search(rf"\b{c}\b", text) for c in every_card)
    assert "net" in eph.content


async def test_R_20_45_story_picture_on_request(h: Harness) -> None:
    """R-20.45: ``/ledger story:True`` answers privately with the story's PNG, its alt
    text naming the hands; before any hand it says there is nothing to draw."""
    users = players(h.fake)
    await h.slash(users[0], "table create")
    for u in users:
        await h.slash(u, "sit", buy_in=200)
    await h.slash(users[0], "ledger", story=True)
    assert "no story" in h.last_ephemeral(users[0])
    await _hands(h, 2)
    await h.slash(users[2], "ledger", story=True)
    eph = h.fake.ephemerals(users[2])[-1]
    pngs = [a for a in eph.attachments if a.filename == "story.png"]
    assert pngs and pngs[0].data.startswith(b"\x89PNG")
    assert "over 2 hands" in pngs[0].description


async def test_R_20_41_server_settle_board_and_bad_dates(h: Harness) -> None:
    """R-20.41, R-20.43, R-20.40: the server's settle-up over today, a board by hands,
    and a date that does not read, refused privately with the form to use, nothing
    changed."""
    users = players(h.fake)
    await h.start_table(users)
    await _hands(h, 2)
    await h.slash(users[0], "settle", scope="server")
    said = h.last_ephemeral(users[0])
    assert " pays " in said or "Nothing to settle" in said
    await h.slash(users[0], "leaderboard", by="hands", min_hands=0)
    board = h.last_ephemeral(users[0])
    assert board.startswith("Leaderboard by hands") and "2 hands" in board
    before = h.table().digest()
    await h.slash(users[1], "ledger", scope="server", since="last tuesday")
    assert "YYYY-MM-DD" in h.last_ephemeral(users[1])
    await h.slash(users[1], "stats", since="2026-02-30")
    assert "is not a date" in h.last_ephemeral(users[1])
    assert h.table().digest() == before
