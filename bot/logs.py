"""One logging configuration for the whole process (stdlib ``logging``).

:func:`configure` is called once at start by ``python -m bot``: level from
``CHIPFIST_LOG_LEVEL``, plain lines (``CHIPFIST_LOG_FORMAT=plain``, the default) or one
JSON object per line (``json``), on stderr. discord.py's loggers propagate to the same
root handler (the bot is started with ``log_handler=None``-style manual start, so
discord.py installs no handler of its own).

Extra fields given with ``extra={...}`` (``error_id``, ``table``, ...) appear in both
formats: as ``key=value`` after a plain line, as keys of the JSON object.
"""

from __future__ import annotations

import json
import logging
import sys
import time
from typing import Any, TextIO

# Attributes every LogRecord has; anything else was passed with extra=.
_STANDARD = set(vars(logging.makeLogRecord({}))) | {"message", "asctime", "taskName"}


def extras(record: logging.LogRecord) -> dict[str, Any]:
    return {k: v for k, v in vars(record).items() if k not in _STANDARD}


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, extras, traceback."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key, value in extras(record).items():
            out[key] = value if isinstance(value, str | int | float | bool | None) else str(value)
        if record.exc_info:
            out["traceback"] = self.formatException(record.exc_info)
        if record.stack_info:
            out["stack"] = self.formatStack(record.stack_info)
        return json.dumps(out, ensure_ascii=False)


class PlainFormatter(logging.Formatter):
    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)-7s %(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        more = extras(record)
        if more:
            head, sep, tail = line.partition("\n")
            tags = " ".join(f"{k}={v}" for k, v in more.items())
            line = f"{head} [{tags}]{sep}{tail}"
        return line


HANDLER_NAME = "chipfist"


def configure(level: str = "INFO", fmt: str = "plain", stream: TextIO | None = None) -> None:
    """Install the one handler on the root logger (replacing an earlier call's)."""
    root = logging.getLogger()
    for h in list(root.handlers):
        if h.get_name() == HANDLER_NAME:
            root.removeHandler(h)
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.set_name(HANDLER_NAME)
    handler.setFormatter(JsonFormatter() if fmt == "json" else PlainFormatter())
    root.addHandler(handler)
    root.setLevel(level.upper())
    # discord.py logs through "discord.*": same handler, same level; its per-request
    # DEBUG lines are too many for INFO, so "discord.http" stays at WARNING unless DEBUG.
    for name in ("discord", "discord.http", "discord.gateway", "discord.client"):
        logging.getLogger(name).handlers.clear()
        logging.getLogger(name).propagate = True
    logging.getLogger("discord").setLevel(level.upper())
    if level.upper() != "DEBUG":
        logging.getLogger("discord.http").setLevel(logging.WARNING)
