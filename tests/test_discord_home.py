"""The home-game options on Discord, end to end through the real client and the fake
Discord (R-20.1): the run-it-twice question by DM with Yes/No buttons, each answer
seen by its owner only until every answer is in."""

from __future__ import annotations

from bot.poker.events import ActionTaken, BombPotStarted, RunItTwiceDecided, SecondBoardDealt
from tests.fakediscord import FakeDiscord, FakeUser
from tests.fakediscord.state import audience_includes
from tests.test_discord_e2e import CARD, Harness, h, hole_cards, play_out, players

__all__ = ["h"]  # the end-to-end fixture, shared

AGREED = "You said yes to running it twice."
DECLINED = "You said no"


async def _all_in(h: Harness, users: list[FakeUser]) -> None:
    await h.slash(users[0], "table create")
    await h.slash(users[0], "table settings", name="run_it_twice", value="on")
    for u in users:
        await h.slash(u, "sit", buy_in=200)
    await h.slash(users[0], "deal")
    actor = h.to_act()
    assert actor is not None
    await h.click(actor, "all_in")
    for _ in range(6):
        if h.table().snapshot(None).phase != "betting":
            break
        actor = h.to_act()
        assert actor is not None
        await h.click(actor, "check_call")
    assert h.table().snapshot(None).phase == "run_twice"


async def _answer(h: Harness, user: FakeUser, arg: str) -> None:
    fake: FakeDiscord = h.fake
    dm = next(m for m in reversed(fake.dm_messages(user)) if m.custom_ids())
    button = next(c for c in dm.custom_ids() if c.endswith(":" + arg))
    await fake.click(user, dm, button)
    await h.settle()


async def test_r20_10_run_it_twice_answers_by_dm_are_sealed_until_all_are_in(h: Harness) -> None:
    fake = h.fake
    users = players(fake)
    await _all_in(h, users)
    # Every player asked has the question by DM, with its two buttons.
    for u in users:
        dm = next(m for m in reversed(fake.dm_messages(u)) if m.custom_ids())
        assert "twice" in dm.content.lower()
        assert sorted(c.rsplit(":", 1)[1] for c in dm.custom_ids()) == ["once", "twice"]
    mark = len(fake.deliveries)
    await _answer(h, users[0], "twice")
    await _answer(h, users[1], "twice")
    # Before the last answer: each "yes" was seen by its owner alone; no payload anyone
    # else can see holds an answer.
    seen_yes = set()
    for d in fake.deliveries[mark:]:
        if AGREED in d.text():
            owners = {u.id for u in users if audience_includes(d.audience, u.id)}
            assert len(owners) == 1, d
            seen_yes |= owners
        assert DECLINED not in d.text()
    assert seen_yes == {users[0].id, users[1].id}
    assert h.table().state.in_hand and h.table().snapshot(None).phase == "run_twice"
    await _answer(h, users[2], "twice")
    assert not h.table().state.in_hand
    state = h.table().state
    events = state.recent[state.hand_no].events
    decided = [e for e in events if isinstance(e, RunItTwiceDecided)]
    assert len(decided) == 1 and decided[0].twice
    assert any(isinstance(e, SecondBoardDealt) for e in events)
    # The hand's end post tells the agreement, the second run's cards and its awards.
    post = next(m for m in reversed(fake.channel_messages()) if "is over" in m.content)
    said = post.content.lower()
    assert "everyone agreed" in said and "second run, flop:" in said, said
    assert "on the second run" in said, said
    # the showdown picture is drawn with both runs, and its alt text says so.
    alt = " ".join(a.description for a in post.attachments if "showdown" in a.filename)
    assert "First run" in alt and "Second run" in alt, alt
    assert h.table().conservation_error() is None


async def test_R_20_1_no_answer_leaks_to_anyone_before_all_are_in(h: Harness) -> None:
    """R-20.1, R-20.10: one yes and one no, then the last answer. Until the last, every
    payload the bot sent (public posts, edits, each player's DMs and ephemerals) is
    checked: an answer's confirmation reaches its owner alone, no outcome is said, and
    nothing anyone else can see tells an answer (the count only says how many)."""
    fake = h.fake
    users = players(fake)
    await _all_in(h, users)
    mark = len(fake.deliveries)
    await _answer(h, users[0], "twice")
    await _answer(h, users[1], "once")
    before_last = fake.deliveries[mark:]
    assert before_last
    owners_of = {AGREED: {users[0].id}, DECLINED: {users[1].id}}
    for d in before_last:
        text = d.text()
        seen_by = {u.id for u in users if audience_includes(d.audience, u.id)}
        for said, owner in owners_of.items():
            if said in text:
                assert seen_by == owner, d  # his own confirmation, to him alone
        # No outcome before the last answer, to anyone.
        assert "Everyone agreed" not in text and "Not everyone agreed" not in text, d
        if seen_by - {users[0].id, users[1].id}:
            # What the third player (or the channel) can see names no answer.
            assert AGREED not in text and DECLINED not in text, d
            assert "said yes" not in text.lower() and "said no" not in text.lower(), d
    assert any(AGREED in d.text() for d in before_last)
    assert any(DECLINED in d.text() for d in before_last)
    assert h.table().state.in_hand and h.table().snapshot(None).phase == "run_twice"
    await _answer(h, users[2], "twice")
    assert not h.table().state.in_hand
    state = h.table().state
    decided = [e for e in state.recent[state.hand_no].events if isinstance(e, RunItTwiceDecided)]
    assert len(decided) == 1 and not decided[0].twice  # one no: once
    assert h.table().conservation_error() is None


async def test_r20_1_one_no_by_dm_runs_the_board_once(h: Harness) -> None:
    fake = h.fake
    users = players(fake)
    await _all_in(h, users)
    await _answer(h, users[0], "once")
    await _answer(h, users[1], "twice")
    # The answered prompt lost its buttons; an answer is final: a second one,
    # by any way in, is refused and changes nothing.
    assert not any(m.custom_ids() for m in fake.dm_messages(users[0])[-1:])
    again = await h.table().act(str(users[0].id), "run twice yes", key="again")
    assert not again.ok and h.table().state.in_hand
    await _answer(h, users[2], "twice")
    assert not h.table().state.in_hand
    state = h.table().state
    events = state.recent[state.hand_no].events
    assert not any(isinstance(e, SecondBoardDealt) for e in events)
    assert h.table().conservation_error() is None


async def test_r20_12_bomb_pot_proposed_and_passed_by_buttons(h: Harness) -> None:
    fake = h.fake
    users = players(fake)
    await h.start_table(users)
    # "Show my cards" offers the proposal (a board game); the proposal is posted with
    # the vote's buttons; a second yes of three passes it.
    await h.click(users[0], "cards")
    eph = fake.ephemerals(users[0])[-1]
    propose = next(c for c in eph.custom_ids() if c.endswith(":bomb"))
    await fake.click(users[0], eph, propose)
    await h.settle()
    post = next(
        m for m in reversed(fake.channel_messages()) if m.custom_ids() and "💣" in m.content
    )
    assert "proposes a bomb pot" in post.content
    assert not h.table().state.bomb.get("passed")
    no = next(c for c in post.custom_ids() if c.endswith(":bomb_no"))
    await fake.click(users[1], post, next(c for c in post.custom_ids() if c.endswith(":bomb_yes")))
    await h.settle()
    assert h.table().state.bomb.get("passed") is True
    said = " ".join(m.content for m in fake.channel_messages())
    assert "The bomb pot passed" in said or "bomb pot passed" in str(h.table_message().embeds[0])
    # A vote after it passed (a client still showing the buttons, which the post lost,
    # ) is refused privately and changes nothing.
    await fake.click(users[2], post, no, stale=True)
    await h.settle()
    assert "nothing was done" in h.last_ephemeral(users[2])
    assert h.table().state.bomb.get("passed") is True
    await play_out(h)
    await h.slash(users[0], "deal")
    state = h.table().state
    hand = state.hand
    assert hand is not None and any(isinstance(e, BombPotStarted) for e in hand.events)
    assert h.table().conservation_error() is None


async def test_R_20_62_bomb_pot_proposed_between_hands_is_the_next_hand(h: Harness) -> None:
    """R-20.62: with no hand running, ``/cards`` offers the proposal; the vote runs by
    the buttons of its own post, and the next deal is the bomb pot."""
    fake = h.fake
    users = players(fake)
    await h.slash(users[0], "table create")
    for u in users:
        await h.slash(u, "sit", buy_in=200)
    assert not h.table().state.in_hand and h.table().state.hand_no == 0
    chips = sum(s.stack for s in h.table().state.seats.values())
    await h.slash(users[1], "cards")
    eph = fake.ephemerals(users[1])[-1]
    assert "You hold no cards" in eph.content and "propose a bomb pot" in eph.content
    propose = next(c for c in eph.custom_ids() if c.endswith(":bomb"))
    await fake.click(users[1], eph, propose)
    await h.settle()
    post = next(
        m for m in reversed(fake.channel_messages()) if m.custom_ids() and "💣" in m.content
    )
    assert "proposes a bomb pot" in post.content
    await fake.click(users[2], post, next(c for c in post.custom_ids() if c.endswith(":bomb_yes")))
    await h.settle()
    assert h.table().state.bomb.get("passed") is True and not h.table().state.in_hand
    await h.slash(users[0], "deal")
    hand = h.table().state.hand
    assert hand is not None and any(isinstance(e, BombPotStarted) for e in hand.events)
    assert len(hand.board) == 3  # no pre-flop betting: the flop is out
    await play_out(h)
    # The deal spent it: the hand after is a normal one, unless voted again.
    await h.slash(users[0], "deal")
    hand = h.table().state.hand
    assert hand is not None and not any(isinstance(e, BombPotStarted) for e in hand.events)
    assert sum(s.stack for s in h.table().state.seats.values()) == chips
    assert h.table().conservation_error() is None


async def test_R_20_62_a_spectator_between_hands_is_offered_nothing(h: Harness) -> None:
    """R-20.62: not seated: told to sit, no proposal button; nothing changes."""
    fake = h.fake
    users = players(fake)
    await h.slash(users[0], "table create")
    await h.slash(users[0], "sit", buy_in=200)
    await h.slash(users[2], "cards")
    eph = fake.ephemerals(users[2])[-1]
    assert not any(c.endswith(":bomb") for c in eph.custom_ids())
    assert h.table().state.bomb == {}


async def test_R_20_62_the_hands_end_post_offers_the_next_bomb_pot(h: Harness) -> None:
    """R-20.62: after a hand, its end post carries "Bomb pot?": pressed between hands it
    opens the vote, and once passed the next deal is the bomb pot; a second proposal
    while one is passed is refused privately and changes nothing."""
    fake = h.fake
    users = players(fake)
    await h.start_table(users)
    await play_out(h)
    chips = sum(s.stack for s in h.table().state.seats.values())
    end = next(m for m in reversed(fake.channel_messages()) if "is over" in m.content)
    propose = next(c for c in end.custom_ids() if c.endswith(":bomb"))
    await fake.click(users[2], end, propose)
    await h.settle()
    post = next(
        m for m in reversed(fake.channel_messages()) if m.custom_ids() and "💣" in m.content
    )
    await fake.click(users[0], post, next(c for c in post.custom_ids() if c.endswith(":bomb_yes")))
    await h.settle()
    assert h.table().state.bomb.get("passed") is True
    await fake.click(users[1], end, propose)
    await h.settle()
    assert "already" in h.last_ephemeral(users[1]).lower()
    assert h.table().state.bomb.get("passed") is True
    await h.slash(users[0], "deal")
    hand = h.table().state.hand
    assert hand is not None and any(isinstance(e, BombPotStarted) for e in hand.events)
    assert sum(s.stack for s in h.table().state.seats.values()) == chips
    assert h.table().conservation_error() is None


async def test_r20_14_rabbit_hunt_by_button_after_a_hand_ended_early(h: Harness) -> None:
    fake = h.fake
    users = players(fake)
    await h.slash(users[0], "table create")
    await h.slash(users[0], "table settings", name="rabbit_hunt", value="on")
    for u in users:
        await h.slash(u, "sit", buy_in=200)
    await h.slash(users[0], "deal")
    secrets = hole_cards(fake, h.bot, h.tid)
    await h.fold_to_one()
    assert not h.table().state.in_hand
    # The button is on the hand's end message (no message of its own).
    post = next(m for m in reversed(fake.channel_messages()) if "is over" in m.content)
    hunt = next(c for c in post.custom_ids() if c.endswith(":rabbit"))
    await fake.click(users[2], post, hunt)
    await h.settle()
    said = " ".join(m.content for m in fake.channel_messages())
    assert "Rabbit hunt (not played):" in said, said
    shown = set(CARD.findall(said.split("🐇")[-1]))
    assert len(shown) == 5
    dealt = {c for cards in secrets.values() for c in cards}
    assert not shown & dealt  # never a card dealt to anyone
    assert h.table().conservation_error() is None


async def test_r20_15_the_uncontested_winner_shows_one_card_by_button(h: Harness) -> None:
    fake = h.fake
    users = players(fake)
    await h.start_table(users)
    secrets = hole_cards(fake, h.bot, h.tid)
    await h.fold_to_one()
    assert not h.table().state.in_hand
    state = h.table().state
    info = state.recent[state.hand_no]
    folded = {e.player for e in info.events if isinstance(e, ActionTaken) and e.kind == "fold"}
    winner = next(fake.users[int(u)] for p, u in enumerate(info.users) if p not in folded)
    loser = next(u for u in users if u != winner)
    # The buttons are on the hand's end message (no message of its own); one who folded
    # is refused privately and nothing is shown.
    end = next(m for m in reversed(fake.channel_messages()) if "is over" in m.content)
    one = next(c for c in end.custom_ids() if c.endswith(":show_one"))
    await fake.click(loser, end, one)
    await h.settle()
    assert "R-20.8" in h.last_ephemeral(loser)
    assert not any(m.content.startswith("👀") for m in fake.channel_messages())
    await fake.click(winner, end, one)
    await h.settle()
    post = next(m for m in reversed(fake.channel_messages()) if m.content.startswith("👀"))
    shown = set(CARD.findall(post.content))
    assert len(shown) == 1 and shown <= secrets[winner.id]  # one of his own cards
    # The others' cards never reached the channel.
    others = {c for u in users if u != winner for c in secrets[u.id]}
    assert not others & set(CARD.findall(" ".join(m.content for m in fake.channel_messages())))
    assert h.table().conservation_error() is None
