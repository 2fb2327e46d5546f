"""Sample event data against api_spec.yaml, for the spec tests of each game: a data schema of
the spec accepts exactly the samples the code's marshmallow schema accepts, and the spec's
EventRequest schema predicts which posted samples get 400.

    assert_data_schema_agrees("VoidSuitDeclared", DATA_SAMPLES["VoidSuitDeclared"])
    statuses = post_samples(client, TID, DATA_SAMPLES, lambda type_name: table.stream)
"""
from __future__ import annotations

import json
from collections.abc import Callable, Mapping

from spec import (
    SPEC,
    assert_response,
    errors,
    is_valid,
    marshmallow_accepts,
    validator_for,
)

from events import default_catalogue


def assert_data_schema_agrees(type_name: str, samples: list[dict]) -> None:
    """The spec's data schema of ``type_name`` accepts exactly the ``samples`` the catalogue's
    schema accepts; the samples must hold accepted and refused data."""
    event_type = default_catalogue().get(type_name)
    schema_name = event_type.schema.__name__
    disagreements = [
        f"code {'accepts' if by_code else 'refuses'}: {sample!r} {errors(schema_name, sample)}"
        for sample in samples
        if (by_code := marshmallow_accepts(event_type, sample)) != is_valid(schema_name, sample)]
    verdicts = [marshmallow_accepts(event_type, s) for s in samples]
    assert any(verdicts) and not all(verdicts), "the samples must hold accepted and refused data"
    assert not disagreements, "\n".join(disagreements)


def post_samples(client, tid: str, samples: Mapping[str, list[dict]],
                 stream_of: Callable[[str], str]) -> set[int]:
    """Posts every sample (event type -> data) to ``stream_of(type)`` of ``tid``: each answer
    is one the spec lists, and the EventRequest schema refuses exactly the bodies answered 400.
    Returns the statuses seen."""
    validator = validator_for(SPEC["paths"]["/v1/tournaments/{tid}/events"]["post"][
        "requestBody"]["content"]["application/json"]["schema"])
    statuses, disagreements = set(), []
    for type_name, data_samples in samples.items():
        for data in data_samples:
            body = {"type": type_name, "stream": stream_of(type_name), "data": data}
            response = client.post(f"/v1/tournaments/{tid}/events", data=json.dumps(body),
                                   content_type="application/json")
            assert_response(response, "post", "/v1/tournaments/{tid}/events")
            statuses.add(response.status_code)
            if validator.is_valid(body) == (response.status_code == 400):
                disagreements.append(f"{json.dumps(body)[:160]}: {response.status_code}")
    assert not disagreements, "\n".join(disagreements)
    return statuses
