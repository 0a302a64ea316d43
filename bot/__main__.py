"""``python -m bot``: the Discord bot when DISCORD_TOKEN is set, else the local table.

``python -m bot --local [players...]`` always starts the terminal table (no token).
"""

from __future__ import annotations

import sys

from bot.config import Config


def run_discord(config: Config) -> int:
    # Imported lazily: the local table must work without discord set up.
    try:
        from cogs.app import run  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        print(
            "DISCORD_TOKEN is set, but the Discord front end (cogs/app.py, cogs/) "
            "is not installed in this version. Unset DISCORD_TOKEN or use --local "
            "to play in the terminal.",
            file=sys.stderr,
        )
        return 2
    result: int = run(config)
    return result


def main(argv: list[str]) -> int:
    if argv[:1] == ["migrate-store"]:  # python -m bot migrate-store SQLITE_FILE POSTGRES_URL
        from bot.store.migrate import main as migrate_store

        return migrate_store(argv[1:])
    from bot.local.terminal import main as local_main

    config = Config.load()
    if "--local" in argv or config.discord_token is None:
        if "--db" not in argv and config.database:
            argv = [*argv, "--db", config.database]
        if "--local" not in argv and config.discord_token is None:
            print("No DISCORD_TOKEN set: starting the local terminal table.", file=sys.stderr)
        return local_main(argv)
    return run_discord(config)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
