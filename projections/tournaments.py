"""Tournament read models: one tournament as of any position, and the list of tournaments."""
from __future__ import annotations

from typing import Iterator

from events.catalogue import Catalogue, tournament_stream
from events.store import EventStore, Tail

from .streams import StreamCache, load_stream


def tournament_exists(log: Tail, tournament_id: str) -> bool:
    """A tournament exists once its stream has its first event (``TournamentCreated``)."""
    head = log.stream_head(tournament_stream(tournament_id))
    return head is not None and head[0] == tournament_id


def tournament_view(store: EventStore, catalogue: Catalogue, tournament_id: str,
                    at: int | None = None, cache: StreamCache | None = None) -> dict | None:
    """The tournament as its stream says at position ``at`` (default: now); None if it did
    not exist then."""
    folded = load_stream(store, catalogue, tournament_stream(tournament_id), at, cache)
    if folded.state is None:
        return None
    return {**folded.state.to_dict(), "version": folded.version, "position": folded.position}


def tournament_summaries(store: EventStore, catalogue: Catalogue, after: int, limit: int,
                         archived: bool = False, simulated: bool | None = None) -> Iterator[dict]:
    """Tournaments in order of creation, from the ``TournamentCreated`` events alone; those
    archived (``TournamentArchived``) only when ``archived``, marked so; ``simulated`` True or
    False: only those whose ``simulated`` mark (T-1.7) is that, None: both."""
    hidden = {r.tournament_id for r in store.read_type("TournamentArchived")}
    listed = 0
    for record in store.read_type("TournamentCreated", after=after):
        if listed == limit:
            return
        data = catalogue.upcast(record)
        if data["tournament_id"] in hidden and not archived:
            continue
        if simulated is not None and data.get("simulated", False) != simulated:
            continue
        listed += 1
        yield {"id": data["tournament_id"], "name": data["name"], "game": data["game"],
               "format": data["format"], "created_at": record.recorded_at,
               "position": record.position, "archived": data["tournament_id"] in hidden,
               "simulated": data.get("simulated", False)}
