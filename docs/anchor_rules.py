"""Give every rule in docs/RULES.md its anchor and ship the rulebook with the package.

    python docs/anchor_rules.py          # anchor docs/RULES.md, refresh bot/rulebook/RULES.md
    python docs/anchor_rules.py --check  # exit 1 if a rule lacks its anchor or the copy is stale

Idempotent: run it after any change to docs/RULES.md (a new rule gets its anchor, an
anchored rule is left alone). ``docs/RULES.md`` is the source; the package's copy is
only ever written from it. ``tests/test_rulebook.py`` runs the check.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bot import rulebook  # noqa: E402  (the repository's own package, path set above)

SOURCE = REPO / "docs" / "RULES.md"
COPY = REPO / "bot" / "rulebook" / "RULES.md"


def problems() -> list[str]:
    """What --check reports: rules without their anchor, repeated ids, a stale copy."""
    text = SOURCE.read_text(encoding="utf-8")
    out = []
    anchored = rulebook.add_anchors(text)
    lacking = [
        rule_id
        for before, after in zip(text.splitlines(), anchored.splitlines(), strict=True)
        if before != after
        for rule_id in rulebook.ids_in_order(before)
    ]
    if lacking:
        out.append(f"rules without their anchor: {', '.join(lacking)}")
    repeated = [i for i, n in Counter(rulebook.ids_in_order(text)).items() if n > 1]
    out += [f"rule id used twice: {i}" for i in repeated]
    if not COPY.is_file() or COPY.read_bytes() != SOURCE.read_bytes():
        out.append(f"{COPY.relative_to(REPO)} is not a copy of {SOURCE.relative_to(REPO)}")
    return out


def main(argv: list[str]) -> int:
    if argv == ["--check"]:
        found = problems()
        for line in found:
            print(line)
        if found:
            print("run: python docs/anchor_rules.py")
        return 1 if found else 0
    if argv:
        print(__doc__)
        return 2
    text = SOURCE.read_text(encoding="utf-8")
    anchored = rulebook.add_anchors(text)
    if anchored != text:
        SOURCE.write_text(anchored, encoding="utf-8")
    COPY.write_bytes(SOURCE.read_bytes())
    repeated = [i for i, n in Counter(rulebook.ids_in_order(anchored)).items() if n > 1]
    print(f"{len(rulebook.parse(anchored))} rules anchored; {COPY.relative_to(REPO)} refreshed")
    if repeated:
        print(f"rule ids used twice: {', '.join(repeated)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
