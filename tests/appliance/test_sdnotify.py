"""appliance.sdnotify against a real AF_UNIX datagram socket, as systemd's notify socket is."""

from __future__ import annotations

import os
import secrets
import socket

import pytest

from appliance import sdnotify


@pytest.fixture
def path_socket(tmp_path, monkeypatch):
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(tmp_path / "notify"))
    sock.settimeout(2)
    monkeypatch.setenv("NOTIFY_SOCKET", str(tmp_path / "notify"))
    yield sock
    sock.close()


@pytest.fixture
def abstract_socket(monkeypatch):
    name = f"bunco-test-{secrets.token_hex(8)}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(b"\0" + name.encode())
    sock.settimeout(2)
    monkeypatch.setenv("NOTIFY_SOCKET", "@" + name)
    yield sock
    sock.close()


def test_ready_watchdog_status_stopping_reach_the_socket(path_socket):
    assert sdnotify.ready("table 2: playing")
    assert path_socket.recv(4096) == b"READY=1\nSTATUS=table 2: playing"
    assert sdnotify.watchdog()
    assert path_socket.recv(4096) == b"WATCHDOG=1"
    assert sdnotify.status("round 3\nset 1")  # one line: a newline would start a new key
    assert path_socket.recv(4096) == b"STATUS=round 3 set 1"
    assert sdnotify.stopping()
    assert path_socket.recv(4096) == b"STOPPING=1"
    assert sdnotify.ready()
    assert path_socket.recv(4096) == b"READY=1"


def test_abstract_socket(abstract_socket):
    assert sdnotify.watchdog()
    assert abstract_socket.recv(4096) == b"WATCHDOG=1"


def test_no_op_without_notify_socket(monkeypatch):
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    assert sdnotify.ready("x") is False
    assert sdnotify.watchdog() is False


def test_a_vanished_socket_is_logged_not_raised(tmp_path, monkeypatch, caplog):
    monkeypatch.setenv("NOTIFY_SOCKET", str(tmp_path / "gone"))
    assert sdnotify.watchdog() is False
    assert "notify" in caplog.text
    monkeypatch.setenv("NOTIFY_SOCKET", "relative/name")
    assert sdnotify.ready() is False


@pytest.mark.parametrize("env, timeout", [
    ({}, None),
    ({"WATCHDOG_USEC": "30000000"}, 30.0),
    ({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": str(os.getpid())}, 30.0),
    ({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": str(os.getpid() + 1)}, None),  # meant for another process
    ({"WATCHDOG_USEC": "0"}, None),
    ({"WATCHDOG_USEC": "soon"}, None),
])
def test_watchdog_timeout_and_interval(env, timeout):
    assert sdnotify.watchdog_timeout(env) == timeout
    assert sdnotify.watchdog_interval(env) == (None if timeout is None else timeout / 2)


def test_watchdog_interval_reads_the_environment(monkeypatch):
    monkeypatch.setenv("WATCHDOG_USEC", "1500000")
    monkeypatch.delenv("WATCHDOG_PID", raising=False)
    assert sdnotify.watchdog_interval() == 0.75
