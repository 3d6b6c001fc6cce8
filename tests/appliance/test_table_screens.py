"""What the table screens say between rounds and at the night's end: a head unit and three party
tables wired in-process (messages queued and delivered in order, as the broker would), rendered
with real pygame and read back from PNG."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from collections import deque  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import pygame  # noqa: E402
import pytest  # noqa: E402

from appliance.game.rules import HouseRules  # noqa: E402
from appliance.head_unit import HeadUnit  # noqa: E402
from appliance.net.messages import EventMsg  # noqa: E402
from appliance.store import EventStore  # noqa: E402
from appliance.table_unit import TableUnit  # noqa: E402
from appliance.ui.layout import layout_for  # noqa: E402
from appliance.ui.table_screen import RESULT_BANNER, draw_table  # noqa: E402

PLAYERS = ("Stacy", "Carol", "Wanda", "Hannah", "Betty", "Dolores",
           "Fran", "Gloria", "Irene", "June", "Kay", "Lois")


@dataclass
class Wire:
    """The broker's part: everything published is delivered later, in order."""
    queue: deque = field(default_factory=deque)
    tables: dict[int, TableUnit] = field(default_factory=dict)
    head: Any = None

    def publish_round(self, msg) -> None:
        self.queue.append(("round", msg))

    def publish_ack(self, table: int, seq: int) -> None:
        return None

    def publish_cmds(self, msg) -> None:
        return None

    def deliver(self) -> None:
        while self.queue:
            kind, msg = self.queue.popleft()
            if kind == "round":
                for unit in self.tables.values():
                    unit.on_head(msg)
            else:
                self.head.ingest(msg)


@dataclass
class ToHead:
    wire: Wire
    table: int

    def publish(self, seq: int, body: dict[str, Any]) -> None:
        self.wire.queue.append(("event", EventMsg(self.table, seq, dict(body))))


class Clock:
    now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def party(tmp_path: Path):
    wire, clock = Wire(), Clock()
    head = HeadUnit(EventStore.in_dir(tmp_path / "head"), PLAYERS, HouseRules(sets=1), seed=11, net=wire,
                    countdown_s=5.0, clock=clock)
    wire.head = head
    for n in (1, 2, 3):
        wire.tables[n] = TableUnit(EventStore.in_dir(tmp_path / f"t{n}"), (), HouseRules(sets=1), table=n,
                                   link=ToHead(wire, n), party=True)
    head.start_night()
    wire.deliver()
    yield head, wire, clock
    for unit in wire.tables.values():
        unit.store.close()
    head.store.close()


def miss(t: int) -> tuple[int, int, int]:
    a, b = t % 6 + 1, (t + 1) % 6 + 1
    return (a, a, b)


def play_round(head: HeadUnit, wire: Wire) -> None:
    """Tables 2 and 3 score 1 and pass; the head table rolls a Bunco (the bell), then every
    table's roller misses and the round is over."""
    t = head.night.current.setup.target
    a = t % 6 + 1
    for n in (2, 3):
        wire.tables[n].on_reading((t, a, a))
        wire.tables[n].on_reading(miss(t))
        wire.deliver()
    wire.tables[1].on_reading((t, t, t))
    wire.tables[1].press()
    wire.deliver()
    assert head.phase == "ending"
    for n in (1, 2, 3):
        wire.tables[n].on_reading(miss(t))
        wire.deliver()


def render(view, size, path: Path) -> pygame.Surface:
    pygame.display.init()
    pygame.font.init()
    surface = pygame.Surface(size)
    draw_table(surface, view)
    pygame.image.save(surface, str(path))
    return pygame.image.load(str(path))


def test_each_table_lists_only_its_own_players_moves(party, tmp_path):
    head, wire, _ = party
    play_round(head, wire)
    assert head.phase == "between"
    for n, unit in wire.tables.items():
        view = unit.view()
        seated = set(head.night.played[-1].plan.tables[n - 1])
        assert view.phase == "over" and view.winners
        assert {m.player for m in view.moves} == seated and len(view.moves) == 4
        nxt = head.round_msg().next
        for m in view.moves:
            assert m.player in nxt[m.table - 1]


def test_the_result_stays_up_when_dice_are_read_before_the_bell(party, tmp_path):
    head, wire, _ = party
    play_round(head, wire)
    unit = wire.tables[2]
    winners = unit.view().winners
    assert unit.on_reading((3, 4, 5)) == ("wait",)
    view = unit.view()
    assert view.phase == "over" and view.winners == winners and len(view.moves) == 4
    assert [b.kind for b in view.banners] == ["reroll"] and "wait for the next bell" in view.banners[0].text
    assert view.entry == "hide"
    for size in ((800, 480), (1920, 1080)):
        image = render(view, size, tmp_path / f"wait-{size[0]}.png")
        lay = layout_for(size)
        # the result strip keeps the left of the banner row; the note sits at its right end
        assert tuple(image.get_at((lay.banner.x + 3, lay.banner.centery)))[:3] == RESULT_BANNER[0]
        assert tuple(image.get_at((lay.banner.right - 3, lay.banner.centery)))[:3] != RESULT_BANNER[0]


def test_the_night_end_says_so_on_every_table_until_it_is_closed(party, tmp_path):
    head, wire, clock = party
    for _ in range(6):
        if head.phase == "between":
            clock.now += 6
            head.tick()
            wire.deliver()
        play_round(head, wire)
    assert head.phase == "over"
    assert not head.round_msg().starts_in
    for n, unit in wire.tables.items():
        view = unit.view()
        assert view.night_over and view.phase == "over" and view.moves == () and view.entry == "hide"
        assert view.cards == ()   # a party table saw only its own rounds: the head's sheet has the night
        unit.on_reading((1, 2, 3))                       # dice on the table change nothing any more
        assert unit.view().night_over and unit.press() == ()


def test_a_standalone_night_ends_with_each_players_record(tmp_path):
    unit = TableUnit(EventStore.in_dir(tmp_path), ("Ann", "Bea", "Cat", "Dot"), HouseRules(sets=1), seed=4)
    while not unit.night.over:
        t = unit.night.current.setup.target if unit.night.current else len(unit.night.played) + 1
        unit.on_reading((t, t, t))
        unit.press()
        unit.on_reading(miss(t))
    view = unit.view()
    assert view.night_over and view.phase == "over" and view.entry == "hide"
    assert {c.player for c in view.cards} == {"Ann", "Bea", "Cat", "Dot"}
    assert all(c.wins + c.losses == 6 for c in view.cards)
    assert sum(c.buncos for c in view.cards) == 6
    unit.store.close()
    again = TableUnit(EventStore.in_dir(tmp_path), (), HouseRules(), seed=0)   # a restart shows the same
    assert again.view() == view


def test_a_question_about_a_roll_goes_once_the_game_moves_on(party):
    head, wire, clock = party
    unit = wire.tables[2]
    t = head.night.current.setup.target
    unit.on_reading((t, t % 6 + 1, t % 6 + 1))
    unit.tap_roll()
    assert unit.view().panel.kind == "menu"
    # the rest of the round is played at the other tables and this one's next roll comes from the camera
    play_round(head, wire)
    assert unit.view().panel is None and unit.ask is None
    clock.now += 6
    head.tick()
    wire.deliver()
    assert unit.view().phase == "playing" and unit.view().panel is None and unit.ask is None
