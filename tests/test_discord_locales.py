"""Who reads what, end to end through the fake Discord: each player's private answers
and DMs in his client's language, the table's public message, picture and summary in
the table's language (its setting over its server's), and a DM the clock sends after a
restart in the player's language, kept from his earlier interactions."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog

from bot.poker.messages import Rule
from bot.table.ports import Notice
from bot.table.table import Abandoned
from bot.words.catalog import keys, read_catalog
from cogs.errors import friendly
from cogs.moderation import closed_text
from cogs.table_cog import rules_answer
from cogs.words import say
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser
from tests.fakediscord.fixtures import run_bot
from tests.said import keys_in
from tests.test_discord_e2e import Harness, make_bot

PLACEHOLDER = re.compile(r"\{[a-z_]+\}")


def _texts(catalog: Catalog) -> dict[str, str]:
    return {str(m.id): str(m.string) for m in catalog if m.id and isinstance(m.string, str)}


def english_fragments(lang: str) -> set[str]:
    """The English words of the catalogues the Discord side draws from (discord, art):
    each sentence's parts between parameters, of two words or more, that the other
    language does not say the same way."""
    out: set[str] = set()
    for domain in ("discord", "art"):
        en, other = _texts(read_catalog("en", domain)), _texts(read_catalog(lang, domain))  # type: ignore[arg-type]  # a Locale literal
        for key, text in en.items():
            for part in PLACEHOLDER.split(text):
                part = part.strip(" .,:;()·—-")
                if " " in part and len(part) >= 8 and part not in other.get(key, ""):
                    out.add(part)
    return out


def public_text(msg: FakeMessage) -> str:
    """Everything a channel message shows: text, embeds, button labels, alt texts."""
    parts = [msg.content, str(msg.embeds), str(msg.components)]
    parts += [a.description for a in msg.attachments]
    return "\n".join(parts)


def labels(msg: FakeMessage) -> list[str]:
    return [
        str(c.get("label"))
        for row in msg.components
        for c in row.get("components", [])
        if c.get("label")
    ]


def unrendered(bot: Any) -> list[str]:
    """The keys of the public notices whose message English lacks (the renderer would
    show the key itself), collected as the table tells them."""
    seen: list[str] = []
    public = bot.presenter.public

    async def on_public(table_id: str, notice: Notice) -> None:
        seen.extend(k for k in keys_in(notice.msg) if k not in keys("en"))
        await public(table_id, notice)

    bot.presenter.public = on_public
    return seen


async def play_out(h: Harness) -> None:
    for _ in range(40):
        if h.table().snapshot(None).phase != "betting":
            break
        actor = h.to_act()
        assert actor is not None
        await h.click(actor, "check_call")
    await h.settle()


async def test_words_each_reader_in_his_language_table_in_its_own(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    alice, bob, dave = fake.user("alice"), fake.user("bob"), fake.user("dave")
    alice.locale, bob.locale, dave.locale = "de", "fr", "es-ES"
    assert fake.guild_locale(None) == "en-US"  # the server speaks English
    db = tmp_path / "chipfist.sqlite3"
    bot = make_bot(db)
    unconverted = unrendered(bot)
    async with run_bot(fake, bot, sync=True):
        h = Harness(fake, bot)
        await h.slash(alice, "table create")
        await h.slash(alice, "table settings", name="language", value="de")
        assert h.table().settings.language == "de"
        await h.slash(alice, "notify", mode="dm")
        for u in (alice, bob):
            await h.slash(u, "sit", buy_in=200)
        start = len(fake.channel_messages())
        await h.slash(alice, "deal")

        # Hole cards by DM, each in his own language.
        def cards_dm(u: FakeUser) -> str:
            return next(m.content for m in fake.dm_messages(u) if m.attachments)

        assert say("dm.cards", "de", cards="").strip() in cards_dm(alice)
        assert say("dm.cards", "fr", cards="").strip() in cards_dm(bob)
        assert "Your cards" not in cards_dm(alice) + cards_dm(bob)
        # The hole-card picture's alt text too.
        de_alt = next(m for m in fake.dm_messages(alice) if m.attachments).attachments[0]
        assert de_alt.description and "cards" not in de_alt.description.lower()

        # Ephemeral answers in the clicker's language: his cards, and a stranger's click.
        await h.click(alice, "cards")
        assert h.last_ephemeral(alice).startswith(say("play.your_cards", "de", cards=""))
        await h.click(bob, "cards")
        assert h.last_ephemeral(bob).startswith(say("play.your_cards", "fr", cards=""))
        await h.click(dave, "fold")
        assert h.last_ephemeral(dave) == say("play.sit_hint", "es")

        # The table message in the table's language (German), not the server's.
        table = h.table_message()
        shown = labels(table)
        assert say("button.my_cards", "de") in shown
        assert say("button.my_cards", "en") not in shown
        fields = str(table.embeds)
        assert say("embed.seats", "de") in fields and say("embed.seats", "en") not in fields

        await play_out(h)
        assert not h.table().state.in_hand
        # The end-of-hand summary and its showdown picture in German.
        summary = [m for m in fake.channel_messages()[start:] if m.attachments]
        assert summary, "the showdown was posted"
        alts = [a.description for m in summary for a in m.attachments]
        assert alts and all(alts), alts

        # No English sentence of the catalogues in the German table's public messages.
        english = english_fragments("de")
        assert english, "the scan has something to look for"
        public = [public_text(m) for m in fake.channel_messages()[start:]]
        public.append(public_text(h.table_message()))
        # Every public notice of the hand carried a message (none told as English text).
        assert not unconverted, unconverted
        leaked = sorted({e for e in english for text in public if e in text})
        where = [t for t in public if any(e in t for e in leaked)]
        assert not leaked, (leaked, where)

    # After a restart the turn nudge goes by DM in alice's language, though she has not
    # been seen by the new process: her language was kept.
    bot2 = make_bot(db)
    async with run_bot(fake, bot2, sync=True):
        h2 = Harness(fake, bot2)
        assert bot2.presenter.locales.user(str(alice.id)) == "de"
        bot2.presenter.ping_delay = 0.0
        dms_before = len(fake.dm_messages(alice))
        await h2.slash(bob, "deal")
        for _ in range(10):
            if h2.to_act() is alice:
                break
            actor = h2.to_act()
            assert actor is bob
            await h2.click(bob, "check_call")
        assert h2.to_act() is alice
        nudge = say("ping.turn", "de", user=alice.mention)
        await fake.wait_for(
            lambda: any(nudge in m.content for m in fake.dm_messages(alice)[dms_before:]),
            timeout=5,
        )
        english_nudge = say("ping.turn", "en", user=alice.mention)
        assert not any(english_nudge in m.content for m in fake.dm_messages(alice))


def test_rules_in_another_language_say_the_rulebook_is_english() -> None:
    """/rules quotes the English rulebook; a reader of another language is told so first,
    in his language, and an English reader gets the rule alone."""
    for lang in ("de", "fr", "es", "pt_BR", "ru"):
        answer = rules_answer("R-6.2", None, lang)  # type: ignore[arg-type]  # a Locale
        note = say("rules.english", lang)  # type: ignore[arg-type]
        assert answer.startswith(note + "\n") and "R-6.2" in answer, lang
        assert note != say("rules.english", "en")
    english = rules_answer("R-6.2", None, "en")
    assert not english.startswith(say("rules.english", "en"))
    unknown = say(
        "rules.unknown", "ru", shown="R-99.1", r_first="", r_last="", e_first="", e_last=""
    )
    assert unknown.split("R-99.1")[0] in rules_answer("R-99.1", None, "ru")


def test_errors_and_help_in_the_askers_language() -> None:
    """The tree's error handler and /help speak the asker's language (a bug's apology
    keeps its error id)."""
    said = friendly(RuntimeError("boom"), None, "fr")
    error_id = re.search(r"`([0-9a-f]{8})`", said)
    assert error_id and said == say("error.bug", "fr", error_id=error_id.group(1))
    assert say("help.text", "de") != say("help.text", "en")
    assert "/table create" in say("help.text", "ru")


def test_every_discord_key_the_cogs_name_is_in_the_catalogue() -> None:
    """Each literal key the cogs pass to ``say`` is an English catalogue key, of any
    domain (so the catalogue test holds every language to it)."""
    known = keys("en")
    used: set[str] = set()
    for path in Path("cogs").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "say"
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                used.add(node.args[0].value)
    assert len(used) > 40
    assert not used - set(known), sorted(used - set(known))


def test_R_16_11_closed_table_dm_in_the_players_language() -> None:
    """The DM a player gets when his table is closed (R-16.11) is in his language,
    with the cancelled hand, the rule and his chips."""
    done = Abandoned(cancelled=7, cashed=(("1", "ann", 150),), reason="x")
    for lang in ("de", "ru"):
        text = closed_text(done, "<#5>", 150, lang)  # type: ignore[arg-type]  # a Locale
        assert text.splitlines() == [
            say("closed.head", lang, place="<#5>", reason="x"),  # type: ignore[arg-type]
            say("closed.cancelled", lang, hand=7, rule=Rule("R-16.11")),  # type: ignore[arg-type]
            say("closed.cashed", lang, chips=150),  # type: ignore[arg-type]
        ]
        assert "R-16.11" in text and "150" in text
        assert say("closed.cashed", "en", chips=150) not in text


def test_R_1_11_place_refusals_in_the_askers_language_english_unchanged() -> None:
    """A command from a DM or a stray thread is refused in the asker's language; the
    English reads as it always did."""
    from discord import app_commands

    from cogs import places

    thread = places._said(
        app_commands.CheckFailure(places.NOT_THIS_THREAD), "place.not_this_thread"
    )
    dms = places._said(app_commands.NoPrivateMessage(places.NOT_IN_DMS), "place.not_in_dms")
    assert friendly(thread, None, "en") == places.NOT_THIS_THREAD
    assert friendly(dms, None, "en") == places.NOT_IN_DMS
    german = friendly(thread, None, "de")
    assert german == say("place.not_this_thread", "de", rule=Rule("R-1.11")) and "R-1.11" in german
    assert friendly(dms, None, "pt_BR") == say("place.not_in_dms", "pt_BR")


def test_messages_at_the_seams_rendered_for_their_reader() -> None:
    """An outcome's or a notice's message is said in the reader's language, players
    named by the notice's hand."""
    from bot.poker.messages import Chips, Player, msg
    from bot.table.ports import HandFacts
    from cogs.words import notice_text, outcome_text

    call = msg("legal.call", amount=Chips(1500))
    assert outcome_text(call, "de") == "1.500 mitgehen"
    facts = HandFacts(hand_no=1, variant="holdem", wild="none", seats=(1, 2), names=("ann", "bo"))
    who = Notice("sat", msg("engine.who", who=Player(1)), 1, hand=facts)
    assert notice_text(who, "ru") == "bo"


def _keys_said_in_code() -> tuple[set[str], set[str]]:
    """Every string literal of the shipped code, and the fixed heads of the keys it
    builds (``f"modal.{kind}.title"``, ``"settings.unit." + unit``)."""
    literals: set[str] = set()
    heads: set[str] = set()
    root = Path(__file__).resolve().parent.parent
    for package in ("cogs", "bot", "cards_art"):
        for path in (root / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Constant) and isinstance(node.value, str):
                    literals.add(node.value)
                elif isinstance(node, ast.JoinedStr) and node.values:
                    head = node.values[0]
                    if isinstance(head, ast.Constant) and isinstance(head.value, str):
                        heads.add(head.value)
                elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
                    left = node.left
                    if isinstance(left, ast.Constant) and isinstance(left.value, str):
                        heads.add(left.value)
    return literals, heads - {""}


def test_every_discord_key_is_said_somewhere() -> None:
    """The ``discord`` catalogue holds only words the code says: a key no literal names
    (and no built key can be) is a leftover, in six languages."""
    literals, heads = _keys_said_in_code()
    unused = sorted(
        key
        for key in (
            str(m.id[0] if isinstance(m.id, tuple) else m.id)
            for m in read_catalog("en", "discord")
            if m.id
        )
        if key not in literals and not any(key.startswith(h) for h in heads)
    )
    assert unused == []
