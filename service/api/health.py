from flask import Blueprint, jsonify

from ..version import VERSION
from .common import services

bp = Blueprint("health", __name__, url_prefix="/v1")


@bp.get("/health")
def health():
    store = services().store
    return jsonify({"status": "ok", "version": VERSION, "store": type(store).__name__,
                    "last_position": store.last_position()})
