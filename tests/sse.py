"""Reading Server-Sent Events in tests, as an EventSource would: frames of ``id``, ``event`` and
``data`` lines ended by a blank line; ``retry`` and comment lines are the stream's own."""
from __future__ import annotations

import http.client
import json
from dataclasses import dataclass
from typing import Iterable, Iterator


@dataclass
class Frame:
    id: int | None
    event: str | None
    data: dict

    @property
    def position(self) -> int:
        assert self.id is not None, self
        return self.id


def frames(chunks: Iterable[bytes]) -> Iterator[Frame]:
    """The frames of a stream's bytes (heartbeats and ``retry`` left out)."""
    buffer = b""
    for chunk in chunks:
        buffer += chunk
        while b"\n\n" in buffer:
            block, buffer = buffer.split(b"\n\n", 1)
            fields: dict[str, str] = {}
            for line in block.decode().split("\n"):
                if line.startswith(":") or not line:
                    continue
                name, _, value = line.partition(": ")
                fields[name] = value
            if "data" in fields:
                yield Frame(int(fields["id"]) if "id" in fields else None, fields.get("event"),
                            json.loads(fields["data"]))


def take(stream: Iterator[Frame], count: int) -> list[Frame]:
    return [next(stream) for _ in range(count)]


class HttpSubscriber:
    """A subscription over real HTTP (http.client): ``frames`` until the server ends it."""

    def __init__(self, port: int, path: str, token: str | None = None,
                 last_event_id: int | None = None, timeout: float = 20):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        headers = {"Accept": "text/event-stream"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        if last_event_id is not None:
            headers["Last-Event-ID"] = str(last_event_id)
        self.conn.request("GET", path, headers=headers)
        self.response = self.conn.getresponse()
        self.frames = frames(self._chunks())

    def _chunks(self) -> Iterator[bytes]:
        while chunk := self.response.read1(65536):
            yield chunk

    def close(self) -> None:
        self.conn.close()
