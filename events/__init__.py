"""The event log: envelope and hash chain, the catalogue of event types, and the stores."""
from .catalogue import Catalogue
from .clock_events import CLOCK_EVENTS
from .guandan_events import GUANDAN_DERIVED, GUANDAN_EVENTS
from .mahjong_events import MAHJONG_DERIVED, MAHJONG_EVENTS
from .ruling_events import RULING_EVENTS
from .shengji_events import DERIVED, SHENGJI_EVENTS
from .team_event_events import TEAM_EVENT_EVENTS
from .tournament_events import TOURNAMENT_EVENTS


def default_catalogue() -> Catalogue:
    """Every event type paiju knows. Each game adds its own tuple here."""
    return Catalogue(TOURNAMENT_EVENTS + SHENGJI_EVENTS + MAHJONG_EVENTS + GUANDAN_EVENTS
                     + TEAM_EVENT_EVENTS + CLOCK_EVENTS + RULING_EVENTS,
                     derived={**DERIVED, **MAHJONG_DERIVED, **GUANDAN_DERIVED})
