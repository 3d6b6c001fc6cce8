from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from appliance.config import load_rules
from appliance.errors import ConfigError
from appliance.game.rules import HouseRules
from appliance.game.scoring import RollKind, score_roll

RULES = HouseRules()


@given(st.lists(st.integers(1, 6), min_size=3, max_size=3), st.integers(1, 6))
def test_points_match_a_direct_count(dice, target):
    score = score_roll(tuple(dice), target, RULES)
    hits = sum(d == target for d in dice)
    if len(set(dice)) == 1 and dice[0] == target:
        assert score.kind is RollKind.BUNCO
        assert score.points == 3  # uncalled: plain target dice
        assert score.points + score.bunco_bonus == 21
    elif len(set(dice)) == 1:
        assert (score.kind, score.points) == (RollKind.MINI_BUNCO, 5)
    else:
        assert (score.kind, score.points) == (RollKind.PLAIN, hits)
    assert score.scores == (score.points > 0)
    assert score.scoring == tuple(d == target for d in dice) or score.kind is RollKind.MINI_BUNCO


@given(st.lists(st.integers(1, 6), min_size=4, max_size=4), st.integers(1, 6))
def test_four_dice_true_low_high_bunco(dice, target):
    rules = HouseRules(dice=4, traveling_trio=(1, 2, 3, 4))
    score = score_roll(tuple(dice), target, rules)
    if len(set(dice)) == 1:
        face = dice[0]
        expected = RollKind.BUNCO if face == target else RollKind.MINI_BUNCO if face < target else RollKind.HIGH_BUNCO
        assert score.kind is expected
        if expected is RollKind.HIGH_BUNCO:
            assert score.points == 7
        if expected is RollKind.MINI_BUNCO:
            assert score.points == 5
    else:
        assert score.points == sum(d == target for d in dice)


def test_wipeout_only_when_on_and_target_not_one():
    on = HouseRules(wipeout=True)
    assert score_roll((1, 1, 1), 3, on).kind is RollKind.WIPEOUT
    assert not score_roll((1, 1, 1), 3, on).scores
    assert score_roll((1, 1, 1), 1, on).kind is RollKind.BUNCO
    assert score_roll((1, 1, 1), 3, RULES).kind is RollKind.MINI_BUNCO


def test_points_are_settings():
    rules = HouseRules(bunco_points=30, mini_bunco_points=8, target_die_points=2)
    assert score_roll((2, 2, 2), 2, rules).bunco_bonus + score_roll((2, 2, 2), 2, rules).points == 30
    assert score_roll((4, 4, 4), 2, rules).points == 8
    assert score_roll((2, 2, 5), 2, rules).points == 4


def test_defaults_are_the_rules_md_defaults():
    r = HouseRules()
    assert (r.dice, r.points_to_win, r.bunco_points, r.mini_bunco_points, r.sets) == (3, 21, 21, 5, 4)
    assert (r.round_end, r.rotation, r.roll_off, r.wipeout, r.call_window) == (
        "head_table", "ladder", "pass", False, "next_roll")
    assert r.bunco_end == "no" and HouseRules(dice=4, traveling_trio=(1, 2, 3, 4)).bunco_end == "any_table"


@pytest.mark.parametrize("text, key", [
    ("dice = 7", "dice"),
    ("points_to_win = 0", "points_to_win"),
    ("sets = 5", "sets"),
    ("wipeout = 1", "wipeout"),
    ("rotation = 'sideways'", "rotation"),
    ("colour = 'red'", "colour"),
    ("dice = '3'", "dice"),
    ("prizes = ['most_wins', 'biggest_hat']", "prizes"),
])
def test_bad_rules_file_names_key_and_file(tmp_path, text, key):
    path = tmp_path / "house.toml"
    path.write_text(text + "\n")
    with pytest.raises(ConfigError) as err:
        load_rules(path)
    assert err.value.key == key
    assert key in str(err.value) and str(path) in str(err.value)


def test_rules_file_round_trip(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text("[rules]\nwipeout = true\npoints_to_win = 11\nrotation = 'losers_walk'\n")
    rules = load_rules(path)
    assert rules.wipeout and rules.points_to_win == 11 and rules.rotation == "losers_walk"
    assert HouseRules.from_mapping(rules.to_mapping()) == rules
