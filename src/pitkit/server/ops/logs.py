"""The server's logs: lines of text or JSON objects, with no secret in them.

`config` is the logging set-up `server_config` gives uvicorn: pitkit's loggers and
uvicorn's (its errors and its access log) write to stderr through one handler, each
record one line of text or one JSON object (`pitkit serve --log-format`).

Tokens reach the server in a hello's JSON, in `Authorization: Bearer` headers and in
POST /join's body (an invitation link's ``#token=`` never does: browsers keep the
fragment). No log call of pitkit's quotes a header or a body, nor does uvicorn's
access log, but what a client chose still reaches some lines: the path and query of
a request (the access log), a socket's request headers and every frame (websockets
logs them at DEBUG: a hello with its token, an update with a seat's cards), and an
exception's message quoting a message's text. So every line is scrubbed as it is
written: a frame is shown by its kind and size only, and anything shaped like a
token (`tokens.new_token`: 24 characters of URL-safe base64 standing alone) becomes
``[redacted]``, wherever it is in the line, traceback included. The price: a
24-character name in a traceback is hidden too.
"""

from __future__ import annotations

import json
import logging
import re
from datetime import UTC, datetime
from typing import Any

from websockets.frames import Frame

__all__ = ["FORMATS", "JsonFormatter", "TextFormatter", "config", "redact"]

FORMATS = ("text", "json")

TOKEN = re.compile(r"(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{24}(?![A-Za-z0-9_-])")
"""A secret token as `tokens.new_token` makes them: `secrets.token_urlsafe(18)`."""

# What every LogRecord has; anything else on one was passed as `extra` (but uvicorn's
# color_message, the message again with colours).
_STANDARD = {
    *vars(logging.LogRecord("", 0, "", 0, "", None, None)),
    *("message", "asctime", "color_message"),
}


def redact(text: str) -> str:
    """`text` with everything shaped like a token replaced by ``[redacted]``."""
    return TOKEN.sub("[redacted]", text)


class _Scrubbed(logging.Formatter):
    """A formatter whose lines hold no token and no WebSocket frame's content."""

    def format(self, record: logging.LogRecord) -> str:
        if isinstance(record.args, tuple) and any(isinstance(a, Frame) for a in record.args):
            record.args = tuple(_frame(a) if isinstance(a, Frame) else a for a in record.args)
        return redact(self.line(record))

    def line(self, record: logging.LogRecord) -> str:
        """The record as one line (with its traceback), before scrubbing."""
        return super().format(record)


def _frame(frame: Frame) -> str:
    return f"{frame.opcode.name} [{len(frame.data)} bytes]"


class TextFormatter(_Scrubbed):
    """``time level logger: message``, then any traceback."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")


class JsonFormatter(_Scrubbed):
    """One JSON object a line: time (UTC, ISO 8601), level, logger, message, the
    record's extras, and its traceback (``exception``) if any."""

    def line(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        out.update((k, v) for k, v in vars(record).items() if k not in _STANDARD)
        if record.exc_info:
            out["exception"] = self.formatException(record.exc_info)
        if record.stack_info:
            out["stack"] = self.formatStack(record.stack_info)
        return json.dumps(out, default=str)


def config(log_format: str = "text", level: str = "info") -> dict[str, Any]:
    """The `logging.config.dictConfig` set-up (uvicorn's `log_config`) for `log_format`,
    "text" or "json", with pitkit's loggers at `level` (uvicorn sets its own)."""
    if log_format not in FORMATS:
        raise ValueError(f"the log format is one of {', '.join(FORMATS)}, not {log_format!r}")
    quiet = {"handlers": ["default"], "propagate": False}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"text": {"()": TextFormatter}, "json": {"()": JsonFormatter}},
        "handlers": {
            "default": {
                "class": "logging.StreamHandler",
                "formatter": log_format,
                "stream": "ext://sys.stderr",
            }
        },
        "loggers": {
            "pitkit": {**quiet, "level": level.upper()},
            "uvicorn": {**quiet, "level": "INFO"},
            "uvicorn.access": quiet,
        },
    }
