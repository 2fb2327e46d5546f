"""Winning hands: every reading of a hand as four sets and a pair, the pair rule, seven pairs,
and the tiles a hand waits on.

Rules: MJO-5.1 (four sets and one pair; a set is a chow or a pung), MJO-5.2 (the pair must be a
2, 5 or 8 — setting ``pairRanks``), MJO-5.3 (no special hands — setting ``sevenPairs``),
MJO-5.5 (every decomposition of the concealed tiles is searched; exposed melds are fixed sets);
MJS-5.1 to 5.3 (kongs count as sets; seven pairs, four identical tiles as two pairs).
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from ..messages import Message
from ..violations import RuleViolation
from .completing import completing_groups, may_complete
from .settings import GameSettings
from .tiles import COPIES, INDEX, KINDS, Meld, format_tiles, kinds, rank, sort_tiles

SETS_IN_A_HAND = 4
HAND_SIZE = 14  # counting each meld (kongs included) as three tiles


@dataclass(frozen=True)
class Reading:
    """One way to read a winning hand. ``form`` is ``"sets"`` (four sets and a pair: ``pair``
    plus concealed ``sets`` plus the fixed ``melds``) or ``"sevenPairs"`` (``pairs``)."""

    form: str
    pair: str | None = None
    sets: tuple[tuple[str, ...], ...] = ()
    melds: tuple[Meld, ...] = ()
    pairs: tuple[str, ...] = ()


def hand_size(concealed: Sequence[str], melds: Sequence[Meld]) -> int:
    """MJO-5.1: tiles of a hand, each meld counted as three (a kong's fourth is a replacement)."""
    return len(concealed) + 3 * len(melds)


@lru_cache(maxsize=65536)
def _set_partitions(c: tuple[int, ...]) -> tuple[tuple[tuple[int, str], ...], ...]:
    """Every way to split the counts ``c`` (of the 34 faces) into pungs and chows, each exactly
    once. No set spans two suits (nor two honours), so they are the ways of each suit, one
    after another in the order of the faces — the search below, made suit by suit (each
    suit's ways memoised on its own counts, which recur far more often than whole hands)."""
    ways = [_suit_partitions(low, c[low:high]) for low, high in _SUIT_SPANS]
    if not all(ways):
        return ()
    return tuple(m + p + s + h for m in ways[0] for p in ways[1] for s in ways[2]
                 for h in ways[3])


_SUIT_SPANS = ((0, 9), (9, 18), (18, 27), (27, 34))  # the faces of m, p, s and the honours


@lru_cache(maxsize=65536)
def _suit_partitions(low: int, c: tuple[int, ...]) -> tuple[tuple[tuple[int, str], ...], ...]:
    """Every way to split the counts ``c`` of the faces from index ``low`` on (one suit, or
    the honours) into pungs and chows, each exactly once: at the lowest tile left, choose
    whether it starts a pung, and the rest of its copies start chows."""
    j = next((k for k, n in enumerate(c) if n), None)
    if j is None:
        return ((),)
    i = low + j  # the face's index in KINDS
    out = []
    n = c[j]
    for pungs in (1, 0) if n >= 3 else (0,):
        chows = n - 3 * pungs
        rest = list(c)
        rest[j] -= 3 * pungs
        if chows:
            if i >= 27 or i % 9 > 6 or rest[j + 1] < chows or rest[j + 2] < chows:
                continue
            for k in (j, j + 1, j + 2):
                rest[k] -= chows
        head = ((i, "pung"),) * pungs + ((i, "chow"),) * chows
        out.extend(head + tail for tail in _suit_partitions(low, tuple(rest)))
    return tuple(out)


def _set_tiles(index: int, kind: str) -> tuple[str, ...]:
    if kind == "pung":
        return (KINDS[index],) * 3
    return (KINDS[index], KINDS[index + 1], KINDS[index + 2])


def face_counts(tiles: Iterable[str]) -> list[int]:
    """How many of each of the 34 faces ``tiles`` holds, in the order of KINDS."""
    c = [0] * len(KINDS)
    for tile in tiles:
        c[INDEX[tile]] += 1
    return c


def _seven_pairs(c: list[int], four_as_two: bool) -> bool:
    """MJS-5.3 from the face counts of 14 concealed tiles: every face held an even number of
    times, four of one as two pairs only with ``four_as_two`` — seven_pairs_reading's answer."""
    return all(n % 2 == 0 for n in c) and (four_as_two or max(c) <= 2)


def set_readings(concealed: Iterable[str], melds: Sequence[Meld] = ()) -> tuple[Reading, ...]:
    """MJO-5.1 / MJO-5.5: every reading of the concealed tiles as a pair plus sets, with the
    melds fixed, whatever the pair's rank. Empty if the tile count does not fit."""
    tiles = tuple(concealed)
    if len(melds) > SETS_IN_A_HAND or len(tiles) != 3 * (SETS_IN_A_HAND - len(melds)) + 2:
        return ()
    c = face_counts(tiles)
    readings = []
    for i, n in enumerate(c):
        if n < 2:
            continue
        c[i] -= 2
        for parts in _set_partitions(tuple(c)):
            readings.append(Reading("sets", pair=KINDS[i], melds=tuple(melds),
                                    sets=tuple(_set_tiles(k, kind) for k, kind in parts)))
        c[i] += 2
    return tuple(readings)


def pair_allowed(pair: str, settings: GameSettings) -> bool:
    """MJO-5.2: the pair must be a 2, 5 or 8 of a suit (``pairRanks``; None allows any)."""
    return settings.pairRanks is None or rank(pair) in settings.pairRanks


def seven_pairs_reading(concealed: Iterable[str], melds: Sequence[Meld],
                        four_as_two: bool = True) -> Reading | None:
    """MJS-5.3: seven pairs, fully concealed; four identical tiles count as two pairs when
    ``four_as_two``. None if the hand is not seven pairs."""
    tiles = sort_tiles(concealed)
    if melds or len(tiles) != 14:
        return None
    pairs = tiles[::2]
    if any(tiles[k] != tiles[k + 1] for k in range(0, 14, 2)):
        return None
    if not four_as_two and len(set(pairs)) != 7:
        return None
    return Reading("sevenPairs", pairs=pairs)


def winning_readings(concealed: Iterable[str], melds: Sequence[Meld],
                     settings: GameSettings) -> tuple[Reading, ...]:
    """MJO-5.1 to 5.3: the readings of a 14-tile hand that make it a win in this game."""
    tiles = tuple(concealed)
    readings = [r for r in set_readings(tiles, melds) if pair_allowed(r.pair, settings)]
    if settings.sevenPairs:
        seven = seven_pairs_reading(tiles, melds, settings.fourAsTwoPairs)
        if seven is not None:
            readings.append(seven)
    return tuple(readings)


def is_winning_hand(concealed: Iterable[str], melds: Sequence[Meld],
                    settings: GameSettings) -> bool:
    """MJO-5.1 to 5.3: whether the hand (concealed tiles plus melds, 14 counting each meld as
    three) is a win — the same answer as :func:`winning_readings`, without building them.

    It is asked for every other seat after every discard (who may win on it), so it reads the
    tile counts once and judges each suit on its own: a set never spans two suits, so the hand
    is four sets and a pair exactly when every suit reads as sets, one of them after taking out
    the pair (:func:`_suit_sets`, :func:`_suit_pairs`: memoised on the suit's counts, as
    :func:`_suit_partitions` is). The tiles need not be in sort order."""
    tiles = tuple(concealed)
    if len(melds) > SETS_IN_A_HAND or len(tiles) != 3 * (SETS_IN_A_HAND - len(melds)) + 2:
        return False  # a seven-pairs hand (14 concealed tiles, no meld) fits this size too
    c = face_counts(tiles)
    # MJS-5.3: seven pairs from the counts; seven faces at most, first, is quick to refuse
    if settings.sevenPairs and not melds and len(set(tiles)) <= 7 and \
            _seven_pairs(c, settings.fourAsTwoPairs):
        return True
    return _reads_as_sets(c, settings.pairRanks)


def winning_faces(concealed: Iterable[str], melds: Sequence[Meld], settings: GameSettings,
                  faces: Iterable[str]) -> tuple[str, ...]:
    """The faces of ``faces``, in their order, that make the concealed tiles plus one of them
    a win: :func:`is_winning_hand` of each (MJO-5.2 Ex 5, MJS-8.2: a hand's waits), the
    concealed tiles counted once for all."""
    tiles = tuple(concealed)
    if len(melds) > SETS_IN_A_HAND or len(tiles) + 1 != 3 * (SETS_IN_A_HAND - len(melds)) + 2:
        return ()
    c = face_counts(tiles)
    seven = settings.sevenPairs and not melds
    out = []
    for face in faces:
        i = INDEX[face]
        c[i] += 1
        if seven and _seven_pairs(c, settings.fourAsTwoPairs) \
                or _reads_as_sets(c, settings.pairRanks):
            out.append(face)
        c[i] -= 1
    return tuple(out)


def _reads_as_sets(c: list[int], pair_ranks: frozenset[int] | None) -> bool:
    """MJO-5.1, 5.2, 5.5: whether the counts ``c`` (of the 34 faces) read as sets and one pair
    whose rank ``pair_ranks`` allows (None: any pair) — as :func:`_set_partitions` reads
    them, whatever the counts. A suit whose count is 1 more than a multiple of 3 reads as
    nothing, 2 more must hold the pair, a multiple of 3 only sets; an honour is a pung (3)
    or holds the pair (2, or a pair and a pung: 5)."""
    pair = False
    for low in (0, 9, 18):
        part = tuple(c[low:low + 9])
        left = sum(part) % 3
        if left == 1:
            return False
        if left == 2:
            if pair:
                return False
            pair = True
            if not any(pair_ranks is None or r in pair_ranks for r in _suit_pairs(part)):
                return False
        elif not _suit_sets(part):
            return False
    for n in c[27:]:
        if n == 2 or n == 5:
            if pair or pair_ranks is not None:  # an honour has no rank (MJO-5.2)
                return False
            pair = True
        elif n and n != 3:
            return False
    return pair


@lru_cache(maxsize=8192)
def _suit_sets(part: tuple[int, ...]) -> bool:
    """Whether the counts of one suit's nine ranks read as pungs and chows only, as
    :func:`_suit_partitions` finds (whichever suit: the readings differ in their faces, not
    in whether there is one) — without listing them: at the lowest rank left holding n
    tiles, n mod 3 of them must start chows (three chows there are the same tiles as three
    pungs), the rest are pungs; one reading to try."""
    if max(part) > COPIES:  # not tiles of one set (MJO-1.1): the search's own answer
        return bool(_suit_partitions(0, part))
    rest = list(part)
    for i in range(9):
        n = rest[i]
        if n:
            chows = n % 3
            if chows:
                if i > 6 or rest[i + 1] < chows or rest[i + 2] < chows:
                    return False
                rest[i + 1] -= chows
                rest[i + 2] -= chows
    return True


@lru_cache(maxsize=8192)
def _suit_pairs(part: tuple[int, ...]) -> tuple[int, ...]:
    """The ranks (1..9) of the pairs whose removal leaves one suit's counts as sets only."""
    out = []
    for i, n in enumerate(part):
        if n >= 2:
            rest = list(part)
            rest[i] -= 2
            if _suit_sets(tuple(rest)):
                out.append(i + 1)
    return tuple(out)


def must_be_winning_hand(concealed: Iterable[str], melds: Sequence[Meld],
                         settings: GameSettings, seat: int | None = None) -> tuple[Reading, ...]:
    """MJO-5.1 / 5.2 / 5.3: the winning readings of the hand, or a RuleViolation naming the
    rule that fails: the size or shape (5.1), a pair that is not a 2, 5 or 8 (5.2), or a
    special hand the game does not allow (5.3)."""
    tiles = sort_tiles(concealed)
    shown = format_tiles(tiles) + "".join(f" {m}" for m in melds)   # README §3 notation
    hand = Message("the hand {shown}", shown=shown) if seat is None else \
        Message("seat {seat}'s hand {shown}", seat=seat, shown=shown)
    size = hand_size(tiles, melds)
    if size != HAND_SIZE:
        raise RuleViolation(settings.rule("winShape"),
                            "{hand} has {size} tiles; a winning hand has 14, each meld counted "
                            "as three ({rule_})",
                            hand=hand, size=size, rule_=settings.rule('winShape'))
    readings = winning_readings(tiles, melds, settings)
    if readings:
        return readings
    any_pair = set_readings(tiles, melds)
    if any_pair:
        pairs = _either([f"{p}{p}" for p in sorted({r.pair for r in any_pair}, key=INDEX.get)])
        raise RuleViolation(settings.rule("pair"),
                            "{hand} reads as four sets only with the pair {pairs}; the pair "
                            "must be a {ranks} ({rule_})",
                            hand=hand, pairs=pairs, ranks=_ranks_text(settings),
                            rule_=settings.rule('pair'))
    if seven_pairs_reading(tiles, melds) is not None:
        raise RuleViolation(settings.rule("specialHands"),
                            "{hand} is seven pairs, which is not a winning hand in this game: a "
                            "win needs four sets and a pair ({rule_})",
                            hand=hand, rule_=settings.rule('specialHands'))
    raise RuleViolation(settings.rule("winShape"),
                        "{hand} cannot be read as four sets (chows or pungs) and a pair "
                        "({rule_})",
                        hand=hand, rule_=settings.rule('winShape'))


def _either(choices: Sequence[str]) -> str | Message:
    """``"a"``, ``"a or b"``, ``"a or b or c"``: the words of a choice (``or`` translated)."""
    if len(choices) == 1:
        return choices[0]
    return Message("{either} or {other}", either=choices[0], other=_either(choices[1:]))


def _ranks_text(settings: GameSettings) -> str | Message:
    """The pair ranks of the game: ``"2, 5 or 8"`` (the commas and ``or`` translated)."""
    ranks = [str(r) for r in sorted(settings.pairRanks or ())]
    text: str | Message = ranks[-1]
    if len(ranks) > 1:
        text = Message("{either} or {other}", either=ranks[-2], other=text)
    for r in reversed(ranks[:-2]):
        text = Message("{first}, {rest}", first=r, rest=text)
    return text


def waits(concealed: Iterable[str], melds: Sequence[Meld],
          settings: GameSettings) -> tuple[str, ...]:
    """MJO-5.2 Ex 5 / MJS-8.2: the tiles that would complete a 13-tile hand (one tile short of
    a win), in sort order. A face whose four copies the player already holds is not a wait;
    whether other copies are still live is not considered (MJS-8.4)."""
    tiles = tuple(concealed)
    held = face_counts((*tiles, *(t for m in melds for t in m.tiles)))
    groups = completing_groups(tiles)  # cheap tests first: most faces fail them
    return winning_faces(tiles, melds, settings, [
        t for t in kinds(settings.tileCount)
        if held[INDEX[t]] < COPIES and may_complete(tiles, melds, settings, t, groups)])
