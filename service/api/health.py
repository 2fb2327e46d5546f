from flask import Blueprint, jsonify

from ..auth import allows
from ..version import VERSION
from .common import services

bp = Blueprint("health", __name__, url_prefix="/v1")


@bp.get("/health")
@allows("read")
def health():
    store = services().store
    return jsonify({"status": "ok", "version": VERSION, "store": type(store).__name__,
                    "last_position": store.last_position()})
