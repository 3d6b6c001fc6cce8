"""The night: seating and rotation for any player count, scorecards, prizes, replay."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from appliance.errors import UserError
from appliance.game.night import Night
from appliance.game.prizes import Scorecard, award_prizes, standings
from appliance.game.rules import CHOICES, HouseRules
from appliance.game.seating import draw_seats, next_seats, plan_layout
from appliance.game.table import TableResult
from appliance.nightlog import dumps, replay, result_json
from appliance.simulate import simulate_night

DATA = Path(__file__).parent / "data"


def partner_pairs(plan, layout):
    pairs = set()
    for seats, slot in zip(plan.tables, layout.slots):
        if not slot.individual:
            pairs |= {frozenset((seats[0], seats[2])), frozenset((seats[1], seats[3]))}
    return pairs


@settings(max_examples=60, deadline=None)
@given(
    players=st.integers(2, 40),
    scheme=st.sampled_from(sorted(CHOICES["rotation"])),
    odd=st.sampled_from(sorted(CHOICES["odd_players"])),
    seed=st.integers(0, 2**32),
)
def test_every_player_seated_once_and_partners_change(players, scheme, odd, seed):
    rules = HouseRules(rotation=scheme, odd_players=odd)
    names = tuple(f"P{i}" for i in range(players))
    layout = plan_layout(players, rules)
    rng = random.Random(seed)
    plan = draw_seats(names, layout, rng)
    ghosts = set(layout.ghosts)
    previous = None
    for index in range(24):
        seated = [p for t in plan.tables for p in t]
        assert sorted(seated) == sorted(names + layout.ghosts)
        for seats, slot in zip(plan.tables, layout.slots):
            assert len(seats) == slot.size
            if not slot.individual:  # a team of two ghosts would have nobody to roll
                assert not {seats[0], seats[2]} <= ghosts and not {seats[1], seats[3]} <= ghosts
        pairs = partner_pairs(plan, layout)
        if previous is not None:
            real_repeats = {p for p in pairs & previous if not p & ghosts}
            assert not real_repeats, f"round {index + 1}: same partner twice running: {real_repeats}"
        previous = pairs
        results = tuple(
            TableResult(n, (), rng.randrange(slot.size if slot.individual else 2), (), ())
            for n, slot in enumerate(layout.slots, start=1)
        )
        plan = next_seats(plan, results, layout, index + 1)


@pytest.mark.parametrize("players, sizes", [
    (2, [2]), (3, [3]), (4, [4]), (5, [3, 2]), (6, [4, 2]), (7, [4, 3]), (8, [4, 4]),
    (9, [4, 3, 2]), (10, [4, 4, 2]), (11, [4, 4, 3]), (12, [4, 4, 4]),
])
def test_individual_layouts_of_the_party_pack(players, sizes):
    layout = plan_layout(players, HouseRules(odd_players="individual"))
    assert [s.size for s in layout.slots] == sizes and not layout.ghosts


def test_eleven_players_with_a_ghost():
    layout = plan_layout(11, HouseRules())
    assert layout.ghosts == ("Ghost 1",) and layout.tables == 3


def test_ladder_moves_winners_up_and_losers_down():
    rules = HouseRules()
    layout = plan_layout(12, rules)
    plan_tables = (("A1", "A2", "A3", "A4"), ("B1", "B2", "B3", "B4"), ("C1", "C2", "C3", "C4"))
    from appliance.game.seating import SeatPlan
    results = tuple(TableResult(n, (), 0, (), ()) for n in (1, 2, 3))  # "Us" (seats 0, 2) win everywhere
    nxt = next_seats(SeatPlan(plan_tables), results, layout, 0)
    assert set(nxt.tables[0]) == {"A1", "A3", "B1", "B3"}
    assert set(nxt.tables[1]) == {"A2", "A4", "C1", "C3"}
    assert set(nxt.tables[2]) == {"B2", "B4", "C2", "C4"}


@settings(max_examples=15, deadline=None)
@given(players=st.integers(2, 24), seed=st.integers(0, 10**6),
       scheme=st.sampled_from(sorted(CHOICES["rotation"])),
       roll_off=st.sampled_from(sorted(CHOICES["roll_off"])),
       wipeout=st.booleans(), high_die=st.booleans())
def test_simulated_night_cards_and_replay_agree(players, seed, scheme, roll_off, wipeout, high_die):
    rules = HouseRules(sets=1, rotation=scheme, roll_off=roll_off, wipeout=wipeout,
                       first_roller="high_die" if high_die else "scorekeeper")
    names = tuple(f"P{i}" for i in range(players))
    lines: list[str] = []
    result, _ = simulate_night(names, rules, seed, forget=0.1, emit=lambda line: lines.append(dumps(line)))
    assert len(result.rounds) == 6
    for name, card in result.cards.items():
        assert card.wins + card.losses == 6, name
    assert sorted(result.standings) == sorted(names)
    assert result_json(replay(lines)) == result_json(result)


def test_worked_example_replays_to_the_rules_md_tally():
    result = replay((DATA / "worked_example.jsonl").read_text().splitlines())
    (table,) = result.rounds[0].results
    assert table.teams == ((("Stacy", "Wanda"), 8), (("Carol", "Hannah"), 23))
    assert table.winners == ("Carol", "Hannah")
    hannah = result.cards["Hannah"]
    assert (hannah.wins, hannah.buncos) == (1, 1)
    assert result.cards["Wanda"].mini_buncos == 1


@pytest.mark.parametrize("line, problem", [
    ('{"type": "roll", "table": 1, "dice": [1, 1, 7]}', "1-6"),
    ('{"type": "roll", "table": 1, "dice": [1, 1]}', "expected 3 dice"),
    ('{"type": "roll", "table": 4, "dice": [1, 1, 2]}', "no table 4"),
    ('{"type": "roll", "table": 1, "dice": [1, 1, 2], "player": "Wanda"}', "Stacy's roll"),
    ('{"type": "round", "tables": [["Stacy", "Carol", "Wanda", "Hannah"]]}', "the current round is not over"),
    ('{"type": "dance", "table": 1}', "unknown line type"),
    ('not json', "not JSON"),
])
def test_impossible_line_stops_replay_with_its_number(line, problem):
    head = (DATA / "worked_example.jsonl").read_text().splitlines()[:2]
    with pytest.raises(UserError) as err:
        replay(head + [line], source="night.jsonl")
    assert "night.jsonl, line 3" in str(err.value) and problem in str(err.value)


def test_round_line_with_an_unknown_player():
    head = (DATA / "worked_example.jsonl").read_text().splitlines()[:1]
    with pytest.raises(UserError, match="line 2: unknown player 'Zelda'"):
        replay(head + ['{"type": "round", "tables": [["Stacy", "Carol", "Wanda", "Zelda"]]}'])


def test_roll_after_the_round_is_over_at_that_table():
    lines = (DATA / "worked_example.jsonl").read_text().splitlines()
    lines[0] = lines[0].replace('"sets": 1', '"sets": 1, "round_end": "every_table"')
    lines.insert(3, '{"type": "round", "tables": [["Stacy", "Carol", "Wanda", "Hannah"]]}')
    with pytest.raises(UserError, match="line 4: the current round is not over"):
        replay(lines)


def test_prizes_one_a_player_with_bunco_tiebreak():
    cards = {
        "Ann": Scorecard(["W"] * 5 + ["L"], buncos=2),
        "Bea": Scorecard(["W"] * 5 + ["L"], buncos=1),
        "Cat": Scorecard(["W"] * 3 + ["L"] * 3, buncos=0, mini_buncos=2),
        "Dot": Scorecard(["L"] * 6, buncos=0),
    }
    prizes = award_prizes(cards, HouseRules().prizes, ["Bea", "Ann"], "Ann", random.Random(1))
    assert prizes["most_wins"] == "Ann"  # tied on wins, more Buncos
    assert prizes["most_buncos"] == "Bea"  # Ann has her prize; the next best
    assert prizes["most_mini_buncos"] == "Cat"
    assert prizes["last_bunco"] is None  # both Bunco rollers already hold a prize
    assert prizes["half_and_half"] is None  # Cat took a higher prize
    assert prizes["most_losses"] == "Dot"
    assert prizes["most_wipeouts"] is None
    assert prizes["traveling"] == "Ann"  # outside the one-prize limit
    assert prizes["booby"] is None  # nobody is left without a prize


def test_standings_most_wins_then_buncos_then_rolloff_is_seeded():
    cards = {n: Scorecard(["W", "L"], buncos=1) for n in ("Ann", "Bea", "Cat")}
    cards["Dot"] = Scorecard(["W", "W"])
    orders = {tuple(standings(cards, random.Random(s))) for s in range(20)}
    assert all(o[0] == "Dot" for o in orders) and len(orders) > 1
    assert standings(cards, random.Random(3)) == standings(cards, random.Random(3))


def test_ghost_never_on_the_prize_list():
    names = tuple(f"P{i}" for i in range(11))
    result, _ = simulate_night(names, HouseRules(sets=1), 5)
    assert not any(w and w.startswith("Ghost") for w in result.prizes.values())
    assert all(not n.startswith("Ghost") for n in result.cards)


def test_one_table_individual_night():
    result, _ = simulate_night(("Ann", "Bea", "Cat"), HouseRules(sets=1), 3)
    for r in result.rounds:
        (t,) = r.results
        assert len(t.teams) == 3 and len(t.winners) == 1
    assert sum(c.wins for c in result.cards.values()) == 6


def test_cli_simulate_log_replays_identically(tmp_path):
    log = tmp_path / "night.jsonl"
    cmd = [sys.executable, "-m", "appliance.cli"]
    sim = subprocess.run(cmd + ["simulate", "--players", "12", "--sets", "4", "--seed", "1", "--log", str(log),
                                "--json"], capture_output=True, text=True, check=True)
    rep = subprocess.run(cmd + ["replay", "--json", str(log)], capture_output=True, text=True, check=True)
    assert json.loads(sim.stdout) == json.loads(rep.stdout)
    assert len(json.loads(rep.stdout)["rounds"]) == 24


def test_night_refuses_a_twenty_fifth_round():
    night = Night(("A", "B"), HouseRules(sets=1), random.Random(0))
    assert night.total_rounds == 6
