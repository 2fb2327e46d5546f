import pytest
from marshmallow import Schema, ValidationError, fields

from events import default_catalogue
from events.catalogue import Catalogue, EventType, UnknownEventType
from events.envelope import Record


def test_the_shared_tournament_events_are_in_the_catalogue_and_route_made_ones_are_not_postable():
    names = default_catalogue().names()
    for name in ("RulingRecorded", "TeamRegistered", "TeamWithdrawn", "TournamentCreated",
                 "LotsDrawn", "ResultRecorded", "MatchStarted", "CardsPlayed"):
        assert name in names
    assert default_catalogue().get("TournamentCreated").postable is False
    assert default_catalogue().get("MatchStarted").postable is False


def test_derived_facts_are_named_but_are_not_event_types():
    catalogue = default_catalogue()
    for name in ("TrickCompleted", "HandCompleted", "MatchCompleted", "ThrowFailed"):
        assert name in catalogue.derived
        with pytest.raises(UnknownEventType):
            catalogue.get(name)


def test_unknown_types_are_rejected():
    with pytest.raises(UnknownEventType):
        default_catalogue().get("TrickWon")


def test_data_is_validated_field_by_field_and_extra_fields_are_refused():
    with pytest.raises(ValidationError) as info:
        default_catalogue().get("TeamRegistered").load(
            {"team_id": "a", "name": "x", "players": "甲乙", "fee": 20})
    assert set(info.value.messages) == {"players", "fee"}


def test_stream_rules_of_a_tournament_event():
    registered = default_catalogue().get("TeamRegistered")
    assert registered.stream_error("tournament-t1", "t1") is None
    assert "tournament-t1" in registered.stream_error("tournament-t2", "t1")
    assert "tournament-t1" in registered.stream_error("match-m1", "t1")


class ScoreV2(Schema):
    points = fields.Integer(required=True)
    seat = fields.Integer(required=True)


def test_upcasting_lifts_old_data_step_by_step_without_touching_the_record():
    """The convention of events/catalogue.py: v1 {"pts"} -> v2 {"points"} -> v3 adds "seat"."""
    catalogue = Catalogue([EventType("Scored", ScoreV2, ("match",), schema_version=3, upcasters={
        1: lambda d: {"points": d["pts"]},
        2: lambda d: {**d, "seat": 0},
    })])
    old = Record(1, "e", "t", "match-m", 1, "Scored", 1, '{"pts":5}', "{}", "", "", "")
    assert catalogue.upcast(old) == {"points": 5, "seat": 0}
    assert old.data == '{"pts":5}'
    current = old._replace(schema_version=3, data='{"points":5,"seat":2}')
    assert catalogue.upcast(current) == {"points": 5, "seat": 2}


def test_a_type_must_say_how_to_lift_every_older_version():
    with pytest.raises(ValueError, match=r"\[2\]"):
        EventType("Scored", ScoreV2, ("match",), schema_version=3, upcasters={1: lambda d: d})
