"""What a listener keeps of the words of commits (events/commits.py: HeardRecords): the records
that follow on from its position are taken as read; a gap, or more words than the bound, sends
it to the log."""
from events.commits import HeardRecords
from events.envelope import Record


def records(*positions: int) -> list[Record]:
    return [Record(p, f"e{p}", "t", "match-t:R1", p, "Passed", 1, "{}", "{}", "", "", "")
            for p in positions]


def positions(run: list[Record]) -> list[int]:
    return [r.position for r in run]


def test_what_follows_on_is_taken_in_order_and_reaches_the_last_word():
    heard = HeardRecords()
    heard.hear(6, records(5, 6))
    heard.hear(4, records(3, 4))  # a word out of order
    run, reached = heard.take(after=2)
    assert (positions(run), reached) == ([3, 4, 5, 6], True)
    assert heard.take(after=6) == ([], True)  # nothing more heard: no read of the log


def test_a_gap_hands_out_what_comes_before_it_and_sends_the_rest_to_the_log():
    heard = HeardRecords()
    heard.hear(3, records(3))
    heard.hear(9, ())  # another node's commit: a word without records
    heard.hear(10, records(10))
    run, reached = heard.take(after=2)
    assert (positions(run), reached) == ([3], False)


def test_more_words_than_the_bound_drop_all_and_send_the_listener_to_the_log():
    heard = HeardRecords(bound=3)
    heard.hear(2, records(1, 2))
    heard.hear(4, records(3, 4))
    assert len(heard) == 0
    assert heard.take(after=0) == ([], False)
    heard.hear(5, records(5))  # after the read of the log, words are kept again
    assert heard.take(after=4) == (records(5), True)


def test_what_was_read_from_the_log_is_forgotten():
    heard = HeardRecords()
    heard.hear(4, records(2, 3, 4))
    heard.forget_until(3)
    assert len(heard) == 1
    assert heard.take(after=3) == (records(4), True)
