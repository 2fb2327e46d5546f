"""Each request's id and its log line, so that one request can be followed through the logs.

A request's id is the client's own ``X-Request-ID`` when it is well formed — 1 to 128
characters of letters, digits and ``. _ ~ : ; / + = @ -``, what proxies and tracing tools make
— so that one id follows the request from the load balancer through paiju; otherwise (none,
too long, a space, a control character) a UUIDv7 made here, and the malformed value is never
echoed. The id is answered in ``X-Request-Id``, is the ``meta.correlation_id`` of the events
the request appends (unless the client gives its own), and is written in every log line the
request's thread writes while it runs: :class:`RequestContext`, a filter of the handler, reads
it from a context variable.

``paiju serve --log-format json`` writes one JSON object a line (:class:`JsonFormatter`) —
every line has ``time``, ``level``, ``logger``, ``node``, ``request_id``, ``tournament``,
``route`` and ``message`` — and a line per request (logger ``paiju.request``) with ``method``,
``path``, ``status`` and ``duration_ms`` besides: the time from the request's arrival in the
app to its answer's headers (a subscription or an export streams on after that). The text
format, the default, is today's lines, the request's id in brackets on those written during a
request, and no line per request.
"""
from __future__ import annotations

import json
import logging
import re
import sys
import time
from contextvars import ContextVar
from datetime import datetime, timezone
from typing import NamedTuple

from flask import Flask, Response, current_app, request

from events.envelope import new_event_id

HEADER = "X-Request-Id"
WELL_FORMED = re.compile(r"[A-Za-z0-9._~:;/+=@-]{1,128}")
ENVIRON_ID = "paiju.request_id"      # the id, for the routes (service/api/common.py)
ENVIRON_STARTED = "paiju.started"    # time.perf_counter() when the app began the request
FORMATS = ("text", "json")

log = logging.getLogger("paiju.request")


class RequestInfo(NamedTuple):  # a tuple: made at every request, and cheaply
    request_id: str
    tournament: str | None   # the route's tournament id (``<tid>``), if it names one
    route: str | None        # the route's pattern, ``/v1/tournaments/<tid>/events``


_current: ContextVar[RequestInfo | None] = ContextVar("paiju_request", default=None)


def current() -> RequestInfo | None:
    """The request this thread is answering, if any."""
    return _current.get()


def request_id_of(header: str | None) -> str:
    """The client's ``X-Request-ID`` if it is well formed, else a new UUIDv7."""
    if header is not None and WELL_FORMED.fullmatch(header):
        return header
    return new_event_id()


def register(app: Flask) -> None:
    """Give each request its id, and write its line and its metrics when it is answered.

    Register it before any other ``after_request``: Flask runs those in reverse order, so this
    one runs last and sees the status the client gets (a 304, an OPTIONS' 204)."""
    app.before_request(_begin)
    app.after_request(_answered)
    app.teardown_request(_end)


def _begin() -> None:
    # the request itself, not its proxy: each look-up through ``request`` costs a context
    # variable's read, and these hooks run at every request
    asked = request._get_current_object()
    environ = asked.environ
    environ[ENVIRON_STARTED] = time.perf_counter()
    request_id = environ[ENVIRON_ID] = request_id_of(environ.get("HTTP_X_REQUEST_ID"))
    rule = asked.url_rule
    _current.set(RequestInfo(request_id, (asked.view_args or {}).get("tid"),
                             rule.rule if rule is not None else None))


def _answered(response: Response) -> Response:
    asked = request._get_current_object()
    environ = asked.environ
    if ENVIRON_ID not in environ:  # a request that failed before the app began it
        environ[ENVIRON_ID] = new_event_id()
    response.headers[HEADER] = environ[ENVIRON_ID]
    started = environ.get(ENVIRON_STARTED)
    seconds = time.perf_counter() - started if started is not None else 0.0
    rule = asked.url_rule
    route = rule.rule if rule is not None else None
    metrics = current_app.extensions.get("paiju.metrics")
    if metrics is not None:
        metrics.observe_request(asked.method, route, response, seconds)
    if log.isEnabledFor(logging.INFO):
        status = response.status_code
        log.info("%s %s %d", asked.method, asked.path, status,
                 extra={"method": asked.method, "path": asked.path, "status": status,
                        "duration_ms": round(seconds * 1000, 3)})
    return response


def _end(error: BaseException | None = None) -> None:
    _current.set(None)


# --- the handler of a serving process ---------------------------------------------------------

class RequestContext(logging.Filter):
    """Writes into each record the node's name and, during a request, the request's id,
    tournament and route."""

    def __init__(self, node: str | None = None):
        super().__init__()
        self.node = node

    def filter(self, record: logging.LogRecord) -> bool:
        info = _current.get()
        record.node = self.node
        record.request_id = info.request_id if info is not None else None
        record.tournament = info.tournament if info is not None else None
        record.route = info.route if info is not None else None
        return True


class TextFormatter(logging.Formatter):
    """Today's lines; those written during a request carry its id in brackets."""

    PLAIN = "%(asctime)s %(levelname)s %(name)s: %(message)s"
    IN_REQUEST = "%(asctime)s %(levelname)s %(name)s [%(request_id)s]: %(message)s"

    def __init__(self) -> None:
        super().__init__(self.PLAIN)
        self._in_request = logging.Formatter(self.IN_REQUEST)

    def format(self, record: logging.LogRecord) -> str:
        if getattr(record, "request_id", None):
            return self._in_request.format(record)
        return super().format(record)


class JsonFormatter(logging.Formatter):
    """One JSON object a line (non-ASCII characters escaped: a line stays valid JSON whatever
    the stream's encoding)."""

    EXTRA = ("method", "path", "status", "duration_ms")

    def format(self, record: logging.LogRecord) -> str:
        line = {
            "time": datetime.fromtimestamp(record.created, timezone.utc)
            .isoformat(timespec="milliseconds").replace("+00:00", "Z"),
            "level": record.levelname,
            "logger": record.name,
            "node": getattr(record, "node", None),
            "request_id": getattr(record, "request_id", None),
            "tournament": getattr(record, "tournament", None),
            "route": getattr(record, "route", None),
            "message": record.getMessage(),
        }
        for key in self.EXTRA:
            value = getattr(record, key, None)
            if value is not None:
                line[key] = value
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        elif record.exc_text:
            line["error"] = record.exc_text
        if record.stack_info:
            line["stack"] = self.formatStack(record.stack_info)
        return json.dumps(line, default=str)


def configure(log_format: str = "text", node: str | None = None, stream=None) -> None:
    """A serving process's logging: INFO and above on standard error, as text or as JSON (one
    object a line, one line per request among them). Nothing changes if logging is already
    set up (a test's capture)."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.addFilter(RequestContext(node))
    handler.setFormatter(JsonFormatter() if log_format == "json" else TextFormatter())
    logging.basicConfig(level=logging.INFO, handlers=[handler])
    log.setLevel(logging.INFO if log_format == "json" else logging.WARNING)
