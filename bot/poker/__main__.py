"""``python -m bot.poker replay PATH… [--check]``: replay PHH hand histories.

Prints one JSON object per hand. With ``--check`` it exits 1 if any hand fails or ends
with stacks other than the file's ``finishing_stacks``. A path that is not there (or a
folder without ``.phh`` files) is named on stderr, and the exit code is 2.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from bot.poker.phh import iter_paths, replay_file


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.poker")
    sub = parser.add_subparsers(dest="command", required=True)
    rp = sub.add_parser("replay", help="replay PHH files or folders")
    rp.add_argument("paths", nargs="+")
    rp.add_argument("--check", action="store_true", help="exit 1 on any mismatch")
    args = parser.parse_args(argv)
    bad = 0
    missing = 0
    for name in args.paths:
        problem = _unreadable(Path(name))
        if problem:
            print(f"python -m bot.poker replay: {name}: {problem}", file=sys.stderr)
            missing += 1
    for path in iter_paths(args.paths):
        if _unreadable(path):
            continue  # named above
        result = replay_file(path)
        print(json.dumps(result, ensure_ascii=False), flush=True)
        if args.check and (not result["ok"] or result.get("match") is False):
            bad += 1
    if missing:
        return 2
    if args.check and bad:
        print(f"{bad} hand{'s' if bad != 1 else ''} failed the check", file=sys.stderr)
        return 1
    return 0


def _unreadable(path: Path) -> str:
    """Why ``path`` cannot be replayed, in words ("" when it can)."""
    if path.is_dir():
        return "" if any(path.rglob("*.phh")) else "a folder with no .phh files in it"
    if not path.exists():
        return "no such file or folder"
    if not path.is_file():
        return "not a file"
    if not os.access(path, os.R_OK):
        return "cannot be read (permission denied)"
    return ""


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
