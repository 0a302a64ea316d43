"""The README tells the truth (issue 13): it links only to files in the repository,
names only paths and commands that exist, claims only games and formats the code has,
and gives exactly the two set-up commands, the second of which `.ci/run` runs."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from bot.poker.rules import Limit, Rules
from bot.poker.variants import VARIANTS

REPO = Path(__file__).resolve().parents[1]
README = (REPO / "README.md").read_text(encoding="utf-8")


def _tracked() -> set[str]:
    """Files in the repository (committed or staged), so a local stray file cannot make
    a link look good."""
    out = subprocess.run(
        ["git", "ls-files"], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout
    return set(out.splitlines())


def test_readme_links_only_to_files_in_the_repository() -> None:
    links = re.findall(r"\]\(([^)]+)\)", README)
    assert links, "the README links the rulebook"
    tracked = _tracked()
    for target in links:
        assert not target.startswith(("http:", "https:", "/", "..")), target
        path = target.split("#")[0].rstrip("/")
        assert path in tracked or any(f.startswith(path + "/") for f in tracked), target
    assert "docs/RULES.md" in links


def test_readme_names_only_paths_that_exist() -> None:
    tracked = _tracked()
    paths = [p for p in re.findall(r"`([\w./-]+/[\w./-]*)`", README) if not p.startswith("python")]
    assert "bot/poker/" in paths and "tests/data/phh/" in paths
    for p in paths:
        p = p.rstrip("/")
        assert p in tracked or any(f.startswith(p + "/") for f in tracked), p
    assert "shared/" not in README


def test_readme_claims_only_games_and_formats_that_exist() -> None:
    """Each game the README names is a variant the engine deals; declare, Guts and two
    to win are settings; a format (freezeout, tournament) is claimed only if code for it
    exists; the slash commands it names are registered."""
    games = {
        "hold'em": "holdem",
        "short deck": "shortdeck",
        "Omaha": "omaha",
        "stud": "stud",
        "razz": "razz",
        "draw": "draw5",
        "lowball": "27single",
        "hi-lo split": "omaha8",
        "Guts": "guts",
    }
    for word, code_name in games.items():
        assert word in README and code_name in VARIANTS, word
    assert "hi-lo declare" in README
    assert Rules(variant="omaha8", declare="simultaneous").declare == "simultaneous"
    assert "two-to-win" in README
    Rules(limit=Limit.FIXED, pot_system="two_to_win")  # refused if it did not exist
    code = "\n".join(
        p.read_text(encoding="utf-8") for d in ("bot", "cogs") for p in (REPO / d).rglob("*.py")
    ).lower()
    for fmt in ("freezeout", "tournament", "sit-and-go", "sit & go"):
        if fmt in README.lower():
            exists = fmt in code
            assert exists, f"the README claims {fmt}s; the code has none"
    for command in re.findall(r"`/(\w+)", README):
        exists = f'name="{command}"' in code
        assert exists, f"/{command} is not a command"


def test_readme_has_exactly_the_two_set_up_commands_and_ci_runs_the_second() -> None:
    blocks = re.findall(r"```sh\n(.*?)```", README, re.S)
    assert len(blocks) == 2
    run, test = (b.strip() for b in blocks)
    assert run == (
        "python3 -m venv .venv && . .venv/bin/activate && pip install -e . && python -m bot"
    )
    assert test.endswith("pip install -e '.[dev]' && python -m pytest")
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert "/^Run the tests:/" in ci and "README.md" in ci  # reads the command from here
    assert README.index("Run the tests:") < README.index(test)
