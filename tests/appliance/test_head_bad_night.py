"""A bad night in a data folder or a retained message never crash-loops a unit: one line, then it waits."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from appliance.head_unit import HeadUnit, Refused
from appliance.net import messages
from appliance.store import EventStore

TWINS = ["Ann", "Bea", "Ann", "Dot", "Eve", "Fay", "Gus", "Hal"]


def test_a_bad_list_given_to_the_head_is_refused_before_the_log(tmp_path: Path) -> None:
    store = EventStore.in_dir(tmp_path)
    unit = HeadUnit(store, tuple(TWINS))  # used to crash in _append at the start (TypeError)
    assert unit.trouble is not None and "'Ann' is listed twice" in unit.trouble
    with pytest.raises(Refused, match="listed twice"):
        unit.start_night()
    assert len(store) == 0


def test_a_data_folder_holding_a_bad_night_reports_and_waits(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    store = EventStore.in_dir(tmp_path)
    store.append({"type": "night", "players": TWINS, "rules": {}, "seed": 1, "bells": "heard"}, 0.0)
    store.append({"type": "round", "tables": [TWINS[:4], TWINS[4:]], "index": 0}, 0.0)
    store.close()
    store = EventStore.in_dir(tmp_path)
    with caplog.at_level(logging.ERROR):
        unit = HeadUnit(store, ())  # used to crash in _restore, at every restart
    assert "line 1: 'Ann' is listed twice" in (unit.trouble or "")
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == [
        f"head: {unit.trouble}; waiting for the hostess"]
    assert unit.phase == "waiting" and not unit.started
    published: list[object] = []
    unit.net.publish_round = published.append  # type: ignore[method-assign]
    unit.publish_all()
    assert published == []  # the tables never get a night they cannot fold
    for action in (unit.start_night, unit.hold, lambda: unit.add_player("Zed"), lambda: unit.undo(1)):
        with pytest.raises(Refused, match="the head cannot go on"):
            action()
    assert len(store) == 2


def test_a_retained_round_message_with_a_bad_night_is_dropped() -> None:
    payload = json.dumps({"v": 1, "night": {"type": "night", "players": TWINS}, "index": 0, "phase": "waiting",
                          "tables": []}).encode()
    with pytest.raises(messages.BadMessage, match="the night's players: 'Ann' is listed twice"):
        messages.decode_round(payload)
    empty = json.dumps({"v": 1, "night": {"type": "night", "players": ["Ann", ""]}, "index": 0,
                        "phase": "waiting", "tables": []}).encode()
    with pytest.raises(messages.BadMessage, match="player 2 has an empty name"):
        messages.decode_round(empty)
    late = json.dumps({"v": 1, "night": {"type": "night", "players": ["Ann", "Bea"]}, "index": 1, "phase": "between",
                       "tables": [], "joined": ["bea"]}).encode()
    with pytest.raises(messages.BadMessage, match="'bea' is already playing"):
        messages.decode_round(late)
