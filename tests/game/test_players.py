"""Player lists: every list passes appliance.game.players before anything is logged."""

from __future__ import annotations

import random

import pytest

from appliance.game.night import Night
from appliance.game.players import MAX_NAME, PlayerError, check_newcomer, check_players, split_list
from appliance.game.rules import HouseRules
from appliance.nightlog import LogError, replay


def test_a_good_list_is_kept_in_order_with_spaces_tidied() -> None:
    assert check_players([" Ann", "Bea  Lee", "Cy"]) == ("Ann", "Bea Lee", "Cy")


@pytest.mark.parametrize("names, says", [
    (["Ann", "Bea", "ann", "Dot"], "'ann' is listed twice (as 'Ann' and 'ann')"),
    (["Ann", "Bea", "Ann", "Dot"], "'Ann' is listed twice"),
    (["Ann", "", "Cy"], "player 2 has an empty name"),
    (["Ann", "   ", "Cy"], "player 2 has an empty name"),
    (["Ann"], "1 player: Bunco needs at least 2"),
    ([], "0 players: Bunco needs at least 2"),
    (["Ann", "X" * (MAX_NAME + 1)], f"is longer than {MAX_NAME} characters"),
    (["Ann", "Ghost 1"], "the ghosts'"),
    (["Ann", 7], "player 2 is not a name: 7"),
    (["Ann", "Bea\x07"], "cannot be shown"),
])
def test_a_bad_list_names_the_player(names: list[object], says: str) -> None:
    with pytest.raises(PlayerError) as err:
        check_players(names)
    assert says in str(err.value)
    assert "\n" not in str(err.value)


def test_at_most() -> None:
    with pytest.raises(PlayerError, match="5 players: at most 4"):
        check_players(list("ABCDE"), at_most=4)


def test_a_newcomer_must_be_new_case_insensitively() -> None:
    assert check_newcomer(" Zoe ", ["Ann", "Bea"]) == "Zoe"
    with pytest.raises(PlayerError, match="'bea' is already playing"):
        check_newcomer("bea", ["Ann", "Bea"])


def test_split_list_takes_lines_or_commas_and_keeps_slips() -> None:
    assert split_list("Ann\nBea\r\n\nCy\n") == ("Ann", "Bea", "Cy")
    assert split_list("Ann, Bea,Cy") == ("Ann", " Bea", "Cy")
    assert split_list("Ann,,Cy") == ("Ann", "", "Cy")


def test_the_engine_refuses_a_case_insensitive_twin_and_stray_spaces() -> None:
    with pytest.raises(PlayerError, match="listed twice"):
        Night(("Ann", "Bea", "ANN", "Dot"), HouseRules(), random.Random(1))
    with pytest.raises(PlayerError, match="stray spaces"):
        Night(("Ann ", "Bea"), HouseRules(), random.Random(1))


def test_a_replayed_night_line_with_a_twin_stops_at_line_1() -> None:
    with pytest.raises(LogError, match=r"night.jsonl, line 1: 'ann' is listed twice"):
        replay(['{"type": "night", "players": ["Ann", "Bea", "ann", "Dot"]}'], source="night.jsonl")
