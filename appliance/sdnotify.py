"""systemd's notify protocol (sd_notify(3)), so the units can be Type=notify with a watchdog.

Under systemd, NOTIFY_SOCKET names a datagram socket (a path, or '@name' for an abstract one);
each message is newline-separated KEY=VALUE lines. Outside systemd (a laptop, the tests, the
demo) NOTIFY_SOCKET is unset and every call here does nothing, so the unit code can call these
unconditionally. A failing send is logged and swallowed: the appliance must keep playing even if
systemd's socket goes away; a missed watchdog ping is then what restarts it, which is right.

Typical use in a unit's main loop::

    sdnotify.ready("table 2: playing")
    every = sdnotify.watchdog_interval()     # None when no watchdog is set
    ...
    if every and now - last_ping >= every:
        sdnotify.watchdog()
"""

from __future__ import annotations

import logging
import os
import signal
import socket
import threading
from collections.abc import Mapping

log = logging.getLogger(__name__)


def _address(name: str) -> str | bytes:
    # '@' marks Linux's abstract namespace, whose names start with a NUL byte on the wire.
    if name.startswith("@"):
        return b"\0" + name[1:].encode()
    return name


def notify(message: str, env: Mapping[str, str] | None = None) -> bool:
    """Send one raw notify message; True when it was sent, False when there is nowhere to send."""
    env = os.environ if env is None else env
    name = env.get("NOTIFY_SOCKET", "")
    if not name:
        return False
    if not (name.startswith("/") or name.startswith("@")):
        log.warning("NOTIFY_SOCKET=%r is neither a path nor an abstract '@name'; not notifying", name)
        return False
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.sendto(message.encode(), _address(name))
    except OSError as exc:
        log.warning("systemd notify to %s failed: %s", name, exc)
        return False
    return True


def _status_line(text: str) -> str:
    return "STATUS=" + " ".join(text.split())  # one line: a newline would start a new key


def ready(status: str | None = None) -> bool:
    """Start-up is done: systemd marks the unit active and starts ordering others after it."""
    return notify("READY=1" + (f"\n{_status_line(status)}" if status else ""))


def watchdog() -> bool:
    """Still alive: systemd restarts the unit if these stop for WatchdogSec."""
    return notify("WATCHDOG=1")


def status(text: str) -> bool:
    """A one-line state for `systemctl status`."""
    return notify(_status_line(text))


def stopping() -> bool:
    return notify("STOPPING=1")


def watchdog_timeout(env: Mapping[str, str] | None = None) -> float | None:
    """WatchdogSec in seconds, if systemd set a watchdog for this very process, else None.

    As sd_watchdog_enabled(3): WATCHDOG_PID, when set, must be our pid (a child that inherited
    the environment must not ping for its parent).
    """
    env = os.environ if env is None else env
    usec = env.get("WATCHDOG_USEC", "")
    pid = env.get("WATCHDOG_PID", "")
    if not usec:
        return None
    try:
        value = int(usec)
        if pid and int(pid) != os.getpid():
            return None
    except ValueError:
        log.warning("ignoring a bad WATCHDOG_USEC=%r / WATCHDOG_PID=%r", usec, pid)
        return None
    return value / 1_000_000 if value > 0 else None


def watchdog_interval(env: Mapping[str, str] | None = None) -> float | None:
    """How often to send WATCHDOG=1: half the timeout, as sd_watchdog_enabled(3) advises; None: never."""
    timeout = watchdog_timeout(env)
    return None if timeout is None else timeout / 2


def stop_on_sigterm() -> threading.Event:
    """systemd stops a unit with SIGTERM. Python's default would end the process on the spot,
    skipping the `finally` that turns the bell and lights off, sends the lines still in flight
    and says "offline"; instead the loop finishes the step under way and leaves through it."""
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda signum, frame: stop.set())
    return stop
