"""A German table, end to end through the fake Discord: the close line, ``/stats``,
``/ledger`` and ``/leaderboard`` come out in German (the table's catalogue rendered for
the reader), and no English sentence of those messages reaches the German players."""

from __future__ import annotations

from pathlib import Path

from bot.poker.messages import Chips, Count, Name, Number, Rule, joined, msg
from bot.table.standings import counted, signed
from bot.words import render
from bot.words.catalog import read_catalog
from tests.fakediscord import FakeDiscord
from tests.fakediscord.fixtures import run_bot
from tests.said import en
from tests.test_discord_e2e import Harness, make_bot
from tests.test_discord_locales import PLACEHOLDER, _texts, play_out, public_text


def english_of_table(lang: str) -> set[str]:
    """The English parts (two words or more) of every ``table`` and ``discord`` message
    that ``lang`` says otherwise."""
    out: set[str] = set()
    for domain in ("table", "discord"):
        en, other = _texts(read_catalog("en", domain)), _texts(read_catalog(lang, domain))  # type: ignore[arg-type]  # a Locale literal
        for key, text in en.items():
            for part in PLACEHOLDER.split(text):
                part = part.strip(" .,:;()·—-*")
                if " " in part and len(part) >= 8 and part not in other.get(key, ""):
                    out.add(part)
    return out


async def test_R_14_4_a_german_tables_close_line_stats_and_ledger_come_out_german(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    alice, bob = fake.user("alice"), fake.user("bob")
    alice.locale = bob.locale = "de"
    bot = make_bot(tmp_path / "chipfist.sqlite3")
    async with run_bot(fake, bot, sync=True):
        h = Harness(fake, bot)
        await h.slash(alice, "table create")
        await h.slash(alice, "table settings", name="language", value="de")
        for u in (alice, bob):
            await h.slash(u, "sit", buy_in=200)
        start = len(fake.channel_messages())
        await h.slash(alice, "deal")
        await play_out(h)
        assert not h.table().state.in_hand

        # /stats: this table's line in German ("1 Hand gespielt"), never "hand played".
        await h.slash(bob, "stats")
        stats = h.last_ephemeral(bob)
        one_hand = render(counted("hands", 1), "de")
        assert one_hand == "1 Hand" and f"{one_hand} gespielt" in stats, stats
        assert " played" not in stats and ", best " not in stats

        # /ledger: the session's words in German (each player's net, his buy-ins).
        await h.slash(bob, "ledger")
        ledger = h.last_ephemeral(bob)
        assert "netto +2" in ledger and "Buy-ins 200" in ledger, ledger
        assert " net " not in ledger and "bought" not in ledger

        # /leaderboard: the head in German, the floor of hands with its plural.
        await h.slash(bob, "leaderboard", scope="server", min_hands=0)
        board = h.last_ephemeral(bob)
        assert board.startswith("**Bestenliste, dieser Server**"), board

        # The close: answered to the host and told at the table, in German.
        await h.slash(alice, "table close")
        closed = render(msg("table.close.done"), "de")
        assert closed in h.last_ephemeral(alice), h.last_ephemeral(alice)
        public = [public_text(m) for m in fake.channel_messages()[start:]]
        public.append(public_text(h.table_message()))
        assert any(closed in text for text in public), public

        # None of the English of these messages reached the German players.
        english = english_of_table("de")
        assert "The table is closed. Every player was cashed out" in english
        seen = [*public, stats, ledger, board, h.last_ephemeral(alice)]
        leaked = sorted({e for e in english for text in seen if e in text})
        assert not leaked, leaked


def test_R_16_14_the_close_line_is_one_message_in_every_language() -> None:
    """R-16.13 and R-16.14 as the close says them: the cancelled hand, the carried pot
    and the close joined as one message, translated as a whole (no English part)."""
    told = joined(
        [
            msg("table.close.cancelled", hand=Number(7), rule=Rule("R-16.14")),
            msg(
                "table.close.carry_returned", amount=Chips(9), count=Count(3), rule=Rule("R-16.13")
            ),
            msg("table.close.done"),
        ],
        "notice.space",
    )
    english = render(told, "en")
    assert english.startswith("Hand #7 is cancelled") and "3 players" in english
    for lang in ("de", "fr", "es", "pt_BR", "ru"):
        said = render(told, lang)  # type: ignore[arg-type]  # a Locale literal
        assert "R-16.14" in said and "R-16.13" in said and "9" in said
        assert "cancelled" not in said and "cashed out" not in said, (lang, said)


def test_R_14_4_standings_read_in_german_with_the_reader_and_his_numbers() -> None:
    line = msg(
        "table.stats.line",
        who=Name("Ann"),
        hands=counted("hands", 2),
        won=Chips(1),
        net=signed(-1234),
        best=Chips(1500),
    )
    assert render(line, "en") == "Ann: 2 hands played, 1 won, net -1,234, best 1,500"
    assert (
        render(line, "de") == "Ann: 2 Hände gespielt, 1 gewonnen, netto -1.234, bester Gewinn 1.500"
    )


def test_R_16_11_why_a_table_closed_is_said_in_the_players_language() -> None:
    """The reason and the place of a table closed under R-16.11 are catalogue words:
    a German player reads both in German; the English reads as before."""
    from bot.table.table import Abandoned
    from cogs.moderation import NOT_A_PLACE, closed_text
    from cogs.words import message

    done = Abandoned(cancelled=None, cashed=(), reason="closed.why.thread")
    place = message("closed.place.thread", channel="<#5>")
    english = closed_text(done, place, 10, "en")
    assert "**The table in the thread of <#5> is closed**: its thread was deleted." in english
    german = closed_text(done, place, 10, "de")
    assert "<#5>" in german and "Thread" in german and "thread was deleted" not in german
    dm = closed_text(Abandoned(None, (), NOT_A_PLACE), message("closed.place.dm"), None, "ru")
    assert "R-1.11" in dm and "direct message" not in dm


async def test_R_6_6_the_table_embed_says_stakes_options_and_last_action_in_its_language() -> None:
    """The table message of a German table: the title (game and stakes), the options of
    the player to act (public, R-6.6) and the last action, all from the view's messages
    rendered in German; no English is shown."""
    from bot.table.view import stakes_said
    from cogs.embeds import table_embed
    from tests.harness import Harness

    h = Harness()
    table = await h.seated(["a", "b", "c"])
    assert (await h.deal(table)).ok
    assert (await h.do(table, h.to_act(table), "call")).ok
    view = table.snapshot(None)
    assert view.options_said is not None and view.last_said is not None
    embed = str(table_embed(view, locale="de").to_dict())
    assert render(view.options_said, "de") in embed and en(view.options_said) not in embed
    assert render(view.last_said, "de") in embed and en(view.last_said) not in embed
    title = table_embed(view, locale="de").title or ""
    assert title.replace(" — ", ", ") == render(stakes_said(view.stakes_data), "de")
    english = render(stakes_said(view.stakes_data), "en")
    assert table_embed(view).title == english.replace(", ", " — ", 1)  # the game named once
