"""The application layer between the adapters and the log (service/application): the routes
hold no rule of their own (every ``rule-violation`` problem is said by service/problems.py from
a domain error), the use cases reach neither Flask nor an HTTP module, however indirectly, and
the timer fires its deadlines through the same use case as everything else. Read with ``ast``
(tests/unit/test_house.py's reader) where it is about the source."""
from __future__ import annotations

import ast
from pathlib import Path

from application_log import application, fours, tournament
from syntax_trees import parse_file
from test_house import REPO, imports, modules

from projections.deadlines import pending_deadlines
from projections.streams import load_stream
from service.timekeeping import Timekeeper

# the HTTP edge: the routes, the problems, the bearer token, the request's body, the factory
EDGE = ("service.api", "service.problems", "service.auth", "service.requests", "service.app",
        "service.conditional", "service.cors")
HTTP = ("flask", "werkzeug")


def test_no_route_answers_a_rule_violation_itself():
    """A route parses, calls a use case and renders: a refusal by a rule is raised as a domain
    error and said as a problem in one place."""
    found = [f"{path.relative_to(REPO)}:{n}" for path in sorted((REPO / "service/api").glob("*.py"))
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if "Problem(422" in line]
    assert found == []


def _reached(start: str) -> set[str]:
    """Every module of ours ``start``'s package imports, directly or through others."""
    by_source: dict[str, set[str]] = {}
    for found in imports():
        by_source.setdefault(found.source, set()).add(found.target)
    seen, todo = set(), [m for m in modules() if m == start or m.startswith(start + ".")]
    while todo:
        module = todo.pop()
        if module not in seen:
            seen.add(module)
            todo.extend(by_source.get(module, ()))
    return seen


def _third_party(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(parse_file(path)):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            names.add(node.module)
    return names


def _within(name: str, packages: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in packages)


def test_the_use_cases_reach_no_http_module_however_indirectly():
    """The CLI and the timer run them with no request: nothing they import, directly or not,
    is of the HTTP edge; and the application's own files import no web framework."""
    reached, files = _reached("service.application"), modules()
    assert "service.entrants" in reached and "service.appending" in reached  # the check reads
    assert sorted(m for m in reached if _within(m, EDGE)) == []
    own = [m for m in files if _within(m, ("service.application",))]
    assert sorted(f"{m} imports {name}" for m in own for name in _third_party(files[m])
                  if _within(name, HTTP)) == []


def test_the_timer_fires_a_deadline_through_the_application():
    """T-6.6: a pair not seated at minute 21 forfeits the round — the timekeeper's firing is
    the application's ``fire_deadline``, judged and appended as any command."""
    app = application()
    tournament(app, "jnu", "SJ3", "swiss-teams", fours("T1", "T2"), rounds=3)
    table = app.pair_round("jnu").records[0].data_dict["matches"][0]["match_id"] + "a"
    app.start_match("jnu", table)
    fired = []
    real = app.fire_deadline
    app.fire_deadline = lambda deadline: fired.append(deadline) or real(deadline)
    clock = app.store.clock
    timekeeper = Timekeeper(app.store, app.catalogue, lambda: clock.now, app.cache,
                            tournaments=app)
    timekeeper.start()
    clock.advance(minutes=21)
    appended = timekeeper.tick()
    assert [r.type for r in appended] == ["LatenessLimitReached"]
    assert [d.event_id for d in fired] == [r.id for r in appended]
    # both pairs unseated: the round is forfeited, the match over, nothing more to fire
    assert pending_deadlines(load_stream(app.store, app.catalogue, f"match-jnu:{table}")) == ()
    assert timekeeper.tick() == [] and len(fired) == 1
