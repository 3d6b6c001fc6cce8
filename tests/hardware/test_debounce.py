"""The debouncer judged on edge times alone: no threads, no clock, no sleeps."""

from __future__ import annotations

from hypothesis import given, strategies as st

from hardware.debounce import Debouncer

B, H = 0.05, 2.0


def test_a_tap_whose_edges_are_handled_back_to_back_is_one_press():
    d = Debouncer(B, H)
    # the callbacks ran late: both edges are handled before any quiet timer, yet the pin's own
    # times say 60 ms down
    assert d.edge(True, 10.0) == []
    assert d.edge(False, 10.06) == []  # the down is stable now, the release not yet
    assert d.pressed  # judged down by the release's own time
    assert d.quiet() == [("press", 10.0)]
    assert not d.pressed and d.bounces == 0


def test_a_spike_shorter_than_the_window_is_bounce():
    d = Debouncer(B, H)
    d.edge(True, 1.0)
    d.edge(False, 1.01)
    assert d.quiet() == [] and d.bounces == 2 and not d.pressed


def test_chatter_then_press_counts_once_from_the_first_touch():
    d = Debouncer(B, H)
    for i, t in enumerate((1.000, 1.002, 1.004, 1.006, 1.008)):
        d.edge(i % 2 == 0, t)  # L H L H L
    assert d.quiet() == [] and d.pressed
    for i, t in enumerate((1.2, 1.202, 1.204)):
        d.edge(i % 2 == 1, t)  # H L H
    assert d.quiet() == [("press", 1.0)]
    assert d.bounces == 6


def test_the_hold_thread_says_held_once_and_no_press_follows():
    d = Debouncer(B, H)
    d.edge(True, 0.0)
    assert d.held(2.0) == [("hold", 2.0)]  # no quiet timer had run: the hold commits the down
    assert d.held(2.1) == []
    d.edge(False, 2.5)
    assert d.quiet() == []


def test_a_long_press_the_hold_thread_missed_is_a_hold_not_a_call():
    d = Debouncer(B, H)
    d.edge(True, 0.0)
    d.edge(False, 2.05)
    assert d.quiet() == [("hold", 2.0)]


def test_zero_bounce_commits_each_edge_at_once():
    d = Debouncer(0.0, H)
    assert d.edge(True, 0.0) == [] and d.pressed
    assert d.edge(False, 0.001) == [("press", 0.0)]


@given(st.lists(st.tuples(st.floats(0.0, 1.0), st.floats(0.0, 1.0)), min_size=1, max_size=12),
       st.booleans())
def test_every_press_longer_than_the_window_counts_once_however_late_the_timers(pulses, timers_run):
    """Random (down, gap) pulses with clean edges: presses = pulses down >= bounce_s and < hold_s,
    whether the quiet timers ran between the edges or never did."""
    d = Debouncer(B, H)
    t, out, expected = 100.0, [], 0
    for down, gap in pulses:
        down, gap = 1.01 * B + down, 1.01 * B + gap  # clean: each level outlasts the window
        out += d.edge(True, t)
        if timers_run:
            out += d.quiet()
        out += d.edge(False, t + down)
        if timers_run:
            out += d.quiet()
        expected += 1
        t += down + gap
    out += d.quiet()
    assert [kind for kind, _ in out] == ["press"] * expected
    assert d.bounces == 0
