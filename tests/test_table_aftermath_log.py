"""What the table settles after a hand is in the log (R-20.13, R-20.14, R-20.15): the
rabbit hunt and the shows by choice are records folded by the table state, so once a
hand and what was shown hold across a restart from the SQLite file; the hand history
(PHH, docs/phh.md) carries the shown cards, the rabbit cards (not played) and the 7-2
bounty, and never a card that was not shown."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

import bot.table.table as table_module
from bot.poker.cards import stacked_deck
from bot.poker.hand import Hand
from bot.table import log as tlog
from bot.table.home import aftermath
from bot.table.ports import open_store
from bot.table.snapshot import from_payload, to_payload
from tests.harness import Harness

# Three players; the board would be 7h7s2c9d4h; the hole cards are dealt from the top.
DECK3 = stacked_deck(["7c2d", "AsKd", "QhJc"], "7h7s2c9d4h")
SEVEN_DEUCE = stacked_deck(["7c2d", "AsKd"], "7h7s2c9d4h")


def _stack(monkeypatch: pytest.MonkeyPatch, deck: tuple[str, ...]) -> None:
    def stacked(rules: Any, stacks: Any, _deck: Any = None, **kw: Any) -> Hand:
        return Hand(rules, stacks, deck, **kw)

    monkeypatch.setattr(table_module, "Hand", stacked)


def _cards(text: str) -> set[str]:
    """Every card named anywhere in an export (``??`` is no card)."""
    return set(re.findall(r"[2-9TJQKA][cdhs]", text))


async def _folded_round(h: Harness, **settings: object) -> tuple[Any, Any, Any]:
    """A hand everybody folds to one player before the flop: (table, info, hand)."""
    table = await h.seated(["a", "b", "c"], **settings)
    assert (await h.deal(table)).ok
    info, hand = table.state.current, table.state.hand
    assert info is not None and hand is not None
    while table.state.hand is not None:
        assert (await h.do(table, h.to_act(table), "fold")).ok
    return table, info, hand


def _chips(table: Any) -> int:
    return sum(s.stack for s in table.state.seats.values()) + table.state.carried


async def _restart(h: Harness, path: str) -> tuple[Harness, Any]:
    await h.store.close()  # type: ignore[attr-defined]
    h2 = Harness(store=await open_store(path))
    h2.time.set(h.time.now())
    assert await h2.service.recover() == []
    return h2, h2.service.table("t")


async def test_R_20_14_rabbit_once_a_hand_survives_a_restart_from_sqlite(tmp_path: Path) -> None:
    path = str(tmp_path / "table.sqlite3")
    h = Harness(store=await open_store(path))
    table, info, hand = await _folded_round(h, rabbit_hunt=True)
    chips = _chips(table)
    out = await table.rabbit("b", key=h.key())
    assert out.ok, out.msg
    rabbit = tlog.read_rows(await h.store.events("t"), tlog.RabbitHunted)
    assert len(rabbit) == 1 and rabbit[0].hand_no == info.hand_no and len(rabbit[0].cards) == 5
    h2, again = await _restart(h, path)
    assert again.state.after == table.state.after
    refused = await again.rabbit("a", key="after-restart")
    assert not refused.ok and refused.msg is not None
    assert refused.msg.key == "home.rabbit_ask.once"
    # The history marks the rabbit cards as not played; none is a card dealt to anyone.
    text = await again.hand_history(info.hand_no)
    assert f'_rabbit_hunt = "{"".join(rabbit[0].cards)}"' in text
    dealt = {c for hole in hand.hole for c in hole}
    assert not dealt & set(rabbit[0].cards)
    assert not dealt & _cards(text)  # every hand folded unshown: no hole card in it
    told = await again.hand_told(info.hand_no)
    assert told[-1].key == "home.rabbit.cards"
    assert _chips(again) == chips  # no chip moved
    h2.check(again)
    await h2.store.close()  # type: ignore[attr-defined]


async def test_R_20_15_a_shown_card_stays_shown_in_the_history_after_a_restart(
    tmp_path: Path,
) -> None:
    path = str(tmp_path / "table.sqlite3")
    h = Harness(store=await open_store(path))
    table, info, hand = await _folded_round(h)
    chips = _chips(table)
    winner = next(p for p in range(len(info.users)) if not hand.folded[p])
    hole = tuple(hand.hole[winner])
    assert (await table.show_by_choice(info.users[winner], "1", key=h.key())).ok
    shown = tlog.read_rows(await h.store.events("t"), tlog.ShownByChoice)
    assert [(s.position, s.cards) for s in shown] == [(winner, (hole[0],))]
    h2, again = await _restart(h, path)
    # Shown once is shown: the same card again is refused after the restart too.
    twice = await again.show_by_choice(info.users[winner], "1", key="after-restart")
    assert not twice.ok and twice.msg is not None and twice.msg.key == "home.refuse.show_again"
    for viewer in (None, "zed", *info.users):
        text = await again.hand_history(info.hand_no, viewer)
        assert f'_shown_by_choice = ["p{winner + 1}={hole[0]}"]' in text
        own = set(hand.hole[info.users.index(viewer)]) if viewer in info.users else set()
        # Privacy: the unshown card and the folded hands stay hidden (own cards aside).
        hidden = {c for h_ in hand.hole for c in h_} - {hole[0]} - own
        assert not hidden & _cards(text), viewer
        assert hole[0] in _cards(text)
    told = await again.hand_told(info.hand_no)
    assert [m.key for m in told].count("home.show.shows") == 1
    assert _chips(again) == chips
    h2.check(again)
    await h2.store.close()  # type: ignore[attr-defined]


async def test_R_20_15_the_spectator_copy_never_shows_an_unshown_card() -> None:
    """A folded hand and a hand won uncontested, not shown, are ``??`` in every copy but
    its owner's, with or without a rabbit hunt (which shows only undealt cards)."""
    h = Harness()
    table, info, hand = await _folded_round(h, rabbit_hunt=True)
    assert (await table.rabbit("a", key=h.key())).ok
    dealt = {c for hole in hand.hole for c in hole}
    spectator = await table.hand_history(info.hand_no)
    assert not dealt & _cards(spectator)
    for pos, user in enumerate(info.users):
        mine = await table.hand_history(info.hand_no, user)
        assert not (dealt - set(hand.hole[pos])) & _cards(mine), user


async def test_R_20_13_the_seven_deuce_bounty_is_in_the_hand_history(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _stack(monkeypatch, SEVEN_DEUCE)
    h = Harness()
    table = await h.seated(["a", "b"], seven_deuce_bounty=10)
    assert (await h.deal(table)).ok
    await h.play_passively(table)
    hand_no = table.state.hand_no
    text = await table.hand_history(hand_no)
    assert '_seven_deuce = ["p2>p1=10"]' in text
    assert "_seven_deuce_bounty = 10" in text
    # Read back from the log alone (a fresh service), the same record.
    h2 = Harness(store=h.store)
    assert await h2.service.recover() == []
    assert await h2.service.table("t").hand_history(hand_no) == text
    told = await h2.service.table("t").hand_told(hand_no)
    assert [m.key for m in told].count("home.seven_deuce.won") == 1
    h.check(table)


async def test_R_20_14_snapshot_keeps_the_aftermath() -> None:
    h = Harness()
    table, _, _ = await _folded_round(h, rabbit_hunt=True)
    assert (await table.rabbit("a", key=h.key())).ok
    state = from_payload("t", to_payload(table.state))
    assert state is not None and state.after == table.state.after != {}


async def test_R_20_14_recovery_folds_the_aftermath_into_the_same_digest() -> None:
    """The state rebuilt from the log has the same rabbit hunt and shows: the digest
    (which counts them) is the same."""
    h = Harness()
    table, info, hand = await _folded_round(h, rabbit_hunt=True)
    winner = next(p for p in range(len(info.users)) if not hand.folded[p])
    before = table.digest()
    assert (await table.rabbit("a", key=h.key())).ok
    assert (await table.show_by_choice(info.users[winner], "all", key=h.key())).ok
    assert table.digest() != before
    h2 = Harness(store=h.store)
    assert await h2.service.recover() == []
    again = h2.service.table("t")
    assert again.digest() == table.digest() and again.state.after == table.state.after


async def _open_store_or_memory(where: str, tmp_path: Path) -> Harness:
    if where == "memory":
        return Harness()
    return Harness(store=await open_store(str(tmp_path / "table.sqlite3")))


@pytest.mark.parametrize("where", ["memory", "sqlite"])
async def test_R_20_61_an_old_hands_show_and_rabbit_are_in_its_export(
    where: str, tmp_path: Path
) -> None:
    """R-20.61: hand 1's rabbit hunt and its show by choice stay in hand 1's history
    (PHH and the story) after more hands than the table keeps in memory, read from
    hand 1's own records in the log; a later hand's hunt is not hand 1's. Privacy: no
    rabbit card was dealt, and no unshown card appears (its owner's copy aside)."""
    h = await _open_store_or_memory(where, tmp_path)
    table, info, hand = await _folded_round(h, rabbit_hunt=True)
    chips = _chips(table)
    assert (await table.rabbit("b", key=h.key())).ok
    winner = next(p for p in range(len(info.users)) if not hand.folded[p])
    shown = hand.hole[winner][1]
    assert (await table.show_by_choice(info.users[winner], "2", key=h.key())).ok
    rabbit = tlog.read_rows(await h.store.events("t"), tlog.RabbitHunted)[0].cards
    dealt = {c for hole in hand.hole for c in hole}
    assert not dealt & set(rabbit)
    first = {viewer: await table.hand_history(1, viewer) for viewer in (None, *info.users)}
    for _ in range(aftermath.KEEP + 4):
        assert (await h.deal(table)).ok
        while table.state.hand is not None:
            assert (await h.do(table, h.to_act(table), "fold")).ok
        h.check(table)
    assert (await table.rabbit("a", key=h.key())).ok  # the last hand's own hunt
    last = tlog.read_rows(await h.store.events("t"), tlog.RabbitHunted)[-1]
    assert last.hand_no == table.state.hand_no > aftermath.KEEP + 1
    assert "1" not in table.state.after  # hand 1 is no longer kept in memory
    for viewer in (None, *info.users):
        text = await table.hand_history(1, viewer)
        assert text == first[viewer]
        assert f'_rabbit_hunt = "{"".join(rabbit)}"' in text
        assert f'_shown_by_choice = ["p{winner + 1}={shown}"]' in text
        own = set(hand.hole[info.users.index(viewer)]) if viewer in info.users else set()
        assert not (dealt - {shown} - own) & _cards(text), viewer
        if last.cards != rabbit:
            assert "".join(last.cards) not in text
    told = [m.key for m in await table.hand_told(1)]
    assert told.count("home.show.shows") == 1 and told.count("home.rabbit.cards") == 1
    # A fresh service reads hand 1 from the log alone, the same record.
    h2 = Harness(store=h.store)
    assert await h2.service.recover() == []
    assert await h2.service.table("t").hand_history(1) == first[None]
    assert _chips(table) == chips  # no chip created or lost over the night
    h.check(table)
    if where == "sqlite":
        await h.store.close()  # type: ignore[attr-defined]
