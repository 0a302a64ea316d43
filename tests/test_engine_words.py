"""The engine speaks only in messages: no prose in ``bot/poker``, every key it uses in
the English catalogue, and what it says (refusals, declare resolution, pot-system logs,
hand and game names) typed data that renders in every language.

The scan reads the source with ``ast``, as the layering test does. What it leaves out is
listed below with the reason; anything else that reads like a sentence fails it.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.poker import evaluate as ev
from bot.poker.actions import Bet, BringIn, Call, Check, Declare, Draw, Fold, GutsCall, RaiseTo
from bot.poker.cards import CardError, parse_card
from bot.poker.errors import BadAmount, ConfigError, IllegalAction, NotYourTurn, PokerError
from bot.poker.events import DeclareResolved, HandShown, PotAwarded, PotSystemSettled
from bot.poker.hand import Hand
from bot.poker.messages import Cards, Chips, Count, Msg, Player, Rule, msg
from bot.poker.rules import Limit, Rules
from bot.poker.variants import VARIANTS, street_title
from bot.words import SUPPORTED, render
from bot.words.catalog import keys, read_catalog
from tests.said import en

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "bot" / "poker"

OPERATOR_MODULES = {
    "phh.py": "parse errors of PHH files, read by the operator who replays them",
    "__main__.py": "the replay command line, for operators",
}
PROGRAMMER_ERRORS = {
    "ValueError",
    "TypeError",
    "KeyError",
    "AssertionError",
    "RuntimeError",
    "NotImplementedError",
}
"""Exceptions that mean a caller broke a contract: never shown to a player (the engine
refuses players with :class:`PokerError` and its message)."""
CODES = {"not opened", "passed out", "nobody declared", "ghost hand"}
"""Identifiers that happen to hold a space: how a hand ended (``HandEnded.reason``) and
the ghost hand's street, stored in records and read back as codes by the table."""
NOT_PROSE_CALLS = {"msg", "Msg", "Term", "Street"}
"""Their first argument is a key or an identifier (a street's code), not words."""
LOG_CALLS = {"debug", "info", "warning", "error", "exception", "critical", "log"}
NOT_PROSE_FUNCTIONS = {"__repr__", "_fast_init"}
"""A debugging repr, and the generator of the events' ``__init__`` source."""
KEY = re.compile(r"^(engine|legal|refuse|config|card|declare|two|guts|hand|rank|game)\.")


def _call_name(node: ast.Call) -> str:
    fn = node.func
    if isinstance(fn, ast.Attribute):
        return fn.attr
    return fn.id if isinstance(fn, ast.Name) else ""


def _skipped(tree: ast.Module) -> set[int]:
    """The ids of the nodes whose strings are not prose (see the module's lists)."""
    skip: set[int] = set()

    def drop(node: ast.AST) -> None:
        skip.update(id(n) for n in ast.walk(node))

    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            for stmt in node.body:
                if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
                    skip.add(id(stmt.value))  # a docstring (and an attribute's)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if node.name in NOT_PROSE_FUNCTIONS:
                drop(node)
        elif isinstance(node, ast.Call):
            name = _call_name(node)
            if name in LOG_CALLS:
                drop(node)
            elif name in NOT_PROSE_CALLS and node.args:
                drop(node.args[0])
        elif isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
            if _call_name(node.exc) in PROGRAMMER_ERRORS:
                drop(node.exc)
        elif isinstance(node, ast.Assert) and node.msg is not None:
            drop(node.msg)
        elif isinstance(node, ast.Dict):
            for k in node.keys:
                if k is not None:
                    drop(k)
        elif isinstance(node, ast.AnnAssign):
            annotation = node.annotation
            if isinstance(annotation, ast.Name) and annotation.id == "TypeAlias":
                drop(node)  # a type written as a string
    return skip


def _prose(path: Path) -> Iterator[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    skip = _skipped(tree)
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in skip
            and node.value not in CODES
            and " " in node.value
            and re.search(r"[A-Za-z]", node.value)
        ):
            yield node.lineno, node.value


def _engine_files() -> list[Path]:
    return [p for p in sorted(ENGINE.rglob("*.py")) if p.name not in OPERATOR_MODULES]


def test_the_engine_holds_no_prose() -> None:
    """Every player-facing sentence of ``bot/poker`` is a message key: no string literal
    with a space and a letter is left outside docstrings, logging, keys and the listed
    exceptions."""
    found = [
        f"{path.relative_to(ROOT)}:{line}: {text!r}"
        for path in _engine_files()
        for line, text in _prose(path)
    ]
    assert not found, "sentences left in the engine:\n" + "\n".join(found)


def test_the_scan_finds_a_sentence(tmp_path: Path) -> None:
    """The scan is not blind: a refusal written as words is caught, its key is not."""
    sample = tmp_path / "sample.py"
    sample.write_text(
        '"""Doc string with words."""\n'
        "def f(x):\n"
        '    """Doc."""\n'
        '    if x: raise IllegalAction("You cannot do that.")\n'
        '    raise IllegalAction(msg("refuse.capped"))\n'
    )
    assert [text for _, text in _prose(sample)] == ["You cannot do that."]


def _keys_and_patterns() -> tuple[set[str], set[str]]:
    """Every key-like literal of the engine, and every key built in an f-string (as a
    regular expression: the formatted parts match any word)."""
    literals: set[str] = set()
    patterns: set[str] = set()
    for path in _engine_files():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        inside = {id(v) for n in ast.walk(tree) if isinstance(n, ast.JoinedStr) for v in n.values}
        for node in ast.walk(tree):
            if id(node) in inside:
                continue  # a piece of an f-string: the whole is the pattern
            if isinstance(node, ast.JoinedStr):
                parts = [
                    re.escape(v.value) if isinstance(v, ast.Constant) else "[A-Za-z0-9_]+"
                    for v in node.values
                ]
                head = node.values[0]
                if isinstance(head, ast.Constant) and KEY.match(str(head.value)):
                    patterns.add("".join(parts))
            elif (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and KEY.match(node.value)
                and " " not in node.value
            ):
                literals.add(node.value)
    return literals, patterns


def test_every_engine_key_is_in_the_english_catalogue() -> None:
    """A key the engine says (``msg("refuse.capped")``, ``Term("declare.side.low")``, a
    key chosen in a variable, an f-string key such as ``f"declare.wins_{share}"``) is in
    the English catalogue; an f-string key matches at least one."""
    have = keys("en")
    literals, patterns = _keys_and_patterns()
    assert len(literals) > 100 and patterns  # the collector sees the engine's keys
    assert sorted(literals - have) == []
    unmatched = [p for p in patterns if not any(re.fullmatch(p, k) for k in have)]
    assert unmatched == []


# ------------------------------------------------------------------ behaviour


def _holdem(stacks: tuple[int, ...] = (100, 100, 100), **kw: object) -> Hand:
    rules = Rules(variant="holdem", limit=Limit.NO_LIMIT, blinds_or_straddles=(1, 2), **kw)  # type: ignore[arg-type]
    return Hand(rules, list(stacks))


def test_R_6_6_a_refusal_is_a_message_with_typed_parameters_and_its_options() -> None:
    """Checking against a bet: the refusal's key, the amount to call as chips, and what
    is allowed as the legal options' message; the English is the table's as before."""
    hand = _holdem()
    with pytest.raises(IllegalAction) as info:
        hand.apply(Check(hand.to_act or 0))
    m = info.value.msg
    assert m.key == "refuse.no_check"
    assert m.get("amount") == Chips(2)
    options = m.get("options")
    assert isinstance(options, Msg) and options == hand.legal().options()
    assert render(m, "en") == (
        "You cannot check: there is 2 to call. You may call 2, raise to 4–100 (all in), or fold."
    )
    german = render(m, "de")
    assert "mitgehen" in german and "call" not in german


def test_R_6_4_an_amount_out_of_range_names_what_was_said_and_what_is_legal() -> None:
    hand = _holdem()
    i = hand.to_act or 0
    with pytest.raises(BadAmount) as info:
        hand.apply(RaiseTo(i, 3))
    m = info.value.msg
    assert m.key == "refuse.out_of_range"
    said, allowed = m.get("said"), m.get("allowed")
    assert isinstance(said, Msg) and said.get("amount") == Chips(3)
    assert isinstance(allowed, Msg) and allowed.key == "refuse.legal_range"
    assert (allowed.get("low"), allowed.get("high")) == (Chips(4), Chips(100))
    assert render(m, "en").startswith("You cannot raise to 3: the legal range is raise to 4–100.")
    with pytest.raises(IllegalAction) as info:
        hand.apply(Bet(i, 5))
    assert info.value.msg.key == "refuse.already_a_bet"


def test_R_6_5_out_of_turn_names_the_player_to_act_by_position() -> None:
    """The engine knows positions, not names: the presenter names the player."""
    hand = _holdem()
    to_act = hand.to_act
    assert to_act is not None
    other = (to_act + 1) % 3
    with pytest.raises(NotYourTurn) as info:
        hand.apply(Fold(other))
    assert info.value.msg.key == "refuse.not_your_turn"
    assert info.value.msg.get("player") == Player(to_act)
    names = {0: "Ann", 1: "Bob", 2: "Cy"}
    assert render(info.value.msg, "en", names=names.get) == (
        f"It is not your turn; {names[to_act]} is to act."
    )
    assert names[to_act] in render(info.value.msg, "ru", names=names.get)


def test_R_16_4_a_discard_count_picks_its_plural_form() -> None:
    """The draw's limit is a count: English and Russian choose their plural forms."""
    rules = Rules(variant="draw5", limit=Limit.FIXED, blinds_or_straddles=(1, 2))
    hand = Hand(rules, [100, 100])
    while hand.phase == "betting":
        hand.apply(Call(hand.to_act or 0) if hand.legal().to_call else Check(hand.to_act or 0))
    assert hand.phase == "draw"
    i = hand.to_act or 0
    with pytest.raises(IllegalAction) as info:
        hand.apply(Draw(i, (*hand.hole[i][:5], "As")))
    m = info.value.msg
    assert m.key == "refuse.discard_most" and m.get("most") == Count(5)
    assert render(m, "en") == "You may discard at most 5 cards."
    assert render(m, "ru").endswith("5 карт.")
    with pytest.raises(IllegalAction) as info:
        hand.apply(Draw(i, ("Xx",)))
    assert info.value.msg.key == "refuse.discard_own"
    assert info.value.msg.get("cards") == Cards(tuple(hand.hole[i]))


def test_R_2_4_a_table_setup_error_is_a_message_the_host_reads() -> None:
    with pytest.raises(ConfigError) as info:
        Rules(variant="holdem", limit=Limit.FIXED, declare="simultaneous")
    m = info.value.msg
    assert m.key == "config.not_hi_lo" and m.get("game") == VARIANTS["holdem"].title
    assert render(m, "en") == "Texas hold'em is not a high-low game, so nobody can declare."
    assert render(m, "ru").startswith("Техасский холдем")
    with pytest.raises(ConfigError) as info:
        Rules(variant="holdem", limit=Limit.NO_LIMIT, pot_system="two_to_win")
    assert info.value.msg.get("rule") == Rule("R-15.1")  # a rule id is a parameter
    assert "{rule}" in _english_template("config.two_to_win")
    with pytest.raises(ConfigError) as info:
        Rules(variant="nosuchgame")
    assert info.value.msg.key == "config.unknown_game"
    assert "holdem" in render(info.value.msg, "en")


def _english_template(key: str) -> str:
    message = read_catalog("en", "engine").get(key)
    assert message is not None, key
    return str(message.string)


def test_no_rule_id_is_written_into_a_sentence() -> None:
    """Rule ids are parameters (``Rule``), the same in every language: no catalogue text
    of the engine spells one out."""
    for locale in SUPPORTED:
        for message in read_catalog(locale, "engine"):
            texts = message.string if isinstance(message.string, tuple) else (message.string,)
            assert not any(re.search(r"R-\d", str(t)) for t in texts), (locale, message.id)


def test_a_card_error_is_a_message() -> None:
    with pytest.raises(CardError) as info:
        parse_card("Zz")
    assert info.value.msg.key == "card.not_a_card"
    assert (
        render(info.value.msg, "en")
        == "'Zz' is not a card; write rank then suit, like As, Td or 9c."
    )


def _declare_hand() -> Hand:
    rules = Rules(
        variant="stud8", limit=Limit.FIXED, antes=(1,), bring_in=1, declare="simultaneous"
    )
    return Hand(rules, [50, 50, 50])


def _play_to_declare(hand: Hand) -> None:
    while hand.phase == "betting":
        i = hand.to_act or 0
        legal = hand.legal()
        if "bring_in" in legal.actions:
            hand.apply(BringIn(i))
            continue
        hand.apply(Call(i) if legal.to_call else Check(i))


def test_R_13_4_declare_resolution_is_messages_with_players_by_position() -> None:
    """Every step of the resolution is a message naming players by position (the event
    carries no English of its own)."""
    hand = _declare_hand()
    _play_to_declare(hand)
    assert hand.phase == "declare"
    for i, choice in zip(range(3), ("high", "low", "both"), strict=True):
        hand.apply(Declare(i, choice))  # type: ignore[arg-type]
    (resolved,) = [e for e in hand.events if isinstance(e, DeclareResolved)]
    assert resolved.messages and not hasattr(resolved, "steps")
    first = resolved.messages[0]
    assert first.key == "declare.pot_said"
    players = [p for m in resolved.messages for p in _players(m)]
    assert set(players) <= {Player(0), Player(1), Player(2)} and players
    assert "{p0}" in render(first, "en")  # a position a presenter names
    for locale in SUPPORTED:
        text = " ".join(render(m, locale, names=str) for m in resolved.messages)
        assert "{" not in text, (locale, text)
    chips = sum(hand.stacks) + hand.middle
    assert chips == 150  # nothing made or lost


def _players(m: Msg) -> Iterator[Player]:
    for _, value in m.params:
        if isinstance(value, Player):
            yield value
        elif isinstance(value, Msg):
            yield from _players(value)
        elif hasattr(value, "items"):
            for item in value.items:  # type: ignore[union-attr]
                yield from _players(item)


def test_R_15_2_a_guts_log_is_messages() -> None:
    rules = Rules(variant="guts", limit=Limit.FIXED, pot_system="guts", guts_stake=5)
    hand = Hand(rules, [100, 100, 100])
    for i in range(3):
        hand.apply(GutsCall(i, i != 2))
    (settled,) = [e for e in hand.events if isinstance(e, PotSystemSettled)]
    assert settled.messages and not hasattr(settled, "log")
    keys_said = {m.key for m in settled.messages}
    assert keys_said & {"guts.takes", "guts.split", "guts.pays", "guts.pay_each"}
    for locale in SUPPORTED:
        for m in settled.messages:
            assert "{" not in render(m, locale, names=str)


def test_R_15_1_a_two_to_win_log_is_messages() -> None:
    rules = Rules(
        variant="holdem", limit=Limit.FIXED, blinds_or_straddles=(1, 2), pot_system="two_to_win"
    )
    hand = Hand(rules, [100, 100])
    hand.apply(Fold(hand.to_act or 0))
    (settled,) = [e for e in hand.events if isinstance(e, PotSystemSettled)]
    assert [m.key for m in settled.messages] == ["two.marker_uncontested"]
    said = render(settled.messages[0], "en")
    assert "uncontested" in said and "{p" in said


def test_R_10_2_hand_names_are_messages_with_ranks_as_terms() -> None:
    """A hand's name is its kind and its ranks; each language says them its way."""
    value = ev.high_value(["Ks", "Kd", "Kh", "7c", "7d"])
    words = ev.high_words(value)
    assert words.key == "hand.full_house"
    assert en(words) == "Kings full of sevens"
    assert render(words, "de") == "Full House, Könige über Siebenen"
    assert render(words, "ru") == "Фулл-хаус: тройка королей и пара семёрок"
    desc = ev.describe("low_a5_8", ["As", "2d", "3h", "4c", "7s"])
    assert desc.words is not None and desc.words.key == "hand.low"
    assert en(desc.words) == "7-4-3-2-A low"
    none = ev.describe("low_a5_8", ["Ks", "Qd", "Jh", "9c", "9s"])
    assert en(none.words) == "No low" and none.words == ev.NO_LOW


def test_shown_and_awarded_hands_carry_their_names_as_messages() -> None:
    hand = _holdem((100, 100))
    while not hand.over:
        i = hand.to_act or 0
        hand.apply(Call(i) if hand.legal().to_call else Check(i))
    shown = [e for e in hand.events if isinstance(e, HandShown)]
    assert shown and all(e.hands and all(isinstance(h, Msg) for h in e.hands) for e in shown)
    awards = [e for e in hand.events if isinstance(e, PotAwarded)]
    assert awards and all(isinstance(a.hand_words, Msg) for a in awards)
    assert not {"descriptions", "hand"} & {f for e in (*shown, *awards) for f in e.__slots__}


def test_every_game_has_a_name_in_every_language() -> None:
    for code, variant in VARIANTS.items():
        assert en(variant.title) != code or code in ("omaha", "razz", "badugi")
        for locale in SUPPORTED:
            assert render(variant.title, locale).strip(), (code, locale)


def test_every_street_has_a_name_in_every_language() -> None:
    """A street's code stays in the records; its name is the catalogue's."""
    codes = {street.name for v in VARIANTS.values() for street in v.streets} | {"ghost hand"}
    assert {"preflop", "third street", "draw 2", "deal"} <= codes
    for code in codes:
        for locale in SUPPORTED:
            assert render(street_title(code), locale).strip(), (code, locale)
    assert render(VARIANTS["stud"].streets[0].title, "de") == "Third Street"


def test_a_poker_error_s_words_are_its_message_only() -> None:
    """A refusal carries its message and no English of its own; its ``str`` is for
    developers (a raw sentence as written, else the key and parameters)."""
    err = PokerError("plain words")
    assert err.msg.key == "engine.raw" and str(err) == "plain words"
    assert not hasattr(err, "message")
    keyed = IllegalAction(msg("refuse.capped", rule=Rule("R-5.7")))
    assert str(keyed) == "refuse.capped(rule=R-5.7)"


ENGLISH_RENDERERS = {"english", "speak_english_with", "render", "en"}


def _english_in(path: Path) -> list[str]:
    """Where a core module imports the catalogue or names an English renderer."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if (node.module or "").startswith("bot.words"):
                found.append(f"{path.name}:{node.lineno} imports {node.module}")
            found += [
                f"{path.name}:{node.lineno} imports {a.name}"
                for a in node.names
                if a.name in ENGLISH_RENDERERS
            ]
        elif isinstance(node, ast.Import):
            found += [
                f"{path.name}:{node.lineno} imports {a.name}"
                for a in node.names
                if a.name.startswith("bot.words")
            ]
        elif isinstance(node, ast.Name) and node.id in ENGLISH_RENDERERS - {"en", "render"}:
            found.append(f"{path.name}:{node.lineno} names {node.id}")
        elif isinstance(node, ast.Attribute) and node.attr in {"english", "speak_english_with"}:
            found.append(f"{path.name}:{node.lineno} reads .{node.attr}")
    return found


def test_the_core_imports_and_calls_no_english_renderer() -> None:
    """The engine and the table service put nothing in words: no module of
    ``bot/poker`` or ``bot/table`` imports the catalogue or an English renderer, or
    calls one; ``bot.poker.messages`` has none to offer."""
    import bot.poker.messages as messages

    found = [
        hit
        for package in (ENGINE, ROOT / "bot" / "table")
        for path in sorted(package.rglob("*.py"))
        for hit in _english_in(path)
    ]
    assert found == []
    assert not {"english", "speak_english_with"} & set(dir(messages))


def test_the_english_renderer_scan_finds_one(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text(
        "from bot.poker.messages import english\n"
        "from bot.words import render\n"
        "x = english(m)\n"
        "y = error.english\n",
        encoding="utf-8",
    )
    lines = {int(hit.split(":")[1].split()[0]) for hit in _english_in(bad)}
    assert lines == {1, 2, 3, 4}
