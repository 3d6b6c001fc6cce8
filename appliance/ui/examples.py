"""Example views from the rules' worked example (RULES.md, round 1 at the head table).

Used for the screenshots in docs/ and by the tests, so the pictures people look at are
the frames the tests check.
"""

from __future__ import annotations

from dataclasses import replace

from appliance.ui.view import Banner, Card, Move, Panel, TableView, TeamView


def mid_round() -> TableView:
    """Hannah has just rolled 1-1-1 and called BUNCO!; the head table has 21."""
    return TableView(
        table=1, set_no=1, round_no=1, target=1, points_to_win=21,
        teams=(TeamView("Us", ("Stacy", "Wanda"), 8), TeamView("Them", ("Carol", "Hannah"), 23)),
        phase="playing",
        turn_player="Hannah", turn_partner="Carol", turn_team=1, turn_points=21,
        last_roll=(1, 1, 1), scoring=(True, True, True), last_roller="Hannah",
        banners=(Banner("bunco", "BUNCO!  Hannah +21"),),
        network="online",
    )


def mixed_roll() -> TableView:
    """Stacy's 1-1-3: two dice score, one does not."""
    return TableView(
        table=2, set_no=2, round_no=1, target=1, points_to_win=21,
        teams=(TeamView("Us", ("Stacy", "Wanda"), 2), TeamView("Them", ("Carol", "Hannah"), 0)),
        phase="playing",
        turn_player="Stacy", turn_partner="Wanda", turn_team=0, turn_points=2,
        last_roll=(1, 1, 3), scoring=(True, True, False), last_roller="Stacy",
        network="offline",
    )


def end_of_round() -> TableView:
    """After the bell: Carol and Hannah won; the ladder sends the losers to table 2."""
    return TableView(
        table=1, set_no=1, round_no=1, target=1, points_to_win=21,
        teams=(TeamView("Us", ("Stacy", "Wanda"), 8), TeamView("Them", ("Carol", "Hannah"), 23)),
        phase="over",
        last_roll=(4, 3, 3), scoring=(False, False, False), last_roller="Hannah",
        winners=("Carol", "Hannah"),
        moves=(Move("Carol", 1), Move("Hannah", 1), Move("Stacy", 2), Move("Wanda", 2)),
        network="online", entry="hide",   # a party table rolls again at the head's bell
    )


def one_table() -> TableView:
    """One-table Bunco: four players, each for herself; Wanda is rolling a 4-dice game."""
    return TableView(
        table=1, set_no=1, round_no=4, target=4, points_to_win=21,
        teams=(TeamView("Stacy", ("Stacy",), 6), TeamView("Carol", ("Carol",), 14),
               TeamView("Wanda", ("Wanda",), 9), TeamView("Hannah", ("Hannah",), 3)),
        phase="playing",
        turn_player="Wanda", turn_team=2, turn_points=5,
        last_roll=(4, 4, 2, 6), scoring=(True, True, False, False), last_roller="Wanda",
        banners=(Banner("mini_bunco", "Mini Bunco! Wanda +5"), Banner("white_elephant", "Wanda: take a gift"),
                 Banner("reroll", "Re-roll: 1 die unreadable")),
        network="standalone",
    )


def hand_entry() -> TableView:
    """The camera could not read three throws in a row: Stacy keys her 1-4-? in by hand."""
    return replace(mixed_roll(), table=1, network="online", last_roll=(), scoring=(), last_roller=None,
                   turn_points=0, entry="offer", panel=Panel("entry", "Enter the dice for Stacy", (1, 4, 0)))


def correct_roll() -> TableView:
    """The camera read Hannah's 1-1-1 as 1-1-5; she picked the right faces: confirm the change."""
    return replace(mid_round(), banners=(), panel=Panel("confirm", "Change Hannah's 1 1 5 to 1 1 1?", (1, 1, 1),
                                                        yes="Yes, correct it"))


def round_result_waiting() -> TableView:
    """Table 2 after the round: the result and where its four go stay up until the next bell,
    even when the dice are read before it."""
    return TableView(
        table=2, set_no=1, round_no=3, target=3, points_to_win=21,
        teams=(TeamView("Us", ("Betty", "Fran"), 12), TeamView("Them", ("Dolores", "Gloria"), 9)),
        phase="over", winners=("Betty", "Fran"),
        banners=(Banner("reroll", "Dice read: wait for the next bell"),),
        moves=(Move("Betty", 1), Move("Fran", 1), Move("Dolores", 2), Move("Gloria", 3)),
        network="online", entry="hide",
    )


def night_over() -> TableView:
    """A standalone table at the end of the night: each player's wins, losses and Buncos."""
    return TableView(
        table=1, set_no=4, round_no=6, target=6, points_to_win=21,
        teams=(TeamView("Us", ("Ann", "Cat"), 22), TeamView("Them", ("Bea", "Dot"), 15)),
        phase="over", winners=("Ann", "Cat"), network="standalone", entry="hide", night_over=True,
        cards=(Card("Ann", 15, 9, 3), Card("Cat", 15, 9, 1), Card("Bea", 9, 15, 2), Card("Dot", 9, 15, 0)),
    )


ALL = {
    "mid_round": mid_round,
    "mixed_roll": mixed_roll,
    "end_of_round": end_of_round,
    "one_table": one_table,
    "hand_entry": hand_entry,
    "correct_roll": correct_roll,
    "round_result_waiting": round_result_waiting,
    "night_over": night_over,
}


def _sheet_rows():
    from appliance.ui.view import SheetRow

    rows = [
        ("Hannah", "WWL", (1, 0, 0), 7, 2, 3), ("Carol", "WWW", (0, 0, 0), 7, 2, 1),
        ("Betty", "WLW", (0, 0, 1), 6, 3, 2), ("Stacy", "LWW", (0, 0, 0), 6, 3, 1),
        ("Dolores", "WLL", (0, 1, 0), 5, 4, 1), ("Wanda", "LLW", (0, 0, 0), 5, 4, 0),
        ("Fran", "LWL", (0, 0, 0), 4, 5, 1), ("Gloria", "WLL", (0, 0, 0), 4, 5, 0),
        ("Irene", "LWL", (0, 0, 0), 4, 5, 0), ("June", "LLW", (0, 0, 0), 3, 6, 0),
        ("Kay", "LLL", (0, 0, 0), 2, 7, 0), ("Lois", "LWL", (0, 0, 0), 1, 8, 0),
    ]
    ranks = [1, 1, 3, 3, 5, 5, 7, 7, 7, 10, 11, 12]
    return tuple(SheetRow(rank, name, tuple(marks), b, w, l, bn)
                 for rank, (name, marks, b, w, l, bn) in zip(ranks, rows))


def head_live():
    """Set 2, round 4 under way at three tables; table 3 has dropped off the Wi-Fi."""
    from appliance.ui.view import HeadView, TableTally

    return HeadView(
        set_no=2, round_no=4, target=4, points_to_win=21, phase="playing",
        tables=(
            TableTally(1, (TeamView("Us", ("Hannah", "Stacy"), 17), TeamView("Them", ("Carol", "Betty"), 9)),
                       note="BUNCO! Hannah"),
            TableTally(2, (TeamView("Us", ("Dolores", "Fran"), 6), TeamView("Them", ("Wanda", "Gloria"), 11))),
            TableTally(3, (TeamView("Us", ("Irene", "Kay"), 4), TeamView("Them", ("June", "Lois"), 4)),
                       status="offline"),
        ),
        sheet=_sheet_rows(), network="online",
    )


def head_prizes():
    """The night is over: prizes instead of the live tallies."""
    from dataclasses import replace

    from appliance.ui.view import Prize

    return replace(
        head_live(), phase="over", night_over=True,
        prizes=(Prize("Most Buncos", "Hannah", "3 Buncos"), Prize("Most wins", "Carol", "7 wins"),
                Prize("Most losses", "Lois", "8 losses"), Prize("Traveling", "Betty"),
                Prize("Booby prize", "Kay")),
        banners=(Banner("bell", "The night is over: thank you for playing!"),),
    )
