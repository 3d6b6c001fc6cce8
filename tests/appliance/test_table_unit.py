"""The table unit: readings -> tally, BUNCO! calls, undo, re-roll, restart from the log."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from appliance.commands.export import export_lines, scorecards_csv
from appliance.game.rules import HouseRules
from appliance.nightlog import replay, result_json
from appliance.store import EventStore
from appliance.table_unit import Signals, TableUnit

PLAYERS = ("Stacy", "Carol", "Wanda", "Hannah")


def make_unit(tmp_path: Path, **kw) -> TableUnit:
    return TableUnit(EventStore.in_dir(tmp_path), PLAYERS, HouseRules(sets=1), seed=7, **kw)


def seats(unit: TableUnit) -> tuple[str, ...]:
    return unit.table_round.setup.seats


def test_readings_score_for_whoever_rolls_and_turn_passes(tmp_path):
    unit = make_unit(tmp_path)
    first = unit.table_round.roller
    unit.on_reading((1, 1, 3))
    assert unit.table_round.roller == first and unit.view().turn_points == 2
    unit.on_reading((2, 4, 6))
    view = unit.view()
    assert view.turn_player == seats(unit)[1] and view.teams[0].points == 2
    assert view.last_roll == (2, 4, 6) and view.scoring == (False, False, False)


def test_bunco_prompt_call_false_call_and_bells(tmp_path):
    rung, lights = [], []
    unit = make_unit(tmp_path, signals=Signals(bell=rung.append, light=lights.append))
    notes = unit.on_reading((1, 1, 1))
    assert "press_bunco" in notes and lights[-1] == "bunco"
    assert [b.kind for b in unit.view().banners] == ["press_bunco"]
    notes = unit.press()
    assert "bunco_called" in notes and unit.view().teams[0].points == 21
    assert rung[-2:] == ["fanfare", "ring_end"]  # standalone, the unit is the head table
    assert unit.view().phase == "ending"
    assert "false_call" in unit.press()
    assert unit.view().teams[0].points == 21 and any(b.kind == "false_call" for b in unit.view().banners)


def test_unreadable_roll_asks_for_reroll_and_scores_nothing(tmp_path):
    unit = make_unit(tmp_path)
    notes = unit.on_reading((1, 1), unreadable=1, reroll=True, message="1 die unreadable: re-roll")
    assert notes == ("reroll",)
    view = unit.view()
    assert view.teams[0].points == 0 and view.last_roll == ()
    assert view.banners[0].kind == "reroll" and "unreadable" in view.banners[0].text
    kinds = [e.body["type"] for e in unit.store.events()]
    assert kinds == ["night", "round", "reroll"]


def test_undo_then_next_reading_replaces_it_and_log_keeps_both(tmp_path):
    unit = make_unit(tmp_path)
    unit.on_reading((1, 1, 1))  # misread: really 1 1 4
    unit.hold()
    assert unit.view().teams[0].points == 0 and unit.view().last_roll == ()
    unit.on_reading((1, 1, 4))
    assert unit.view().teams[0].points == 2
    kinds = [e.body["type"] for e in unit.store.events()]
    assert kinds == ["night", "round", "roll", "undo", "roll"]


def test_round_end_shows_winners_and_moves_then_next_round_starts(tmp_path):
    unit = make_unit(tmp_path)
    first = seats(unit)
    unit.on_reading((1, 1, 1))
    unit.press()
    unit.on_reading((2, 3, 4))  # the bell rang: this roll finishes the turn and the round
    view = unit.view()
    assert view.phase == "over" and set(view.winners) == {first[0], first[2]}
    assert view.moves == ()  # one table: nobody moves; the next roll starts the next round
    unit.on_reading((2, 2, 5))  # the next reading starts round 2
    assert unit.view().round_no == 2 and unit.view().teams[0].points + unit.view().teams[1].points == 2


def test_export_replays_to_the_units_own_result_and_csv(tmp_path):
    unit = make_unit(tmp_path)
    while not unit.night.over:  # each round: a called Bunco, the bell, a miss that ends the turn
        if unit.round_over:
            unit.start_round()
        t = unit.night.current.setup.target
        unit.on_reading((t, t, t))
        unit.press()
        unit.on_reading((1, 2, 3) if t > 3 else (4, 5, 6))
    assert len(unit.night.played) == 6 and unit.night.current is None  # the last round is closed at once
    lines = export_lines(tmp_path)
    assert result_json(replay(lines)) == result_json(unit.night.finish())
    csv_text = scorecards_csv(lines)
    assert csv_text.splitlines()[0].startswith("place,player,r1")
    assert len(csv_text.splitlines()) == 1 + len(PLAYERS)


def test_restart_stands_exactly_where_it_was(tmp_path):
    unit = make_unit(tmp_path)
    for dice in ((1, 1, 3), (1, 4, 5), (2, 2, 2), (1, 1, 1)):
        unit.on_reading(dice)
    before = unit.view()
    unit.store.close()
    again = TableUnit(EventStore.in_dir(tmp_path), ("Someone", "Else"), HouseRules(), seed=99)
    assert again.view() == before
    assert again.players == PLAYERS and again.rules == HouseRules(sets=1)
    assert "bunco_called" in again.press()  # the call window survived the restart too


SCRIPT = textwrap.dedent("""
    import sys, time
    from appliance.game.rules import HouseRules
    from appliance.store import EventStore
    from appliance.table_unit import TableUnit
    rolls = [(1, 1, 3), (4, 2, 1), (6, 6, 2), (2, 1, 6), (5, 4, 1), (3, 4, 5), (3, 3, 3), (4, 5, 2),
             (1, 5, 6), (2, 2, 4), (1, 3, 3), (6, 6, 1), (5, 5, 5), (2, 3, 4)] * 3
    unit = TableUnit(EventStore.in_dir(sys.argv[1]), ("Stacy", "Carol", "Wanda", "Hannah"),
                     HouseRules(sets=1), seed=7)
    for i, dice in enumerate(rolls):
        unit.on_reading(dice, source="manual")
        print(i, flush=True)
        time.sleep(0.01)
    time.sleep(60)
""")


def test_kill_9_mid_turn_restart_same_state(tmp_path):
    data = tmp_path / "data"
    proc = subprocess.Popen([sys.executable, "-c", SCRIPT, str(data)], stdout=subprocess.PIPE, text=True,
                            cwd=Path(__file__).resolve().parents[2])
    try:
        for line in proc.stdout:
            if int(line) >= 9:
                break
        os.kill(proc.pid, signal.SIGKILL)  # mid-stream: the writer may be inside a transaction
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
    restored = TableUnit(EventStore.in_dir(data), PLAYERS, HouseRules(sets=1), seed=7)
    stored_rolls = [e.body["dice"] for e in restored.store.events() if e.body["type"] == "roll"]
    assert len(stored_rolls) >= 10
    reference = make_unit(tmp_path / "reference")
    for dice in stored_rolls:
        reference.on_reading(tuple(dice))
    assert restored.view() == reference.view()
    assert restored.table_round.turn_points == reference.table_round.turn_points
    assert restored.fold.lines == reference.fold.lines  # nothing lost, nothing counted twice


def test_bad_unit_config_names_key_and_file(tmp_path):
    from appliance.errors import ConfigError
    from appliance.unit_config import load_unit_config

    for text, key in (("table = 0", "table"), ("[camera]\nroi = [1, 2]", "camera.roi"),
                      ("[pins]\nbutton_pin = 22", "pins."), ("[rules]\ndice = 7", "dice"),
                      ("volume = 3", "volume")):
        path = tmp_path / "unit.toml"
        path.write_text(text + "\n")
        with pytest.raises(ConfigError) as err:
            load_unit_config(path)
        assert key in str(err.value) and str(path) in str(err.value)
