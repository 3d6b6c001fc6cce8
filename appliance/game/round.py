"""The room's round: every table's state, and the bell that joins them.

On one unit the bell is derived, never logged: it rings when the head table (or, by
house rule, a called Bunco anywhere) says so, and reaches every table at once. An undo
at any table folds the whole round again from its log, so a bell that a wrong roll rang
is un-rung with it.

In a party the tables are apart: each one hears the bell at its own moment, between two
of its own rolls, and that moment decides who may still roll. So there the bell is
"heard": the room still works out when it is due (`bell`), but it reaches a table only
through a Bell event in the log, written by the table that heard it. Head and tables then
fold the same events per table and can never disagree about a table's round.
"""

from __future__ import annotations

from dataclasses import dataclass

from appliance.game.events import Bell, Call, Roll, TableEvent, Undo
from appliance.game.table import GameError, TableResult, TableRound, TableSetup


@dataclass(frozen=True)
class RoundSetup:
    set_no: int
    round_no: int
    tables: tuple[TableSetup, ...]  # table 1 (the head table) first

    @property
    def target(self) -> int:
        return self.round_no


class RoomRound:
    def __init__(self, setup: RoundSetup, heard_bells: bool = False) -> None:
        self.setup = setup
        self.heard_bells = heard_bells
        self.log: list[Roll | Call | Bell] = []
        self._fold([])

    @property
    def complete(self) -> bool:
        return all(t.done for t in self.tables.values())

    def table(self, number: int) -> TableRound:
        try:
            return self.tables[number]
        except KeyError:
            raise GameError(f"there is no table {number} this round") from None

    def apply(self, event: TableEvent) -> dict[int, tuple[str, ...]]:
        """Apply one event; returns the notes for each table it touched."""
        table = self.table(event.table)
        if isinstance(event, Undo):
            index = next((i for i in range(len(self.log) - 1, -1, -1)
                          if self.log[i].table == event.table and isinstance(self.log[i], Roll)), None)
            if index is None:
                raise GameError(f"table {event.table}: no roll to undo")
            kept = [e for i, e in enumerate(self.log)
                    if i < index or (i > index and (e.table != event.table or isinstance(e, Bell)))]
            self._fold(kept)
            return {event.table: ("undo",)}
        if isinstance(event, Bell):
            if not self.heard_bells:
                raise GameError("the bell is rung by the round itself, not by an event")
            self.log.append(event)
            return {event.table: table.apply(event)}
        notes = {event.table: table.apply(event)}
        self.log.append(event)
        self._after(event.table, notes[event.table])
        for number, rung in self._ring_if_due().items():
            notes[number] = notes.get(number, ()) + rung
        return notes

    def results(self) -> tuple[TableResult, ...]:
        return tuple(self.tables[t.table].result() for t in self.setup.tables)

    def _fold(self, log: list[Roll | Call | Bell]) -> None:
        self.tables = {t.table: TableRound(t) for t in self.setup.tables}
        self.bell = False
        self.buncos: list[str] = []     # called Buncos in the order they were called
        self.traveling: list[str] = []  # who took the traveling object, in order
        self.log = []
        for event in log:
            notes = self.tables[event.table].apply(event)
            self.log.append(event)
            self._after(event.table, notes)
            self._ring_if_due()

    def _after(self, table: int, notes: tuple[str, ...]) -> None:
        t = self.tables[table]
        if "bunco_called" in notes and t.last_bunco:
            self.buncos.append(t.last_bunco)
        if "traveling" in notes:
            self.traveling.append(t.traveling[-1])

    def _ring_if_due(self) -> dict[int, tuple[str, ...]]:
        if self.bell or not any(t.bell_trigger for t in self.tables.values()):
            return {}
        self.bell = True
        if self.heard_bells:  # the head rings it; each table logs when it heard it
            return {}
        return {n: t.apply(Bell(n)) or ("bell",) for n, t in self.tables.items()}
