"""The desk: pages for the officials who run a tournament day in the browser (the organiser,
the referees, the rule committee), and what every desk page shares.

Like the read-only pages (pages.py), a desk page's HTML holds no data: its script reads and
writes through the JSON API, so every rule is judged once, by the server. A desk page is for the
roles of the action ``desk`` only; :func:`desk_gate` checks that before the page is made:

* nobody signed in (no session cookie, or one that has ended): a browser is sent to the sign-in
  page (``/desk/signin?next=…``), anything else gets the 401 problem;
* a session or token of another role (a player, a table, an auditor) or of another tournament:
  403, as a page for a browser, as a problem otherwise.

Every desk blueprint (desk_setup.py, desk_rounds.py, desk_print.py) uses :func:`desk_gate` and
:func:`_page`, extends ``desk_base.html`` (its scripts in the block ``desk_scripts``, after
common.js and desk.js) and sends pages.py's headers (``bp.after_request(_harden)``)."""
from __future__ import annotations

import functools
from urllib.parse import urlencode

from flask import Blueprint, redirect, render_template, request

from ..auth import allows, require
from ..i18n import say
from ..problems import Problem
from .common import require_tournament
from .pages import PAGES_DIR, _harden, _words

bp = Blueprint("desk", __name__, url_prefix="/desk", template_folder=str(PAGES_DIR / "templates"))
bp.after_request(_harden)  # this host's scripts and styles only, no frames, no form posts


def desk_gate(view):
    """Only the desk's roles reach ``view`` (of the route's ``tid``, if it has one): see the
    module's docstring for what the others get."""
    @functools.wraps(view)
    def gated(*args, **kwargs):
        try:
            require("desk", kwargs.get("tid"))
        except Problem as refused:
            if refused.status not in (401, 403) or not _a_browser():
                raise
            return _refused_page(refused)
        return view(*args, **kwargs)
    gated.paiju_action = "desk"
    return gated


def _a_browser() -> bool:
    """A browser asking for a page (its navigation names text/html), not a program (which
    names JSON, or nothing, or */*)."""
    return any(value == "text/html" and quality > 0 for value, quality in request.accept_mimetypes)


def _refused_page(refused: Problem):
    if refused.status == 401:
        here = request.path + (f"?{request.query_string.decode()}" if request.query_string
                               else "")
        return redirect(f"{bp.url_prefix}/signin?{urlencode({'next': here})}", code=302)
    page = render_template("desk_denied.html", tid=None, words=_words(),
                           detail=say(refused.message))
    return page, 403


def _page(template: str, tid: str | None, **ids) -> str:
    """A desk page: the tournament ``tid`` must exist (404 otherwise); ``ids`` go to the
    template as they are (the page's data attributes: ids of the URL, never tournament data)."""
    if tid is not None:
        require_tournament(tid)
    return render_template(template, tid=tid, words=_words(), **ids)


@bp.get("/signin")
@allows("read")
def sign_in_page():
    """Sign in with a one-time code: from the link's fragment (``#code=ABCD-EFGH``, which the
    browser never sends to a server) or typed in; then on to ``next`` (a desk or pages path)."""
    return _page("desk_signin.html", None)


@bp.get("/")
@desk_gate
def home_page():
    """Who is signed in, for which tournament; links to its desk pages and public pages; a form
    to issue sign-in codes (organisers)."""
    return _page("desk_home.html", None)
