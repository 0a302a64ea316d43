"""The table service says what happened as data: every answer and notice carries a
message (a key and typed parameters), refusals say "You may: ..." as a property of their
message, messages survive the log as JSON, and the scan below keeps sentences out of
``bot/table``. The wording is checked once, in the catalogue tests."""

from __future__ import annotations

import ast
import dataclasses
import json
from pathlib import Path

import pytest

from bot.poker.messages import (
    Cards,
    Chips,
    Count,
    Listing,
    Msg,
    Name,
    Number,
    Player,
    Rule,
    Term,
    msg,
    raw,
)
from bot.poker.variants import VARIANTS
from bot.table import said
from bot.table.answers import refusal, says_options
from bot.table.table import Table
from bot.words import SUPPORTED, render
from tests.harness import Harness
from tests.said import en, parts, told
from tests.test_engine_words import _prose

ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / "bot" / "table"


def _every_param() -> Msg:
    inner = msg("legal.call", amount=Chips(1500))
    return msg(
        "x.every",
        chips=Chips(3),
        count=Count(2),
        number=Number(1.5),
        seat=Number(4),
        player=Player(1),
        name=Name("Ann"),
        cards=Cards(("As", "Td")),
        rule=Rule("R-6.2"),
        term=Term("street.flop"),
        listing=Listing((inner, msg("legal.fold")), "and"),
        nested=inner,
    )


def test_a_message_round_trips_through_json() -> None:
    """What the log stores (JSON text) reads back as the same message, every parameter
    type with its type (a seat stays a Number, never becomes Chips)."""
    m = _every_param()
    text = json.dumps(said.dump(m))
    back = said.load(json.loads(text))
    assert back == m
    assert isinstance(back.get("number"), Number) and back.get("number") == Number(1.5)
    assert isinstance(back.get("listing"), Listing)


def test_old_records_words_read_back_as_raw_text() -> None:
    """A record written before messages holds English text: it is shown as it is."""
    assert said.load("Ann calls 20") == raw("Ann calls 20")
    assert en(said.load("Ann calls 20")) == "Ann calls 20"
    with pytest.raises(ValueError):
        said.load({"params": []})


async def _heads_up() -> tuple[Harness, Table, str, str]:
    h = Harness()
    table = await h.seated(["a", "b", "c"])
    assert (await h.deal(table)).ok
    who = h.to_act(table)
    other = next(p for p in "abc" if p != who)
    return h, table, who, other


async def test_R_6_4_a_raise_without_amount_is_refused_with_the_options_as_data() -> None:
    """ "raise" with no amount (no-limit): the answer is a ``table.refusal`` whose reason
    and options are messages; its English is the sentence the table always wrote."""
    h, table, who, _ = await _heads_up()
    out = await h.do(table, who, "raise")
    assert not out.ok and out.msg is not None
    assert out.msg.key == "table.refusal"
    assert out.msg.get("reason") == msg("table.say_how_much")
    assert isinstance(out.msg.get("options"), Msg)
    assert render(out.msg, "en") == (
        "Say how much. You may: call 2, raise to 4–100 (all in), or fold."
    )
    german = render(out.msg, "de")
    assert "You may" not in german and "Sag, wie viel." in german


async def test_R_6_5_an_engine_refusal_that_says_its_options_is_not_told_them_twice() -> None:
    """The engine's "You cannot check ... You may ..." already holds ``legal.options``:
    the table keeps its message as it is (read from the parameters, not the words)."""
    h, table, who, _ = await _heads_up()
    out = await h.do(table, who, "check")
    assert out.msg is not None and out.msg.key == "refuse.no_check"
    assert says_options(out.msg)
    assert [p.key for p in parts(out.msg)].count("legal.options") == 1
    assert render(out.msg, "en").count("You may") == 1


async def test_R_6_5_out_of_turn_names_who_is_to_act_as_a_name_parameter() -> None:
    h, table, who, other = await _heads_up()
    out = await h.do(table, other, "call")
    assert out.msg == msg("table.not_your_turn", who=Name(who))
    assert out.code == "not_your_turn"


async def test_a_refusal_wraps_a_reason_once() -> None:
    """``refusal`` of a refusal says the options once (``table.refusal`` says them)."""
    _, table, _, _ = await _heads_up()
    hand = table.state.hand
    assert hand is not None
    legal = hand.legal()
    once = refusal(msg("table.say_how_much"), legal)
    assert says_options(once)
    assert not says_options(msg("table.say_how_much"))
    assert en(once).count("You may") == 1


async def test_every_answer_carries_its_message_and_it_renders_everywhere() -> None:
    """Accepted, refused, duplicate and stale answers all carry ``msg`` (their only
    words), and it renders in every supported language."""
    h, table, who, _ = await _heads_up()
    outs = [
        await h.do(table, who, "call"),
        await h.do(table, who, "call"),
        await table.sit_out("nobody"),
        await table.sit("d", "d", 100, key="same"),
        await table.sit("d", "d", 100, key="same"),
        await table.act(who, "fold", turn=0),
    ]
    codes = [o.code for o in outs]
    assert "duplicate" in codes and "stale" in codes and "not_allowed" in codes
    for out in outs:
        assert isinstance(out.msg, Msg), out
        assert "message" not in {f.name for f in dataclasses.fields(out)}
        for locale in SUPPORTED:
            assert render(out.msg, locale)


def test_the_scan_finds_table_prose(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text('def f():\n    raise TableError("You cannot sit here.")\n')
    assert [text for _, text in _prose(sample)] == ["You cannot sit here."]


INPUT_AND_OPERATOR = {
    "games.py": "the input vocabulary of game names (what players type), not output",
    "fields.py": "a malformed log field, for the operator who reads the error log",
    "amounts.py": "the input vocabulary of amount words in every language (what players type)",
}

PROSE_LEFT: dict[str, int] = {}
"""Sentence-like literals still in each module of ``bot/table``, by file: lower a
count as its sentences move to the ``table`` catalogue, never raise it; a module not
listed holds none."""


OPERATOR_ERRORS = {"_Malformed", "Malformed", "LogError", "super"}
"""A log row or snapshot this code cannot read: said to the operator, in his log."""


def _operator_lines(path: Path) -> set[int]:
    """Lines of the words given to :data:`OPERATOR_ERRORS` (``super().__init__`` of
    ``LogError`` among them)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == "LogError":
            out.update(n.lineno for n in ast.walk(node) if isinstance(n, ast.Constant))
        if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
            fn = node.exc.func
            if isinstance(fn, ast.Name) and fn.id in OPERATOR_ERRORS:
                out.update(n.lineno for n in ast.walk(node) if isinstance(n, ast.Constant))
    return out


def test_table_prose_only_shrinks() -> None:
    """Sentences are moving out of ``bot/table`` into the ``table`` catalogue: no module
    holds more sentence-like literals (outside docstrings, logging, keys) than listed."""
    over = {}
    for path in sorted(TABLE.rglob("*.py")):
        if path.name in INPUT_AND_OPERATOR:
            continue
        operator = _operator_lines(path)
        found = [f"{line}: {text!r}" for line, text in _prose(path) if line not in operator]
        if len(found) > PROSE_LEFT.get(path.name, 0):
            over[path.name] = found
    assert not over, over


async def test_the_log_keeps_no_prose_for_a_new_action_and_a_history_reads_in_german() -> None:
    """A new ``action`` row holds the message (key, parameters, names), no English; the
    last action and the hand's story render in the reader's language."""
    h, table, who, _ = await _heads_up()
    await h.do(table, who, "fold")
    rows = [e for e in await h.store.events("t") if e.kind == "action"]
    assert rows and "text" not in rows[-1].payload
    told = said.load(rows[-1].payload["said"])
    assert told == msg("notice.action.fold", who=Name(who))
    state = table.state
    assert state.last_said == told and en(told) == f"{who} folds"
    assert render(state.last_said, "de") == f"{who} steigt aus"


async def test_a_finished_hand_is_told_as_messages_in_any_language() -> None:
    h, table, _, _ = await _heads_up()
    await h.play_passively(table)
    no = table.state.hand_no
    told = await table.hand_told(no)
    assert told[0].key == "table.story.head" and told[0].get("hand") == Number(no)
    assert all(m.key != "engine.raw" for m in told)  # no English kept as text
    german = "\n".join(render(m, "de") for m in told)
    assert "Hand #" in german and " posts " not in german


async def test_event_notices_carry_messages_with_players_by_position() -> None:
    """A public event notice's ``msg`` names players by position (the presenter names
    them through the hand's names); it is the notice's only words."""
    h, table, who, _ = await _heads_up()
    await h.do(table, who, "call")
    notices = [n for _, n in h.presenter.public_notices if n.kind == "ActionTaken"]
    last = notices[-1]
    assert last.msg is not None and last.msg.key == "notice.action.call"
    assert isinstance(last.msg.get("who"), Player)
    assert last.hand is not None
    assert render(last.msg, "en", names=last.hand.names.__getitem__) == told(last)
    assert "text" not in {f.name for f in dataclasses.fields(last)}


def test_a_new_halt_is_stored_as_a_message_and_an_old_one_as_its_words() -> None:
    from bot.table import log as tlog

    new = tlog.Halted(msg("table.unreadable"))
    payload = new.to_payload()
    assert "reason" not in payload
    assert tlog.Halted.from_payload(payload).told == msg("table.unreadable")
    old = tlog.Halted.from_payload({"reason": "Chip conservation failed (R-2.5)"})
    assert old.told == raw("Chip conservation failed (R-2.5)")
    assert old.to_payload()["reason"] == "Chip conservation failed (R-2.5)"


async def test_the_view_carries_stakes_street_options_and_last_action_as_data() -> None:
    """The view's words have data beside them: the stakes as a record, the street, the
    options and the last action as messages (the view holds no words)."""
    from bot.table.view import StakesView

    h, table, who, _ = await _heads_up()
    await h.do(table, who, "call")
    view = table.snapshot(None)
    assert view.stakes_data == StakesView("holdem", "no_limit", blinds=(1, 2))
    assert view.street_said is not None
    assert not {"stakes", "street", "options", "variant_name"} & {
        f.name for f in dataclasses.fields(view)
    }
    assert view.options_said is not None and view.options_said.key == "legal.options"
    assert view.last_said is not None and view.last_said.key == "notice.action.call"
    assert render(view.street_said, "ru") == "Префлоп"


@pytest.mark.parametrize("variant", sorted(VARIANTS))
async def test_the_street_message_is_said_in_every_language(variant: str) -> None:
    """For every game, dealt and played a few actions, the street is a message (None
    between hands) said in every language."""
    h = Harness()
    table = await h.seated(["a", "b", "c"], variant=variant)
    assert (await h.deal(table)).ok
    for _ in range(8):
        view = table.snapshot(None)
        assert view.in_hand or view.street_said is None, (variant, view)
        if view.street_said is not None:
            shown = {render(view.street_said, locale) for locale in SUPPORTED}
            assert len(shown) > 1 and all(shown), (variant, shown)  # said, and translated
        hand = table.state.hand
        if hand is None or hand.over or hand.to_act is None:
            break
        legal = hand.legal()
        action = "check" if "check" in legal.actions else "call"
        if "draw" in legal.actions:
            action = "stand pat"
        if not (await h.do(table, h.to_act(table), action)).ok:
            break


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("limit", ["no_limit", "pot_limit", "half_pot", "fixed", "spread"])
def test_the_stakes_message_says_what_the_stakes_text_says(variant: str, limit: str) -> None:
    """The stakes as data render in English as the settings' stakes line, for every game
    and structure (with an ante, and declare where the game is hi-lo)."""
    from bot.table.settings import TableSettings
    from bot.table.view import stakes_of, stakes_said

    settings = TableSettings.of(ante=1, declare="simultaneous")
    info = VARIANTS[variant]
    declare = settings.declare != "none" and info.hi_lo
    data = stakes_of(settings, variant, limit, declare)
    told = en(stakes_said(data))
    assert en(settings.stakes_said(variant, limit)) == told
    # The line the table always wrote, piece by piece (written out here, not rendered).
    if any(s.betting for s in info.streets):
        structure = {
            "no_limit": "No-limit",
            "pot_limit": "Pot-limit",
            "half_pot": "Half-pot-limit",
            "fixed": "Fixed-limit",
            "spread": "Spread-limit",
        }[limit]
        head = f"{structure} {en(info.title)}" + (" declare" if declare else "")
        assert told.split(", ")[0] == head, told
        assert ("blinds 1/2" in told) == (info.forced == "blinds"), told
        assert ("bets 2/4" in told) == (limit in ("fixed", "spread")), told
        assert told.endswith(", ante 1"), told
    else:
        assert told == en(info.title), told
    for locale in SUPPORTED:
        assert render(stakes_said(data), locale)


def test_the_joker_is_named_in_every_language_never_shown_as_its_code() -> None:
    from bot.poker.cards import JOKER
    from bot.poker.events import CardsDealt
    from bot.table.notices import said as event_said

    m = event_said(CardsDealt(player=0, cards=("As", JOKER), face_up=(True, True)))
    assert m is not None
    assert render(m, "en", names=lambda p: "Ann") == "Ann: As Joker"
    assert render(m, "es", names=lambda p: "Ann") == "Ann: As Comodín"
    assert all(JOKER not in render(m, loc, names=lambda p: "Ann") for loc in SUPPORTED)


async def test_R_6_2_an_accepted_action_is_answered_as_its_message_in_any_language() -> None:
    """The actor's answer to an accepted action is the action's message (names in it),
    never its English as raw text; a remark of the parser comes first, in one message."""
    h, table, who, _ = await _heads_up()
    out = await h.do(table, who, "call")
    assert out.ok and out.msg is not None and out.msg.key == "notice.action.call"
    assert out.msg.get("who") == Name(who)
    assert render(out.msg, "de") == f"{who} geht 2 mit"
    nxt = h.to_act(table)
    out = await h.do(table, nxt, "call and raise 10")  # a call, said so
    assert out.ok and out.msg is not None and out.msg.key == "notice.space"
    done = out.msg.get("tail")
    assert isinstance(done, Msg) and done.key.startswith("notice.action.")
    assert done.get("who") == Name(nxt)
    assert render(out.msg, "en").endswith(render(done, "en"))


async def test_R_6_5_a_refusal_reaches_the_presenter_as_its_message() -> None:
    """``presenter.error`` gets the refusal as a message (rendered by the presenter in
    the actor's language), never English text."""
    h, table, who, other = await _heads_up()
    await h.do(table, other, "call")
    _, user, told = h.presenter.errors[-1]
    assert user == other and isinstance(told, Msg)
    assert told == msg("table.not_your_turn", who=Name(who))


async def test_R_2_5_a_snapshot_keeps_the_halt_and_last_action_as_messages() -> None:
    """A new snapshot holds why the table stopped and the last action as messages (no
    English); an older one's words load as raw text and are written back unchanged."""
    from bot.table import snapshot

    h, table, who, _ = await _heads_up()
    await h.do(table, who, "fold")
    table.state.halted = msg("table.unsettled")
    payload = snapshot.to_payload(table.state)
    assert payload["halted"] is None and payload["last_action"] == ""
    assert said.load(payload["halted_said"]) == msg("table.unsettled")
    back = snapshot.from_payload("t", payload)
    assert back is not None and back.halted == msg("table.unsettled")
    assert back.last_said == msg("notice.action.fold", who=Name(who))

    old = {k: v for k, v in payload.items() if k not in ("halted_said", "last_said")}
    old.update(halted="Chip conservation failed (R-2.5)", last_action="Ann calls 20")
    state = snapshot.from_payload("t", old)
    assert state is not None
    assert state.halted == raw("Chip conservation failed (R-2.5)")
    assert state.last_said == raw("Ann calls 20")
    again = snapshot.to_payload(state)
    assert again["halted"] == "Chip conservation failed (R-2.5)" and "halted_said" not in again
    assert again["last_action"] == "Ann calls 20" and "last_said" not in again
