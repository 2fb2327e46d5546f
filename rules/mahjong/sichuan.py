"""MJS — 四川麻将 血战到底 (mahjong-sichuan.md) over the tile engine: the preset and the match
settings, the value of a winning hand (fan and cap), and the payments of a hand, each with its
cause — win, kong, refund, draw settlement, penalty — so that a referee can explain every point.

Rules: MJS-1.1 (108 tiles), MJS-3 (no chow; pong and three kongs), MJS-4 (bloody battle),
MJS-5 (winning hands, void suit, 过水), MJS-6 (value: patterns, 根 and situational fans, the cap;
who pays a win), MJS-7 (kong payments at once; 杠上炮 refunds; a robbed kong is not paid),
MJS-8 (the exhaustive draw: 花猪, not ready, ready), MJS-9 / 10 (penalties, as recorded by
:mod:`.conduct`), MJS section 12 (settings).

Amounts are never stored: the hand records who won how, who made which kong and who paid a
penalty (:mod:`.hand`), and :func:`ledger` prices them. The same log gives the same ledger.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from ..frozen import evolve
from ..messages import N_, Message, sentence
from ..violations import RuleViolation
from .dealer import advance
from .hand import Hand, winning_tiles
from .mjo import HandOutcome, Session
from .settings import ENFORCEMENT, GameSettings, MatchKeys
from .tiles import COPIES, Meld, add_tiles, meld_tiles, suit
from .wall import SEATS
from .winning import Reading, winning_readings
from .winning import waits as hand_waits  # draw_check's waits are a seat's

MJS_RULE_IDS: Mapping[str, str] = MappingProxyType({
    "tiles": "MJS-1.1",          # 108 tiles, four of each
    "firstDealer": "MJS-1.3",    # highest dice roll deals first (interpretation)
    "dealer": "MJS-1.3",         # the dealer keeps the deal if among the winners
    "deal": "MJS-1.2",           # dealer 14, others 13, 55 in the wall
    "wall": "MJS-1.2",           # draws from the front, replacements from the end
    "firstTurn": "MJS-3.2",      # the dealer discards (or wins) first
    "turn": "MJS-3.2",           # draw after the previous discard; discard after a draw/pong
    "turnAfterClaim": "MJS-3.5",
    "chow": "MJS-3.1",
    "pong": "MJS-3.3",
    "kong": "MJS-3.4",
    "claimWin": "MJS-3.3",
    "claimWindow": "MJS-3.3",
    "winShape": "MJS-5.1",
    "pair": "MJS-5.1",
    "specialHands": "MJS-5.3",
    "selfDraw": "MJS-6.2",
    "falseWin": "MJS-9.2",
    "exhaustive": "MJS-8.1",
    "payments": "MJS-6.4",
    "timeLimits": "MJS-10.3",
    "settings": "MJS-12",
    "lifecycle": "MJS-11",
    "exchange": "MJS-2.1",
    "void": "MJS-2.2",
    "voidWin": "MJS-5.5",
    "passedWin": "MJS-5.6",
    "robKong": "MJS-7.3",
    "out": "MJS-4.1",
    "wrongCount": "MJS-9.1",
    "conduct": "MJS-10.2",
    "disclosure": "MJS-10.5",
})

MJS = GameSettings(
    game="MJS", tileCount=108, chow=False, kongDirect=2, kongAdded=2, kongConcealed=4,
    sevenPairs=True, fourAsTwoPairs=True, pairRanks=None, multipleWinners="all",
    lastTileDiscard=True, dealerRepeatsOnWin=True, claimWindowSeconds=3,
    firstDiscardSeconds=30, turnSeconds=30, startingCoins=0, sessionRounds=4,
    bloodyBattle=True, voidSuit=True, passedWinBar=True, robKong=True, falseWinPayment=32,
    rule_ids=MJS_RULE_IDS)

# --- match settings (MJS section 12; T-7.2 / T-7.4) ------------------------------------------

_KEYS = MatchKeys(
    choices={"enforcement": ENFORCEMENT, "disclosurePayee": ("victim", "eachOther"),
             "drawSettlementValue": ("highest", "lowest")},
    whole_numbers={"cap": (2, 1_000_000), "kongDirect": (0, 1000), "kongAdded": (0, 1000),
                   "kongConcealed": (0, 1000), "falseWinPayment": (0, 1000),
                   "claimWindowSeconds": (0, 60), "sessionHands": (1, 10_000),
                   "sessionRounds": (1, 100), "sessionMinutes": (1, 24 * 60)},
    flags=("exchangeThree", "voidFirstDiscards", "addedKongLater", "concealedKongLater",
           "genCountsUndeclaredFour", "lastDiscardWinnable", "final"))
MATCH_KEYS = _KEYS.names
# The settings a table shows, in this order (the spec's names).
SETTING_KEYS = ("enforcement", "final", "exchangeThree", "voidFirstDiscards", "addedKongLater",
                "concealedKongLater", "genCountsUndeclaredFour", "cap", "kongDirect",
                "kongAdded", "kongConcealed", "lastDiscardWinnable", "falseWinPayment",
                "disclosurePayee", "drawSettlementValue", "claimWindowSeconds", "sessionHands",
                "sessionRounds", "sessionMinutes")
RENAMED_KEYS = {"lastDiscardWinnable": "lastTileDiscard"}   # the spec's key -> the engine's field


def sichuan_settings(raw: Mapping | None = None) -> GameSettings:
    """MJS section 12: the MJS preset with a match's ``MatchStarted.settings``; omitted keys
    take the defaults — ``exchangeThree`` that of ``final`` (MJS-2.1: 换三张 in the final) —, an
    unknown key or a value out of range is refused (``MJS-12``)."""
    raw = dict(raw or {})
    _KEYS.check(raw, MJS.rule("settings"))
    raw.setdefault("exchangeThree", bool(raw.get("final", False)))
    return evolve(MJS, **{RENAMED_KEYS.get(k, k): v for k, v in raw.items()})


def settings_dict(settings: GameSettings) -> dict:
    """The table's settings as they apply (MJS section 12), defaults included."""
    return {key: getattr(settings, RENAMED_KEYS.get(key, key)) for key in SETTING_KEYS}


# --- the value of a winning hand (MJS-6) ------------------------------------------------------

# MJS-6.1 / 6.2: the fans, in the order a value is explained
FAN_NAMES = ("allPongs", "sevenPairs", "pure", "gen", "selfDraw", "kongFlower", "afterKong",
             "robKong", "lastTile")


@dataclass(frozen=True)
class Value:
    """A winning hand's value (MJS-6): its pattern, the fans that make it — ``(name, fan)``,
    see ``FAN_NAMES``; 根 (``gen``) counts one per set of four — and the points, ``2 × 2^fan``
    capped at ``settings.cap``."""

    pattern: str                       # basic | allPongs | sevenPairs
    fans: tuple[tuple[str, int], ...]
    points: int

    @property
    def fan(self) -> int:
        return sum(n for _, n in self.fans)

    def to_dict(self) -> dict:
        return {"pattern": self.pattern, "fans": {name: n for name, n in self.fans},
                "fan": self.fan, "points": self.points}


def points_for(fan: int, settings: GameSettings) -> int:
    """MJS-6.1 / 6.3: 2 × 2^fan — 2, 4, 8, 16, 32 … — capped at ``cap`` (32)."""
    return min(settings.cap, 2 * 2 ** fan)


def _pattern(reading: Reading) -> str:
    """MJS-5.1 – 5.3: seven pairs; all pongs (every set a pung or kong); else basic."""
    if reading.form == "sevenPairs":
        return "sevenPairs"
    sets_are_pungs = all(len(set(s)) == 1 for s in reading.sets)
    melds_are_pungs = all(m.kind in ("pong", "kong") for m in reading.melds)
    return "allPongs" if sets_are_pungs and melds_are_pungs else "basic"


def gen_count(concealed: Sequence[str], melds: Sequence[Meld], settings: GameSettings) -> int:
    """MJS-6.2 根: every kong declared, and — with ``genCountsUndeclaredFour`` — every other
    face of which the winner holds all four (a pong and its fourth in hand, four in seven
    pairs)."""
    kongs = sum(m.kind == "kong" for m in melds)
    if not settings.genCountsUndeclaredFour:
        return kongs
    counts = Counter((*concealed, *(t for m in melds if m.kind != "kong" for t in m.tiles)))
    return kongs + sum(n == COPIES for n in counts.values())


_PATTERN_FANS = {"basic": 0, "allPongs": 1, "sevenPairs": 2}


def hand_value(concealed: Sequence[str], melds: Sequence[Meld], settings: GameSettings,
               situational: Iterable[str] = ()) -> Value:
    """MJS-6.1 – 6.3: the highest value among the readings of a winning hand — the pattern's
    fans, +2 if pure one suit, +1 per 根, +1 per situational fan (``selfDraw``,
    ``kongFlower``, ``afterKong``, ``robKong``, ``lastTile``) — capped."""
    readings = winning_readings(tuple(concealed), tuple(melds), settings)
    if not readings:
        raise ValueError("not a winning hand")
    tiles = (*concealed, *meld_tiles(melds))
    pure = len({suit(t) for t in tiles}) == 1
    extra = [("gen", n)] if (n := gen_count(concealed, melds, settings)) else []
    extra += [(name, 1) for name in situational]
    best = None
    for reading in readings:
        pattern = _pattern(reading)
        fans = [(pattern, _PATTERN_FANS[pattern])] if pattern != "basic" else []
        fans += [("pure", 2)] if pure else []
        fans += extra
        value = Value(pattern, tuple(fans), points_for(sum(n for _, n in fans), settings))
        if best is None or (value.points, value.fan) > (best.points, best.fan):
            best = value
    return best


def situational_fans(win) -> tuple[str, ...]:
    """MJS-6.2: the situational fans of a recorded win; 杠上开花 also counts 自摸."""
    fans = ["selfDraw"] if win.self_drawn else []
    fans += ["kongFlower"] if win.kong_flower else []
    fans += ["afterKong"] if win.after_kong else []
    fans += ["robKong"] if win.robbed else []
    fans += ["lastTile"] if win.last_tile else []
    return tuple(fans)


def win_value(hand: Hand, win) -> Value:
    """The value of a recorded win: the winner's tiles with the winning tile, its fans."""
    return hand_value(winning_tiles(hand, win), hand.seats[win.seat].melds, hand.settings,
                      situational_fans(win))


# --- the exhaustive draw: 查花猪, 查叫 (MJS-8) -------------------------------------------------

@dataclass(frozen=True)
class DrawCheck:
    """MJS-8.2: a player still in at the exhaustive draw — ``flowerPig`` (花猪: all three
    suits), ``notReady`` (没叫; also a player barred from winning, MJS-9, 10) or ``ready``
    (有叫) with the tiles he waits on and the value he is paid (MJS-8.4)."""

    seat: int
    status: str
    waits: tuple[str, ...] = ()
    value: Value | None = None
    barred: str | None = None

    def to_dict(self) -> dict:
        return {"seat": self.seat, "status": self.status, "waits": list(self.waits),
                "value": self.value.to_dict() if self.value else None, "barred": self.barred}


def seat_waits(hand: Hand, seat: int) -> tuple[str, ...]:
    """MJS-8.2 / 8.4: the tiles that would complete the seat's hand as a win of his (no tile of
    his void suit, MJS-5.5), whether or not copies are left."""
    h = hand.seats[seat]
    void = hand.voids[seat]
    if void is not None and any(suit(t) == void for t in h.tiles):
        return ()
    return tuple(t for t in hand_waits(h.concealed, h.melds, hand.settings) if suit(t) != void)


def draw_check(hand: Hand, seat: int) -> DrawCheck:
    """MJS-8.2 – 8.4 for one player still in: 花猪 first; a player barred from winning settles
    as not ready (MJS-9.1, 9.2, 10.2, 10.5); else ready with the highest (or, with
    ``drawSettlementValue: lowest``, the lowest) value of a discard win on any of his waits —
    pattern fans and 根 only — or not ready."""
    h = hand.seats[seat]
    if len({suit(t) for t in h.tiles}) == 3:
        return DrawCheck(seat, "flowerPig", barred=hand.barred[seat])
    waits = seat_waits(hand, seat)
    if hand.barred[seat] is not None or not waits:
        return DrawCheck(seat, "notReady", waits, barred=hand.barred[seat])
    values = [hand_value(add_tiles(h.concealed, (t,)), h.melds, hand.settings) for t in waits]
    pick = min if hand.settings.drawSettlementValue == "lowest" else max
    return DrawCheck(seat, "ready", waits, pick(values, key=lambda v: (v.points, v.fan)))


def draw_checks(hand: Hand) -> tuple[DrawCheck, ...]:
    """MJS-8.2: the checks of a drawn hand, for every player still in; () otherwise."""
    if not (hand.over and hand.result == "draw" and hand.settings.bloodyBattle):
        return ()
    return tuple(draw_check(hand, s) for s in hand.still_in)


# --- the ledger ------------------------------------------------------------------------------

REASONS = ("win", "kong", "refund", "drawSettlement", "penalty")


@dataclass(frozen=True)
class Payment:
    """One payment of a hand (the spec's derived ``PaymentRecorded``): ``payer`` pays
    ``amount`` to ``payee`` — or, with no payee, loses it to no one (MJS-10.6) — for
    ``reason`` (see ``REASONS``) under ``rule``; ``note`` explains it in words."""

    payer: int
    payee: int | None
    amount: int
    reason: str
    rule: str
    note: Message | str  # the rules' words, or a penalty's reason

    def to_dict(self) -> dict:
        return {"from": self.payer, "to": self.payee, "amount": self.amount,
                "reason": self.reason, "rule": self.rule, "note": sentence(self.note)}


def kong_amount(kind: str, settings: GameSettings) -> int:
    """MJS-7.1: direct 2 (by the discarder), added 2 and concealed 4 (by each other player
    still in)."""
    return {"direct": settings.kongDirect, "added": settings.kongAdded,
            "concealed": settings.kongConcealed}[kind]


# the notes of the ledger: English for the committee's checks, each said in its reader's
# language where it is shown (rules/messages.py)
_KONG_NAMES = {"direct": N_("direct kong (直杠)"), "added": N_("added kong (面下杠)"),
               "concealed": N_("concealed kong (暗杠)")}
# the patterns and fans of a value (MJS-6.1, 6.2) by their codes, which the English shows
_VALUE_WORDS = {  # i18n: a code of MJS-6: the Chinese is the seed's word for it
    "basic": N_("basic"), "allPongs": N_("allPongs"), "sevenPairs": N_("sevenPairs"),
    "pure": N_("pure"), "gen": N_("gen"), "selfDraw": N_("selfDraw"),
    "kongFlower": N_("kongFlower"), "afterKong": N_("afterKong"), "robKong": N_("robKong"),
    "lastTile": N_("lastTile")}


def _kong_payments(hand: Hand, index: int) -> list[Payment]:
    k = hand.kongs[index]
    amount = kong_amount(k.kind, hand.settings)
    note = Message("seat {seat}'s {kong} of {tile}", seat=k.seat,
                   kong=Message(_KONG_NAMES[k.kind]), tile=k.tile)
    return [Payment(p, k.seat, amount, "kong", "MJS-7.1", note) for p in k.payers]


def _refunds(hand: Hand, indexes: Iterable[int], rule: str,
             why: Message | str) -> list[Payment]:
    """Kong payments paid back to those who paid them."""
    out = []
    for index in indexes:
        k = hand.kongs[index]
        amount = kong_amount(k.kind, hand.settings)
        note = Message("{why}: seat {seat} returns the payment for his {kong} of {tile}",
                       why=why, seat=k.seat, kong=Message(_KONG_NAMES[k.kind]), tile=k.tile)
        out += [Payment(k.seat, p, amount, "refund", rule, note) for p in k.payers]
    return out


def _value_word(code: str) -> Message | str:
    return Message(_VALUE_WORDS[code]) if code in _VALUE_WORDS else code


def _describe(value: Value) -> Message:
    """"allPongs; allPongs 1, selfDraw 1: fan 2 → 8": the pattern, each fan, the sum, the
    points."""
    fans = None
    for name, n in value.fans:
        fan = Message("{fan} {count}", fan=_value_word(name), count=n)
        fans = fan if fans is None else Message("{earlier}, {later}", earlier=fans, later=fan)
    return Message("{pattern}; {fans}: fan {fan} → {points}", pattern=_value_word(value.pattern),
                   fans=fans or Message("no fan"), fan=value.fan, points=value.points)


def _win_note(win, value: Value) -> Message:
    """How ``win`` was made and what it is worth, in words."""
    how = {"selfDraw": Message("self-drawn"),
           "discard": Message("on seat {seat}'s discard", seat=win.from_seat),
           "robKong": Message("robbing seat {seat}'s kong", seat=win.from_seat)}[win.how]
    if win.tile:
        return Message("seat {seat} wins {tile} {how}: {value}", seat=win.seat, tile=win.tile,
                       how=how, value=_describe(value))
    return Message("seat {seat} wins {how}: {value}", seat=win.seat, how=how,
                   value=_describe(value))


def _win_payments(hand: Hand, win) -> list[Payment]:
    """MJS-6.4: a self-draw paid by each other player still in, a discard win by the
    discarder, a robbed kong by its maker (MJS-7.3); 杠上炮 cancels the kong's payments
    (MJS-7.2)."""
    value = win_value(hand, win)
    note = _win_note(win, value)
    out = [Payment(p, win.seat, value.points, "win", "MJS-6.4", note) for p in win.payers]
    return out + _refunds(hand, win.refunds, "MJS-7.2", "杠上炮")


def _penalty_payments(penalty) -> list[Payment]:
    if not penalty.payees:
        return [Payment(penalty.seat, None, penalty.amount, "penalty", penalty.rule,
                        penalty.reason)]
    return [Payment(penalty.seat, p, penalty.amount, "penalty", penalty.rule, penalty.reason)
            for p in penalty.payees]


def _draw_settlement(hand: Hand) -> list[Payment]:
    """MJS-8.3: every 花猪 and every player not ready (a) refunds the kong payments he
    received in the hand (those not already returned for a 杠上炮) and (b) pays each ready
    player his value; a player who is both pays once."""
    checks = draw_checks(hand)
    ready = [c for c in checks if c.status == "ready"]
    cancelled = {i for w in hand.wins for i in w.refunds}
    out = []
    for c in checks:
        if c.status == "ready":
            continue
        why = "花猪" if c.status == "flowerPig" else Message("not ready (没叫)")
        kongs = [i for i, k in enumerate(hand.kongs) if k.seat == c.seat and i not in cancelled]
        out += _refunds(hand, kongs, "MJS-8.3", Message("exhaustive draw, {why}", why=why))
        out += [Payment(c.seat, r.seat, r.value.points, "drawSettlement", "MJS-8.3",
                        Message("exhaustive draw: seat {seat} is {why}; seat {ready} is ready "
                                "({value})",
                                seat=c.seat, why=why, ready=r.seat, value=_describe(r.value)))
                for r in ready]
    return out


def ledger(hand: Hand) -> tuple[Payment, ...]:
    """Every payment of the hand so far, in the order the facts happened: kongs at once
    (MJS-7.1), wins with their 杠上炮 refunds (MJS-6.4, 7.2), penalties (MJS-9, 10), and once
    the hand is drawn the settlement (MJS-8.3)."""
    facts = sorted([(k.seq, "kong", i) for i, k in enumerate(hand.kongs)]
                   + [(w.seq, "win", w) for w in hand.wins]
                   + [(p.seq, "penalty", p) for p in hand.penalties], key=lambda f: f[0])
    out: list[Payment] = []
    for _, kind, fact in facts:
        if kind == "kong":
            out += _kong_payments(hand, fact)
        elif kind == "win":
            out += _win_payments(hand, fact)
        else:
            out += _penalty_payments(fact)
    return tuple(out + _draw_settlement(hand))


def totals(payments: Iterable[Payment]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Per seat: what the payments between players change (summing to zero) and what the
    deductions paid to no one take away (MJS-10.6)."""
    transfers, deductions = [0] * SEATS, [0] * SEATS
    for p in payments:
        if p.payee is None:
            deductions[p.payer] -= p.amount
        else:
            transfers[p.payer] -= p.amount
            transfers[p.payee] += p.amount
    return tuple(transfers), tuple(deductions)


def hand_outcome(session: Session, hand: Hand, tiebreak: bool = False) -> HandOutcome:
    """``HandCompleted`` (MJS section 11 row 17): the payments and deductions of the ledger,
    the scores after them, and the next dealer (MJS-1.3: the dealer keeps the deal if he is
    among the winners). A ``tiebreak`` hand of the final only orders the tied players by its
    play (T-7.4): its wins, kongs and draw settlement leave the scores, but its penalties
    count in them like any other (T-7.6: "conduct penalties … count in the stage score")."""
    if hand.dealer != session.dealer:
        rule = session.settings.rule("dealer")
        raise RuleViolation(rule, "the hand was dealt by seat {dealer}, but seat {dealer2} "
                                  "deals this hand ({rule_})",
                                  dealer=hand.dealer, dealer2=session.dealer, rule_=rule)
    rows = ledger(hand)
    payments, deductions = totals(rows)
    scored = tuple(p for p in rows if p.reason == "penalty") if tiebreak else rows
    balances = tuple(b + c for b, c in zip(session.balances, net(scored), strict=True))
    following = advance(session.rotation, hand.winners, session.settings)
    return HandOutcome(session.hand_no, hand.dealer, hand.result, hand.winners, payments,
                       balances, following.dealer, deductions=deductions, tiebreak=tiebreak)


def net(payments: Iterable[Payment]) -> tuple[int, ...]:
    """Per seat, what the payments change: transfers and deductions together."""
    transfers, deductions = totals(payments)
    return tuple(p + d for p, d in zip(transfers, deductions, strict=True))


def play_result(hand: Hand) -> tuple[int, ...]:
    """T-7.4: what an extra hand of the final changed for each seat by its play — wins, kongs,
    refunds and the draw settlement, not the penalties —, the result by which it orders the
    tied players."""
    return net(p for p in ledger(hand) if p.reason != "penalty")
