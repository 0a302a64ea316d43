"""Russian and French lines read as the language reads: a player's name never declined
(R-19.96) nor agreed with by a gendered verb (R-20.87), one French apostrophe (R-20.88)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from babel.messages.catalog import Message

from bot.words import DOMAINS
from bot.words.catalog import read_catalog

_NAMES = frozenset(
    {"who", "player", "victim", "winner", "payer", "payee", "user", "host", "players"}
    | {"winners", "others", "name", "by"}
)
"""Placeholders that carry a player's name (or a list of names)."""

_NOT_A_NAME = frozenset({("settings", "name"), ("record", "by")})
"""Where such a placeholder is no person: a setting's name, a leaderboard's measure."""

_STANDS_AS_TYPED = re.compile(
    r"(^|: |; |\(|«|`|\*\*| и |, |\. |\} |игрок "
    r"|(раздаёт|ходит|Ходит|Отвечают|получает|платит|это) "
    r"|([Хх]озяин стола|[Пп]омощник хозяина|[Мм]одератор|Хозяин) )$"
)
"""Where a name needs no case: first, after a colon or a separator, in a list, after
"игрок", as the subject after its verb ("ходит Аня"), or beside a role it names
("хозяин стола Аня")."""

_GENDERED = re.compile(
    r"^(?:[а-яё]+(?:[аеиоуыяё]л(?:ся|а|ась|о|ось)?|[аяеё]нн?[ао]?)|должен|должна|готов|"
    r"готова|рад|рада|сам|сама|он|она|его|ему|него|нему|неё|ней)$"
)
"""A past-tense verb ("выбыл"), a short participle ("зарегистрирован") or a pronoun:
each agrees with the player's sex, which the bot does not know."""

_NOUNS = frozenset({"стол", "стола", "колл", "стрэддл", "стрэдл", "банк", "план", "экран"})
"""Words the pattern above would take for verbs."""


def _key(m: Message) -> str:
    return str(m.id[0] if isinstance(m.id, tuple) else m.id)


def _lines(locale: str) -> Iterator[tuple[str, str, str]]:
    for domain in DOMAINS:
        for m in read_catalog(locale, domain):
            if not m.id:
                continue
            strings = m.string if isinstance(m.string, tuple) else (m.string,)
            for s in strings:
                if s:
                    yield domain, _key(m), s


def _names_in(domain: str, s: str) -> Iterator[re.Match[str]]:
    for hit in re.finditer(r"\{(\w+)\}", s):
        if hit.group(1) in _NAMES and (domain, hit.group(1)) not in _NOT_A_NAME:
            yield hit


def declined_names(domain: str, s: str) -> list[str]:
    """The names in ``s`` that stand where Russian would decline them."""
    return [
        hit.group(0)
        for hit in _names_in(domain, s)
        if not _STANDS_AS_TYPED.search(s[: hit.start()])
    ]


def gendered_words(domain: str, s: str) -> list[str]:
    """The words in the clause a name opens as its subject that agree with its sex."""
    found = []
    for hit in _names_in(domain, s):
        after = s[hit.end() :].removeprefix("**")
        if after.startswith(":"):  # "Аня: ..." names the player, then speaks neutrally
            continue
        clause = re.split(r"[.;:!?(,—]", after)[0]
        for word in re.findall(r"[а-яё]+", clause.lower()):
            if word not in _NOUNS and _GENDERED.match(word):
                found.append(word)
    return found


def test_R_19_96_no_russian_line_declines_a_name() -> None:
    lines = list(_lines("ru"))
    assert len(lines) > 1500  # every domain is read
    bad = [(d, k, s) for d, k, s in lines if declined_names(d, s)]
    assert not bad, bad


def test_R_19_96_the_scan_finds_a_declined_name() -> None:
    for line in ("У {who} вышло время.", "Свободное место предложено {who}.", "Стек {player}"):
        assert declined_names("table", line), line
    assert not declined_names("table", "{who}: время вышло.")
    assert not declined_names("settings", "Неизвестная настройка {name}.")


def test_R_20_87_no_russian_line_genders_a_verb_for_a_player() -> None:
    bad = [(d, k, s) for d, k, s in _lines("ru") if gendered_words(d, s)]
    assert not bad, bad


def test_R_20_87_the_scan_finds_a_gendered_verb() -> None:
    for line in (
        "{player} зарегистрирован ({count} игрок).",
        "{player} снял регистрацию.",
        "{who} раздаёт следующим и сначала должен выбрать игру: {choices}",
        "{name} выбыл из турнира.",
        "{who} вернулся и ждёт большого блайнда.",
        "{who} не занял место, и его нет.",
    ):
        assert gendered_words("deal", line), line
    for line in ("{who}: снова в игре.", "{who} покидает стол.", "{who} колл {amount}"):
        assert not gendered_words("deal", line), line


_STRAIGHT = re.compile(r"\w'\w")


@pytest.mark.parametrize("domain", DOMAINS)
def test_R_20_88_french_writes_one_apostrophe(domain: str) -> None:
    """The straight apostrophe, as most of the French catalogues write it; never the
    typographic one beside it."""
    for _, key, s in ((d, k, s) for d, k, s in _lines("fr") if d == domain):
        assert "’" not in s, (key, s)


def test_R_20_88_french_apostrophes_are_there_to_check() -> None:
    straight = [s for _, _, s in _lines("fr") if _STRAIGHT.search(s)]
    assert len(straight) > 300


def test_R_20_87_a_seats_state_beside_a_name_is_neutral_in_russian() -> None:
    """The picture's badges and the terminal's states stand beside a player's name."""
    states = [
        (k, s)
        for d, k, s in _lines("ru")
        if k.startswith(("art.badge.", "art.alt.sitting_out", "terminal.state."))
    ]
    assert len(states) >= 8
    for key, s in states:
        gendered = [w for w in re.findall(r"[а-яё]+", s.lower()) if _GENDERED.match(w)]
        assert not gendered, (key, s)


_YOU_GENDERED = re.compile(
    r"(?<![а-яё])[Вв]ы(?: [а-яё]+)? ([а-яё]+(?:ый|ий|ой|[аеиоуыяё]л|ен|ан|ён))(?![а-яё])"
)
""""Вы" with a singular adjective or past tense ("вы первый"): polite "вы" takes the
plural ("вы готовы") but a full adjective agrees with the reader's sex."""


def test_R_20_87_a_player_spoken_to_is_given_no_sex() -> None:
    assert _YOU_GENDERED.search("Свободно место, вы первый в листе ожидания.")
    assert not _YOU_GENDERED.search("Вы уже зарегистрированы; вы играете за столом 2.")
    bad = [(k, s) for _, k, s in _lines("ru") if _YOU_GENDERED.search(s)]
    assert not bad, bad


_TYPED = re.compile(r"`[^`]*`|\b(?:NOM|alice|bob):")
"""What a player types (a command, "NOM: ACTION") is written as typed."""

_TIGHT = re.compile(r"[^\s\d/:][:;!?](?=\s|$)")
"""A French colon, semicolon, exclamation or question mark with no space before it."""


def test_R_20_88_french_spaces_its_high_punctuation() -> None:
    assert _TIGHT.search("Rien n'a été changé: voilà") and not _TIGHT.search("changé : voilà")
    lines = list(_lines("fr"))
    spaced = [s for _, _, s in lines if re.search(r" [:;!?](\s|$)", s)]
    assert len(spaced) > 400
    bad = [(k, s) for _, k, s in lines if _TIGHT.search(_TYPED.sub("", s))]
    assert not bad, bad
