"""One logging configuration for the whole process (stdlib ``logging``).

:func:`configure` is called once at start by ``python -m bot``: level from
``CHIPFIST_LOG_LEVEL``, plain lines (``CHIPFIST_LOG_FORMAT=plain``, the default) or one
JSON object per line (``json``), on stderr. discord.py's loggers propagate to the same
root handler (the bot is started with ``log_handler=None``-style manual start, so
discord.py installs no handler of its own).

Extra fields given with ``extra={...}`` (``error_id``, ``table``, ...) appear in both
formats: as ``key=value`` after a plain line, as keys of the JSON object.

Secrets stay out of the log, whatever the level. discord.py's wire loggers
(:data:`WIRE_LOGGERS`) log every request body and gateway payload at DEBUG: hole cards in
a DM's content, interaction tokens in every callback URL. They are capped at INFO even
when ``CHIPFIST_LOG_LEVEL=DEBUG``, unless ``CHIPFIST_LOG_DISCORD_WIRE=1`` opts in (for
debugging the protocol itself, knowing the log then holds private cards). Every line,
from any logger, also goes through :class:`Redact`: the bot token, interaction and
webhook tokens (in URLs and in ``"token"`` fields) are replaced by ``***``.
"""

from __future__ import annotations

import json
import logging
import re
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
            # exc_text: the traceback as Redact left it (tokens masked).
            out["traceback"] = record.exc_text or self.formatException(record.exc_info)
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

WIRE_LOGGERS = (
    "discord.http",
    "discord.gateway",
    "discord.webhook.async_",
    "discord.webhook.sync",
    "discord.client",
    "discord.shard",
)
"""discord.py's loggers that log request bodies, URLs with tokens or gateway payloads at
DEBUG: never below INFO unless the operator opts in (``CHIPFIST_LOG_DISCORD_WIRE``)."""

_SECRETS = (
    # A bot token: the bot's id in base64, a timestamp, an HMAC.
    re.compile(r"[A-Za-z0-9_-]{16,40}\.[A-Za-z0-9_-]{4,10}\.[A-Za-z0-9_-]{20,}"),
    # An interaction's or a webhook's token in a URL path.
    re.compile(r"(?<=/interactions/)(\d+/)[^/\s'\"?]+"),
    re.compile(r"(?<=/webhooks/)(\d+/)[^/\s'\"?]+"),
    # A "token" field of a payload (JSON or a Python dict's repr), and "Bot <token>".
    re.compile(r"""(?<=['"]token['"]: ['"])()[^'"]+"""),
    re.compile(r"(?<=Bot )()[A-Za-z0-9_.-]{20,}"),
)


def redact(text: str) -> str:
    """``text`` with every token replaced by ``***`` (what precedes it in the match kept)."""
    for pattern in _SECRETS:
        if pattern.groups:
            text = pattern.sub(lambda m: m.group(1) + "***", text)
        else:
            text = pattern.sub("***", text)
    return text


class Redact(logging.Filter):
    """Tokens out of every record's message (and traceback) before it is formatted."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        clean = redact(message)
        if clean != message:
            record.msg, record.args = clean, None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        return True


def configure(
    level: str = "INFO",
    fmt: str = "plain",
    stream: TextIO | None = None,
    *,
    discord_wire: bool = False,
) -> None:
    """Install the one handler on the root logger (replacing an earlier call's).
    ``discord_wire``: let discord.py's wire loggers log at DEBUG too (they log private
    cards then; tokens are still redacted)."""
    root = logging.getLogger()
    for h in list(root.handlers):
        if h.get_name() == HANDLER_NAME:
            root.removeHandler(h)
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.set_name(HANDLER_NAME)
    handler.setFormatter(JsonFormatter() if fmt == "json" else PlainFormatter())
    handler.addFilter(Redact())
    root.addHandler(handler)
    level = level.upper()
    root.setLevel(level)
    # discord.py logs through "discord.*": same handler, same level, except its wire
    # loggers: their DEBUG lines carry request bodies (hole cards) and gateway payloads,
    # and "discord.http"'s INFO lines are one per request, too many: WARNING below DEBUG.
    logging.getLogger("discord").handlers.clear()
    logging.getLogger("discord").propagate = True
    logging.getLogger("discord").setLevel(level)
    for name in WIRE_LOGGERS:
        logger = logging.getLogger(name)
        logger.handlers.clear()
        logger.propagate = True
        if level == "DEBUG":
            logger.setLevel(logging.DEBUG if discord_wire else logging.INFO)
        else:
            logger.setLevel(logging.NOTSET)
    if level != "DEBUG":
        logging.getLogger("discord.http").setLevel(logging.WARNING)
