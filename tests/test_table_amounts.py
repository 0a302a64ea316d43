"""One input vocabulary: typed actions and the raise modal read the same words, in every
language Chipfist speaks (bot/table/amounts.py)."""

from __future__ import annotations

import pytest

from bot.poker.legal import Legal
from bot.table.amounts import AMOUNT_WORDS, SPOKEN, amount_word, in_english
from bot.table.text_actions import ActionRequest, ParseError, parse_action
from bot.words import SUPPORTED
from cogs.play import parse_raise

# (language, typed, what it is): the common action words of each language's players.
SAID = [
    ("de", "checken", ActionRequest("check")),
    ("de", "mitgehen", ActionRequest("call")),
    ("de", "erhöhen auf 40", ActionRequest("raise_to", 40)),
    ("de", "erhöhen um 40", ActionRequest("raise_by", 40)),
    ("de", "setzen 30", ActionRequest("bet", 30)),
    ("de", "aussteigen", ActionRequest("fold")),
    ("de", "alles", ActionRequest("all_in")),
    ("fr", "parole", ActionRequest("check")),
    ("fr", "suivre", ActionRequest("call")),
    ("fr", "relancer à 40", ActionRequest("raise_to", 40)),
    ("fr", "relancer de 40", ActionRequest("raise_by", 40)),
    ("fr", "miser 30", ActionRequest("bet", 30)),
    ("fr", "se coucher", ActionRequest("fold")),
    ("fr", "tapis", ActionRequest("all_in")),
    ("es", "pasar", ActionRequest("check")),
    ("es", "igualar", ActionRequest("call")),
    ("es", "subir a 40", ActionRequest("raise_to", 40)),
    ("es", "apostar 30", ActionRequest("bet", 30)),
    ("es", "retirarse", ActionRequest("fold")),
    ("pt_BR", "passar", ActionRequest("check")),
    ("pt_BR", "pagar", ActionRequest("call")),
    ("pt_BR", "aumentar para 40", ActionRequest("raise_to", 40)),
    ("pt_BR", "aumentar em 40", ActionRequest("raise_by", 40)),
    ("pt_BR", "desistir", ActionRequest("fold")),
    ("ru", "чек", ActionRequest("check")),
    ("ru", "колл", ActionRequest("call")),
    ("ru", "рейз до 40", ActionRequest("raise_to", 40)),
    ("ru", "рейз на 40", ActionRequest("raise_by", 40)),
    ("ru", "ставка 30", ActionRequest("bet", 30)),
    ("ru", "фолд", ActionRequest("fold")),
    ("ru", "олл-ин", ActionRequest("all_in")),
]


@pytest.mark.parametrize(("lang", "typed", "request_"), SAID, ids=[s[1] for s in SAID])
def test_R_6_3_each_language_s_action_words(lang: str, typed: str, request_: ActionRequest) -> None:
    assert parse_action(typed) == request_
    assert parse_action("  " + typed.upper() + " ") == request_  # "MITGEHEN" is a call
    assert typed.split()[0] in " ".join(SPOKEN[lang])  # the word is that language's


def test_every_language_has_its_words() -> None:
    assert set(SPOKEN) == set(SUPPORTED) - {"en"}
    for lang, words in SPOKEN.items():
        meant = set(words.values())
        assert {"check", "call", "fold", "bet", "raise to", "raise by", "all in"} <= meant, lang


def test_no_word_means_two_things() -> None:
    seen: dict[str, str] = {}
    for words in SPOKEN.values():
        for said, meant in words.items():
            assert seen.setdefault(said, meant) == meant, said
            # and none of them is an English action word meaning something else
            assert in_english(said) == meant


def test_R_6_2_a_call_in_any_language_then_a_raise_is_a_call() -> None:
    for typed in ("mitgehen und erhöhen auf 80", "suivre et relancer à 80", "колл рейз 80"):
        req = parse_action(typed)
        assert req.kind == "call" and req.why is not None


def test_amounts_are_refused_in_any_language_as_in_english() -> None:
    with pytest.raises(ParseError):
        parse_action("erhöhen auf 1,5")
    with pytest.raises(ParseError):
        parse_action("рейз до -5")
    with pytest.raises(ParseError):
        parse_action("setzen viel")
    assert parse_action("erhöhen 30") == ActionRequest("raise_by", 30)  # by


def test_one_vocabulary_the_modal_s_words_are_typed_actions_too() -> None:
    # Before: "half", "½", "all", "minimum" worked in the modal and were refused typed.
    for word, kind in AMOUNT_WORDS.items():
        assert parse_action(word).kind == kind, word
        assert amount_word(word) == kind
    for typed in ("half", "½", "all", "minimum", "maximum", "½ pot"):
        assert parse_action(typed).kind == AMOUNT_WORDS[typed]


def _legal() -> Legal:
    return Legal(
        0, frozenset({"call", "raise", "fold", "all_in"}), 2, 4, 2, 100, 10, 8, 100, 2, False
    )


def test_the_modal_reads_every_language_s_amount_words() -> None:
    legal = _legal()
    opening = legal.opening
    assert parse_raise("Hälfte", "", opening) == ActionRequest("half_pot")
    assert parse_raise("tapis", "", opening) == ActionRequest("all_in")
    assert parse_raise("олл-ин", "", opening) == ActionRequest("all_in")
    assert parse_raise("pote", "", opening) == ActionRequest("pot")
    assert parse_raise("minimum", "", opening) == ActionRequest("min")  # the table sizes it
    assert parse_raise("максимум", "", opening) == ActionRequest("max")
    assert isinstance(parse_raise("beaucoup", "", opening), str)  # refused in words
