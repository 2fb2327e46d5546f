"""The views of a Shengji match and its hands, as each viewer may see them.

Hidden information (rules README §5): a seat's cards are shown to that seat, the kitty to the
dealer once he has taken it (SJ2-6.3), the cards of earlier tricks to their own player only
(SJ2-15.2), and everything to referees, the committee and auditors. A finished hand is public.
"""
from __future__ import annotations

from rules.shengji import scoring
from rules.shengji.hand import Hand, Trick, winning_so_far
from rules.shengji.match import Match

from .viewers import Viewer


def match_view(m: Match, viewer: Viewer) -> dict:
    hand = m.hand
    return {
        "match_id": m.match_id, "game": m.game, "round": m.round, "teams": dict(m.teams),
        "seats": [{"seat": s, "player": p, "side": scoring.side_of(s)} for s, p in enumerate(m.seats)],
        "settings": m.settings.to_dict(),
        "levels": {side: scoring.level_name(v) for side, v in m.levels.items()},
        "status": m.status, "winner": m.winner,
        "winner_team": m.teams[m.winner] if m.winner else None, "reason": m.reason,
        "hands_played": m.hands_played, "next_hand": m.next_hand, "next_dealer": m.next_dealer,
        "time_limit_reached": m.time_called,
        "current_hand": hand_view(m, hand, viewer) if hand is not None else None,
        "history": [dict(row) for row in m.history],
        "rulings": [dict(r) for r in m.rulings],
    }


def hand_view(m: Match, h: Hand, viewer: Viewer) -> dict:
    public = not h.in_play
    return {
        "hand": h.number, "phase": h.phase, "level": h.level, "dealer": h.dealer,
        "dealer_side": h.dealer_side, "defenders": h.defenders,
        "trump": _trump(h), "bidding": h.bidding.to_dict(), "turn": h.turn(),
        "seats": [_seat(m, h, seat, viewer, public) for seat in range(4)],
        "kitty": _kitty(h, viewer, public),
        "current_trick": _current_trick(h, viewer, public) if h.trick else None,
        "tricks": [_past_trick(t, viewer, public) for t in h.tricks],
        "defender_points": _defender_points(h),
        "penalties": [dict(p) for p in h.penalties],
        "follow_errors": [_error(e, viewer, public) for e in h.follow_errors],
        "pending_correction": _error(h.pending, viewer, public) if h.pending else None,
        "irregularities": [dict(i) for i in h.irregularities],
        "kitty_error": h.kitty_error,
        "result": dict(h.result) if h.result and h.phase == "completed" else None,
        "void_reason": h.void_reason,
        "viewer": str(viewer),
    }


def _trump(h: Hand) -> dict | None:
    if h.trump is None:
        return None
    return {"level": h.trump.level, "suit": h.trump.suit, "no_trump": h.trump.suit is None,
            "source": h.trump_source}


def _seat(m: Match, h: Hand, seat: int, viewer: Viewer, public: bool) -> dict:
    sees = public or viewer.privileged or viewer.seat == seat
    return {"seat": seat, "player": m.seats[seat], "side": scoring.side_of(seat),
            "card_count": len(h.hands[seat]),
            "cards": _sorted(h, h.hands[seat]) if sees else None,
            "dealt": _sorted(h, h.dealt[seat]) if sees else None}


def _kitty(h: Hand, viewer: Viewer, public: bool) -> dict:
    dealer_sees = viewer.seat is not None and viewer.seat == h.dealer and \
        h.phase not in ("declaring", "awaiting_dealer", "kitty")
    sees = public or viewer.privileged or dealer_sees
    shown_3 = h.dealt_kitty[2] if h.trump_source == "kitty3" else None  # SJ2-4.9: turned up
    return {"size": len(h.kitty), "cards": list(h.kitty) if sees else None,
            "dealt": list(h.dealt_kitty) if public or viewer.privileged else None,
            "card_3": shown_3}


def _error(error, viewer: Viewer, public: bool) -> dict:
    """A follow error's message names the cards the player held that he should have played —
    cards still hidden from everyone but him (and the officials) until the hand ends."""
    if public or viewer.privileged or viewer.seat == error["seat"]:
        return dict(error)
    return {key: value for key, value in error.items() if key != "message"}


def _trick(t: Trick, viewer: Viewer, public: bool) -> dict:
    flags = {f["seat"]: _error(f, viewer, public) for f in t.flagged}
    return {"trick": t.number, "leader": t.leader,
            "plays": [{"seat": seat, "cards": list(cards), "flagged": flags.get(seat)}
                      for seat, cards in t.plays],
            "throw": dict(t.throw) if t.throw else None, "winner": t.winner, "points": t.points}


def _past_trick(t: Trick, viewer: Viewer, public: bool) -> dict:
    """SJ2-15.2: played cards stay in front of their player for checking at the end, and no one
    may look at another player's earlier tricks — so, until the hand ends, a player sees only
    his own cards of a completed trick (who won it and its points are known to all)."""
    shown = _trick(t, viewer, public)
    if public or viewer.privileged:
        return shown
    shown["plays"] = [play if play["seat"] == viewer.seat else {**play, "cards": None}
                      for play in shown["plays"]]
    return shown


def _current_trick(h: Hand, viewer: Viewer, public: bool) -> dict:
    return {**_trick(h.trick, viewer, public), "winning": winning_so_far(h.trick, h.trump)}


def _defender_points(h: Hand) -> int:
    """SJ2-11.1: point cards in the tricks the defenders have won so far."""
    if h.defenders is None:
        return 0
    return sum(t.points for t in h.tricks if scoring.side_of(t.winner) == h.defenders)


def _sorted(h: Hand, cards) -> list[str]:
    if h.trump is None:
        return sorted(cards)
    return sorted(cards, key=h.trump.sort_key)


def summary(m: Match) -> dict:
    """One line of the list of matches."""
    return {"match_id": m.match_id, "game": m.game, "round": m.round, "teams": dict(m.teams),
            "status": m.status, "winner": m.winner,
            "levels": {side: scoring.level_name(v) for side, v in m.levels.items()},
            "hands_played": m.hands_played}


def numbered_hand_view(m: Match, number: int, viewer: Viewer) -> dict | None:
    hand = m.hand_number(number)
    return None if hand is None else hand_view(m, hand, viewer)
