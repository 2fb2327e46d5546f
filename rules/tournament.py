"""Tournament-level rules shared by every game (shared/rules/tournaments.md, section 1).

The state of a tournament is a frozen :class:`Tournament`; :func:`apply` takes it and one event
of the tournament stream and returns the next state, or raises :class:`RuleViolation`.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Mapping

from . import groups, knockout, swiss
from .messages import Message
from .setting_values import check_values
from .violations import RuleViolation

# T-1.1 disciplines; T-1.2 the size of an entrant in each (a player, a pair, or — seed 004 —
# a team of two pairs). SJ3 admits pairs too: tournaments.md T-6.4 setting pairingUnit=pair.
ENTRANT_SIZES: Mapping[str, tuple[int, ...]] = MappingProxyType({
    "SJ2": (2,), "SJ3": (2, 4), "GD": (2,), "MJO": (1,), "MJS": (1,),
    "bridge": (2,), "xiangqi": (1,), "go": (1,),
})
GAMES = tuple(ENTRANT_SIZES)
RESULT_ONLY = ("bridge", "xiangqi", "go")  # T-9: the referee records each match's result
FORMATS = ("knockout", "swiss", "groups", swiss.FORMAT)  # T-1.1: knockout rounds, Swiss rounds,
# groups; swiss-teams: seed 004's team event (T-6), teams of two pairs paired by scores
# T-1.1: a stage's matches are card tables of two pairs, mahjong tables of four or result-only
# pairings — so mahjong is played in groups of four only (T-7, T-8), and groups only by mahjong.
MAHJONG = ("MJO", "MJS")


@dataclass(frozen=True)
class Team:
    team_id: str
    name: str
    players: tuple[str, ...]
    organisation: str | None = None
    withdrawn: bool = False
    leader: str | None = None  # 领队 of a team of the team event (T-6.2)
    # T-1.6: each player's stable id — given at registration (player_ids), else <team_id>.<n>
    player_ids: tuple[str, ...] = ()
    checked_in: bool = False  # T-2.6: TeamCheckedIn before the first draw

    def to_dict(self) -> dict:
        return {"team_id": self.team_id, "name": self.name, "players": list(self.players),
                "player_ids": list(self.player_ids), "organisation": self.organisation,
                "withdrawn": self.withdrawn, "leader": self.leader,
                "checked_in": self.checked_in}


@dataclass(frozen=True)
class Ruling:
    text: str
    effect: Mapping | None

    def to_dict(self) -> dict:
        return {"text": self.text, "effect": self.effect}


@dataclass(frozen=True)
class Tournament:
    tournament_id: str
    name: str
    game: str
    format: str
    settings: Mapping = field(default_factory=dict)
    date: str | None = None
    venue: str | None = None
    time_zone: str | None = None  # the IANA zone its moments are shown in (pages)
    # team_id -> Team, in order of registration. Never mutated: each change makes a new dict
    # (one C-level copy, where a scan of a tuple per event cost a Python loop over every team).
    teams: Mapping[str, Team] = field(default_factory=dict)
    # T-1.6: who is entered — a name -> its entries, each (team id, the id given or None),
    # and a given player id -> its team; copied on each change like teams. A derived id
    # (<team_id>.<n>) is found from its team.
    entered: Mapping[str, tuple[tuple[str, str | None], ...]] = field(default_factory=dict)
    given_ids: Mapping[str, str] = field(default_factory=dict)
    rulings: tuple[Ruling, ...] = ()
    # The facts a bracket is folded from, in log order: ("draw", LotsDrawn data),
    # ("withdrawn", team id), ("result", ResultRecorded data). Checked against the bracket —
    # which needs the match streams too — by the guards of projections/brackets.py.
    bracket_facts: tuple[tuple[str, Mapping], ...] = ()
    # TournamentArchived: left out of the tournament list (and the home page); its log stays
    # whole, readable and verifiable
    archived: bool = False
    # T-1.7 (interpretation): TournamentCreated's ``simulated``, a tournament that
    # ``paiju simulate`` made; nothing in the rules reads it
    simulated: bool = False

    @property
    def drawn(self) -> bool:
        return any(kind in ("draw", "tables") for kind, _ in self.bracket_facts)

    @property
    def result_only(self) -> bool:
        return self.game in RESULT_ONLY

    def team(self, team_id: str) -> Team | None:
        return self.teams.get(team_id)

    def to_dict(self) -> dict:
        return {"id": self.tournament_id, "name": self.name, "game": self.game,
                "format": self.format, "settings": dict(self.settings), "date": self.date,
                "venue": self.venue, "time_zone": self.time_zone, "teams": [t.to_dict() for t in self.teams.values()],
                "rulings": [r.to_dict() for r in self.rulings], "archived": self.archived,
                "simulated": self.simulated}


def create(data: dict) -> Tournament:
    """``TournamentCreated`` opens the tournament (T-1.3) for one discipline and format (T-1.1).
    Its ``simulated`` (T-1.7, interpretation; the seeds are silent) says that ``paiju simulate``
    made it: the list may leave it out and the pages label it; no rule reads it."""
    if data["game"] not in ENTRANT_SIZES:
        raise RuleViolation("T-1.1", "unknown discipline {game!r}; one of {games}",
                                     game=data['game'], games=', '.join(GAMES))
    if data["format"] not in FORMATS:
        raise RuleViolation("T-1.1", "unknown format {format!r}; one of {formats}",
                                     format=data['format'], formats=', '.join(FORMATS))
    if (data["game"] in MAHJONG) != (data["format"] == "groups"):
        if data["game"] in MAHJONG:
            raise RuleViolation("T-1.1", "{game} cannot be played in format {format}: a {game} "
                                         "tournament is groups (groups of four are mahjong "
                                         "tables)",
                                         game=data['game'], format=data['format'])
        raise RuleViolation("T-1.1", "{game} cannot be played in format {format}: a {game} "
                                     "tournament is knockout or swiss (groups of four are "
                                     "mahjong tables)",
                                     game=data['game'], format=data['format'])
    _check_known_keys(data["format"], data.get("settings", {}))
    _check_settings(data.get("settings", {}))
    _check_match_settings(data["game"], data.get("settings", {}))
    if data["format"] == "groups":
        groups.check_settings(data.get("settings", {}))  # T-7.2 advance, T-8.3 prizePlaces
    if data["format"] == swiss.FORMAT:
        if data["game"] != swiss.GAME:  # T-6.3: seed 004's team event plays SJ3
            raise RuleViolation("T-6.3", "the team event ({format}) plays {plays}, not {game}",
                                         format=swiss.FORMAT, plays=swiss.GAME, game=data['game'])
        swiss.check_settings(data.get("settings", {}))  # T-6.1 rounds, T-6.7, T-6.8
    return Tournament(tournament_id=data["tournament_id"], name=data["name"], game=data["game"],
                      format=data["format"], settings=data.get("settings", {}),
                      date=data.get("date"), venue=data.get("venue"),
                      time_zone=data.get("time_zone"),
                      simulated=data.get("simulated", False))


# Tournament settings the tournament rules read: T-2.2, T-2.3; ``match`` holds the settings of
# every match (each game's own keys, checked here by the game's engine so that a bad one is
# refused now, not at every match start).
_CHOICES = MappingProxyType({
    "byePolicy": ("T-2.2", knockout.BYE_POLICIES, knockout.BYE_POLICIES[0]),
    "thirdPlace": ("T-2.3", knockout.THIRD_PLACE, knockout.THIRD_PLACE[0]),
    "checkIn": (knockout.CHECK_IN_RULE, knockout.CHECK_IN, knockout.CHECK_IN[0]),
})


# The tournament settings each format reads (T-1.3); any other key is refused, as a match
# setting's is: a misspelt one (``thirdplace``) must not pass as stored and silently do nothing.
# The team event (swiss) checks its own (T-6).
_KNOWN_SETTINGS = MappingProxyType({
    "knockout": ("match", *_CHOICES, "seeding"),
    "groups": ("match", *groups.SETTINGS, *groups.CHOICES),
})


def _check_known_keys(format_: str, settings: Mapping) -> None:
    known = _KNOWN_SETTINGS.get(format_)
    unknown = sorted(set(settings) - set(known)) if known is not None else []
    if unknown:
        names = ", ".join(map(repr, unknown))
        if len(unknown) > 1:
            raise RuleViolation("T-1.3", "unknown settings {names} of a {format} tournament; "
                                         "its settings are {known}",
                                         names=names, format=format_, known=", ".join(known))
        raise RuleViolation("T-1.3", "unknown setting {names} of a {format} tournament; its "
                                     "settings are {known}",
                                     names=names, format=format_, known=", ".join(known))


def _check_settings(settings: Mapping) -> None:
    check_values(settings, choices=_CHOICES)
    if "seeding" in settings:
        knockout.check_seeding(settings["seeding"])  # T-2.7
    if not isinstance(settings.get("match", {}), dict):
        raise RuleViolation("T-1.3", "setting match holds the match settings: an object")


def _check_match_settings(game: str, settings: Mapping) -> None:
    from .matches import ENGINES  # the engines import this module's neighbours, not it
    engine = ENGINES.get(game)
    if engine is not None and "match" in settings:
        engine.check_settings(settings["match"])


# T-1.6 (interpretation: the seeds say nothing of it) — a player is entered once in a
# tournament. Each player of a registration has a stable id: the one given in ``player_ids``
# (one per player, in order), else ``<team_id>.<n>`` (n from 1, in the order of ``players``).
# Two entries are the same player when they have the same id, or the same name unless both
# were given (different) ids: namesakes — 王伟 is common — are told apart by their ids. The
# players of a withdrawn team may enter again, in another team.
PLAYER_ONCE = "T-1.6"


def player_ids(team_id: str, players: tuple[str, ...], given: tuple[str, ...] = ()) -> tuple[str, ...]:
    """T-1.6: the players' stable ids — those given, else ``<team_id>.<n>``."""
    return given or tuple(f"{team_id}.{n}" for n in range(1, len(players) + 1))


def player_conflict(t: Tournament, data: Mapping) -> tuple[int, RuleViolation] | None:
    """The first player of the registration ``data`` already entered — in it (T-1.2) or in
    another team still entered (T-1.6) — as (its index in ``players``, the violation); None if
    there is none."""
    players = tuple(data["players"])
    given = tuple(data.get("player_ids") or ())
    if given and len(given) != len(players):
        return (min(len(given), len(players) - 1),
                RuleViolation(PLAYER_ONCE, "player_ids names one id per player: {players} "
                                           "player(s), {ids} id(s)",
                                           players=len(players), ids=len(given)))
    ids = player_ids(data["team_id"], players, given)
    for i, (name, pid) in enumerate(zip(players, ids)):
        if pid in ids[:i]:
            return i, RuleViolation("T-1.2", "an entrant names the same player id {pid!r} twice",
                                             pid=pid)
        if name in players[:i] and not given:
            return i, RuleViolation("T-1.2", "an entrant names the same player twice")
        owner = _id_owner(t, pid)
        if owner is not None and not t.teams[owner].withdrawn:
            return i, RuleViolation(PLAYER_ONCE, "player id {pid!r} is already entered, for "
                                                 "team {owner!r}; a player is entered once",
                                                 pid=pid, owner=owner)
        namesakes = [(team, known) for team, known in t.entered.get(name, ())
                     if not t.teams[team].withdrawn]
        if namesakes and (not given or any(known is None for _, known in namesakes)):
            return i, RuleViolation(PLAYER_ONCE, "player {name!r} is already entered, for team "
                                                 "{team!r}; a player is entered once "
                                                 "(namesakes are told apart by player_ids)",
                                                 name=name, team=namesakes[0][0])
    return None


def _id_owner(t: Tournament, pid: str) -> str | None:
    """The team whose player has the id ``pid``, given or derived (<team_id>.<n>)."""
    if pid in t.given_ids:
        return t.given_ids[pid]
    team_id, _, n = pid.rpartition(".")
    team = t.teams.get(team_id)
    if team is not None and pid in team.player_ids:
        return team_id
    return None


def _entered(t: Tournament, team: Team, given: tuple[str, ...]) -> dict:
    entered = {**t.entered, **{name: t.entered.get(name, ()) + ((team.team_id, None),)
                               for name in team.players}}
    if not given:
        return {"entered": entered}
    for name, pid in zip(team.players, given):
        entered[name] = tuple(e for e in entered[name] if e != (team.team_id, None)) + \
            ((team.team_id, pid),)
    return {"entered": entered,
            "given_ids": {**t.given_ids, **{pid: team.team_id for pid in given}}}


def register_team(t: Tournament, data: dict) -> Tournament:
    """``TeamRegistered`` (T-1.3): a new entrant whose size fits the discipline (T-1.2), none of
    whose players is entered already (T-1.6)."""
    if t.team(data["team_id"]) is not None:
        raise RuleViolation("T-1.3", "team {team_id!r} is already registered",
                                     team_id=data['team_id'])
    if t.drawn:
        rule = {"groups": groups.TABLES, swiss.FORMAT: swiss.PAIRING}.get(t.format, "T-2.1")
        raise RuleViolation(rule, "the draw has been made; no team can enter any more")
    players = tuple(data["players"])
    if t.format == swiss.FORMAT:  # T-6.2: a leader, two pairs, players in one team only
        swiss.check_entry(data, {i: e.players for i, e in t.teams.items() if not e.withdrawn})
    sizes = ENTRANT_SIZES[t.game]
    if len(players) not in sizes:
        raise RuleViolation("T-1.2", "an entrant in {game} has {wanted} player(s), not {count}",
                                     game=t.game, wanted=_either(sizes), count=len(players))
    if (conflict := player_conflict(t, data)) is not None:
        raise conflict[1]
    given = tuple(data.get("player_ids") or ())
    team = Team(data["team_id"], data["name"], players, data.get("organisation"),
                leader=data.get("leader"), player_ids=player_ids(data["team_id"], players, given))
    return replace(t, teams={**t.teams, team.team_id: team}, **_entered(t, team, given))


def _either(values: tuple[int, ...]) -> Message | int:
    """``2``, ``2 or 4``: any one of ``values``, in the reader's language."""
    said = values[0]
    for value in values[1:]:
        said = Message("{earlier} or {later}", earlier=said, later=value)
    return said


def withdraw_team(t: Tournament, data: dict) -> Tournament:
    """``TeamWithdrawn`` (T-1.3): only a registered team that has not withdrawn already."""
    team = t.team(data["team_id"])
    if team is None:
        raise RuleViolation("T-1.3", "team {team_id!r} is not registered",
                                     team_id=data['team_id'])
    if team.withdrawn:
        raise RuleViolation("T-1.3", "team {team_id!r} has already withdrawn",
                                     team_id=data['team_id'])
    return replace(t, teams={**t.teams, team.team_id: replace(team, withdrawn=True)},
                   bracket_facts=t.bracket_facts + (("withdrawn", team.team_id),))


def check_in(t: Tournament, data: dict) -> Tournament:
    """``TeamCheckedIn`` (T-2.6): a registered team still in is at the venue, once, before the
    first draw of a knockout whose setting ``checkIn`` asks for it."""
    rule = knockout.CHECK_IN_RULE
    mode = t.settings.get("checkIn", knockout.CHECK_IN[0])
    if t.format != "knockout" or mode == "off":
        if t.format == "knockout":
            raise RuleViolation(rule, "this tournament draws every registered team: check-in "
                                      "is a knockout's setting checkIn (leaveOut or walkover), "
                                      "off here")
        raise RuleViolation(rule, "a {format} tournament has no check-in (a knockout's setting "
                                  "checkIn)", format=t.format)
    team = t.team(data["team_id"])
    if team is None:
        raise RuleViolation("T-1.3", "team {team_id!r} is not registered",
                                     team_id=data['team_id'])
    if team.withdrawn:
        raise RuleViolation("T-1.3", "team {team_id!r} has withdrawn",
                                     team_id=data['team_id'])
    if team.checked_in:
        raise RuleViolation(rule, "team {team_id!r} has already checked in",
                                  team_id=data['team_id'])
    if t.drawn:
        raise RuleViolation(rule, "round 1 has been drawn: check-in is over")
    return replace(t, teams={**t.teams, team.team_id: replace(team, checked_in=True)})


def archive(t: Tournament, data: dict) -> Tournament:
    """``TournamentArchived`` (T-1.3): the tournament leaves the list of tournaments, once. It
    is a fact like any other: nothing is removed, and a ruling may still be recorded."""
    if t.archived:
        raise RuleViolation("T-1.3", "tournament {tournament_id!r} is already archived",
                                     tournament_id=t.tournament_id)
    return replace(t, archived=True)


# LotsDrawn purposes of a groups tournament -> the kind of fact recorded (T-8.1, T-7.2, T-8.3)
_GROUP_LOTS = {"tables": "tables", "standingsTie": "tie"}


def draw_group_lots(t: Tournament, data: dict) -> Tournament:
    """``LotsDrawn`` of a groups tournament: a stage's tables of four (T-8.1) or lots between
    equal players (T-7.2, T-8.3). Checked against the stages — which need the tables' match
    streams — by the guards of projections/groups.py."""
    if t.format != "groups":
        raise RuleViolation(groups.TABLES, "a {format} tournament is not played in groups of "
                                           "four",
                                           format=t.format)
    return replace(t, bracket_facts=t.bracket_facts + ((_GROUP_LOTS[data["purpose"]], data),))


def draw_lots(t: Tournament, data: dict) -> Tournament:
    """``LotsDrawn`` in the tournament's stream: a knockout round's pairing (T-2.1). Lots of a
    match (declarations, dealer, a tied match) belong to the match's stream."""
    if t.format == swiss.FORMAT and data["purpose"] in _TEAM_EVENT_LOTS:
        return draw_team_event_lots(t, data)
    if data["purpose"] in _GROUP_LOTS:
        return draw_group_lots(t, data)
    if data["purpose"] != "pairing":
        raise RuleViolation("T-1.4", "lots for {purpose} are drawn in the stream of the match "
                                     "they decide",
                                     purpose=data['purpose'])
    if t.format != "knockout":
        raise RuleViolation("T-2.1", "a {format} tournament is not drawn as a knockout",
                                     format=t.format)
    return replace(t, bracket_facts=t.bracket_facts + (("draw", data),))


# LotsDrawn purposes of the team event -> the kind of fact recorded: round 1 (T-6.4), lots
# between equal teams (T-6.8)
_TEAM_EVENT_LOTS = {"pairing": "draw", "standingsTie": "tie"}


def draw_team_event_lots(t: Tournament, data: dict) -> Tournament:
    """``LotsDrawn`` of the team event: round 1's pairing (T-6.4) or lots between equal teams
    (T-6.8). Checked against the rounds — which need the tables' match streams — by the guards
    of projections/team_event.py."""
    return replace(t, bracket_facts=t.bracket_facts + ((_TEAM_EVENT_LOTS[data["purpose"]], data),))


def pair_round(t: Tournament, data: dict) -> Tournament:
    """``RoundPaired`` (T-6.4): a later round of the team event, by scores or by the referee;
    checked by the guards of projections/team_event.py."""
    if t.format != swiss.FORMAT:
        raise RuleViolation(swiss.PAIRING, "a {format} tournament is not paired by scores",
                                           format=t.format)
    return replace(t, bracket_facts=t.bracket_facts + (("paired", data),))


def close_team_event(t: Tournament, data: dict) -> Tournament:
    """``TeamEventClosed`` (T-6.11): the chief referee closes the team event early; checked
    against the rounds — which need the tables' match streams — by the guards of
    projections/team_event.py."""
    if t.format != swiss.FORMAT:
        raise RuleViolation(swiss.CLOSING, "only a team event ({team_event}) is closed by "
                                           "TeamEventClosed, not a {format} tournament",
                                           team_event=swiss.FORMAT, format=t.format)
    return replace(t, bracket_facts=t.bracket_facts + (("closed", data),))


def record_result(t: Tournament, data: dict) -> Tournament:
    """``ResultRecorded`` (T-9.3): the result of a match whose play is not modelled."""
    if not t.result_only:
        raise RuleViolation("T-9.1", "{game} results come from the match's own events",
                                     game=t.game)
    return replace(t, bracket_facts=t.bracket_facts + (("result", data),))


def record_ruling(t: Tournament, data: dict) -> Tournament:
    """``RulingRecorded`` (T-1.5): the committee decides cases the rules leave open."""
    return replace(t, rulings=t.rulings + (Ruling(data["text"], data.get("effect")),))


def roll_tie_dice(t: Tournament, data: dict) -> Tournament:
    """``TieDiceRolled`` (T-7.2, T-7.5): a round of dice among tied players of a stage of the
    Sichuan event's groups; checked against the stages by the guards of projections/groups.py."""
    if t.format != "groups":
        raise RuleViolation(groups.TABLES, "a {format} tournament is not played in groups of "
                                           "four",
                                           format=t.format)
    return replace(t, bracket_facts=t.bracket_facts + (("dice", data),))


_TRANSITIONS = {
    "TieDiceRolled": roll_tie_dice,
    "TeamRegistered": register_team,
    "TeamWithdrawn": withdraw_team,
    "TeamCheckedIn": check_in,
    "RulingRecorded": record_ruling,
    "LotsDrawn": draw_lots,
    "ResultRecorded": record_result,
    "RoundPaired": pair_round,
    "TeamEventClosed": close_team_event,
    "TournamentArchived": archive,
}


def apply(t: Tournament | None, event_type: str, data: dict, at: str | None = None) -> Tournament:
    """The next state of the tournament stream after one event (``at``: its recorded time)."""
    if event_type == "TournamentCreated":
        if t is not None:
            raise RuleViolation("T-1.3", "the tournament has already been created")
        return create(data)
    if t is None:
        raise RuleViolation("T-1.3", "the tournament has not been created")
    return _TRANSITIONS[event_type](t, data)
