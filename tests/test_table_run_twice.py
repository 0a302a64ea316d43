"""Run it twice at the table (R-20.1, R-20.2): the private question, the sealed answers,
the answer clock (no answer means once), the second run's awards, recovery from the log.
Every step checks that no chip is created or lost (R-2.5, the harness)."""

from __future__ import annotations

from bot.poker.events import (
    PotAwarded,
    RunItTwiceAnswered,
    RunItTwiceDecided,
    SecondBoardDealt,
)
from bot.poker.messages import Name, Rule
from bot.table.ports import Notice, RecordingPresenter
from bot.table.service import TableService
from bot.table.state import state_digest
from bot.table.table import Table
from bot.table.text_actions import parse_action
from bot.words import render
from tests.harness import Harness
from tests.said import params_in


async def _all_in(h: Harness, names: list[str], **settings: object) -> Table:
    """Everyone all in before the flop (the first to act shoves, the rest call)."""
    table = await h.seated(names, declare_clock=30, **settings)
    assert (await h.deal(table)).ok
    assert (await h.do(table, h.to_act(table), "all in")).ok
    while (hand := table.state.hand) is not None and hand.to_act is not None:
        assert (await h.do(table, h.to_act(table), "call")).ok
    return table


def _events(notices: list[Notice]) -> list[object]:
    return [n.data.get("event") for n in notices if n.data]


async def test_r20_1_off_by_default_the_board_runs_once() -> None:
    h = Harness()
    table = await _all_in(h, ["a", "b"])
    assert table.state.hand is None  # played out at once: nobody was asked
    assert not any(n.kind == "run_twice" for _, _, n in h.presenter.private_notices)
    assert not any(isinstance(e, SecondBoardDealt) for e in _events(_public(h)))
    h.check(table)


def _public(h: Harness) -> list[Notice]:
    return [n for _, n in h.presenter.public_notices]


async def test_r20_10_each_answer_is_private_until_all_are_in() -> None:
    h = Harness()
    table = await _all_in(h, ["a", "b", "c"], run_it_twice=True)
    hand = table.state.hand
    assert hand is not None and hand.phase == "run_twice"
    info = table.state.current
    assert info is not None
    asked = [info.users[p] for p in hand.run_twice_pending()]
    assert len(asked) == 3
    # Each player asked got one private prompt, on the shared answer clock.
    prompts = [(u, n) for _, u, n in h.presenter.private_notices if n.kind == "run_twice"]
    assert sorted(u for u, _ in prompts) == sorted(asked)
    assert all(n.deadline == table.deadline() for _, n in prompts)
    assert all(n.msg is not None and n.msg.key == "home.prompt.run_twice" for _, n in prompts)
    public_before = len(h.presenter.public_notices)
    private_before = len(h.presenter.private_notices)
    first, second, third = asked
    assert (await h.do(table, first, "run twice yes")).ok
    assert (await h.do(table, second, "run twice no")).ok
    # Before the last answer: nobody else's notice holds an answer, none says one in
    # words, and the table's picture shows none.
    public = _public(h)[public_before:]
    assert not any(isinstance(e, RunItTwiceAnswered) for e in _events(public))
    assert [n.msg.key for n in public if n.msg is not None] == ["home.rit.count"] * 2
    for _, user, n in h.presenter.private_notices[private_before:]:
        event = n.data.get("event") if n.data else None
        if isinstance(event, RunItTwiceAnswered):
            assert info.users[event.player] == user  # his own answer only
    for viewer in (None, third, first):
        view = table.snapshot(viewer)
        last = "" if view.last_said is None else render(view.last_said, "en").lower()
        assert "agree" not in last and "declin" not in last, last
    # An answer is final.
    again = await h.do(table, first, "run twice no")
    assert not again.ok
    assert (await h.do(table, third, "run twice yes")).ok
    decided = [e for e in _events(_public(h)) if isinstance(e, RunItTwiceDecided)]
    assert len(decided) == 1 and not decided[0].twice  # one "no": once
    assert table.state.hand is None
    assert not any(isinstance(e, SecondBoardDealt) for e in _events(_public(h)))
    h.check(table)


async def test_r20_2_all_agree_each_run_wins_half_of_each_pot() -> None:
    h = Harness()
    table = await _all_in(h, ["a", "b"], run_it_twice=True)
    info = table.state.current
    hand = table.state.hand
    assert info is not None and hand is not None
    total = sum(hand.stacks) + hand.middle
    for p in hand.run_twice_pending():
        out = await h.do(table, info.users[p], "twice")
        assert out.ok, out.msg
    assert table.state.hand is None
    events = _events(_public(h))
    assert any(isinstance(e, SecondBoardDealt) and e.why == "run_twice" for e in events)
    awards = [e for e in events if isinstance(e, PotAwarded)]
    first = sum(e.amount for e in awards if e.board == 0)
    second = sum(e.amount for e in awards if e.board == 1)
    assert first + second == 200 and first - second in (0, 1)  # odd chip to run one
    keys = [n.msg.key for n in _public(h) if n.msg is not None]
    assert "home.award.second_run" in keys and "home.rit.twice" in keys
    stacks = sum(s.stack for s in table.state.seats.values())
    assert stacks == total == 200
    h.check(table)


async def test_r20_10_the_answer_clock_means_once() -> None:
    h = Harness()
    table = await _all_in(h, ["a", "b", "c"], run_it_twice=True)
    info, hand = table.state.current, table.state.hand
    assert info is not None and hand is not None
    assert table.deadline() == table.state.phase_started_at + 30
    first, *late = hand.run_twice_pending()
    assert (await h.do(table, info.users[first], "run twice yes")).ok
    h.time.set(table.deadline() or 0.0)
    assert await h.service.tick() == 1
    assert table.state.hand is None
    said = [n for n in _public(h) if n.kind == "timeout"]
    assert [n.msg.key for n in said if n.msg is not None] == ["home.clock.run_twice"]
    assert said[0].msg.get("rule") == Rule("R-20.1")
    assert Name(info.names[late[0]]) in params_in(said[0].msg)
    decided = [e for e in _events(_public(h)) if isinstance(e, RunItTwiceDecided)]
    assert len(decided) == 1 and not decided[0].twice
    assert dict(decided[0].answers) == {first: True, **{p: False for p in late}}
    h.check(table)


async def test_r20_1_answers_are_refused_outside_the_question() -> None:
    h = Harness()
    table = await h.seated(["a", "b"], run_it_twice=True)
    assert (await h.deal(table)).ok
    before = state_digest(table.state)
    out = await h.do(table, h.to_act(table), "run twice yes")
    assert not out.ok
    assert state_digest(table.state) == before
    assert parse_action("run twice no").kind == "run_twice_no"
    assert parse_action("run it twice").kind == "run_twice_yes"
    h.check(table)


async def test_r20_2_a_run_twice_hand_recovers_from_the_log() -> None:
    h = Harness()
    table = await _all_in(h, ["a", "b", "c"], run_it_twice=True)
    info, hand = table.state.current, table.state.hand
    assert info is not None and hand is not None
    pending = hand.run_twice_pending()
    assert (await h.do(table, info.users[pending[0]], "run twice yes")).ok
    # A restart in the middle of the question: the sealed answer comes back as it was.
    fresh = TableService(h.store, RecordingPresenter(), h.time)
    assert await fresh.recover() == []
    again = fresh.table("t")
    assert state_digest(again.state) == state_digest(table.state)
    for p in pending[1:]:
        out = await again.act(info.users[p], "run twice yes", key=h.key())
        assert out.ok, out.msg
    assert again.state.hand is None and again.conservation_error() is None
    fresh2 = TableService(h.store, RecordingPresenter(), h.time)
    assert await fresh2.recover() == []
    assert state_digest(fresh2.table("t").state) == state_digest(again.state)


async def test_r20_2_the_hand_story_names_the_second_run() -> None:
    h = Harness()
    table = await _all_in(h, ["a", "b"], run_it_twice=True)
    info, hand = table.state.current, table.state.hand
    assert info is not None and hand is not None
    for p in hand.run_twice_pending():
        assert (await h.do(table, info.users[p], "run twice yes")).ok
    keys = [m.key for m in await table.hand_told(1)]
    assert "home.rit.twice" in keys and "home.award.second_run" in keys
    assert "home.award.second" not in keys
    assert [m.key for m in await table.hand_told(1)].count("home.board2.run") >= 1


def test_r20_10_the_answer_in_every_language() -> None:
    for twice, once in (
        ("zweimal", "einmal"),
        ("deux fois", "une fois"),
        ("dos veces", "una vez"),
        ("duas vezes", "uma vez"),
        ("дважды", "один раз"),
        ("run twice yes", "run twice no"),
    ):
        assert parse_action(twice).kind == "run_twice_yes"
        assert parse_action(once).kind == "run_twice_no"
