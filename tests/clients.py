"""Bearer tokens for tests: every client a test makes acts with a token, as a real one would."""
from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient


def token_for(app: Flask, role: str, tournament: str | None = None, match: str | None = None,
              seat: int | None = None, **options) -> str:
    secret, _ = app.extensions["paiju"].tokens.create(role, tournament, match, seat, **options)
    return secret


def bearer(secret: str) -> dict:
    return {"Authorization": f"Bearer {secret}"}


def client_as(app: Flask, role: str, tournament: str | None = None, match: str | None = None,
              seat: int | None = None) -> FlaskClient:
    """A test client whose every request carries a new token of ``role``."""
    client = app.test_client()
    secret = token_for(app, role, tournament, match, seat)
    client.environ_base["HTTP_AUTHORIZATION"] = f"Bearer {secret}"
    # the rules' tests read the English the rules are written in; a deployment answers in
    # Chinese whoever asks for nothing (tests/api/test_refusals_in_both_languages.py)
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client


def admin_client(app: Flask) -> FlaskClient:
    return client_as(app, "admin")


def hand_results(client: FlaskClient, tid: str, mid: str, at: int | None = None,
                 limit: int | None = None, headers: dict | None = None) -> list[dict]:
    """Every result row of a match's finished hands, page after page of ``GET …/hands`` (the
    match read carries only ``last_result``), read with ``headers``."""
    url = f"/v1/tournaments/{tid}/matches/{mid}/hands"
    query = {k: v for k, v in (("at", at), ("limit", limit)) if v is not None}
    rows = []
    while url is not None:
        response = client.get(url, query_string=query, headers=headers or {})
        assert response.status_code == 200, response.get_json()
        page = response.get_json()
        rows += page["hands"]
        url, query = page["next"], None
    return rows
