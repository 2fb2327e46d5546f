"""Rulings applied by the folds (tournaments.md T-1.5; the seeds' 「规则上没有出现的解释条文，由组委会
最终裁定」): the structured ``effects`` of ``RulingRecorded`` (events/ruling_events.py).

The log is never edited. A ruling that reaches back into its stream's history — a void, a
substitution, a cancelled penalty, a hand replayed or awarded from a position, a setting from a
hand already dealt, an effect placed ``after`` an earlier event — is applied by folding the stream
again from its start with the committee's edits (:func:`fold_ruled`): voided events are skipped,
substituted ones folded as the committee says, effects applied where they belong. Events after
the ruled point that break a rule under the new history are not applied; they are *flagged*
with the rule they now break (``Flag``), and stay in the log as they were. Effects that only act
at the ruling's own position (a penalty now, a level adjusted, a forfeit) are applied right after
it by :func:`ruled_step`, the same step that judges new events — so a new event is judged as
strictly as ever, on the ruled state.

The effects act (:mod:`rules.ruling_effects`) through each game's own state and transitions, so
every game gets them and the derived facts (hand results, levels, match results, and the bracket
and standings built on them) follow: Shengji (SJ2, SJ3) point penalties, the result table and its
levels; Guandan level penalties, places and levels; mahjong coin penalties (MJO) and ledger
penalties (MJS).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .messages import N_, Sentence
from .ruling_effects import DISCRETION, RULE, EffectStep  # noqa: F401
from .stream_item import Item as Item
from .violations import RuleViolation

# effects that edit what happened before the ruling (the stream is folded again)
HISTORY_KINDS = frozenset({"void", "substitute", "cancelPenalty", "replayHand", "setting"})
# the types that deal a hand, by which a setting "from hand n" finds where hand n begins
DEAL_TYPES = frozenset({"HandDealt", "GDHandDealt", "TilesDealt"})
# events a ruling may not void or replace: the stream's start, and rulings (overturned by a
# later ruling's void, which takes the earlier ruling's effects with it)
_UNTOUCHABLE = frozenset({"MatchStarted", "TournamentCreated"})

Step = Callable[[Any, str, Mapping, "str | None"], Any]


# the single ``effect`` that is one of the structured effects written another way (T-1.8): a
# disqualification ``{"kind": "disqualify", "side": "A"}`` (GD-10.1, SJ3-11.9; README, T-5.6) is
# the ``disqualify`` effect of that side — the same folds, the same result, after the match's
# end too. (``effect: {"winValid": …}``, MJO-5.6, is the table's own ruling on a win.)
SINGLE_KINDS = frozenset({"disqualify"})


def effects_of(event_type: str, data: Mapping) -> tuple[Mapping, ...]:
    """The structured effects of a ruling, in order: its ``effects``, then its single
    ``effect`` when that is a structured effect written the other way (:data:`SINGLE_KINDS`),
    as the effect it is (rule ``discretion``: the single form names none)."""
    if event_type != "RulingRecorded":
        return ()
    effects = tuple(data.get("effects") or ())
    single = data.get("effect")
    kind = single.get("kind") if isinstance(single, Mapping) else None
    if isinstance(kind, str) and kind in SINGLE_KINDS:  # a free-form object: only its words
        written = {k: single[k] for k in ("side", "entrant", "reason")
                   if isinstance(single.get(k), str)}
        effects += ({"kind": kind, "rule": DISCRETION, "member": "committee", "single": True,
                     **written},)
    return effects


def rewrites_history(event_type: str, data: Mapping) -> bool:
    """Whether a ruling reaches back into its stream (the stream is folded again with it): a
    penalty naming its hand may name one that has ended (T-1.8), which is re-scored with it."""
    return any(e["kind"] in HISTORY_KINDS or "after" in e or "from" in e or _in_hand(e)
               for e in effects_of(event_type, data))


def _in_hand(effect: Mapping) -> bool:
    """A penalty naming its hand, not placed ``after`` an event: it acts in that hand — at the
    ruling while the hand is in play, else inside the hand, which is scored again (T-1.8)."""
    return effect["kind"] == "penalty" and "hand" in effect and "after" not in effect


# --- what the fold sees (each event an Item: rules/stream_item.py) ------------------------------

@dataclass(frozen=True)
class Edit:
    """One effect of one ruling, where it acts."""
    ruling: int        # the ruling's position
    index: int         # the effect's index in the ruling's effects
    effect: Mapping

    def label(self) -> dict:
        return {"ruling": self.ruling, "effect": self.index, "kind": self.effect["kind"],
                "rule": self.effect["rule"], "member": self.effect["member"]}


@dataclass
class Plan:
    """The committee's edits of one stream: events skipped (void, or a hand replayed or
    awarded from a position), events folded with other data (substitute), events whose
    penalties are cancelled, and effects applied before or after an event."""
    skip: dict[int, tuple[Edit, str]] = field(default_factory=dict)   # position -> (edit, why)
    replace: dict[int, Edit] = field(default_factory=dict)
    cancel: dict[int, Edit] = field(default_factory=dict)
    before: dict[int, list[Edit]] = field(default_factory=dict)
    after: dict[int, list[Edit]] = field(default_factory=dict)
    # the last event of a hand before the ruling -> penalties naming that hand (T-1.8)
    into: dict[int, list[Edit]] = field(default_factory=dict)
    rulings: list[int] = field(default_factory=list)    # the rulings in force, in order
    overturned: dict[int, int] = field(default_factory=dict)  # ruling -> the ruling voiding it


# (type, data) -> data as the catalogue loads it; raises RuleViolation when it is not an event
# of that type (the projections pass the catalogue's schemas: rules know no catalogue)
CheckData = Callable[[str, Mapping], Mapping]


def build_plan(items: Sequence[Item], check_data: CheckData | None = None,
               strict: int | None = None) -> tuple[Plan, list[dict]]:
    """The plan of every ruling among ``items`` (a stream's events in order), and the flags of
    effects that cannot apply. Rulings are read from the last back: a ruling voided by a later
    one is overturned, with its effects. A fault of the ruling at position ``strict`` (the one
    being decided) is raised instead of flagged."""
    by_position = {item.position: item for item in items}
    plan, flags, voided = Plan(), [], {}
    for item in reversed(items):
        if item.type != "RulingRecorded" or not effects_of(item.type, item.data):
            continue
        if item.position in voided:
            plan.overturned[item.position] = voided[item.position]
            continue
        plan.rulings.insert(0, item.position)
        for index, effect in enumerate(effects_of(item.type, item.data)):
            edit = Edit(item.position, index, effect)
            try:
                _place(plan, edit, items, by_position, check_data)
            except RuleViolation as violation:
                if item.position == strict:
                    raise
                flags.append(_effect_flag(edit, violation))
        voided.update({p: item.position for p, (e, why) in plan.skip.items()
                       if why == "voided" and e.ruling == item.position
                       and by_position[p].type == "RulingRecorded"})
    for placed in (*plan.before.values(), *plan.after.values(), *plan.into.values()):
        placed.sort(key=lambda e: (e.ruling, e.index))  # in the order they were ruled
    return plan, flags


def _effect_flag(edit: Edit, violation: RuleViolation) -> dict:
    return {"position": edit.ruling, "type": "RulingRecorded", "effect": edit.index,
            "rule": violation.rule, "message": Sentence(violation.text)}


def _place(plan: Plan, edit: Edit, items: Sequence[Item], by_position: Mapping[int, Item],
           check_data: CheckData | None) -> None:
    """Where one effect acts; a target that is not an event of this stream before the ruling,
    or not of the hand named, is refused (T-1.5)."""
    effect, kind = edit.effect, edit.effect["kind"]
    if kind == "void":
        for position in _void_positions(effect, edit.ruling, items, by_position):
            plan.skip.setdefault(position, (edit, "voided"))
    elif kind == "substitute":
        target = _earlier_event(effect["position"], edit.ruling, by_position)
        _must_be_editable(target, "substituted")
        wanted = effect.get("type", target.type)
        if check_data is not None:
            check_data(wanted, effect["data"])
        plan.replace.setdefault(target.position, edit)
    elif kind == "cancelPenalty":
        target = _earlier_event(effect["position"], edit.ruling, by_position)
        _must_be_editable(target, "cancelled")
        plan.cancel.setdefault(target.position, edit)
    elif kind in ("replayHand", "awardHand") and "from" in effect:
        start = _hand_event(effect["from"], effect["hand"], edit.ruling, by_position)
        why = "replayed" if kind == "replayHand" else "awarded"
        for item in items:
            if start.position <= item.position < edit.ruling and item.hand == effect["hand"]:
                plan.skip.setdefault(item.position, (edit, why))
        if kind == "awardHand":
            plan.before.setdefault(start.position, []).append(edit)
    elif kind == "setting":
        deal = next((i for i in items if i.type in DEAL_TYPES and i.hand == effect["from_hand"]
                     and i.position < edit.ruling), None)
        if deal is not None:
            plan.before.setdefault(deal.position, []).append(edit)
        else:
            plan.after.setdefault(edit.ruling, []).append(edit)
    elif _in_hand(effect):
        last = next((i for i in reversed(items)
                     if i.position < edit.ruling and i.hand == effect["hand"]), None)
        if last is None:  # not dealt: refused at the ruling, as ever
            plan.after.setdefault(edit.ruling, []).append(edit)
        else:             # fold_ruled decides at that event: the hand ended there, or goes on
            plan.into.setdefault(last.position, []).append(edit)
    else:
        anchor = edit.ruling
        if "after" in effect:
            anchor = _earlier_event(effect["after"], edit.ruling, by_position).position
        plan.after.setdefault(anchor, []).append(edit)


def _earlier_event(position: int, ruling: int, by_position: Mapping[int, Item]) -> Item:
    item = by_position.get(position)
    if item is None or position >= ruling:
        raise RuleViolation(RULE, "position {position} is not an event of this stream before "
                                  "the ruling: a ruling edits the history of its own stream",
                                  position=position)
    return item


# what a ruling does to an earlier event -> the refusals when that event may not be so edited:
# the stream's start, never; a ruling, only voided
_START_KEPT = {
    "voided": N_("the stream's start ({type}, position {position}) cannot be voided"),
    "substituted": N_("the stream's start ({type}, position {position}) cannot be substituted"),
    "cancelled": N_("the stream's start ({type}, position {position}) cannot be cancelled"),
}
_RULING_VOIDED_ONLY = {
    "substituted": N_("position {position} is a ruling: a ruling is overturned by voiding it, "
                      "not substituted"),
    "cancelled": N_("position {position} is a ruling: a ruling is overturned by voiding it, "
                    "not cancelled"),
}


def _must_be_editable(item: Item, how: str) -> None:
    if item.type in _UNTOUCHABLE:
        raise RuleViolation(RULE, _START_KEPT[how], type=item.type, position=item.position)
    if item.type == "RulingRecorded" and how != "voided":
        raise RuleViolation(RULE, _RULING_VOIDED_ONLY[how], position=item.position)


def _void_positions(effect: Mapping, ruling: int, items: Sequence[Item],
                    by_position: Mapping[int, Item]) -> list[int]:
    if "positions" in effect:
        targets = [_earlier_event(p, ruling, by_position) for p in effect["positions"]]
    else:
        first = _earlier_event(effect["from"], ruling, by_position)
        last = _earlier_event(effect["to"], ruling, by_position)
        targets = [i for i in items if first.position <= i.position <= last.position]
    for target in targets:
        _must_be_editable(target, "voided")
    return [t.position for t in targets]


def _hand_event(position: int, hand: int, ruling: int, by_position: Mapping[int, Item]) -> Item:
    item = _earlier_event(position, ruling, by_position)
    if item.hand != hand:
        raise RuleViolation(RULE, "position {position} is not an event of hand {hand}",
                                  position=position, hand=hand)
    return item


# --- the ruled fold -----------------------------------------------------------------------------

@dataclass(frozen=True)
class Ruled:
    """A stream folded with its rulings: the state, the events flagged (not applied: they
    break the rule named under the history the committee made), and what the rulings did to
    the stored events (``edits``)."""
    state: Any
    flags: tuple[Mapping, ...] = ()
    edits: tuple[Mapping, ...] = ()


def fold_ruled(items: Iterable[Item], step: Step, apply_effect: "EffectStep", plan: Plan,
               flags: Sequence[Mapping] = (), strict: int | None = None,
               check_data: CheckData | None = None) -> Ruled:
    """Fold ``items`` from the stream's start with ``plan``. An event that breaks a rule is
    flagged and not applied; for the ruling at position ``strict`` (being decided) a fault in
    what it targets — a substituted event, an effect — is raised instead: a ruling must make a
    history the rules accept at the points it names."""
    state, flags, edits = None, list(flags), []
    for item in items:
        for edit in plan.before.get(item.position, ()):
            state = _effect(state, edit, item.at, apply_effect, flags, strict)
        skipped = plan.skip.get(item.position)
        placed = plan.into.get(item.position)
        if skipped is not None:
            edits.append({"position": item.position, "edit": skipped[1], **skipped[0].label()})
            if placed:  # the hand's last event voided: the penalties act at the ruling
                _at_ruling(plan, placed)
        elif placed:
            state = _into(state, item, placed, plan, step, apply_effect, flags, edits, strict,
                          check_data)
        else:
            state = _event(state, item, plan, step, apply_effect, flags, edits, strict,
                           check_data)
        for edit in plan.after.get(item.position, ()):
            state = _effect(state, edit, item.at, apply_effect, flags, strict)
    return Ruled(state, tuple(flags), tuple(edits))


def _as_folded(item: Item, plan: Plan, check_data: CheckData | None):
    """The event a fold takes at ``item``: its own, or the one a ruling substituted for it
    (checked against its schema); with the substitution, or None."""
    substitute = plan.replace.get(item.position)
    if substitute is None:
        return item.type, item.data, None
    event_type = substitute.effect.get("type", item.type)
    data = substitute.effect["data"]
    if check_data is not None:
        data = check_data(event_type, data)
    return event_type, data, substitute


def _event(state, item: Item, plan: Plan, step: Step, apply_effect: "EffectStep",
           flags: list, edits: list, strict: int | None, check_data: CheckData | None):
    event_type, data, substitute = _as_folded(item, plan, check_data)
    if substitute is not None:
        edits.append({"position": item.position, "edit": "substituted", **substitute.label()})
    targeted = substitute is not None and substitute.ruling == strict
    try:
        after = step(state, event_type, data, item.at)
    except RuleViolation as violation:
        if targeted or item.position == strict:
            raise
        flags.append(_flag(item, event_type, violation))
        return state
    cancel = plan.cancel.get(item.position)
    if cancel is None:
        return after
    try:
        cancelled = apply_effect.cancel(state, after, item, cancel.effect)
    except RuleViolation as violation:
        if cancel.ruling == strict:
            raise
        flags.append(_effect_flag(cancel, violation))
        return after
    edits.append({"position": item.position, "edit": "penaltyCancelled", **cancel.label()})
    return cancelled


def _at_ruling(plan: Plan, placed: Sequence[Edit]) -> None:
    """Effects acting at their ruling's own position (later in the fold than now)."""
    for edit in placed:
        at_ruling = plan.after.setdefault(edit.ruling, [])
        at_ruling.append(edit)
        at_ruling.sort(key=lambda e: (e.ruling, e.index))


def _into(state, item: Item, placed: Sequence[Edit], plan: Plan, step: Step,
          apply_effect: "EffectStep", flags: list, edits: list, strict: int | None,
          check_data: CheckData | None):
    """The last event of a hand before the rulings ``placed`` (penalties naming that hand,
    T-1.8). If the hand goes on after it, they act at their rulings, as on a hand in play. If
    this event ended the hand — its last card, its score-sheet row — it is folded again with
    the penalties inside the hand (:meth:`EffectStep.into_hand`), so the hand is scored with
    them and everything after follows: levels, dealer, the match's end (``rescored``)."""
    after = _event(state, item, plan, step, apply_effect, flags, edits, strict, check_data)
    if not apply_effect.ended(after, placed[0].effect["hand"]):
        _at_ruling(plan, placed)
        return after
    event_type, data, _ = _as_folded(item, plan, check_data)
    inside, used = state, []
    for edit in placed:
        try:
            inside, data = apply_effect.into_hand(inside, edit.effect, item.at, event_type, data)
        except RuleViolation as violation:
            if edit.ruling == strict:
                raise
            flags.append(_effect_flag(edit, violation))
            continue
        used.append(edit)
    if not used:
        return after
    try:
        rescored = step(inside, event_type, data, item.at)
    except RuleViolation as violation:
        if any(edit.ruling == strict for edit in used):
            raise
        flags.extend(_effect_flag(edit, violation) for edit in used)
        return after
    edits.extend({"position": item.position, "edit": "rescored", **edit.label()}
                 for edit in used)
    return rescored


def _flag(item: Item, event_type: str, violation: RuleViolation) -> dict:
    flag = {"position": item.position, "type": event_type, "rule": violation.rule,
            "message": Sentence(violation.text)}  # said in its reader's language where shown
    if item.hand is not None:
        flag["hand"] = item.hand
    return flag


def _effect(state, edit: Edit, at: str | None, apply_effect: "EffectStep", flags: list,
            strict: int | None):
    try:
        return apply_effect(state, edit.effect, at)
    except RuleViolation as violation:
        if edit.ruling == strict:
            raise
        flags.append(_effect_flag(edit, violation))
        return state


def ruled_step(step: Step, apply_effect: "EffectStep") -> Step:
    """The fold step of a stream with the effects a ruling applies at its own position (those
    that reach back are applied by :func:`fold_ruled`, which the projections call)."""
    def ruled(state, event_type: str, data: Mapping, at: str | None = None):
        state = step(state, event_type, data, at)
        if event_type != "RulingRecorded":  # only a ruling has effects (:func:`effects_of`)
            return state
        if rewrites_history(event_type, data):
            return state
        for effect in effects_of(event_type, data):
            state = apply_effect(state, effect, at)
        return state
    return ruled
