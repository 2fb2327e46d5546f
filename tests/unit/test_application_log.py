"""The application's use cases on the log itself (service/application), without Flask: posting
events, opening a tournament, entrants from a CSV file, a ruling previewed, a deadline fired —
each with the domain errors it refuses with, and nothing stored when it refuses."""
from __future__ import annotations

import pytest
from application_log import application, event, log_of, pairs, tournament

from events.envelope import NO_STREAM
from events.store import WrongExpectedVersion
from projections.deadlines import pending_deadlines
from projections.matches import load_match
from projections.streams import load_stream
from service.appending import EventRuleViolation, TournamentNotFound
from service.application import TournamentExists
from service.entrants import EntrantsRefused

TID = "ottawa-2006"
STREAM = f"tournament-{TID}"


@pytest.fixture
def app():
    app = application()
    tournament(app, TID, "SJ2", "knockout", pairs("east", "west"))
    return app


def test_posted_events_are_appended_in_order_and_read_back(app):
    result = app.post_events(TID, [event("TeamRegistered", STREAM, team_id="north",
                                         name="北队", players=["甲", "乙"])])
    assert result.created and [r.type for r in result.records] == ["TeamRegistered"]
    assert log_of(app, TID)[-1] == ("TeamRegistered", STREAM)


def test_a_batch_with_one_event_breaking_a_rule_stores_none_of_it(app):
    """T-1.6: a player is entered once; the second team names 戊 again."""
    before = log_of(app, TID)
    batch = [event("TeamRegistered", STREAM, team_id="north", name="北队", players=["戊", "己"]),
             event("TeamRegistered", STREAM, team_id="south", name="南队", players=["戊", "庚"])]
    with pytest.raises(EventRuleViolation) as refused:
        app.post_events(TID, batch)
    assert (refused.value.index, refused.value.violation.rule) == (1, "T-1.6")
    assert log_of(app, TID) == before


def test_events_for_a_tournament_never_created_are_refused(app):
    with pytest.raises(TournamentNotFound):
        app.post_events("nowhere", [event("TeamRegistered", "tournament-nowhere",
                                          team_id="x", name="x", players=["甲", "乙"])])


def test_an_event_expecting_another_version_is_a_conflict(app):
    stale = event("TeamRegistered", STREAM, 1, team_id="north", name="北队",
                  players=["戊", "己"])
    with pytest.raises(WrongExpectedVersion) as conflict:
        app.post_events(TID, [stale])
    assert (conflict.value.expected, conflict.value.current) == (1, 3)


def test_a_tournament_is_created_once():
    app = application()
    result = app.create_tournament({"tournament_id": TID, "name": "渥太华", "game": "SJ2",
                                    "format": "knockout"}, {"actor": "test"})
    created = result.records[0]
    assert (created.type, created.stream, created.version) == ("TournamentCreated", STREAM, 1)
    with pytest.raises(TournamentExists) as exists:
        app.create_tournament({"tournament_id": TID, "name": "again", "game": "SJ3",
                               "format": "knockout"})
    assert exists.value.tournament_id == TID
    assert str(exists.value.text) == f"tournament {TID!r} already exists"
    assert log_of(app, TID) == [("TournamentCreated", STREAM)]


def test_entrants_of_a_csv_file_are_registered_in_one_batch(app):
    raw = "team_id,name,player1,player2\nbj-1,北京一队,王伟,李雷\nbj-2,北京二队,张三,韩梅梅\n"
    found, result = app.import_entrants(TID, raw.encode(), {"source": "entrants.csv"})
    assert [e.row for e in found] == [2, 3]
    assert [r.type for r in result.records] == ["TeamRegistered"] * 2
    assert {r.tournament_id for r in result.records} == {TID}


def test_a_csv_file_with_a_bad_row_registers_nothing(app):
    """Row 3 enters 王伟 a second time (T-1.6): the file is refused with its row and column."""
    before = log_of(app, TID)
    raw = "team_id,name,player1,player2\nbj-1,北京一队,王伟,李雷\nbj-2,北京二队,王伟,韩梅梅\n"
    with pytest.raises(EntrantsRefused) as refused:
        app.import_entrants(TID, raw.encode())
    assert [(e["row"], e["column"], e.get("rule")) for e in refused.value.errors] == \
        [(3, "player1", "T-1.6")]
    assert log_of(app, TID) == before


def test_entrants_of_a_tournament_never_created_are_refused(app):
    with pytest.raises(TournamentNotFound):
        app.import_entrants("nowhere", b"team_id,name,player1\nx,x,x\n")


def test_a_previewed_ruling_is_judged_and_laid_over_the_log_appending_nothing(app):
    app.draw(TID)
    app.start_match(TID, "R1-1")
    before = log_of(app, TID)
    ruling = event("RulingRecorded", f"match-{TID}:R1-1", text="取消资格",
                   effect={"kind": "disqualify", "side": "A"})
    preview = app.preview_ruling(TID, ruling)
    assert (preview.record.type, preview.record.position) == ("RulingRecorded",
                                                              len(before) + 1)
    assert load_match(preview.before, app.catalogue, TID, "R1-1").state.status == "playing"
    after = load_match(preview.after, app.catalogue, TID, "R1-1").state
    assert (after.status, after.winner) == ("completed", "B")
    assert log_of(app, TID) == before


def test_a_previewed_ruling_is_refused_as_posting_it_would_be(app):
    ruling = event("RulingRecorded", f"match-{TID}:R9-9", text="x",
                   effect={"kind": "disqualify", "side": "A"})
    with pytest.raises(EventRuleViolation) as refused:
        app.preview_ruling(TID, ruling)
    assert refused.value.violation.rule == "T-1.3"


def test_a_deadline_fires_once_it_has_passed_and_a_retry_appends_nothing():
    """T-6.6: at minute 21 a pair not seated forfeits the round — the timer's event, judged by
    the rules like a referee's: refused before its minute, appended after, once."""
    app = application()
    tournament(app, "jnu", "SJ3", "swiss-teams",
               {t: [f"{t}{n}" for n in "甲乙丙丁"] for t in ("T1", "T2")}, rounds=3)
    table = app.pair_round("jnu").records[0].data_dict["matches"][0]["match_id"] + "a"
    app.start_match("jnu", table)
    lateness = pending_deadlines(load_stream(app.store, app.catalogue, f"match-jnu:{table}"))[0]
    with pytest.raises(EventRuleViolation) as early:
        app.fire_deadline(lateness)
    assert early.value.violation.rule == "T-6.6"
    app.store.clock.advance(minutes=21)
    fired = app.fire_deadline(lateness)
    record = fired.records[0]
    assert fired.created and (record.type, record.id) == ("LatenessLimitReached",
                                                         lateness.event_id)
    assert app.fire_deadline(lateness).created is False
    assert log_of(app, "jnu").count(("LatenessLimitReached", f"match-jnu:{table}")) == 1


def test_a_match_stream_is_opened_once(app):
    app.draw(TID)
    app.start_match(TID, "R1-1")
    again = event("MatchStarted", f"match-{TID}:R1-1", NO_STREAM, match_id="R1-1", game="SJ2",
                  teams={"A": "east", "B": "west"}, seats=["east甲", "west甲", "east乙", "west乙"])
    with pytest.raises(WrongExpectedVersion):
        app.post_events(TID, [again])
