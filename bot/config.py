"""Settings from the environment (and a ``.env`` file beside the working directory).

Only what the process needs to start: the Discord token and the database path. Table
settings live with each table (``bot.table.settings``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path


def load_dotenv(path: str | Path = ".env") -> dict[str, str]:
    """Read KEY=VALUE lines; the real environment wins over the file."""
    values: dict[str, str] = {}
    p = Path(path)
    if not p.is_file():
        return values
    for raw in p.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        key = key.removeprefix("export ").strip()
        values[key] = value.strip().strip("'\"")
    return values


@dataclass(frozen=True, slots=True)
class Config:
    discord_token: str | None
    database: str

    @classmethod
    def load(cls, env: dict[str, str] | None = None, dotenv: str | Path = ".env") -> Config:
        merged = {**load_dotenv(dotenv), **(env if env is not None else dict(os.environ))}
        token = merged.get("DISCORD_TOKEN", "").strip() or None
        return cls(discord_token=token, database=merged.get("CHIPFIST_DB", "chipfist.sqlite3"))
