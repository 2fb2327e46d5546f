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
from functools import partial

from rules.groups.stages import stage_sizes
from rules.mahjong.mjo import MJO
from rules.mahjong.wall import second_roller
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

CLAIMS = (("pong", 0.5), ("chow", 0.3))   # MJO-4: how often a bot claims what it may


# --- the bots ------------------------------------------------------------------------------------

def next_action(view: dict, rng: random.Random, batch: bool = True) -> tile_bots.Move | None:
    """The next event of a table, from the referee's view of it; None once the session is over."""
    return tile_bots.table_action(view, rng, _next_deal, partial(_play, batch=batch))


def _play(hand: dict, number: int, rng: random.Random, batch: bool = True) -> tile_bots.Move:
    if hand["phase"] == "claims":      # MJO-4: a win always, a pong or chow now and then
        return tile_bots.answer_claims(hand, number, rng, CLAIMS, _draw, batch, _turn)
    if hand["phase"] == "draw":
        return _draw(hand, number, hand["turn"])
    return _turn(hand, number, rng)


def _draw(hand: dict, number: int, seat: int) -> tile_bots.Action:
    return "TileDrawn", {"hand": number, "seat": seat, "tile": hand["wall"][0]}


def _next_deal(view: dict, rng: random.Random) -> tile_bots.Action:
    """MJO-2.3: two throws break the wall — the dealer's, then the seat his total names — and
    the hand is dealt from four shuffled walls of 34."""
    number, dealer, throws = view["next_hand"], view["dealer"], view["wall_dice"]
    if len(throws) < 2:
        seat = dealer if not throws else second_roller(dealer, sum(throws[0]["dice"]))
        return "DiceRolled", {"purpose": "wallBreak", "hand": number, "seat": seat,
                              "dice": tile_bots.throw(rng)}
    tiles = tile_bots.shuffled(136, rng)
    return "TilesDealt", {"hand": number, "walls": [tiles[34 * k:34 * k + 34] for k in range(4)]}


def _turn(hand: dict, number: int, rng: random.Random) -> tile_bots.Action:
    """MJO-3.2, MJO-5.4: win when the hand is a win, else discard the least useful tile."""
    seat = hand["turn"]
    me = hand["seats"][seat]
    concealed = me["concealed"]
    if (me["drawn"] is not None or tile_bots.first_turn(hand, seat)) and \
            is_winning_hand(concealed, tile_bots.melds(me), MJO):
        return "Win", {"hand": number, "seat": seat}
    if hand["wall_count"] == 0:  # the last tile drawn and no win: the hand is drawn (MJO-6.1)
        return "ExhaustiveDrawDeclared", {"hand": number, "seat": seat}
    tile = tile_bots.least_useful(Counter(concealed), rng)
    return "TileDiscarded", {"hand": number, "seat": seat, "tile": tile}


# --- the event ---------------------------------------------------------------------------------

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
             token: str | None = None, tables_at_once: int = 1,
             batch_claims: bool = True, progress: Progress = QUIET) -> Outcome:
    """Plays a groups-of-four MJO event of ``players`` to its end (with ``advance``: stage after
    stage down to a final table); returns what happened. ``observe(tournament, table, view)``
    sees the referee's view of a table before every move; ``tables_at_once``: the tables of a
    stage played at the same time; ``progress`` is told of each table as it ends."""
    rng, started = random.Random(seed), time.perf_counter()
    with Api(api_url, token) as api:
        tid = _create(api, players, seed, advance, match_settings)
        progress.created(tid, N_("tables"), planned_tables(players, advance))
        play = partial(play_table, tid=tid, observe=observe, batch=batch_claims)
        outcome = play_event(api, tid, rng, play, _draw_qualifying_lots, _draw_prize_lots, seed,
                             tables_at_once, progress)
        return finished(outcome, api, started)


def _create(api: Api, players: int, seed: int, advance: int | None,
            match_settings: dict | None) -> str:
    # The bots answer each discard at once; a window longer than the rule's 3 s only keeps a
    # loaded machine from turning one slow request into a late claim (MJO-4.5).
    settings = {"match": {"sessionRounds": 1, "claimWindowSeconds": 30, **(match_settings or {})}}
    if advance is not None:
        settings["advance"] = advance
    return create_event(api, "MJO", seed, players, settings)


def play_table(api: Api, match_id: str, rng: random.Random, tid: str,
               observe: Observer | None = None, batch: bool = True) -> int:
    """Starts the table and lets the bots play its session; returns the hands played."""
    return play_match(api, tid, match_id, next_action, rng, observe,
                      {"batch": batch})["hands_played"]


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
    raise RuntimeError(Message("stage {stage} awaits lots nobody can draw: {awaiting}",
                               stage=stage["stage"], awaiting=stage["awaiting_lots"]))


def _draw_prize_lots(api: Api, tid: str, standings: dict, rng: random.Random) -> int:
    """T-8.3: lots between the players tied for a prize place."""
    rows = standings["ranking"]
    place = next(r["place"] for r in rows if r["tied"] and r["place"] <= standings["prize_places"])
    tied = [r["team"] for r in rows if r["place"] == place]
    return _lots(api, tid, rows[0]["stage"], tied, rng)


def report(outcome: Outcome, say=str) -> str:
    """What the simulation printed: the final coins, the podium and the event counts; ``say``:
    the reader's words (``str``: English)."""
    lines = [say(Message("tournament {tournament}: {tables} tables, {hands} hands, {lots} lots, "
                         "{cost}", tournament=outcome.tournament_id, tables=outcome.tables,
                         hands=outcome.hands, lots=outcome.lots, cost=cost(outcome, say)))]
    for stage in outcome.groups["stages"]:
        if stage["final"]:
            lines.append(say("final:"))
        else:
            lines.append(say(Message("stage {stage}:", stage=stage["stage"])))
        lines += [table_line(table, say=say) for table in stage["tables"]]
    places = [say(Message("{place}. {team} ({coins} coins)", place=r["place"], team=r["team"],
                          coins=r["coins"])) for r in outcome.podium]
    lines.append(say(Message("podium: {places}", places=", ".join(places))))
    lines.append(events_line(outcome.event_counts, say))
    return "\n".join(lines)
