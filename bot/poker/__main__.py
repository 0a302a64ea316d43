"""``python -m bot.poker replay PATH… [--check]``: replay PHH hand histories.

Prints one JSON object per hand. With ``--check`` it exits 1 if any hand fails or ends
with stacks other than the file's ``finishing_stacks``.
"""

from __future__ import annotations

import argparse
import json
import sys

from bot.poker.phh import iter_paths, replay_file


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.poker")
    sub = parser.add_subparsers(dest="command", required=True)
    rp = sub.add_parser("replay", help="replay PHH files or folders")
    rp.add_argument("paths", nargs="+")
    rp.add_argument("--check", action="store_true", help="exit 1 on any mismatch")
    args = parser.parse_args(argv)
    bad = 0
    for path in iter_paths(args.paths):
        result = replay_file(path)
        print(json.dumps(result, ensure_ascii=False), flush=True)
        if args.check and (not result["ok"] or result.get("match") is False):
            bad += 1
    if args.check and bad:
        print(f"{bad} hand(s) failed the check", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
