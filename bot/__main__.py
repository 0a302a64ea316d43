"""``python -m bot``: the Discord bot, the terminal table, and the operator's commands.

* ``python -m bot`` — the Discord bot when DISCORD_TOKEN is set. Without a token: the
  terminal table when stdin is a terminal, otherwise one line saying so and exit 2 (a
  service without a token must fail, not play a table on end-of-input and restart).
* ``python -m bot --local [players...]`` — always the terminal table (players are named
  after ``--local`` only: without it a word is a command, and an unknown one is refused
  in one line with exit 2).
* ``python -m bot --tournament sng|mtt [options] [players...]`` — a tournament at the
  terminal (robots take the seats of those not named; ``--robots``: every seat).
* ``python -m bot doctor`` — check the configuration; print the settings (token masked)
  and the invite URL.
* ``python -m bot backup PATH`` — a consistent copy of the live database (SQLite or
  PostgreSQL) into a new SQLite file.
* ``python -m bot restore BACKUP`` — a new database (``CHIPFIST_DB`` or ``--db``) made
  from a backup.
* ``python -m bot health`` — exit 0 if the running bot's health file is fresh and its
  gateway connected (Docker's HEALTHCHECK).
* ``python -m bot --force-sync`` — the bot, syncing its slash commands even if the
  command tree did not change.
"""

from __future__ import annotations

import logging
import sys
from typing import TextIO

from bot.config import Config, settings_error, token_problem, unknown_names
from bot.logs import configure

NO_TOKEN = "DISCORD_TOKEN is not set; run `python -m bot --local` for a terminal table"
USAGE = (
    "usage: python -m bot [--local [players...]"
    " | --tournament sng|mtt [--robots] [options] [players...]"
    " | doctor | backup PATH | restore BACKUP | health"
    " | migrate-store SQLITE_FILE POSTGRES_URL | --force-sync]\n"
    "the terminal table's and tournament's options: python -m bot --local --help"
)

COMMANDS_WORDS = (
    "the commands are --local [players...], --tournament sng|mtt, doctor, backup PATH, "
    "restore BACKUP, health, "
    "migrate-store SQLITE_FILE POSTGRES_URL and --force-sync (python -m bot --help)"
)

log = logging.getLogger("bot")


def run_discord(config: Config, *, force_sync: bool = False) -> int:
    from cogs.app import run

    result: int = run(config, force_sync=force_sync)
    return result


def load_config(err: TextIO) -> Config | None:
    try:
        return Config.load()
    except Exception as exc:  # pydantic's ValidationError: one line per bad variable
        print(f"bad configuration: {settings_error(exc)}", file=err)
        return None


def main(argv: list[str], stdin: TextIO | None = None, err: TextIO | None = None) -> int:
    stdin = stdin or sys.stdin
    err = err or sys.stderr
    if argv[:1] == ["migrate-store"]:  # python -m bot migrate-store SQLITE_FILE POSTGRES_URL
        from bot.migrate_store import main as migrate_store

        return migrate_store(argv[1:])
    if argv[:1] == ["doctor"]:
        from bot.doctor import main as doctor_main

        return doctor_main(argv[1:])
    if argv[:1] == ["backup"]:
        from bot.backup import main as backup_main

        return backup_main(argv[1:])
    if argv[:1] == ["restore"]:
        from bot.backup import restore_main

        return restore_main(argv[1:])
    if argv[:1] == ["health"]:
        from bot.doctor import health_main

        return health_main(argv[1:])
    if argv[:1] in (["-h"], ["--help"]):
        print(USAGE, file=err)
        return 0
    # A tournament at the terminal is the terminal too (``--tournament sng|mtt``).
    terminal = "--local" in argv or "--tournament" in argv
    unknown = [] if terminal else [a for a in argv if a != "--force-sync"]
    if unknown:
        # Checked before anything starts: a typo is never a player's name at a terminal
        # table, nor a bot that starts and ignores it.
        word = "option" if unknown[0].startswith("-") else "command"
        print(f"python -m bot: unknown {word} {unknown[0]!r}; {COMMANDS_WORDS}", file=err)
        return 2
    config = load_config(err)
    if config is None:
        return 2
    local = terminal
    if local or config.discord_token is None:
        if not local and not stdin.isatty():
            print(NO_TOKEN, file=err)
            return 2
        for line in unknown_names():
            print(f"warning: {line}", file=err)
        from bot.local.terminal import main as local_main

        if "--db" not in argv and config.database:
            argv = [*argv, "--db", config.database]
        if "--lang" not in argv and config.lang:
            argv = [*argv, "--lang", config.lang]
        if not local:
            print("No DISCORD_TOKEN set: starting the local terminal table.", file=err)
        return local_main([a for a in argv if a != "--force-sync"])
    configure(config.log_level, config.log_format, discord_wire=config.log_discord_wire)
    unknown = unknown_names()
    problem = token_problem(config.discord_token)
    if unknown or problem:
        # Refuse rather than start on a default the operator did not mean (a misspelt
        # CHIPFIST_DB would open a fresh, empty database).
        for line in [*unknown, *([problem] if problem else [])]:
            log.error("refusing to start: %s", line)
        return 2
    return run_discord(config, force_sync="--force-sync" in argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
