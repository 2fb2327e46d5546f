"""The views of a 掼蛋 match and its hands, as each viewer may see them.

Hidden information (rules README §5): a seat's cards — as drawn and as held — are shown to that
seat and to referees, the committee and auditors. Everyone sees what lies on the table: the
plays and passes, the tribute cards (GD-7.2: tribute cards are public), the big jokers shown for
anti-tribute (GD-7.5), the marked card of hand 1 (GD-8.2). A return card is face down until every
return of the hand is in (GD-7.4): until then only its giver and the officials see it. A card
count is public once it is 10 or fewer (GD-5.7, 报牌); a larger one only to its seat and the
officials. A finished (completed or voided) hand is public. A time overrun (GD-9) is public:
the table's clock is.
"""
from __future__ import annotations

import threading
from functools import lru_cache

from rules.guandan.cards import sort_cards, wildcard
from rules.guandan.combos import describe_words
from rules.guandan.deadlines import limit_due_at, next_limit
from rules.guandan.match import Deal, GDMatch
from rules.guandan.outcome import REASONS, SIDES
from rules.guandan.play import ANNOUNCE_AT
from rules.guandan.procedure import first_drawer
from rules.guandan.seats import team_of
from rules.match_clock import maybe_timestamp
from rules.messages import Message, Sentence

from .viewers import Viewer


def _sides(pair: tuple) -> dict:
    return {SIDES[t]: pair[t] for t in (0, 1)}


def _side(team: int | None) -> str | None:
    return None if team is None else SIDES[team]


def match_view(m: GDMatch, viewer: Viewer) -> dict:
    """The match; ``recording`` says how its hands were recorded (GD-14): a match of
    score-sheet rows (``sheet``, rules/guandan/sheet.py) has no card-by-card hand to show —
    ``current_hand`` is null and its rows are ``last_result`` and ``GET …/hands``."""
    view = dict(_MATCHES.made(m, None, lambda: _match_alike(m)))
    shown = None if m.settings.by_sheet else m.hand
    if shown is not None:
        view["current_hand"] = hand_view(m, shown, viewer)
    return view


def _match_alike(m: GDMatch) -> dict:
    """The match as every viewer sees it (its current hand left out: see ``match_view``)."""
    return {
        "match_id": m.match_id, "game": m.game, "round": m.round, "teams": dict(m.teams),
        "seats": [{"seat": s, "player": p, "side": SIDES[team_of(s)]} for s, p in enumerate(m.seats)],
        "settings": m.settings_view(), "recording": m.settings.recording,
        "levels": _sides(m.standing.levels),
        "level_team": _side(m.standing.level_team),
        "a_failures": _sides(m.standing.a_failures),
        "status": m.status, "winner": m.winner,
        "winner_team": m.teams[m.winner] if m.winner else None, "reason": m.reason,
        "reason_text": Sentence(Message(REASONS[m.reason])) if m.reason else None,
        "hands_played": m.hands_played, "next_hand": m.next_hand,
        "clock": _clock(m),
        "time_limit_reached": m.limits[-1]["limit_minutes"] if m.limits else None,
        "current_hand": None,
        "last_result": dict(m.history[-1]) if m.history else None,
        "penalties": [dict(p) for p in m.penalties],
        "rulings": [dict(r) for r in m.rulings],
    }


def _clock(m: GDMatch) -> dict:
    """GD-11.2, T-5.4: where the match stands with its time limits, measured on the server's
    clock from the match's start; ``last_event_at`` tells a referee device how far the log's
    time has gone (the next limit may be posted once it is past ``next_limit_at``)."""
    due = next_limit(m) if m.status == "playing" else None
    due_at = limit_due_at(m, due) if due is not None else None
    return {"stage": m.clock, "limits_reached": [dict(limit) for limit in m.limits],
            "next_limit": due,
            "next_limit_at": maybe_timestamp(due_at),
            "started_at": m.started_at, "last_event_at": m.last_event_at,
            "matchMinutes": m.settings.match_minutes,
            "overtimeMinutes": m.settings.overtime_minutes}


def hand_view(m: GDMatch, d: Deal, viewer: Viewer) -> dict:
    public = not d.in_play
    view = dict(_HANDS.made(d, None, lambda: _hand_alike(d)))
    view["tribute"] = _tribute(d, viewer, public)
    view["seats"] = [_seat(m, d, seat, viewer, public) for seat in range(4)]
    view["irregularities"] = [_irregularity(i, viewer, public) for i in d.irregularities]
    view["viewer"] = str(viewer)
    return view


def _hand_alike(d: Deal) -> dict:
    """The hand as every viewer sees it: what lies on the table. The parts that depend on who
    looks (``tribute``, ``seats``, ``irregularities``, ``viewer``) are made by ``hand_view``."""
    h = d.state
    top = h.trick.top if h.trick is not None and h.phase == "play" else None
    return {
        "hand": d.number, "phase": d.phase, "level": h.level, "level_team": _side(d.level_team),
        "wildcard": wildcard(h.level), "extra_hand": d.extra,
        "marked_card": d.marked_card,
        "first_drawer": first_drawer(d.marked_card) if d.marked_card else None,
        "tribute": None,
        "first_leader": h.first_leader,
        "turn": h.turn if h.phase == "play" else None,
        "top": None if top is None else {"seat": h.trick.top_seat, "cards": list(top.cards),
                                         "reading": top.reading(),
                                         "description": Sentence(top.words())},
        "passed": sorted(h.trick.passed) if top is not None else [],
        "seats": None,
        "announced": [{"seat": seat, "count": n} for seat, n in sorted(h.public_counts().items())],
        "current_trick": _trick(d.trick, h.level) if d.trick is not None else None,
        "tricks": [_ENDED_TRICKS.made(t, h.level, lambda t=t: _trick(t, h.level)) for t in d.tricks],
        "order": list(h.order),
        "irregularities": None,
        "time_overruns": [dict(entry) for entry in d.overruns],
        "result": dict(d.result) if d.result is not None else None,
        "void_reason": d.void_reason,
        "viewer": None,
    }


def _sees(viewer: Viewer, seat: int | None, public: bool) -> bool:
    return public or viewer.privileged or (seat is not None and viewer.seat == seat)


def _seat(m: GDMatch, d: Deal, seat: int, viewer: Viewer, public: bool) -> dict:
    h = d.state
    sees = _sees(viewer, seat, public)
    count = len(h.hands[seat])
    place = h.order.index(seat) + 1 if seat in h.order else None
    if d.result is not None and place is None and len(d.result["places"]) == 4:
        place = 4
    return {"seat": seat, "player": m.seats[seat], "side": SIDES[team_of(seat)],
            "card_count": count if sees or count <= ANNOUNCE_AT else None,
            "cards": list(_sorted(h.hands[seat], h.level)) if sees else None,
            "dealt": list(_sorted(d.dealt[seat], h.level)) if sees else None,
            "out": seat in h.order, "place": place}


def _tribute(d: Deal, viewer: Viewer, public: bool) -> dict:
    """GD-7: the case, who pays whom, anti-tribute (the big jokers shown), the tribute cards
    (public), their assignment and the returns (face down until all are in)."""
    h = d.state
    plan = h.plan
    revealed = public or h.phase in ("play", "over")
    returns = []
    for payer, receiver in sorted(h.assigned.items()):
        card = h.returned.get(receiver)
        shown = card is not None and (revealed or _sees(viewer, receiver, False))
        returns.append({"seat": receiver, "to": payer, "made": card is not None,
                        "card": card if shown else None})
    return {"case": plan.case, "payers": list(plan.payers), "receivers": list(plan.receivers),
            "anti_tribute": list(h.anti),
            "big_jokers_shown": [{"seat": s, "count": d.dealt[s].count("BJ")} for s in h.anti],
            "paid": [{"seat": seat, "card": card, "to": h.assigned.get(seat)}
                     for seat, card in sorted(h.paid.items())],
            "awaiting_assignment": h.phase == "tribute" and len(h.paid) == len(plan.payers)
            and bool(plan.payers),
            "returns": returns}


@lru_cache(maxsize=8192)
def _sorted_cached(cards: tuple, level: str) -> tuple:
    return sort_cards(cards, level)


def _sorted(cards, level: str) -> tuple:
    """``sort_cards``, remembered: every view of a position sorts the same four hands, and a
    hand changes for one seat a move (a seat's cards are a tuple of the state's)."""
    return _sorted_cached(cards, level) if type(cards) is tuple else sort_cards(cards, level)


class _KeptByIdentity:
    """Renderings of frozen objects kept by the object's identity, the object held with its
    rendering so that the identity is not another's; the oldest made goes first. A view
    shares what is kept: views are written out, never changed."""

    def __init__(self, keep: int):
        self._kept: dict[int, tuple] = {}
        self._keep = keep
        self._lock = threading.Lock()

    def made(self, thing, extra, make):
        kept = self._kept.get(id(thing))
        if kept is not None and kept[0] is thing and kept[1] == extra:
            return kept[2]
        made = make()
        with self._lock:
            self._kept[id(thing)] = (thing, extra, made)
            while len(self._kept) > self._keep:
                del self._kept[next(iter(self._kept))]
        return made

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()


# Several viewers read each position — the fan-out renders every seat's view of each new
# position, and a table app reads the referee's — and most of a view is alike for all of them:
# it is made once a position (a state is frozen: one object, one position), and each view is a
# new dict of it with its viewer's own parts. An ended trick never changes (the state's tricks
# are a tuple that grows by one, its ended tricks the same objects): it is rendered once, not
# again for every reader of every later position of its hand.
_MATCHES = _KeptByIdentity(1024)
_HANDS = _KeptByIdentity(1024)
_ENDED_TRICKS = _KeptByIdentity(16384)


def _trick(t, level: str) -> dict:
    plays = []
    for p in t["plays"]:
        if p.get("pass"):
            plays.append({"seat": p["seat"], "pass": True})
        else:
            plays.append({"seat": p["seat"], "pass": False, "cards": list(p["cards"]),
                          "reading": dict(p["reading"]), "description": _description(p, level),
                          "went_out": p["went_out"]})
    return {"trick": t["trick"], "leader": t["leader"], "plays": plays, "winner": t["winner"],
            "next_leader": t["next_leader"], "jiefeng": t["jiefeng"]}


def _description(play, level: str) -> Sentence:
    """A play's combination in words (GD-3: "a pair of 9s"), said in its reader's language:
    made again from its reading, which the trick keeps with the English."""
    reading = play["reading"]
    return Sentence(describe_words(reading["type"], reading["rank"], len(play["cards"]), level))


def _irregularity(entry, viewer: Viewer, public: bool) -> dict:
    """A flagged tribute or return names cards still hidden (the payer's best card, the cards
    a receiver may return): its message — and a return's card — are shown only to its seat and
    the officials while the hand is in play. Plays lie on the table: public."""
    shown = dict(entry)
    for key in ("cards", "wildAs"):
        if key in shown:
            shown[key] = list(shown[key])
    hidden = entry["event"] in ("TributePaid", "TributeReturned")
    if hidden and not _sees(viewer, entry["seat"], public):
        shown["message"] = None
        if entry["event"] == "TributeReturned":
            shown["card"] = None
    return shown


def summary(m: GDMatch) -> dict:
    """One line of the list of matches."""
    return {"match_id": m.match_id, "game": m.game, "round": m.round, "teams": dict(m.teams),
            "status": m.status, "winner": m.winner, "reason": m.reason,
            "levels": _sides(m.standing.levels), "hands_played": m.hands_played}


def numbered_hand_view(m: GDMatch, number: int, viewer: Viewer) -> dict | None:
    """Hand ``number`` as it stands; None if not dealt — and in a score-sheet match, whose
    hands hold no cards (projections.matches.recorded_by_sheet)."""
    d = m.hand_number(number)
    return None if d is None or m.settings.by_sheet else hand_view(m, d, viewer)


def hand_results(m: GDMatch, after: int, count: int) -> list[dict]:
    """The result rows of the completed hands numbered after ``after``, in order, at most
    ``count`` of them (the paged history of the match read)."""
    return [dict(row) for row in m.history if row["hand"] > after][:count]
