"""A whole night with random dice through the same engine: a check of the engine itself."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable

from appliance.game.events import Call, Roll
from appliance.game.night import Night, NightResult
from appliance.game.rules import HouseRules
from appliance.nightlog import event_line, night_line


@dataclass
class RollStats:
    rolls: int = 0        # full rolls (all the night's dice), draws and one-die races left out
    buncos: int = 0       # every die shows the target, called or not
    mini_buncos: int = 0  # all equal, not the target

    def add(self, other: RollStats) -> None:
        self.rolls += other.rolls
        self.buncos += other.buncos
        self.mini_buncos += other.mini_buncos


def simulate_night(
    players: tuple[str, ...],
    rules: HouseRules,
    seed: int,
    *,
    forget: float = 0.0,
    emit: Callable[[dict[str, Any]], None] | None = None,
) -> tuple[NightResult, RollStats]:
    """Tables roll in a random interleaving; a Bunco is called unless the roller forgets.

    The dice come from their own stream, so the Night's draws are exactly those a replay
    of the emitted log makes.
    """
    emit = emit or (lambda line: None)
    night = Night(players, rules, random.Random(seed))
    dice_rng = random.Random(f"dice:{seed}")
    stats = RollStats()
    emit(night_line(players, rules, seed))
    while not night.over:
        room = night.start_round()
        while not room.complete:
            number = dice_rng.choice([n for n, t in room.tables.items() if not t.done])
            table = room.table(number)
            dice = tuple(dice_rng.randint(1, 6) for _ in range(table.expected_dice))
            target = room.setup.target
            player = table.roller
            notes = night.apply(Roll(number, dice))
            emit(event_line(Roll(number, dice), player=player))
            if len(dice) == rules.dice:
                stats.rolls += 1
                if len(set(dice)) == 1:
                    if dice[0] == target:
                        stats.buncos += 1
                    else:
                        stats.mini_buncos += 1
            if "press_bunco" in notes.get(number, ()) and dice_rng.random() >= forget:
                night.apply(Call(number))
                emit(event_line(Call(number)))
    return night.finish(), stats
