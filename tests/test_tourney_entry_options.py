"""The entry options a host chooses on a platform (R-19.92) and when rebuys, the add-on
and a re-entry are offered, with the key that makes one button's clicks count once
(R-19.91)."""

from __future__ import annotations

from dataclasses import replace

from bot.poker.messages import Msg, Name, msg
from bot.tournament.director import Entry, State
from bot.tournament.structure import Config, Entries, Level, preset
from bot.tourney_run.buying import addon_open, click_key, offer, rebuys_open, reentry_open
from bot.tourney_run.entrants import entry_at, live_entry, player_of
from bot.tourney_run.options import Options, config
from bot.words import render


def _key(made: Config | Msg) -> str:
    assert isinstance(made, Msg), made
    return made.key


def test_R_19_92_reentries_need_late_registration() -> None:
    assert _key(config(Options(reentries=1))) == "entries.refuse.reentry_late"
    made = config(Options(reentries=2, late_until=3))
    assert isinstance(made, Config)
    assert made.entries.reentries == 2 and made.entries.late_until == 3


def test_R_19_92_rebuys_and_the_addon_need_their_last_level() -> None:
    assert _key(config(Options(rebuys=1))) == "entries.refuse.rebuy_until"
    assert _key(config(Options(addon=1000))) == "entries.refuse.rebuy_until"
    assert _key(config(Options(rebuy_until=2))) == "entries.refuse.rebuy_until"
    assert _key(config(Options(rebuys=11, rebuy_until=2))) == "entries.refuse.count"
    assert _key(config(Options(reentries=11, late_until=2))) == "entries.refuse.count"
    assert _key(config(Options(addon=5, rebuy_until=2))) == "entries.refuse.addon"
    made = config(Options(rebuys=2, rebuy_until=3, addon=1500, buy_in=40))
    assert isinstance(made, Config)
    e = made.entries
    assert (e.rebuys, e.rebuy_until, e.addon, e.addon_price) == (2, 3, 1500, 40)
    made = config(Options(rebuys=1, rebuy_until=1, addon=1500, addon_price=25))
    assert isinstance(made, Config) and made.entries.addon_price == 25
    assert isinstance(config(Options()), Config)  # all off by default


def _state(entries: Entries, level: int) -> State:
    cfg = Config(stack=1000, schedule=preset("regular", 1000, unit="hands"), entries=entries)
    levels = [i for i, item in enumerate(cfg.schedule.items) if isinstance(item, Level)]
    return State(cfg, status="running", level=levels[level - 1])


def test_R_19_91_rebuys_through_their_level_the_addon_at_its_end() -> None:
    entries = Entries(rebuys=2, rebuy_until=2, addon=1000, addon_price=50)
    opened = [(rebuys_open(s), addon_open(s)) for s in (_state(entries, n) for n in (1, 2, 3, 4))]
    assert opened == [(True, False), (True, True), (False, True), (False, False)]
    assert not rebuys_open(_state(Entries(), 1)) and not addon_open(_state(Entries(), 1))
    paused_before = replace(_state(entries, 1), status="registering")
    assert not rebuys_open(paused_before)


def test_R_19_91_a_buttons_clicks_share_a_key_until_a_purchase_is_made() -> None:
    state = _state(Entries(rebuys=2, rebuy_until=2, addon=500), 2)
    drawn = offer(state)
    first = click_key("u1", addon=False, offered=drawn)
    assert first == click_key("u1", addon=False, offered=drawn)  # a double click: once
    assert first != click_key("u2", addon=False, offered=drawn)  # each player his own
    assert first != click_key("u1", addon=True, offered=drawn)
    after = replace(state, rebuys={"u1#2": 1})
    assert offer(after) == drawn + 1  # the button drawn again: his next rebuy a new key
    assert click_key("u1", addon=False, offered=offer(after)) != first
    assert offer(replace(after, addons=frozenset({"u2"}))) == drawn + 2


def test_R_19_90_a_seat_is_its_players_and_names_his_entry() -> None:
    state = replace(
        _state(Entries(late_until=3, reentries=2), 1),
        entries=(
            Entry("u1", "u1", "Ann", 1, 100),
            Entry("u2", "u2", "Bob", 2, 100),
            Entry("u1#2", "u1", "Ann", 3, 100),
        ),
        seats={"u1#2": (2, 5), "u2": (1, 1)},
    )
    assert player_of(state, "u1#2") == "u1" and player_of(state, "u2") == "u2"
    assert live_entry(state, "u1") == "u1#2"
    assert entry_at(state, "u1", 2) == "u1#2"  # his live entry's seat
    assert entry_at(state, "u1", 1) == "u1"  # a seat elsewhere: his busted entry
    assert not reentry_open(state, "u1")  # an entry of his is still in
    out = replace(state, seats={"u2": (1, 1)})
    assert reentry_open(out, "u1")
    assert not reentry_open(replace(out, registration_open=False), "u1")
    spent = replace(out, config=replace(out.config, entries=Entries(late_until=3, reentries=1)))
    assert not reentry_open(spent, "u1")  # his one re-entry used
    assert not reentry_open(out, "u9")  # never registered: that is registering


def test_R_19_90_the_out_dm_offers_reentry_only_while_he_may() -> None:
    from cogs.tourney_entries import out_dm

    state = replace(
        _state(Entries(late_until=3, reentries=1), 1),
        entries=(Entry("u1", "u1", "Ann", 1, 100), Entry("u2", "u2", "Bob", 2, 100)),
        seats={"u2": (1, 1)},
    )
    event = Name("Friday *Cup*")  # named by its title, inert in markdown
    text, view = out_dm(state, "t1", "u1", "en", event=event)
    said = msg("entries.out_reenter", event=Name("Friday \\*Cup\\*"))
    assert text == render(said, "en") and "t1" not in text
    assert view is not None
    assert [c.custom_id for c in view.children] == ["cft:reg:t1"]  # type: ignore[attr-defined]
    closed = replace(state, registration_open=False)
    text, view = out_dm(closed, "t1", "u1", "de", event=event)
    assert view is None and text == render(msg("entries.out", event=Name("Friday \\*Cup\\*")), "de")
