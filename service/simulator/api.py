"""The simulators' HTTP client: JSON on one kept-alive connection, reading as a table app should
(conditional reads), and the refusal it raises (:class:`ApiError`)."""
from __future__ import annotations

import http.client
import json
from collections import OrderedDict
from urllib.parse import urlsplit

HELD_ANSWERS = 16  # the answers the client keeps for conditional reads


class ApiError(RuntimeError):
    def __init__(self, method: str, path: str, status: int, body: object):
        super().__init__(f"{method} {path} → {status}: {body}")
        self.status, self.body = status, body


class Api:
    """A small JSON client on one kept-alive connection. It reads as a table app should: a
    ``GET`` it has made before carries the answer's ``ETag`` in ``If-None-Match``, and a
    ``304 Not Modified`` gives back the answer it already holds."""

    def __init__(self, url: str, token: str | None = None):
        self.url, self.token = url, token
        parts = urlsplit(url)
        # the bots read the API's machine fields; what they keep of a refusal (a failed table's
        # reason, in the log) is in English whatever language the deployment speaks
        self.auth = {**({"Authorization": f"Bearer {token}"} if token else {}),
                     "Accept-Language": "en"}
        self.host, self.port = parts.hostname, parts.port or 80
        self.conn = http.client.HTTPConnection(self.host, self.port, timeout=60)
        self.requests = self.not_modified = 0
        # path -> (ETag, the answer), the paths read last: a table's reads, not every page
        self._held: OrderedDict[str, tuple[str, object]] = OrderedDict()

    def call(self, method: str, path: str, body: object | None = None,
             conditional: bool = True) -> dict:
        """``conditional=False``: a GET without ``If-None-Match`` (a clock read, whose ETag
        leaves out the countdown, is read afresh for the server's present)."""
        payload = None if body is None else json.dumps(body, ensure_ascii=False).encode()
        headers = {**self.auth, **({"Content-Type": "application/json"} if payload else {})}
        held = self._held.get(path) if method == "GET" and conditional else None
        if held is not None:
            headers["If-None-Match"] = held[0]
        response, data = self._send(method, path, payload, headers)
        self.requests += 1
        if response.status == 304 and held is not None:
            self.not_modified += 1
            return held[1]
        parsed = json.loads(data) if data else None
        if response.status >= 400:
            raise ApiError(method, path, response.status, parsed)
        if method == "GET" and (etag := response.getheader("ETag")):
            self._hold(path, etag, parsed)
        return parsed

    def _hold(self, path: str, etag: str, answer: object) -> None:
        self._held[path] = (etag, answer)
        self._held.move_to_end(path)
        if len(self._held) > HELD_ANSWERS:
            self._held.popitem(last=False)

    def _send(self, method: str, path: str, payload: bytes | None, headers: dict):
        for attempt in (1, 2):  # a kept-alive connection the server closed: open it again
            try:
                self.conn.request(method, path, payload, headers)
                response = self.conn.getresponse()
                return response, response.read()
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                self.conn.close()
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def pages(self, path: str, name: str) -> list:
        """Every item of a paged read (``name``: its list), following ``next``."""
        items, url = [], path
        while url:
            page = self.call("GET", url)
            items += page[name]
            url = page["next"]
        return items

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> Api:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()
