"""The BUNCO! button on gpiozero's mock pins: press, hold (undo), bounce."""

from __future__ import annotations

import time



def press_for(pin, seconds: float) -> tuple[float, float]:
    """Hold the (pull-up, to-ground) button down for `seconds`; returns (before, after) down."""
    before = time.monotonic()
    pin.drive_low()
    after = time.monotonic()
    time.sleep(seconds)
    pin.drive_high()
    return before, after


def bounce(pin, edges: int, to_low: bool) -> None:
    """A burst of contact bounce ending on the new level: edges well inside the bounce window."""
    levels = [pin.drive_low, pin.drive_high]
    if not to_low:
        levels.reverse()
    for i in range(edges):
        levels[i % 2]()
        time.sleep(0.001)
    (pin.drive_low if to_low else pin.drive_high)()


def test_pull_up_and_released_at_start(make_board, factory) -> None:
    board = make_board()
    pin = factory.pin(board.config.button_pin)
    assert pin.pull == "up" and pin.state == 1
    assert not board.button.is_pressed


def test_a_press_reports_once_with_the_time_it_went_down(make_board, factory, recorder) -> None:
    board = make_board()
    presses, holds = recorder(), recorder()
    board.button.on_press(presses)
    board.button.on_hold(holds)
    before, after = press_for(factory.pin(board.config.button_pin), 0.06)
    assert presses.wait(1) and board.button.wait_idle(1)
    assert len(presses.calls) == 1 and holds.calls == []
    (t,) = presses.calls
    assert before <= t <= after


def test_a_hold_means_undo_and_is_not_a_press(make_board, factory, recorder) -> None:
    board = make_board(button_hold_s=0.12)
    presses, holds = recorder(), recorder()
    board.button.on_press(presses)
    board.button.on_hold(holds)
    pin = factory.pin(board.config.button_pin)
    down = time.monotonic()
    pin.drive_low()
    assert holds.wait(2), "no hold seen"
    (t,) = holds.calls
    assert t - down >= 0.12
    time.sleep(0.1)  # still held: it must fire once, not repeat
    pin.drive_high()
    assert board.button.wait_idle(2)
    assert len(holds.calls) == 1 and presses.calls == []
    # the next short press is a press again
    press_for(pin, 0.05)
    assert presses.wait(1) and len(holds.calls) == 1


def test_bounce_on_press_and_release_counts_one_press(make_board, factory, recorder) -> None:
    board = make_board(button_bounce_s=0.03)
    presses = recorder()
    board.button.on_press(presses)
    pin = factory.pin(board.config.button_pin)
    before = time.monotonic()
    bounce(pin, 5, to_low=True)   # L H L H L + L: chatter, then down
    time.sleep(0.08)
    bounce(pin, 5, to_low=False)  # H L H L H + H: chatter, then up
    assert presses.wait(1) and board.button.wait_idle(1)
    assert len(presses.calls) == 1
    assert before <= presses.calls[0] <= before + 0.01  # the first edge of the burst
    assert board.button.bounces >= 8


def test_a_glitch_shorter_than_the_bounce_time_is_no_press(make_board, factory, recorder) -> None:
    board = make_board(button_bounce_s=0.04)
    presses, holds = recorder(), recorder()
    board.button.on_press(presses)
    board.button.on_hold(holds)
    pin = factory.pin(board.config.button_pin)
    pin.drive_low()
    pin.drive_high()  # a spike on a long wire
    assert board.button.wait_idle(2)
    assert presses.calls == [] and holds.calls == []
    assert board.button.bounces == 2 and not board.button.is_pressed


def test_two_presses_are_two_presses(make_board, factory, recorder) -> None:
    board = make_board()
    presses = recorder()
    board.button.on_press(presses)
    pin = factory.pin(board.config.button_pin)
    press_for(pin, 0.05)
    time.sleep(0.05)
    press_for(pin, 0.05)
    assert presses.wait(1, n=2)
    assert presses.calls[0] < presses.calls[1]


def test_the_next_button_is_its_own_button(make_board, factory, recorder) -> None:
    board = make_board()
    bunco, nxt = recorder(), recorder()
    board.button.on_press(bunco)
    board.next_button.on_press(nxt)
    press_for(factory.pin(board.config.next_pin), 0.05)
    assert nxt.wait(1)
    time.sleep(0.05)
    assert bunco.calls == []


def test_no_next_button_when_not_wired(make_board) -> None:
    assert make_board(next_pin=None).next_button is None


def test_simulated_press_and_hold_use_the_same_path(make_board, factory, recorder) -> None:
    board = make_board()
    presses, holds = recorder(), recorder()
    board.button.on_press(presses)
    board.button.on_hold(holds)
    pin = factory.pin(board.config.button_pin)
    pin.clear_states()
    board.button.simulate_press()
    assert presses.wait(1)
    board.button.simulate_hold()
    assert holds.wait(2)
    board.button.device.wait_for_inactive(2)
    assert board.button.wait_idle(2)
    assert len(presses.calls) == 1 and len(holds.calls) == 1
    # the mock pin really went down and up twice
    assert [st.state for st in pin.states] == [1, 0, 1, 0, 1]


def test_a_simulated_press_right_after_a_hold_is_not_lost(make_board, recorder) -> None:
    """The hold is reported while the button is down; a press made at once (an undo, then the
    Bunco) must wait for the hold's let-go, or it drives a pin already low and is no press."""
    board = make_board()
    presses, holds = recorder(), recorder()
    board.button.on_press(presses)
    board.button.on_hold(holds)
    board.button.simulate_hold()
    assert holds.wait(2)
    board.button.simulate_press()
    assert presses.wait(2)
    assert len(presses.calls) == 1 and len(holds.calls) == 1


def test_a_simulated_press_right_after_a_let_go_is_not_lost(make_board, recorder) -> None:
    """The button is up again but its let-go is still in the bounce window: a press made then must
    wait for it to be judged, or the debouncer takes up-and-down for contact bounce."""
    board = make_board()
    presses = recorder()
    board.button.on_press(presses)
    board.button.simulate_press()
    board.button._release.join(2)  # the let-go has been driven; its bounce window is still open
    board.button.simulate_press()
    assert presses.wait(2, n=2)


def test_key_down_and_up_stand_ins(make_board, recorder) -> None:
    """A desktop maps key down/up straight to the pin: a long key hold is an undo."""
    board = make_board(button_hold_s=0.1)
    holds = recorder()
    board.button.on_hold(holds)
    board.button.simulate_down()
    assert holds.wait(1)
    board.button.simulate_up()


def test_a_broken_listener_does_not_stop_the_others(make_board, factory, recorder, caplog) -> None:
    board = make_board()

    def broken(t: float) -> None:
        raise ValueError("boom")

    board.button.on_press(broken)
    good = recorder()
    board.button.on_press(good)
    press_for(factory.pin(board.config.button_pin), 0.05)
    assert good.wait(1)
    assert "boom" in caplog.text


def test_closed_button_is_silent(make_board, factory, recorder) -> None:
    board = make_board()
    presses = recorder()
    board.button.on_press(presses)
    pin = factory.pin(board.config.button_pin)
    board.close()
    pin.drive_low()
    time.sleep(0.05)
    pin.drive_high()
    time.sleep(0.08)
    assert presses.calls == []


def test_zero_bounce_time_reports_at_once(make_board, factory, recorder) -> None:
    board = make_board(button_bounce_s=0.0)
    presses = recorder()
    board.button.on_press(presses)
    pin = factory.pin(board.config.button_pin)
    pin.drive_low()
    assert board.button.is_pressed  # no debounce window to wait for
    pin.drive_high()
    assert presses.calls and len(presses.calls) == 1
