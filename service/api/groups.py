"""Groups of four (tournaments.md T-8, T-7): the stages and their tables at any position. The
server's draw of a stage's tables (``POST …/draws``), the teams of a drawn table (``POST
…/matches``) and the ranking by coins (``GET …/standings``) are the match routes', made by the
application (service/application) as the format asks."""
from __future__ import annotations

from flask import Blueprint

from projections import groups

from ..auth import allows
from .common import read_at

bp = Blueprint("groups", __name__, url_prefix="/v1/tournaments/<tid>")


@bp.get("/groups")
@allows("read")
def get_groups(tid: str):
    """The stages of a groups tournament as of ``at``: tables, seats, coins, places,
    qualifiers (T-10.3, T-10.4)."""
    return read_at(tid, groups.groups_view)
