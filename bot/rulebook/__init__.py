"""The rulebook the dealer enforces, as it ships inside the package.

``RULES.md`` here is an exact copy of the repository's ``docs/RULES.md`` (the one
source of truth): ``python docs/anchor_rules.py`` gives every rule its anchor there and
refreshes this copy, and ``tests/test_rulebook.py`` fails if the two differ or a rule
lacks its anchor. Reading it through ``importlib.resources`` works the same from a
checkout, an editable install or a wheel.

Rules are the list items that start with their bold id: ``- **R-6.2** ...`` (and the
worked examples ``- **E-4** ...``). Each carries an HTML anchor, ``<a name="r-6-2"></a>``
(the form GitHub documents for custom anchors), so a link ``.../docs/RULES.md#r-6-2``
lands on it; the name has no dot so that no renderer rewrites it.
"""

from __future__ import annotations

import os
import re
from functools import cache
from importlib import resources

REPO_URL_ENV = "CHIPFIST_REPO_URL"
RULES_PATH = "docs/RULES.md"  # where the rulebook sits in the repository

# A rule's first line: "- " then perhaps its anchor, then the bold id.
_ITEM = re.compile(r'^- (?:<a (?:id|name)="[^"]*"></a>)?\*\*((?:R-\d+\.\d+|E-\d+))\b')
_ANCHOR_TAG = re.compile(r'^(- )(?:<a (?:id|name)="[^"]*"></a>)?(\*\*)')
# What a player may type: "R-6.2", "r6.2", "6.2", "R 6.2", "E-4", "e4".
_ASKED = re.compile(r"^\s*(?:(R|E)\s*-?\s*)?(\d+)(?:\s*\.\s*(\d+))?\s*$", re.IGNORECASE)


@cache
def text() -> str:
    """The whole rulebook (Markdown)."""
    return resources.files(__name__).joinpath("RULES.md").read_text(encoding="utf-8")


def anchor(rule_id: str) -> str:
    """The anchor of a rule: ``R-6.2`` -> ``r-6-2``, ``E-4`` -> ``e-4``."""
    return rule_id.lower().replace(".", "-")


def parse(markdown: str) -> dict[str, str]:
    """Every rule by id, in book order: its item's lines joined, anchor tag removed."""
    rules: dict[str, str] = {}
    current: str | None = None
    lines: list[str] = []
    for line in [*markdown.splitlines(), ""]:
        match = _ITEM.match(line)
        if current is not None and (match or not line.startswith("  ")):
            rules[current] = " ".join(lines)
            current = None
        if match:
            current = match.group(1)
            lines = [_ANCHOR_TAG.sub(r"\1\2", line).removeprefix("- ").strip()]
        elif current is not None:
            lines.append(line.strip())
    return rules


def ids_in_order(markdown: str) -> list[str]:
    """Every rule id as it appears (duplicates kept, so a check can find them)."""
    return [m.group(1) for line in markdown.splitlines() if (m := _ITEM.match(line))]


def add_anchors(markdown: str) -> str:
    """The same text with every rule carrying exactly its own anchor (idempotent: a
    missing anchor is added, a wrong one replaced, a right one kept)."""
    out = []
    for line in markdown.splitlines(keepends=True):
        match = _ITEM.match(line)
        if match:
            tag = f'<a name="{anchor(match.group(1))}"></a>'
            start = _ANCHOR_TAG.match(line)
            assert start is not None  # every rule's first line matches both patterns
            line = f"{start.group(1)}{tag}{start.group(2)}{line[start.end() :]}"
        out.append(line)
    return "".join(out)


def sort_key(rule_id: str) -> tuple[int, ...]:
    """Book order of ids by number: R-2.10 after R-2.9, E-10 after E-9."""
    return tuple(int(n) for n in re.findall(r"\d+", rule_id))


def rules() -> dict[str, str]:
    """The shipped rulebook's rules by id."""
    return parse(text())


def normalize(asked: str) -> str | None:
    """The rule id a player meant (``r6.2`` -> ``R-6.2``, ``e4`` -> ``E-4``), or None."""
    match = _ASKED.match(asked)
    if not match:
        return None
    letter, major, minor = match.groups()
    letter = (letter or ("R" if minor else "")).upper()
    if letter == "R" and minor is not None:
        return f"R-{int(major)}.{int(minor)}"
    if letter == "E" and minor is None:
        return f"E-{int(major)}"
    return None


def repository_url() -> str | None:
    """The project's repository address if the operator declared one (an http(s) URL in
    ``CHIPFIST_REPO_URL``, e.g. ``https://github.com/OWNER/chipfist``); else None."""
    url = os.environ.get(REPO_URL_ENV, "").strip().rstrip("/")
    return url if url.startswith(("https://", "http://")) else None


def link(rule_id: str | None, repo_url: str | None) -> str | None:
    """A link that lands on the rule (the whole book when ``rule_id`` is None), in a
    GitHub-style repository (``/blob/main/``); None without a repository address."""
    if repo_url is None:
        return None
    book = f"{repo_url.rstrip('/')}/blob/main/{RULES_PATH}"
    return book if rule_id is None else f"{book}#{anchor(rule_id)}"


def sections(markdown: str) -> list[str]:
    """The section titles (``§1 Table, seats, button`` ...)."""
    return [line[3:].strip() for line in markdown.splitlines() if line.startswith("## ")]
