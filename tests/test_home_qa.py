"""Found by playing a home-game night as players would (at the terminal and through the
fake Discord): each test is a step a player took that went wrong, named after the rule
it holds the table to. Every one checks R-2.5 where chips could move."""

from __future__ import annotations

import io
import re
from pathlib import Path

from bot.local.terminal import TABLE_ID, run
from bot.poker.events import ActionTaken
from bot.table.ports import open_store
from bot.table.recovery import ledger_error, load
from bot.table.table import Table
from bot.words import render
from tests.fakediscord.state import FakeMessage
from tests.harness import HOST, Harness
from tests.said import keys_in
from tests.test_discord_e2e import CARD, h, hole_cards, play_out, players
from tests.test_discord_e2e import Harness as DiscordHarness

__all__ = ["h"]  # the end-to-end fixture, shared


async def ok(h: Harness, table: Table) -> None:
    """R-2.5 in memory and in the ledger."""
    assert table.conservation_error() is None
    assert await ledger_error(h.store, table.state) is None


async def test_r20_70_a_kicked_player_cannot_act_when_his_turn_comes() -> None:
    """Kicked out of turn, the player typed "raise to 50" the moment his turn came, before
    the clock's tick: the raise was taken. His turn is the clock's: only a fold of his own
    is taken, anything else is refused and changes nothing."""
    h = Harness()
    table = await h.seated(["alice", "bob", "carol"], action_clock=30, time_bank=0)
    assert (await h.deal(table)).ok
    info = table.state.current
    assert info is not None
    first = h.to_act(table)
    victim = next(u for u in info.users if u != first)
    assert (await table.host_tool(HOST, "kick", victim, key=h.key())).ok
    while h.to_act(table) != victim:
        hand = table.state.hand
        assert hand is not None
        word = "check" if "check" in hand.legal().actions else "call"
        assert (await h.do(table, h.to_act(table), word)).ok
    turn = table.state.turn
    stacks = {s.user_id: s.stack for s in table.state.seats.values()}
    out = await h.do(table, victim, "raise to 50")
    assert not out.ok
    assert "host.kicked.no_action" in keys_in(out.msg)
    assert table.state.turn == turn, "nothing changed"
    assert {s.user_id: s.stack for s in table.state.seats.values()} == stacks
    # His own fold is what the clock would do: taken.
    assert (await h.do(table, victim, "fold")).ok
    hand = table.state.current.ensure_hand() if table.state.current else None
    pos = info.users.index(victim)
    assert hand is None or hand.folded[pos]
    await h.play_passively(table)
    assert table.state.seat_of(victim) is None
    await ok(h, table)


async def _terminal(db: Path, lines: list[str], *args: str) -> str:
    out = io.StringIO()
    code = await run(["--db", str(db), *args], inp=io.StringIO("\n".join(lines) + "\n"), out=out)
    assert code == 0
    return out.getvalue()


async def test_r20_72_a_host_command_under_a_players_name_says_how_to_type_it(
    tmp_path: Path,
) -> None:
    """A player typed "alice: kick bob" and was told the actions he may take in a hand.
    At the terminal the host's commands are typed with no name in front: he is told so,
    with the very line to type, and nothing changes."""
    db = tmp_path / "q.sqlite3"
    lines = ["alice: kick bob", "bob: adjust alice +50 gift", "alice: seat bob 5", "table"]
    text = await _terminal(db, lines, "alice", "bob", "--buy-in", "100")
    assert "alice: `kick bob` is a table command: type it alone, without a name." in text
    assert "bob: `adjust alice +50 gift` is a table command" in text
    assert "alice: `seat bob 5` is a table command" in text
    assert "I did not understand" not in text
    store = await open_store(str(db))
    try:
        state = await load(store, TABLE_ID)
        bob = state.seat_of("bob")
        assert bob is not None and bob.number == 2
        assert [s.stack for s in state.seats.values()] == [100, 100]
        assert not state.hosting.cohosts and state.conservation_error() is None
    finally:
        await store.close()


async def test_r20_72_a_player_joins_the_waiting_list_under_his_own_name(
    tmp_path: Path,
) -> None:
    """ "carol: wait" at a full table was answered "`wait` is a table command: type it
    alone", and "wait" alone is not a command. A player asks for the list himself."""
    db = tmp_path / "w.sqlite3"
    lines = ["set seats=2", "carol: wait", "dave: wait", "carol: wait off", "dave: wait now"]
    text = await _terminal(db, lines, "alice", "bob", "--buy-in", "100")
    assert "carol joined the waiting list (number 1)." in text
    assert "dave joined the waiting list (number 2)." in text
    assert "carol left the waiting list." in text
    assert "is a table command" not in text
    assert text.count("Host commands: kick NAME") == 1  # "dave: wait now" does not read
    store = await open_store(str(db))
    try:
        state = await load(store, TABLE_ID)
        assert [u for u, _ in state.hosting.waiting] == ["dave"]
    finally:
        await store.close()


def _vote_post(h: DiscordHarness) -> FakeMessage:
    return next(
        m for m in reversed(h.fake.channel_messages()) if m.custom_ids() and "💣" in m.content
    )


async def test_r20_71_a_vote_button_of_a_spent_proposal_votes_on_no_other(
    h: DiscordHarness,
) -> None:
    """An old proposal's Yes, pressed (from a client still showing it) while another
    proposal was open, counted as a yes on the new one and passed it. A vote button
    votes on its own proposal only: on another it is refused privately, nothing changes."""
    fake = h.fake
    users = players(fake)
    await h.slash(users[0], "table create")
    for u in users:
        await h.slash(u, "sit", buy_in=200)
    chips = sum(s.stack for s in h.table().state.seats.values())
    await h.slash(users[1], "cards")
    eph = fake.ephemerals(users[1])[-1]
    await fake.click(users[1], eph, next(c for c in eph.custom_ids() if c.endswith(":bomb")))
    await h.settle()
    old = _vote_post(h)
    yes = next(c for c in old.custom_ids() if c.endswith(":bomb_yes"))
    await fake.click(users[2], old, yes)
    await h.settle()
    assert h.table().state.bomb.get("passed") is True
    await h.slash(users[0], "deal")  # the bomb pot: it spends the proposal
    await play_out(h)
    assert h.table().state.bomb == {}
    # A new proposal for the next deal, then the old post's Yes.
    await h.slash(users[1], "cards")
    eph = fake.ephemerals(users[1])[-1]
    await fake.click(users[1], eph, next(c for c in eph.custom_ids() if c.endswith(":bomb")))
    await h.settle()
    assert _vote_post(h).id != old.id
    vote = dict(h.table().state.bomb["vote"])
    await fake.click(users[0], old, yes, stale=True)
    await h.settle()
    # Refused privately: the post lost its buttons when its vote closed, so
    # the click is an older message's; the table would refuse it too (home.vote.stale).
    assert "nothing was done" in h.last_ephemeral(users[0]), h.last_ephemeral(users[0])
    assert h.table().state.bomb.get("vote") == vote and not h.table().state.bomb.get("passed")
    # The new post's own Yes counts.
    new = _vote_post(h)
    await fake.click(users[0], new, next(c for c in new.custom_ids() if c.endswith(":bomb_yes")))
    await h.settle()
    assert h.table().state.bomb.get("passed") is True
    assert sum(s.stack for s in h.table().state.seats.values()) == chips
    assert h.table().conservation_error() is None


async def test_r20_71_an_old_hand_end_posts_buttons_act_on_no_later_hand(
    h: DiscordHarness,
) -> None:
    """ "Show my hand" and the rabbit hunt pressed on hand #1's end post after hand #2
    ended showed hand #2's cards and hunted hand #2's board. An end post's buttons are
    its hand's: on another they are refused privately and nothing is shown."""
    fake = h.fake
    users = players(fake)
    await h.slash(users[0], "table create")
    await h.slash(users[0], "table settings", name="rabbit_hunt", value="on")
    for u in users:
        await h.slash(u, "sit", buy_in=200)
    await h.slash(users[0], "deal")
    await h.fold_to_one()
    first = next(m for m in reversed(fake.channel_messages()) if "#1 is over" in m.content)
    await h.slash(users[0], "deal")
    secrets = hole_cards(fake, h.bot, h.tid)
    await h.fold_to_one()
    state = h.table().state
    assert state.hand_no == 2 and not state.in_hand
    info = state.recent[2]
    winner = next(
        fake.users[int(u)]
        for p, u in enumerate(info.users)
        if not any(
            isinstance(e, ActionTaken) and e.kind == "fold" and e.player == p for e in info.events
        )
    )
    shown_before = len([m for m in fake.channel_messages() if m.content.startswith(("👀", "🐇"))])
    for arg in ("show_all", "show_one", "rabbit"):
        cid = next(c for c in first.custom_ids() if c.endswith(":" + arg))
        await fake.click(winner, first, cid, stale=True)
        await h.settle()
        assert "hand #1" in h.last_ephemeral(winner).lower(), h.last_ephemeral(winner)
    posts = [m for m in fake.channel_messages() if m.content.startswith(("👀", "🐇"))]
    assert len(posts) == shown_before, [m.content for m in posts]
    said = " ".join(m.content for m in fake.channel_messages())
    assert not set(CARD.findall(said)) & secrets[winner.id]
    # Hand #2's own end post shows hand #2.
    second = next(m for m in reversed(fake.channel_messages()) if "#2 is over" in m.content)
    cid = next(c for c in second.custom_ids() if c.endswith(":show_one"))
    await fake.click(winner, second, cid)
    await h.settle()
    post = next(m for m in reversed(fake.channel_messages()) if m.content.startswith("👀"))
    assert set(CARD.findall(post.content)) <= secrets[winner.id]
    assert h.table().conservation_error() is None


async def test_r20_73_a_bomb_pot_vote_that_did_not_pass_is_said_at_the_deal() -> None:
    """Two yes of four (three needed): the next hand was dealt as usual and nobody was
    told why the bomb pot they voted on did not come. The deal says the vote lapsed."""
    h = Harness()
    table = await h.seated(["alice", "bob", "carol", "dave"])
    assert (await table.bomb_vote("alice", None, key=h.key())).ok
    assert (await table.bomb_vote("bob", True, key=h.key())).ok
    mark = len(h.presenter.public_notices)
    assert (await h.deal(table)).ok
    said = [n.msg for _, n in h.presenter.public_notices[mark:] if n.msg is not None]
    keys = [m.key for m in said]
    assert "home.vote.lapsed" in keys
    assert keys.index("home.vote.lapsed") < keys.index("table.hand_started")
    assert "home.bomb.started" not in keys and table.state.bomb == {}
    await h.play_passively(table)
    # A passed one is the bomb pot and says nothing of a lapse.
    assert (await table.bomb_vote("carol", None, key=h.key())).ok
    for user in ("alice", "bob"):
        assert (await table.bomb_vote(user, True, key=h.key())).ok
    mark = len(h.presenter.public_notices)
    assert (await h.deal(table)).ok
    keys = [n.msg.key for _, n in h.presenter.public_notices[mark:] if n.msg is not None]
    assert "home.vote.lapsed" not in keys
    await h.play_passively(table)
    await ok(h, table)


async def test_r20_73_a_player_sitting_out_is_told_he_may_not_propose() -> None:
    """Sitting out, a player proposing a bomb pot was told that only the players in the
    game when it was proposed vote on it: he was proposing, not voting."""
    h = Harness()
    table = await h.seated(["alice", "bob", "carol"])
    assert (await table.sit_out("carol", key=h.key())).ok
    out = await table.bomb_vote("carol", None, key=h.key())
    assert not out.ok and out.msg is not None and out.msg.key == "home.vote.not_in_game"
    assert table.state.bomb == {}
    assert (await table.sit_out("bob", key=h.key())).ok
    out = await table.bomb_vote("alice", None, key=h.key())
    assert not out.ok and out.msg is not None and out.msg.key == "home.vote.too_few"
    assert table.state.bomb == {}


async def test_r20_70_a_kicked_player_already_folded_hears_the_usual_refusal() -> None:
    """Kicked on his turn he is folded at once; a later line of his was answered "you
    may fold now", which he had. He gets the refusal anyone folded gets."""
    h = Harness()
    table = await h.seated(["alice", "bob", "carol"])
    assert (await h.deal(table)).ok
    victim = h.to_act(table)
    assert (await table.host_tool(HOST, "kick", victim, key=h.key())).ok
    out = await h.do(table, victim, "all in")
    assert not out.ok and "host.kicked.no_action" not in keys_in(out.msg)
    await h.play_passively(table)
    await ok(h, table)


async def test_r20_15_the_terminal_tells_the_winner_the_words_to_show(tmp_path: Path) -> None:
    """The uncontested winner was asked "Show your hand to the table? All of it or one
    card" with no word to type; R-20.15 has him told `show all`, `show 1`, `show 2`.
    The words he is told are the ones taken."""
    db = tmp_path / "s.sqlite3"
    folds = [f"{p}: fold" for p in "abcabc"]
    text = await _terminal(
        db, ["deal", *folds, "a: show 1", "b: show 1", "c: show 1"], "a", "b", "c"
    )
    prompt = next(line for line in text.splitlines() if "Show your hand to the table?" in line)
    assert "`show all`" in prompt and "`show 1`" in prompt and "`show 2`" in prompt, prompt
    shown = [line for line in text.splitlines() if re.fullmatch(r"  [abc] shows \S\S", line)]
    assert len(shown) == 1, text


async def test_r20_74_a_straddle_asked_for_a_deal_that_is_a_bomb_pot_lapses_aloud() -> None:
    """b straddled for the next deal, then a bomb pot passed for it: the bomb pot was
    dealt (no straddle, R-20.4) and b was never told his straddle was gone."""
    h = Harness()
    table = await h.seated(["a", "b", "c", "d"], straddle=True)
    assert (await h.deal(table)).ok
    await h.play_passively(table)
    straddler = ""
    for user in ("a", "b", "c", "d"):
        if not straddler and (await table.straddle(user, key=h.key())).ok:
            straddler = user
    assert straddler
    assert (await table.bomb_vote("a", None, key=h.key())).ok
    for user in ("b", "c"):
        assert (await table.bomb_vote(user, True, key=h.key())).ok
    chips = sum(s.stack for s in table.state.seats.values())
    mark = len(h.presenter.public_notices)
    assert (await h.deal(table)).ok
    said = [n.msg for _, n in h.presenter.public_notices[mark:] if n.msg is not None]
    keys = [m.key for m in said]
    assert "home.bomb.no_straddle" in keys and "home.bomb.started" in keys
    told = said[keys.index("home.bomb.no_straddle")]
    assert render(told, "en").startswith(f"{straddler}'s straddle")
    assert table.state.straddler is None
    await h.play_passively(table)
    assert sum(s.stack for s in table.state.seats.values()) == chips
    await ok(h, table)


async def test_r20_15_show_one_card_typed_in_a_hand_says_it_waits_for_the_hands_end(
    tmp_path: Path,
) -> None:
    """In a hand, "show 1" and "show all" were answered "'1' is not a card" and "'all'
    is not a card". "show 1" is told that showing by choice is between hands; "show
    all" is the hand's own show (refused here with what the player may do)."""
    db = tmp_path / "h.sqlite3"
    text = await _terminal(
        db, ["deal", "a: show 1", "b: show 1", "a: show all", "b: show all"], "a", "b"
    )
    assert "is not a card" not in text, text
    assert "Showing by choice is for the last hand, between hands (R-20.15)." in text
    assert "show all" not in text.split("Hand #1:", 1)[1].replace("`show all`", ""), text


async def test_r20_70_discord_a_kicked_players_button_on_his_turn_is_refused(
    h: DiscordHarness,
) -> None:
    """Through the fake Discord: kicked out of turn, the player's Call button on his
    turn (the clock not yet run) is refused privately, in his language, and changes
    nothing; his Fold is taken."""
    fake = h.fake
    users = players(fake)
    await h.start_table(users)
    first = h.to_act()
    assert first is not None
    victim = next(u for u in users[1:] if u.id != first.id)  # not the host, not in turn
    await h.slash(users[0], "host kick", member=victim)
    assert str(victim.id) in h.table().state.hosting.kicked
    for _ in range(4):
        actor = h.to_act()
        if actor is None or actor.id == victim.id:
            break
        await h.click(actor, "check_call")
    actor = h.to_act()
    assert actor is not None and actor.id == victim.id
    victim.locale = "de"
    turn = h.table().state.turn
    await h.click(victim, "check_call")
    # by the host, named as Discord names him.
    said = h.last_ephemeral(victim)
    assert f"Der Gastgeber {users[0].name} hat dich entfernt" in said, said
    assert h.table().state.turn == turn
    await h.click(victim, "fold")
    state = h.table().state
    assert state.turn > turn
    await play_out(h)
    assert h.table().state.seat_of(str(victim.id)) is None
    assert h.table().conservation_error() is None


async def test_r20_1_when_the_board_runs_once_the_table_says_who_said_no(tmp_path: Path) -> None:
    """R-20.1 opens every answer together once all are in; the table said only "Not
    everyone agreed", never whose answer it was. It names who said no (or, silent, is
    counted as no), and no answer before the last one is in."""
    db = tmp_path / "r.sqlite3"
    play = ["a: all in", "b: all in", "a: call", "b: call"]
    lines = ["set run_it_twice on", "deal", *play, "b: run twice no", "a: run twice yes"]
    text = await _terminal(db, lines, "a", "b")
    said = text.split("1 of 2 has answered.", 1)
    assert len(said) == 2 and "from b" not in said[0], text
    assert "Not everyone agreed (no from b): the board runs once (R-20.1)." in said[1], text


async def test_r20_40_the_terminal_ledger_shows_an_adjustment_apart_from_the_buy_in(
    tmp_path: Path,
) -> None:
    """After "adjust a +50", the terminal's `ledger` said "a: +0 (bought 150, ...)": the
    bank's chips as a buy-in, no adjustment, no hands, unlike Discord's /ledger. It is
    the session's ledger of R-20.40, as /ledger gives it."""
    db = tmp_path / "l.sqlite3"
    text = await _terminal(db, ["adjust a +50 found chips", "ledger"], "a", "b", "--buy-in", "100")
    assert "Session ledger" in text, text
    assert "a: net 0 (bought in 100, cashed out 0, adjusted 50, on the table 150; 0 hands)" in text
    assert "bought 150" not in text
    empty = await _terminal(tmp_path / "e.sqlite3", ["ledger"])
    assert "No chips moved at this table yet." in empty
