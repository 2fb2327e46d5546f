"""The views of a mahjong table and its hands, as each viewer may see them.

Hidden information (rules README §5): a seat's concealed tiles — and the tile it just drew — are
shown to that seat only, and everything to referees, the committee and auditors; the wall's
order is the officials' alone. The discard pools (in the order discarded, claimed tiles marked),
the melds, the wall count, the claims called and every payment are public. What a seat may claim
— and so the timer's report that it let a pong's 3 s pass (MJO-8.1) — is its own and the
officials'. A finished hand is public.

The Sichuan game (MJS) adds, per hand, the exchange of three (the tiles pass face down: a seat
sees the three tiles it passes and, once the exchange is made, the three it receives — the
others' only once the hand is over, MJS-2.1), the void suits (shown together once
all four are declared, MJS-2.2), the ledger — every payment with its cause and rule, as it
happens (MJS-6, 7, 8.3, 9, 10) —, who is out, who is barred from winning and why, the warnings,
and at an exhaustive draw the check of every player still in (MJS-8.2); a winner's tiles are
laid down, public (seed 003 「和牌後…亮明」). 过水 (MJS-5.6) is known to the seat and the officials.
"""
from __future__ import annotations

from itertools import islice

from rules.mahjong import sichuan
from rules.mahjong.hand import Hand, SeatHand
from rules.mahjong.session import ranking
from rules.mahjong.table import HandRecord, Table, settings_dict
from rules.mahjong.tiles import WINDS, Meld, sort_tiles

from .memo import by_identity
from .viewers import Viewer


# a hand's ledger and draw checks, derived once per state however often the table reads it
_ledger = by_identity(64)(sichuan.ledger)
_draw_checks = by_identity(64)(sichuan.draw_checks)


def match_view(t: Table, viewer: Viewer) -> dict:
    rec = t.current or (t.finished[-1] if t.finished else None)
    rotation = t.session.rotation if t.session is not None else None
    standings = _ranking(t)
    return {
        "match_id": t.match_id, "game": t.game, "round": t.round, "teams": dict(t.teams),
        "seats": [{"seat": s, "player": p, "team": t.entrant(s), "coins": t.balances[s],
                   "wind": rotation.seat_wind(s) if rotation else None}
                  for s, p in enumerate(t.seats)],
        "settings": settings_dict(t.settings),
        "status": t.status,
        "first_dealer": rotation.first_dealer if rotation else None,
        "first_dealer_rolls": [[{"seat": s, "dice": list(d)} for s, d in sorted(r.items())]
                               for r in t.first_rolls],
        "dealer": t.dealer,
        "round_wind": rotation.round_wind if rotation else None,
        "rounds_completed": rotation.rounds_completed if rotation else 0,
        "hands_played": t.hands_played, "next_hand": t.next_hand,
        "balances": list(t.balances),
        "ranking": standings,
        "winner": _winner(t, standings),
        "time_limit_reached": t.time_called,
        "wall_dice": _throws(t.wall_dice),
        "current_hand": hand_view(t, rec, viewer) if rec is not None else None,
        "last_result": _result_row(t, t.finished[-1]) if t.finished else None,
        "penalties": [dict(p) for p in t.penalties],
        "rulings": [dict(r) for r in t.rulings],
        **(_sichuan_table(t) if t.game == "MJS" else {}),
    }


def _sichuan_table(t: Table) -> dict:
    """MJS: whether this is the event's final (T-7.4) and the results of its extra hands, which
    order players tied for a podium place."""
    return {"final": t.settings.final,
            "tiebreak_results": [list(r) for r in zip(*t.tiebreaks, strict=True)]}


def _ranking(t: Table) -> list[dict]:
    """MJO-7.4: the table's players by coins (the derived ``SessionCompleted`` once over)."""
    seat_of = {t.entrant(s): s for s in range(len(t.seats))}
    return [{"place": s.place, "seat": seat_of[s.player], "team": s.player,
             "player": t.seats[seat_of[s.player]], "coins": s.coins, "tied": s.tied}
            for s in ranking(t)]


def _winner(t: Table, standings: list[dict]) -> str | None:
    """The entrant with the most coins once the session is over (MJO-7.4), unless tied."""
    if t.status != "completed" or not standings or standings[0]["tied"]:
        return None
    return standings[0]["team"]


def _throws(throws) -> list[dict]:
    return [{"seat": seat, "dice": list(dice)} for seat, dice in throws]


def _result_row(t: Table, rec: HandRecord) -> dict:
    """A finished hand's result (the derived ``HandCompleted``, MJO section 10 row 9), with the
    penalties assessed while it was played, so that every coin between the balances before and
    after is explained."""
    o, state = rec.outcome, rec.state
    row = {"hand": rec.number, "dealer": o.dealer, "round_wind": rec.round_wind,
           "result": o.result, "winners": list(o.winners), "wins": _wins(state),
           "payments": list(o.payments), "balances_before": list(rec.balances_before),
           "penalties": [dict(p) for p in rec.penalties],   # assessed during the hand
           "balances": list(o.balances), "next_dealer": o.next_dealer}
    if t.game == "MJS":
        # MJS-6 – 10: every point explained; before + payments + deductions = after, except
        # an extra hand of the final, which only orders tied players: there only its
        # penalties count in the scores (T-7.4, 7.6)
        row.update(deductions=list(o.deductions), tiebreak=o.tiebreak,
                   ledger=[p.to_dict() for p in _ledger(state)],
                   draw_checks=[c.to_dict() for c in _draw_checks(state)])
    return row


def _wins(state: Hand) -> list[dict]:
    if state.settings.game == "MJS":
        return [{"seat": w.seat, "tile": w.tile, "self_drawn": w.self_drawn,
                 "discarder": w.from_seat, "how": w.how,
                 "value": sichuan.win_value(state, w).to_dict()} for w in state.wins]
    return [{"seat": w.seat, "tile": w.tile, "self_drawn": w.self_drawn,
             "discarder": w.from_seat} for w in state.wins]


def hand_view(t: Table, rec: HandRecord, viewer: Viewer) -> dict:
    state, public = rec.state, not rec.in_play
    officials = public or viewer.privileged
    laid_down = set(state.winners) if state.settings.bloodyBattle else set()
    o = rec.outcome
    return {
        "hand": rec.number, "phase": state.phase, "dealer": state.dealer,
        "round_wind": rec.round_wind,
        "turn": state.turn if rec.in_play and state.phase != "ruling" else None,
        "wall_count": state.wall_count,
        "wall": list(state.wall) if officials and state.wall is not None else None,
        "wall_recorded": state.wall is not None,
        "wall_dice": _throws(rec.wall_dice),
        "seats": [_seat(t, state, s, officials or viewer.seat == s or s in laid_down)
                  for s in range(len(state.seats))],
        "claim_window": _window(rec, viewer, officials),
        "wins": _wins(state),
        "result": state.result,
        "ruling": _ruling(state, viewer, officials),
        "payments": list(o.payments) if o else None,
        "balances_before": list(rec.balances_before),
        "balances": list(o.balances) if o else None,
        "next_dealer": o.next_dealer if o else None,
        "time_limits": [dict(r) for r in rec.time_limits
                        if officials or r["limit"] != "pong" or viewer.seat == r["seat"]],
        "penalties": [dict(p) for p in t.penalties if p["hand"] == rec.number],
        "viewer": str(viewer),
        **(_sichuan_hand(rec, viewer, officials) if t.game == "MJS" else {}),
    }


def _sichuan_hand(rec: HandRecord, viewer, officials: bool) -> dict:
    """MJS: the exchange, the void suits, the ledger and the scores as it stands, each seat's
    standing in the bloody battle, and the checks of an exhaustive draw."""
    state = rec.state
    ledger = _ledger(state)
    revealed = all(v is not None for v in state.voids)
    return {
        "tiebreak": rec.tiebreak,
        "replacement": state.replacement,   # MJS-3.4: the next draw is from the wall's end
        "exchange": _exchange(state, viewer, officials),
        "voids": [v if revealed or officials or viewer.seat == s else None
                  for s, v in enumerate(state.voids)],
        "voids_declared": [v is not None for v in state.voids],
        "out": [state.is_out(s) for s in range(len(state.seats))],
        "barred": list(state.barred),
        "warnings": list(state.warnings),
        "passed_win": [s for s in sorted(state.passed_win) if officials or viewer.seat == s],
        "ledger": [p.to_dict() for p in ledger],
        # the scores as they stand — an extra hand of the final leaves them, but for its
        # penalties (T-7.4, 7.6)
        "scores": [b + n for b, n in zip(rec.balances_before, _scored(ledger, rec.tiebreak),
                                         strict=True)],
        "draw_checks": [c.to_dict() for c in _draw_checks(state)],
    }


def _scored(ledger, tiebreak: bool) -> tuple[int, ...]:
    """What the hand's payments change in the scores: all of them — or, in an extra hand of
    the final, only its penalties (T-7.4, T-7.6)."""
    return sichuan.net(p for p in ledger if not tiebreak or p.reason == "penalty")


def _exchange(state: Hand, viewer, officials: bool) -> dict | None:
    """MJS-2.1: the tiles pass face down — each seat sees the three it passes and, once the
    exchange is made, the three it receives (``received``); the officials see all, everyone
    once the hand is over (``officials`` is true then)."""
    ex = state.exchange
    if not state.settings.exchangeThree:
        return None
    if ex is None:
        return {"chosen": [False] * 4, "selections": [None] * 4, "received": [None] * 4,
                "dice": None, "direction": None}
    made = ex.red is not None

    def sees(seat: int) -> bool:
        return officials or viewer.seat == seat

    return {"chosen": [x is not None for x in ex.selections],
            "selections": [list(x) if x is not None and sees(s) else None
                           for s, x in enumerate(ex.selections)],
            "received": [list(ex.received(s)) if made and sees(s) else None
                         for s in range(len(ex.selections))],
            "dice": list(ex.dice) if made else None, "direction": ex.direction}


def _seat(t: Table, state: Hand, seat: int, sees: bool) -> dict:
    h: SeatHand = state.seats[seat]
    on_turn = state.turn == seat and state.phase == "discard"
    return {"seat": seat, "player": t.seats[seat], "team": t.entrant(seat),
            "wind": WINDS[(seat - state.dealer) % len(WINDS)],
            "tile_count": len(h.concealed),
            "concealed": list(h.concealed) if sees else None,
            "drawn": state.drawn if sees and on_turn else None,
            "melds": [_meld(m) for m in h.melds],
            "discards": [{"tile": d.tile, "claimed_by": d.claimed_by} for d in h.discards]}


def _meld(m: Meld) -> dict:
    return {"kind": m.kind, "tiles": list(sort_tiles(m.tiles)), "claimed": m.claimed,
            "from": m.from_seat, "concealed": m.concealed, "text": str(m)}


def _window(rec: HandRecord, viewer: Viewer, officials: bool) -> dict | None:
    """The open claim window (MJO-4.5): the claims called are public (a call is heard at the
    table), the tiles a claim would expose only to its seat; who passed, and what each seat
    could claim, only to that seat and the officials."""
    state = rec.state
    if state.phase != "claims" or state.window is None:
        return None
    w = state.window

    def sees(seat: int) -> bool:
        return officials or viewer.seat == seat

    claims = [{"seat": c.seat, "kind": c.kind,
               "tiles": list(c.tiles) if sees(c.seat) else None,
               "irregular": c.irregular if sees(c.seat) else None} for c in w.made]
    return {"discarder": w.discarder, "tile": w.tile, "robbing": w.robbing,
            "opened_at": rec.window_at,
            "claims": claims,
            "passed": [s for s in sorted(w.passed) if sees(s)],
            "may": {str(s): sorted(w.may[s]) for s in range(len(w.may))
                    if sees(s) and s != w.discarder}}


def _ruling(state: Hand, viewer: Viewer, officials: bool) -> dict | None:
    """MJO-5.6 (record enforcement): a win waiting for the referee. Its message shows the hand,
    so only to that seat and the officials."""
    r = state.ruling
    if r is None:
        return None
    sees = officials or viewer.seat == r.seat
    return {"seat": r.seat, "on_claim": r.on_claim, "rule": r.rule,
            "message": r.message if sees else None}


def summary(t: Table) -> dict:
    """One line of the list of matches."""
    return {"match_id": t.match_id, "game": t.game, "round": t.round, "teams": dict(t.teams),
            "status": t.status, "winner": _winner(t, _ranking(t)),
            "hands_played": t.hands_played, "balances": list(t.balances)}


def hand_results(t: Table, after: int, count: int) -> list[dict]:
    """The result rows of the finished hands numbered after ``after``, in order, at most
    ``count`` of them (the paged history of the match read): only those rows are made."""
    return [_result_row(t, rec) for rec in islice(
        (rec for rec in t.finished if rec.number > after), count)]


def numbered_hand_view(t: Table, number: int, viewer: Viewer) -> dict | None:
    rec = t.hand_number(number)
    return None if rec is None else hand_view(t, rec, viewer)
