"""The event log: envelope and hash chain, the catalogue of event types, and the stores."""
from .catalogue import Catalogue
from .tournament_events import TOURNAMENT_EVENTS


def default_catalogue() -> Catalogue:
    """Every event type paiju knows. Each game adds its own tuple here."""
    return Catalogue(TOURNAMENT_EVENTS)
