"""A settings change on Discord, end to end (issue 22, "words at the edge", table
settings): the host's answer and refusals in his client's language, the table's public
message in the table's language; no English word of a settings change on a German
table."""

from __future__ import annotations

import re
from pathlib import Path

from bot.table.view import stakes_said
from bot.words import render
from tests.fakediscord import FakeDiscord
from tests.fakediscord.fixtures import run_bot
from tests.test_discord_e2e import Harness, make_bot
from tests.test_discord_locales import public_text
from tests.test_settings_words import ENGLISH_WORDS


async def test_issue22_a_settings_change_on_a_german_table_is_public_in_german(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    alice = fake.user("alice")
    alice.locale = "fr"  # the host reads French; the table speaks German
    bot = make_bot(tmp_path / "chipfist.sqlite3")
    async with run_bot(fake, bot, sync=True):
        h = Harness(fake, bot)
        await h.slash(alice, "table create")
        await h.slash(alice, "table settings", name="language", value="de")
        assert h.table().settings.language == "de"
        start = len(fake.channel_messages())
        await h.slash(alice, "table settings", name="action_clock", value="45")
        answer = h.last_ephemeral(alice)
        assert answer.startswith("Réglages modifiés : temps de parole : 60 s → 45 s"), answer
        await h.slash(alice, "table settings", name="seats", value="11")
        refused = h.last_ephemeral(alice)
        assert refused.startswith("Une table a de 2 à 10 places"), refused
        # Her private /table info says the stakes in French too (the view's data).
        await h.slash(alice, "table info")
        stakes = h.table().snapshot(None).stakes_data
        assert stakes is not None
        french = render(stakes_said(stakes), "fr")
        assert french != render(stakes_said(stakes), "en")
        assert h.last_ephemeral(alice).startswith(french + ". "), h.last_ephemeral(alice)
        await h.settle()
        public = [public_text(m) for m in fake.channel_messages()[start:]]
        public.append(public_text(h.table_message()))
        shown = "\n".join(public)
        # The notice as the table message shows it (the embed's recent lines).
        notices = re.findall(
            r"Einstellungen geändert: [^\n]*?\. Jetzt: [^\n]*?, Blinds 1/2\.", shown
        )
        assert notices, shown
        assert "Zeit pro Zug: 60 s → 45 s" in notices[-1], notices
        assert not any(ENGLISH_WORDS.search(n) for n in notices), notices
        assert "Réglages" not in shown and "Settings changed" not in shown
