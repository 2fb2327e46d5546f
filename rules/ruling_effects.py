"""What a ruling's effects do to a game's state (tournaments.md T-1.5): one :class:`EffectStep`
per kind of stream — the tournament (a withdrawal), and each game's match through its own
transitions: Shengji (SJ2, SJ3) point penalties, awarded hands and levels; Guandan level
penalties, places and levels; mahjong coin (MJO) and ledger (MJS) penalties, awarded hands and
the table's settings. :mod:`rules.rulings` applies them where they belong in the stream."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from types import MappingProxyType
from typing import Any

from .frozen import evolve
from .guandan import match as guandan
from .guandan.cards import LEVELS as GD_LEVELS
from .guandan.hand import OVER as GD_OVER
from .guandan.settings import KEY_FIELDS as GD_SETTING_KEYS
from .guandan.settings import settings_from as gd_settings_from
from .mahjong import session as mahjong
from .mahjong.dealer import advance as advance_rotation
from .mahjong.hand import charge
from .mahjong.mjo import HandOutcome, complete_hand
from .mahjong.sichuan import RENAMED_KEYS as MJS_RENAMED
from .mahjong.wall import SEATS
from .messages import Message, Sentence
from .shengji import irregularities as sj_irregularities
from .shengji import match as shengji
from .shengji import scoring as sj_scoring
from .shengji import sheet as sj_sheet
from .shengji.settings import parse_settings as sj_parse_settings
from .stream_item import Item
from .tournament import withdraw_team
from .violations import RuleViolation

RULE = "T-1.5"            # the committee decides (every ruling's own checks cite it)
DISCRETION = "discretion"


class EffectStep:
    """The effects of a ruling on one kind of stream: call it with (state, effect, recorded
    time); :meth:`cancel` takes the penalties of one event back."""

    def __call__(self, state, effect: Mapping, at: str | None):
        kind = effect["kind"]
        if kind in ("void", "substitute", "cancelPenalty", "replayHand"):
            return state  # acted on the stream's events (fold_ruled)
        return self.apply(state, effect, at)

    def apply(self, state, effect: Mapping, at: str | None):
        raise RuleViolation(RULE, "a {kind} effect does not apply to this stream",
                                  kind=effect['kind'])

    def cancel(self, before, after, item: Item, effect: Mapping):
        raise RuleViolation(RULE, "no penalty of this stream can be cancelled")

    def ended(self, state, hand: int) -> bool:
        """Whether hand ``hand`` has been dealt and has ended (T-1.8: a ruling on it reaches
        back into it)."""
        found = getattr(state, "hand_number", None)
        h = found(hand) if found is not None else None
        return h is not None and not h.in_play

    def into_hand(self, state, effect: Mapping, at: str | None, event_type: str,
                  data: Mapping) -> tuple[Any, Mapping]:
        """T-1.8: ``effect`` (a penalty naming an ended hand) placed inside that hand, just
        before ``event_type`` / ``data``, the event that ended it: the state and the data that
        event is then folded with. By default the hand is in play before its last event, and
        the effect acts on it there."""
        return self(state, effect, at), data


def _reason(effect: Mapping) -> Sentence:
    """Why a penalty the committee ruled was assessed: its reason, or who ruled it, said in its
    reader's language where it is shown."""
    why = effect.get("reason") or Message("ruled by {member}", member=effect["member"])
    return Sentence(Message("committee ruling: {why}", why=why))


def _rule(effect: Mapping) -> str:
    """The rule an engine records with a penalty: the one cited, or T-1.5 for discretion."""
    return RULE if effect["rule"] == DISCRETION else effect["rule"]


def _must_have(effect: Mapping, name: str, game: str, what: Message) -> Any:
    if name not in effect:
        raise RuleViolation(RULE, "a {kind} effect in {game} names {what} ({name})",
                                  kind=effect['kind'], game=game, what=what, name=name)
    return effect[name]


def _side_of_entrant(teams: Mapping[str, str], entrant: str, match_id: str) -> str:
    side = next((side for side, team in teams.items() if team == entrant), None)
    if side is None:
        raise RuleViolation(RULE, "{entrant!r} does not play match {match_id!r}",
                                  entrant=entrant, match_id=match_id)
    return side


def _setting_hand_must_be_next(number: int, next_deal: int) -> None:
    if number != next_deal:
        raise RuleViolation(RULE, "a setting from hand {number} is ruled before hand {number} "
                                  "is dealt, when it is the next hand (now hand {next})",
                                  number=number, next=next_deal)


def _side_ruled(effect: Mapping, teams: Mapping[str, str], match_id: str, rule: str) -> str:
    """The side a forfeit or disqualification names: its ``entrant``'s side, or — the single
    ``effect`` form (rules.rulings.SINGLE_KINDS) — the ``side`` it names, A or B (``rule``: the
    game's rule of disqualification)."""
    if "entrant" in effect or not effect.get("single"):
        return _side_of_entrant(teams, effect["entrant"], match_id)
    if effect.get("side") not in ("A", "B"):
        raise RuleViolation(rule, "a disqualification names the side whose results are "
                                  "cancelled: effect.side must be A or B")
    return effect["side"]


class TournamentEffects(EffectStep):
    """In the tournament's stream: an entrant forfeits or is disqualified — it leaves the
    tournament as a withdrawal does (T-1.3: in a knockout its undecided match is lost)."""

    def apply(self, t, effect: Mapping, at: str | None):
        if effect["kind"] not in ("forfeit", "disqualify"):
            return super().apply(t, effect, at)
        if "entrant" not in effect:
            raise RuleViolation(RULE, 'in the tournament\'s stream a disqualification names '
                                      'the entrant, effects: [{"kind": "disqualify", '
                                      '"entrant": …}]; a side is disqualified in its match\'s '
                                      'stream')
        how = "disqualified" if effect["kind"] == "disqualify" else "forfeits"
        return withdraw_team(t, {"team_id": effect["entrant"],
                                 "reason": f"{how} ({_reason(effect)})"})


class ShengjiEffects(EffectStep):
    """SJ2, SJ3 (rules/shengji/match.py): points against a side in a hand (SJ2-12.1,
    SJ3-11.1), the hand's result from the points awarded (SJ2-13.1, SJ3-10.3), levels, the
    match forfeited (T-6.5), a setting of SJ2-18 / SJ3-15."""

    def apply(self, m, effect: Mapping, at: str | None):
        kind = effect["kind"]
        if kind == "penalty":
            side = _must_have(effect, "side", m.game, Message("the side penalised"))
            points = _must_have(effect, "points", m.game, Message("the points"))
            h = shengji.current_hand(m, effect["hand"] if "hand" in effect else _hand_in_play(m))
            h = sj_irregularities.add_penalty(h, _rule(effect), side, points, "committee",
                                     _reason(effect))
            return shengji.with_hand(m, h)
        if kind == "awardHand":
            return self._award(m, effect)
        if kind == "adjustLevel":
            return self._adjust(m, effect["side"], effect["levels"])
        if kind in ("forfeit", "disqualify"):
            # T-1.8: after the match's end too — the round forfeited, the result flipped
            side = _side_ruled(effect, m.teams, m.match_id,
                               "SJ3-11.9" if m.game == "SJ3" else "SJ2-15.3")
            if kind == "forfeit":
                return shengji.forfeited(m, side, "forfeit")
            m = evolve(m, disqualified=tuple(s for s in ("A", "B")
                                             if s == side or s in m.disqualified))
            return shengji.forfeited(m, side, "disqualified")
        if kind == "setting":
            _setting_hand_must_be_next(effect["from_hand"], _next_deal(m))
            kind_of = type(m.settings)
            sj_parse_settings({effect["key"]: effect["value"]}, kind_of)
            return evolve(m, settings=evolve(m.settings, **{effect["key"]: effect["value"]}))
        return super().apply(m, effect, at)

    @staticmethod
    def _award(m, effect: Mapping):
        """SJ2-13.1 / SJ3-10.3: the hand ends with the defenders' points the committee
        awards (SJ2: the final points; SJ3: the points counted, or the ``outcome``)."""
        h = shengji.current_hand(m, effect["hand"])
        if h.dealer is None:
            raise RuleViolation(RULE, "hand {number} has no dealer side yet: a result is "
                                      "awarded once trump and the dealer are fixed",
                                      number=h.number)
        given = effect["result"]
        if h.variant.outcome_penalties:
            result = _sj3_award(given, h.variant.result_scale)
        else:
            points = _points(given)
            result = {"awarded": True, "final_points": points,
                      "result": sj_scoring.hand_result(points)}
        return shengji.with_hand(m, evolve(h, phase="completed", result=result,
                                            trick=None, pending=()))

    @staticmethod
    def _adjust(m, side: str, levels: int):
        """A side's level moved by the committee (never below 2, capped like the result
        table); a level past the target may decide the match once no hand is in play."""
        values = dict(m.levels)
        values[side] = max(2, values[side] + levels)
        if m.settings.level_cap is not None:
            values[side] = min(values[side], m.settings.level_cap)
        m = evolve(m, levels=MappingProxyType(values))
        if m.hand is not None and m.hand.in_play:
            return m
        return shengji.decided(m)

    def into_hand(self, m, effect: Mapping, at: str | None, event_type: str, data: Mapping):
        """A score-sheet row is the whole hand (sheet.py): a penalty in it joins the row's
        ``penalties`` and is scored with them (SJ2-12.1 / SJ3-11.1), the committee's."""
        if event_type != sj_sheet.ROW_EVENT or effect["kind"] != "penalty":
            return super().into_hand(m, effect, at, event_type, data)
        side = _must_have(effect, "side", m.game, Message("the side penalised"))
        points = _must_have(effect, "points", m.game, Message("the points"))
        given = {"side": side, "points": points, "rule": _rule(effect),
                 "reason": _reason(effect), "source": "committee"}
        return m, {**data, "penalties": [*data.get("penalties", ()), given]}

    def cancel(self, before, after, item: Item, effect: Mapping):
        """The point penalties and the follow error (SJ2-12.4, SJ3-11.2; established later,
        when the next card is played or the next trick led) that the event at ``item``
        brought are taken back. (No such event ends a hand: the last trick's plays are single
        cards, always legal.)"""
        number = item.hand
        h_before = before.hand_number(number) if number is not None else None
        h_after = after.hand_number(number) if number is not None else None
        if h_after is None or h_after is not after.hand or not h_after.in_play:
            raise RuleViolation(RULE, "the event at position {position} brought no penalty "
                                      "that the hand in play still holds",
                                      position=item.position)
        earlier = h_before.penalties if h_before is not None else ()
        errors = tuple(e for e in h_after.pending if h_before is None or e not in h_before.pending)
        if len(h_after.penalties) == len(earlier) and not errors:
            raise RuleViolation(RULE, "the event at position {position} brought no penalty to "
                                      "cancel",
                                      position=item.position)
        kept = evolve(h_after, penalties=earlier,
                       pending=tuple(e for e in h_after.pending if e not in errors))
        return evolve(after, hand=kept)


def _hand_in_play(m) -> int:
    if m.hand is None or not m.hand.in_play:
        raise RuleViolation(RULE, "no hand is in play: name the hand (and place the effect "
                                  "after one of its events)")
    return m.hand.number


def _next_deal(m) -> int:
    return m.hand.number if m.hand is not None and m.hand.in_play else m.next_hand


def _points(given: Mapping) -> int:
    points = given.get("points")
    if type(points) is not int:
        raise RuleViolation(RULE, "an awarded Shengji hand names the defenders' points "
                                  "(result.points, a whole number)")
    return points


def _sj3_award(given: Mapping, scale) -> dict:
    if type(given.get("outcome")) is int:
        final = given["outcome"]
        return {"awarded": True, "final_outcome": final, "result": sj_scoring.result_of(final)}
    points = _points(given)
    final = sj_scoring.outcome(sj_scoring.hand_result(points, scale))
    return {"awarded": True, "points": points, "final_outcome": final,
            "result": sj_scoring.result_of(final)}


class GuandanEffects(EffectStep):
    """GD (rules/guandan/match.py): a level penalty (GD-10.3), places awarded (GD-6), levels
    moved, the match lost by disqualification (GD-10.1), a setting of GD section 14."""

    def apply(self, m, effect: Mapping, at: str | None):
        kind = effect["kind"]
        if kind == "penalty":
            side = _must_have(effect, "side", "GD", Message("the side penalised"))
            levels = _must_have(effect, "levels", "GD", Message("the levels"))
            return guandan.level_penalty(m, {"rule": _rule(effect), "side": side,
                                             "levels": levels, "reason": _reason(effect)}, at)
        if kind == "awardHand":
            d = guandan.current_deal(m, effect["hand"])
            places = effect["result"].get("places")
            if (not isinstance(places, list) or sorted(places) != list(range(4))
                    or any(type(p) is not int for p in places)):
                raise RuleViolation(RULE, "an awarded Guandan hand names the four seats in the "
                                          "order they went out (result.places)")
            state = evolve(d.state, order=tuple(places), phase=GD_OVER)
            return guandan.completed(m, evolve(d, state=state, trick=None))
        if kind == "adjustLevel":
            return evolve(m, standing=_gd_moved(m.standing, effect["side"], effect["levels"]))
        if kind in ("forfeit", "disqualify"):
            # GD-10.1, T-1.8: the other side wins, after the match's end too
            side = _side_ruled(effect, m.teams, m.match_id, "GD-10.1")
            return guandan.won(m, guandan.SIDES[1 - guandan.SIDES.index(side)], "disqualified")
        if kind == "setting":
            _setting_hand_must_be_next(effect["from_hand"], _next_deal(m))
            key, value = effect["key"], effect["value"]
            if key == "enforcement":
                guandan.checked_enforcement({key: value})
                return evolve(m, enforcement=value)
            checked = gd_settings_from({key: value})
            if key not in GD_SETTING_KEYS:
                raise RuleViolation("GD-14", "{key} is not a Guandan match setting",
                                             key=key)
            name = GD_SETTING_KEYS[key][0]
            return evolve(m, settings=evolve(m.settings, **{name: getattr(checked, name)}))
        return super().apply(m, effect, at)

    def into_hand(self, m, effect: Mapping, at: str | None, event_type: str, data: Mapping):
        """A level penalty in a hand takes effect when the hand ends (GD-10.3, as one assessed
        while it is played): it waits in the match's penalties until its last card or its
        score-sheet row has been folded."""
        if effect["kind"] != "penalty":
            return super().into_hand(m, effect, at, event_type, data)
        side = _must_have(effect, "side", "GD", Message("the side penalised"))
        levels = _must_have(effect, "levels", "GD", Message("the levels"))
        return guandan.pending_penalty(m, {"rule": _rule(effect), "side": side, "levels": levels,
                                           "reason": _reason(effect)}, at), data

    def cancel(self, before, after, item: Item, effect: Mapping):
        """A level penalty (GD-10.3) never assessed: the state as if the event had not been."""
        if item.type != "LevelPenaltyAssessed":
            raise RuleViolation(RULE, "the event at position {position} ({type}) brought no "
                                      "penalty: a Guandan penalty is a LevelPenaltyAssessed",
                                      position=item.position, type=item.type)
        return before


def _gd_moved(standing, side: str, levels: int):
    """GD levels moved by the committee, within 2..A; a side moved off A starts its failed
    attempts afresh (GD-6.4)."""
    team = guandan.SIDES.index(side)
    if levels < 0:
        return guandan.lowered(standing, team, -levels)
    index = min(len(GD_LEVELS) - 1, GD_LEVELS.index(standing.levels[team]) + levels)
    moved = list(standing.levels)
    moved[team] = GD_LEVELS[index]
    return evolve(standing, levels=tuple(moved))


class MahjongEffects(EffectStep):
    """MJO and MJS tables (rules/mahjong/session.py): coins (MJO-9.3) or ledger points
    (MJS-9, 10) against a seat, a hand's payments awarded, a setting of MJO section 11 /
    MJS section 12. A table has no levels, and a player leaves the event by a ruling in the
    tournament's stream."""

    def apply(self, t, effect: Mapping, at: str | None):
        kind = effect["kind"]
        if kind == "penalty":
            return self._penalty(t, effect, at)
        if kind == "awardHand":
            return self._award(t, effect)
        if kind == "setting":
            _setting_hand_must_be_next(effect["from_hand"], t.current.number
                                       if t.current is not None else t.next_hand)
            return self._setting(t, effect["key"], effect["value"])
        if kind == "adjustLevel":
            raise RuleViolation(RULE, "a mahjong table has no levels: a ruling moves coins or "
                                      "points with a penalty")
        if kind in ("forfeit", "disqualify"):
            raise RuleViolation(RULE, "a player leaves a table of four by a ruling in the "
                                      "tournament's stream (forfeit or disqualify the entrant)")
        return super().apply(t, effect, at)

    @staticmethod
    def _penalty(t, effect: Mapping, at: str | None):
        seat = _must_have(effect, "seat", t.game, Message("the seat penalised"))
        payees = list(effect.get("payees") or ())
        if t.game == "MJO":
            coins = _must_have(effect, "coins", "MJO", Message("the coins"))
            data = {"rule": _rule(effect), "seat": seat, "coins": coins, "payees": payees,
                    "reason": _reason(effect)}
            if "hand" in effect:
                data["hand"] = effect["hand"]
            # the committee rules after the session too (T-1.5), when the table no longer may
            return evolve(mahjong.penalise(evolve(t, status="playing"), data, at),
                           status=t.status)
        points = _must_have(effect, "points", "MJS", Message("the points"))
        if seat in payees or len(set(payees)) != len(payees):
            raise RuleViolation(RULE, "the payees are other seats than the penalised one, "
                                      "each once")
        rec = mahjong.current_hand(t, effect["hand"] if "hand" in effect else _table_hand(t))
        state = charge(rec.state, seat, _rule(effect), points, payees, _reason(effect))
        return mahjong.with_hand(t, evolve(rec, state=state))

    @staticmethod
    def _award(t, effect: Mapping):
        """The hand ends with the payments the committee awards (``result.payments``: what
        each seat gains or pays, summing to zero) and its ``winners`` for the deal's
        rotation (MJO-2.2, MJS-1.3)."""
        rec = mahjong.current_hand(t, effect["hand"])
        given = effect["result"]
        payments, winners = given.get("payments"), given.get("winners", [])
        if (not isinstance(payments, list) or len(payments) != SEATS
                or any(type(p) is not int for p in payments) or sum(payments) != 0):
            raise RuleViolation(RULE, "an awarded mahjong hand names each seat's payment "
                                      "(result.payments: four whole numbers summing to 0)")
        if not isinstance(winners, list) or any(w not in range(SEATS) for w in winners):
            raise RuleViolation(RULE, "result.winners are seats 0-3")
        session = t.session
        balances = tuple(b + p for b, p in zip(session.balances, payments, strict=True))
        following = advance_rotation(session.rotation, tuple(winners), session.settings)
        outcome = HandOutcome(session.hand_no, rec.state.dealer, "awarded", tuple(winners),
                              tuple(payments), balances, following.dealer)
        state = evolve(rec.state, phase="over", result="awarded", window=None)
        finished = evolve(rec, state=state, outcome=outcome)
        t = evolve(t, session=evolve(complete_hand(session, state, outcome),
                                       rotation=following),
                    current=None, finished=t.finished + (finished,))
        return mahjong.maybe_completed(t)

    @staticmethod
    def _setting(t, key: str, value):
        parse = mahjong.PRESETS[t.game]
        parsed = parse({key: value})
        name = MJS_RENAMED.get(key, key) if t.game == "MJS" else key
        if name not in {f.name for f in fields(parsed)}:
            raise RuleViolation(RULE, "{key} is not a setting of a {game} table",
                                      key=key, game=t.game)
        return evolve(t, settings=evolve(t.settings, **{name: getattr(parsed, name)}))

    def cancel(self, before, after, item: Item, effect: Mapping):
        """MJO: a coin penalty never assessed. MJS: the ledger penalties the event brought
        (MJS-9, 10) are taken back."""
        if item.type == "CoinPenaltyAssessed":
            return before
        rec_before = before.current if before is not None else None
        rec_after = after.current
        if rec_before is None or rec_after is None or rec_before.number != rec_after.number:
            raise RuleViolation(RULE, "the event at position {position} brought no penalty "
                                      "that a hand in play still holds",
                                      position=item.position)
        earlier = rec_before.state.penalties
        if len(rec_after.state.penalties) == len(earlier):
            raise RuleViolation(RULE, "the event at position {position} brought no penalty to "
                                      "cancel",
                                      position=item.position)
        state = evolve(rec_after.state, penalties=earlier)
        return evolve(after, current=evolve(rec_after, state=state))


def _table_hand(t) -> int:
    if t.current is None:
        raise RuleViolation(RULE, "no hand is in play: name the hand (and place the effect "
                                  "after one of its events)")
    return t.current.number


_BY_GAME: Mapping[str, EffectStep] = MappingProxyType({
    "SJ2": ShengjiEffects(), "SJ3": ShengjiEffects(), "GD": GuandanEffects(),
    "MJO": MahjongEffects(), "MJS": MahjongEffects()})


class MatchEffects(EffectStep):
    """A match stream: the effects of its game (MatchStarted names it)."""

    def __call__(self, state, effect: Mapping, at: str | None):
        if state is None:
            raise RuleViolation(RULE, "the match has not started")
        return _BY_GAME[state.game](state, effect, at)

    def cancel(self, before, after, item: Item, effect: Mapping):
        return _BY_GAME[after.game].cancel(before, after, item, effect)

    def ended(self, state, hand: int) -> bool:
        return state is not None and _BY_GAME[state.game].ended(state, hand)

    def into_hand(self, state, effect: Mapping, at: str | None, event_type: str, data: Mapping):
        if state is None:
            raise RuleViolation(RULE, "the match has not started")
        return _BY_GAME[state.game].into_hand(state, effect, at, event_type, data)


EFFECTS: Mapping[str, EffectStep] = MappingProxyType({
    "tournament": TournamentEffects(), "match": MatchEffects()})
