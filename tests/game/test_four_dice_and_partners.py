"""The 4-dice variant switched on by itself, and a round line that keeps last round's partners."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from appliance.config import load_rules
from appliance.errors import ConfigError, UserError
from appliance.game.events import Roll
from appliance.game.night import Night
from appliance.game.rules import HouseRules
from appliance.game.seating import SeatPlan, check_partners, plan_layout
from appliance.nightlog import dumps, replay, result_json
from appliance.simulate import simulate_night

DATA = Path(__file__).parent / "data"
WORKED = (DATA / "worked_example.jsonl").read_text().splitlines()  # one round: Stacy Carol Wanda Hannah


def test_four_dice_alone_in_a_nights_rules():
    rules = HouseRules.from_mapping({"dice": 4})
    assert rules.dice == 4 and rules.traveling == "bunco" and rules.bunco_end == "any_table"


def test_house_rules_file_with_four_dice(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text("dice = 4\n")
    assert load_rules(path).dice == 4
    path.write_text("[rules]\ndice = 4\nsets = 1\n")
    assert (load_rules(path).dice, load_rules(path).sets) == (4, 1)


@pytest.mark.parametrize("text", [
    "dice = 4\ntraveling = 'trio'\n",                              # the 3-dice default trio, now used
    "traveling = 'trio'\ntraveling_trio = [1, 2, 7]\n",
    "dice = 4\ntraveling = 'trio'\ntraveling_trio = [1, 2, 3]\n",
])
def test_the_trio_is_checked_when_traveling_is_by_trio(tmp_path, text):
    path = tmp_path / "house.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as err:
        load_rules(path)
    assert err.value.key == "traveling_trio" and str(path) in str(err.value)


def test_four_dice_trio_accepted_when_it_has_four_faces():
    rules = HouseRules.from_mapping({"dice": 4, "traveling": "trio", "traveling_trio": [1, 2, 3, 4]})
    assert rules.traveling_trio == (1, 2, 3, 4)


@settings(max_examples=10, deadline=None)
@given(players=st.integers(2, 16), seed=st.integers(0, 10**6))
def test_a_four_dice_night_plays_and_replays(players, seed):
    """`{"dice": 4}` is all the night line says; every roll has 4 dice; the log re-scores the same."""
    rules = HouseRules.from_mapping({"dice": 4, "sets": 1})
    names = tuple(f"P{i}" for i in range(players))
    lines: list[str] = []
    result, stats = simulate_night(names, rules, seed, emit=lambda line: lines.append(dumps(line)))
    header = json.loads(lines[0])
    assert header["rules"] == {"dice": 4, "sets": 1}
    plays = [json.loads(x)["dice"] for x in lines[1:] if json.loads(x)["type"] == "roll"]
    assert stats.rolls > 0 and stats.rolls == sum(len(d) == 4 for d in plays)
    assert all(len(d) in (1, 4) for d in plays)  # 1: a one-die draw or race roll-off
    assert len(result.rounds) == 6
    assert result_json(replay(lines)) == result_json(result)


def test_replay_of_a_four_dice_log_with_a_true_bunco():
    """Round 1 (target 1): four 1s called is a True Bunco, 21 points, the round ends at once."""
    lines = [
        dumps({"type": "night", "players": ["Ann", "Bea", "Cat", "Dot"], "rules": {"dice": 4, "sets": 1}, "seed": 3}),
        dumps({"type": "round", "tables": [["Ann", "Bea", "Cat", "Dot"]]}),
        dumps({"type": "roll", "table": 1, "dice": [1, 2, 3, 4]}),
        dumps({"type": "roll", "table": 1, "dice": [1, 1, 1, 1]}),
        dumps({"type": "call", "table": 1}),
    ]
    result = replay(lines)
    (table,) = result.rounds[0].results
    assert table.teams == ((("Ann", "Cat"), 22), (("Bea", "Dot"), 0))
    assert result.cards["Ann"].buncos == 1


# ---- partners ----------------------------------------------------------------------------
def _second_round(tables: list[list[str]]) -> list[str]:
    return WORKED + [dumps({"type": "round", "tables": tables})]


def test_a_round_line_repeating_last_rounds_partners_stops_the_replay():
    lines = _second_round([["Stacy", "Carol", "Wanda", "Hannah"]])  # A B C D twice running
    with pytest.raises(UserError) as err:
        replay(lines, source="night.jsonl")
    message = str(err.value)
    assert message.startswith(f"night.jsonl, line {len(lines)}: table 1: ")
    assert "Stacy and Wanda were partners last round too" in message


@pytest.mark.parametrize("tables", [
    [["Carol", "Wanda", "Hannah", "Stacy"]],  # the same pairs, seats turned one place
    [["Wanda", "Carol", "Stacy", "Hannah"]],  # the same pairs, sides swapped
    [["Hannah", "Stacy", "Carol", "Wanda"]],  # turned the other way
])
def test_kept_partners_are_refused_however_the_seats_turn(tables):
    with pytest.raises(UserError, match="were partners last round too"):
        replay(_second_round(tables))


def test_a_round_line_with_new_partners_is_accepted():
    lines = _second_round([["Stacy", "Carol", "Hannah", "Wanda"]])  # Stacy-Hannah, Carol-Wanda
    lines.append(dumps({"type": "roll", "table": 1, "dice": [2, 2, 1]}))
    result = replay(lines)
    assert len(result.rounds) == 1  # round 2 is open, round 1 scored


def test_partner_check_allows_what_the_layout_cannot_change():
    """Individual tables have no partners; a ghost is an empty seat, not a partner."""
    one_table = plan_layout(3, HouseRules())
    plan = SeatPlan((("A", "B", "C"),))
    check_partners(plan, plan, one_table)  # each for herself: nothing to keep
    four_alone = plan_layout(4, HouseRules(four_players="individual"))
    plan = SeatPlan((("A", "B", "C", "D"),))
    check_partners(plan, plan, four_alone)
    ghosts = plan_layout(7, HouseRules())  # two tables, one ghost
    plan = SeatPlan((("A", "B", "C", "D"), ("E", "F", "G", "Ghost 1")))
    turned = SeatPlan((("A", "D", "B", "C"), ("E", "G", "Ghost 1", "F")))  # E-Ghost 1 again: allowed
    check_partners(turned, plan, ghosts)
    kept = SeatPlan((("A", "D", "B", "C"), ("E", "Ghost 1", "G", "F")))  # E-G again: refused
    with pytest.raises(ValueError, match="table 2: E and G were partners"):
        check_partners(kept, plan, ghosts)


@settings(max_examples=25, deadline=None)
@given(players=st.integers(4, 24), seed=st.integers(0, 10**6),
       rotation=st.sampled_from(["ladder", "head_losers_last", "losers_walk"]))
def test_the_engines_own_rotation_passes_the_partner_check(players, seed, rotation):
    """Every seat plan the engine makes goes through the check (Night.start_round); a night plays out."""
    result, _ = simulate_night(tuple(f"P{i}" for i in range(players)), HouseRules(sets=2, rotation=rotation), seed)
    assert len(result.rounds) == 12


def test_night_start_round_refuses_a_kept_pair_directly():
    night = Night(("A", "B", "C", "D"), HouseRules(sets=1), random.Random(0))
    plan = SeatPlan((("A", "B", "C", "D"),))
    room = night.start_round(plan)
    for _ in range(7):  # uncalled 1-1-1 in round 1: 3 points a roll, 21 after seven
        night.apply(Roll(1, (1, 1, 1)))
    night.apply(Roll(1, (2, 3, 4)))  # the bell has rung; a roll that scores nothing ends the turn
    assert room.complete
    with pytest.raises(ValueError, match="A and C were partners last round too"):
        night.start_round(plan)


@settings(max_examples=24, deadline=None)
@given(st.permutations(["Stacy", "Carol", "Wanda", "Hannah"]))
def test_a_second_round_is_refused_exactly_when_it_keeps_the_pairs(seats):
    """Round 1 paired Stacy-Wanda and Carol-Hannah (opposite seats); any seating of round 2
    that pairs them again is refused, and every other seating is played."""
    pairs = {frozenset((seats[0], seats[2])), frozenset((seats[1], seats[3]))}
    lines = _second_round([seats])
    if pairs == {frozenset(("Stacy", "Wanda")), frozenset(("Carol", "Hannah"))}:
        with pytest.raises(UserError, match=f"line {len(lines)}: table 1: .* were partners last round too"):
            replay(lines)
    else:
        assert len(replay(lines).rounds) == 1
