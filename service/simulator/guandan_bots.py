"""What a table does next in a 掼蛋 match, decided from the referee's view of it (the JSON of
``GET …/matches/{mid}?as=referee``): the dealer deals (hand 1 with its first-lead draw), a
payer pays tribute or shows the big jokers, the winners choose an assignment, a receiver
returns a card, the player on turn plays a random legal combination or passes — and the referee
posts the time limits (T-5.4) by the server's clock.

**The clock.** The server refuses a limit posted before it has passed on its own clock (the
match's start, ``clock.started_at``, plus the limit: ``clock.next_limit_at``). The referee posts
``TimeLimitReached`` once the next event will be recorded at or after that time: the last event's
recorded time (``clock.last_event_at``) plus ``seconds_per_move``, the step of the temporary
server's simulated clock (``SimulatedClock``) — 0 against a real server, whose time is real.
So matches that do not play through A in time are decided by level, by overtime or by the
extra hand, as at the seed's tournament.

Pure: the same view and the same ``rng`` give the same event. The rules' own move generators
make every move legal, so a rejected event means the backend and the rules disagree.
"""
from __future__ import annotations

import random
from collections.abc import Mapping
from datetime import datetime, timedelta

from rules.guandan.cards import BIG_JOKER, JOKERS, wildcard
from rules.guandan.combos import classify
from rules.guandan.moves import random_legal_play
from rules.guandan.procedure import random_deal
from rules.guandan.settings import settings_from
from rules.guandan.tribute import TributePlan, return_choices, tribute_choices

Action = tuple[str, dict]

SECONDS_PER_MOVE = 9    # simulated seconds per event of the match stream
PASS_CHANCE = 0.3       # a player who could beat the table passes this often
ANTI_TRIBUTE_CHANCE = 0.8  # antiTributeMode optional: payers show the big jokers this often


def next_action(match: Mapping, rng: random.Random,
                seconds_per_move: float = SECONDS_PER_MOVE) -> Action | None:
    """The next event for ``match`` (referee view); None once the match is over."""
    if match["status"] == "completed":
        return None
    timer = time_limit(match, seconds_per_move)
    if timer is not None:
        return timer
    hand = match["current_hand"]
    if hand is None or hand["phase"] == "completed":
        return deal(match["next_hand"], rng, first_hand=match["hands_played"] == 0)
    if hand["phase"] == "voided":
        return deal(hand["hand"], rng, first_hand=match["hands_played"] == 0)
    settings = settings_from(match["settings"])
    return _PHASES[hand["phase"]](hand, rng, settings)


def time_limit(match: Mapping, seconds_per_move: float) -> Action | None:
    """T-5.4: the referee posts the next limit once the server's time will have passed it: the
    next event is recorded ``seconds_per_move`` after the last one."""
    clock = match["clock"]
    due, due_at, last = clock["next_limit"], clock["next_limit_at"], clock["last_event_at"]
    if due is None or due_at is None or last is None:
        return None
    posted_at = datetime.fromisoformat(last) + timedelta(seconds=seconds_per_move)
    if posted_at < datetime.fromisoformat(due_at):
        return None
    return "TimeLimitReached", {"limit_minutes": due}


def deal(number: int, rng: random.Random, first_hand: bool) -> Action:
    """GDHandDealt: two shuffled decks, 27 cards each (GD-1.1). Hand 1 records the draw for the
    first lead (GD-8.2): the turned card (never a joker or 2H) and the seat that drew it."""
    hands = random_deal(rng)
    data = {"hand": number, "hands": [list(cards) for cards in hands]}
    if first_hand:
        seat = rng.randrange(4)
        marked = rng.choice([c for c in hands[seat] if c not in JOKERS and c != "2H"])
        data.update(markedCard=marked, firstLeader=seat)
    return "GDHandDealt", data


def _cards(hand: Mapping, seat: int) -> list[str]:
    return hand["seats"][seat]["cards"]


def _tribute(hand: Mapping, rng: random.Random, settings) -> Action:
    """GD-7.5 (optional mode): a payer may show the big jokers; GD-7.3: the winners choose an
    equal assignment; GD-7.2: otherwise the next payer pays one of his highest cards."""
    tribute, number = hand["tribute"], hand["hand"]
    payers = tribute["payers"]
    paid = {p["seat"] for p in tribute["paid"]}
    if settings.anti_tribute_mode == "optional" and not paid:
        jokers = sum(_cards(hand, s).count(BIG_JOKER) for s in payers)
        if jokers == 2 and rng.random() < ANTI_TRIBUTE_CHANCE:
            seat = next(s for s in payers if BIG_JOKER in _cards(hand, s))
            return "AntiTributeDeclared", {"hand": number, "seat": seat}
    if tribute["awaiting_assignment"]:
        return "TributeAssigned", {"hand": number, "seat": rng.choice(tribute["receivers"]),
                                   "toFirst": rng.choice(payers)}
    seat = next(s for s in payers if s not in paid)
    card = rng.choice(tribute_choices(_cards(hand, seat), hand["level"]))
    return "TributePaid", {"hand": number, "seat": seat, "card": card}


def _return(hand: Mapping, rng: random.Random, settings) -> Action:
    """GD-7.4: the next receiver returns one of the cards he may return."""
    tribute = hand["tribute"]
    due = next(r for r in tribute["returns"] if not r["made"])
    plan = TributePlan(tribute["case"], tuple(tribute["payers"]), tuple(tribute["receivers"]))
    paid = next(p["card"] for p in tribute["paid"] if p["seat"] == due["to"])
    choices = return_choices(plan, _cards(hand, due["seat"]), paid, hand["level"], settings)
    return "TributeReturned", {"hand": hand["hand"], "seat": due["seat"],
                               "card": rng.choice(choices)}


def _playing(hand: Mapping, rng: random.Random, settings) -> Action:
    """GD-5.2: a random legal combination (stating its reading when it holds a wildcard,
    GD-2.4), or a pass when following — always when nothing beats the table."""
    seat, level, number = hand["turn"], hand["level"], hand["hand"]
    top = hand["top"]
    table = None if top is None else classify(top["cards"], level, top["reading"]["wildAs"],
                                              settings, top["reading"]["type"])
    play = random_legal_play(_cards(hand, seat), level, table, rng, settings)
    if play is None or (table is not None and rng.random() < PASS_CHANCE):
        return "Passed", {"hand": number, "seat": seat}
    data = {"hand": number, "seat": seat, "cards": list(play.cards)}
    if wildcard(level) in play.cards:
        data["wildAs"] = list(play.wild_as)
    return "GDCardsPlayed", data


_PHASES = {"tribute": _tribute, "return": _return, "playing": _playing}
