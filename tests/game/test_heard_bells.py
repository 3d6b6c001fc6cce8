"""A party's bells: each table logs when it heard the bell, and the head and the table
fold the same events into the same table round."""

from __future__ import annotations

import random

import pytest

from appliance.errors import UserError
from appliance.game.events import Bell, Call, Roll, Undo
from appliance.game.night import Night
from appliance.game.rules import HouseRules
from appliance.game.seating import SeatPlan
from appliance.game.table import GameError
from appliance.nightlog import dumps, event_line, night_line, replay, round_line

PLAYERS = tuple(f"P{i}" for i in range(8))
PLAN = SeatPlan((PLAYERS[:4], PLAYERS[4:]))


def night(**kw) -> Night:
    n = Night(PLAYERS, HouseRules(), random.Random(3), **kw)
    n.start_round(PLAN)
    return n


def test_derived_bell_reaches_every_table_at_once():
    n = night()
    n.apply(Roll(1, (1, 1, 1)))
    n.apply(Call(1))  # Bunco: 21 points, the head table reached the target
    assert n.current.bell and n.current.table(2).bell
    with pytest.raises(GameError):
        n.current.apply(Bell(2))


def test_heard_bell_reaches_a_table_only_when_it_logs_it():
    n = night(heard_bells=True)
    n.apply(Roll(2, (1, 2, 3)))            # table 2 is mid-turn (one 1 on target 1)
    n.apply(Roll(1, (1, 1, 1)))
    n.apply(Call(1))
    assert n.current.bell                   # the head knows the bell is due...
    assert not n.current.table(2).bell      # ...table 2 has not heard it yet
    n.apply(Roll(2, (1, 5, 5)))            # so its roller carries on
    n.apply(Roll(2, (4, 5, 6)))            # turn passes: still playing, no bell heard
    assert n.current.table(2).phase == "playing"
    n.apply(Bell(2))                       # heard between turns: the table finishes at once
    assert n.current.table(2).done
    assert not n.current.complete           # the head table has not logged its own bell yet
    n.apply(Bell(1))
    n.apply(Roll(1, (2, 3, 4)))            # the head table's roller finishes her turn
    assert n.current.complete


def test_undo_keeps_the_heard_bell():
    n = night(heard_bells=True)
    n.apply(Roll(2, (1, 2, 3)))
    n.apply(Bell(2))                       # mid-turn: the turn finishes first
    assert n.current.table(2).phase == "finishing"
    n.apply(Roll(2, (1, 1, 4)))
    n.apply(Undo(2))
    t2 = n.current.table(2)
    assert t2.bell and t2.phase == "finishing" and t2.points == [1, 0]


def test_party_table_folds_its_own_table_and_takes_seats_from_the_head():
    n = Night(PLAYERS, HouseRules(), random.Random(3), only=2)
    n.start_round(PLAN)
    assert set(n.current.tables) == {2}
    n.apply(Roll(2, (1, 2, 3)))
    with pytest.raises(GameError, match="head unit"):
        n.next_plan() if n.played else (n.played.append(None), n.next_plan())
    n.played.pop()
    # the head moves on before this table saw its round finish: the head's sheet scores it
    moved = SeatPlan((("P4", "P5", "P7", "P6"), ("P0", "P1", "P3", "P2")))  # everyone with a new partner
    n.start_round(moved)
    assert n.current.setup.round_no == 2 and n.current.table(2).setup.seats == moved.tables[1]


def test_head_and_table_agree_on_the_table_round():
    events = [Roll(2, (1, 2, 3)), Roll(1, (1, 1, 1)), Call(1), Roll(2, (1, 1, 5)),
              Bell(1), Roll(2, (4, 5, 6)), Bell(2)]
    head = night(heard_bells=True)
    table = Night(PLAYERS, HouseRules(), random.Random(3), only=2)
    table.start_round(PLAN)
    for e in events:
        head.apply(e) if not isinstance(e, Bell) else head.current.apply(e)
        if e.table == 2:
            table.apply(e) if not isinstance(e, Bell) else table.current.apply(e)
    assert head.current.table(2).points == table.current.table(2).points == [3, 0]
    assert head.current.table(2).done and table.current.table(2).done


def test_a_party_log_replays_with_its_bell_lines():
    lines = [night_line(PLAYERS, HouseRules(sets=1), 3, heard_bells=True), round_line(PLAN),
             event_line(Roll(1, (1, 1, 1))), event_line(Call(1)), event_line(Bell(1)),
             event_line(Roll(1, (2, 3, 4))), event_line(Roll(2, (1, 3, 4))), event_line(Roll(2, (2, 3, 4))),
             event_line(Bell(2))]
    result = replay([dumps(x) for x in lines])
    assert [r.winners for r in result.rounds[0].results] == [("P0", "P2"), ("P4", "P6")]


def test_a_bell_line_in_a_one_unit_night_is_refused():
    lines = [night_line(PLAYERS, HouseRules(sets=1), 3), round_line(PLAN),
             event_line(Roll(1, (2, 3, 4))), event_line(Bell(2))]
    with pytest.raises(UserError, match="line 4: a 'bell' line"):
        replay([dumps(x) for x in lines])


def test_a_replaced_party_table_catches_up_to_the_heads_round():
    n = Night(PLAYERS, HouseRules(), random.Random(3), only=2)
    n.start_round(PLAN, index=4)
    assert (n.current.setup.set_no, n.current.setup.round_no) == (1, 5)
    with pytest.raises(GameError, match="played already"):
        n.start_round(PLAN, index=2)
    whole = Night(PLAYERS, HouseRules(), random.Random(3))
    with pytest.raises(GameError, match="round 1 is missing"):
        whole.start_round(PLAN, index=1)
