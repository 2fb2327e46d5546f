"""Who may do what: the roles, the families of event types, and the scope of a token.

Pure policy, no HTTP: each check returns None when the action is allowed and otherwise the
reason it is not, which the API turns into a 403. ``None`` as the token is the public (a request
without one).

    role        writes                                          reads
    admin       everything                                      everything
    organiser   tournament, registrations, draws, matches,      state, verify
                team-event pairings
    referee     table, play and officiating events,             state (all cards), the log
                a team-event round paired by hand, the team
                event closed (T-6.11), disputes
    committee   rulings, disputes                               state (all cards), the log
    table       table and play events of its match, disputes    state (its match as the table)
                about it
    player      play events of its seat in its match,           state (its own cards)
                disputes about it (its team captain's voice)
    auditor     nothing                                         everything of its tournament
    system      timer events (and the table's: a dealing        nothing
                machine, dice)
    (public)    nothing                                         bracket, standings, finished hands
"""
from __future__ import annotations

from types import MappingProxyType
from typing import Mapping

from events.catalogue import match_stream
from rules.messages import N_, Message

from .tokens import ROLES, Token

# Each event type's family: who may post it. A mapping names the family by the kind of stream
# the event is posted to (lots drawn for a bracket are the organiser's; at a table, the
# referee's).
FAMILIES: Mapping[str, str | Mapping[str, str]] = MappingProxyType({
    # the tournament
    "TournamentCreated": "organisation",
    "TeamRegistered": "organisation",
    "TeamWithdrawn": "organisation",
    "TeamCheckedIn": "organisation",  # T-2.6: at the desk before the draw
    "TournamentArchived": "organisation",
    "LotsDrawn": MappingProxyType({"tournament": "organisation", "match": "officiating"}),
    "ResultRecorded": "officiating",
    "RulingRecorded": "ruling",
    "MatchStarted": "organisation",
    "RoundPaired": "pairing",  # the team event's pairing of a round (T-6.4)
    "TeamEventClosed": "officiating",  # T-6.11: the chief referee closes the team event
    # Shengji (SJ2, SJ3)
    "HandDealt": "table",
    "DealCompleted": "table",
    "KittyTaken": "table",
    "TrumpDeclared": "play",
    "TrumpOvercalled": "play",
    # the dealer's bury names no seat (the kitty holder is the state's): the table posts it
    "KittyBuried": "table",
    "CardsPlayed": "play",
    "DeclarationWindowClosed": "timer",
    "KittyCorrected": "officiating",
    "PlayCorrected": "officiating",
    "PenaltyAssessed": "officiating",
    "IrregularityReported": "officiating",
    "HandVoided": "officiating",
    "TimeLimitReached": "timer",
    # Shengji (SJ3)
    "DrawingEnded": "table",
    "ThrowPenaltyChoice": "play",
    "SJ3TimeLimitExceeded": "timer",
    "LatenessRecorded": "officiating",
    "PairSeated": "table",                # T-6.6: the table records a pair seated
    "LatenessLimitReached": "timer",      # T-6.6: minute 21 and a pair not seated
    # a score sheet's row (recording: "sheet"): the scorer is the table or a referee
    "HandResultRecorded": "table",
    # Guandan
    "GDHandDealt": "table",
    "AntiTributeDeclared": "play",
    "TributePaid": "play",
    "TributeAssigned": "table",
    "TributeReturned": "play",
    "GDCardsPlayed": "play",
    "Passed": "play",
    "LevelPenaltyAssessed": "officiating",
    "GDTimeLimitExceeded": "timer",
    "GDHandResultRecorded": "table",      # a score sheet's row (recording: "sheet")
    # mahjong
    "DiceRolled": "table",
    "TilesDealt": "table",
    "TileDrawn": "play",
    "TileDiscarded": "play",
    "Claim": "play",
    "ClaimPassed": "play",
    "Win": "play",
    "KongDeclared": "play",
    "ClaimWindowClosed": "timer",
    "ExhaustiveDrawDeclared": "officiating",
    "TimeLimitExceeded": "timer",
    "CoinPenaltyAssessed": "officiating",
    # Sichuan mahjong (MJS)
    "ExchangeTilesSelected": "play",   # 换三张: the three tiles a seat passes
    "VoidSuitDeclared": "play",        # 定缺
    "WarningIssued": "officiating",
    "FalseWinDeclared": "officiating",
    "WrongTileCount": "officiating",
    "ConductPenaltyAssessed": "officiating",
    "TieDiceRolled": "organisation",   # dice for a tie in the groups (like LotsDrawn)
    # the match clock (every game): a referee stops and restarts it
    "MatchClockPaused": "officiating",
    "MatchClockResumed": "officiating",
    # the committee's file (T-1.5): a captain (a player token) or an official raises a
    # dispute; the committee resolves it
    "DisputeRaised": "dispute",
    "DisputeResolved": "ruling",
})

FAMILY_ROLES: Mapping[str, frozenset[str]] = MappingProxyType({
    "organisation": frozenset({"admin", "organiser"}),
    # the team event's rounds: the organiser pairs them, a referee by hand where the rules
    # find no valid pairing (T-6.4)
    "pairing": frozenset({"admin", "organiser", "referee"}),
    "table": frozenset({"admin", "referee", "table", "system"}),
    "play": frozenset({"admin", "referee", "table", "player"}),
    "officiating": frozenset({"admin", "referee"}),
    "ruling": frozenset({"admin", "committee"}),
    # a dispute: a team's captain (a player token, its own match) or an official
    "dispute": frozenset({"admin", "referee", "committee", "table", "player"}),
    # what the clock decides: the scheduler appends it (role system), or a referee by hand
    "timer": frozenset({"admin", "referee", "system"}),
})

# What a route does, and who may do it (besides the event-by-event check of POST …/events).
ACTIONS: Mapping[str, frozenset[str] | None] = MappingProxyType({
    "read": None,  # anyone, the public included; what they see depends on who they are
    "read-log": frozenset({"admin", "auditor", "committee", "referee"}),  # every card dealt
    "verify": frozenset({"admin", "auditor", "committee", "referee", "organiser"}),
    "export": frozenset({"admin", "auditor", "committee", "referee"}),
    "organise": FAMILY_ROLES["organisation"],
    "post-events": frozenset({"admin", "organiser", "referee", "committee", "table", "player",
                              "system"}),
    "officiate": FAMILY_ROLES["officiating"],  # a route that posts officiating events for a round
    "pair": FAMILY_ROLES["pairing"],
    "rule": FAMILY_ROLES["ruling"],  # preview a ruling (what recording it would make)
    "webhooks": FAMILY_ROLES["organisation"],  # register, read and redeliver webhooks
    # the deployment's metrics (/metrics), every tournament's counts: or the metrics token
    "metrics": frozenset({"admin"}),
    # a browser's sign-in (service/sessions.py): anyone; the one-time code is the proof
    "sign-in": None,
    # who the request's session or token is, and signing out: whoever holds one
    "session": frozenset(ROLES),
    # the desk's pages (service/api/desk.py): the officials who run the day at the desk
    "desk": frozenset({"admin", "organiser", "referee", "committee"}),
})

# The rule that says who posts an event, named when another role tries to
EVENT_RULES: Mapping[str, str] = MappingProxyType({
    "TeamEventClosed": N_("T-6.11: the chief referee closes the team event"),
})

# Who sees every hidden card (the projections' privileged viewers).
OFFICIALS = frozenset({"admin", "referee", "committee", "auditor"})

# Events whose data everyone may read as it is stored, as the public reads show it (the
# tournament's entrants, draws, results, a match's start and its clock). Every other event
# reaches those who may not read the raw log as a notice (what happened, where, when) with, for
# a hand's event, the hand as the hand read shows it to them (service/visibility.py): a ruling's
# or a dispute's words and every card follow the reads' own rules, not a copy of them here.
PUBLIC_EVENTS = frozenset({
    "TournamentCreated", "TeamRegistered", "TeamWithdrawn", "TournamentArchived", "LotsDrawn",
    "ResultRecorded", "RoundPaired", "TeamEventClosed", "TieDiceRolled", "MatchStarted",
    "MatchClockPaused", "MatchClockResumed",
})


def family_of(event_type: str, stream: str) -> str:
    family = FAMILIES.get(event_type, "officiating")  # unknown to the policy: officials only
    if isinstance(family, Mapping):
        return family["match" if stream.startswith("match-") else "tournament"]
    return family


def tournament_denied(token: Token | None, tournament_id: str) -> Message | None:
    """A token acts within its own tournament only (an admin's, anywhere)."""
    if token is None or token.role == "admin" or token.tournament_id == tournament_id:
        return None
    return Message("this {role} token is for tournament {token_tournament!r}, not "
                   "{tournament_id!r}", role=token.role, token_tournament=token.tournament_id,
                   tournament_id=tournament_id)


def action_denied(token: Token | None, action: str) -> Message | None:
    allowed = ACTIONS[action]
    if allowed is None:
        return None
    role = token.role if token else "public"
    if role in allowed:
        return None
    return Message("the {role} role may not {action}; allowed: {allowed}", role=role,
                   action=Message(_ACTION_WORDS[action]), allowed=", ".join(sorted(allowed)))


_ACTION_WORDS = {
    "read-log": N_("read the raw log (it holds every hidden card)"),
    "verify": N_("verify the log"),
    "export": N_("export the log"),
    "organise": N_("organise the tournament (register, draw, start matches)"),
    "post-events": N_("post events"),
    "officiate": N_("officiate (time, lateness)"),
    "pair": N_("pair a round"),
    "rule": N_("rule (the committee's preview of a ruling)"),
    "webhooks": N_("manage the tournament's webhooks"),
    "metrics": N_("read the deployment's metrics"),
    "session": N_("have a session (sign in with a code first)"),
    "desk": N_("use the desk (it is for organisers, referees and the committee)"),
}


def event_denied(token: Token, tournament_id: str, event_type: str, stream: str,
                 data: dict) -> Message | None:
    """Why ``token`` may not post this event, or None: its role must hold the event's family,
    a table or player token must post into its own match, and a player only for its seat."""
    family = family_of(event_type, stream)
    if token.role not in FAMILY_ROLES[family]:
        allowed = ", ".join(sorted(FAMILY_ROLES[family]))
        if event_type in EVENT_RULES:
            return Message("{event_type} is a {family} event ({rule}): the {role} role may not "
                           "post it; allowed: {allowed}", event_type=event_type, family=family,
                           rule=Message(EVENT_RULES[event_type]), role=token.role,
                           allowed=allowed)
        return Message("{event_type} is a {family} event: the {role} role may not post it; "
                       "allowed: {allowed}", event_type=event_type, family=family,
                       role=token.role, allowed=allowed)
    if family == "dispute":  # about its own match (in the tournament's stream): any seat's
        if token.match_id is not None and data.get("match_id") != token.match_id:  # captain
            return Message("this {role} token raises disputes about match {match_id!r} only",
                           role=token.role, match_id=token.match_id)
        return None
    if token.match_id is not None and stream != match_stream(tournament_id, token.match_id):
        return Message("this {role} token is for match {match_id!r} only", role=token.role,
                       match_id=token.match_id)
    if token.role == "player" and data.get("seat") != token.seat:
        return Message("this player token acts for seat {seat} only", seat=token.seat)
    return None
