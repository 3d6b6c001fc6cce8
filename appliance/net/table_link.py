"""A table unit's side of the party link.

Every line the unit logs goes to the head as (table, seq), QoS 1. The head stores by
(table, seq) and publishes the highest seq it holds (its ack, retained). After every
(re)connect, and whenever the ack lags behind for a while, the table sends everything
after the ack again: a message lost anywhere is sent again, and one that arrives twice
counts once at the head. A table with no network plays on; its log is the outbox.
"""

from __future__ import annotations

import logging
import time
from typing import Any, Callable

from appliance.net import messages, topics
from appliance.net.client import Broker, UnitClient, UnitLink
from appliance.store import EventStore

log = logging.getLogger(__name__)

STALL_S = 2.0     # an ack this late means the head missed something: send again


class TableLink(UnitLink):
    def __init__(self, party: str, table: int, broker: Broker, store: EventStore,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.party, self.table, self.store, self.clock = party, table, store, clock
        self.client = UnitClient(
            broker, client_id=f"bunco-{party}-table{table}", status_topic=topics.table_status(party, table),
            unit=f"table {table}",
            subscriptions=[topics.head_round(party), topics.head_ack(party, table), topics.head_cmd(party, table)])
        self.last_seq = store.last_seq()
        self.acked = 0
        self._ack_heard = False
        self._resend_at = 0.0  # when to send everything after the ack again (0: no need)
        self._progress_t = 0.0  # when the ack last moved (or the first unacked event went out)
        self.dropped = 0        # malformed messages logged and dropped

    # ---- the unit's HeadLink --------------------------------------------------------
    def publish(self, seq: int, body: dict[str, Any]) -> None:
        if self.acked >= self.last_seq:
            self._progress_t = self.clock()
        self.last_seq = max(self.last_seq, seq)
        self._send(seq, body)

    # ---- the unit's loop ------------------------------------------------------------
    def pump(self) -> list[messages.RoundMsg | messages.CmdMsg]:
        """What the head said since the last call (for the unit), and any sending due."""
        now = self.clock()
        out: list[messages.RoundMsg | messages.CmdMsg] = []
        if self.client.new_connection():  # send again once the ack is in
            self._ack_heard = False
            self._resend_at = now + 0.5  # the retained ack normally arrives well before this
        for topic, payload in self.client.drain():
            try:
                if topic == topics.head_ack(self.party, self.table):
                    self._on_ack(messages.decode_ack(payload, self.table).seq, now)
                elif topic == topics.head_round(self.party):
                    out.append(messages.decode_round(payload))
                elif topic == topics.head_cmd(self.party, self.table):
                    out.append(messages.decode_cmd(payload, self.table))
            except messages.BadMessage as exc:
                self.dropped += 1
                log.warning("table %d: dropped a message on %s: %s", self.table, topic, exc)
        if self._ack_heard and self.acked < self.last_seq and now - self._progress_t > STALL_S:
            self._resend_at = self._resend_at or now  # the head is not keeping up: it missed something
        if self._resend_at and now >= self._resend_at and self.client.connected.is_set():
            self._resend_at = 0.0
            self._progress_t = now
            self.resend()
        return out

    def resend(self) -> int:
        sent = 0
        for event in self.store.events(after=self.acked):
            if not self._send(event.seq, event.body):
                break
            sent += 1
        if sent:
            log.info("table %d: sent %d events again after the head's ack %d", self.table, sent, self.acked)
        return sent

    @property
    def pending(self) -> int:
        """Events the head has not acknowledged yet."""
        return self.last_seq - self.acked

    # ---- inside ---------------------------------------------------------------------
    def _on_ack(self, seq: int, now: float) -> None:
        if seq > self.last_seq:
            log.error("table %d: the head holds seq %d but this log ends at %d: is this the right data folder?",
                      self.table, seq, self.last_seq)
        if seq > self.acked:
            self._progress_t = now
        self.acked = seq
        if not self._ack_heard:
            self._ack_heard = True
            self._resend_at = now if seq < self.last_seq else 0.0

    def _send(self, seq: int, body: dict[str, Any]) -> bool:
        msg = messages.EventMsg(self.table, seq, body)
        return self.client.publish(topics.table_events(self.party, self.table), messages.encode(msg))
