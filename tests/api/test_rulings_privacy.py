"""What the committee's desk shows to whom (issue 9; T-1.5). The words of a rule broken and a
claim raised during play may name cards still held: a ruling's faults carry their ``message``
for officials only (as a match's own flags do, RuledFlags), and a dispute's claim is an
official's to read while the hand it names — naming no hand, the match it names — is in play;
afterwards everyone reads it."""
from __future__ import annotations

import random

from clients import bearer, client_as, token_for
from rulings_desk import Desk
from sj2_table import Table
from spec import assert_response
from tables import ok

MEMBER = "钟致鹏"
RULINGS = "/v1/tournaments/{tid}/rulings"
DISPUTES = "/v1/tournaments/{tid}/disputes"


def readers(client, tid: str) -> dict:
    """Who reads the desk: officials (the admin, a referee), the table of the match, and the
    public (no token)."""
    app = client.application
    return {"admin": client, "referee": client_as(app, "referee", tid),
            "table": client_as(app, "table", tid, match="R1-1"),
            "public": app.test_client()}


def test_t_1_5_a_faults_message_is_for_officials_only(client):
    """A penalty ruled after seat 1's play, then the hand's deal voided: the penalty no longer
    applies (SJ2-16: hand 1 has not been dealt) and is the first ruling's fault. Officials read
    the rule's words; the table and the public the rule, the position and the effect only."""
    table = Table(client)
    table.to_play({0: "2S"}, card="2S")
    rng = random.Random(0)
    plays = [table.play_legal(rng)["position"] for _ in range(3)]
    desk = Desk(client, table.tid)
    deal = next(e["position"] for e in desk.log() if e["type"] == "HandDealt")
    penalty = desk.rule(table.stream, {"text": "talking across the table", "effects": [
        {"kind": "penalty", "rule": "SJ2-12.1", "member": MEMBER, "side": "B", "points": 10,
         "hand": 1, "after": plays[1]}]})
    desk.rule(table.stream, {"text": "the deal was misdealt", "effects": [
        {"kind": "void", "rule": "SJ2-16", "member": MEMBER, "positions": [deal]}]})
    fault = {"position": penalty["position"], "type": "RulingRecorded", "effect": 0,
             "rule": "SJ2-16", "message": "hand 1 has not been dealt"}
    path = RULINGS.format(tid=table.tid)
    for who, reader in readers(client, table.tid).items():
        response = reader.get(path)
        assert_response(response, "get", RULINGS)
        faults = ok(response)["rulings"][0]["faults"]
        if who in ("admin", "referee"):
            assert faults == [fault], who
        else:
            assert faults == [{k: v for k, v in fault.items() if k != "message"}], who
        # the same in one match's list
        assert ok(reader.get(f"{path}?match=R1-1"))["rulings"][0]["faults"] == faults, who


def claims(reader, tid: str, at: int | None = None) -> dict[str, str | None]:
    query = "" if at is None else f"?at={at}"
    response = reader.get(DISPUTES.format(tid=tid) + query)
    assert_response(response, "get", DISPUTES)
    return {d["dispute_id"]: d["claim"] for d in ok(response)["disputes"]}


def test_t_1_5_a_claim_is_for_officials_while_what_it_names_is_in_play(client):
    """Three disputes raised during hand 1: about hand 1, about the match (no hand), about the
    tournament's draw (no match). While hand 1 is in play only officials read the first two;
    once it is over everyone reads the first (``?at=`` a position in play still withholds
    it); the second is withheld until the match ends (here: a forfeit ruled)."""
    table = Table(client)
    table.to_play({0: "2S AH"}, card="2S")
    desk = Desk(client, table.tid)
    captain = bearer(token_for(client.application, "player", tournament=table.tid,
                               match="R1-1", seat=1))
    said = {"hand": "partner held AH and did not play it", "match": "seat 2 signals by cough",
            "draw": "the lots were drawn before we arrived"}
    raised = desk.post("DisputeRaised", f"tournament-{table.tid}", {
        "dispute_id": "hand", "match_id": "R1-1", "hand": 1, "claim": said["hand"]}, captain)
    assert raised.status_code == 201, raised.json
    desk.raise_dispute("match", said["match"], match_id="R1-1")
    in_play = desk.raise_dispute("draw", said["draw"])["position"]
    everyone = readers(client, table.tid)
    for who, reader in everyone.items():
        if who in ("admin", "referee"):
            assert claims(reader, table.tid) == said, who
        else:
            assert claims(reader, table.tid) == {"hand": None, "match": None,
                                                 "draw": said["draw"]}, who

    table.finish_hand(seed=3)
    for who, reader in everyone.items():
        shown = said if who in ("admin", "referee") else {**said, "match": None}
        assert claims(reader, table.tid) == shown, who
    assert claims(everyone["public"], table.tid, at=in_play)["hand"] is None
    assert claims(everyone["admin"], table.tid, at=in_play)["hand"] == said["hand"]

    desk.rule(table.stream, {"text": "east forfeits", "effects": [
        {"kind": "forfeit", "rule": "T-1.5", "member": MEMBER, "entrant": "east"}]})
    assert table.match()["status"] == "completed"
    for who, reader in everyone.items():
        assert claims(reader, table.tid) == said, who
