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
from functools import partial

from rules.groups.event import PRIZES
from rules.groups.stages import stage_sizes
from rules.mahjong.sichuan import MJS
from rules.mahjong.tiles import SUITS, suit
from rules.mahjong.winning import is_winning_hand
from rules.messages import N_, Message

from . import mahjong_bots as tile_bots
from .groups import (
    Observer,
    Outcome,
    create_event,
    planned_tables,
    play_event,
    table_line,
)
from .api import Api
from .reports import QUIET, Progress, cost, events_line, finished
from .tables import play_match

ADVANCE = 2                     # T-7.2: the top two of each group go on
MAX_MOVES = 20_000              # a table that does not end is a bug, not a long game
CLAIMS = (("kong", 0.5), ("pong", 0.4))   # MJS-3.3: how often a bot claims what it may (no chow)


# --- the bots ------------------------------------------------------------------------------------

def next_action(view: dict, rng: random.Random, batch: bool = True) -> tile_bots.Move | None:
    """The next move of a table, from the referee's view of it; None once the session is over.
    ``batch``: a claim window's answers posted together (see ``answer_claims``)."""
    return tile_bots.table_action(view, rng, _deal, partial(_play, settings=view["settings"],
                                                            batch=batch))


def _play(hand: dict, number: int, rng: random.Random, settings: dict,
          batch: bool = True) -> tile_bots.Move:
    phase = hand["phase"]
    if phase == "exchange":
        return _exchange(hand, number, rng)
    if phase == "void":
        return _void(hand, number)
    if phase == "claims":           # MJS-3.3: a win always, a kong or pong now and then
        return tile_bots.answer_claims(hand, number, rng, CLAIMS, _draw, batch,
                                       partial(_turn, settings=settings))
    if phase == "draw":
        return _draw(hand, number, hand["turn"])
    return _turn(hand, number, rng, settings)


def _draw(hand: dict, number: int, seat: int) -> tile_bots.Action:
    """The next tile of the wall — a kong's replacement from its end (MJS-1.2)."""
    end = hand["replacement"] and hand["phase"] == "draw"
    tile = hand["wall"][-1] if end else hand["wall"][0]
    return "TileDrawn", {"hand": number, "seat": seat, "tile": tile, "fromEnd": end}


def _deal(view: dict, rng: random.Random) -> tile_bots.Action:
    """MJS-1.2: a dealing machine's deal — the dealer 14 tiles, the others 13, the wall."""
    tiles = tile_bots.shuffled(108, rng)
    dealer, hands, start = view["dealer"], [], 0
    for seat in range(4):
        size = 14 if seat == dealer else 13
        hands.append(tiles[start:start + size])
        start += size
    return "TilesDealt", {"hand": view["next_hand"], "hands": hands, "wall": tiles[start:]}


def _exchange(hand: dict, number: int, rng: random.Random) -> tile_bots.Action:
    """MJS-2.1: each seat passes the three least useful tiles of the suit it holds least of
    (three at least); once all have chosen, the dealer rolls."""
    ex = hand["exchange"]
    seat = next((s for s, chosen in enumerate(ex["chosen"]) if not chosen), None)
    if seat is None:
        return "DiceRolled", {"purpose": "exchange", "hand": number, "seat": hand["dealer"],
                              "dice": tile_bots.throw(rng)}
    held = Counter(hand["seats"][seat]["concealed"])
    by_suit = {s: [t for t in held.elements() if suit(t) == s] for s in SUITS}
    chosen = min((s for s in SUITS if len(by_suit[s]) >= 3), key=lambda s: len(by_suit[s]))
    tiles = sorted(by_suit[chosen], key=lambda t: tile_bots.usefulness(t, held))[:3]
    return "ExchangeTilesSelected", {"hand": number, "seat": seat, "tiles": tiles}


def _void(hand: dict, number: int) -> tile_bots.Action:
    """MJS-2.2: the next seat to declare names the suit it holds least of."""
    seat = next(s for s, done in enumerate(hand["voids_declared"]) if not done)
    held = Counter(suit(t) for t in hand["seats"][seat]["concealed"])
    return "VoidSuitDeclared", {"hand": number, "seat": seat,
                                "suit": min(SUITS, key=lambda s: (held[s], s))}


def _turn(hand: dict, number: int, rng: random.Random, settings: dict) -> tile_bots.Action:
    """MJS-3.2, 3.4, 5: win when the hand is a win, make a kong now and then, else discard
    the void suit first, then the least useful tile."""
    seat = hand["turn"]
    me = hand["seats"][seat]
    concealed, void, drawn = me["concealed"], hand["voids"][seat], me["drawn"]
    base = {"hand": number, "seat": seat}
    opening = tile_bots.first_turn(hand, seat)
    clean = not any(suit(t) == void for t in concealed) and \
        not any(suit(m["tiles"][0]) == void for m in me["melds"])
    if (drawn is not None or opening) and clean and hand["barred"][seat] is None and \
            is_winning_hand(concealed, tile_bots.melds(me), MJS):
        return "Win", base
    kong = _kong(hand, me, drawn, opening or settings["concealedKongLater"], void)
    if kong is not None and rng.random() < 0.5:
        return "KongDeclared", {**base, **kong}
    held = Counter(concealed)
    voids = [t for t in held if suit(t) == void]
    if voids:
        return "TileDiscarded", {**base, "tile": rng.choice(sorted(voids))}
    return "TileDiscarded", {**base, "tile": tile_bots.least_useful(held, rng)}


def _kong(hand: dict, me: dict, drawn: str | None, any_four: bool, void: str) -> dict | None:
    """MJS-3.4: a concealed kong of four held (``any_four``: ``concealedKongLater``, or the
    dealer's first turn; else only on drawing the fourth), or an added kong of the tile just
    drawn; never of the void suit, and not without a replacement."""
    if hand["wall_count"] == 0:
        return None
    held = Counter(me["concealed"])
    fours = [t for t, n in held.items() if n == 4 and suit(t) != void
             and (t == drawn or any_four)]
    if fours:
        return {"kind": "concealed", "tile": fours[0]}
    if drawn is not None and any(m["kind"] == "pong" and m["tiles"][0] == drawn
                                 for m in me["melds"]):
        return {"kind": "added", "tile": drawn}
    return None


# --- the event ---------------------------------------------------------------------------------

def check_players(players: int) -> None:
    """T-7.2: groups of four, the top two on, down to a final of four (16 → 8 → 4)."""
    sizes = stage_sizes(players, ADVANCE)
    if players < 4 or any(n % 4 for n in sizes) or sizes[-1] != 4:
        raise ValueError(Message("{players} players do not make groups of four down to a "
                                 "final of four with the top {advance} going on (4, 8, 16, 32 "
                                 "… do)", players=players, advance=ADVANCE))


def simulate(api_url: str, players: int = 16, seed: int = 1, match_settings: dict | None = None,
             observe: Observer | None = None, token: str | None = None,
             tables_at_once: int = 1, batch_claims: bool = True,
             progress: Progress = QUIET) -> Outcome:
    """Plays the Sichuan event of ``players`` to its prize ranking; returns what happened.
    ``observe(tournament, table, view)`` sees the referee's view of a table before every move.
    ``Outcome.lots`` counts the rounds of tie dice; ``tables_at_once``: the tables of a stage
    played at the same time; ``progress`` is told of each table as it ends."""
    check_players(players)
    rng, started = random.Random(seed), time.perf_counter()
    with Api(api_url, token) as api:
        tid = _create(api, players, seed, match_settings)
        progress.created(tid, N_("tables"), planned_tables(players, ADVANCE))
        play = partial(play_table, tid=tid, observe=observe, batch=batch_claims)
        outcome = play_event(api, tid, rng, play, _roll_at_the_cut, _roll_for_a_place, seed,
                             tables_at_once, progress)
        return finished(outcome, api, started)


def _create(api: Api, players: int, seed: int, match_settings: dict | None) -> str:
    # The bots answer each discard at once; a window longer than the rule's 3 s only keeps a
    # loaded machine from turning one slow request into a late claim (MJS-3.3).
    settings = {"match": {"claimWindowSeconds": 30, **(match_settings or {})}}
    return create_event(api, "MJS", seed, players, settings)


def play_table(api: Api, match_id: str, rng: random.Random, tid: str,
               observe: Observer | None = None, batch: bool = True) -> int:
    """Starts the table (the server starts the final as the final, T-7.4) and lets the bots
    play its session; returns the hands played."""
    return play_match(api, tid, match_id, next_action, rng, observe, {"batch": batch},
                      max_moves=MAX_MOVES)["hands_played"]


def _dice(api: Api, tid: str, stage: int, players: list[str], rng: random.Random) -> int:
    """T-7.2 / T-7.5: the tied players roll two dice each; the round is posted."""
    api.call("POST", f"/v1/tournaments/{tid}/events", {
        "type": "TieDiceRolled", "stream": f"tournament-{tid}",
        "data": {"round": stage, "rolls": {p: tile_bots.throw(rng) for p in players}},
        "meta": {"source": "paiju simulate mjs"}})
    return 1


def _roll_at_the_cut(api: Api, tid: str, stage: dict, groups: dict, rng: random.Random) -> int:
    """T-7.2: at a table where equal scores would send too many through, those players roll
    (the top ``ADVANCE`` of a group go on in every stage: ``groups`` adds nothing)."""
    for table in stage["tables"]:
        seats = sorted(table["seats"], key=lambda s: s["place"])
        cut = seats[ADVANCE - 1]["place"]
        if sum(s["place"] <= ADVANCE for s in seats) != ADVANCE:
            return _dice(api, tid, stage["stage"],
                         [s["team"] for s in seats if s["place"] == cut], rng)
    raise RuntimeError(Message("stage {stage} awaits dice nobody can roll: {awaiting}",
                               stage=stage["stage"], awaiting=stage["awaiting_lots"]))


def _roll_for_a_place(api: Api, tid: str, standings: dict, rng: random.Random) -> int:
    """T-7.5: the players tied at a prize place roll."""
    rows = standings["ranking"]
    first = next(r for r in rows if r["tied"] and r["place"] <= standings["prize_places"])
    return _dice(api, tid, first["stage"],
                 [r["team"] for r in rows if r["place"] == first["place"]], rng)


def report(outcome: Outcome, say=str) -> str:
    """What the simulation printed: each table's points, the final's extra hands, the podium and
    the prizes to 12th (T-7.5), the event counts; ``say``: the reader's words (``str``:
    English)."""
    lines = [say(Message("tournament {tournament}: {tables} tables, {hands} hands, {lots} "
                         "rounds of tie dice, {cost}", tournament=outcome.tournament_id,
                         tables=outcome.tables, hands=outcome.hands, lots=outcome.lots,
                         cost=cost(outcome, say)))]
    for stage in outcome.groups["stages"]:
        if stage["final"] and len(stage["tables"]) == 1:
            lines.append(say("final:"))
        else:
            lines.append(say(Message("stage {stage}:", stage=stage["stage"])))
        for table in stage["tables"]:
            extra = say(Message("; extra hands {results}", results=table["tiebreak_results"])) \
                if any(table["tiebreak_results"]) else ""
            lines.append(table_line(table, extra, say))
    # the prizes are the seed's words (rules.groups.event.PRIZES): said if the catalogue has them
    prizes = {place: say(prize) for place, prize in PRIZES["MJS"].items()}
    places = [say(Message("{place}. {team} ({coins} points, {prize})", place=r["place"],
                          team=r["team"], coins=r["coins"], prize=prizes[r["place"]]))
              for r in outcome.podium]
    lines.append(say(Message("podium: {places}", places=", ".join(places))))
    lines.append(say(Message("4th-12th (a commemorative water bottle each): {places}",
                             places=", ".join(f"{r['place']}. {r['team']}"
                                              for r in outcome.standings["ranking"]
                                              if 4 <= r["place"] <= 12))))
    lines.append(events_line(outcome.event_counts, say))
    return "\n".join(lines)
