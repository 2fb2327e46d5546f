"""rules/mahjong/tiles.py against README §3 (tile notation) and MJO-1.1 / MJS-1.1 (tile sets)."""
from collections import Counter

import pytest

from rules.mahjong.tiles import (
    KINDS,
    Meld,
    TileError,
    add_tiles,
    format_meld,
    format_tiles,
    is_chow,
    over_copies,
    parse_meld,
    parse_tile,
    parse_tiles,
    remove_tiles,
    shifted,
    sort_tiles,
    tile_set,
)


def test_mjo_1_1_the_set_has_136_tiles_without_flowers():
    tiles = tile_set(136)
    assert len(tiles) == 136 and len(set(tiles)) == 34
    assert set(Counter(tiles).values()) == {4}
    assert {"E", "S", "W", "N", "C", "F", "P"} <= set(tiles)
    assert sum(t[-1] in "mps" and len(t) == 2 for t in tiles) == 108


def test_mjs_1_1_the_sichuan_set_has_108_suited_tiles():
    tiles = tile_set(108)
    assert len(tiles) == 108 and all(len(t) == 2 for t in tiles)
    with pytest.raises(ValueError):
        tile_set(144)


@pytest.mark.parametrize("text", ["5P", "0m", "10m", "east", "", "5", "s5", None, 5])
def test_readme_3_notation_is_exact(text):
    with pytest.raises(TileError):
        parse_tile(text)


def test_readme_3_honours_are_single_letters_and_s_alone_is_south():
    assert parse_tiles("S 5s C") == ("S", "5s", "C")
    assert parse_tiles(["1m", "E"]) == ("1m", "E")


def test_hands_are_multisets_in_canonical_order():
    hand = parse_tiles("E 9s 1m 5p 5p C 1m")
    assert format_tiles(hand) == "1m 1m 5p 5p 9s E C"
    assert sort_tiles(KINDS[::-1]) == KINDS
    assert remove_tiles(hand, ["5p", "1m"]) == ("1m", "5p", "9s", "E", "C")
    assert add_tiles(("E",), ("1m",)) == ("1m", "E")
    with pytest.raises(ValueError, match="cannot remove 5p: not in the hand"):
        remove_tiles(hand, ["5p", "5p", "5p"])
    assert over_copies(["1m"] * 5 + ["E"] * 4) == ("1m",)


def test_same_suit_steps_stop_at_the_ends_and_at_honours():
    assert shifted("4p", 2) == "6p" and shifted("8s", 2) is None and shifted("E", 1) is None
    assert is_chow(["4m", "3m", "5m"]) and not is_chow(["8s", "9s", "1m"])
    assert not is_chow(["E", "S", "W"])


@pytest.mark.parametrize("text,meld", [
    ("[pong 5p]", Meld("pong", ("5p",) * 3)),
    ("[chow 3m4m5m]", Meld("chow", ("3m", "4m", "5m"))),
    ("[kong 7s concealed]", Meld("kong", ("7s",) * 4, concealed=True)),
    ("[kong E]", Meld("kong", ("E",) * 4)),
])
def test_readme_3_meld_notation_round_trips(text, meld):
    assert parse_meld(text) == meld
    assert format_meld(meld) == text


@pytest.mark.parametrize("text", ["pong 5p", "[pung 5p]", "[chow 3m5m7m]", "[pong 5p concealed]",
                                  "[chow E S W]"])
def test_malformed_melds_are_refused(text):
    with pytest.raises(TileError):
        parse_meld(text)
