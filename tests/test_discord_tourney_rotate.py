"""``/tournament create rotate:`` end to end through the real discord.py client and the
fake Discord (R-19.57): the option offers the three choices in the reader's language
(Discord refuses anything else before the bot sees it), a HORSE tournament created by
orbit keeps the choice, by default by level; the same choice from any other caller
(the options layer) is refused saying the three, and nothing is created."""

from __future__ import annotations

from typing import Any

from bot.tourney_run.options import Options, config
from bot.words import render
from tests.test_discord_e2e import Harness
from tests.test_discord_tourney import announcement, cog, create, t  # noqa: F401  (the fixture)


def _rotate(h: Harness) -> dict[str, Any]:
    top = h.fake.command("tournament")
    made = next(o for o in top["options"] if o["name"] == "create")
    return next(o for o in made["options"] if o["name"] == "rotate")


async def test_R_19_57_create_takes_rotate_and_keeps_it(t: Harness) -> None:  # noqa: F811
    option = _rotate(t)
    assert [c["value"] for c in option["choices"]] == ["level", "orbit", "deal"]
    assert option["choices"][0]["name_localizations"]["de"] == "Pro Level"
    alice = t.fake.user("alice")
    assert "is open" in await create(t, alice, game="horse", format="scheduled", rotate="orbit")
    (runner,) = cog(t).driver.runners.values()
    assert runner.st.config.rotate == "orbit"
    # The announcement names the rotation's games and when they change.
    posted = announcement(t)
    text = posted.content + " ".join(str(e.get("description", "")) for e in posted.embeds)
    text += " ".join(str(f.get("value", "")) for e in posted.embeds for f in e.get("fields", []))
    assert "Razz" in text and "each orbit" in text, text


async def test_R_19_54_create_by_level_unless_told(t: Harness) -> None:  # noqa: F811
    alice = t.fake.user("alice")
    assert "is open" in await create(t, alice, game="horse", format="scheduled")
    (runner,) = cog(t).driver.runners.values()
    assert runner.st.config.rotate == "level"
    refused = config(Options(game="horse", rotate="often"))
    assert not isinstance(refused, type(runner.st.config))
    assert "level, orbit, deal" in render(refused, "en")
