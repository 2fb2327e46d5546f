"""麻将: the mahjong tile engine and its games (shared/rules/mahjong-ottawa.md, MJO-…; the
Sichuan game, mahjong-sichuan.md, MJS-…, is other settings over the same code plus its own
small modules).

Modules: :mod:`.tiles` notation and multisets, :mod:`.wall` the deal and the draw order,
:mod:`.claims` claim windows, :mod:`.winning` winning hands, :mod:`.hand` the hand state and
its transitions, :mod:`.actions` legal moves, :mod:`.dealer` the deal's rotation,
:mod:`.settings` what differs between games, :mod:`.mjo` the MJO preset, payments and session,
:mod:`.sichuan` the MJS preset, hand values and payments, :mod:`.opening` 换三张 and the void
suits, :mod:`.conduct` the MJS penalties, :mod:`.session` a table's session event by event (the
engine of a match stream, ``rules.matches``).

:func:`apply` is the fold step of one hand: ``apply(state, event_type, data)``.
"""
from __future__ import annotations

from collections.abc import Mapping

from ..violations import RuleViolation
from .actions import (
    Action,
    apply_action,
    apply_engine_event,
    due_engine_event,
    legal_actions,
)
from .claiming import claim, pass_claim, resolve_claims
from .conduct import declare_false_win, disclose, warn, wrong_count
from .dealing import deal, deal_from_wall
from .hand import Hand
from .mjo import MJO, mjo_settings
from .opening import declare_void, roll_exchange, select_exchange
from .settings import GameSettings
from .sichuan import MJS, sichuan_settings
from .turns import discard, draw
from .wins_and_kongs import declare_kong, declare_win, exhaustive_draw, rule_on_win

__all__ = ["MJO", "MJS", "Action", "GameSettings", "Hand", "apply", "apply_action",
           "apply_engine_event", "claim", "deal", "deal_from_wall", "declare_kong", "declare_win",
           "discard", "draw", "due_engine_event", "exhaustive_draw", "legal_actions",
           "mjo_settings", "pass_claim", "resolve_claims", "rule_on_win", "sichuan_settings"]


def confirm_discard_win(state: Hand, data: Mapping) -> Hand:
    """``Win`` with ``selfDrawn`` false (MJO section 10, row 8): the confirmation of a discard
    win that ``ClaimsResolved`` already gave to ``seat`` on the discard of ``from``."""
    rule = state.settings.rule("claimWin")
    seat, source = data.get("seat"), data.get("from")
    if not any(w.seat == seat and not w.self_drawn and w.from_seat == source for w in state.wins):
        raise RuleViolation(rule, "seat {seat} was not given a win on seat {source}'s discard "
                                  "({rule_})",
                                  seat=seat, source=source, rule_=rule)
    return state


def _win(state: Hand, data: Mapping) -> Hand:
    if data.get("selfDrawn", True):
        return declare_win(state, data)
    return confirm_discard_win(state, data)


def _ruling(state: Hand, data: Mapping) -> Hand:
    return rule_on_win(state, data) if "winValid" in data else state


_TRANSITIONS = {
    "TileDrawn": draw,
    "TileDiscarded": discard,
    "Claim": claim,
    "ClaimsResolved": resolve_claims,
    "Win": _win,
    "KongDeclared": declare_kong,
    "DrawGame": exhaustive_draw,
    "RulingRecorded": _ruling,
    # the Sichuan game: before play (MJS-2), the referee's penalties (MJS-9, 10)
    "ExchangeTilesSelected": select_exchange,
    "DiceRolled": roll_exchange,          # purpose exchange: the dealer's roll (MJS-2.1)
    "VoidSuitDeclared": declare_void,
    "WarningIssued": warn,
    "FalseWinDeclared": declare_false_win,
    "WrongTileCount": wrong_count,
    "ConductPenaltyAssessed": disclose,
}


def apply(state: Hand | None, event_type: str, data: Mapping,
          settings: GameSettings = MJO) -> Hand:
    """The next state of a hand after one event; ``HandDealt`` starts it (with ``walls`` and
    ``dice`` the deal is made from the table's walls, MJO-2.3). ``data`` carries the acting
    seat of the envelope as ``seat``."""
    if event_type == "HandDealt":
        if state is not None:
            raise RuleViolation(settings.rule("deal"), "the hand has already been dealt "
                                                       "({rule_})",
                                                       rule_=settings.rule('deal'))
        return (deal_from_wall if "walls" in data else deal)(settings, data)
    if state is None:
        raise RuleViolation(settings.rule("deal"), "the hand has not been dealt ({rule_})",
                                                   rule_=settings.rule('deal'))
    if event_type not in _TRANSITIONS:
        raise ValueError(f"{event_type!r} is not an event of a mahjong hand")
    return _TRANSITIONS[event_type](state, data)
