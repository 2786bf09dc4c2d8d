"""The studio's web server: a starlette app behind the Guard (security.py), run by
uvicorn on a socket bound here (port 0: a free one), with the render engine and the file
watcher beside it.

    studio = Studio("effect.kzm", host="127.0.0.1", port=0)
    studio.start()                 # the engine (GL thread), the watcher, the server thread
    print(studio.url)              # http://127.0.0.1:PORT/?token=...
    studio.stop()

`serve()` is `kzplayer serve`: the same, in the foreground until Ctrl+C.
"""
from __future__ import annotations

import asyncio
import json
import math
import socket
import threading
from importlib import resources

import uvicorn
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.responses import HTMLResponse, JSONResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from kzplayer.codes import code_for
from kzplayer.diagnostics import Diagnostic, KzError, Severity
from kzplayer.resources import samples_dir
from kzplayer.studio import api
from kzplayer.studio.engine import Engine
from kzplayer.studio.security import MAX_MESSAGE, Guard, new_token
from kzplayer.studio.watch import FileWatch

STATIC = resources.files("kzplayer.studio") / "static"
DEMO = "demo_fountain.kzm"          # as `kzplayer play` with no project


def _index(request):
    """The page, with the token in it. Its policy: its own scripts, styles and frames only
    (no inline script, no other site), its websocket on this host, never inside another
    site's frame (clickjacking), no referrer (the token stays in this tab)."""
    page = (STATIC / "index.html").read_text(encoding="utf-8")
    host = request.headers.get("host", "")
    policy = (f"default-src 'self'; img-src 'self' blob: data:; connect-src 'self' ws://{host}; "
              "script-src 'self'; style-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'")
    return HTMLResponse(page.replace("{{TOKEN}}", request.app.state.token),
                        headers={"cache-control": "no-store", "referrer-policy": "no-referrer",
                                 "content-security-policy": policy, "x-frame-options": "DENY",
                                 "x-content-type-options": "nosniff"})


async def _http_error(request, exc: HTTPException):
    return JSONResponse({"error": exc.detail or "refused"}, status_code=exc.status_code)


async def _frames(ws: WebSocket) -> None:
    """Each new frame: its JPEG (binary), then its figures (text: time, alive per emitter,
    the session's version, so a tab refetches the state another tab changed)."""
    engine = ws.app.state.engine
    event = engine.hub.subscribe()
    seen = 0
    try:
        while True:
            await event.wait()
            event.clear()
            seq, jpeg, info = engine.hub.latest
            if seq == seen:
                continue
            seen = seq
            await ws.send_bytes(jpeg)
            await ws.send_text(json.dumps(info))
    finally:
        engine.hub.unsubscribe(event)


def _finite(v) -> bool:
    """A JSON number that is one (JSON from Python's parser may hold NaN and Infinity)."""
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _mouse(engine, text: str) -> None:
    """{"orbit": [dx, dy]} (pixels dragged), {"zoom": factor}, {"reset": true}; anything else is ignored."""
    try:
        msg = json.loads(text)
    except ValueError:
        return
    if not isinstance(msg, dict):
        return
    orbit, zoom = msg.get("orbit"), msg.get("zoom")
    if isinstance(orbit, list) and len(orbit) == 2 and all(_finite(v) for v in orbit):
        dx, dy = (max(min(float(v), 2000.0), -2000.0) for v in orbit)
        engine.turn(-dx * 0.4, dy * 0.4, 1.0)     # drag down: look from above
    elif _finite(zoom) and 0.1 <= zoom <= 10.0:
        engine.turn(0.0, 0.0, float(zoom))
    elif msg.get("reset") is True:
        engine.reset_view()


async def _socket(ws: WebSocket) -> None:
    await ws.accept()
    sender = asyncio.create_task(_frames(ws))
    try:
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            data = message.get("text")
            if data is None or len(data) > MAX_MESSAGE:       # the page sends short text only
                await ws.close(code=1003 if data is None else 1009)
                break
            _mouse(ws.app.state.engine, data)
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        sender.cancel()


def make_app(engine: Engine, token: str) -> Starlette:
    routes = [
        Route("/", _index),
        Route("/api/state", api.state),
        Route("/api/item", api.item),
        Route("/api/file", api.project_file),
        Route("/api/set", api.set_value, methods=["POST"]),
        Route("/api/binding/check", api.check_binding, methods=["POST"]),
        Route("/api/binding/set", api.set_binding, methods=["POST"]),
        Route("/api/binding/add", api.add_binding, methods=["POST"]),
        Route("/api/binding/remove", api.remove_binding, methods=["POST"]),
        Route("/api/add-reads", api.add_reads, methods=["POST"]),
        Route("/api/set-many", api.set_many, methods=["POST"]),
        Route("/api/tree", api.tree_edit, methods=["POST"]),
        Route("/api/catalog", api.catalog),
        Route("/api/undo", api.undo, methods=["POST"]),
        Route("/api/redo", api.redo, methods=["POST"]),
        Route("/api/save", api.save, methods=["POST"]),
        Route("/api/control", api.control, methods=["POST"]),
        WebSocketRoute("/ws", _socket),
        Mount("/static", StaticFiles(directory=str(STATIC)), name="static"),
    ]
    app = Starlette(routes=routes, exception_handlers={HTTPException: _http_error})
    app.state.engine = engine
    app.state.token = token
    return app


def _hosts(host: str, port: int) -> set[str] | None:
    """The Host headers this studio answers: its address's names; None (any) for every
    address (`--host 0.0.0.0`: the machine's names are not known here)."""
    if host in ("0.0.0.0", "::", ""):
        return None
    names = {f"[{host}]"} if ":" in host else {host}
    if host in ("127.0.0.1", "::1", "localhost"):
        names |= {"127.0.0.1", "localhost", "[::1]"}
    return {f"{n}:{port}" for n in names}


class Studio:
    """The engine, the watcher and the server of one project."""

    def __init__(self, project: str, *, host: str = "127.0.0.1", port: int = 0, fps: float = 30.0,
                 size: tuple[int, int] = (640, 360), seed: int | None = None, watch: bool = True):
        self.engine = Engine(project, size=size, fps=fps, seed=seed)
        self.token = new_token()
        self.host, self.watch = host, watch
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.sock = socket.socket(family, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind((host, port))             # OSError: the port is taken (the CLI says so)
        self.sock.listen(128)                    # connections wait from now on, not refused, until uvicorn runs
        self.port = self.sock.getsockname()[1]
        self.watcher = None
        self.server = None
        self._thread = None

    @property
    def url(self) -> str:
        shown = f"[{self.host}]" if ":" in self.host else self.host
        shown = "127.0.0.1" if self.host in ("0.0.0.0", "::") else shown
        return f"http://{shown}:{self.port}/?token={self.token}"

    def _server(self) -> uvicorn.Server:
        app = Guard(make_app(self.engine, self.token), self.token, _hosts(self.host, self.port))
        config = uvicorn.Config(app, log_level="warning", ws="websockets-sansio", ws_max_size=MAX_MESSAGE,
                                lifespan="off", access_log=False, timeout_graceful_shutdown=2)
        return uvicorn.Server(config)

    def start(self, background: bool = True) -> None:
        self.engine.start()
        if self.watch:
            self.watcher = FileWatch(self.engine)
        self.server = self._server()
        if background:
            self._thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]},
                                            daemon=True, name="kzplayer-studio-http")
            self._thread.start()
            while not self.server.started and self._thread.is_alive():
                threading.Event().wait(0.02)

    def run(self) -> None:
        """In the foreground until Ctrl+C (uvicorn's signal handling; it raises the signal
        again once it has shut down: the end of a studio, exit 0)."""
        try:
            self.server.run(sockets=[self.sock])
        except KeyboardInterrupt:
            pass

    def stop(self) -> None:
        if self.server is not None:
            self.server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=10)
        if self.watcher is not None:
            self.watcher.close()
        self.engine.close()
        self.sock.close()


def serve(project: str | None, *, host: str = "127.0.0.1", port: int = 0, fps: float = 30.0,
          seed: int | None = None, echo=print) -> None:
    """`kzplayer serve`: the studio of `project` (None: the built-in demo) until Ctrl+C."""
    path = project if project is not None else str(samples_dir() / DEMO)
    try:
        studio = Studio(path, host=host, port=port, fps=fps, seed=seed)
    except OSError as exc:
        raise KzError(Diagnostic(code_for("cli.option"), "cli.option", Severity.ERROR,
                                 f"cannot listen on {host}:{port} ({exc.strerror or exc})",
                                 hint="choose another --port (0: any free one)"), exit_code=2) from None
    try:
        studio.start(background=False)
        echo(f"kzplayer studio: {path}")
        echo(f"open {studio.url}")
        echo("(Ctrl+C stops it)")
        studio.run()
    finally:
        studio.stop()
