"""The server's draws and pairings as use cases (service/application), without Flask: a
knockout round by lots or cards (T-2.1, T-5.5), a groups stage's tables (T-8.1), a team event's
rounds by lots, by scores, by hand, or confirmed (T-6.4), lots between equal teams (T-6.8), and
the standings as each format ranks — each with what it refuses, and nothing stored then."""
from __future__ import annotations

import pytest
from application_log import application, fours, log_of, pairs, singles, tournament

from projections import team_event
from rules import RuleViolation
from service.appending import EventRuleViolation, TournamentNotFound
from service.application import Pairing, Refusal

KO, MJ, TEAMS = "ottawa-2006", "mjo-groups", "jnu-2006"


def knockout(teams: int = 5):
    app = application()
    tournament(app, KO, "SJ2", "knockout", pairs(*"abcdefgh"[:teams]))
    return app


def swiss_teams(rounds: int = 3, teams: int = 4):
    app = application()
    tournament(app, TEAMS, "SJ3", "swiss-teams", fours(*[f"T{n}" for n in range(1, teams + 1)]),
               rounds=rounds)
    return app


def forfeited_round(app, number: int, meetings: list[dict]) -> None:
    """Every table of round ``number`` started and decided by lateness (T-6.6: 21 minutes or
    more forfeit the round): the first team's pair a and the second team's pair b late."""
    for meeting in meetings:
        first, second = meeting["teams"]
        for pair in "ab":
            app.start_match(TEAMS, meeting["match_id"] + pair)
        app.record_lateness(TEAMS, number, first, "a", 25)
        app.record_lateness(TEAMS, number, second, "b", 25)


def refused(app, call, error=Refusal):
    """What ``call`` raises, once the log is checked to be as it was."""
    before = [log_of(app, tid) for tid in (KO, MJ, TEAMS)]
    with pytest.raises(error) as raised:
        call()
    assert [log_of(app, tid) for tid in (KO, MJ, TEAMS)] == before
    return raised.value


# --- a knockout ----------------------------------------------------------------------------

def test_t2_1_a_knockout_round_is_drawn_by_lots_once():
    app = knockout()
    drawn = app.draw(KO, round=1, meta={"actor": "organiser"}).records[0]
    data = drawn.data_dict
    assert (drawn.type, data["purpose"], data["round"]) == ("LotsDrawn", "pairing", 1)
    placed = sorted([t for m in data["matches"] for t in m["teams"]] + data["byes"])
    assert placed == list("abcde") and len(data["byes"]) == 3   # T-2.2: up to a power of two
    again = refused(app, lambda: app.draw(KO), RuleViolation)   # round 1 is not decided
    assert again.rule == "T-2.1"


def test_t2_1_only_the_next_knockout_round_may_be_drawn():
    app = knockout()
    refusal = refused(app, lambda: app.draw(KO, round=2))
    assert (refusal.rule, refusal.argument, str(refusal.text)) == (
        "T-2.1", "round", "the next round to draw is 1")


def test_t5_5_a_knockout_round_may_be_drawn_by_matching_playing_cards():
    data = knockout().draw(KO, method="cards").records[0].data_dict
    assert sorted(data["cards"]) == list("abcde")
    for match in data["matches"]:   # the two of one rank meet
        ranks = {data["cards"][t][:-1] for t in match["teams"]}
        assert len(ranks) == 1


def test_the_draw_of_a_tournament_never_created_is_refused():
    with pytest.raises(TournamentNotFound):
        application().draw("nowhere")


# --- groups of four ------------------------------------------------------------------------

def groups(players: int = 8):
    app = application()
    tournament(app, MJ, "MJO", "groups", singles(players))
    return app


def test_t8_1_a_stages_tables_of_four_are_drawn_by_lots():
    data = groups().draw(MJ).records[0].data_dict
    assert (data["purpose"], data["round"]) == ("tables", 1)
    assert [t["match_id"] for t in data["tables"]] == ["S1-T1", "S1-T2"]
    assert sorted(p for t in data["tables"] for p in t["players"]) == sorted(singles(8))


@pytest.mark.parametrize("asked, argument, text", [
    ({"method": "cards"}, "method", "the tables of a stage are drawn by lots"),
    ({"round": 2}, "round", "the next stage to draw is 1")])
def test_t8_1_a_stage_is_drawn_by_lots_and_only_the_next_one(asked, argument, text):
    app = groups()
    refusal = refused(app, lambda: app.draw(MJ, **asked))
    assert (refusal.rule, refusal.argument, str(refusal.text)) == ("T-8.1", argument, text)


# --- the team event ------------------------------------------------------------------------

def test_t6_4_round_1_of_a_team_event_is_drawn_by_lots_later_rounds_by_scores():
    app = swiss_teams()
    first = app.draw(TEAMS).records[0]   # POST …/draws pairs a team event as …/pairings does
    assert (first.type, first.data_dict["round"]) == ("LotsDrawn", 1)
    forfeited_round(app, 1, first.data_dict["matches"])
    second = app.pair_round(TEAMS, Pairing(round=2)).records[0]
    assert (second.type, second.data_dict["round"]) == ("RoundPaired", 2)
    met = {frozenset(m["teams"]) for m in first.data_dict["matches"]}
    assert not met & {frozenset(m["teams"]) for m in second.data_dict["matches"]}  # no rematch


def test_t6_4_a_team_event_is_not_drawn_by_cards():
    app = swiss_teams()
    refusal = refused(app, lambda: app.draw(TEAMS, method="cards"))
    assert (refusal.rule, refusal.argument) == ("T-6.4", "method")


def test_t6_4_only_a_team_event_is_paired_by_scores():
    app = knockout()
    violation = refused(app, lambda: app.pair_round(KO), RuleViolation)
    assert (violation.rule, str(violation.text)) == (
        "T-6.4", "only a team event (swiss-teams) is paired by scores")
    assert not isinstance(violation, Refusal)   # the command as a whole, no one argument


@pytest.mark.parametrize("how, argument, text", [
    (Pairing(round=2), "round", "the next round to pair is 1"),
    (Pairing(confirm=True, matches=[{"match_id": "R1-1", "teams": ["T1", "T2"]}]), "confirm",
     "confirm the proposed pairing or post one by hand (matches), not both")])
def test_t6_4_a_pairing_asked_for_the_wrong_round_or_twice_over_is_refused(how, argument, text):
    app = swiss_teams()
    refusal = refused(app, lambda: app.pair_round(TEAMS, how))
    assert (refusal.rule, refusal.argument, str(refusal.text)) == ("T-6.4", argument, text)


def test_t6_4_the_referees_pairing_by_hand_is_stored_with_its_warnings():
    app = swiss_teams()
    first = app.pair_round(TEAMS).records[0].data_dict["matches"]
    forfeited_round(app, 1, first)
    rematches = [{"match_id": f"R2-{n}", "teams": m["teams"]} for n, m in enumerate(first, 1)]
    paired = app.pair_round(TEAMS, Pairing(matches=rematches, reason="场地")).records[0]
    data = paired.data_dict
    assert (paired.type, data["round"], data["manual"], data["reason"]) == (
        "RoundPaired", 2, True, "场地")
    assert [m["teams"] for m in data["matches"]] == [m["teams"] for m in first]
    shown = team_event.rounds_view(app.store, app.catalogue, TEAMS)["rounds"][-1]
    assert shown["warnings"] == [f"rematch: {a} and {b} met in round 1"
                                 for a, b in (m["teams"] for m in first)]


def test_t6_4_a_round_by_hand_refused_by_the_rules_stores_nothing():
    app = swiss_teams()
    by_hand = Pairing(matches=[{"match_id": "R1-1", "teams": ["T1", "T2"]},
                               {"match_id": "R1-2", "teams": ["T3", "T4"]}])
    refusal = refused(app, lambda: app.pair_round(TEAMS, by_hand), EventRuleViolation)
    assert refusal.violation.rule == "T-6.4"   # round 1 is drawn by lots


def test_t6_4_with_no_proposal_to_confirm_the_confirmation_is_refused():
    app = swiss_teams()
    violation = refused(app, lambda: app.pair_round(TEAMS, Pairing(confirm=True)), RuleViolation)
    assert violation.rule == "T-6.4"


def test_t6_8_lots_decide_a_tie_left_once_the_event_has_ended():
    """Two teams, one round: each forfeits one table (2 : 2, levels 4 : 2 each way), a tie
    that only lots break — once, then no tie is left."""
    app = swiss_teams(rounds=1, teams=2)
    early = refused(app, lambda: app.draw_standings_lots(TEAMS), RuleViolation)
    assert early.rule == "T-6.8"
    forfeited_round(app, 1, app.pair_round(TEAMS).records[0].data_dict["matches"])
    drawn = app.draw_standings_lots(TEAMS, {"actor": "organiser"})
    assert [(r.type, r.data_dict["purpose"], sorted(r.data_dict["candidates"]))
            for r in drawn] == [("LotsDrawn", "standingsTie", ["T1", "T2"])]
    ranking = app.standings(TEAMS)["ranking"]
    assert ranking[0]["team"] == drawn[0].data_dict["winner"]
    done = refused(app, lambda: app.draw_standings_lots(TEAMS), RuleViolation)
    assert str(done.text) == "no tie is left in the standings"


def test_t6_8_lots_between_equal_teams_are_a_team_events():
    app = knockout()
    violation = refused(app, lambda: app.draw_standings_lots(KO), RuleViolation)
    assert violation.rule == "T-6.8"


# --- the standings -------------------------------------------------------------------------

def test_the_standings_rank_as_the_format_ranks():
    assert knockout().standings(KO)["format"] == "knockout"
    assert groups().standings(MJ)["format"] == "groups"
    assert swiss_teams().standings(TEAMS)["format"] == "swiss-teams"
    assert knockout().standings("nowhere") is None
    assert knockout().standings(KO, at=0) is None
