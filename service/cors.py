"""Cross-origin reads for a club's own site, which shows its tournaments from the browser.

A club's web page on another origin may read the public reads (the bracket, the standings, a
finished hand, the subscriptions) from the browser, if the deployment names that origin
(``CORS_ORIGINS``, ``paiju serve --cors-origin``). Only routes whose action is ``read`` answer
cross-origin, only to GET (and its preflight), and without credentials: an ``Authorization``
header is not among the headers a preflight allows, so no token ever leaves the service's own
pages. Anything else gets no CORS header, which browsers take as a refusal."""
from __future__ import annotations

from flask import Flask, Response, request

from .headers import vary_on

ALLOWED_HEADERS = "Last-Event-ID, If-None-Match"
EXPOSED_HEADERS = "ETag, Link, Location, Retry-After, X-Request-Id"
PREFLIGHT_SECONDS = 600


def register(app: Flask) -> None:
    @app.after_request
    def _cross_origin(response: Response) -> Response:
        if not app.config["CORS_ORIGINS"]:
            return response
        vary_on(response, "Origin")  # a shared cache keeps the club's copy apart from others'
        origin = request.headers.get("Origin")
        if origin not in app.config["CORS_ORIGINS"] or not _a_read(app):
            return response
        if request.method == "OPTIONS":
            if request.headers.get("Access-Control-Request-Method") != "GET":
                return response
            response.headers["Access-Control-Allow-Methods"] = "GET"
            response.headers["Access-Control-Allow-Headers"] = ALLOWED_HEADERS
            response.headers["Access-Control-Max-Age"] = str(PREFLIGHT_SECONDS)
        elif request.method not in ("GET", "HEAD"):
            return response
        response.headers["Access-Control-Allow-Origin"] = origin
        response.headers["Access-Control-Expose-Headers"] = EXPOSED_HEADERS
        return response


def _a_read(app: Flask) -> bool:
    view = app.view_functions.get(request.endpoint or "")
    return getattr(view, "paiju_action", None) == "read"
