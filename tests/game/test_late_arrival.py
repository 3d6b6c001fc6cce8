"""A late arrival between rounds: a `join` line; ghosts leave or the seats are drawn again."""

from __future__ import annotations

import random

import pytest

from appliance.game.events import Roll
from appliance.game.night import Night
from appliance.game.rules import HouseRules
from appliance.game.table import GameError
from appliance.nightlog import LogError, dumps, join_line, night_line, replay, round_line

PLAYERS = tuple(f"P{i:02d}" for i in range(13))


def play_round(night: Night, lines: list[str]) -> None:
    """Every table rolls its target until the round is complete (21 ends the head table)."""
    plan = night.next_plan()
    night.start_round(plan)
    lines.append(dumps(round_line(plan)))
    rng = random.Random(len(lines))
    while not night.current.complete:
        for n, t in night.current.tables.items():
            if not t.done and not night.current.complete:
                dice = tuple(rng.randint(1, 6) for _ in range(3))
                night.apply(Roll(n, dice))
                lines.append(dumps({"type": "roll", "table": n, "dice": list(dice)}))
    night.close_round()


def test_a_newcomer_takes_a_ghosts_seat_and_replay_agrees() -> None:
    rules = HouseRules(sets=1)
    night = Night(PLAYERS, rules, random.Random(3))
    lines = [dumps(night_line(PLAYERS, rules, 3))]
    assert len(night.layout.ghosts) == 3
    play_round(night, lines)
    night.add_player("Zoe")
    lines.append(dumps(join_line("Zoe")))
    assert night.layout.ghosts == ("Ghost 1", "Ghost 2")
    plan = night.next_plan()
    seated = [p for t in plan.tables for p in t]
    assert "Zoe" in seated and "Ghost 3" not in seated and len(plan.tables) == 4
    play_round(night, lines)
    assert night.cards["Zoe"].marks[0] == "" and night.cards["Zoe"].marks[1] in ("W", "L")
    mine = night.finish()
    again = replay(lines)
    assert again.standings == mine.standings
    assert {p: c.wins for p, c in again.cards.items()} == {p: c.wins for p, c in mine.cards.items()}


def test_a_newcomer_who_needs_a_new_table_gets_a_fresh_draw() -> None:
    players = PLAYERS[:12]
    night = Night(players, HouseRules(sets=1), random.Random(5))
    play_round(night, [])
    night.add_player("Zoe")
    plan = night.next_plan()
    assert len(plan.tables) == 4
    assert sorted(p for t in plan.tables for p in t) == sorted((*players, "Zoe", "Ghost 1", "Ghost 2", "Ghost 3"))


def test_no_join_during_a_round_nor_a_twin() -> None:
    night = Night(PLAYERS[:12], HouseRules(), random.Random(5))
    night.start_round()
    with pytest.raises(GameError, match="only between rounds"):
        night.add_player("Zoe")
    lines = [dumps(night_line(PLAYERS[:12], HouseRules(), 5)), dumps(join_line("p00"))]
    with pytest.raises(LogError, match="line 2: 'p00' is already playing"):
        replay(lines)
