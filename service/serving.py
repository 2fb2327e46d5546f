"""How ``paiju serve`` holds its connections: a thousand live subscribers on one node.

A thread per connection (waitress) cannot hold a thousand idle subscribers: each SSE stream would
keep a worker thread for as long as it is open. So gevent's WSGI server takes every connection
on one event loop, where an idle subscriber costs a greenlet and a socket, and the app itself
runs as before in a pool of real threads (``--threads``): the store, its SQLite writer or
PostgreSQL pool, the timer and the fan-out keep the threads they are written for, and nothing is
monkey-patched. The loop only moves bytes: it reads each request's body, hands the request to a
thread, and sends the answer; a subscription (service/event_stream.py) is served from the loop
itself, waking when the fan-out says there is something for it (an ``async`` watcher, the one
gevent object that another thread may signal); it makes the frames on the loop when they need
neither the store nor a fold, and asks a thread for the others."""
from __future__ import annotations

import gc
import io
import logging
import re
import signal
import socket
from typing import Callable, Iterable, Iterator

import gevent
from gevent.event import Event
from gevent.pywsgi import WSGIHandler, WSGIServer
from gevent.threadpool import ThreadPool

from .event_stream import EventStream

log = logging.getLogger("paiju.serving")

STOP_SECONDS = 5  # how long a stopping server lets requests in flight finish
# The cyclic collector's thresholds while serving (Python's are 700, 10, 10): see settle_the_heap
GC_THRESHOLDS = (20_000, 50, 100)


class Front:
    """The WSGI app the event loop calls: ``app`` run in the thread pool."""

    def __init__(self, app, threads: int):
        self.app = app
        self.pool = ThreadPool(threads)
        self.max_body = app.config["MAX_CONTENT_LENGTH"]
        self._answering = 0  # answers begun and not yet sent whole (on the loop: no lock)
        self.all_answered = Event()
        self.all_answered.set()

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        return self._answer(environ, start_response)

    def _answer(self, environ: dict, start_response: Callable) -> Iterator[bytes]:
        """The answer, from the request to its last byte sent; counted in ``answering`` for as
        long, so that a stopping node lets it finish (gevent's server itself waits for none)."""
        self._answering += 1
        self.all_answered.clear()
        try:
            self._buffer_body(environ)
            answer: dict = {"written": []}
            body = self.pool.apply(self._call_app, (environ, answer))
            start_response(answer["status"], answer["headers"])
            stream = environ.get("paiju.event_stream")
            if environ["REQUEST_METHOD"] == "HEAD":  # the headers only, whatever the app made
                if stream is not None:
                    self.pool.apply(stream.close)
                if hasattr(body, "close"):
                    self.pool.apply(body.close)
                return
            if stream is not None:
                yield from self._subscription(stream)
            else:
                yield from self._chunks(answer["written"], body)
        finally:
            self._answering -= 1
            if not self._answering:
                self.all_answered.set()

    def _buffer_body(self, environ: dict) -> None:
        """The body is read here, on the loop that owns the socket: a thread may not. A body
        larger than the app takes is not read at all (the app answers 413 from its length)."""
        length = environ.get("CONTENT_LENGTH")
        if length and length.isdigit() and int(length) > self.max_body:
            data = b""
        else:
            data = environ["wsgi.input"].read(self.max_body + 1)
            if not length:  # chunked: the app sees the length it has to judge
                environ["CONTENT_LENGTH"] = str(len(data))
        environ["wsgi.input"] = io.BytesIO(data)

    def _call_app(self, environ: dict, answer: dict) -> Iterable[bytes]:
        """In a thread: the app's answer, read whole unless it streams (an export is then read
        chunk by chunk; a subscription is not read here at all: it has not started)."""
        def start_response(status, headers, exc_info=None):
            answer["status"], answer["headers"] = status, headers
            return answer["written"].append  # WSGI's write(), should an app use it

        result = self.app(environ, start_response)
        streamed = not any(k.lower() == "content-length" for k, _ in answer["headers"])
        if streamed or environ.get("paiju.event_stream") is not None:
            return result
        try:
            return [b"".join(result)]
        finally:
            if hasattr(result, "close"):
                result.close()

    def _chunks(self, written: list, body: Iterable[bytes]) -> Iterator[bytes]:
        yield from written
        if isinstance(body, list):
            yield from body
            return
        chunks = iter(body)
        try:
            while (chunk := self.pool.apply(next, (chunks, None))) is not None:
                yield chunk
        finally:
            if hasattr(body, "close"):
                self.pool.apply(body.close)

    def _subscription(self, stream: EventStream) -> Iterator[bytes]:
        ready = Event()
        watcher = gevent.get_hub().loop.async_()
        watcher.start(ready.set)
        stream.add_waker(watcher.send)  # thread-safe: the fan-out's thread calls it
        try:
            yield from stream.pump(ready, self.pool.apply, gevent.sleep)
        finally:
            watcher.stop()
            watcher.close()


MAX_FIELD_LINE = 65536  # as http.client reads a head
MAX_FIELDS = 100
FIELD_NAME = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")  # a token (RFC 9110 §5.1)


class RequestHead:
    """A request's header fields, as gevent's handler asks for them (``get``, ``typeheader``…):
    read line by line. gevent builds them with ``http.client.parse_headers``, which runs the
    email package's parser over each head — a third of the front's cost of a small request
    (35 of 110 µs, measured). A line that is no field (no colon, a space in the name, a folded
    continuation, which RFC 9112 §5.2 lets a server refuse) is refused: gevent answers 400."""

    def __init__(self, fields: list[tuple[str, str]], status: str = ""):
        self.fields = fields
        self.status = status  # why the head is refused; "" when it is not
        self._first = self._firsts(fields)

    @staticmethod
    def _firsts(fields: list[tuple[str, str]]) -> dict[str, str]:
        """Each name's first value, by its name in lower case: the handler asks for six
        fields a request (the length, the connection, the upgrade…)."""
        first: dict[str, str] = {}
        for key, value in fields:
            first.setdefault(key.lower(), value)
        return first

    @classmethod
    def read(cls, rfile, *args) -> "RequestHead":
        fields: list[tuple[str, str]] = []
        while True:
            line = rfile.readline(MAX_FIELD_LINE + 1)
            if line in (b"\r\n", b"\n", b""):
                return cls(fields)
            if len(line) > MAX_FIELD_LINE or len(fields) == MAX_FIELDS:
                return cls([], "header line too long or too many header fields")
            name, colon, value = line.decode("latin-1").partition(":")
            if not colon or not FIELD_NAME.fullmatch(name):
                return cls([], "malformed header field")
            fields.append((name, value.strip(" \t\r\n")))

    def get(self, name: str, default=None):
        """The first field of that name (any case), as http.client's message gives it."""
        return self._first.get(name.lower(), default)

    getheader = get

    def __delitem__(self, name: str) -> None:
        name = name.lower()
        self.fields = [(key, value) for key, value in self.fields if key.lower() != name]
        self._first.pop(name, None)

    @property
    def typeheader(self) -> str | None:
        return self.get("content-type")


class Handler(WSGIHandler):
    """gevent's request handler, lighter by what this front does not need: the head is read
    by :class:`RequestHead`; an answer's head goes out in one write with its first bytes (gevent
    writes them apart: a second system call and packet for every answer); no access line is
    formatted (the app writes each request's line itself, service/request_log.py)."""

    _held: bytes | bytearray | None = None
    _holding = False

    def MessageClass(self, rfile, *args) -> RequestHead:
        return RequestHead.read(rfile)

    def _headers(self) -> Iterator[tuple[str, str]]:
        """The fields as the environ's ``HTTP_*`` keys, from the fields read (gevent's own
        writes each field as a line again and splits it): a name with ``_`` left out, as
        gevent does, and the content's type and length, which have keys of their own."""
        for key, value in self.headers.fields:
            if "_" not in key:
                name = key.replace("-", "_").upper()
                if name not in ("CONTENT_TYPE", "CONTENT_LENGTH"):
                    yield "HTTP_" + name, value

    def log_request(self) -> None:
        pass

    def _write_with_headers(self, data) -> None:
        self._holding, self._held = True, None
        try:
            super()._write_with_headers(data)  # writes the head, then the data (if any)
        finally:
            self._holding = False
            if self._held is not None:  # no data came: the head alone
                held, self._held = self._held, None
                super()._sendall(held)

    def _sendall(self, data) -> None:
        if self._holding:
            if self._held is None:
                self._held = data  # the head: it waits for the first bytes of the answer
                return
            data, self._held = self._held + data, None
        super()._sendall(data)


class Server(WSGIServer):
    """gevent's server with :class:`Handler`, and TCP_NODELAY on every connection: without it
    a write that follows another waits for the client's delayed ACK (40 ms a request, measured
    when gevent wrote an answer's head and body apart; waitress sets it too)."""

    handler_class = Handler

    def handle(self, sock, address):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        super().handle(sock, address)


def settle_the_heap() -> None:
    """What the node holds from its start (modules, the app, the states folded at start-up) is
    moved out of the cyclic collector's sight, and the collector runs less often. A move makes
    and drops thousands of dicts and lists (its views, its JSON), nearly all freed by their
    reference counts; at Python's thresholds the collector still ran about every 700 of them,
    and each full collection walked every state the node holds: 0.12–0.14 ms of CPU a move in
    process (a tenth of a table app's read and post), 0.02 ms at these thresholds. A cycle of
    garbage still goes at the next collection of its generation."""
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def serve(app, host: str, port: int, threads: int, ready: Callable[[], None]) -> None:
    """Serve ``app`` until SIGTERM or SIGINT: then every subscription is told the node is
    shutting down (so clients reconnect elsewhere), and requests in flight may finish."""
    front = Front(app, threads)
    server = Server((host, port), front, log=None)
    server.start()  # bound: a port already taken fails here, before ``ready``
    settle_the_heap()
    ready()

    stopped = Event()

    def stop():
        front.pool.apply(app.extensions["paiju"].hub.close)  # each stream sends its end
        server.close()  # no new connections
        front.all_answered.wait(STOP_SECONDS)  # the ends sent, the answers in flight finished
        server.stop(timeout=STOP_SECONDS)
        stopped.set()

    for signum in (signal.SIGTERM, signal.SIGINT):
        gevent.signal_handler(signum, lambda: gevent.spawn(stop))
    # not serve_forever(): it returns as soon as the server closes, and the process would end
    # before the streams had sent their end
    stopped.wait()
    front.pool.kill()
