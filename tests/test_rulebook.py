"""The rulebook ships with the bot and ``/rules`` quotes it.

``docs/RULES.md`` is the one source; ``bot/rulebook/RULES.md`` is its copy inside the
package (``python docs/anchor_rules.py`` writes it). ``/rules R-6.2`` answers with the
rule's own text and, when the operator declared the repository (CHIPFIST_REPO_URL), a
link to the rule's anchor in ``docs/RULES.md``.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from bot import rulebook
from cogs.table_cog import rules_answer
from tests.test_discord_e2e import Harness, players

REPO = Path(__file__).resolve().parents[1]
SOURCE = REPO / "docs" / "RULES.md"


def test_packaged_rulebook_is_an_exact_copy_of_docs_rules_md() -> None:
    """One source of truth: the copy the package ships is byte-for-byte docs/RULES.md
    (after editing the rulebook, run ``python docs/anchor_rules.py``)."""
    copy = REPO / "bot" / "rulebook" / "RULES.md"
    assert copy.read_bytes() == SOURCE.read_bytes(), "run: python docs/anchor_rules.py"
    assert rulebook.text() == SOURCE.read_text(encoding="utf-8")


def test_rulebook_is_package_data() -> None:
    """A wheel carries the rulebook: pyproject declares it as the package's data."""
    with (REPO / "pyproject.toml").open("rb") as f:
        data = tomllib.load(f)["tool"]["setuptools"]["package-data"]
    assert data["bot.rulebook"] == ["RULES.md"]


def test_every_rule_id_appears_once() -> None:
    ids = rulebook.ids_in_order(SOURCE.read_text(encoding="utf-8"))
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)
    assert len([i for i in ids if i.startswith("R-")]) >= 92


def test_add_anchors_is_idempotent_and_fixes_wrong_anchors() -> None:
    book = (
        "## §1 Table\n\n"
        "- **R-1.1** First line\n  continued.\n"
        '- <a id="wrong"></a>**R-1.2 Named** Second.\n'
        '- <a name="r-1-3"></a>**R-1.3** Third.\n'
        "- not a rule\n"
    )
    once = rulebook.add_anchors(book)
    assert '- <a name="r-1-1"></a>**R-1.1** First line' in once
    assert '- <a name="r-1-2"></a>**R-1.2 Named** Second.' in once
    assert '- <a name="r-1-3"></a>**R-1.3** Third.' in once
    assert "- not a rule\n" in once
    assert rulebook.add_anchors(once) == once
    assert rulebook.parse(once) == rulebook.parse(book)
    assert rulebook.parse(once)["R-1.1"] == "**R-1.1** First line continued."


@pytest.mark.parametrize(
    ("asked", "meant"),
    [
        ("R-6.2", "R-6.2"),
        ("r6.2", "R-6.2"),
        ("6.2", "R-6.2"),
        (" R 10 . 8", "R-10.8"),
        ("e4", "E-4"),
        ("E-13", "E-13"),
        ("R-6", None),
        ("4", None),
        ("six", None),
    ],
)
def test_rule_ids_as_players_type_them(asked: str, meant: str | None) -> None:
    assert rulebook.normalize(asked) == meant


def test_rules_answer_quotes_the_rule_and_links_only_when_declared() -> None:
    """R-6.2 by id: its own text from the book; no address is made up."""
    expected = rulebook.parse(SOURCE.read_text(encoding="utf-8"))["R-6.2"]
    answer = rules_answer("r6.2", None)
    assert answer == expected
    assert "String raise" in answer and "http" not in answer
    linked = rules_answer("R-6.2", "https://example.org/owner/chipfist")
    assert (
        linked == expected + "\n<https://example.org/owner/chipfist/blob/main/docs/RULES.md#r-6-2>"
    )


def test_rules_answer_refuses_an_unknown_id_with_what_is_allowed() -> None:
    answer = rules_answer("R-99.1", None)
    assert "There is no rule R-99.1" in answer
    assert "R-1.1 to R-" in answer and "E-1 to E-" in answer
    assert "**x**" not in rules_answer("**x**", None)  # no markdown from the asker


def test_repository_url_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CHIPFIST_REPO_URL", raising=False)
    assert rulebook.repository_url() is None
    monkeypatch.setenv("CHIPFIST_REPO_URL", "https://github.com/o/chipfist/")
    assert rulebook.repository_url() == "https://github.com/o/chipfist"
    monkeypatch.setenv("CHIPFIST_REPO_URL", "not a url")
    assert rulebook.repository_url() is None


async def test_slash_rules_quotes_the_rule_and_links_its_anchor(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """/rules through the fake Discord: the rule's text; with the repository declared, a
    link whose anchor exists in docs/RULES.md."""
    user = players(h.fake)[0]
    monkeypatch.delenv("CHIPFIST_REPO_URL", raising=False)
    await h.slash(user, "rules", rule="R-6.2")
    said = h.last_ephemeral(user)
    assert said.startswith("**R-6.2** String raise: a call followed by an added raise is a call.")
    assert "http" not in said
    monkeypatch.setenv("CHIPFIST_REPO_URL", "https://github.com/owner/chipfist")
    await h.slash(user, "rules", rule="e4")
    said = h.last_ephemeral(user)
    assert said.startswith("**E-4** Fixed limit 5")
    link = re.search(r"<(https://[^>]+)>", said)
    assert link is not None
    assert link.group(1) == "https://github.com/owner/chipfist/blob/main/docs/RULES.md#e-4"
    assert '<a name="e-4"></a>**E-4**' in SOURCE.read_text(encoding="utf-8")  # it lands
    await h.slash(user, "rules")
    said = h.last_ephemeral(user)
    assert "§8 Side pots" in said and "/rules R-6.2" in said
    await h.slash(user, "rules", rule="R-42.1")
    assert "There is no rule R-42.1" in h.last_ephemeral(user)


def test_every_rule_has_its_anchor() -> None:
    """Every rule (R-x.y) and worked example (E-n) in docs/RULES.md carries its anchor,
    so a link ``docs/RULES.md#r-6-2`` lands on it. New rules: ``python
    docs/anchor_rules.py`` adds theirs."""
    text = SOURCE.read_text(encoding="utf-8")
    ids = rulebook.ids_in_order(text)
    lacking = [i for i in ids if f'- <a name="{rulebook.anchor(i)}"></a>**{i}' not in text]
    assert not lacking, f"rules without an anchor: {lacking}; run: python docs/anchor_rules.py"
    assert rulebook.add_anchors(text) == text


def test_anchor_script_check_runs_clean() -> None:
    """``python docs/anchor_rules.py --check`` passes: anchors present, copy current."""
    proc = subprocess.run(
        [sys.executable, "docs/anchor_rules.py", "--check"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
