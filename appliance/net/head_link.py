"""The head unit's side of the party link: table events in, round, acks and commands out.

The head publishes only retained messages (round, acks, commands), and publishes all of
them again after every (re)connect: a broker restarted without its store, or a table
that joins late, learns the whole state from them.
"""

from __future__ import annotations

import logging

from appliance.net import messages, topics
from appliance.net.client import Broker, UnitClient, UnitLink

log = logging.getLogger(__name__)


class HeadLink(UnitLink):
    def __init__(self, party: str, broker: Broker) -> None:
        self.party = party
        self.client = UnitClient(broker, client_id=f"bunco-{party}-head", status_topic=topics.head_status(party),
                                 unit="head", subscriptions=[topics.all_tables(party)], persistent=True)
        self.dropped = 0
        self.status: dict[int, str] = {}   # table -> "online" / "offline", from their retained status

    def reconnected(self) -> bool:
        """True once after each new connection: time to publish the retained state again."""
        return self.client.new_connection()

    def pump(self) -> list[messages.EventMsg]:
        """Table events since the last call; statuses are kept in `status`; bad ones are dropped."""
        out = []
        for topic, payload in self.client.drain():
            where = topics.parse_table_topic(topic)
            try:
                if where is None or where[0] != self.party:
                    raise messages.BadMessage("not a table topic of this party")
                _, table, kind = where
                if kind == "events":
                    out.append(messages.decode_event(payload, table))
                elif kind == "status":
                    self.status[table] = messages.decode_status(payload).state
            except messages.BadMessage as exc:
                self.dropped += 1
                log.warning("head: dropped a message on %s: %s", topic, exc)
        return out

    def publish_round(self, msg: messages.RoundMsg) -> None:
        self.client.publish(topics.head_round(self.party), messages.encode(msg), retain=True)

    def publish_ack(self, table: int, seq: int) -> None:
        self.client.publish(topics.head_ack(self.party, table), messages.encode(messages.AckMsg(table, seq)),
                            retain=True)

    def publish_cmds(self, msg: messages.CmdMsg) -> None:
        self.client.publish(topics.head_cmd(self.party, msg.table), messages.encode(msg), retain=True)
