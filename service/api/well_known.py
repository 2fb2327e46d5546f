"""Public documents of the deployment: the key that signs its exports."""
from flask import Blueprint, jsonify

from ..auth import allows
from ..problems import Problem
from .common import services

bp = Blueprint("well_known", __name__, url_prefix="/.well-known")


@bp.get("/paiju-export-key")
@allows("read")
def export_key():
    """The public key an auditor verifies an export with (``paiju verify-export``)."""
    signer = services().signer
    if signer is None:
        raise Problem(404, "not-found", "this deployment has no export key yet: "
                                        "run `paiju keys init`")
    return jsonify(signer.public_key_document())
