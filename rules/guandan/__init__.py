"""掼蛋 (Guandan): the pure rules of shared/rules/guandan.md (rule IDs ``GD-…``).

Modules:

- :mod:`.cards` — notation, the two decks, values at a level (GD-2.1/2.2), wildcards (GD-2.3);
- :mod:`.combos` — readings, classification, comparison and the bomb ladder (GD-2.4, GD-3, GD-4);
- :mod:`.moves` — legal plays from a hand, for bots and property tests;
- :mod:`.play` — turns, passing, trick end, 接风, 报牌 (GD-5);
- :mod:`.seats` — seats, teams and going-out orders;
- :mod:`.levels` — upgrade, playing A, next hand's level, the match clock (GD-6, GD-11);
- :mod:`.tribute` — tribute, anti-tribute, return card, first lead (GD-7);
- :mod:`.procedure` — deal checks, marked card, drawing roles, time limits (GD-8, GD-9);
- :mod:`.hand` — one hand as a fold of its events;
- :mod:`.match` — a match as a fold of its events: hands, tribute, levels, the clock, results;
- :mod:`.settings` — match settings with the spec's defaults (section 14).
"""
from .cards import is_wildcard, parse_cards, value, wildcard
from .combos import Combination, beats, check_beats, classify, readings
from .hand import (
    GDHand,
    apply,
    choose_tribute_assignment,
    deal,
    declare_anti_tribute,
    pass_turn,
    pay_tribute,
    play,
    return_tribute,
    start_hand,
)
from .levels import GDGame, HandOutcome, advance, complete_hand, hand_level, upgrade
from .moves import can_beat, legal_plays, random_legal_play
from .play import Trick, next_leader, next_to_act, public_counts, trick_over
from .settings import GDSettings, settings_from
from .tribute import (
    TributePlan,
    anti_tribute,
    assign_tributes,
    first_leader,
    return_choices,
    tribute_choices,
    tribute_plan,
)

__all__ = [
    "Combination",
    "GDGame",
    "GDHand",
    "GDSettings",
    "HandOutcome",
    "TributePlan",
    "Trick",
    "advance",
    "anti_tribute",
    "apply",
    "assign_tributes",
    "beats",
    "can_beat",
    "check_beats",
    "choose_tribute_assignment",
    "classify",
    "complete_hand",
    "deal",
    "declare_anti_tribute",
    "first_leader",
    "hand_level",
    "is_wildcard",
    "legal_plays",
    "next_leader",
    "next_to_act",
    "parse_cards",
    "pass_turn",
    "pay_tribute",
    "play",
    "public_counts",
    "random_legal_play",
    "readings",
    "return_choices",
    "return_tribute",
    "settings_from",
    "start_hand",
    "tribute_choices",
    "tribute_plan",
    "trick_over",
    "upgrade",
    "value",
    "wildcard",
]
