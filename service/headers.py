"""Answer header fields the hooks add to every answer, written directly: werkzeug's header
properties parse a field and write it again at each change, which for a small answer was a
tenth of the cost of its hooks (measured in process: service/conditional.py, service/i18n.py)."""
from __future__ import annotations

from werkzeug.wrappers import Response


def vary_on(response: Response, name: str) -> None:
    """``Vary: name`` added to ``response``, once (``response.vary.add``, cheaply)."""
    held = response.headers.get("Vary")
    if not held:
        response.headers["Vary"] = name
    elif name.lower() not in (part.strip().lower() for part in held.split(",")):
        response.headers["Vary"] = f"{held}, {name}"
