"""``paiju simulate mjs``: the Sichuan event of seed 003 (MJS, tournaments.md T-7) played through
the HTTP API by random legal bots — players registered, every stage's groups of four drawn by lots
on the server, every table's session played, ties at a qualifying place and at a prize place
rolled for with dice, the final started as the final (换三张, extra hands on a podium tie) —
until the prize ranking is decided.

The bots act for every seat from the referee's view of a table: they roll for the first dealer,
deal the 108 tiles from a shuffled set (a dealing machine), choose three tiles of one suit to
pass, declare the suit they hold least of as their void and discard it first, win whenever the
hand allows, pong and kong now and then, and otherwise keep the tiles that help their hand.
Every move is judged by the server like any other.
"""
from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable

from rules.groups import PRIZES, stage_sizes
from rules.mahjong.session import still_rolling
from rules.mahjong.sichuan import MJS
from rules.mahjong.tiles import SUITS, Meld, shifted, suit, tile_set
from rules.mahjong.winning import is_winning_hand

from .mahjong import Outcome
from .runner import Api, count_events, play_match

Action = tuple[str, dict]
ADVANCE = 2                     # T-7.2: the top two of each group go on
MAX_MOVES = 20_000              # a table that does not end is a bug, not a long game
# how much a tile helps a hand: copies held, and neighbours in its suit
_NEAR = {t: tuple((n, 3 - abs(d)) for d in (-2, -1, 1, 2) if (n := shifted(t, d)))
         for t in tile_set(108)}


# --- the bots ------------------------------------------------------------------------------------

def next_action(view: dict, rng: random.Random) -> Action | None:
    """The next event of a table, from the referee's view of it; None once the session is over."""
    if view["status"] == "completed":
        return None
    if view["status"] == "rolling":
        return _roll_for_dealer(view, rng)
    hand = view["current_hand"]
    if hand is None or hand["phase"] == "over":
        return _deal(view, rng)
    number, phase = hand["hand"], hand["phase"]
    if phase == "exchange":
        return _exchange(hand, number, rng)
    if phase == "void":
        return _void(hand, number)
    if phase == "claims":
        return _answer_claims(hand, number, rng)
    if phase == "draw":
        end = hand["replacement"]           # MJS-1.2: a kong's replacement, from the end
        tile = hand["wall"][-1] if end else hand["wall"][0]
        return "TileDrawn", {"hand": number, "seat": hand["turn"], "tile": tile, "fromEnd": end}
    return _turn(hand, number, rng)


def _roll_for_dealer(view: dict, rng: random.Random) -> Action:
    """MJS-1.3: the next seat that rolls for the first deal."""
    rounds = [{r["seat"]: tuple(r["dice"]) for r in round_} for round_ in view["first_dealer_rolls"]]
    rolling, current = still_rolling(rounds)
    seat = min(rolling - set(current))
    return "DiceRolled", {"purpose": "firstDealer", "seat": seat, "dice": _throw(rng)}


def _throw(rng: random.Random) -> list[int]:
    return [rng.randint(1, 6), rng.randint(1, 6)]


def _deal(view: dict, rng: random.Random) -> Action:
    """MJS-1.2: a dealing machine's deal — the dealer 14 tiles, the others 13, the wall."""
    tiles = list(tile_set(108))
    rng.shuffle(tiles)
    dealer, hands, start = view["dealer"], [], 0
    for seat in range(4):
        size = 14 if seat == dealer else 13
        hands.append(tiles[start:start + size])
        start += size
    return "TilesDealt", {"hand": view["next_hand"], "hands": hands, "wall": tiles[start:]}


def _usefulness(tile: str, held: Counter) -> int:
    return 3 * (held[tile] - 1) + sum(held[n] * w for n, w in _NEAR[tile])


def _exchange(hand: dict, number: int, rng: random.Random) -> Action:
    """MJS-2.1: each seat passes the three least useful tiles of the suit it holds least of
    (three at least); once all have chosen, the dealer rolls."""
    ex = hand["exchange"]
    seat = next((s for s, chosen in enumerate(ex["chosen"]) if not chosen), None)
    if seat is None:
        return "DiceRolled", {"purpose": "exchange", "hand": number, "seat": hand["dealer"],
                              "dice": _throw(rng)}
    held = Counter(hand["seats"][seat]["concealed"])
    by_suit = {s: [t for t in held.elements() if suit(t) == s] for s in SUITS}
    chosen = min((s for s in SUITS if len(by_suit[s]) >= 3), key=lambda s: len(by_suit[s]))
    tiles = sorted(by_suit[chosen], key=lambda t: _usefulness(t, held))[:3]
    return "ExchangeTilesSelected", {"hand": number, "seat": seat, "tiles": tiles}


def _void(hand: dict, number: int) -> Action:
    """MJS-2.2: the next seat to declare names the suit it holds least of."""
    seat = next(s for s, done in enumerate(hand["voids_declared"]) if not done)
    held = Counter(suit(t) for t in hand["seats"][seat]["concealed"])
    return "VoidSuitDeclared", {"hand": number, "seat": seat,
                                "suit": min(SUITS, key=lambda s: (held[s], s))}


def _answer_claims(hand: dict, number: int, rng: random.Random) -> Action:
    """MJS-3.3: a seat that may claim answers — a win always, a kong or pong now and then."""
    window = hand["claim_window"]
    answered = set(window["passed"]) | {c["seat"] for c in window["claims"]}
    seat = next(int(s) for s, kinds in sorted(window["may"].items())
                if kinds and int(s) not in answered)
    kinds, tile = window["may"][str(seat)], window["tile"]
    base = {"hand": number, "seat": seat}
    if "win" in kinds:
        return "Claim", {**base, "kind": "win"}
    if "kong" in kinds and rng.random() < 0.5:
        return "Claim", {**base, "kind": "kong", "tiles": [tile] * 3}
    if "pong" in kinds and rng.random() < 0.4:
        return "Claim", {**base, "kind": "pong", "tiles": [tile] * 2}
    return "ClaimPassed", base


def _melds(seat: dict) -> tuple[Meld, ...]:
    return tuple(Meld(m["kind"], tuple(m["tiles"])) for m in seat["melds"])


def _turn(hand: dict, number: int, rng: random.Random) -> Action:
    """MJS-3.2, 3.4, 5: win when the hand is a win, make a kong now and then, else discard
    the void suit first, then the least useful tile."""
    seat = hand["turn"]
    me = hand["seats"][seat]
    concealed, void, drawn = me["concealed"], hand["voids"][seat], me["drawn"]
    base = {"hand": number, "seat": seat}
    first_turn = seat == hand["dealer"] and not any(s["discards"] or s["melds"]
                                                    for s in hand["seats"])
    clean = not any(suit(t) == void for t in concealed) and \
        not any(suit(m["tiles"][0]) == void for m in me["melds"])
    if (drawn is not None or first_turn) and clean and hand["barred"][seat] is None and \
            is_winning_hand(concealed, _melds(me), MJS):
        return "Win", base
    kong = _kong(hand, me, drawn, first_turn, void)
    if kong is not None and rng.random() < 0.5:
        return "KongDeclared", {**base, **kong}
    held = Counter(concealed)
    voids = [t for t in held if suit(t) == void]
    if voids:
        return "TileDiscarded", {**base, "tile": rng.choice(sorted(voids))}
    scores = {t: _usefulness(t, held) for t in held}
    least = min(scores.values())
    tile = rng.choice(sorted(t for t, n in scores.items() if n == least))
    return "TileDiscarded", {**base, "tile": tile}


def _kong(hand: dict, me: dict, drawn: str | None, first_turn: bool, void: str) -> dict | None:
    """MJS-3.4: a concealed kong on drawing the fourth (or of four dealt to the dealer), or an
    added kong of the tile just drawn; never of the void suit, and not without a replacement."""
    if hand["wall_count"] == 0:
        return None
    held = Counter(me["concealed"])
    fours = [t for t, n in held.items() if n == 4 and suit(t) != void
             and (t == drawn or first_turn)]
    if fours:
        return {"kind": "concealed", "tile": fours[0]}
    if drawn is not None and any(m["kind"] == "pong" and m["tiles"][0] == drawn
                                 for m in me["melds"]):
        return {"kind": "added", "tile": drawn}
    return None


# --- the event ---------------------------------------------------------------------------------

Observer = Callable[[str, str, dict], None]


def check_players(players: int) -> None:
    """T-7.2: groups of four, the top two on, down to a final of four (16 → 8 → 4)."""
    sizes = stage_sizes(players, ADVANCE)
    if players < 4 or any(n % 4 for n in sizes) or sizes[-1] != 4:
        raise ValueError(f"{players} players do not make groups of four down to a final of "
                         f"four with the top {ADVANCE} going on (4, 8, 16, 32 … do)")


def simulate(api_url: str, players: int = 16, seed: int = 1, match_settings: dict | None = None,
             observe: Observer | None = None, token: str | None = None) -> Outcome:
    """Plays the Sichuan event of ``players`` to its prize ranking; returns what happened.
    ``observe(tournament, table, view)`` sees the referee's view of a table before every move.
    ``Outcome.lots`` counts the rounds of tie dice."""
    check_players(players)
    rng, api, started = random.Random(seed), Api(api_url, token), time.perf_counter()
    try:
        tid = _create(api, players, seed, match_settings)
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
                outcome.lots += _roll_at_the_cut(api, tid, stage, rng)
                continue
            if groups["next_stage"] is None:
                break
            api.call("POST", f"{base}/draws", {})
        while not (standings := api.call("GET", f"{base}/standings"))["final"]:
            outcome.lots += _roll_for_a_place(api, tid, standings, rng)
        outcome.standings, outcome.groups = standings, api.call("GET", f"{base}/groups")
        outcome.event_counts = count_events(api, tid)
        outcome.requests = api.requests
        outcome.seconds = time.perf_counter() - started
        return outcome
    finally:
        api.close()


def _create(api: Api, players: int, seed: int, match_settings: dict | None) -> str:
    # The bots answer each discard at once; a window longer than the rule's 3 s only keeps a
    # loaded machine from turning one slow request into a late claim (MJS-3.3).
    settings = {"match": {"claimWindowSeconds": 30, **(match_settings or {})}}
    created = api.call("POST", "/v1/tournaments", {
        "name": f"paiju simulate mjs (seed {seed})", "game": "MJS", "format": "groups",
        "settings": settings})
    tid = created["id"]
    api.call("POST", f"/v1/tournaments/{tid}/events", {"events": [
        {"type": "TeamRegistered", "stream": f"tournament-{tid}",
         "data": {"team_id": f"player-{n}", "name": f"Player {n}", "players": [f"player {n}"]}}
        for n in range(1, players + 1)]})
    return tid


def play_table(api: Api, tid: str, match_id: str, rng: random.Random,
               observe: Observer | None = None) -> int:
    """Starts the table (the server starts the final as the final, T-7.4) and lets the bots
    play its session; returns the hands played."""
    return play_match(api, tid, match_id, next_action, rng, observe,
                      max_moves=MAX_MOVES)["hands_played"]


def _dice(api: Api, tid: str, stage: int, players: list[str], rng: random.Random) -> int:
    """T-7.2 / T-7.5: the tied players roll two dice each; the round is posted."""
    api.call("POST", f"/v1/tournaments/{tid}/events", {
        "type": "TieDiceRolled", "stream": f"tournament-{tid}",
        "data": {"round": stage, "rolls": {p: _throw(rng) for p in players}},
        "meta": {"source": "paiju simulate mjs"}})
    return 1


def _roll_at_the_cut(api: Api, tid: str, stage: dict, rng: random.Random) -> int:
    """T-7.2: at a table where equal scores would send too many through, those players roll."""
    for table in stage["tables"]:
        seats = sorted(table["seats"], key=lambda s: s["place"])
        cut = seats[ADVANCE - 1]["place"]
        if sum(s["place"] <= ADVANCE for s in seats) != ADVANCE:
            return _dice(api, tid, stage["stage"],
                         [s["team"] for s in seats if s["place"] == cut], rng)
    raise RuntimeError(f"stage {stage['stage']} awaits dice nobody can roll: "
                       f"{stage['awaiting_lots']}")


def _roll_for_a_place(api: Api, tid: str, standings: dict, rng: random.Random) -> int:
    """T-7.5: the players tied at a prize place roll."""
    rows = standings["ranking"]
    first = next(r for r in rows if r["tied"] and r["place"] <= standings["prize_places"])
    return _dice(api, tid, first["stage"],
                 [r["team"] for r in rows if r["place"] == first["place"]], rng)


def report(outcome: Outcome) -> str:
    """What the simulation printed: each table's points, the final's extra hands, the podium and
    the prizes to 12th (T-7.5), the event counts."""
    events = sum(outcome.event_counts.values())
    lines = [(f"tournament {outcome.tournament_id}: {outcome.tables} tables, {outcome.hands} "
              f"hands, {outcome.lots} rounds of tie dice, {events} events, "
              f"{outcome.requests} requests in {outcome.seconds:.1f} s")]
    for stage in outcome.groups["stages"]:
        kind = "final" if stage["final"] and len(stage["tables"]) == 1 else \
            f"stage {stage['stage']}"
        lines.append(f"{kind}:")
        for table in stage["tables"]:
            points = ", ".join(f"{s['team']} {s['coins']}" for s in
                               sorted(table["seats"], key=lambda s: s["place"]))
            extra = f"; extra hands {table['tiebreak_results']}" \
                if any(table["tiebreak_results"]) else ""
            lines.append(f"  {table['match_id']} ({table['hands_played']} hands): "
                         f"{points}{extra}")
    prizes = PRIZES["MJS"]
    lines.append("podium: " + ", ".join(f"{r['place']}. {r['team']} ({r['coins']} points, "
                                        f"{prizes[r['place']]})" for r in outcome.podium))
    lines.append("4th-12th (a commemorative water bottle each): " + ", ".join(
        f"{r['place']}. {r['team']}" for r in outcome.standings["ranking"]
        if 4 <= r["place"] <= 12))
    lines.append("events: " + ", ".join(f"{t} {n}" for t, n in
                                        sorted(outcome.event_counts.items())))
    return "\n".join(lines)
