"""``paiju simulate mjo``: a groups-of-four mahjong event (MJO, tournaments.md T-8 with the stages
of T-7) played through the HTTP API by bots — players registered, every stage's tables drawn by
lots on the server, every table's session played, ties drawn by lots, until the final table's
order gives the podium.

The bots act for every seat from the referee's view of a table: they roll for the first dealer,
throw the dice to break the wall and deal from four shuffled walls (a dealing machine), draw,
win whenever the hand allows, claim now and then, and otherwise keep the tiles that help their
hand. Every move is judged by the server like any other.
"""
from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from rules.groups import stage_sizes
from rules.mahjong.claims import chow_options
from rules.mahjong.mjo import MJO
from rules.mahjong.session import still_rolling
from rules.mahjong.tiles import KINDS, Meld, shifted, tile_set
from rules.mahjong.wall import second_roller
from rules.mahjong.winning import is_winning_hand

from .runner import Api, count_events, play_match

Action = tuple[str, dict]
# how much a tile helps a hand: copies held, and neighbours in its suit
_NEAR = {t: tuple((n, 3 - abs(d)) for d in (-2, -1, 1, 2) if (n := shifted(t, d)))
         for t in KINDS}


# --- the bots ------------------------------------------------------------------------------------

def next_action(view: dict, rng: random.Random) -> Action | None:
    """The next event of a table, from the referee's view of it; None once the session is over."""
    if view["status"] == "completed":
        return None
    if view["status"] == "rolling":
        return _roll_for_dealer(view, rng)
    hand = view["current_hand"]
    if hand is None or hand["phase"] == "over":
        return _next_deal(view, rng)
    number = hand["hand"]
    if hand["phase"] == "claims":
        return _answer_claims(hand, number, rng)
    if hand["phase"] == "draw":
        seat = hand["turn"]
        return "TileDrawn", {"hand": number, "seat": seat, "tile": hand["wall"][0]}
    return _turn(hand, number, rng)


def _roll_for_dealer(view: dict, rng: random.Random) -> Action:
    """MJO-2.1: the next seat that rolls for the first deal."""
    rounds = [{r["seat"]: tuple(r["dice"]) for r in round_} for round_ in view["first_dealer_rolls"]]
    rolling, current = still_rolling(rounds)
    seat = min(rolling - set(current))
    return "DiceRolled", {"purpose": "firstDealer", "seat": seat, "dice": _throw(rng)}


def _throw(rng: random.Random) -> list[int]:
    return [rng.randint(1, 6), rng.randint(1, 6)]


def _next_deal(view: dict, rng: random.Random) -> Action:
    """MJO-2.3: two throws break the wall — the dealer's, then the seat his total names — and
    the hand is dealt from four shuffled walls of 34."""
    number, dealer, throws = view["next_hand"], view["dealer"], view["wall_dice"]
    if len(throws) < 2:
        seat = dealer if not throws else second_roller(dealer, sum(throws[0]["dice"]))
        return "DiceRolled", {"purpose": "wallBreak", "hand": number, "seat": seat,
                              "dice": _throw(rng)}
    tiles = list(tile_set(136))
    rng.shuffle(tiles)
    return "TilesDealt", {"hand": number, "walls": [tiles[34 * k:34 * k + 34] for k in range(4)]}


def _answer_claims(hand: dict, number: int, rng: random.Random) -> Action:
    """MJO-4: a seat that may claim answers — a win always, a pong or chow now and then."""
    window = hand["claim_window"]
    answered = set(window["passed"]) | {c["seat"] for c in window["claims"]}
    seat = next(int(s) for s, kinds in sorted(window["may"].items())
                if kinds and int(s) not in answered)
    kinds, tile = window["may"][str(seat)], window["tile"]
    base = {"hand": number, "seat": seat}
    if "win" in kinds:
        return "Claim", {**base, "kind": "win"}
    if "pong" in kinds and rng.random() < 0.5:
        return "Claim", {**base, "kind": "pong", "tiles": [tile, tile]}
    if "chow" in kinds and rng.random() < 0.3:
        concealed = hand["seats"][seat]["concealed"]
        return "Claim", {**base, "kind": "chow",
                         "tiles": list(rng.choice(chow_options(concealed, tile)))}
    return "ClaimPassed", base


def _melds(seat: dict) -> tuple[Meld, ...]:
    return tuple(Meld(m["kind"], tuple(m["tiles"])) for m in seat["melds"])


def _turn(hand: dict, number: int, rng: random.Random) -> Action:
    """MJO-3.2, MJO-5.4: win when the hand is a win, else discard the least useful tile."""
    seat = hand["turn"]
    me = hand["seats"][seat]
    concealed = me["concealed"]
    first_turn = (seat == hand["dealer"] and
                  not any(s["discards"] or s["melds"] for s in hand["seats"]))
    if (me["drawn"] is not None or first_turn) and \
            is_winning_hand(concealed, _melds(me), MJO):
        return "Win", {"hand": number, "seat": seat}
    if hand["wall_count"] == 0:  # the last tile drawn and no win: the hand is drawn (MJO-6.1)
        return "ExhaustiveDrawDeclared", {"hand": number, "seat": seat}
    held = Counter(concealed)
    scores = {t: 3 * (held[t] - 1) + sum(held[n] * w for n, w in _NEAR[t]) for t in held}
    least = min(scores.values())
    tile = rng.choice(sorted(t for t, n in scores.items() if n == least))
    return "TileDiscarded", {"hand": number, "seat": seat, "tile": tile}


# --- the event ---------------------------------------------------------------------------------

@dataclass
class Outcome:
    tournament_id: str
    standings: dict = field(default_factory=dict)
    groups: dict = field(default_factory=dict)
    event_counts: Counter = field(default_factory=Counter)
    tables: int = 0
    hands: int = 0
    lots: int = 0
    requests: int = 0
    seconds: float = 0.0

    @property
    def podium(self) -> list[dict]:
        return [r for r in self.standings.get("ranking", []) if r["place"] <= 3]


Observer = Callable[[str, str, dict], None]


def advance_for(players: int) -> int | None:
    """T-7.2: the fewest players per table to go on that lead, stage by stage, to a final table
    of four (16 → 4 with 1); None (one stage, ranked together, T-8.3) if none does."""
    for advance in (1, 2, 3):
        sizes = stage_sizes(players, advance)
        if all(n % 4 == 0 for n in sizes) and sizes[-1] == 4:
            return advance
    return None


def simulate(api_url: str, players: int = 16, seed: int = 1, advance: int | None = 1,
             match_settings: dict | None = None, observe: Observer | None = None,
             token: str | None = None) -> Outcome:
    """Plays a groups-of-four MJO event of ``players`` to its end (with ``advance``: stage after
    stage down to a final table); returns what happened. ``observe(tournament, table, view)``
    sees the referee's view of a table before every move."""
    rng, api, started = random.Random(seed), Api(api_url, token), time.perf_counter()
    try:
        tid = _create(api, players, seed, advance, match_settings)
        outcome = Outcome(tid)
        base = f"/v1/tournaments/{tid}"
        while True:
            groups = api.call("GET", f"{base}/groups")
            stage = groups["stages"][-1] if groups["stages"] else None
            if stage is not None and not stage["complete"]:
                for table in stage["tables"]:
                    if not table["completed"]:
                        outcome.hands += play_table(api, tid, table["match_id"], rng, observe)
                        outcome.tables += 1
                continue
            if stage is not None and stage["awaiting_lots"]:
                outcome.lots += _draw_qualifying_lots(api, tid, stage, groups, rng)
                continue
            if groups["next_stage"] is None:
                break
            api.call("POST", f"{base}/draws", {})
        while not (standings := api.call("GET", f"{base}/standings"))["final"]:
            outcome.lots += _draw_prize_lots(api, tid, standings, rng)
        outcome.standings, outcome.groups = standings, api.call("GET", f"{base}/groups")
        outcome.event_counts = count_events(api, tid)
        outcome.requests = api.requests
        outcome.seconds = time.perf_counter() - started
        return outcome
    finally:
        api.close()


def _create(api: Api, players: int, seed: int, advance: int | None,
            match_settings: dict | None) -> str:
    # The bots answer each discard at once; a window longer than the rule's 3 s only keeps a
    # loaded machine from turning one slow request into a late claim (MJO-4.5).
    settings = {"match": {"sessionRounds": 1, "claimWindowSeconds": 30, **(match_settings or {})}}
    if advance is not None:
        settings["advance"] = advance
    created = api.call("POST", "/v1/tournaments", {
        "name": f"paiju simulate mjo (seed {seed})", "game": "MJO", "format": "groups",
        "settings": settings})
    tid = created["id"]
    api.call("POST", f"/v1/tournaments/{tid}/events", {"events": [
        {"type": "TeamRegistered", "stream": f"tournament-{tid}",
         "data": {"team_id": f"player-{n}", "name": f"Player {n}", "players": [f"player {n}"]}}
        for n in range(1, players + 1)]})
    return tid


def play_table(api: Api, tid: str, match_id: str, rng: random.Random,
               observe: Observer | None = None) -> int:
    """Starts the table and lets the bots play its session; returns the hands played."""
    return play_match(api, tid, match_id, next_action, rng, observe)["hands_played"]


def _lots(api: Api, tid: str, stage: int, candidates: list[str], rng: random.Random) -> int:
    """T-7.2 / T-8.3: the organisers draw lots among equal players; the drawn order is posted."""
    api.call("POST", f"/v1/tournaments/{tid}/events", {
        "type": "LotsDrawn", "stream": f"tournament-{tid}",
        "data": {"purpose": "standingsTie", "round": stage, "candidates": candidates,
                 "winner": rng.choice(candidates)},
        "meta": {"source": "paiju simulate mjo"}})
    return 1


def _draw_qualifying_lots(api: Api, tid: str, stage: dict, groups: dict,
                          rng: random.Random) -> int:
    """T-7.2: at each table where a tie straddles the last qualifying place, lots once."""
    advance, drawn = groups["settings"]["advance"], set(stage["lots"])
    for table in stage["tables"]:
        seats = sorted(table["seats"], key=lambda s: s["place"])
        cut = seats[advance - 1]["place"]
        tied = [s["team"] for s in seats if s["place"] == cut and s["tied"]
                and s["team"] not in drawn]
        if len(tied) > 1 and sum(s["place"] <= advance for s in seats) != advance:
            return _lots(api, tid, stage["stage"], tied, rng)
    raise RuntimeError(f"stage {stage['stage']} awaits lots nobody can draw: "
                       f"{stage['awaiting_lots']}")


def _draw_prize_lots(api: Api, tid: str, standings: dict, rng: random.Random) -> int:
    """T-8.3: lots between the players tied for a prize place."""
    rows = standings["ranking"]
    place = next(r["place"] for r in rows if r["tied"] and r["place"] <= standings["prize_places"])
    tied = [r["team"] for r in rows if r["place"] == place]
    return _lots(api, tid, rows[0]["stage"], tied, rng)


def report(outcome: Outcome) -> str:
    """What the simulation printed: the final coins, the podium and the event counts."""
    events = sum(outcome.event_counts.values())
    lines = [(f"tournament {outcome.tournament_id}: {outcome.tables} tables, {outcome.hands} "
              f"hands, {outcome.lots} lots, {events} events, {outcome.requests} requests in "
              f"{outcome.seconds:.1f} s")]
    for stage in outcome.groups["stages"]:
        kind = "final" if stage["final"] else f"stage {stage['stage']}"
        lines.append(f"{kind}:")
        for table in stage["tables"]:
            coins = ", ".join(f"{s['team']} {s['coins']}" for s in
                              sorted(table["seats"], key=lambda s: s["place"]))
            lines.append(f"  {table['match_id']} ({table['hands_played']} hands): {coins}")
    lines.append("podium: " + ", ".join(f"{r['place']}. {r['team']} ({r['coins']} coins)"
                                        for r in outcome.podium))
    lines.append("events: " + ", ".join(f"{t} {n}" for t, n in
                                        sorted(outcome.event_counts.items())))
    return "\n".join(lines)
