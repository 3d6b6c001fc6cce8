"""The party's PIN: sessions made with it, CSRF tokens, and wrong PINs slowed down.

Without a session the page is read-only. A session is a random token in an HttpOnly,
SameSite=Strict cookie, made only by the right PIN; every change also carries the
session's CSRF token in a header (a cross-site form cannot set one) and, when the
browser sends one, an Origin of this very host. Wrong PINs are free a few times (a
typo), then each one doubles the wait before the next try from that client.
"""

from __future__ import annotations

import hmac
import math
import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

PIN_DIGITS = 6
FREE_TRIES = 3        # wrong PINs before the waits start
FIRST_WAIT_S = 2.0    # then 2, 4, 8 ... seconds
MAX_WAIT_S = 900.0


class TooSoon(Exception):
    """A PIN tried before this client's wait is over (HTTP 429 with Retry-After)."""

    def __init__(self, wait_s: float) -> None:
        super().__init__(f"too many wrong PINs: try again in {math.ceil(wait_s)} s")
        self.wait_s = wait_s


class WrongPin(Exception):
    def __init__(self, wait_s: float) -> None:
        text = "wrong PIN" + (f": try again in {math.ceil(wait_s)} s" if wait_s > 0 else "")
        super().__init__(text)
        self.wait_s = wait_s


def new_pin() -> str:
    return "".join(secrets.choice("0123456789") for _ in range(PIN_DIGITS))


def read_or_make_pin(path: Path) -> str:
    """The unit's PIN file (made at install, mode 0600); made here if it is missing."""
    try:
        pin = path.read_text().strip()
    except FileNotFoundError:
        pin = new_pin()
        path.parent.mkdir(parents=True, exist_ok=True)
        path.touch(mode=0o600)
        path.chmod(0o600)
        path.write_text(pin + "\n")
    if not pin:
        raise ValueError(f"{path} is empty: write a PIN into it, or remove it to make a new one")
    return pin


@dataclass
class _Tries:
    wrong: int = 0
    until: float = 0.0


@dataclass
class PinGate:
    pin: str
    clock: Callable[[], float] = time.monotonic
    sessions: dict[str, str] = field(default_factory=dict)   # session token -> CSRF token
    tries: dict[str, _Tries] = field(default_factory=dict)   # per client address

    def login(self, client: str, pin: str) -> tuple[str, str]:
        """A new (session, csrf) for the right PIN; TooSoon / WrongPin otherwise."""
        t = self.tries.setdefault(client, _Tries())
        now = self.clock()
        if now < t.until:
            raise TooSoon(t.until - now)
        if not hmac.compare_digest(pin.strip().encode(), self.pin.encode()):
            t.wrong += 1
            wait = 0.0 if t.wrong < FREE_TRIES else min(FIRST_WAIT_S * 2 ** (t.wrong - FREE_TRIES), MAX_WAIT_S)
            t.until = now + wait
            raise WrongPin(wait)
        self.tries.pop(client, None)
        session, csrf = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
        self.sessions[session] = csrf
        return session, csrf

    def csrf_for(self, session: str | None) -> str | None:
        return self.sessions.get(session) if session else None

    def allowed(self, session: str | None, csrf: str | None) -> bool:
        want = self.csrf_for(session)
        return want is not None and csrf is not None and hmac.compare_digest(want.encode(), csrf.encode())

    def logout(self, session: str | None) -> None:
        if session:
            self.sessions.pop(session, None)
