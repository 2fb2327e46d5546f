"""gevent's front as ``paiju serve`` runs it (service/serving.py): the request head read
without the email parser — the same fields gevent's own reading gave, a line that is no field
refused with 400 — and each answer's head written with its first bytes, one write, not two."""
from __future__ import annotations

import io
import socket

import gevent
import gevent.pywsgi
import pytest

from service.serving import MAX_FIELDS, RequestHead, Server


def head(text: bytes) -> RequestHead:
    return RequestHead.read(io.BytesIO(text))


def test_a_head_is_read_as_the_handler_asks_for_it():
    read = head(b"Host: x\r\nAccept-Language:  zh-CN,zh;q=0.9 \r\nX-Two: a\r\nx-two: b\r\n"
                b"Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}")
    assert read.status == ""
    assert read.get("accept-language") == "zh-CN,zh;q=0.9"  # any case; spaces around left out
    assert read.get("X-TWO") == "a"  # the first of two, as http.client's message gives it
    assert read.getheader("missing", "none") == "none"
    assert read.typeheader == "application/json"
    assert read.fields == [("Host", "x"), ("Accept-Language", "zh-CN,zh;q=0.9"), ("X-Two", "a"),
                           ("x-two", "b"), ("Content-Type", "application/json"),
                           ("Content-Length", "2")]
    del read["content-length"]
    assert read.get("Content-Length") is None


@pytest.mark.parametrize("bad", [
    b"Host x\r\n\r\n",                          # no colon
    b"Host: x\r\n folded: on\r\n\r\n",          # a folded continuation (RFC 9112 5.2)
    b"Bad Name: x\r\n\r\n",                     # a space in the name
    b"Host: " + b"x" * 70000 + b"\r\n\r\n",     # a line over 64 KiB
    b"".join(b"X-%d: y\r\n" % n for n in range(MAX_FIELDS + 1)) + b"\r\n",
])
def test_a_line_that_is_no_field_refuses_the_head(bad):
    assert head(bad).status


def served(app, *requests: bytes) -> tuple[list[bytes], list[bytes]]:
    """``requests`` sent one by one to ``app`` behind the front, each answer read whole; the
    answers and the front's writes."""
    writes: list[bytes] = []
    write = gevent.pywsgi.WSGIHandler._sendall

    def counted(handler, data):
        writes.append(bytes(data))
        write(handler, data)

    server = Server(("127.0.0.1", 0), app, log=None)
    server.start()
    answers = []

    def client():
        with socket.create_connection(("127.0.0.1", server.server_port), timeout=10) as sock:
            for request in requests:
                sock.sendall(request)
                answer = b""
                while not answer.endswith((b"}", b"0\r\n\r\n", b"\r\n\r\nbad request")):
                    chunk = sock.recv(65536)
                    if not chunk:
                        break
                    answer += chunk
                answers.append(answer)

    gevent.pywsgi.WSGIHandler._sendall = counted
    try:
        gevent.get_hub().threadpool.spawn(client).get(timeout=20)
    finally:
        gevent.pywsgi.WSGIHandler._sendall = write
        server.stop()
    return answers, writes


def json_app(environ, start_response):
    body = b'{"language": "%s"}' % environ.get("HTTP_ACCEPT_LANGUAGE", "").encode()
    start_response("200 OK", [("Content-Type", "application/json"),
                              ("Content-Length", str(len(body)))])
    return [body]


def test_an_answer_is_one_write_of_its_head_and_body():
    answers, writes = served(json_app, b"GET /a HTTP/1.1\r\nHost: x\r\nAccept-Language: zh\r\n\r\n",
                             b"GET /b HTTP/1.1\r\nHost: x\r\nAccept-Language: en\r\n\r\n")
    assert [a.split(b"\r\n\r\n", 1)[1] for a in answers] == [b'{"language": "zh"}',
                                                             b'{"language": "en"}']
    assert len(writes) == 2 and all(w.startswith(b"HTTP/1.1 200") and w.endswith(b"}")
                                    for w in writes)


def test_a_streamed_answer_sends_its_head_with_its_first_chunk():
    def streamed(environ, start_response):
        start_response("200 OK", [("Content-Type", "text/plain")])
        yield b"first"
        yield b"second"

    answers, writes = served(streamed, b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    assert answers[0].endswith(b"5\r\nfirst\r\n6\r\nsecond\r\n0\r\n\r\n")
    assert writes[0].startswith(b"HTTP/1.1 200") and writes[0].endswith(b"5\r\nfirst\r\n")
    assert writes[1:] == [b"6\r\nsecond\r\n", b"0\r\n\r\n"]


def test_the_fields_reach_the_app_as_gevent_gave_them():
    """The environ's HTTP_* keys: a repeated field joined with commas (cookies with "; "), a
    name with "_" left out, the content's type and length under keys of their own."""
    seen = {}

    def app(environ, start_response):
        seen.update((k, v) for k, v in environ.items()
                    if k.startswith(("HTTP_", "CONTENT_")))
        return json_app(environ, start_response)

    served(app, b"POST /e HTTP/1.1\r\nHost: x\r\nX-Two: a\r\nx-two: b\r\nCookie: c=1\r\n"
                b"Cookie: d=2\r\nX_Under: no\r\nContent-Type: application/json\r\n"
                b"Content-Length: 2\r\nAccept-Language: zh\r\n\r\n{}")
    assert seen == {"HTTP_HOST": "x", "HTTP_X_TWO": "a,b", "HTTP_COOKIE": "c=1; d=2",
                    "CONTENT_TYPE": "application/json", "CONTENT_LENGTH": "2",
                    "HTTP_ACCEPT_LANGUAGE": "zh"}


def test_a_request_with_a_malformed_field_gets_400():
    answers, _ = served(json_app, b"GET / HTTP/1.1\r\nHost: x\r\nBad Name: y\r\n\r\n")
    assert answers[0].startswith(b"HTTP/1.1 400")
