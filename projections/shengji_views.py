"""The views of a Shengji match and its hands (SJ2 and SJ3), as each viewer may see them.

Hidden information (rules README §5): a seat's cards are shown to that seat, the kitty to the
dealer once he has taken it (SJ2-6.3; in SJ3 not after he has buried it, SJ3-5.1), the cards of
earlier tricks to their own player only (SJ2-15.2, SJ3-5.3), and everything to referees, the
committee and auditors. A finished hand is public. An SJ3 renege still open to correction
(until the next trick is led, SJ3-11.2) is shown to its player and the officials only.

An SJ3 match adds what seed 004's team event reads: ``result`` (null until the match is
completed; :func:`rules.shengji.match.match_result`), the lateness recorded and the move-time
breaches.
"""
from __future__ import annotations

from rules.match_clock import maybe_timestamp
from rules.shengji import scoring
from rules.shengji.cards import points
from rules.shengji.hand import Hand, Trick
from rules.shengji.match import Match, match_result
from rules.shengji.tricks import waiting_for, winning_so_far

from .viewers import Viewer


def match_view(m: Match, viewer: Viewer) -> dict:
    """The match; ``recording`` says how its hands were recorded (SJ2-18 / SJ3-15): a match of
    score-sheet rows (``sheet``, rules/shengji/sheet.py) has no card-by-card hand to show —
    ``current_hand`` is null and its rows are ``last_result`` and ``GET …/hands``."""
    hand = None if m.settings.by_sheet else m.hand
    view = {
        "match_id": m.match_id, "game": m.game, "round": m.round, "teams": dict(m.teams),
        "seats": [{"seat": s, "player": p, "side": scoring.side_of(s)} for s, p in enumerate(m.seats)],
        "settings": m.settings.to_dict(), "recording": m.settings.recording,
        "levels": {side: scoring.level_name(v) for side, v in m.levels.items()},
        "status": m.status, "winner": m.winner,
        "winner_team": m.teams[m.winner] if m.winner else None, "reason": m.reason,
        "hands_played": m.hands_played, "next_hand": m.next_hand, "next_dealer": m.next_dealer,
        "time_limit_reached": m.time_called,
        "current_hand": hand_view(m, hand, viewer) if hand is not None else None,
        "last_result": dict(m.history[-1]) if m.history else None,
        "rulings": [dict(r) for r in m.rulings],
    }
    if m.game == "SJ3":
        view.update(result=match_result(m), forfeited_by=m.forfeited_by,
                    lateness=[dict(entry) for entry in m.lateness],
                    time_breaches=[dict(b) for b in m.time_breaches])
    return view


def hand_view(m: Match, h: Hand, viewer: Viewer) -> dict:
    public = not h.in_play
    view = {
        "hand": h.number, "phase": h.phase, "level": h.level, "dealer": h.dealer,
        "dealer_side": h.dealer_side, "defenders": h.defenders,
        "trump": _trump(h), "bidding": h.bidding.to_dict(), "turn": h.turn(),
        "seats": [_seat(m, h, seat, viewer, public) for seat in range(4)],
        "kitty": _kitty(h, viewer, public),
        "current_trick": _current_trick(h, viewer, public) if h.trick else None,
        "tricks": [_past_trick(t, viewer, public, _may_look_back(h, t), _still_open(h, t))
                   for t in h.tricks],
        "defender_points": _defender_points(h),
        "penalties": [dict(p) for p in h.penalties],
        "follow_errors": [_error(e, viewer, public) for e in h.follow_errors],
        "irregularities": [dict(i) for i in h.irregularities],
        "result": dict(h.result) if h.result and h.phase == "completed" else None,
        "void_reason": h.void_reason,
        "viewer": str(viewer),
    }
    if h.variant.outcome_penalties:  # SJ3: several plays may wait for correction (SJ3-11.2)
        waiting = waiting_for(h) if h.in_play else None
        view.update(
            pending_corrections=[_error(e, viewer, public) for e in h.pending
                                 if _sees_open_error(e, viewer, public)],
            first_drawer=h.first_drawer, point_cards_won=_point_cards_won(h),
            waiting_for=None if waiting is None else
            {"kind": waiting[0], "seat": waiting[1], "seconds": waiting[2],
             "since": maybe_timestamp(h.clock)})
    else:
        view.update(pending_correction=_error(h.pending[-1], viewer, public) if h.pending else None,
                    kitty_error=h.kitty_error)
    return view


def _trump(h: Hand) -> dict | None:
    if h.trump is None:
        return None
    shown = {"level": h.trump.level, "suit": h.trump.suit, "no_trump": h.trump.suit is None,
             "source": h.trump_source}
    if not h.variant.no_trump:
        shown["chain"] = h.trump.chain  # SJ3-6.3 trumpChainAdjacency
    return shown


def _seat(m: Match, h: Hand, seat: int, viewer: Viewer, public: bool) -> dict:
    sees = public or viewer.privileged or viewer.seat == seat
    return {"seat": seat, "player": m.seats[seat], "side": scoring.side_of(seat),
            "card_count": len(h.hands[seat]),
            "cards": _sorted(h, h.hands[seat]) if sees else None,
            "dealt": _sorted(h, h.dealt[seat]) if sees else None}


def _kitty(h: Hand, viewer: Viewer, public: bool) -> dict:
    taken = h.phase not in ("declaring", "awaiting_dealer", "kitty")
    buried = h.phase not in ("declaring", "awaiting_dealer", "kitty", "burying")
    dealer_sees = viewer.seat is not None and viewer.seat == h.dealer and taken and \
        (h.variant.dealer_sees_buried_kitty or not buried)
    sees = public or viewer.privileged or dealer_sees
    shown = {"size": len(h.kitty), "cards": list(h.kitty) if sees else None,
             "dealt": list(h.dealt_kitty) if public or viewer.privileged else None}
    if h.variant.no_trump:  # SJ2-4.9: kitty card #3 turned up
        shown["card_3"] = h.dealt_kitty[2] if h.trump_source == "kitty3" else None
    elif h.trump_source == "kittyFirstNonJoker":  # SJ3-3.7: the card that fixed trump is shown
        shown["trump_card"] = next(c for c in h.dealt_kitty if c not in ("BJ", "SJ"))
    return shown


def _error(error, viewer: Viewer, public: bool) -> dict:
    """A follow error's message names the cards the player held that he should have played —
    cards still hidden from everyone but him (and the officials) until the hand ends."""
    if public or viewer.privileged or viewer.seat == error["seat"]:
        return dict(error)
    return {key: value for key, value in error.items() if key != "message"}


def _still_open(h: Hand, t: Trick) -> bool:
    """SJ3-11.2: a renege may be corrected until the next trick is led; until then the trick's
    flags are open — the trick in play, and the last one completed while no trick follows it."""
    if not h.variant.renege_until_next_lead or not h.in_play:
        return False
    return t is h.trick or (h.trick is None and bool(h.tricks) and t is h.tricks[-1])


def _sees_open_error(error, viewer: Viewer, public: bool) -> bool:
    """SJ3-11.2: a follow error not yet established (it may still be corrected) is shown to its
    player and the officials only: its seat and rule (e.g. SJ3-8.4: "he held a triple") would
    tell the others what he holds. Once the next trick is led it is established and public."""
    return public or viewer.privileged or viewer.seat == error["seat"]


def _trick(t: Trick, viewer: Viewer, public: bool, open_flags: bool = False) -> dict:
    flags = {f["seat"]: _error(f, viewer, public) for f in t.flagged
             if not open_flags or _sees_open_error(f, viewer, public)}
    shown = {"trick": t.number, "leader": t.leader,
             "plays": [{"seat": seat, "cards": list(cards), "flagged": flags.get(seat)}
                       for seat, cards in t.plays],
             "throw": dict(t.throw) if t.throw else None, "winner": t.winner, "points": t.points}
    if t.components is not None:  # SJ3-6.6: the lead as stated
        shown["structure"] = [list(c.cards) for c in t.components]
    return shown


def _past_trick(t: Trick, viewer: Viewer, public: bool, last: bool = True,
                open_flags: bool = False) -> dict:
    """SJ2-15.2 / SJ3-5.3: played cards stay in front of their player for checking at the end,
    and no one may look at another player's earlier tricks — so, until the hand ends, a player
    sees only his own cards of a completed trick (who won it and its points are known to all);
    in SJ3 only of the last one (「以后不得查看，但可以查看自己上一圈的牌」, ``last``)."""
    shown = _trick(t, viewer, public, open_flags)
    if public or viewer.privileged:
        return shown
    shown["plays"] = [play if play["seat"] == viewer.seat and last else {**play, "cards": None}
                      for play in shown["plays"]]
    if "structure" in shown and viewer.seat != t.leader:
        shown["structure"] = None
    return shown


def _may_look_back(h: Hand, t: Trick) -> bool:
    """SJ2-15.2: a player may look at his own cards of every completed trick; SJ3-5.3: of the
    last one only."""
    return h.variant.own_tricks_visible == "all" or t is h.tricks[-1]


def _point_cards_won(h: Hand) -> list[str]:
    """SJ3-5.3 (「防家拿取的分牌明亮在底牌上面」): the point cards the defenders have won lie face up."""
    return [card for t in h.tricks if h.defenders and scoring.side_of(t.winner) == h.defenders
            for _, cards in t.plays for card in cards if points([card])]


def _current_trick(h: Hand, viewer: Viewer, public: bool) -> dict:
    return {**_trick(h.trick, viewer, public, _still_open(h, h.trick)),
            "winning": winning_so_far(h.trick, h.trump)}


def _defender_points(h: Hand) -> int:
    """SJ2-11.1 / SJ3-10.1: point cards in the tricks the defenders have won so far."""
    if h.defenders is None:
        return 0
    return sum(t.points for t in h.tricks if scoring.side_of(t.winner) == h.defenders)


def _sorted(h: Hand, cards) -> list[str]:
    if h.trump is None:
        return sorted(cards)
    return sorted(cards, key=h.trump.sort_key)


def summary(m: Match) -> dict:
    """One line of the list of matches (an SJ3 match adds its ``result``)."""
    line = {"match_id": m.match_id, "game": m.game, "round": m.round, "teams": dict(m.teams),
            "status": m.status, "winner": m.winner,
            "levels": {side: scoring.level_name(v) for side, v in m.levels.items()},
            "hands_played": m.hands_played}
    if m.game == "SJ3":
        line["result"] = match_result(m)
    return line


def hand_results(m: Match, after: int, count: int) -> list[dict]:
    """The result rows of the completed (or forfeited) hands numbered after ``after``, in
    order, at most ``count`` of them (the paged history of the match read)."""
    return [dict(row) for row in m.history if row["hand"] > after][:count]


def numbered_hand_view(m: Match, number: int, viewer: Viewer) -> dict | None:
    """Hand ``number`` as it stands; None if not dealt — and in a score-sheet match, whose
    hands hold no cards (projections.matches.recorded_by_sheet)."""
    hand = m.hand_number(number)
    return None if hand is None or m.settings.by_sheet else hand_view(m, hand, viewer)
