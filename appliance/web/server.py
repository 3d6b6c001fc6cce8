"""The hostess page's web server: aiohttp on its own thread, talking to the head's loop.

Reads (the page, /state, the live /events stream, the downloads) need nothing; every change
is a POST to /api/ACTION with a session made by the PIN and its CSRF token (auth.PinGate).
A change runs on the head's thread (HeadApp.submit) and answers with one line: what was
done, or why it cannot happen now (HTTP 409, nothing changed).
"""

from __future__ import annotations

import asyncio
from html import escape
import json
import logging
import socket
import threading
from concurrent.futures import Future
from importlib import resources
from typing import Any, Callable

from aiohttp import ClientConnectionResetError, web

from appliance.head_unit import HeadUnit, Refused
from appliance.web.auth import PinGate, TooSoon, WrongPin

log = logging.getLogger(__name__)

COOKIE = "bunco_session"
ANSWER_S = 20.0  # the head's loop takes an action within a pass; this long means it has stopped
CSRF_HEADER = "X-Bunco-Csrf"
Submit = Callable[[Callable[[HeadUnit], Any]], "Future[Any]"]


def lan_address() -> str:
    """This machine's address on the party's network (no packet is sent: a UDP socket's route)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("192.0.2.1", 9))  # TEST-NET-1: only the routing table is asked
            return str(s.getsockname()[0])
        except OSError:
            return "127.0.0.1"


def qr_svg(text: str) -> str:
    import segno

    return str(segno.make(text, error="m").svg_inline(scale=8, border=2))


def _actions() -> dict[str, Callable[[dict[str, Any]], Callable[[HeadUnit], str]]]:
    """Each action: the request's JSON -> what the head does (returns the line the page shows)."""
    from appliance.game.players import split_list

    def text(body: dict[str, Any], key: str) -> str:
        value = body.get(key)
        if not isinstance(value, str):
            raise Refused(f"'{key}' is missing")
        return value

    def players(body: dict[str, Any]) -> Callable[[HeadUnit], str]:
        names = split_list(text(body, "text"))
        return lambda u: (u.set_players(names), f"{len(u.players)} players on the list")[1]

    def add(body: dict[str, Any]) -> Callable[[HeadUnit], str]:
        name = text(body, "name")
        return lambda u: f"{u.add_player(name)} joins" + (" the next round" if u.started else " the list")

    def rename(body: dict[str, Any]) -> Callable[[HeadUnit], str]:
        old, new = text(body, "old"), text(body, "new")
        return lambda u: f"{old} is now {u.rename_player(old, new)}"

    def remove(body: dict[str, Any]) -> Callable[[HeadUnit], str]:
        name = text(body, "name")
        return lambda u: (u.remove_player(name), f"{name} is off the list")[1]

    def undo(body: dict[str, Any]) -> Callable[[HeadUnit], str]:
        table = body.get("table")
        if isinstance(table, bool) or not isinstance(table, int):
            raise Refused("'table' must be a table number")
        return lambda u: (u.undo(table), f"table {table}: the last roll is being taken back")[1]

    def simple(method: Callable[[HeadUnit], None], said: str) -> Callable[[dict[str, Any]], Callable[[HeadUnit], str]]:
        return lambda body: (lambda u: (method(u), said)[1])

    return {
        "players": players, "add": add, "rename": rename, "remove": remove, "undo": undo,
        "start": simple(HeadUnit.start_night, "the night has started"),
        "hold": simple(HeadUnit.hold, "on hold: no next round until you resume"),
        "resume": simple(HeadUnit.resume, "resumed"),
        "next": simple(HeadUnit.next_round_now, "the next round has started"),
        "end": simple(HeadUnit.end_night, "the night is over"),
    }


class HostessServer:
    """Start with start(); publish(state) from the head's thread after each change."""

    def __init__(self, submit: Submit, gate: PinGate, host: str = "0.0.0.0", port: int = 8080,
                 state: dict[str, Any] | None = None) -> None:
        self.submit = submit
        self.gate = gate
        self.host = host
        self.port = port
        self.actions = _actions()
        self._state: dict[str, Any] = state or {}  # the night as it stands when the page comes up
        self._version = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._changed: asyncio.Condition | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._stop: asyncio.Event | None = None
        self._error: BaseException | None = None

    # ---- life ----------------------------------------------------------------------
    def start(self) -> int:
        """Serve on a thread; returns the port (0 asks for a free one)."""
        self._thread = threading.Thread(target=self._run, name="hostess-web", daemon=True)
        self._thread.start()
        self._ready.wait()
        if self._error is not None:
            raise self._error
        return self.port

    def url(self, host: str | None = None) -> str:
        return f"http://{host or lan_address()}:{self.port}/"

    def stop(self) -> None:
        if self._loop is not None and self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
        if self._thread is not None:
            self._thread.join(timeout=10)

    def publish(self, state: dict[str, Any]) -> None:
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._set_state, state)

    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        self._loop = loop
        try:
            loop.run_until_complete(self._serve())
        except BaseException as exc:  # a port in use: start() raises it on the caller's thread
            self._error = exc
            self._ready.set()
        finally:
            loop.close()

    async def _serve(self) -> None:
        self._changed = asyncio.Condition()
        self._stop = asyncio.Event()
        app = web.Application(client_max_size=64 * 1024)
        app.router.add_get("/", self.page)
        app.router.add_get("/state", self.state)
        app.router.add_get("/events", self.events)
        app.router.add_get("/session", self.session)
        app.router.add_post("/login", self.login)
        app.router.add_post("/logout", self.logout)
        app.router.add_post("/api/{action}", self.action)
        app.router.add_get("/night.jsonl", self.night_jsonl)
        app.router.add_get("/scorecards.csv", self.scorecards)
        app.router.add_get("/qr.svg", self.qr)
        runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await runner.setup()
        site = web.TCPSite(runner, self.host, self.port)
        await site.start()
        server = site._server  # noqa: SLF001 - aiohttp keeps the bound sockets there
        if server is not None and server.sockets:  # type: ignore[union-attr]
            self.port = server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self._ready.set()
        await self._stop.wait()
        async with self._changed:
            self._changed.notify_all()
        await runner.cleanup()

    def _set_state(self, state: dict[str, Any]) -> None:
        self._state = state
        self._version += 1
        assert self._changed is not None

        async def wake() -> None:
            assert self._changed is not None
            async with self._changed:
                self._changed.notify_all()
        asyncio.ensure_future(wake())

    # ---- reading -------------------------------------------------------------------
    async def page(self, request: web.Request) -> web.Response:
        """The page with the night as it stands written in (players listed without any script)."""
        html = resources.files("appliance.web").joinpath("page.html").read_text()
        state = self._state
        players = "".join(f"<li>{escape(p)}</li>" for p in state.get("players", []))
        data = json.dumps(state).replace("<", "\\u003c")  # safe inside <script>
        html = html.replace("<!--PLAYERS-->", players).replace("/*STATE*/null", data)
        return web.Response(text=html, content_type="text/html", headers=_NO_CACHE)

    async def state(self, request: web.Request) -> web.Response:
        return web.json_response(self._state, headers=_NO_CACHE)

    async def events(self, request: web.Request) -> web.StreamResponse:
        """Server-sent events: the whole state at once, then again after every change."""
        resp = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache",
                                           "X-Accel-Buffering": "no"})
        await resp.prepare(request)
        assert self._changed is not None and self._stop is not None
        seen = -1
        try:
            while not self._stop.is_set():
                if seen != self._version:
                    seen = self._version
                    await resp.write(f"data: {json.dumps(self._state)}\n\n".encode())
                async with self._changed:
                    try:
                        await asyncio.wait_for(self._changed.wait(), timeout=15)
                    except asyncio.TimeoutError:
                        await resp.write(b": still here\n\n")  # keeps phones' connections open
        except (ConnectionError, ClientConnectionResetError):  # the phone went away
            pass
        return resp

    async def session(self, request: web.Request) -> web.Response:
        csrf = self.gate.csrf_for(request.cookies.get(COOKIE))
        return web.json_response({"hostess": csrf is not None, "csrf": csrf}, headers=_NO_CACHE)

    async def _call(self, fn: Callable[[HeadUnit], Any]) -> Any:
        try:
            return await asyncio.wait_for(asyncio.wrap_future(self.submit(fn)), timeout=ANSWER_S)
        except asyncio.TimeoutError:
            raise web.HTTPServiceUnavailable(text="the head unit is not answering: look at its screen") from None

    async def night_jsonl(self, request: web.Request) -> web.Response:
        lines = await self._call(lambda u: u.export_lines())
        return web.Response(text="".join(line + "\n" for line in lines), content_type="application/x-ndjson",
                            headers={"Content-Disposition": 'attachment; filename="night.jsonl"', **_NO_CACHE})

    async def scorecards(self, request: web.Request) -> web.Response:
        from appliance.commands.export import scorecards_csv

        lines = await self._call(lambda u: u.export_lines())
        if not lines:
            return web.json_response({"error": "the night has not started: no scorecards yet"}, status=409)
        return web.Response(text=scorecards_csv(lines), content_type="text/csv",
                            headers={"Content-Disposition": 'attachment; filename="scorecards.csv"', **_NO_CACHE})

    async def qr(self, request: web.Request) -> web.Response:
        return web.Response(text=qr_svg(self.url(request.url.host)), content_type="image/svg+xml")

    # ---- changing ------------------------------------------------------------------
    def _same_origin(self, request: web.Request) -> bool:
        origin = request.headers.get("Origin")
        return origin is None or origin == f"{request.scheme}://{request.host}"

    async def login(self, request: web.Request) -> web.Response:
        if not self._same_origin(request):
            return web.json_response({"error": "a PIN from another site is not accepted"}, status=403)
        body = await _json(request)
        pin = body.get("pin") if isinstance(body, dict) else None
        if not isinstance(pin, str):
            return web.json_response({"error": "type the party's PIN"}, status=400)
        try:
            session, csrf = self.gate.login(request.remote or "?", pin)
        except TooSoon as exc:
            return web.json_response({"error": str(exc), "wait_s": exc.wait_s}, status=429,
                                     headers={"Retry-After": str(max(1, round(exc.wait_s)))})
        except WrongPin as exc:
            return web.json_response({"error": str(exc), "wait_s": exc.wait_s}, status=403)
        resp = web.json_response({"hostess": True, "csrf": csrf})
        resp.set_cookie(COOKIE, session, httponly=True, samesite="Strict", path="/")
        return resp

    async def logout(self, request: web.Request) -> web.Response:
        if not self._same_origin(request):
            return web.json_response({"error": "not from this page"}, status=403)
        self.gate.logout(request.cookies.get(COOKIE))
        resp = web.json_response({"hostess": False})
        resp.del_cookie(COOKIE, path="/")
        return resp

    async def action(self, request: web.Request) -> web.Response:
        name = request.match_info["action"]
        if not self._same_origin(request):
            return web.json_response({"error": "a change from another site is not accepted"}, status=403)
        if not self.gate.allowed(request.cookies.get(COOKIE), request.headers.get(CSRF_HEADER)):
            return web.json_response({"error": "read-only: type the party's PIN to make changes"}, status=403)
        make = self.actions.get(name)
        if make is None:
            return web.json_response({"error": f"no action {name!r}"}, status=404)
        body = await _json(request)
        try:
            said = await self._call(make(body if isinstance(body, dict) else {}))
        except Refused as exc:
            return web.json_response({"error": str(exc)}, status=409)
        return web.json_response({"ok": True, "message": said})


async def _json(request: web.Request) -> Any:
    if not request.can_read_body:
        return {}
    try:
        return await request.json()
    except (ValueError, UnicodeDecodeError):
        return {}


_NO_CACHE = {"Cache-Control": "no-store"}
