"""The Sichuan event of seed 003 through the HTTP API (tournaments.md T-7): 16 players in groups
of four drawn by lots, the top two of each group to the second stage and again to a final of four
(T-7.2, 7.3), ties at a qualifying place broken by recorded dice (T-7.2), the final played with
换三张 and an extra hand while players tie for a podium place (T-7.4, MJS-2.1), and the prize
ranking — 1st to 3rd, 4th to 12th — with the remaining ties rolled for (T-7.5). Every table plays
one hand here (``sessionHands``), each a discard three players win on."""
from __future__ import annotations

from clients import admin_client, hand_results
from mjs_states import deal_data
from mjs_table import tournament
from tables import ok

from events.memory_store import InMemoryEventStore
from service import create_app

TID = "mjs-event"
BASE = f"/v1/tournaments/{TID}"

# Hands that win on a 5m discarded by the dealer, with their values (MJS-6)
ALL_PONGS = "1p 1p 1p 3p 3p 3p 7p 7p 7p 5m 9p 9p 9p"      # void s: all pongs, 4
BASIC_A = "1m 2m 3m 4m 6m 7p 8p 9p 1p 1p 1p 9p 9p"         # void s: basic, 2
BASIC_B = "4m 6m 1s 2s 3s 4s 5s 6s 7s 8s 9s 9s 9s"         # void p: basic, 2
PURE = "1m 1m 1m 3m 3m 3m 7m 7m 7m 5m 5m 9m 9m"            # void p: pure all pongs, 16
DECISIVE = ({1: ALL_PONGS, 2: BASIC_B, 3: PURE}, "sspp")    # -22, +4, +2, +16
TIED = ({1: BASIC_A, 2: BASIC_B, 3: PURE}, "sspp")          # -20, +2, +2, +16


def players(n: int) -> list[tuple[str, str]]:
    return [(f"p{k}", f"Player {k}") for k in range(1, n + 1)]


def post(client, event_type: str, stream: str, **data):
    return client.post(f"{BASE}/events", json={"type": event_type, "stream": stream,
                                               "data": data})


def seated(client, match_id: str) -> list[str]:
    table = next(t for s in ok(client.get(f"{BASE}/groups"))["stages"] for t in s["tables"]
                 if t["match_id"] == match_id)
    return [s["team"] for s in table["seats"]]


def play_hand(client, match_id: str, hand: int, layout, dealer: int = 0,
              exchange: dict[int, str] | None = None, penalty: dict | None = None) -> None:
    """One hand: the dealer discards 5m and the three others win on it. With ``exchange``
    (the final) each seat first passes those three tiles to the next seat (red die 1), the
    deal being made so that each then holds the hand of ``layout``. ``penalty``: the data of
    a ``ConductPenaltyAssessed`` posted before the dealer's discard."""
    cores, voids = layout
    stream = f"match-{TID}:{match_id}"
    hands = {(dealer + k) % 4: tiles for k, tiles in cores.items()}
    hands[dealer] = "5m"
    if exchange:
        hands[dealer] += " " + exchange[(dealer - 1) % 4]
        hands = _before_the_exchange(hands, exchange)
    data = deal_data(hands, dealer)
    if hand > 1:
        data.pop("dealer")
    ok(post(client, "TilesDealt", stream, hand=hand, **data))
    if exchange:
        for seat, tiles in exchange.items():
            ok(post(client, "ExchangeTilesSelected", stream, hand=hand, seat=seat,
                    tiles=tiles.split()))
        ok(post(client, "DiceRolled", stream, hand=hand, seat=dealer, purpose="exchange",
                dice=[1, 4]))
    for k, suit in enumerate(voids):
        ok(post(client, "VoidSuitDeclared", stream, hand=hand, seat=(dealer + k) % 4, suit=suit))
    if penalty:
        ok(post(client, "ConductPenaltyAssessed", stream, hand=hand, **penalty))
    ok(post(client, "TileDiscarded", stream, hand=hand, seat=dealer, tile="5m"))
    for k in (1, 2, 3):
        ok(post(client, "Claim", stream, hand=hand, seat=(dealer + k) % 4, kind="win"))


def _before_the_exchange(hands: dict[int, str], passes: dict[int, str]) -> dict[int, str]:
    """MJS-2.1, to the next seat: seat s passes ``passes[s]`` and receives ``passes[s - 1]``;
    to hold ``hands[s]`` after it, he is dealt it without what he receives, with what he
    passes."""
    dealt = {}
    for seat, tiles in hands.items():
        held = tiles.split()
        for tile in passes[(seat - 1) % 4].split():
            held.remove(tile)
        dealt[seat] = " ".join(held + passes[seat].split())
    return dealt


def start_and_play(client, match_id: str, layout, final: bool = False) -> dict:
    body = {"match_id": match_id, **({"settings": {"final": True}} if final else {})}
    ok(client.post(f"{BASE}/matches", json=body))
    play_hand(client, match_id, 1, layout)
    return ok(client.get(f"{BASE}/matches/{match_id}?as=referee"))


def dice(client, stage: int, rolls: dict[str, list[int]]):
    return post(client, "TieDiceRolled", f"tournament-{TID}", round=stage, rolls=rolls)


def test_t_7_the_sichuan_event_from_the_draw_to_the_prizes():
    client = admin_client(create_app(store=InMemoryEventStore()))
    tournament(client, TID, {"sessionHands": 1}, players=players(16))
    view = ok(client.get(f"{BASE}/groups"))
    assert view["settings"] == {"advance": 2, "prizePlaces": 12, "stageCoins": "reset",
                                "ties": "dice"}
    ok(client.post(f"{BASE}/draws", json={}))
    # stage 1: a tie at the qualifying cut of S1-T1, rolled for (T-7 Ex 5)
    table = start_and_play(client, "S1-T1", TIED)
    assert table["status"] == "completed" and table["balances"] == [-20, 2, 2, 16]
    assert hand_results(client, TID, "S1-T1")[0]["winners"] == [1, 2, 3]
    over = post(client, "TilesDealt", f"match-{TID}:S1-T1", hand=2, **{
        k: v for k, v in deal_data({}).items() if k != "dealer"})
    assert (over.status_code, over.json["rule"]) == (422, "T-8.2")   # the session is over
    for k in (2, 3, 4):
        start_and_play(client, f"S1-T{k}", DECISIVE)
    stage = ok(client.get(f"{BASE}/groups"))["stages"][0]
    assert stage["complete"] and stage["qualified"] is None and "dice decide" in \
        stage["awaiting_lots"]
    early = client.post(f"{BASE}/draws", json={})
    assert (early.status_code, early.json["rule"]) == (422, "T-7.2")
    s1 = seated(client, "S1-T1")
    lots = post(client, "LotsDrawn", f"tournament-{TID}", purpose="standingsTie", round=1,
                candidates=s1[1:3], winner=s1[1])
    assert (lots.status_code, lots.json["rule"]) == (422, "T-7.2")   # dice, not lots
    wrong = dice(client, 1, {s1[0]: [6, 6], s1[1]: [1, 1]})
    assert (wrong.status_code, wrong.json["rule"]) == (422, "T-7.2")
    ok(dice(client, 1, {s1[1]: [2, 3], s1[2]: [1, 4]}))              # 5 and 5: again
    ok(dice(client, 1, {s1[1]: [1, 1], s1[2]: [6, 5]}))
    qualified = ok(client.get(f"{BASE}/groups"))["stages"][0]["qualified"]
    assert qualified[:2] == [s1[3], s1[2]]
    # stage 2: two groups of four, the top two to the final
    drawn = ok(client.post(f"{BASE}/draws", json={}))["data"]["tables"]
    assert [t["match_id"] for t in drawn] == ["S2-T1", "S2-T2"]
    assert sorted(p for t in drawn for p in t["players"]) == sorted(qualified)
    for t in drawn:
        assert start_and_play(client, t["match_id"], DECISIVE)["balances"] == [-22, 4, 2, 16]
    # the final: started as the final, 换三张, a tie for second place, an extra hand
    final = ok(client.post(f"{BASE}/draws", json={}))["data"]["tables"]
    assert [t["match_id"] for t in final] == ["S3-T1"]
    ok(client.post(f"{BASE}/matches", json={"match_id": "S3-T1", "settings": {"final": True}}))
    passes = {0: "1p 1p 1p", 1: "1s 2s 3s", 2: "1m 1m 1m", 3: "2p 4p 6p"}
    play_hand(client, "S3-T1", 1, TIED, exchange=passes)
    match = ok(client.get(f"{BASE}/matches/S3-T1?as=referee"))
    assert match["balances"] == [-20, 2, 2, 16] and match["status"] == "playing"
    assert match["final"] and match["settings"]["exchangeThree"]
    assert match["next_hand"] == 2 and match["dealer"] == 1
    extra = ({1: ALL_PONGS, 2: BASIC_B, 3: PURE}, "sspp")      # seat 2 +4, seat 3 +2, seat 0 +16
    play_hand(client, "S3-T1", 2, extra, dealer=1,
              exchange={1: "1p 1p 1p", 2: "1s 2s 3s", 3: "1m 1m 1m", 0: "2p 4p 6p"})
    match = ok(client.get(f"{BASE}/matches/S3-T1?as=referee"))
    assert match["status"] == "completed" and match["balances"] == [-20, 2, 2, 16]
    row = hand_results(client, TID, "S3-T1")[1]
    assert row["tiebreak"] and row["payments"] == [16, -22, 4, 2]
    assert row["balances"] == row["balances_before"]
    assert match["tiebreak_results"] == [[16, -22, 4, 2]]
    order = [r["seat"] for r in match["ranking"]]
    assert order == [3, 2, 1, 0] and not any(r["tied"] for r in match["ranking"])
    # the ranking: thirds and fourths of the second stage, thirds of the first, by dice
    standings = ok(client.get(f"{BASE}/standings"))
    assert not standings["final"]
    finalists = seated(client, "S3-T1")
    assert [r["team"] for r in standings["ranking"][:4]] == [finalists[s] for s in order]
    places = [(r["place"], r["tied"]) for r in standings["ranking"]]
    assert places[4:8] == [(5, True), (5, True), (7, True), (7, True)]
    assert places[8:12] == [(9, True)] * 4 and places[12] == (13, False)
    rows = standings["ranking"]
    ok(dice(client, 2, {rows[4]["team"]: [6, 6], rows[5]["team"]: [1, 1]}))
    ok(dice(client, 2, {rows[6]["team"]: [2, 1], rows[7]["team"]: [5, 5]}))
    thirds = [r["team"] for r in rows[8:12]]
    ok(dice(client, 1, dict(zip(thirds, ([6, 5], [4, 4], [3, 1], [1, 1]), strict=True))))
    standings = ok(client.get(f"{BASE}/standings"))
    assert standings["final"] and standings["champion"] == finalists[3]
    assert [r["place"] for r in standings["ranking"][:13]] == list(range(1, 14))
    assert [r["team"] for r in standings["ranking"][8:12]] == thirds
    assert [r["prize"] for r in standings["ranking"][:3]] == [
        "champion: 2000 yuan and a certificate", "runner-up: 1200 yuan and a certificate",
        "third: 600 yuan and a certificate"]
    assert {r["prize"] for r in standings["ranking"][3:12]} == {"a commemorative water bottle"}
    assert {r["prize"] for r in standings["ranking"][12:]} == {None}
    stages = ok(client.get(f"{BASE}/groups"))["stages"]
    assert [len(s["tables"]) for s in stages] == [4, 2, 1] and stages[2]["final"]
    assert stages[2]["tables"][0]["tiebreak_results"] == [[16], [-22], [4], [2]]
    assert len(stages[0]["dice"]) == 3 and len(stages[1]["dice"]) == 2


def test_t_7_6_a_penalty_in_an_extra_hand_of_the_final_counts_in_the_score():
    """T-7.4: the final's extra hand orders the tied players without changing the scores —
    but T-7.6: conduct penalties count in the stage score, in an extra hand too. Seat 2, tied
    for second, discloses his own hand in it: 20 deducted (MJS-10.4)."""
    client = admin_client(create_app(store=InMemoryEventStore()))
    tournament(client, TID, {"sessionHands": 1}, players=players(4))
    ok(client.post(f"{BASE}/draws", json={}))
    ok(client.post(f"{BASE}/matches", json={"match_id": "S1-T1"}))   # the final (T-7.4)
    play_hand(client, "S1-T1", 1, TIED,
              exchange={0: "1p 1p 1p", 1: "1s 2s 3s", 2: "1m 1m 1m", 3: "2p 4p 6p"})
    match = ok(client.get(f"{BASE}/matches/S1-T1?as=referee"))
    assert match["balances"] == [-20, 2, 2, 16] and match["status"] == "playing"
    extra = ({1: ALL_PONGS, 2: BASIC_B, 3: PURE}, "sspp")      # seat 2 +4, seat 3 +2, seat 0 +16
    play_hand(client, "S1-T1", 2, extra, dealer=1,
              exchange={1: "1p 1p 1p", 2: "1s 2s 3s", 3: "1m 1m 1m", 0: "2p 4p 6p"},
              penalty={"seat": 2, "offence": "ownHand"})
    match = ok(client.get(f"{BASE}/matches/S1-T1?as=referee"))
    assert match["status"] == "completed"
    assert match["balances"] == [-20, 2, -18, 16]              # only the −20 counts
    row = hand_results(client, TID, "S1-T1")[1]
    assert row["tiebreak"] and row["deductions"] == [0, 0, -20, 0]
    assert row["balances"] == [-20, 2, -18, 16]
    assert match["tiebreak_results"] == [[16, -22, 4, 2]]      # the play alone orders ties
    hand = ok(client.get(f"{BASE}/matches/S1-T1/hands/2?as=public"))
    assert hand["scores"] == [-20, 2, -18, 16]
    assert [r["seat"] for r in match["ranking"]] == [3, 1, 2, 0]
