"""Which language a reader reads, and the catalogues that say it in that language.

The words are gettext catalogues made with Babel (``make i18n``: ``pybabel extract`` from the
Python, the templates and the pages' scripts, then ``update`` and ``compile``), in
``service/translations/<language>/LC_MESSAGES/``: the domain ``messages`` for what the server
says (problems, pages' templates, the CLI), ``pages`` for what the pages' scripts say (sent to
the page with it). The English sentence is the message id, so English is the source and
Chinese the translation; a message without a translation fails ``tests/test_catalogues.py``.

A request's language: ``?lang=`` (kept in a cookie for the next page), else the cookie, else
the best of ``Accept-Language``, else the deployment's default (``paiju serve --language``,
default Chinese). Anything unknown or malformed falls through to the next, never an error."""
from __future__ import annotations

import json
import os
from functools import lru_cache
from pathlib import Path

from babel.support import NullTranslations, Translations
from flask import Flask, Response, current_app, g, has_request_context, request
from flask.json.provider import DefaultJSONProvider
from flask_babel import Babel, get_translations
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from rules.messages import Message, Sentence

from . import json_text
from .headers import vary_on

# The languages served: the code of the catalogue -> the tag of <html lang> and Content-Language.
LANGUAGES = {"zh": "zh-Hans", "en": "en"}
DEFAULT_LANGUAGE = "zh"
COOKIE = "paiju-lang"
COOKIE_SECONDS = 365 * 24 * 3600
TRANSLATIONS = Path(__file__).resolve().parent / "translations"
PAGES_DOMAIN = "pages"


def N_(text: str) -> str:
    """Marks a sentence for the catalogue where it is written, to be translated where it is
    read (the problems' titles, the glossary's notes)."""
    return text


def language_of(asked: str | None) -> str | None:
    """``zh``/``en`` for a code the reader may write (``zh-CN``, ``zh-Hans``, ``EN``), else None."""
    if not asked:
        return None
    code = asked.strip().lower().replace("_", "-").split("-")[0]
    return code if code in LANGUAGES else None


def select_language() -> str:
    """The language of this request (see the module's docstring). The cookie is a page's
    choice, kept for the next page: the API's answers, which caches keep by URL and
    Accept-Language (Vary), follow ``?lang=`` and the header only."""
    kept = request.cookies.get(COOKIE) if _is_page() else None
    for asked in (_asked_in_url(), kept):
        if language_of(asked):
            return language_of(asked)
    return best_accepted(request.headers.get("Accept-Language")) or current_app.config["LANGUAGE"]


@lru_cache(maxsize=512)
def best_accepted(header: str | None) -> str | None:
    """The best of LANGUAGES by an ``Accept-Language`` header, or None. Remembered: a hall's
    tablets send the same few headers with every request."""
    if not header:
        return None
    try:
        return parse_accept_header(header, LanguageAccept).best_match(list(LANGUAGES))
    except Exception:  # a header werkzeug cannot read is no header: the default
        return None


def _asked_in_url() -> str | None:
    """``?lang=``, if the URL has it (``args.get`` raises and catches an exception when it has
    not: a cost every request paid twice)."""
    args = request.args
    return args["lang"] if "lang" in args else None


def _is_page() -> bool:
    return request.path == "/" or request.path.startswith(("/pages", "/desk"))


def language() -> str:
    """The language of the current request, chosen once."""
    if "language" not in g:
        g.language = select_language()
    return g.language


def gettext(text: str) -> str:
    return get_translations().gettext(text)


def said(view: object) -> object:
    """``view`` as this request's reader gets it in a JSON answer: plain JSON, each message and
    sentence said in the reader's language (for a page that renders a view itself)."""
    return json.loads(current_app.json.dumps(view))


def say(message: Message | str) -> str:
    """A message (or a sentence of the catalogue) in the current request's language."""
    if isinstance(message, Message):
        return message.translated(gettext)
    return gettext(message)


@lru_cache(maxsize=None)
def catalogue(code: str, domain: str = "messages") -> NullTranslations:
    """A language's compiled catalogue, outside a request (the CLI, the pages' scripts)."""
    return Translations.load(str(TRANSLATIONS), [code], domain)


def page_messages(code: str) -> dict[str, str]:
    """Every sentence of the pages' scripts in ``code``: the page is sent with it."""
    found = catalogue(code, PAGES_DOMAIN)
    return {key: text for key, text in getattr(found, "_catalog", {}).items()
            if isinstance(key, str) and key and text}


def cli_language(asked: str | None = None, environ=os.environ) -> str:
    """The CLI's language: ``--language``, else ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` (the
    first that is set, as gettext reads them): Chinese for a Chinese locale, English for any
    other (C, POSIX, de_DE: a reader who did not ask for Chinese); with no locale at all, the
    default, Chinese. A script that reads the output says ``--language en``."""
    if asked:
        return language_of(asked) or DEFAULT_LANGUAGE
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        if environ.get(name):
            return "zh" if language_of(environ[name]) == "zh" else "en"
    return DEFAULT_LANGUAGE


class SayingJSONProvider(DefaultJSONProvider):
    """JSON whose sentences (a view's ``reason``, a :class:`Message`, a :class:`Sentence`) are
    said in the reader's language; outside a request (a log line, a stream's frame), in
    English."""

    ensure_ascii = False  # names in Chinese stay readable

    def dumps(self, obj, **kwargs) -> str:
        if kwargs == {"separators": (",", ":")}:  # every answer (and problem) outside debug
            return self._compact(obj).decode()
        return super().dumps(self._said(obj), **kwargs)

    def response(self, *args, **kwargs) -> Response:
        """Flask's JSON answer, its bytes made once: Flask's own makes text of the JSON, and
        the answer encodes that text again (two copies of every view, at every read)."""
        if (self.compact is None and self._app.debug) or self.compact is False:
            return super().response(*args, **kwargs)  # indented, for a developer
        body = self._compact(self._prepare_response_obj(args, kwargs)) + b"\n"
        return self._app.response_class(body, mimetype=self.mimetype)

    def _compact(self, obj) -> bytes:
        return json_text.dumps(self._said(obj), sort_keys=self.sort_keys, default=self.default)

    @staticmethod
    def _said(obj):
        """``obj`` with its sentences said in the request's language (English: as it is)."""
        if has_request_context() and language() != "en":
            return Saying(get_translations().gettext).said(obj)
        return obj

    @staticmethod
    def default(value):
        if isinstance(value, Message):
            return say(value) if has_request_context() else str(value)
        return DefaultJSONProvider.default(value)


_PLAIN = (str, int, float, bool, type(None))


class Saying:
    """A JSON-ready value with each :class:`Sentence` in it said through ``gettext``: a
    sentence is text already — its English — so a JSON encoder never asks about it. What holds
    no sentence is returned as it is, not copied; a message met again (a replay repeats its
    hand's words at every step) is said once."""

    def __init__(self, gettext):
        self.gettext = gettext
        self.known: dict[Message, str] = {}

    def said(self, value):
        kind = type(value)
        if kind in _PLAIN:
            return value
        if kind is Sentence:
            found = self.known.get(value.message)
            if found is None:
                found = self.known[value.message] = value.message.translated(self.gettext)
            return found
        if kind is dict:
            changed = {key: new for key, item in value.items()
                       if (new := self.said(item)) is not item}
            return {**value, **changed} if changed else value
        if kind is list or kind is tuple:
            items = [self.said(item) for item in value]
            return items if any(new is not old for new, old in zip(items, value)) else value
        return value


def init_app(app: Flask) -> None:
    """Flask-Babel on the app with the request's language; ``?lang=`` kept in a cookie, and
    every answer says its language (Content-Language)."""
    app.config.setdefault("LANGUAGE", DEFAULT_LANGUAGE)
    app.json = SayingJSONProvider(app)
    if app.config["LANGUAGE"] not in LANGUAGES:
        raise ValueError(f"LANGUAGE must be one of {', '.join(LANGUAGES)}, "
                         f"not {app.config['LANGUAGE']!r}")
    Babel(app, locale_selector=language, default_locale=app.config["LANGUAGE"],
          default_translation_directories=str(TRANSLATIONS))

    @app.context_processor
    def _languages():
        return {"language": language(), "html_lang": LANGUAGES[language()],
                "languages": LANGUAGES}

    @app.after_request
    def _say_which(response):
        if "language" in g or response.mimetype in ("text/html", "application/problem+json"):
            response.headers["Content-Language"] = LANGUAGES[language()]
            vary_on(response, "Accept-Language")
        asked = language_of(_asked_in_url())
        if asked and request.cookies.get(COOKIE) != asked:
            response.set_cookie(COOKIE, asked, max_age=COOKIE_SECONDS, samesite="Lax",
                                secure=request.is_secure, httponly=True)
        return response
