"""The time rules of a 掼蛋 match as deadlines (rules/guandan/deadlines.py), on the engine: the
waits of GD-9.1/9.2 and the timer's ``GDTimeLimitExceeded`` (GD-9.3, ``autoPassOnTimeout``),
the limits of GD-11.2 / T-5.4 (``TimeLimitReached``), a referee's pause (T-1.5), and the
invariant every deadline keeps — its event is accepted at its due time and refused a microsecond
before, naming the rule — checked at every step of bounded, seeded matches of the simulator's
bots with the timer firing whatever falls due."""
import random
from collections import Counter
from datetime import UTC, datetime, timedelta

import pytest
from deadline_checks import check_deadlines
from gd_table import steered_move

from projections import guandan_views
from projections.viewers import Viewer
from rules import RuleViolation, matches
from rules.guandan import match as gd_match
from rules.guandan.moves import legal_plays
from rules.guandan.procedure import random_deal, stacked_deal
from rules.guandan.tribute import tribute_choices
from rules.match_clock import timestamp
from service.simulator import guandan_bots

T0 = datetime(2019, 6, 8, 10, 0, tzinfo=UTC)
US = timedelta(microseconds=1)


def t(seconds: float = 0, minutes: float = 0) -> datetime:
    return T0 + timedelta(seconds=seconds, minutes=minutes)


def start(**settings):
    return matches.apply(None, "MatchStarted", {
        "match_id": "R1-1", "game": "GD", "teams": {"A": "east", "B": "west"},
        "seats": ["甲", "丙", "乙", "丁"], "settings": settings}, timestamp(T0))


def apply(m, event_type: str, when: datetime, **data):
    return matches.apply(m, event_type, data, timestamp(when))


def refused(m, event_type: str, when: datetime, rule: str, **data) -> str:
    with pytest.raises(RuleViolation) as info:
        apply(m, event_type, when, **data)
    assert info.value.rule == rule, info.value
    return info.value.message


def pending(m) -> dict:
    found = matches.deadlines(m)
    assert len({d.key for d in found}) == len(found), "keys are unique"
    return {d.key: d for d in found}


def waits(m) -> dict:
    """The GD-9 deadlines pending: key -> (kind, seat, due)."""
    return {k: (d.data["kind"], d.seat, d.due) for k, d in pending(m).items()
            if d.event_type == "GDTimeLimitExceeded"}


def deal(m, when: datetime, fixed: dict | None = None, low_seats=(), leader: int = 0):
    """The next hand (or a voided one again): shuffled by its number, or with ``fixed`` cards;
    hand 1 drawn for ``leader`` to lead (GD-8.2)."""
    number = m.hand.number if m.hand is not None and m.hand.void_reason else m.next_hand
    level = m.standing.levels[m.standing.level_team] if m.standing.level_team is not None \
        else "2"
    cards = stacked_deal(fixed, level, low_seats) if fixed is not None or low_seats \
        else random_deal(random.Random(number))
    data = {"hand": number, "hands": [list(c) for c in cards]}
    if m.previous_order is None:
        data.update(markedCard=next(c for c in cards[leader] if c not in ("BJ", "SJ", "2H")),
                    firstLeader=leader)
    return apply(m, "GDHandDealt", when, **data)


def move(m, when: datetime, seat: int, combo=None):
    """Seat ``seat`` plays ``combo`` (its lowest single if None at a lead), or passes."""
    h = m.hand.state
    if combo is None and h.trick.is_lead:
        combo = min((c for c in legal_plays(h.hands[seat], h.level) if c.size == 1),
                    key=lambda c: c.key)
    if combo is None:
        return apply(m, "Passed", when, hand=m.hand.number, seat=seat)
    return apply(m, "GDCardsPlayed", when, hand=m.hand.number, seat=seat,
                 cards=list(combo.cards), wildAs=list(combo.wild_as))


def steer(m, when: datetime, order: list[int]):
    """The rest of the hand, every move at ``when``, so that ``order`` goes out first
    (tests/gd_table.steered_move)."""
    while m.hand.in_play and m.hand.state.phase == "play":
        m = move(m, when, *steered_move(m.hand.state, order))
    assert list(m.hand.state.order)[:len(order)] == order[:len(m.hand.state.order)]
    return m


def overrun(m, when: datetime, seat: int, kind: str):
    return apply(m, "GDTimeLimitExceeded", when, hand=m.hand.number, seat=seat, kind=kind)


# --- GD-9.2: the first lead and every later play or pass ----------------------------------------

def test_gd_9_2_hand_1_first_lead_has_40_s_from_the_deal_and_one_overrun_report():
    m = deal(start(), t(5), leader=0)
    first = pending(m)["h1/firstLead/s0"]
    assert (first.due, first.started, first.rule, first.seat) == (t(45), t(5), "GD-9.2", 0)
    assert (first.event_type, first.data) == ("GDTimeLimitExceeded",
                                              {"hand": 1, "seat": 0, "kind": "firstLead"})
    assert first.label == "seat 0 to lead first"
    message = refused(m, "GDTimeLimitExceeded", t(45) - US, "GD-9.2", hand=1, seat=0,
                      kind="firstLead")
    assert "seat 0 has 40 s to lead first, until 2019-06-08T10:00:45.000000Z" in message
    m = overrun(m, t(45), 0, "firstLead")
    assert [dict(o) for o in m.hand.overruns] == [{
        "seat": 0, "kind": "firstLead", "rule": "GD-9.2", "wait": "firstLead/s0",
        "started": "2019-06-08T10:00:05.000000Z", "due": "2019-06-08T10:00:45.000000Z",
        "at": "2019-06-08T10:00:45.000000Z", "consequence": None}]
    assert "h1/firstLead/s0" not in pending(m) and m.hand.state.turn == 0
    assert "already been recorded" in refused(m, "GDTimeLimitExceeded", t(60), "GD-9.2",
                                              hand=1, seat=0, kind="firstLead")
    m = move(m, t(70), 0)                       # the late lead still counts
    assert waits(m) == {"h1/a1/play/s1": ("play", 1, t(90))}


def test_gd_9_2_each_later_play_or_pass_has_20_s_from_the_move_before():
    m = move(deal(start(), t(0)), t(10), 0)
    assert waits(m) == {"h1/a1/play/s1": ("play", 1, t(30))}
    m = apply(m, "Passed", t(29), hand=1, seat=1)
    assert waits(m) == {"h1/a2/play/s2": ("play", 2, t(49))}
    m = apply(m, "Passed", t(30), hand=1, seat=2)
    m = apply(m, "Passed", t(31), hand=1, seat=3)   # the trick ends: seat 0 leads again
    lead = pending(m)["h1/a4/play/s0"]
    assert (lead.due, lead.label) == (t(51), "seat 0 to lead")
    refused(m, "GDTimeLimitExceeded", t(51) - US, "GD-9.2", hand=1, seat=0, kind="play")
    assert apply(m, "GDTimeLimitExceeded", t(51), hand=1, seat=0, kind="play").hand.overruns


def test_gd_9_a_report_must_name_the_wait_in_progress():
    m = deal(start(), t(0), leader=2)
    message = refused(m, "GDTimeLimitExceeded", t(99), "GD-9.2", hand=1, seat=0,
                      kind="firstLead")
    assert message.endswith("the time running is seat 2's firstLead")
    refused(m, "GDTimeLimitExceeded", t(99), "GD-9.2", hand=1, seat=2, kind="play")
    refused(m, "GDTimeLimitExceeded", t(99), "GD-9.1", hand=1, seat=2, kind="tribute")
    refused(m, "GDTimeLimitExceeded", t(99), "GD-12", hand=2, seat=2, kind="firstLead")
    m = steer(m, t(100), [2, 0])
    message = refused(m, "GDTimeLimitExceeded", t(200), "GD-5.6", hand=1, seat=1, kind="play")
    assert "hand 1 is over" in message and pending(m).keys() == {"limit/60"}


# --- GD-9.1: tribute and return ---------------------------------------------------------------

def double_down_hand_2(**settings):
    """Hand 1 won 1-2 by seats 0 and 2 at 10:01; hand 2 dealt at 10:02: seats 1 and 3 pay."""
    m = steer(deal(start(**settings), t(0)), t(minutes=1), [0, 2])
    return deal(m, t(minutes=2))


def test_gd_9_1_each_payer_has_20_s_from_the_deal_and_each_receiver_40_s_from_the_tribute():
    m = double_down_hand_2()
    d0 = t(minutes=2)
    assert waits(m) == {"h2/tribute/s1": ("tribute", 1, d0 + timedelta(seconds=20)),
                        "h2/tribute/s3": ("tribute", 3, d0 + timedelta(seconds=20))}
    m = apply(m, "TributePaid", d0 + timedelta(seconds=5), hand=2, seat=1,
              card=_tribute(m.hand.state, 1))
    # the partner's payment leaves the other payer's time where it was
    assert waits(m) == {"h2/tribute/s3": ("tribute", 3, d0 + timedelta(seconds=20))}
    refused(m, "GDTimeLimitExceeded", d0 + timedelta(seconds=20) - US, "GD-9.1", hand=2, seat=3,
            kind="tribute")
    m = overrun(m, d0 + timedelta(seconds=20), 3, "tribute")
    assert waits(m) == {} and m.hand.overruns[0]["consequence"] is None
    paid = d0 + timedelta(seconds=31)
    m = apply(m, "TributePaid", paid, hand=2, seat=3, card=_tribute(m.hand.state, 3))
    returns = {r: ("return", r, paid + timedelta(seconds=40)) for r in (0, 2)}
    assert waits(m) == {f"h2/return/s{r}": w for r, w in returns.items()}
    m = apply(m, "TributeReturned", paid + timedelta(seconds=39), hand=2, seat=0,
              card=m.hand.state.hands[0][0])
    assert waits(m) == {"h2/return/s2": returns[2]}
    refused(m, "GDTimeLimitExceeded", paid + timedelta(seconds=40) - US, "GD-9.1", hand=2,
            seat=2, kind="return")
    returned = paid + timedelta(seconds=50)
    m = apply(m, "TributeReturned", returned, hand=2, seat=2, card=m.hand.state.hands[2][0])
    leader = m.hand.state.turn
    assert waits(m) == {f"h2/firstLead/s{leader}":
                        ("firstLead", leader, returned + timedelta(seconds=40))}


def _tribute(h, seat: int) -> str:
    return tribute_choices(h.hands[seat], h.level)[0]


def test_gd_9_1_no_time_runs_while_the_winners_choose_an_equal_assignment():
    m = steer(deal(start(equalTributeAssignment="winnersChoose"), t(0)), t(minutes=1), [0, 2])
    m = deal(m, t(minutes=2), fixed={1: "AS", 3: "AD"}, low_seats=(1, 3))
    m = apply(m, "TributePaid", t(minutes=2, seconds=3), hand=2, seat=1, card="AS")
    m = apply(m, "TributePaid", t(minutes=2, seconds=4), hand=2, seat=3, card="AD")
    assert waits(m) == {} and list(pending(m)) == ["limit/60"]
    chosen = t(minutes=9)
    m = apply(m, "TributeAssigned", chosen, hand=2, seat=0, toFirst=3)
    assert waits(m) == {f"h2/return/s{r}": ("return", r, chosen + timedelta(seconds=40))
                        for r in (0, 2)}


def test_gd_9_2_first_lead_after_anti_tribute_has_40_s_from_its_declaration():
    m = steer(deal(start(), t(0)), t(minutes=1), [0, 2])
    m = deal(m, t(minutes=2), fixed={1: "BJ BJ"})
    shown = t(minutes=2, seconds=12)
    m = apply(m, "AntiTributeDeclared", shown, hand=2, seat=1)
    assert waits(m) == {"h2/firstLead/s0": ("firstLead", 0, shown + timedelta(seconds=40))}


# --- GD-9.3: the consequence --------------------------------------------------------------------

def test_gd_9_3_by_default_an_overrun_is_only_recorded_and_the_seat_still_owes_the_move():
    m = move(deal(start(), t(0)), t(10), 0)
    m = overrun(m, t(30), 1, "play")
    assert m.hand.state.turn == 1 and m.hand.overruns[-1]["consequence"] is None
    assert waits(m) == {}
    m = apply(m, "Passed", t(41), hand=1, seat=1)
    assert waits(m) == {"h1/a2/play/s2": ("play", 2, t(61))}


def test_gd_9_3_auto_pass_on_timeout_passes_an_overrun_follow_and_starts_the_next_seat():
    m = move(deal(start(autoPassOnTimeout=True), t(0)), t(10), 0)
    m = overrun(m, t(30), 1, "play")
    assert m.hand.overruns[-1]["consequence"] == "pass"
    assert m.hand.trick["plays"][-1] == {"seat": 1, "pass": True}
    assert m.hand.state.turn == 2
    assert waits(m) == {"h1/a2/play/s2": ("play", 2, t(50))}


def test_gd_9_3_auto_pass_never_passes_a_lead():
    m = deal(start(autoPassOnTimeout=True), t(0))
    m = overrun(m, t(40), 0, "firstLead")
    assert m.hand.overruns[-1]["consequence"] is None and m.hand.state.turn == 0
    m = move(m, t(41), 0)
    for seat, when in ((1, 61), (2, 81), (3, 101)):
        m = overrun(m, t(when), seat, "play")
    assert m.hand.state.trick.is_lead and m.hand.state.turn == 0   # the trick is back to 0
    m = overrun(m, t(121), 0, "play")
    assert m.hand.overruns[-1]["consequence"] is None and m.hand.state.turn == 0
    assert waits(m) == {}


# --- GD-11.2 / T-5.4: the match's limits ------------------------------------------------------

def test_gd_11_2_limits_at_60_and_after_equal_levels_at_90_minutes():
    m = deal(start(), t(0))
    limit = pending(m)["limit/60"]
    assert (limit.due, limit.event_type, limit.data, limit.rule, limit.seat) == \
        (t(minutes=60), "TimeLimitReached", {"limit_minutes": 60}, "GD-11.2", None)
    refused(m, "TimeLimitReached", t(minutes=60) - US, "GD-11.2", limit_minutes=60)
    m = apply(m, "TimeLimitReached", t(minutes=60), limit_minutes=60)
    assert m.clock == "overtime" and m.hand.in_play       # equal at 2: the hand goes on
    assert "limit/60" not in pending(m)
    assert pending(m)["limit/90"].due == t(minutes=90)
    refused(m, "TimeLimitReached", t(minutes=90) - US, "GD-11.2", limit_minutes=90)
    m = apply(m, "TimeLimitReached", t(minutes=90), limit_minutes=90)
    assert m.clock == "extraHand" and pending(m) == {}    # abandoned; the extra hand is untimed


def test_gd_11_2_a_match_decided_at_the_limit_has_no_deadlines():
    m = steer(deal(start(matchMinutes=30, overtimeMinutes=15), t(0)), t(minutes=5), [1, 3])
    m = deal(m, t(minutes=6))
    assert pending(m)["limit/30"].due == t(minutes=30)
    m = apply(m, "TimeLimitReached", t(minutes=30), limit_minutes=30)
    assert (m.status, m.winner) == ("completed", "B") and matches.deadlines(m) == ()
    assert gd_match.deadlines(m) == ()


# --- the referee's pause (T-1.5) ----------------------------------------------------------------

def test_a_pause_moves_every_deadline_by_the_time_the_clock_stood():
    m = deal(start(), t(5))
    before = pending(m)
    m = apply(m, "MatchClockPaused", t(20), reason="a ruling")
    assert all(m.match_clock.wall_time(d.due) is None for d in before.values())
    m = apply(m, "MatchClockResumed", t(320))
    after = pending(m)
    assert after == before                     # match time: the same deadlines
    stood = timedelta(seconds=300)
    assert {k: m.match_clock.wall_time(d.due) for k, d in after.items()} == \
        {"limit/60": t(minutes=60) + stood, "h1/firstLead/s0": t(45) + stood}
    refused(m, "GDTimeLimitExceeded", t(345) - US, "GD-9.2", hand=1, seat=0, kind="firstLead")
    refused(m, "TimeLimitReached", t(minutes=65) - US, "GD-11.2", limit_minutes=60)
    assert apply(m, "GDTimeLimitExceeded", t(345), hand=1, seat=0, kind="firstLead").hand.overruns
    assert apply(m, "TimeLimitReached", t(minutes=65), limit_minutes=60).clock == "overtime"


# --- keys ---------------------------------------------------------------------------------------

def test_keys_name_the_occurrence_a_redeal_included():
    m = deal(start(), t(0))
    before = pending(m)
    m = apply(m, "RulingRecorded", t(7), text="the cards may be counted again")
    assert pending(m) == before                 # stable: the same wait, the same deadline
    m = apply(m, "HandVoided", t(10), hand=1, reason="wrong deck (GD-8.4)")
    assert waits(m) == {}
    m = deal(m, t(20))
    assert waits(m) == {"h1r1/firstLead/s0": ("firstLead", 0, t(60))}


def test_overruns_are_public_in_the_hand_view():
    m = overrun(move(deal(start(), t(0)), t(10), 0), t(30), 1, "play")
    shown = guandan_views.hand_view(m, m.hand, Viewer())["time_overruns"]
    assert shown == [{"seat": 1, "kind": "play", "rule": "GD-9.2", "wait": "a1/play/s1",
                      "started": "2019-06-08T10:00:10.000000Z",
                      "due": "2019-06-08T10:00:30.000000Z",
                      "at": "2019-06-08T10:00:30.000000Z", "consequence": None}]


# --- the invariant, at every step of simulated matches ------------------------------------------

AWAITED = {"tribute": ("TributePaid", "AntiTributeDeclared"), "return": ("TributeReturned",),
           "firstLead": ("GDCardsPlayed", "Passed"), "play": ("GDCardsPlayed", "Passed")}
GAPS = (1, 3, 8, 15, 19, 24, 45, 50)   # seconds between one event and the next


def checked(m) -> dict:
    """The deadlines pending, each checked (tests/deadline_checks.py), by key."""
    return {d.key: d for d in check_deadlines(m)}


def awaited_by(d, event_type: str, data: dict) -> bool:
    if d.event_type == "TimeLimitReached":
        return event_type == "TimeLimitReached"
    return event_type in AWAITED[d.data["kind"]] and data.get("seat") == d.seat


def simulate(settings: dict, seed: int, steps: int) -> Counter:
    """A match of the simulator's bots in which time passes ``GAPS`` between events, the timer
    fires each deadline at its due time, and the referee now and then stops the clock; the
    invariants are checked after every event. Returns what happened."""
    rng = random.Random(seed)
    now = T0
    m = matches.apply(None, "MatchStarted", {
        "match_id": "R1-1", "game": "GD", "teams": {"A": "east", "B": "west"},
        "seats": ["甲", "丙", "乙", "丁"], "settings": settings}, timestamp(now))
    seen = Counter()
    for _ in range(steps):
        before = checked(m)
        if m.status == "completed":
            seen["completed"] += 1
            break
        now += timedelta(seconds=rng.choice(GAPS))
        due = sorted((m.match_clock.wall_time(d.due), d.key) for d in before.values())
        if due and due[0][0] <= now:
            when, key = due[0]
            event_type, data = before[key].event_type, dict(before[key].data)
            seen[f"fired {data.get('kind', event_type)}"] += 1
        elif rng.random() < 0.01:
            m = matches.apply(m, "MatchClockPaused", {}, timestamp(now))
            assert pending(m) == before          # match time stands still
            now += timedelta(seconds=rng.choice(GAPS) * 10)
            when, event_type, data = now, "MatchClockResumed", {}
            seen["paused"] += 1
        else:
            when = now
            view = guandan_views.match_view(m, Viewer("referee"))
            event_type, data = guandan_bots.next_action(view, rng, 0)
        after_m = matches.apply(m, event_type, data, timestamp(when))
        after = pending(after_m)
        for key, d in before.items():
            if key in after:   # a deadline that stays pending never moves in match time
                assert (after[key].due, after[key].data) == (d.due, d.data), key
            if awaited_by(d, event_type, data):
                assert key not in after, (key, event_type, data)
        if event_type == "GDTimeLimitExceeded" and after_m.hand.overruns[-1]["consequence"]:
            seen["auto pass"] += 1
            trick = after_m.hand.trick or after_m.hand.tricks[-1]
            assert trick["plays"][-1] == {"seat": data["seat"], "pass": True}
        m = after_m
    return seen


RUNS = [
    ({}, 11),
    ({}, 14),
    ({"autoPassOnTimeout": True, "matchMinutes": 25, "overtimeMinutes": 10}, 12),
    ({"autoPassOnTimeout": True, "equalTributeAssignment": "winnersChoose",
      "matchMinutes": 15, "overtimeMinutes": 5}, 13),
    ({"tributeWhenPartnerLast": "lastPays", "jiefeng": False, "matchMinutes": 40}, 15),
    ({"autoPassOnTimeout": True, "antiTributeMode": "auto"}, 16),
]


def test_every_deadline_is_met_exactly_at_its_due_time_at_every_step():
    """Six seeded matches, at most 1500 events each: every kind of deadline fires, and the
    invariants hold at every step (simulate)."""
    seen = Counter()
    for settings, seed in RUNS:
        seen += simulate(settings, seed, steps=1500)
    for kind in ("tribute", "return", "firstLead", "play", "TimeLimitReached"):
        assert seen[f"fired {kind}"] > 0, seen
    assert seen["auto pass"] > 0 and seen["paused"] > 0 and seen["completed"] == len(RUNS), seen
