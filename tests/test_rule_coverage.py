"""Every rule of docs/RULES.md is named by a test that checks it (issue 12, "Proof").

A test *names* a rule when its function name carries the id in snake case (``r7_3``
in ``test_r7_3_incomplete_all_in_does_not_reopen``, or ``R_7_3``; ``e4`` for E-4) or its docstring
carries it as written in the rulebook (``R-7.3``, ``E-4``). Only ``test_*`` functions
of ``tests/**/test_*.py`` count; comments, helpers and module docstrings do not. A test
marked ``xfail`` records a rule the code breaks: it does not count as checking the rule,
and such rules are listed in ``KNOWN_BROKEN`` so that a fix (the xfail then fails,
being strict) and a new breakage are both seen.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from bot import rulebook

TESTS = Path(__file__).resolve().parent
RULES = TESTS.parent / "docs" / "RULES.md"

KNOWN_BROKEN: set[str] = set()
"""Rules the code breaks, each named by a strict xfail test. Empty: the suite carries no
xfail (R-8.4, the last entry, was fixed); ``test_no_test_is_marked_xfail`` keeps it so."""

_NAME = re.compile(r"(?:^|_)(r_?|e)(\d+)(?:_(\d+))?(?=_|$)", re.IGNORECASE)
_DOC = re.compile(r"\b(R-\d+\.\d+|E-\d+)\b")


def _is_xfail(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    return any("xfail" in ast.unparse(d) for d in node.decorator_list)


def ids_named(node: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    """The rule ids a test function names (its name, its docstring)."""
    found = set(_DOC.findall(ast.get_docstring(node) or ""))
    for prefix, major, minor in _NAME.findall(node.name):
        letter = prefix[0].lower()
        if letter == "r" and minor:
            found.add(f"R-{int(major)}.{int(minor)}")
        elif letter == "e" and not minor:
            found.add(f"E-{int(major)}")
    return found


def named_by_tests() -> tuple[set[str], set[str]]:
    """(ids named by a test that runs and must pass, ids named only by xfail tests)."""
    checked: set[str] = set()
    broken: set[str] = set()
    for path in sorted(TESTS.rglob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith(
                "test_"
            ):
                (broken if _is_xfail(node) else checked).update(ids_named(node))
    return checked, broken - checked


def test_every_rule_in_the_rulebook_is_named_by_a_test() -> None:
    """Lists the rule ids (R-x.y) that no passing test names; there must be none."""
    ids = [i for i in rulebook.parse(RULES.read_text(encoding="utf-8")) if i.startswith("R-")]
    assert len(ids) >= 92
    checked, _ = named_by_tests()
    unnamed = [i for i in ids if i not in checked and i not in KNOWN_BROKEN]
    assert not unnamed, f"{len(unnamed)} of {len(ids)} rules named by no test: {unnamed}"


def test_every_worked_example_is_named_by_a_test() -> None:
    ids = [i for i in rulebook.parse(RULES.read_text(encoding="utf-8")) if i.startswith("E-")]
    checked, _ = named_by_tests()
    assert [i for i in ids if i not in checked] == []


def test_known_broken_rules_are_exactly_those_with_an_xfail_test() -> None:
    """A rule the code breaks is named by a strict xfail test; when it is fixed, the
    xfail fails and the id leaves KNOWN_BROKEN (and must then have a passing test)."""
    checked, broken = named_by_tests()
    assert broken == KNOWN_BROKEN
    assert not (KNOWN_BROKEN & checked)


def test_no_test_is_marked_xfail() -> None:
    """No test of the suite is an expected failure: a broken rule is fixed, not recorded."""
    marked = []
    for path in sorted(TESTS.rglob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and _is_xfail(node):
                marked.append(f"{path.name}::{node.name}")
            elif isinstance(node, ast.Attribute) and node.attr == "xfail":
                marked.append(f"{path.name}:{node.lineno}")
    assert marked == []


def test_naming_detection() -> None:
    """The detector reads names and docstrings, not comments or near misses."""
    tree = ast.parse(
        "def test_r7_3_r16_3_x():\n    '''Also R-10.8 and E-4.'''\n"
        "def test_r8_r11_y():\n    pass  # R-1.1\n"
        "def test_e12_z():\n    pass\n"
    )
    fns = [n for n in tree.body if isinstance(n, ast.FunctionDef)]
    assert ids_named(fns[0]) == {"R-7.3", "R-16.3", "R-10.8", "E-4"}
    assert ids_named(fns[1]) == set()
    assert ids_named(fns[2]) == {"E-12"}


def test_a_name_carries_a_rule_in_either_case() -> None:
    """``test_r7_3_...`` and ``test_R_7_3_...`` both name R-7.3; ``e2e`` names no example."""
    tree = ast.parse(
        "def test_r7_3_x(): pass\ndef test_R_19_26_y(): pass\ndef test_e2e_z(): pass\n"
    )
    named = [ids_named(n) for n in tree.body if isinstance(n, ast.FunctionDef)]
    assert named == [{"R-7.3"}, {"R-19.26"}, set()]
