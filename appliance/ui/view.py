"""What the screens show, as plain frozen data: the screen's whole input.

The table unit builds these from the game state; the screens never see the game engine.
Keeping the view dumb data means a screen can be rendered (and tested) from any state,
including states the engine has not reached yet, and a redraw is a pure function.
Checks in __post_init__ catch a mis-built view where it is made, not as a garbled frame.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# Banner kinds, most important first: only the first one gets the big strip on a small
# screen. A celebration beats a prompt (press BUNCO! still shows under it), a prompt
# that needs the player (re-roll) beats news.
BANNER_PRIORITY: tuple[str, ...] = (
    "bunco",
    "press_bunco",
    "reroll",
    "bell",
    "roll_off",
    "wipeout",
    "mini_bunco",
    "white_elephant",
    "traveling",
    "false_call",
    "undo",
    "hand_entry",
)

PHASES: tuple[str, ...] = ("waiting", "playing", "ending", "roll_off", "over")
NETWORK_STATES: tuple[str, ...] = ("standalone", "online", "offline", "connecting")
ENTRY_STATES: tuple[str, ...] = ("hide", "show", "offer")


@dataclass(frozen=True)
class TeamView:
    label: str                 # "Us" / "Them", or the player's name at an individual table
    players: tuple[str, ...]   # 1 or 2 names (a ghost shows as e.g. "Ghost")
    points: int


@dataclass(frozen=True)
class Banner:
    kind: str   # one of BANNER_PRIORITY
    text: str   # what to show, e.g. "BUNCO! Hannah +21", "Re-roll: 1 die unreadable"

    def __post_init__(self) -> None:
        if self.kind not in BANNER_PRIORITY:
            raise ValueError(f"Banner.kind {self.kind!r} is not one of {', '.join(BANNER_PRIORITY)}")


@dataclass(frozen=True)
class Move:
    player: str
    table: int          # table number for the next round


# What a panel over the table screen asks (see Panel): its buttons are fixed per kind.
PANEL_KINDS: tuple[str, ...] = ("entry", "menu", "confirm")


@dataclass(frozen=True)
class Panel:
    """A question over the table screen, answered by touch or keys; nothing changes until it is.

    "entry": one 1-6 picker per die (3, 4 with the 4-dice rule, 1 in a race roll-off) and OK / Cancel (the faces picked so far in `dice`, 0 = not yet);
    "menu": the last roll was tapped: Take back / Correct / Cancel;
    "confirm": `title` asks, `dice` is the roll that will be logged (a correction), `yes` the button.
    """

    kind: str
    title: str
    dice: tuple[int, ...] = ()
    yes: str = "Yes"

    def __post_init__(self) -> None:
        if self.kind not in PANEL_KINDS:
            raise ValueError(f"Panel.kind {self.kind!r} is not one of {', '.join(PANEL_KINDS)}")
        if any(not 0 <= d <= 6 for d in self.dice):
            raise ValueError(f"Panel.dice must be faces 1..6 (0 = not picked), got {self.dice}")
        if self.kind == "entry" and not 1 <= len(self.dice) <= 4:
            raise ValueError(f"Panel.dice: an entry panel picks 1 to 4 dice, got {len(self.dice)}")

    @property
    def complete(self) -> bool:
        return bool(self.dice) and all(self.dice)


@dataclass(frozen=True)
class Card:
    """One player's night at the end of it: what the table shows until the hostess closes the night."""
    player: str
    wins: int
    losses: int
    buncos: int


@dataclass(frozen=True)
class TableView:
    table: int                      # 1 = head table
    set_no: int
    round_no: int                   # 1..6
    target: int                     # die face that scores this round
    points_to_win: int              # 21 (or 11 with that house rule): the bar's mark
    teams: tuple[TeamView, ...]     # 2 teams; 2..4 one-player "teams" at one-table Bunco
    phase: str                      # "waiting", "playing", "ending", "roll_off", "over"
    turn_player: str | None = None
    turn_partner: str | None = None
    turn_team: int | None = None    # index into teams
    turn_points: int = 0            # running score of the current turn
    last_roll: tuple[int, ...] = () # 3 or 4 dice
    scoring: tuple[bool, ...] = ()  # which of last_roll's dice scored (lit); () = none
    last_roller: str | None = None
    banners: tuple[Banner, ...] = ()
    winners: tuple[str, ...] = ()   # after the round
    moves: tuple[Move, ...] = ()    # where each player goes next round
    network: str = "standalone"     # "standalone", "online", "offline", "connecting"
    panel: Panel | None = None      # a question over the screen (hand entry, take back, correct)
    entry: str = "show"             # the "Enter dice" control: "hide" (no roll due here), "show", or
                                    # "offer" (no camera, or it keeps failing: the control stands out)
    night_over: bool = False        # the last round is over: `cards` instead of moves
    cards: tuple[Card, ...] = ()    # this table's players' night (empty if the table cannot know it)

    def __post_init__(self) -> None:
        if not 1 <= len(self.teams) <= 4:
            raise ValueError(f"TableView.teams: 1 to 4 teams, got {len(self.teams)}")
        if self.phase not in PHASES:
            raise ValueError(f"TableView.phase {self.phase!r} is not one of {', '.join(PHASES)}")
        if self.network not in NETWORK_STATES:
            raise ValueError(
                f"TableView.network {self.network!r} is not one of {', '.join(NETWORK_STATES)}")
        if not 1 <= self.target <= 6:
            raise ValueError(f"TableView.target must be a die face 1..6, got {self.target}")
        if self.points_to_win < 1:
            raise ValueError(f"TableView.points_to_win must be >= 1, got {self.points_to_win}")
        if len(self.last_roll) > 6 or any(not 1 <= d <= 6 for d in self.last_roll):
            raise ValueError(f"TableView.last_roll must be up to 6 faces 1..6, got {self.last_roll}")
        if self.scoring and len(self.scoring) != len(self.last_roll):
            raise ValueError(
                f"TableView.scoring has {len(self.scoring)} flags for {len(self.last_roll)} dice")
        if self.entry not in ENTRY_STATES:
            raise ValueError(f"TableView.entry {self.entry!r} is not one of {', '.join(ENTRY_STATES)}")
        if self.turn_team is not None and not 0 <= self.turn_team < len(self.teams):
            raise ValueError(f"TableView.turn_team {self.turn_team} is not an index into teams")

    def leaders(self) -> tuple[int, ...]:
        """Indexes of the teams to highlight: the winners once the round is over, else
        the single team with the most points (nobody leads a tie)."""
        if self.phase == "over" and self.winners:
            won = set(self.winners)
            return tuple(i for i, t in enumerate(self.teams) if won.intersection(t.players))
        top = max(t.points for t in self.teams)
        best = [i for i, t in enumerate(self.teams) if t.points == top]
        return tuple(best) if len(best) == 1 else ()

    def banners_by_priority(self) -> tuple[Banner, ...]:
        """Banners most important first (stable for equal kinds)."""
        return tuple(sorted(self.banners, key=lambda b: BANNER_PRIORITY.index(b.kind)))


# --- the hostess (head unit) screen ---------------------------------------------------

@dataclass(frozen=True)
class TableTally:
    """One table's live tally, as the head unit last heard it."""
    table: int
    teams: tuple[TeamView, ...]
    status: str = "online"          # one of NETWORK_STATES ("standalone" for the head's own table)
    phase: str = "playing"          # one of PHASES
    note: str = ""                  # latest news from that table, e.g. "BUNCO! Hannah"

    def __post_init__(self) -> None:
        if self.status not in NETWORK_STATES:
            raise ValueError(f"TableTally.status {self.status!r} is not one of {', '.join(NETWORK_STATES)}")
        if self.phase not in PHASES:
            raise ValueError(f"TableTally.phase {self.phase!r} is not one of {', '.join(PHASES)}")


@dataclass(frozen=True)
class SheetRow:
    """One player's line on the master score sheet (rows arrive in standings order)."""
    rank: int
    player: str
    marks: tuple[str, ...]          # this set's rounds so far: "W", "L" or "" (not played)
    buncos_by_round: tuple[int, ...] = ()   # Buncos in each of those rounds (B marks)
    wins: int = 0                   # totals for the night
    losses: int = 0
    buncos: int = 0
    minis: int = 0
    wipeouts: int = 0

    def __post_init__(self) -> None:
        bad = [m for m in self.marks if m not in ("W", "L", "")]
        if bad:
            raise ValueError(f"SheetRow.marks for {self.player}: {bad[0]!r} is not 'W', 'L' or ''")
        if self.buncos_by_round and len(self.buncos_by_round) != len(self.marks):
            raise ValueError(f"SheetRow.buncos_by_round for {self.player}: "
                             f"{len(self.buncos_by_round)} rounds for {len(self.marks)} marks")


@dataclass(frozen=True)
class Prize:
    title: str                      # "Most Buncos"
    player: str
    detail: str = ""                # "5 Buncos"


@dataclass(frozen=True)
class HeadView:
    set_no: int
    round_no: int
    target: int
    points_to_win: int
    phase: str                      # one of PHASES ("over" = the round is over)
    tables: tuple[TableTally, ...]
    sheet: tuple[SheetRow, ...]     # standings order, best first
    rounds_in_set: int = 6
    night_over: bool = False        # show the prizes instead of the live tallies
    prizes: tuple[Prize, ...] = ()
    banners: tuple[Banner, ...] = ()
    network: str = "online"         # the broker, as the head sees it
    buttons: tuple[Any, ...] = ()   # the touch buttons (appliance.ui.head_controls.Button)
    overlay: Any = None             # a panel over it all (head_controls.Overlay): QR and PIN, undo, a question

    def __post_init__(self) -> None:
        if self.phase not in PHASES:
            raise ValueError(f"HeadView.phase {self.phase!r} is not one of {', '.join(PHASES)}")
        if self.network not in NETWORK_STATES:
            raise ValueError(f"HeadView.network {self.network!r} is not one of {', '.join(NETWORK_STATES)}")
        if not 1 <= self.target <= 6:
            raise ValueError(f"HeadView.target must be a die face 1..6, got {self.target}")
        for row in self.sheet:
            if len(row.marks) > self.rounds_in_set:
                raise ValueError(f"HeadView.sheet: {row.player} has {len(row.marks)} marks "
                                 f"for a set of {self.rounds_in_set} rounds")
