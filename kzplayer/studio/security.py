"""What keeps the studio's server to its user (docs/studio.md, "Security"), in the manner
of Jupyter's: a random token in the URL that every request and websocket must carry (a
query `token=` or the `X-Studio-Token` header), the Host header one of the names the
server listens on (a DNS-rebinding page cannot talk to it; listening on every address,
`--host 0.0.0.0`, any name, the token still needed), the websocket's Origin the page's own
(the same host as the request's), request bodies bounded, and every path the page names kept inside the project
folder (no `..`, no absolute path, no link out of it).

The check is an ASGI middleware in front of the whole app: a request refused here gets a
JSON error and never reaches a handler.
"""
from __future__ import annotations

import json
import os
import secrets
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

MAX_BODY = 256 * 1024          # bytes of a request body: edits are small
MAX_FILE = 64 * 1024 * 1024    # bytes of a project file the page may fetch
MAX_MESSAGE = 4096             # bytes of a websocket message from the page (camera moves)
TOKEN_HEADER = "x-studio-token"


def new_token() -> str:
    return secrets.token_urlsafe(24)


class Refused(ValueError):
    """A path or request the studio will not serve."""


def inside(folder: str, relative: str) -> Path:
    """The file `relative` names inside `folder`, or Refused: empty, absolute (or a drive),
    with a `..` part, a NUL, or leading out of the folder through a link."""
    if not relative or "\0" in relative:
        raise Refused("no file named")
    if relative.startswith(("/", "\\")) or os.path.isabs(relative) or (len(relative) > 1 and relative[1] == ":"):
        raise Refused(f"{relative!r} is an absolute path: name a file inside the project folder")
    parts = relative.replace("\\", "/").split("/")
    if ".." in parts:
        raise Refused(f"{relative!r} leads out of the project folder")
    root = Path(folder).resolve()
    target = (root / relative).resolve()
    if target != root and root not in target.parents:
        raise Refused(f"{relative!r} leads out of the project folder (a link)")
    return target


class Guard:
    """ASGI middleware: the token, Host and Origin checks and the body bound."""

    def __init__(self, app, token: str, hosts: set[str] | None):
        self.app = app
        self.token = token
        self.hosts = hosts            # "127.0.0.1:8123", "localhost:8123", ...; None: any (--host 0.0.0.0)

    async def __call__(self, scope, receive, send):
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        why = self.refusal(scope, headers)
        if why is not None:
            status, message = why
            if kind == "websocket":
                return await send({"type": "websocket.close", "code": 1008, "reason": message[:120]})
            return await _send_json(send, status, message)
        if kind == "http":
            length = headers.get("content-length")
            if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
                return await _send_json(send, 413, f"the request body is over {MAX_BODY} bytes")
            receive = _bounded(receive)
        return await self.app(scope, receive, send)

    def refusal(self, scope, headers) -> tuple[int, str] | None:
        host = headers.get("host", "")
        if self.hosts is not None and host not in self.hosts:
            return 403, f"host {host!r} is not this studio's"
        given = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("token", [""])[0]
        given = headers.get(TOKEN_HEADER, given)
        if not given or not secrets.compare_digest(given.encode(), self.token.encode()):
            return 403, "a token is needed: open the URL kzplayer serve printed"
        if scope["type"] == "websocket":
            origin = headers.get("origin")
            if origin is None or urlsplit(origin).netloc != host:
                return 403, f"origin {origin!r} is not this studio's page"
        return None


def _bounded(receive):
    """The body as it arrives, refused past MAX_BODY (a chunked body has no length)."""
    seen = 0

    async def wrapped():
        nonlocal seen
        message = await receive()
        if message["type"] == "http.request":
            seen += len(message.get("body", b""))
            if seen > MAX_BODY:
                raise BodyTooLarge()
        return message
    return wrapped


class BodyTooLarge(Exception):
    pass


async def _send_json(send, status: int, message: str) -> None:
    body = json.dumps({"error": message}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            (b"cache-control", b"no-store")]})
    await send({"type": "http.response.body", "body": body})
