"""One round at one table, end to end: synthetic rolls of real die crops -> settle -> the real
reader -> the unit -> the screen, with the BUNCO! button pressed on gpiozero's mock pin."""

from __future__ import annotations

import os
import random

from vision.synthetic import DICE_ROOT

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

DICE = DICE_ROOT


def test_one_table_round_from_camera_to_winner(tmp_path):
    import pygame

    from appliance.game.rules import HouseRules
    from appliance.nightlog import replay, result_json
    from appliance.commands.export import export_lines
    from appliance.store import EventStore
    from appliance.table_app import build_board, connect
    from appliance.table_unit import TableUnit
    from appliance.ui.display import Display
    from appliance.unit_config import UnitConfig
    from vision.settle import SettleDetector
    from vision.synthetic import Roll, SyntheticRolls

    script = [Roll((2, 3, 5)), Roll((1, 4, 4)), Roll((1, 4, 6)), Roll((1, 1, 1)), Roll((2, 4, 6))]
    # the crops are drawn with this seed; the reader still misreads about one die in 15 on such
    # frames (a 4 or a 1 read as a 2), so the checks below follow what the camera read, and a
    # floor on how much of it was right guards the reader (its accuracy has its own benchmark)
    source = SyntheticRolls(script, rng=random.Random(7), root=str(DICE), die_px=48.0)
    unit = TableUnit(EventStore.in_dir(tmp_path), ("Stacy", "Carol", "Wanda", "Hannah"),
                     HouseRules(sets=1), seed=7)
    board = build_board(UnitConfig(), fake_gpio=True)
    display = Display(mode="headless", size=(800, 480))
    connect(unit, board, display)
    settle = SettleDetector(expected_dice=3)
    readings = []
    try:
        while (item := source.read()) is not None:
            settled = settle.feed(*item)
            if settled is None:
                continue
            assert not settled.reroll_needed, settled.message
            readings.append(settled.values)
            unit.on_reading(settled.values)
            if len(readings) == 1:  # nothing to call: a false call, shown and ignored
                board.button.simulate_press()
                assert unit.drain_inputs(timeout=2.0) == 1
                assert any(b.kind == "false_call" for b in unit.view().banners)
            elif len(readings) == 2:  # a misread (say): hold the button, the next reading replaces it
                board.button.simulate_hold()
                assert unit.drain_inputs(timeout=5.0) == 1
                assert unit.view().last_roll == readings[0]  # back to the roll before
            elif len(readings) == 4:
                assert readings[-1] == (1, 1, 1), readings  # the Bunco must be read to be called
                assert [b.kind for b in unit.view().banners][:1] == ["press_bunco"], unit.view().banners
                board.button.simulate_press()
                assert unit.drain_inputs(timeout=2.0) == 1
        display.screenshot(tmp_path / "after.png")
    finally:
        board.close()
        display.close()
    truth = [tuple(sorted(r.values)) for r in script]
    assert len(readings) == len(truth)  # one reading a roll
    assert sum(r == t for r, t in zip(readings, truth)) >= 4, readings
    assert unit.night.current is None and len(unit.night.played) == 1  # round 1 is over, seats for 2 drawn
    (result,) = unit.night.played[0].results
    # the Bunco (21, called) decides the round; the taken-back roll never counts
    assert max(points for _, points in result.teams) >= 21 and result.winners
    kinds = [e.body["type"] for e in unit.store.events()]
    assert kinds.count("undo") == 1 and kinds.count("call") == 2 and kinds.count("roll") == 5
    view = unit.view()  # one table: nobody moves, so the result shows no moves list
    assert view.phase == "over" and view.winners and view.moves == ()
    assert result_json(replay(export_lines(tmp_path))) == result_json(unit.night.finish())
    shot = pygame.image.load(str(tmp_path / "after.png"))
    assert shot.get_size() == (800, 480)
