"""Shared fixtures: the in-process fake Discord (``tests/fakediscord``) and the end-to-end
harness ``h`` (a bot on a real SQLite file against it, with the per-hand leak guard)."""

import os
from typing import Any

from tests.fakediscord.fixtures import fake_discord
from tests.pgcluster import count, pg_cluster, store_url, summary_line
from tests.test_discord_e2e import h

__all__ = ["fake_discord", "h", "pg_cluster", "store_url"]


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Say which hand histories the replay tests read (tests/test_phh_replay.py); shown
    even with -q, so a run on another corpus is never mistaken for the usual one."""
    given = os.environ.get("CHIPFIST_PHH_CORPUS", "").strip()
    where = f"{given} (CHIPFIST_PHH_CORPUS)" if given else "tests/data/phh (in the repository)"
    terminalreporter.write_line(f"PHH corpus: {where}")
    postgres = summary_line()
    if postgres is not None:
        terminalreporter.write_line(postgres)


def pytest_runtest_logreport(report: Any) -> None:
    count(report)  # for the PostgreSQL line of the summary


def pytest_collection_modifyitems(items: list[Any]) -> None:
    # The PostgreSQL summary line needs to know which tests use the cluster.
    for item in items:
        item.user_properties.append(("fixtures", tuple(getattr(item, "fixturenames", ()))))
