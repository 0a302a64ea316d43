"""Liveness for supervisors: a small health file, ``python -m bot health``, sd_notify.

With ``CHIPFIST_HEALTH_FILE`` set, the running bot rewrites that file every
``CHIPFIST_HEALTH_INTERVAL`` seconds with a timestamp and the gateway state (atomically:
a temporary file renamed over it). ``python -m bot health`` exits 0 when the file is fresh
and the gateway connected, 1 otherwise, with one line saying which: Docker's HEALTHCHECK
runs it. Under systemd (``Type=notify``), :func:`sd_notify` sends ``READY=1`` once the
gateway is up and ``WATCHDOG=1`` on every healthy tick, so ``WatchdogSec=`` restarts a bot
that hangs. Both are off unless configured; neither needs a package.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CONNECTED = "connected"
STANDBY = "standby"
"""A sharded process holding no shard (a standby, or one whose shards moved): alive, its
lease loop running, nothing to connect until it takes a shard over. Healthy."""


def write(path: str | os.PathLike[str], gateway: str, **more: Any) -> None:
    """Replace the health file with {time, gateway, pid, ...more}."""
    target = Path(path)
    data = {"time": time.time(), "gateway": gateway, "pid": os.getpid(), **more}
    # A temporary name of its own per write: two writes of one process may overlap (a
    # gateway change while the periodic tick writes, each from a worker thread), and a
    # shared name let one rename the other's file away (FileNotFoundError, seen in CI).
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        os.fchmod(fd, 0o644)  # readable as before (mkstemp makes it private)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(json.dumps(data))
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


@dataclass(frozen=True, slots=True)
class Verdict:
    ok: bool
    line: str


def check(path: str | os.PathLike[str], max_age: float, now: float | None = None) -> Verdict:
    """Is the bot alive (file younger than ``max_age`` s) and its gateway connected?"""
    now = time.time() if now is None else now
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        stamp = float(data["time"])
        gateway = str(data["gateway"])
    except FileNotFoundError:
        return Verdict(False, f"unhealthy: no health file at {path} (is the bot running?)")
    except (ValueError, KeyError, TypeError, OSError) as exc:
        return Verdict(False, f"unhealthy: cannot read {path}: {exc}")
    age = now - stamp
    if age > max_age:
        return Verdict(False, f"unhealthy: last update {age:.0f} s ago (limit {max_age:.0f} s)")
    if gateway == STANDBY:
        return Verdict(True, f"healthy: standby, holding no shard, updated {age:.0f} s ago")
    if gateway != CONNECTED:
        return Verdict(False, f"unhealthy: gateway {gateway} ({age:.0f} s ago)")
    tables = data.get("tables")
    extra = f", {tables} open tables" if tables is not None else ""
    return Verdict(True, f"healthy: gateway connected, updated {age:.0f} s ago{extra}")


def sd_notify(message: str, env: dict[str, str] | None = None) -> bool:
    """Send ``message`` to systemd's notify socket, if there is one (False if not)."""
    address = (env if env is not None else os.environ).get("NOTIFY_SOCKET", "")
    if not address:
        return False
    if address.startswith("@"):  # an abstract socket
        address = "\0" + address[1:]
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
            sock.connect(address)
            sock.sendall(message.encode())
        return True
    except OSError:
        return False


def watchdog_interval(env: dict[str, str] | None = None) -> float | None:
    """Half of systemd's WatchdogSec (``WATCHDOG_USEC``), or None without a watchdog."""
    usec = (env if env is not None else os.environ).get("WATCHDOG_USEC", "")
    try:
        return int(usec) / 2_000_000 if usec else None
    except ValueError:
        return None
