"""Liveness and readiness: what a load balancer or an orchestrator asks before it sends a node
requests, or restarts it.

``/v1/health`` answers as soon as the process serves: a load balancer's or Kubernetes'
liveness probe (restart the process if it stops answering). ``/v1/ready`` answers 200 only when
this node can serve every request now — the store answers a query, its schema is the one this
code writes, and the timer (where this process runs one) knows every running match's
deadlines and has fired what was due — else 503 problem+json ``not-ready`` with the reason and
every check's state: the readiness probe (send no traffic until it is 200; a node that was
ready and turns 503, its database away, gets none until it is back).
"""
from __future__ import annotations

from flask import Blueprint, jsonify

from events.store import StoreUnavailable
from rules.messages import Message

from ..auth import allows
from ..problems import Problem
from ..version import VERSION
from .common import Services, services

bp = Blueprint("health", __name__, url_prefix="/v1")

RETRY_SECONDS = 5


@bp.get("/health")
@allows("read")
def health():
    store = services().store
    return jsonify({"status": "ok", "version": VERSION, "store": type(store).__name__,
                    "last_position": store.last_position()})


@bp.get("/ready")
@allows("read")
def ready():
    checks, reasons = readiness(services())
    if reasons:
        response = Problem(503, "not-ready", reasons[0], checks=checks).response()
        response.headers["Retry-After"] = str(RETRY_SECONDS)
    else:
        response = jsonify({"status": "ready", "checks": checks})
    response.headers["Cache-Control"] = "no-store"
    return response


def readiness(s: Services) -> tuple[dict, list[Message | str]]:
    """Each check's state (``store``: ok or unreachable; ``schema``: ok, older, newer or
    unknown; ``timer``: ok, catching-up, or off where this process runs none), and why the node
    is not ready, most basic first (none: it is)."""
    checks, reasons = {}, []
    try:
        versions = s.store.schema_versions()
    except StoreUnavailable as error:
        versions = error
        reasons.append(error.text)
    except Exception as error:  # the file or the server fails otherwise: not ready either
        versions = error
        reasons.append(Message("the store cannot be read: {error}", error=_first_line(error)))
    if isinstance(versions, Exception):
        checks["store"], checks["schema"] = "unreachable", "unknown"
    else:
        checks["store"] = "ok"
        checks["schema"] = _schema_check(versions, reasons)
    checks["timer"] = _timer_check(s, reasons)
    return checks, reasons


def _schema_check(versions: tuple[int, int] | None, reasons: list) -> str:
    if versions is None or versions[0] == versions[1]:
        return "ok"
    found, wanted = versions
    if found < wanted:
        reasons.append(Message("the database's store schema is {found}, older than the {wanted} "
                               "this node writes: upgrade the database (paiju db upgrade for "
                               "PostgreSQL; a SQLite file is upgraded as paiju serve starts)",
                               found=found, wanted=wanted))
        return "older"
    reasons.append(Message("the database's store schema is {found}, newer than the {wanted} "
                           "this node knows: upgrade this node", found=found, wanted=wanted))
    return "newer"


def _timer_check(s: Services, reasons: list) -> str:
    if s.timer is None:
        return "off"  # another process fires the deadlines (paiju serve --no-timer)
    caught_up = getattr(s.timer, "caught_up", None)  # a threading.Event (service/scheduler.py)
    if caught_up is None or caught_up.is_set():
        return "ok"
    reasons.append(Message("the timer is still reading the deadlines of the running matches"))
    return "catching-up"


def _first_line(error: BaseException) -> str:
    return (str(error).strip().splitlines() or [type(error).__name__])[0]

