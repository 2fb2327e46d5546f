"""What a match starts with (``MatchStarted`` data): the teams its draw gave it (or the
organiser's), their players in their seats (SJ2-1.2: side A at seats 0 and 2, side B at 1 and
3), the round or stage of that draw, and the settings — the tournament's ``settings.match``,
what the draw says of the table, then the organiser's."""
from __future__ import annotations

from marshmallow import ValidationError

from events.shengji_events import MatchStartedData
from events.store import Tail
from projections import brackets, groups, team_event
from projections.streams import StreamCache
from rules import swiss
from rules.matches import engine_of, team_keys
from rules.messages import Message
from rules.tournament import Tournament

from ..faults import field_errors
from .errors import Invalid, Refusal


def match_started(log: Tail, catalogue, cache: StreamCache | None, t: Tournament,
                  match_id: str, teams: dict | None, settings: dict | None) -> dict:
    """``MatchStarted`` data for match ``match_id`` of ``t``; ``teams`` and ``settings`` are the
    organiser's (None: the draw's teams, the tournament's settings)."""
    tid, players, drawn = t.tournament_id, None, {}
    if t.format == swiss.FORMAT:  # T-6.4: a table of the team event seats one pair of each
        paired, drawn_round, players = team_event.table_start(log, catalogue, tid, match_id,
                                                              cache)
        teams = teams or paired
    elif t.format == "groups":  # T-8.1: the seats the lots gave a table's players
        table = groups.drawn_table(log, catalogue, tid, match_id, cache)
        teams, drawn_round = teams or table.teams(), table.stage
        drawn = _drawn_table_settings(log, catalogue, cache, t, table)
    else:
        teams, drawn_round = _teams_and_round(log, catalogue, cache, t, match_id, teams)
    _must_have_team_keys(t.game, teams)
    engine = engine_of(t.game)
    players = players or {side: _players(t, team_id) for side, team_id in teams.items()}
    data = {"match_id": match_id, "game": t.game, "teams": teams,
            "settings": {**t.settings.get("match", {}), **drawn, **(settings or {})},
            "seats": engine.seat_players(players)}
    if drawn_round is not None:
        data["round"] = drawn_round
    try:
        return MatchStartedData().load(data)
    except ValidationError as error:  # the tournament's settings.match are not well formed
        raise Invalid(field_errors(error.messages)) from None


def _drawn_table_settings(log: Tail, catalogue, cache: StreamCache | None, t: Tournament,
                          table) -> dict:
    """What the draw says of a groups table's settings: the Sichuan final is started as the
    final (T-7.4: 换三张 and the extra hand on a tie for a podium place)."""
    if t.game == "MJS" and groups.is_final_table(log, catalogue, t.tournament_id, table, cache):
        return {"final": True}
    return {}


def _teams_and_round(log: Tail, catalogue, cache: StreamCache | None, t: Tournament,
                     match_id: str, teams: dict | None) -> tuple[dict, int | None]:
    """A knockout match's teams — the organiser's, else those its draw gave it — and the
    round of that draw (T-2.1); any other format's, the organiser's."""
    if t.format == "knockout":
        tid = t.tournament_id
        if teams is None:
            match = brackets.drawn_match(log, catalogue, tid, match_id, cache)
            return {"A": match.teams[0], "B": match.teams[1]}, match.round
        bracket = brackets.bracket_at(log, catalogue, tid, cache=cache)
        match = bracket.matches.get(match_id) if bracket else None
        return teams, match.round if match else None
    if teams is None:
        raise Invalid([{"path": "/teams", "message": Message(
            "required: name the teams of sides A and B")}])
    return teams, None


def _must_have_team_keys(game: str, teams: dict) -> None:
    """``teams`` names the game's entrants: sides A and B, or a mahjong table's seats 0-3."""
    keys = team_keys(game)
    if sorted(teams) != sorted(keys):
        raise Invalid([{"path": "/teams", "message": Message(
            "a {game} match names the teams of {keys}", game=game, keys=", ".join(keys))}])


def _players(t: Tournament, team_id: str) -> list[str]:
    team = t.team(team_id)
    if team is None:
        raise Refusal("T-1.3", Message("team {team_id!r} is not an entrant", team_id=team_id),
                      "teams")
    return list(team.players)
