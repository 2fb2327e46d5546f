"""Matches as use cases (service/application), without Flask: a match started from its draw
(a knockout's, a groups table's, a team event's table) or from the organiser's teams, the chief
referee's call of a round's time (SJ3-12.1) and a pair's lateness (T-6.6) — each with what it
refuses, and nothing stored then."""
from __future__ import annotations

import pytest
from application_log import application, fours, log_of, pairs, singles, tournament

from rules import RuleViolation
from service.appending import EventRuleViolation, TournamentNotFound
from service.application import Invalid, MatchExists, Refusal

TID = "t-2006"


def started(app, match_id: str, **given) -> dict:
    return app.start_match(TID, match_id, **given).records[0].data_dict


def unchanged(app, call, error):
    before = log_of(app, TID)
    with pytest.raises(error) as raised:
        call()
    assert log_of(app, TID) == before
    return raised.value


# --- starting a match ----------------------------------------------------------------------

def test_t2_1_a_knockout_match_starts_with_the_teams_its_draw_gave_it():
    app = application()
    tournament(app, TID, "SJ2", "knockout", pairs("east", "west"), match={"maxHands": 3})
    drawn = app.draw(TID).records[0].data_dict["matches"][0]["teams"]
    data = started(app, "R1-1", settings={"maxHands": 5}, meta={"actor": "organiser"})
    assert data["teams"] == dict(zip("AB", drawn)) and data["round"] == 1
    first, second = drawn   # SJ2-1.2: side A at seats 0 and 2
    assert data["seats"] == [f"{first}甲", f"{second}甲", f"{first}乙", f"{second}乙"]
    assert data["settings"] == {"maxHands": 5}   # the organiser's over the tournament's
    existing = unchanged(app, lambda: app.start_match(TID, "R1-1"), MatchExists)
    assert str(existing.text) == "match 'R1-1' has already started"


def test_t2_1_a_knockout_match_not_drawn_is_refused():
    app = application()
    tournament(app, TID, "SJ2", "knockout", pairs("east", "west"))
    violation = unchanged(app, lambda: app.start_match(TID, "R1-1"), RuleViolation)
    assert violation.rule == "T-2.1"


def test_t8_1_a_groups_match_seats_the_players_its_table_was_drawn_with():
    app = application()
    tournament(app, TID, "MJO", "groups", singles(8))
    table = app.draw(TID).records[0].data_dict["tables"][1]
    data = started(app, table["match_id"])
    assert data["teams"] == {str(seat): p for seat, p in enumerate(table["players"])}
    assert data["seats"] == [singles(8)[p][0] for p in table["players"]]
    assert data["round"] == 1


def test_t6_4_a_team_event_table_seats_one_pair_of_each_team():
    app = application()
    tournament(app, TID, "SJ3", "swiss-teams", fours("T1", "T2"), rounds=3)
    meeting = app.pair_round(TID).records[0].data_dict["matches"][0]
    data = started(app, meeting["match_id"] + "b")
    first, second = meeting["teams"]
    assert data["teams"] == {"A": first, "B": second} and data["round"] == 1
    assert data["seats"] == [f"{first}丙", f"{second}丙", f"{first}丁", f"{second}丁"]


@pytest.mark.parametrize("teams, path", [(None, "/teams"), ({"A": "a", "C": "b"}, "/teams")])
def test_a_match_of_a_format_without_a_draw_names_both_sides(teams, path):
    app = application()
    tournament(app, TID, "SJ2", "swiss", pairs("a", "b"))
    invalid = unchanged(app, lambda: app.start_match(TID, "m1", teams=teams), Invalid)
    assert [e["path"] for e in invalid.errors] == [path]
    assert started(app, "m1", teams={"A": "a", "B": "b"})["teams"] == {"A": "a", "B": "b"}


def test_t1_3_a_match_of_a_team_not_entered_is_refused_naming_the_teams():
    app = application()
    tournament(app, TID, "SJ2", "swiss", pairs("a", "b"))
    refusal = unchanged(app, lambda: app.start_match(TID, "m1", teams={"A": "a", "B": "zz"}),
                        Refusal)
    assert (refusal.rule, refusal.argument, str(refusal.text)) == (
        "T-1.3", "teams", "team 'zz' is not an entrant")


def test_a_match_of_a_tournament_never_created_is_refused():
    with pytest.raises(TournamentNotFound):
        application().start_match("nowhere", "R1-1")


# --- the referee at a team event's tables -----------------------------------------------------

@pytest.fixture
def round_1():
    """A team event of four teams with round 1 paired and its four tables started."""
    app = application()
    tournament(app, TID, "SJ3", "swiss-teams", fours("T1", "T2", "T3", "T4"), rounds=3)
    meetings = app.pair_round(TID).records[0].data_dict["matches"]
    for meeting in meetings:
        for pair in "ab":
            app.start_match(TID, meeting["match_id"] + pair)
    return app, meetings


def test_sj3_12_1_the_rounds_time_is_called_at_every_table_at_once(round_1):
    app, meetings = round_1
    early = unchanged(app, lambda: app.call_round_time(TID, 1), EventRuleViolation)
    assert early.violation.rule == "SJ3-12.1"   # the 80 minutes have not passed
    app.store.clock.advance(minutes=80)
    asked = []
    result = app.call_round_time(TID, 1, {"actor": "chief"}, permit=asked.append)
    tables = [f"match-{TID}:{m['match_id']}{p}" for m in meetings for p in "ab"]
    assert [(r.type, r.stream) for r in result.records] == \
        [("TimeLimitReached", t) for t in tables]
    assert [e.stream for e in asked] == tables   # every event shown to the adapter's check
    done = unchanged(app, lambda: app.call_round_time(TID, 1), RuleViolation)
    assert str(done.text) == "no table of round 1 is still being played without its time called"


def test_sj3_12_1_a_call_the_adapter_does_not_permit_stores_nothing(round_1):
    app, _ = round_1
    app.store.clock.advance(minutes=80)

    def permit(event):
        if event.stream.endswith("b"):
            raise PermissionError(event.stream)

    unchanged(app, lambda: app.call_round_time(TID, 1, permit=permit), PermissionError)


def test_t6_4_the_time_of_a_round_not_paired_is_refused(round_1):
    app, _ = round_1
    violation = unchanged(app, lambda: app.call_round_time(TID, 2), RuleViolation)
    assert str(violation.text) == "round 2 has not been paired (rounds paired: 1)"


def test_t6_6_lateness_is_recorded_at_the_pairs_table_on_its_side(round_1):
    app, meetings = round_1
    second = meetings[0]["teams"][1]
    record = app.record_lateness(TID, 1, second, "b", 16, dealer=0).records[0]
    assert (record.type, record.stream) == ("LatenessRecorded",
                                            f"match-{TID}:{meetings[0]['match_id']}b")
    assert record.data_dict == {"side": "B", "minutes": 16, "dealer": 0}


def test_t6_4_lateness_of_a_team_not_playing_the_round_is_refused(round_1):
    app, _ = round_1
    violation = unchanged(app, lambda: app.record_lateness(TID, 1, "T9", "a", 3), RuleViolation)
    assert (violation.rule, str(violation.text)) == ("T-6.4",
                                                     "team 'T9' does not play in round 1")
