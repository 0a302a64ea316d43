"""`python -m bench NAME`: run one reproducible benchmark and print its figures.

Each benchmark is a module `bench/NAME.py` with a `main(argv: list[str]) -> int`.
Figures are printed one per line as `figure: value unit`.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys

import bench


def _names() -> list[str]:
    return sorted(
        m.name for m in pkgutil.iter_modules(bench.__path__) if not m.name.startswith("_")
    )


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in _names():
        print("usage: python -m bench NAME [options]; NAME is one of: " + ", ".join(_names()))
        return 2
    module = importlib.import_module(f"bench.{argv[0]}")
    result: int = module.main(argv[1:])
    return result


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
