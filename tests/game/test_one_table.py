"""One-table Bunco: four players in teams (the default) or each for herself, 2-3 players always
each for herself; and a night stopped mid-round still credits the Buncos rolled in it."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from appliance.errors import ConfigError
from appliance.game.events import Call, Roll
from appliance.game.night import Night
from appliance.game.rules import CHOICES, HouseRules
from appliance.game.seating import plan_layout
from appliance.simulate import simulate_night

FOUR = ("Ann", "Bea", "Cat", "Dot")


def test_four_players_default_to_two_teams_and_may_play_each_for_herself():
    assert HouseRules().four_players == "teams"
    teams = plan_layout(4, HouseRules())
    assert [(s.size, s.individual) for s in teams.slots] == [(4, False)]
    alone = plan_layout(4, HouseRules(four_players="individual"))
    assert [(s.size, s.individual) for s in alone.slots] == [(4, True)] and alone.ghosts == ()


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("four", sorted(CHOICES["four_players"]))
def test_two_or_three_players_are_always_each_for_herself(players, four):
    layout = plan_layout(players, HouseRules(four_players=four))
    assert [(s.size, s.individual) for s in layout.slots] == [(players, True)] and layout.ghosts == ()


def test_the_setting_is_checked_and_named():
    with pytest.raises(ConfigError) as err:
        HouseRules.from_mapping({"four_players": "pairs"}, source="unit.toml")
    assert "four_players" in str(err.value) and "unit.toml" in str(err.value)
    assert HouseRules.from_mapping({"four_players": "individual"}).to_mapping() == {"four_players": "individual"}


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4), dice=st.sampled_from([3, 4]),
       four=st.sampled_from(sorted(CHOICES["four_players"])))
def test_each_for_herself_nights_have_one_winner_a_round(seed, players, dice, four):
    names = FOUR[:players]
    rules = HouseRules(sets=1, dice=dice, four_players=four, traveling_trio=(1, 2, 3, 4)[:dice])
    result, _ = simulate_night(names, rules, seed)
    alone = players < 4 or four == "individual"
    assert len(result.rounds) == 6
    for r in result.rounds:
        (t,) = r.results
        assert len(t.teams) == (players if alone else 2)
        assert len(t.winners) == (1 if alone else 2)
        assert set(t.winners) | set(t.losers) == set(names) and not set(t.winners) & set(t.losers)
    for name in names:
        card = result.cards[name]
        assert card.wins + card.losses == 6
    assert sum(result.cards[n].wins for n in names) == 6 * (1 if alone else 2)


def test_a_night_stopped_mid_round_credits_its_buncos_once():
    night = Night(FOUR, HouseRules(sets=1), random.Random(5))
    room = night.start_round()
    roller = room.table(1).roller
    night.apply(Roll(1, (1, 1, 1)))
    night.apply(Call(1))
    assert not room.complete
    first = night.finish()
    assert first.cards[roller].buncos == 1 and first.cards[roller].marks == []
    assert night.finish().cards[roller].buncos == 1          # asking again adds nothing
    assert night.cards[roller].buncos == 0                    # the live card waits for the round's end
    while not room.complete:                                  # the round goes on and ends
        t = room.table(1)
        night.apply(Roll(1, (2, 3, 4) if t.phase != "roll_off" else (2, 3, 4)[: t.expected_dice]))
    done = night.finish()
    assert done.cards[roller].buncos == 1 and len(done.cards[roller].marks) == 1
