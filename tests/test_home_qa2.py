"""The home game's second QA pass: each test is a step players took that went wrong,
named after the ruling (R-20.75 to R-20.79) that holds the table to it. Every one checks
R-2.5 where chips could move."""

from __future__ import annotations

import io
from pathlib import Path

from bot.local.terminal import run
from bot.table.actor import Actor
from bot.table.recovery import ledger_error
from bot.table.table import Table
from bot.words import render
from tests.harness import HOST, Harness


async def ok(h: Harness, table: Table) -> None:
    """R-2.5 in memory and in the ledger."""
    assert table.conservation_error() is None
    assert await ledger_error(h.store, table.state) is None


async def _terminal(db: Path, lines: list[str], *args: str) -> str:
    out = io.StringIO()
    code = await run(["--db", str(db), *args], inp=io.StringIO("\n".join(lines) + "\n"), out=out)
    assert code == 0
    return out.getvalue()


async def test_r20_76_an_adjustment_names_the_role_and_the_person_who_made_it() -> None:
    """A co-host's and a moderator's adjustments were announced as "The host added…".
    The table names the role that acted and the person, in every language; the host
    with no name known (the terminal's) is "the host" as before."""
    h = Harness()
    table = await h.seated(["alice", "bob", "carol"])
    assert (await table.host_tool(HOST, "cohost", "alice", name="alice", key=h.key())).ok
    chips = sum(s.stack for s in table.state.seats.values())

    out = await table.host_tool("alice", "adjust", "bob", amount=40, reason="found", key=h.key())
    assert out.ok and out.msg is not None and out.msg.key == "host.adjusted.up.cohost"
    assert render(out.msg, "en").startswith("The co-host alice added 40 from the bank to bob")
    assert render(out.msg, "de").startswith("Der Co-Gastgeber alice hat bob 40")

    mod = Actor("m1", may_manage=True, name="Mona")
    out = await table.host_tool(mod, "adjust", "carol", amount=-30, reason="paid", key=h.key())
    assert out.ok and out.msg is not None and out.msg.key == "host.adjusted.down.moderator"
    assert render(out.msg, "en").startswith("The moderator Mona took 30 from carol's stack")
    assert render(out.msg, "fr").startswith("Le modérateur Mona a repris 30")

    named_host = Actor(HOST, name="Hugo")
    out = await table.host_tool(named_host, "adjust", "bob", amount=5, reason="x", key=h.key())
    assert out.ok and out.msg is not None and out.msg.key == "host.adjusted.up.host"
    assert render(out.msg, "en").startswith("The host Hugo added 5")

    out = await table.host_tool(HOST, "adjust", "bob", amount=5, reason="x", key=h.key())
    assert out.ok and out.msg is not None and out.msg.key == "host.adjusted.up"
    # Said to the table, as it was answered.
    told = [n.msg.key for _, n in h.presenter.public_notices if n.msg is not None]
    assert told.count("host.adjusted.up.cohost") == 1
    assert told.count("host.adjusted.down.moderator") == 1
    assert sum(s.stack for s in table.state.seats.values()) == chips + 40 - 30 + 5 + 5
    await ok(h, table)


async def test_r20_79_a_players_line_typed_alone_is_answered_with_the_line_to_type(
    tmp_path: Path,
) -> None:
    """The host typed "rabbit" alone and was told "Unknown command". A player's line
    typed with no name is answered with the line to type (`NAME: rabbit`), as R-20.72
    answers a host command typed under a name; nothing changes."""
    db = tmp_path / "r.sqlite3"
    lines = ["set rabbit_hunt on", "deal", "a: fold", "rabbit", "rabbit hunt", "bomb yes"]
    text = await _terminal(db, lines, "a", "b", "--buy-in", "100")
    assert "Unknown command" not in text, text
    assert "`rabbit` is a player's line: type it after his name, as `NAME: rabbit`." in text
    assert "as `NAME: rabbit hunt`" in text and "as `NAME: bomb yes`" in text
    assert "not played" not in text  # no hunt was made
