"""Read-only pages for the browser: a hand replay for the rule committee, the dispute list, the
bracket, the standings and the groups of a tournament; the home page
listing the tournaments, and the team event's rounds.

The HTML holds no data, only the ids in the URL: the page's script reads the JSON API with the
bearer token the viewer gave it (in the URL fragment ``#token=…``, which browsers never send to
the server, then kept in the tab's sessionStorage and sent as ``Authorization``), so every card
shown is one the token may see. The pages are therefore public like any ``read``; a tournament
that does not exist is 404 as everywhere else. Scripts, styles and their assets are files of
this package (service/pages/): nothing is loaded from another host, and the Content-Security-
Policy forbids it."""
from __future__ import annotations

from pathlib import Path

from flask import Blueprint, current_app, render_template, request, send_from_directory

from rules.glossary import terms
from rules.messages import Message

from ..auth import allows
from ..i18n import LANGUAGES, language, page_messages
from ..problems import Problem
from .common import require_tournament

PAGES_DIR = Path(__file__).resolve().parent.parent / "pages"
STATIC_DIR = PAGES_DIR / "static"

bp = Blueprint("pages", __name__, url_prefix="/pages", template_folder=str(PAGES_DIR / "templates"))
# The home page lives at the site's root, outside /pages: a blueprint of its own.
home = Blueprint("home", __name__, template_folder=str(PAGES_DIR / "templates"))

# Only this host's scripts and styles, and fetches back to it (the page reads the API there).
CONTENT_SECURITY_POLICY = ("default-src 'none'; script-src 'self'; style-src 'self'; "
                           "img-src 'self' data:; connect-src 'self'; base-uri 'none'; "
                           "form-action 'none'; frame-ancestors 'none'")
# The pages a club's own site may show in a frame, if the deployment names the site
# (FRAME_ANCESTORS, ``paiju serve --frame-ancestor``): the public bracket and standings.
EMBEDDABLE = frozenset({"pages.bracket_page", "pages.standings_page"})


def content_security_policy() -> str:
    ancestors = current_app.config.get("FRAME_ANCESTORS") or ()
    if request.endpoint not in EMBEDDABLE or not ancestors:
        return CONTENT_SECURITY_POLICY
    return CONTENT_SECURITY_POLICY.replace("frame-ancestors 'none'",
                                           "frame-ancestors 'self' " + " ".join(ancestors))


@bp.after_request
@home.after_request
def _harden(response):
    response.headers["Content-Security-Policy"] = content_security_policy()
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response


@home.get("/")
@allows("read")
def home_page():
    """The tournaments (GET /v1/tournaments: the archived left out), each with its pages."""
    return _page("home.html", None)


@bp.get("/")
@bp.get("/tournaments")
@allows("read")
def tournaments_page():
    """The same list as the home page, where a visitor of /pages/ would look for it."""
    return _page("home.html", None)


def _page(template: str, tid: str | None, **ids) -> str:
    if tid is not None:
        require_tournament(tid)
    return render_template(template, tid=tid, words=_words(), **ids)


def _words() -> dict:
    """What the page's scripts say, in the reader's language: the sentences of the catalogue
    ``pages`` and the games' terms (rules/glossary.py)."""
    code = language()
    return {"language": code, "tag": LANGUAGES[code], "messages": page_messages(code),
            "terms": terms(code)}


@bp.get("/tournaments/<tid>")
@allows("read")
def tournament_page(tid: str):
    """The tournament: its entrants, its matches with a link to each hand, and its pages."""
    return _page("tournament.html", tid)


@bp.get("/tournaments/<tid>/matches/<mid>/hands/<int(min=1):n>/replay")
@allows("read")
def replay_page(tid: str, mid: str, n: int):
    """Hand ``n`` of match ``mid`` replayed event by event (a position in ``#pos=P``)."""
    return _page("replay.html", tid, mid=mid, n=n)


@bp.get("/tournaments/<tid>/disputes")
@allows("read")
def disputes_page(tid: str):
    return _page("disputes.html", tid)


@bp.get("/tournaments/<tid>/bracket")
@allows("read")
def bracket_page(tid: str):
    return _page("bracket.html", tid)


@bp.get("/tournaments/<tid>/standings")
@allows("read")
def standings_page(tid: str):
    return _page("standings.html", tid)


@bp.get("/tournaments/<tid>/groups")
@allows("read")
def groups_page(tid: str):
    return _page("groups.html", tid)


@bp.get("/tournaments/<tid>/rounds")
@allows("read")
def rounds_page(tid: str):
    """The team event's rounds (GET …/rounds): each round's pairings and results."""
    return _page("rounds.html", tid)


@bp.get("/assets/<name>")
@allows("read")
def asset(name: str):
    """The pages' scripts and style sheet (files of this package, never another host's)."""
    if not (STATIC_DIR / name).is_file():
        raise Problem(404, "not-found", Message("no asset {name!r}",
                                                name=name))
    return send_from_directory(STATIC_DIR, name, max_age=300)
