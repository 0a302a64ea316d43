"""Invariant 2 for everything a user can ask for after a hand (issue 12, item 0): a PHH
export (``/export``, the terminal's ``phh``), the terminal's ``history`` and every file
the bot attaches hold only what the table showed. Cards nobody saw are ``??``; a
player's own copy adds his own cards. Through the fake Discord as a spectator and as a
seated opponent after folded, mucked, uncontested and stud hands, and as unit tests of
the one redaction (``bot/poker/redact.py``) and of replaying redacted records."""

from __future__ import annotations

import contextlib
import io
import random
import warnings
from pathlib import Path
from typing import Any

import pytest

from bot.poker.actions import BringIn, Call, Check, Declare, Draw, Fold, GutsCall, RaiseTo
from bot.poker.cards import FULL_DECK, SHORT_DECK, Card
from bot.poker.events import (
    CardsDealt,
    DeclarationCommitted,
    Drew,
    Event,
    GutsCallCommitted,
    HandMucked,
    HandShown,
    OpenersShown,
)
from bot.poker.hand import Hand
from bot.poker.phh import DEALER, export_hand, load, play, replay_file
from bot.poker.redact import HIDDEN
from bot.poker.rules import Limit, Rules
from bot.poker.variants import VARIANTS
from tests.fakediscord import Delivery, FakeUser, audience_includes
from tests.fakediscord.state import attachment_text
from tests.test_discord_e2e import CARD, Harness, players
from tests.test_engine_privacy import random_action, rules_for

# ------------------------------------------------------------------ the truth


def seen_by(events: list[Event], viewer: int | None) -> set[Card]:
    """Every card ``viewer`` (a position, or None for a spectator) saw during the hand,
    computed from the engine's audiences: public events and his own private ones. A hand
    shown at the showdown is seen; nothing else of another player's is."""
    out: set[Card] = set()
    for e in events:
        if e.audience is not None and e.audience != viewer:
            continue
        for attr in ("cards", "discarded", "received"):
            out.update(c for c in _cards(e, attr) if c != HIDDEN)
    return out


def _cards(e: Event, attr: str) -> tuple[Card, ...]:
    value = getattr(e, attr, ())
    return value if isinstance(value, tuple) else ()  # DeckReshuffled.cards is a count


def all_cards(hand: Hand) -> set[Card]:
    return set(hand.deck) | {c for e in hand.events for c in _cards(e, "cards")}


def cards_in(text: str) -> set[Card]:
    """Every card written in ``text``, PHH card runs (``AcKd``) included."""
    return set(CARD.findall(attachment_text(text.encode())))


# ------------------------------------------------------------------ unit tests


def _stacked(top: list[Card], deck: tuple[Card, ...] = FULL_DECK) -> tuple[Card, ...]:
    return (*top, *(c for c in deck if c not in top))


def _holdem(n: int = 3, **kw: Any) -> Rules:
    return Rules(limit=Limit.NO_LIMIT, blinds_or_straddles=(1, 2), **kw)


def _actions(text: str) -> list[str]:
    return [line.strip().strip('",') for line in text.splitlines() if line.startswith('  "')]


def test_invariant2_folded_and_uncontested_hole_cards_are_unknown() -> None:
    """A folded hand and a pot won uncontested (R-12.1: the winner need not show) give
    nobody else a hole card; the requester's own copy has his own."""
    # p1 7c2d, p2 AsAh, p3 KsKh (dealt one card at a time round the table).
    hand = Hand(_holdem(), [100] * 3, _stacked(["7c", "As", "Ks", "2d", "Ah", "Kh"]))
    hand.apply(Fold(2))
    hand.apply(Fold(0))
    assert hand.over
    spectator = export_hand(hand, viewer=None)
    assert "d dh p1 ????" in _actions(spectator)
    assert "d dh p2 ????" in _actions(spectator)
    assert "d dh p3 ????" in _actions(spectator)
    assert not cards_in(spectator)
    own = export_hand(hand, viewer=1)
    assert "d dh p2 AsAh" in _actions(own) and "d dh p1 ????" in _actions(own)
    assert cards_in(own) == {"As", "Ah"}
    # The dealer's book (never given to a user) has everything.
    assert "d dh p3 KsKh" in _actions(export_hand(hand, viewer=DEALER))


def test_invariant2_mucked_hand_stays_unknown_shown_hand_is_written() -> None:
    """R-9.2 automatic showdown: the hand beaten by one already shown is mucked and
    stays unknown; the shown hand is written in its deal line and its sm line."""
    top = ["7c", "As", "Ks", "2d", "Ah", "Kh", "3c", "8d", "9h", "Jd", "4s"]
    hand = Hand(_holdem(), [100] * 3, _stacked(top))
    hand.apply(Call(2))
    hand.apply(Fold(0))
    while not hand.over:
        hand.apply(Check(hand.legal().player))
    assert any(isinstance(e, HandMucked) and e.player == 2 for e in hand.events)
    text = export_hand(hand, viewer=None)
    acts = _actions(text)
    assert "d dh p2 AsAh" in acts and "p2 sm AsAh" in acts
    assert "d dh p3 ????" in acts and "p3 sm" in acts and "d dh p1 ????" in acts
    assert cards_in(text) == {"As", "Ah", "3c", "8d", "9h", "Jd", "4s"}
    # The mucked player's own copy shows him his cards, and only his.
    mine = export_hand(hand, viewer=2)
    assert "d dh p3 KsKh" in _actions(mine) and "d dh p1 ????" in _actions(mine)


def test_invariant2_stud_up_cards_visible_down_cards_hidden() -> None:
    """R-3.5, R-16.3: stud up cards are public, down cards are not, even for the player
    who brought it in, when the pot is won uncontested (R-12.1)."""
    rules = Rules(
        variant="stud", limit=Limit.FIXED, antes=(1,) * 3, bring_in=1, small_bet=2, big_bet=4
    )
    hand = Hand(rules, [100] * 3, FULL_DECK)
    ups = {
        i: [c for c, f in zip(hand.hole[i], hand.face_up[i], strict=True) if f] for i in range(3)
    }
    downs = {
        i: [c for c, f in zip(hand.hole[i], hand.face_up[i], strict=True) if not f]
        for i in range(3)
    }
    while not hand.over:
        legal = hand.legal()
        if hand.bring_in_due:
            hand.apply(BringIn(legal.player))
        else:
            hand.apply(Fold(legal.player) if "fold" in legal.actions else Call(legal.player))
    assert hand.result is not None and hand.result.reason == "uncontested"
    text = export_hand(hand, viewer=None)
    for i in range(3):
        assert set(ups[i]) <= cards_in(text)
        assert not set(downs[i]) & cards_in(text)
        dealt = "".join(a.split()[3] for a in _actions(text) if a.startswith(f"d dh p{i + 1} "))
        assert dealt == f"????{ups[i][0]}"  # third street: two down, one up


def test_invariant2_draws_of_others_are_counts_only() -> None:
    """R-16.4: the table learns how many cards a player drew, never which; his own copy
    names his discards and his new cards."""
    rules = Rules(
        variant="draw5", limit=Limit.FIXED, blinds_or_straddles=(1, 2), small_bet=2, big_bet=4
    )
    hand = Hand(rules, [100, 100], FULL_DECK)
    while hand.phase == "betting":
        legal = hand.legal()
        hand.apply(Check(legal.player) if "check" in legal.actions else Call(legal.player))
    first = hand.to_act
    assert first is not None
    thrown = tuple(hand.hole[first][:2])
    hand.apply(Draw(first, thrown))
    other = hand.to_act
    assert other is not None
    hand.apply(Draw(other, tuple(hand.hole[other][:3])))
    while not hand.over:
        legal = hand.legal()
        hand.apply(Fold(legal.player))
    spectator = _actions(export_hand(hand, viewer=None))
    assert f"p{first + 1} sd ????" in spectator and f"p{other + 1} sd ??????" in spectator
    assert not cards_in(export_hand(hand, viewer=None))
    own = export_hand(hand, viewer=first)
    assert f"p{first + 1} sd {''.join(thrown)}" in _actions(own)
    assert f"p{other + 1} sd ??????" in _actions(own)


def test_r13_2_declarations_only_as_revealed() -> None:
    """R-13.2: a closed fist is private until every fist opens; a record written before
    the reveal names only the viewer's own choice."""
    rules = Rules(
        variant="omaha8", limit=Limit.POT_LIMIT, blinds_or_straddles=(1, 2), declare="simultaneous"
    )
    hand = Hand(rules, [100] * 3, FULL_DECK)
    while hand.phase != "declare":
        legal = hand.legal()
        hand.apply(Check(legal.player) if "check" in legal.actions else Call(legal.player))
    hand.apply(Declare(0, "low"))
    hand.apply(Declare(1, "both"))
    assert any(isinstance(e, DeclarationCommitted) for e in hand.events)
    assert "_declarations" not in export_hand(hand, viewer=None)
    assert "_declarations" not in export_hand(hand, viewer=2)
    assert '_declarations = ["p1=low"]' in export_hand(hand, viewer=0)
    hand.apply(Declare(2, "high"))
    assert hand.over
    assert '_declarations = ["p1=low", "p2=both", "p3=high"]' in export_hand(hand, viewer=None)


def test_r15_2_guts_calls_only_as_revealed() -> None:
    """R-15.2: an in/out call is private until the calls are opened together."""
    rules = Rules(variant="guts", blinds_or_straddles=(), pot_system="guts", guts_stake=3)
    hand = Hand(rules, [100] * 3, FULL_DECK, player_ids=("a", "b", "c"))
    assert hand.phase == "guts"
    first = hand.guts_pending()[0]
    hand.apply(GutsCall(first, True))
    assert any(isinstance(e, GutsCallCommitted) for e in hand.events) and hand.phase == "guts"
    assert "_guts_calls" not in export_hand(hand, viewer=None)
    other = next(p for p in range(3) if p != first)
    assert "_guts_calls" not in export_hand(hand, viewer=other)
    assert f'_guts_calls = ["p{first + 1}=in"]' in export_hand(hand, viewer=first)


def test_r12_2_openers_shown_are_in_the_record() -> None:
    """R-12.2: the opener shows his openers even when nobody calls; the record keeps
    exactly those cards (``_openers_shown``) and no other card of his."""
    rules = Rules(
        variant="draw5",
        limit=Limit.FIXED,
        antes=(1, 1, 1),
        blinds_or_straddles=(),
        small_bet=2,
        big_bet=4,
        jacks_to_open=True,
    )
    # p1 Jc Jd 2h 5s 9c: openers; the others nothing to open with.
    deck = _stacked(
        ["Jc", "3d", "4h", "Jd", "6c", "8s", "2h", "Td", "Qc", "5s", "7d", "9h", "9c", "Ks", "3s"]
    )
    hand = Hand(rules, [50] * 3, deck)
    seen = 0
    while not hand.over and seen < 40:
        seen += 1
        legal = hand.legal()
        if legal.player == 0 and legal.min_to is not None and hand.opener is None:
            hand.apply(RaiseTo(0, legal.min_to))
        elif "check" in legal.actions and hand.opener is None:
            hand.apply(Check(legal.player))
        else:
            hand.apply(Fold(legal.player))
    assert any(isinstance(e, OpenersShown) for e in hand.events)
    text = export_hand(hand, viewer=None)
    assert '_openers_shown = ["p1=JcJd"]' in text
    assert cards_in(text) == {"Jc", "Jd"}


@pytest.mark.parametrize("code", sorted(VARIANTS))
def test_invariant2_every_export_holds_only_what_its_viewer_saw(code: str) -> None:
    """Random hands of every game: the spectator's copy and each player's copy hold no
    card outside what that viewer saw (the deck and burn cards included), and every card
    a deal or draw gave someone else unseen is written ``??`` (R-9.2 mucks, R-12.1
    uncontested pots, R-16.4 draws)."""
    rng = random.Random(f"export-privacy-{code}")
    for _ in range(25):
        n = rng.randint(2, min(6, VARIANTS[code].max_players))
        stacks = [rng.choice([5, 30, 200]) for _ in range(n)]
        deck = list(SHORT_DECK if VARIANTS[code].deck == "short" else FULL_DECK)
        rng.shuffle(deck)
        hand = Hand(rules_for(code, n), stacks, tuple(deck), player_ids=[str(i) for i in range(n)])
        while not hand.over:
            hand.apply(random_action(hand, rng))
        everything = all_cards(hand)
        for viewer in (None, *range(n)):
            text = export_hand(hand, [f"pl{i}" for i in range(n)], viewer=viewer)
            shown = cards_in(text) & everything
            assert shown <= seen_by(hand.events, viewer), (
                viewer,
                shown - seen_by(hand.events, viewer),
            )
            dealt = sum(
                len(e.cards)
                for e in hand.events
                if isinstance(e, CardsDealt) and e.audience is not None
            ) + sum(
                len(e.received)
                for e in hand.events
                if isinstance(e, Drew) and e.audience is not None
            )
            written = sum(len(a.split()[3]) // 2 for a in _actions(text) if a.startswith("d dh "))
            assert written == dealt  # every card dealt has its place, known or ??


def _face_down_after_exposure(hand: Hand) -> bool:
    """A card dealt face down to a player after his hand was exposed for an all-in
    run-out: the table never saw it, yet it played (issue 12 item 5b, R-4.8/R-12.4, is
    that the run-out is dealt face up; until then no record can replay such a hand)."""
    exposed: set[int] = set()
    for e in hand.events:
        if isinstance(e, HandShown):
            exposed.add(e.player)
        elif (
            isinstance(e, CardsDealt)
            and e.audience is not None
            and e.player in exposed
            and not all(e.face_up)
        ):
            return True
    return False


@pytest.mark.parametrize("code", sorted(VARIANTS))
def test_redacted_exports_replay_to_the_same_stacks(code: str, tmp_path: Path) -> None:
    """A redacted export is still a playable record: its ?? cards are filled so that
    every shown hand (R-9.1, R-12.4), opener (R-12.2) and discard count (R-16.4) is what
    the table saw, and the replay ends with the recorded stacks (docs/phh.md)."""
    rng = random.Random(f"redacted-replay-{code}")
    unreplayable = 0
    for k in range(20):
        n = rng.randint(2, min(6, VARIANTS[code].max_players))
        stacks = [rng.choice([5, 30, 200]) for _ in range(n)]
        deck = list(SHORT_DECK if VARIANTS[code].deck == "short" else FULL_DECK)
        rng.shuffle(deck)
        hand = Hand(rules_for(code, n), stacks, tuple(deck), player_ids=[str(i) for i in range(n)])
        while not hand.over:
            hand.apply(random_action(hand, rng))
        for viewer in (None, *range(n)):
            path = tmp_path / f"{code}-{k}-{viewer}.phh"
            path.write_text(export_hand(hand, viewer=viewer), encoding="utf-8")
            result = replay_file(path)
            assert result["ok"], (path.read_text(), result["error"])
            if result["finishing_stacks"] != list(hand.stacks):
                assert _face_down_after_exposure(hand), path.read_text()
                unreplayable += 1
            else:
                assert result["match"] is True
    if VARIANTS[code].streets[0].board == 0 and not any(s.draw for s in VARIANTS[code].streets):
        return  # stud games may hit the item-5b hands above
    assert unreplayable == 0


SYSTEMS: dict[str, Rules] = {
    "declare": Rules(
        variant="omaha8", limit=Limit.POT_LIMIT, blinds_or_straddles=(1, 2), declare="simultaneous"
    ),
    "declare_in_turn": Rules(
        variant="omaha8", limit=Limit.POT_LIMIT, blinds_or_straddles=(1, 2), declare="in_turn"
    ),
    "declare_stud8": Rules(
        variant="stud8",
        limit=Limit.FIXED,
        antes=(1,) * 4,
        bring_in=1,
        small_bet=2,
        big_bet=4,
        declare="simultaneous",
    ),
    "two_to_win": Rules(limit=Limit.FIXED, blinds_or_straddles=(1, 2), pot_system="two_to_win"),
    "guts": Rules(
        variant="guts", blinds_or_straddles=(), pot_system="guts", guts_stake=5, guts_max_pot=60
    ),
    "guts_sequential": Rules(
        variant="guts",
        blinds_or_straddles=(),
        pot_system="guts",
        guts_stake=5,
        guts_max_pot=60,
        guts_mode="sequential",
    ),
}


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_r13_r15_home_game_exports_are_private_and_replay(system: str, tmp_path: Path) -> None:
    """Hi-lo declare (§13), two to win and Guts (§15) across consecutive deals: every
    viewer's copy holds only what he saw, and replays to the same stacks (carried pots,
    markers, legs and reserve included)."""
    rng = random.Random(f"export-systems-{system}")
    ids = ("ann", "bob", "cat", "dan")
    stacks, state, carried = [400] * 4, None, 0
    for k in range(30):
        deck = list(FULL_DECK)
        rng.shuffle(deck)
        rules = SYSTEMS[system]
        hand = Hand(rules, stacks, tuple(deck), carried=carried, player_ids=ids, pot_state=state)
        while not hand.over:
            hand.apply(random_action(hand, rng))
        for viewer in (None, 0, 1, 2, 3):
            text = export_hand(hand, list(ids), viewer=viewer)
            assert cards_in(text) & all_cards(hand) <= seen_by(hand.events, viewer)
            path = tmp_path / f"{k}-{viewer}.phh"
            path.write_text(text, encoding="utf-8")
            result = replay_file(path)
            assert result["ok"], (text, result["error"])
            assert result["finishing_stacks"] == list(hand.stacks), text
        state = hand.pot_state_out
        carried = hand.middle if state is None else 0
        stacks = list(hand.stacks)
        if min(stacks) == 0:
            break


# ------------------------------------------------------------------ pokerkit (item 19)


def test_r4_8_pokerkit_no_op_check_is_accepted_on_import(tmp_path: Path) -> None:
    """R-4.8: with the small blind all in for the big blind (the button folded), the big
    blind has no decision; pokerkit still records his option as ``p2 cc`` (D-7). The file
    pokerkit writes replays, that check a no-op, to pokerkit's own finishing stacks."""
    from pokerkit import Automation, HandHistory, NoLimitTexasHoldem

    auto = (
        Automation.ANTE_POSTING,
        Automation.BET_COLLECTION,
        Automation.BLIND_OR_STRADDLE_POSTING,
        Automation.CARD_BURNING,
        Automation.HAND_KILLING,
        Automation.CHIPS_PUSHING,
        Automation.CHIPS_PULLING,
    )
    game = NoLimitTexasHoldem(auto, True, 0, (1, 2), 2)
    state = game((2, 100, 100), 3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pokerkit frowns on cards it would have burned
        for cards in ("AcAd", "KcKd", "QcQd"):
            state.deal_hole(cards)
        state.fold()  # p3, the button
        state.check_or_call()  # p1, all in for the big blind
        assert state.actor_index == 1 and state.checking_or_calling_amount == 0  # D-7
        state.check_or_call()
        for board in ("", "2c3d4h", "5s", "9h"):
            if board:
                state.deal_board(board)
            while state.can_show_or_muck_hole_cards():
                state.show_or_muck_hole_cards(True)
    assert not state.status
    path = tmp_path / "pokerkit.phh"
    path.write_text(HandHistory.from_game_state(game, state).dumps(), encoding="utf-8")
    assert "p2 cc" in path.read_text().split("p1 cc", 1)[1]
    result = replay_file(path)
    assert result["ok"], result["error"]
    assert result["finishing_stacks"] == list(state.stacks) == [4, 98, 100]


def test_r4_8_a_real_check_is_still_applied(tmp_path: Path) -> None:
    """The no-op is accepted only where R-4.8 leaves nothing to decide: the big blind's
    check with an opponent who still has chips is his option and is applied, and a check
    out of turn is still refused."""
    head = (
        'variant = "NT"\nantes = [0, 0, 0]\nblinds_or_straddles = [1, 2, 0]\nmin_bet = 2\n'
        "starting_stacks = [100, 100, 100]\n"
    )
    deal = '"d dh p1 AcAd", "d dh p2 KcKd", "d dh p3 QcQd"'
    real = tmp_path / "real.phh"
    real.write_text(
        head + f'actions = [{deal}, "p3 f", "p1 cc", "p2 cbr 10", "p1 f"]\n', encoding="utf-8"
    )
    option = tmp_path / "option.phh"
    option.write_text(
        head
        + f'actions = [{deal}, "p3 f", "p1 cc", "p2 cc", "d db 2c3d4h", "p1 cc", "p2 cc",'
        + ' "d db 5s", "p1 cc", "p2 cc", "d db 9h", "p1 cc", "p2 cc", "p1 sm AcAd",'
        + ' "p2 sm KcKd"]\n',
        encoding="utf-8",
    )
    early = tmp_path / "early.phh"
    early.write_text(head + f'actions = [{deal}, "p3 f", "p2 cc"]\n', encoding="utf-8")
    assert replay_file(real)["finishing_stacks"] == [98, 102, 100]
    assert replay_file(option)["finishing_stacks"] == [102, 98, 100]
    refused = replay_file(early)
    assert not refused["ok"] and "turn" in refused["error"].lower(), refused


# ------------------------------------------------------------------ the fake's guard


def test_leak_guard_reads_files_and_alt_text() -> None:
    """The fake Discord's deliveries expose every attachment to the leak checks: a PHH
    file's cards (written without spaces), an image's alt text (the upload's description)
    and text chunks inside a PNG."""
    from PIL import Image, PngImagePlugin

    phh = Delivery("private:1", {"content": "Hand #1"}, [("hand-1.phh", b'["d dh p2 AsKd"]')])
    assert {"As", "Kd"} <= set(CARD.findall(phh.text()))
    meta = PngImagePlugin.PngInfo()
    meta.add_text("Description", "bob holds Qh Qs")
    buf = io.BytesIO()
    Image.new("RGB", (2, 2)).save(buf, "PNG", pnginfo=meta)
    png = Delivery(
        "public",
        {"attachments": [{"id": 0, "filename": "t.png", "description": "alice: 7c 2d"}]},
        [("t.png", buf.getvalue())],
    )
    assert {"7c", "2d", "Qh", "Qs"} <= set(CARD.findall(png.text()))


# ------------------------------------------------------------------ through Discord


def _secret_for(hand: Hand, viewer: int | None) -> set[Card]:
    """Cards of this hand the viewer never saw: the deck, burn cards, everyone else's
    unshown cards."""
    return all_cards(hand) - seen_by(hand.events, viewer)


async def _export(h: Harness, user: FakeUser, hand_no: int) -> tuple[Delivery, str]:
    mark = len(h.fake.deliveries)
    await h.slash(user, "export", hand=hand_no)

    def replies() -> list[Delivery]:
        return [
            d
            for d in h.fake.deliveries[mark:]
            if d.attachments and audience_includes(d.audience, user.id)
        ]

    # The export is deferred, then sent as a follow-up once the record is read: on a
    # loaded machine that can come after the fake falls idle, so wait for it.
    with contextlib.suppress(TimeoutError):
        await h.fake.wait_for(replies, timeout=10.0)
    await h.settle()
    mine = replies()
    assert len(mine) == 1, h.fake.deliveries[mark:]
    d = mine[0]
    assert d.audience == f"private:{user.id}"  # the copy goes to the requester alone
    name, blob = d.attachments[0]
    assert name == f"hand-{hand_no}.phh"
    return d, blob.decode()


async def _check_exports(
    h: Harness, hand_no: int, users: list[FakeUser], tmp: Path, truth: Any = None
) -> None:
    """Every seated player and a spectator export the hand: nobody's copy holds a card he
    did not see; each player's copy holds his own cards; each copy replays."""
    table = h.table()
    info = truth or table.state.recent[hand_no]
    hand = info.ensure_hand()
    spectator = h.fake.user("dave")
    for user in [spectator, *users]:
        uid = str(user.id)
        position = info.users.index(uid) if uid in info.users else None
        d, text = await _export(h, user, hand_no)
        found = set(CARD.findall(d.text()))
        leaked = found & _secret_for(hand, position)
        assert not leaked, f"{user.name}'s export of hand {hand_no} shows {leaked}: {text}"
        if position is not None:
            own = {c for c in hand.hole[position]} | {
                c
                for e in hand.events
                if e.audience == position
                for c in getattr(e, "cards", ()) or ()
            }
            assert own <= found, (user.name, own - found)
        path = tmp / f"{hand_no}-{user.name}.phh"
        path.write_text(text, encoding="utf-8")
        replayed = play(load(path))
        assert list(replayed.stacks) == list(hand.stacks)


async def _play(h: Harness, decide: Any) -> None:
    for _ in range(80):
        table = h.table()
        if not table.state.in_hand:
            return
        actor = h.to_act()
        assert actor is not None
        info = table.state.current
        await h.click(actor, decide(info.users.index(str(actor.id)), table.state.hand))
    raise AssertionError("the hand did not end")


@pytest.fixture
def stacked_holdem(monkeypatch: pytest.MonkeyPatch) -> None:
    """p1 7c2d, p2 AsAh, p3 KsKh, board 3c 8d 9h Jd 4s, every hand."""
    import bot.table.table as table_module

    top = ["7c", "As", "Ks", "2d", "Ah", "Kh", "3c", "8d", "9h", "Jd", "4s"]

    def stacked(rules: Any, stacks: Any, deck: Any = None, **kw: Any) -> Hand:
        return Hand(rules, stacks, _stacked(top), **kw)

    monkeypatch.setattr(table_module, "Hand", stacked)


async def test_invariant2_export_after_folded_mucked_uncontested_hands(
    h: Harness, stacked_holdem: None, tmp_path: Path
) -> None:
    """/export as a spectator and as each seated player: hand 1 is won uncontested
    (everyone folds to the big blind, R-12.1); in hand 2 the small blind folds, the big
    blind's aces are shown and the button's kings are mucked (R-9.2)."""
    users = players(h.fake)
    await h.start_table(users)
    await _play(h, lambda pos, hand: "fold")
    hand1 = h.table().state.recent[1].ensure_hand()
    assert hand1.result is not None and hand1.result.reason == "uncontested"
    await h.slash(users[0], "deal")
    await _play(h, lambda pos, hand: "fold" if pos == 0 else "check_call")
    hand2 = h.table().state.recent[2].ensure_hand()
    assert any(isinstance(e, HandMucked) and e.player == 2 for e in hand2.events)
    assert any(isinstance(e, HandShown) and e.player == 1 for e in hand2.events)
    await _check_exports(h, 1, users, tmp_path)
    await _check_exports(h, 2, users, tmp_path)
    # The shown aces are in everyone's copy; the mucked kings only in their owner's.
    _, text = await _export(h, h.fake.user("dave"), 2)
    assert "d dh p2 AsAh" in text and "d dh p3 ????" in text and "d dh p1 ????" in text
    # A hand that does not exist: a plain answer, to the requester only, and no file.
    mark = len(h.fake.deliveries)
    await h.slash(users[1], "export", hand=99)
    answer = [d for d in h.fake.deliveries[mark:] if d.audience == f"private:{users[1].id}"]
    assert answer and "no finished hand #99" in answer[-1].text()
    assert not any(d.attachments for d in h.fake.deliveries[mark:])
    # A hand no longer kept in memory is read back from the log: the same copies.
    truth = h.table().state.recent[1]
    h.table().state.recent.clear()
    await _check_exports(h, 1, users, tmp_path, truth)


async def test_invariant2_export_after_stud_hands(h: Harness, tmp_path: Path) -> None:
    """Stud (R-16.3): up cards are in every copy, down cards only in their owner's unless shown
    at the showdown; one hand where a player folds on third street and two go to the
    showdown, one won uncontested."""
    users = players(h.fake)
    await h.start_table(users, variant="stud", structure="fixed", small_bet=2, big_bet=4, ante=1)
    first = {"done": False}

    def fold_once(pos: int, hand: Hand) -> str:
        if not first["done"] and hand.legal().to_call > 0 and not hand.bring_in_due:
            first["done"] = True
            return "fold"
        return "check_call"

    await _play(h, fold_once)
    await h.slash(users[0], "deal")
    await _play(h, lambda pos, hand: "check_call" if hand.bring_in_due else "fold")
    hands = [h.table().state.recent[k].ensure_hand() for k in (1, 2)]
    assert any(isinstance(e, HandShown) for e in hands[0].events)
    assert hands[1].result is not None and hands[1].result.reason == "uncontested"
    for k in (1, 2):
        await _check_exports(h, k, users, tmp_path)
        _, text = await _export(h, h.fake.user("dave"), k)
        hand = hands[k - 1]
        ups = {
            c
            for e in hand.events
            if isinstance(e, CardsDealt) and e.audience is None
            for c in e.cards
        }
        assert ups and ups <= cards_in(text)


# ------------------------------------------------------------------ the terminal


async def test_invariant2_terminal_phh_is_the_spectators_copy(tmp_path: Path) -> None:
    """At the terminal (one shared screen), `phh N` prints what the table showed: after
    a hand won uncontested (R-12.1) every hole card is ????."""
    from bot.local.terminal import run

    async def script(lines: list[str], *names: str) -> str:
        out = io.StringIO()
        inp = io.StringIO("\n".join(lines) + "\n")
        assert await run(["--db", str(tmp_path / "t.sqlite3"), *names], inp=inp, out=out) == 0
        return out.getvalue()

    await script(["deal"], "a", "b", "c")
    # Folds in any order until the hand is over (whoever is not to act is refused).
    await script([f"{p}: fold" for p in "abcabc"])
    text = await script(["phh 1"])
    acts = _actions(text)
    assert sum(a.startswith("d dh p") and a.endswith("????") for a in acts) == 3, text
    assert not cards_in(text.split("actions = [", 1)[1].split("]", 1)[0])


def test_phh_bad_player_tokens_are_refused_by_name(tmp_path: Path) -> None:
    """A record naming player p0 (or no number) is refused with the token named, not
    read as the board or as a crash."""
    head = (
        'variant = "NT"\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n'
        "starting_stacks = [100, 100]\n"
    )
    deal = '"d dh p1 AcAd", "d dh p2 KcKd"'
    for bad in ('"d dh p0 AcAd"', f'{deal}, "px f"', f'{deal}, "p0 sd ??"'):
        path = tmp_path / "bad.phh"
        path.write_text(head + f"actions = [{bad}]\n", encoding="utf-8")
        result = replay_file(path)
        assert not result["ok"] and "is not a player" in result["error"], result
