"""A table's round and the room's bell, rule by rule."""

from __future__ import annotations

import pytest

from appliance.game.events import Call, Roll, Undo
from appliance.game.round import RoomRound, RoundSetup
from appliance.game.rules import HouseRules
from appliance.game.table import GameError, TableRound, TableSetup

SEATS = ("Stacy", "Carol", "Wanda", "Hannah")
OTHER = ("Ann", "Bea", "Cat", "Dot")


def table(target=1, rules=HouseRules(), seats=SEATS, **kw) -> TableRound:
    return TableRound(TableSetup(1, seats, target, rules, is_head=True, **kw))


def room(target=1, rules=HouseRules(), tables=(SEATS, OTHER)) -> RoomRound:
    setups = tuple(TableSetup(n, seats, target, rules, is_head=(n == 1)) for n, seats in enumerate(tables, 1))
    return RoomRound(RoundSetup(1, target, setups))


def rolls(r, number, *dice_list):
    out = []
    for dice in dice_list:
        out.append(r.apply(Roll(number, dice)))
    return out


def test_turn_goes_on_while_scoring_and_dice_pass_left():
    t = table()
    t.apply(Roll(1, (1, 2, 3)))
    assert t.roller == "Stacy"
    t.apply(Roll(1, (2, 2, 3)))
    assert t.roller == "Carol"
    t.apply(Roll(1, (4, 4, 3)))
    assert t.roller == "Wanda"
    assert t.points == [1, 0]


def test_uncalled_bunco_scores_as_plain_dice_and_call_upgrades():
    t = table(target=2)
    notes = t.apply(Roll(1, (2, 2, 2)))
    assert "press_bunco" in notes and t.points == [3, 0]
    notes = t.apply(Call(1))
    assert "bunco_called" in notes and "traveling" in notes and "reached" in notes
    assert t.points == [21, 0] and t.tallies["Stacy"].buncos == 1
    # the window closes at the next roll: a later press is a false call
    t.apply(Roll(1, (1, 3, 4)))
    assert t.apply(Call(1)) == ("false_call",)
    assert t.points == [21, 0] and t.false_calls == 1


def test_call_too_late_leaves_plain_points():
    t = table(target=2)
    t.apply(Roll(1, (2, 2, 2)))
    t.apply(Roll(1, (2, 5, 5)))
    assert t.apply(Call(1)) == ("false_call",)
    assert t.points == [4, 0] and "Stacy" not in t.tallies


def test_call_window_turn_allows_a_call_later_in_the_turn():
    t = table(target=2, rules=HouseRules(call_window="turn"))
    t.apply(Roll(1, (2, 2, 2)))
    t.apply(Roll(1, (2, 5, 5)))
    assert "bunco_called" in t.apply(Call(1))
    assert t.points == [22, 0]


def test_false_call_with_nothing_showing_changes_nothing():
    t = table()
    t.apply(Roll(1, (1, 2, 3)))
    before = list(t.points)
    assert t.apply(Call(1)) == ("false_call",)
    assert t.points == before


def test_wipeout_zeroes_team_and_ends_turn():
    t = table(target=3, rules=HouseRules(wipeout=True))
    t.apply(Roll(1, (3, 3, 1)))
    assert t.points == [2, 0]
    assert "wipeout" in t.apply(Roll(1, (1, 1, 1)))
    assert t.points == [0, 0] and t.roller == "Carol" and t.tallies["Stacy"].wipeouts == 1


def test_head_table_reaching_target_rings_bell_others_finish_their_turn():
    r = room()
    rolls(r, 2, (1, 2, 3))  # Ann mid-turn at table 2 with 1 point
    rolls(r, 1, (1, 1, 1))
    r.apply(Call(1))
    assert r.bell
    assert r.table(1).phase == "finishing" and r.table(2).phase == "finishing"
    rolls(r, 2, (1, 4, 4), (5, 5, 6))  # Ann scores once more, then her turn ends: table 2 done
    assert r.table(2).done and r.table(2).points == [2, 0]
    with pytest.raises(GameError):
        r.apply(Roll(2, (1, 1, 2)))
    rolls(r, 1, (2, 3, 4))
    assert r.complete
    assert [res.winners for res in r.results()] == [("Stacy", "Wanda"), ("Ann", "Cat")]


def test_table_between_turns_stops_at_the_bell():
    r = room()
    rolls(r, 2, (2, 2, 3))  # Ann's turn over; Bea holds the dice but has not rolled
    rolls(r, 1, (1, 1, 1))
    r.apply(Call(1))
    assert r.table(2).done and r.table(2).points == [0, 0] or r.table(2).phase == "roll_off"


def test_tie_goes_to_a_pass_rolloff():
    r = room()
    rolls(r, 2, (1, 2, 3), (2, 3, 4), (1, 5, 5), (2, 2, 3))  # Ann 1, Bea 1 -> tied 1:1, Cat up
    rolls(r, 1, (1, 1, 1))
    r.apply(Call(1))
    t2 = r.table(2)
    # Cat had not rolled yet when the bell rang: table 2 stops tied and rolls off
    assert t2.phase == "roll_off" and t2.roller == "Ann"
    rolls(r, 2, (2, 3, 4), (1, 3, 4), (5, 5, 2), (6, 6, 2))  # Ann 0, Bea 1 then 0, Cat 0
    assert not t2.done and t2.roller == "Dot"
    rolls(r, 2, (2, 3, 4))  # Dot 0: the pass is over, Them lead 2:1
    assert t2.done and t2.result().winners == ("Bea", "Dot")


def test_rolloff_first_target_and_race():
    first = table(rules=HouseRules(roll_off="first_target"))
    first.apply(Roll(1, (2, 3, 4)))  # Stacy, no point; nobody scored
    first.apply(Roll(1, (2, 3, 4)))
    first._on_bell()  # bell between turns: 0:0 tie
    assert first.phase == "roll_off"
    first.apply(Roll(1, (2, 3, 4)))  # Stacy misses
    first.apply(Roll(1, (1, 3, 4)))  # Carol shows the target: Them win
    assert first.done and first.result().winners == ("Carol", "Hannah")

    race = table(rules=HouseRules(roll_off="race"))
    race._on_bell()
    assert race.expected_dice == 1
    for die in (2, 1, 2, 3, 1):  # Us 2+2+1=5 reaches 5 on the fifth die
        race.apply(Roll(1, (die,)))
    assert race.done and race.result().winners == ("Stacy", "Wanda")


def test_every_table_variant_each_table_ends_on_its_own():
    r = room(rules=HouseRules(round_end="every_table", points_to_win=11))
    rolls(r, 2, (1, 1, 1))
    r.apply(Call(2))
    assert r.table(2).done and not r.bell and not r.table(1).done
    rolls(r, 1, (1, 1, 1))
    r.apply(Call(1))
    assert r.complete


def test_head_bunco_ends_round_at_once():
    r = room(rules=HouseRules(bunco_ends_round="head_table"))
    rolls(r, 2, (1, 3, 4))
    rolls(r, 1, (1, 1, 1))
    r.apply(Call(1))
    assert r.table(1).done and r.bell
    assert r.table(2).phase == "finishing"


def test_four_dice_true_bunco_ends_round_anywhere():
    rules = HouseRules(dice=4, traveling_trio=(1, 2, 3, 4))
    r = room(rules=rules)
    rolls(r, 1, (1, 2, 3, 4))
    rolls(r, 2, (1, 1, 1, 1))
    r.apply(Call(2))
    assert r.bell and r.table(2).done and r.table(1).phase == "finishing"


def test_undo_drops_last_roll_and_unrings_bell():
    r = room()
    rolls(r, 2, (1, 2, 3))
    rolls(r, 1, (1, 1, 1))
    r.apply(Call(1))
    assert r.bell
    r.apply(Undo(1))
    assert not r.bell and r.table(1).points == [0, 0] and r.table(1).roller == "Stacy"
    assert r.table(2).points == [1, 0] and r.table(2).phase == "playing"
    rolls(r, 1, (1, 1, 2))
    assert r.table(1).points == [2, 0]


def test_ghost_partner_rolls_for_ghost():
    seats = ("Ann", "Bea", "Cat", "Ghost 1")
    t = TableRound(TableSetup(1, seats, 1, HouseRules(), ghosts=frozenset({"Ghost 1"}), is_head=True))
    for dice in ((2, 3, 4), (2, 3, 4), (2, 3, 4)):
        t.apply(Roll(1, dice))
    assert t.roller == "Bea"  # the ghost's turn: her partner rolls twice
    t.apply(Roll(1, (1, 1, 1)))
    t.apply(Call(1))
    assert t.tallies["Bea"].buncos == 1 and "Ghost 1" not in t.tallies
    assert t.points == [0, 21]


def test_individual_table_each_for_herself():
    t = TableRound(TableSetup(1, ("Ann", "Bea", "Cat"), 1, HouseRules(), individual=True, is_head=True))
    t.apply(Roll(1, (1, 3, 4)))
    t.apply(Roll(1, (2, 3, 4)))
    assert t.points == [1, 0, 0] and t.roller == "Bea"


def test_first_round_draw_high_die_starts_ties_roll_again():
    t = table(rules=HouseRules(first_roller="high_die"), draw_first=True)
    assert t.phase == "draw" and t.expected_dice == 1
    for die in (3, 6, 2, 6):  # Carol and Hannah tie on 6
        t.apply(Roll(1, (die,)))
    assert t.phase == "draw" and t.roller == "Carol"
    t.apply(Roll(1, (2,)))
    t.apply(Roll(1, (5,)))
    assert t.phase == "playing" and t.roller == "Hannah"


def test_traveling_trio_and_white_elephant():
    t = table(rules=HouseRules(traveling="trio", traveling_trio=(1, 2, 3), white_elephant=True))
    assert "traveling" in t.apply(Roll(1, (3, 1, 2)))
    assert t.traveling == ["Stacy"]
    notes = t.apply(Roll(1, (4, 4, 4)))
    assert "white_elephant" in notes and t.tallies["Stacy"].white_elephants == 1


def test_bad_rolls_are_refused():
    t = table()
    with pytest.raises(GameError):
        t.apply(Roll(1, (1, 2)))
    with pytest.raises(GameError):
        t.apply(Roll(1, (1, 2, 7)))
    with pytest.raises(GameError):
        t.apply(Undo(1))
