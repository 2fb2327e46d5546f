"""What the use cases refuse with, besides what the append path refuses with (the store's
conflicts, ``TournamentNotFound``, ``EventRuleViolation``) and what the rules raise
(``RuleViolation``). None of them knows HTTP: service/problems.py says each as a problem, a
command of the CLI as a line on stderr."""
from __future__ import annotations

from rules import RuleViolation
from rules.messages import Message


class Refusal(RuleViolation):
    """A rule refuses one argument of the use case (the round asked for is not the next one):
    ``argument`` names it, as the request names it (``round``, ``method``, ``teams``)."""

    def __init__(self, rule: str, message: Message, argument: str):
        super().__init__(rule, message)
        self.argument = argument


class Conflict(Exception):
    """What the command would make exists already; ``text`` says what."""

    def __init__(self, text: Message):
        super().__init__(str(text))
        self.text = text


class TournamentExists(Conflict):
    def __init__(self, tournament_id: str):
        super().__init__(Message("tournament {tid!r} already exists", tid=tournament_id))
        self.tournament_id = tournament_id


class MatchExists(Conflict):
    def __init__(self, match_id: str):
        super().__init__(Message("match {match_id!r} has already started", match_id=match_id))
        self.match_id = match_id


class Invalid(Exception):
    """The command's arguments are not well formed, before any rule: each fault as
    ``{"path", "message"}``, the path a JSON Pointer into the arguments (``/teams``)."""

    def __init__(self, errors: list[dict]):
        super().__init__("; ".join(f"{e['path']}: {e['message']}" for e in errors))
        self.errors = errors
