"""Structured logs: one JSON object a line on the console, each carrying the request's id.

A log shipper (Docker's, journald, Loki, CloudWatch, ...) reads the lines as they are; the
request id ties an error's traceback to the access record and to what the client was told.
"""

from __future__ import annotations

import json
import logging
from contextvars import ContextVar
from datetime import UTC, datetime

from django.core.mail.backends.base import BaseEmailBackend
from django.core.mail.message import EmailMessage

# The id of the request being served in this thread (or task), "-" outside any request.
request_id: ContextVar[str] = ContextVar("request_id", default="-")

# Attributes every LogRecord has; anything else was passed with ``extra=`` and is kept, but
# for Django's request object (its method and path are in the message already).
_STANDARD = set(logging.makeLogRecord({}).__dict__) | {"message", "asctime", "request_id"}
_STANDARD |= {"request"}


class RequestIdFilter(logging.Filter):
    """Stamp each record with the current request id (handlers' filter, so every logger's
    records get it, including Django's and Celery's)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            # Django logs a 4xx answer after the middleware is done, with the request at hand.
            request = getattr(record, "request", None)
            record.request_id = getattr(request, "request_id", None) or request_id.get()
        return True


class JsonFormatter(logging.Formatter):
    """A log record as one line of JSON: time, level, logger, message, request id, any
    ``extra`` fields, and the traceback (as one string) when there is one."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", request_id.get()),
        }
        for key, value in record.__dict__.items():
            if key not in _STANDARD and not key.startswith("_"):
                entry[key] = value
        if record.exc_info:
            entry["exception"] = repr(record.exc_info[1])
            entry["traceback"] = self.formatException(record.exc_info)
        elif record.exc_text:
            entry["traceback"] = record.exc_text
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        return json.dumps(entry, default=_plain, ensure_ascii=False)


def _plain(value: object) -> str:
    """Objects json cannot write (a request, a socket) are written as their repr."""
    return repr(value)


class LoggingEmailBackend(BaseEmailBackend):
    """The development mail backend: each message is an INFO record (recipients, subject and
    body) instead of text printed to stdout, which Celery's worker reports as a WARNING and
    which would break the JSON lines."""

    logger = logging.getLogger("greatgame.mail")

    def send_messages(self, email_messages: list[EmailMessage]) -> int:
        for message in email_messages:
            self.logger.info(
                "mail to %s: %s",
                ", ".join(message.recipients()),
                message.subject,
                extra={"mail": message.message().as_string()},
            )
        return len(email_messages)


class ClientErrorFilter(logging.Filter):
    """Django's security records of a client's bad request (a Host header not allowed, a form
    too large or with too many fields) are logged at ERROR with a traceback, which mails the
    admins; the request is answered 400 and is the client's mistake. Made a WARNING without
    the traceback (a logger's filter, so no handler, the admins' mail among them, sees the
    ERROR)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno > logging.WARNING:
            record.levelno, record.levelname = logging.WARNING, "WARNING"
            record.exc_info = record.exc_text = None
        return True
