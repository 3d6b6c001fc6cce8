"""`bunco setup-broker` against a real mosquitto: passwords hashed by mosquitto_passwd, the ACL enforced.

MQTT 3.1.1 has no way to tell a client its publish was refused: mosquitto acknowledges it and drops
it. So every "denied" check subscribes as the head, publishes, waits, and asserts nothing came,
next to an allowed publish that did come (so the check can fail when the wiring is wrong).
"""

from __future__ import annotations

import os
import queue
import stat
import threading
from pathlib import Path

import pytest
from paho.mqtt.client import Client, MQTTMessage
from paho.mqtt.enums import CallbackAPIVersion, MQTTProtocolVersion

from appliance.cli import main as bunco
from appliance.errors import UserError
from appliance.net import topics
from appliance.net.broker_setup import (
    ACL_NAME,
    CONF_NAME,
    PASSWD_NAME,
    BrokerSetup,
    hash_matches,
    password_file,
    write_setup,
)

PARTY = "spring-fling"
QUIET_S = 0.5  # how long a dropped publish is given to show up anyway
WAIT_S = 5.0


class Peer:
    """One MQTT 3.1.1 client with a queue of what it received."""

    def __init__(self, name: str) -> None:
        self.client = Client(CallbackAPIVersion.VERSION2, client_id=name, protocol=MQTTProtocolVersion.MQTTv311)
        self.messages: queue.Queue[MQTTMessage] = queue.Queue()
        self.connack = threading.Event()
        self.reason = None
        self.subscribed = threading.Event()
        self.client.on_connect = self._on_connect
        self.client.on_message = lambda _c, _u, msg: self.messages.put(msg)
        self.client.on_subscribe = lambda *_a: self.subscribed.set()

    def _on_connect(self, _client, _userdata, _flags, reason_code, _properties) -> None:
        self.reason = reason_code
        self.connack.set()

    def connect(self, host: str, port: int, user: str | None = None, password: str | None = None) -> bool:
        """True when the broker accepted us; the reason code stays in .reason."""
        if user is not None:
            self.client.username_pw_set(user, password)
        self.client.connect(host, port, keepalive=10)
        self.client.loop_start()
        assert self.connack.wait(WAIT_S), "no CONNACK from the broker"
        return not self.reason.is_failure

    def subscribe(self, topic: str) -> None:
        self.subscribed.clear()
        self.client.subscribe(topic, qos=1)
        assert self.subscribed.wait(WAIT_S), f"no SUBACK for {topic}"

    def publish(self, topic: str, payload: str, retain: bool = False) -> None:
        info = self.client.publish(topic, payload, qos=1, retain=retain)
        info.wait_for_publish(WAIT_S)  # QoS 1: the broker has taken it (and, if denied, dropped it)
        assert info.is_published()

    def received(self, wait: float) -> list[tuple[str, str]]:
        got: list[tuple[str, str]] = []
        try:
            msg = self.messages.get(timeout=wait)
            got.append((msg.topic, msg.payload.decode()))
            while True:
                msg = self.messages.get(timeout=QUIET_S)
                got.append((msg.topic, msg.payload.decode()))
        except queue.Empty:
            return got

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def setup_dir(tmp_path: Path, tables: int = 3, **kw) -> Path:
    out = tmp_path / "bunco"
    write_setup(BrokerSetup(party=PARTY, tables=tables, out=out, **kw))
    return out


def secret(out: Path, user: str) -> str:
    return password_file(out, user).read_text().strip()


@pytest.fixture
def party_broker(tmp_path, mosquitto_factory):
    """mosquitto running exactly the snippet setup-broker wrote, but on a free loopback port."""
    out = setup_dir(tmp_path)
    snippet = (out / CONF_NAME).read_text()
    listener = [line for line in snippet.splitlines() if line.startswith("listener")]
    assert listener == ["listener 1883"]
    broker = mosquitto_factory(conf=snippet.replace("listener 1883\n", ""))
    peers: list[Peer] = []

    def peer(name: str, user: str | None = None, password: str | None = None) -> Peer:
        p = Peer(name)
        peers.append(p)
        if user is not None and password is None:
            password = secret(out, user)
        assert p.connect(broker.host, broker.port, user, password), f"{user} refused: {p.reason}\n{broker.log()}"
        return p

    yield broker, out, peer
    for p in peers:
        p.close()


# --- the files --------------------------------------------------------------------------------

def test_writes_conf_passwd_acl_and_one_private_password_a_unit(tmp_path):
    out = setup_dir(tmp_path, tables=3)
    users = [topics.head_user(PARTY)] + [topics.table_user(PARTY, n) for n in (1, 2, 3)]
    conf = (out / CONF_NAME).read_text()
    assert "listener 1883\n" in conf and "allow_anonymous false\n" in conf
    assert f"password_file {out.absolute() / PASSWD_NAME}\n" in conf
    assert f"acl_file {out.absolute() / ACL_NAME}\n" in conf
    passwd = dict(line.split(":", 1) for line in (out / PASSWD_NAME).read_text().splitlines())
    assert list(passwd) == users
    for user in users:
        path = password_file(out, user)
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        assert hash_matches(passwd[user], secret(out, user))
        assert not hash_matches(passwd[user], secret(out, user) + "x")
    assert len({secret(out, u) for u in users}) == len(users)
    acl = (out / ACL_NAME).read_text()
    assert f"user {topics.table_user(PARTY, 2)}\ntopic write bunco/{PARTY}/table/2/#\ntopic read bunco/{PARTY}/head/#\n" in acl
    assert not [line for line in acl.splitlines() if line.startswith("pattern")]


def test_conf_dir_is_the_path_mosquitto_sees(tmp_path):
    out = setup_dir(tmp_path, port=8883, conf_dir=Path("/etc/mosquitto/bunco"))
    conf = (out / CONF_NAME).read_text()
    assert "listener 8883\n" in conf
    assert "password_file /etc/mosquitto/bunco/passwd\n" in conf
    assert "acl_file /etc/mosquitto/bunco/acl\n" in conf


def test_rerun_keeps_passwords_and_leaves_files_untouched(tmp_path):
    out = setup_dir(tmp_path, tables=2)
    before = {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in out.iterdir()}
    report = write_setup(BrokerSetup(party=PARTY, tables=2, out=out))
    assert report.written == [] and report.new_passwords == [] and report.removed == []
    assert {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in out.iterdir()} == before


def test_rerun_adds_and_removes_tables_and_keeps_the_others(tmp_path):
    out = setup_dir(tmp_path, tables=2)
    t2 = secret(out, topics.table_user(PARTY, 2))
    t2_line = next(line for line in (out / PASSWD_NAME).read_text().splitlines() if line.startswith(f"{PARTY}-table2:"))
    report = write_setup(BrokerSetup(party=PARTY, tables=4, out=out))
    assert report.new_passwords == [topics.table_user(PARTY, 3), topics.table_user(PARTY, 4)]
    assert secret(out, topics.table_user(PARTY, 2)) == t2
    assert t2_line in (out / PASSWD_NAME).read_text().splitlines()  # the old hash is kept as is
    report = write_setup(BrokerSetup(party=PARTY, tables=3, out=out))
    assert report.removed == [topics.table_user(PARTY, 4)]
    assert not password_file(out, topics.table_user(PARTY, 4)).exists()
    assert f"{PARTY}-table4" not in (out / PASSWD_NAME).read_text()
    assert "table/4" not in (out / ACL_NAME).read_text()


def test_a_password_file_edited_by_hand_is_rehashed(tmp_path):
    out = setup_dir(tmp_path, tables=1)
    user = topics.table_user(PARTY, 1)
    password_file(out, user).write_text("a new secret\n")
    write_setup(BrokerSetup(party=PARTY, tables=1, out=out))
    line = next(line for line in (out / PASSWD_NAME).read_text().splitlines() if line.startswith(user + ":"))
    assert hash_matches(line.split(":", 1)[1], "a new secret")


@pytest.mark.parametrize("kw, word", [
    ({"party": "Bad Party"}, "--party"),
    ({"tables": 0}, "--tables"),
    ({"tables": 100}, "--tables"),
    ({"port": 70000}, "--port"),
    ({"conf_dir": Path("relative/dir")}, "--conf-dir"),
    ({"conf_dir": Path("/etc/with space")}, "--conf-dir"),
])
def test_bad_arguments_are_user_errors(tmp_path, kw, word):
    args = {"party": PARTY, "tables": 2, "out": tmp_path / "b"} | kw
    with pytest.raises(UserError, match=word):
        write_setup(BrokerSetup(**args))
    assert not (tmp_path / "b").exists()


def test_out_that_is_a_file_and_a_broken_password_file_are_user_errors(tmp_path):
    (tmp_path / "f").write_text("x")
    with pytest.raises(UserError, match="not a folder"):
        write_setup(BrokerSetup(party=PARTY, tables=1, out=tmp_path / "f"))
    out = setup_dir(tmp_path, tables=1)
    password_file(out, topics.head_user(PARTY)).write_text("two\nlines\n")
    with pytest.raises(UserError, match="one password on one line"):
        write_setup(BrokerSetup(party=PARTY, tables=1, out=out))


def test_missing_mosquitto_passwd_names_the_fix(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    code = bunco(["setup-broker", "--party", PARTY, "--tables", "2", "--out", str(tmp_path / "b")])
    assert code == 2
    err = capsys.readouterr().err
    assert "mosquitto_passwd not found" in err and "apt-get install mosquitto" in err


def test_command_line(tmp_path, capsys):
    out = tmp_path / "b"
    assert bunco(["setup-broker", "--party", PARTY, "--tables", "2", "--out", str(out), "--port", "1884"]) == 0
    assert "listener 1884\n" in (out / CONF_NAME).read_text()
    assert f"{PARTY}-table2: {out}/{PARTY}-table2.password (new password)" in capsys.readouterr().out
    assert bunco(["setup-broker", "--party", PARTY, "--tables", "2", "--out", str(out), "--port", "1884"]) == 0
    assert "changed: nothing" in capsys.readouterr().out
    assert bunco(["setup-broker", "--party", PARTY, "--tables", "0", "--out", str(out)]) == 2


# --- the real broker --------------------------------------------------------------------------

def test_anonymous_and_wrong_password_are_refused(party_broker):
    broker, out, _peer = party_broker
    anonymous = Peer("anon")
    assert not anonymous.connect(broker.host, broker.port)
    wrong = Peer("wrong")
    assert not wrong.connect(broker.host, broker.port, topics.table_user(PARTY, 2), "not-the-password")
    other_party = Peer("other")
    assert not other_party.connect(broker.host, broker.port, "someone-else", secret(out, topics.table_user(PARTY, 2)))
    for p in (anonymous, wrong, other_party):
        p.client.loop_stop()
    # and the right one gets in (else the refusals above prove nothing)
    right = Peer("right")
    assert right.connect(broker.host, broker.port, topics.table_user(PARTY, 2), secret(out, topics.table_user(PARTY, 2)))
    right.close()


def test_a_table_writes_only_its_own_topics(party_broker):
    _broker, _out, peer = party_broker
    head = peer("head", topics.head_user(PARTY))
    head.subscribe(f"bunco/{PARTY}/#")
    table2 = peer("table2", topics.table_user(PARTY, 2))
    table2.publish(topics.table_events(PARTY, 3), "forged by table 2")
    table2.publish(topics.head_round(PARTY), "forged round")
    table2.publish("bunco/other-party/table/2/events", "elsewhere")
    table2.publish(topics.table_events(PARTY, 2), "seq 1")
    got = head.received(WAIT_S)
    assert got == [(topics.table_events(PARTY, 2), "seq 1")]


def test_a_table_reads_only_the_head(party_broker):
    _broker, _out, peer = party_broker
    table2 = peer("table2", topics.table_user(PARTY, 2))
    table2.subscribe(f"bunco/{PARTY}/#")  # granted, but only head topics are delivered
    table3 = peer("table3", topics.table_user(PARTY, 3))
    table3.publish(topics.table_events(PARTY, 3), "table 3 seq 1")
    head = peer("head", topics.head_user(PARTY))
    head.publish(topics.head_round(PARTY), "set 1 round 2 playing", retain=True)
    assert table2.received(WAIT_S) == [(topics.head_round(PARTY), "set 1 round 2 playing")]


def test_the_head_round_reaches_a_table_even_when_it_subscribes_later(party_broker):
    _broker, _out, peer = party_broker
    head = peer("head", topics.head_user(PARTY))
    head.publish(topics.head_round(PARTY), "set 1 round 1 waiting", retain=True)
    head.publish(topics.head_ack(PARTY, 2), "17", retain=True)
    table2 = peer("table2", topics.table_user(PARTY, 2))
    table2.subscribe(topics.head_prefix(PARTY))
    assert sorted(table2.received(WAIT_S)) == [
        (topics.head_ack(PARTY, 2), "17"),
        (topics.head_round(PARTY), "set 1 round 1 waiting"),
    ]


def test_the_head_cannot_write_table_topics(party_broker):
    _broker, _out, peer = party_broker
    watcher = peer("head-watch", topics.head_user(PARTY))
    watcher.subscribe(f"bunco/{PARTY}/#")
    head = peer("head", topics.head_user(PARTY))
    head.publish(topics.table_events(PARTY, 2), "forged by the head")
    head.publish(topics.head_status(PARTY), "online")
    assert watcher.received(WAIT_S) == [(topics.head_status(PARTY), "online")]


def test_the_broker_comes_back_on_the_same_port(mosquitto_broker):
    first = Peer("a")
    assert first.connect(mosquitto_broker.host, mosquitto_broker.port)  # anonymous allowed by default
    first.close()
    port = mosquitto_broker.port
    mosquitto_broker.outage(0.2)
    assert mosquitto_broker.port == port and mosquitto_broker.running
    again = Peer("b")
    assert again.connect(mosquitto_broker.host, mosquitto_broker.port)
    again.close()
    mosquitto_broker.stop()
    assert not mosquitto_broker.running
    with pytest.raises(OSError):
        Peer("c").client.connect(mosquitto_broker.host, port)


def test_files_are_not_world_readable(tmp_path):
    out = setup_dir(tmp_path, tables=1)
    for name in (PASSWD_NAME, ACL_NAME):
        assert not os.stat(out / name).st_mode & stat.S_IROTH


def test_a_persistent_broker_keeps_retained_messages_over_a_clean_stop(mosquitto_factory):
    """As on the head unit (Debian's mosquitto.conf has `persistence true`): the round survives a restart."""
    broker = mosquitto_factory(persistence=True)
    head = Peer("head")
    assert head.connect(broker.host, broker.port)
    head.publish(topics.head_round(PARTY), "set 2 round 5 playing", retain=True)
    head.close()
    broker.outage(0.1)
    table = Peer("table")
    assert table.connect(broker.host, broker.port)
    table.subscribe(topics.head_round(PARTY))
    assert table.received(WAIT_S) == [(topics.head_round(PARTY), "set 2 round 5 playing")]
    table.close()


@pytest.mark.parametrize("algorithm", ["sha512-pbkdf2", "sha512"])
def test_hash_matches_reads_both_mosquitto_passwd_formats(tmp_path, algorithm):
    """An old ($6$) or new ($7$) passwd line that already fits its password is kept, not rehashed."""
    import shutil
    import subprocess

    tool = shutil.which("mosquitto_passwd")
    if tool is None:
        pytest.skip("mosquitto_passwd is missing (apt-get install mosquitto)")
    path = tmp_path / "passwd"
    path.write_text("")
    subprocess.run([tool, "-H", algorithm, "-b", str(path), "u", "s3cret:with colon"], check=True)
    hashed = path.read_text().strip().split(":", 1)[1]
    assert hash_matches(hashed, "s3cret:with colon")
    assert not hash_matches(hashed, "s3cret")
