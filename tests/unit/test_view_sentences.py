"""The rules' words in states and views (rules/messages.py ``Sentence``): a view of any game
holds them as text — its English — so a stream's frame, written as plain JSON without a
request, never meets a bare message; a checkpoint keeps a sentence's message, so a state read
back still says it in its reader's language; and the edge says every sentence of an answer in
the reader's language, leaving the rest of the answer as it is."""
from __future__ import annotations

import json

import pytest
from fold_logs import match_states

from projections.matches import folded_view, hand_view
from projections.state_codec import decode, encode
from projections.viewers import Viewer
from rules.messages import Message, Sentence
from service.i18n import Saying, catalogue

VIEWERS = (Viewer("referee"), Viewer("public"), Viewer("seat", 1))
EVERY = 10  # the views of every tenth state of a stream, and of its last


@pytest.fixture(scope="module")
def store(fold_logs_store):
    return fold_logs_store


def sentences_in(value) -> list[Sentence]:
    if isinstance(value, Sentence):
        return [value]
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    return [s for item in items for s in sentences_in(item)]


def test_every_view_of_the_five_games_is_plain_json_with_its_words_as_sentences(store):
    said, games = [], set()
    for folded in match_states(store, EVERY):
        games.add(folded.state.game)
        for viewer in VIEWERS:
            views = [folded_view(folded, viewer)] + [
                hand_view(folded.state, n, viewer) for n in range(1, folded.state.next_hand)]
            text = json.dumps(views, ensure_ascii=False)  # no message left bare: no TypeError
            said += sentences_in(views)
            assert json.loads(text) == views  # a sentence is written as its English
    assert games == {"SJ2", "SJ3", "GD", "MJO", "MJS"}
    templates = {s.message.template for s in said}
    assert {"a pair of {ranks}", "seat {seat}'s {kong} of {tile}",
            "abandoned at the {minutes}-minute limit (GD-11.2)",
            "seat {seat}'s throw failed: {count} component(s) beatable"} <= templates


def test_a_checkpoint_keeps_a_sentences_message():
    why = Sentence(Message("seat {seat} warned three times in one hand (last: {offence})",
                           seat=2, offence=Message("peeked at the wall")))
    state = {"penalties": (why, why), "void_reason": "the referee's own words"}
    back = decode(encode(state))
    assert back == state and type(back["penalties"][0]) is Sentence
    assert back["penalties"][0].message == why.message
    assert back["penalties"][0] is back["penalties"][1]  # shared, as it was
    assert type(back["void_reason"]) is str


def test_the_edge_says_the_sentences_of_an_answer_and_leaves_the_rest_alone():
    saying = Saying(catalogue("zh").gettext)
    plain = {"hand": 1, "cards": ["QH", "2S"], "reason": "the referee's own words"}
    assert saying.said(plain) is plain  # nothing to say: not even copied
    warned = Sentence(Message("second bye: {bye} has had a bye", bye="T3"))
    answer = {**plain, "rounds": [{"warnings": [warned, warned]}]}
    assert saying.said(answer) == {**plain, "rounds": [{"warnings": ["第二次轮空：T3已轮空过"] * 2}]}
    assert answer["rounds"][0]["warnings"] == ["second bye: T3 has had a bye"] * 2  # unchanged
