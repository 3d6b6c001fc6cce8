"""Scoring one roll by the house rules."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from appliance.game.rules import HouseRules


class RollKind(str, Enum):
    PLAIN = "plain"
    BUNCO = "bunco"            # every die shows the target
    MINI_BUNCO = "mini_bunco"  # all equal, not the target (with 4 dice: a Low Bunco)
    HIGH_BUNCO = "high_bunco"  # 4 dice, all equal and above the target
    WIPEOUT = "wipeout"        # all 1s when the target is not 1 (house rule)


@dataclass(frozen=True)
class RollScore:
    kind: RollKind
    points: int            # what the roll scores as thrown; a Bunco counts as plain dice until called
    bunco_bonus: int       # what a call adds to a Bunco (0 for anything else)
    scoring: tuple[bool, ...]  # which dice scored, for the screen

    @property
    def scores(self) -> bool:
        """Whether the roll keeps the turn going (a wipeout never does)."""
        return self.kind is not RollKind.WIPEOUT and (self.points > 0 or self.kind is RollKind.BUNCO)


def score_roll(dice: tuple[int, ...], target: int, rules: HouseRules) -> RollScore:
    if len(dice) != rules.dice:
        raise ValueError(f"expected {rules.dice} dice, got {len(dice)}")
    if any(not 1 <= d <= 6 for d in dice):
        raise ValueError(f"dice must show 1-6, got {list(dice)}")
    if not 1 <= target <= 6:
        raise ValueError(f"target must be 1-6, got {target}")
    hits = tuple(d == target for d in dice)
    plain = sum(hits) * rules.target_die_points
    all_equal = len(set(dice)) == 1
    if all_equal and dice[0] == target:
        return RollScore(RollKind.BUNCO, plain, rules.bunco_points - plain, hits)
    if all_equal and rules.wipeout and dice[0] == 1 and target != 1:
        return RollScore(RollKind.WIPEOUT, 0, 0, (False,) * len(dice))
    if all_equal:
        every = (True,) * len(dice)
        if rules.dice == 4 and dice[0] > target:
            return RollScore(RollKind.HIGH_BUNCO, rules.high_bunco_points, 0, every)
        return RollScore(RollKind.MINI_BUNCO, rules.mini_bunco_points, 0, every)
    return RollScore(RollKind.PLAIN, plain, 0, hits)
